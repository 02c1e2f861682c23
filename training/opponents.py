"""The seats the learner plays against: bots by spec, and frozen snapshots of the learner (self-play).

An ``OpponentPool`` holds named entries with weights. ``"self"`` stands for the learner's snapshots: each
episode that draws it plays one of the most recent ``keep`` snapshots, chosen uniformly (the latest policy
itself while no snapshot exists yet). Every choice is drawn from the generator the caller passes, so a seeded
environment draws the same opponents in the same order.

The pool is generic over the game protocol: ``game`` names the game whose bots the specs are (``agents.registry``),
a bot sees the public view of the state (a plain copy in a game with nothing hidden, such as CON-TAC-TIX) and its
move becomes an action through the environment's ``encode_move``, and a snapshot reads the environment's own
observation. ``fresh_bots=True`` makes a new bot for every episode, seeded from the caller's generator
(``training.contactix_seat_env`` uses it, so that a seeded environment replays the same game move for move);
otherwise each bot keeps one generator for the pool's life (the streams the shipped Contack models were trained
with).
"""

from __future__ import annotations

import math
from typing import Protocol, Sequence

import numpy as np

from agents.base import Agent
from agents.registry import check_spec, make_agent, spec_help
from agents.view import public_view
from contack_env.games import GAMES, RuleOptions

from agents.features import policy_input
from agents.policy_file import PolicyNet

SELF = "self"


class Opponent(Protocol):
    """Chooses the action of the seat to move in a PettingZoo raw environment of the suite (``contack_v0``,
    ``contactix_v0``): it reads ``env.game`` (the state), ``env.observe`` and ``env.encode_move``."""

    def choose(self, env: object, rng: np.random.Generator) -> int: ...


class BotOpponent:
    """A bot of ``agents`` (it sees the public view of the game, as in ``contack evaluate``)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def choose(self, env: object, rng: np.random.Generator) -> int:
        game = env.game
        legal = game.legal_moves()
        move = legal[0] if len(legal) == 1 else self.agent.act(public_view(game), legal)
        return int(env.encode_move(move))


class PolicyOpponent:
    """A frozen policy, sampling its actions as the learner does while it trains."""

    def __init__(self, net: PolicyNet, deterministic: bool = False) -> None:
        self.net = net
        self.deterministic = deterministic

    def choose(self, env: object, rng: np.random.Generator) -> int:
        obs = env.observe(env.agent_selection)
        # A policy's input is the observation flattened (CON-TAC-TIX's planes are (N, N, 4)), plus the features
        # its file names (Contack's lookahead values).
        x = policy_input(env.game, np.ravel(obs["observation"]), self.net.meta.get("features", "none"))
        return self.net.act(x, obs["action_mask"], self.deterministic, rng)


class OpponentPool:
    """Opponents drawn by weight: ``{"greedy": 1, "lookahead": 1, "self": 2}``; ``keep`` snapshots of self.

    ``game``: the game whose bots the specs name; ``fresh_bots``: a new bot for every episode (module docstring);
    ``options``: the rule options of the games, which a trained opponent (``az:PATH``) must be able to play."""

    def __init__(
        self, weights: dict[str, float], keep: int = 5, seed: int = 0, game: str = "contack", fresh_bots: bool = False,
        options: RuleOptions | None = None,
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"an opponent pool is for one of the games {', '.join(GAMES)}; got {game!r}")
        self.game = game
        self.fresh_bots = fresh_bots
        allowed = spec_help(game).replace(", ppo:PATH", "")
        if not weights:
            raise ValueError(f"the opponent pool is empty: give at least one of {allowed}, self")
        for spec, w in weights.items():
            if spec != SELF:
                if spec.startswith("ppo"):  # before check_spec, which would try to load the file
                    raise ValueError("opponent 'ppo:PATH' is not supported in the pool; use 'self' for self-play")
                try:
                    check_spec(spec, game, options)
                except ValueError as err:
                    raise ValueError(f"opponent {spec!r}: {err} (or 'self' for snapshots of the learner)") from None
            if not (isinstance(w, (int, float)) and 0 < w < math.inf):
                raise ValueError(f"opponent {spec!r}: the weight must be a positive number (finite); got {w!r}")
        if not math.isfinite(sum(weights.values())):  # each is finite, and their sum overflows
            raise ValueError(f"the opponents' weights add up past the largest number ({', '.join(map(repr, weights.values()))}); "
                             "give smaller ones (only their ratios count)")
        if keep < 1:
            raise ValueError(f"keep must be at least 1; got {keep}")
        self.specs = list(weights)
        total = float(sum(weights.values()))
        self.probs = np.array([weights[s] / total for s in self.specs])
        self.keep = keep
        self.seed = seed
        self.snapshots: list[PolicyNet] = []
        self.latest: PolicyNet | None = None
        self._bots = {s: BotOpponent(make_agent(s, seed=seed + i, game=game))
                      for i, s in enumerate(self.specs) if s != SELF}

    def reseed(self, salt: int) -> None:
        """Give every bot a fresh generator drawn from the pool's seed and ``salt`` (``contack train`` restarts
        its streams at each checkpoint with ``salt`` = the timesteps: a resumed run then plays exactly as the
        uninterrupted run did)."""
        self._bots = {s: BotOpponent(make_agent(s, seed=np.random.SeedSequence([self.seed, salt, i]), game=self.game))
                      for i, s in enumerate(self.specs) if s != SELF}

    def add_snapshot(self, net: PolicyNet) -> None:
        """Add a frozen copy of the learner; only the most recent ``keep`` are drawn."""
        self.snapshots.append(net)
        del self.snapshots[: -self.keep]

    def set_latest(self, net: PolicyNet) -> None:
        """The learner's current policy: what ``self`` plays before the first snapshot."""
        self.latest = net

    def draw(self, rng: np.random.Generator, count: int) -> list[tuple[str, Opponent]]:
        """``count`` opponents, each drawn independently: ``(name, opponent)`` pairs."""
        out = []
        for i in rng.choice(len(self.specs), size=count, p=self.probs):
            spec = self.specs[int(i)]
            if spec == SELF:
                out.append((SELF, self._self_opponent(rng)))
            else:
                out.append((spec, self._bot(spec, rng)))
        return out

    def _bot(self, spec: str, rng: np.random.Generator) -> Opponent:
        if self.fresh_bots:
            # Seeded from the caller's generator, so that a seeded environment replays the same game move for move
            # (gymnasium's check_env tests it); making a bot costs next to nothing.
            return BotOpponent(make_agent(spec, seed=int(rng.integers(2**63)), game=self.game))
        return self._bots[spec]

    def _self_opponent(self, rng: np.random.Generator) -> Opponent:
        if self.snapshots:
            return PolicyOpponent(self.snapshots[int(rng.integers(len(self.snapshots)))])
        if self.latest is not None:
            return PolicyOpponent(self.latest)
        return self._fallback(rng)

    def _fallback(self, rng: np.random.Generator) -> Opponent:
        # Before the learner exists (the env is built before the model) 'self' plays uniformly at random.
        if self.fresh_bots:
            return self._bot("random", rng)
        if "random" not in self._bots:
            self._bots["random"] = BotOpponent(make_agent("random", seed=0, game=self.game))
        return self._bots["random"]


def parse_weights(specs: Sequence[str] | str) -> dict[str, float]:
    """``"greedy,lookahead,self:2"`` or a list of such items -> ``{"greedy": 1, "lookahead": 1, "self": 2}``.

    A weight follows the last ``*`` (``mcts:50*2``) or, for names that take no argument, a ``:``
    (``self:2``, ``greedy:3``, ``two_distance:2``).
    """
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    weights: dict[str, float] = {}
    for item in (s.strip() for s in items):
        if not item:
            continue
        spec, weight = item, 1.0
        if "*" in item:
            spec, _, w = item.rpartition("*")
            weight = _weight(item, w)
        elif item.count(":") == 1 and item.split(":")[0] in (SELF, "random", "greedy", "lookahead", "two_distance"):
            spec, w = item.split(":")
            weight = _weight(item, w)
        weights[spec] = weights.get(spec, 0.0) + weight
    return weights


def _weight(item: str, text: str) -> float:
    try:
        w = float(text)
    except ValueError:
        w = -1.0
    if not 0 < w < math.inf:  # nan too
        raise ValueError(f"opponent {item!r}: the weight after the name must be a positive number (finite)")
    return w
