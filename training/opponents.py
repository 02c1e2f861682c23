"""The seats the learner plays against: bots by spec, and frozen snapshots of the learner (self-play).

An ``OpponentPool`` holds named entries with weights. ``"self"`` stands for the learner's snapshots: each
episode that draws it plays one of the most recent ``keep`` snapshots, chosen uniformly (the latest policy
itself while no snapshot exists yet). Every choice is drawn from the generator the caller passes, so a seeded
environment draws the same opponents in the same order.

The same pool serves CON-TAC-TIX (``game="contactix"``, ``training.contactix_seat_env``): its bots are then the
CON-TAC-TIX bots (``random``, ``two_distance``, ``mcts[:N]``), they see the state itself (the game has no hidden
information), and a snapshot reads ``agents.features.contactix_input``.
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from agents.base import Agent
from agents.registry import check_spec, make_agent, spec_help
from agents.view import public_view
from contack_env.contactix.rules import ContactixState

from agents.features import contactix_input, policy_input
from agents.policy_file import PolicyNet

SELF = "self"
POOL_GAMES = ("contack", "contactix")


class Opponent(Protocol):
    """Chooses the action of the seat to move in a ``contack_v0.raw_env`` (or a ``contactix_v0.raw_env``)."""

    def choose(self, env: object, rng: np.random.Generator) -> int: ...


class BotOpponent:
    """A bot of ``agents`` (it sees the public view of the game, as in ``contack evaluate``)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent

    def choose(self, env: object, rng: np.random.Generator) -> int:
        game = env.game
        legal = game.legal_moves()
        if isinstance(game, ContactixState):
            # Perfect information: the bot gets a copy of the state, and its moves are already the actions.
            return legal[0] if len(legal) == 1 else int(self.agent.act(game.clone(), legal))
        if len(legal) == 1:
            move = legal[0]
        else:
            move = self.agent.act(public_view(game), legal)
        return env.encode_move(move)


class PolicyOpponent:
    """A frozen policy, sampling its actions as the learner does while it trains."""

    def __init__(self, net: PolicyNet, deterministic: bool = False) -> None:
        self.net = net
        self.deterministic = deterministic

    def choose(self, env: object, rng: np.random.Generator) -> int:
        if isinstance(env.game, ContactixState):
            return self.net.act(contactix_input(env.game), env.action_mask(), self.deterministic, rng)
        obs = env.observe(env.agent_selection)
        x = policy_input(env.game, obs["observation"], self.net.meta.get("features", "none"))
        return self.net.act(x, obs["action_mask"], self.deterministic, rng)


class OpponentPool:
    """Opponents drawn by weight: ``{"greedy": 1, "lookahead": 1, "self": 2}``; ``keep`` snapshots of self.

    ``game`` is ``"contack"`` or ``"contactix"``: the game whose bots the specs name."""

    def __init__(self, weights: dict[str, float], keep: int = 5, seed: int = 0, game: str = "contack") -> None:
        if game not in POOL_GAMES:
            raise ValueError(f"an opponent pool is for the games {', '.join(POOL_GAMES)}; got {game!r}")
        self.game = game
        allowed = spec_help(game).replace(", ppo:PATH", "")
        if not weights:
            raise ValueError(f"the opponent pool is empty: give at least one of {allowed}, self")
        for spec, w in weights.items():
            if spec != SELF:
                if spec.startswith("ppo"):  # before check_spec, which would try to load the file
                    raise ValueError("opponent 'ppo:PATH' is not supported in the pool; use 'self' for self-play")
                try:
                    check_spec(spec, game)
                except ValueError as err:
                    raise ValueError(f"opponent {spec!r}: {err} (or 'self' for snapshots of the learner)") from None
            if not (isinstance(w, (int, float)) and w > 0):
                raise ValueError(f"opponent {spec!r}: the weight must be a positive number; got {w!r}")
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

    @property
    def uses_self(self) -> bool:
        return SELF in self.specs

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
        if self.game == "contactix":
            # A fresh bot seeded from the caller's generator, so that a seeded CON-TAC-TIX environment replays
            # the same game move for move (gymnasium's check_env tests it); making one costs next to nothing.
            # Contack's bots keep one generator each, the streams its shipped models were trained with.
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
        if self.game == "contactix":
            return self._bot("random", rng)
        if "random" not in self._bots:
            self._bots["random"] = BotOpponent(make_agent("random", seed=0))
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
    if w <= 0:
        raise ValueError(f"opponent {item!r}: the weight after the name must be a positive number")
    return w
