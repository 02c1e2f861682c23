"""A start from a bot's games (``lookahead``'s, or ``mcts:N``'s): samples that train the network before self-play
begins.

Self-play gives a run of the shipped heads-up command about 50,000 samples, and the value network trained on
them judges the rest of a hand poorly (``docs/training.md``): each target is one game's result, with the luck
of the pile in it, and a value network needs many of them. Games of the ``lookahead`` bot cost a few hundred
microseconds a decision, against milliseconds for a searched one, so hundreds of thousands of samples take
minutes. As AlphaGo started from a policy trained on people's games, a run with ``pretrain_games`` above 0
first plays that many games with every seat played by the bot, and trains the network on their decisions:

- the input is what self-play records (``agents.az.encoding``, the seat to move's public view);
- the value target is every seat's result over the run's horizon (``agents.az.horizon``), as self-play's;
- the policy target is the teacher's view of every legal move. The ``lookahead`` bot's is its judgement,
  softened: ``softmax(v / temperature)`` of its values ``v`` in points (``agents.lookahead.LookaheadAgent.value``),
  so that the search starts from a prior that ranks the moves as the bot does without ruling any out. With
  ``teacher`` ``mcts:N`` the bot is ``agents.mcts.MCTSAgent`` with ``N`` iterations, and the target is each
  move's share of its root visits, AlphaZero's target: a slower teacher (about 9 ms a decision at 200
  iterations), but one that beats ``lookahead``.

The network's input is the same whoever teaches (the ``lookahead`` judgement is part of it). The bot plays its
choice, except for a share ``explore`` of its decisions where it plays a legal move at random,
so that the games visit positions the bot itself would avoid (the search will meet them). Every random choice
comes from the run's seed, split into a fixed number of parts, so the samples do not depend on ``--workers``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from agents.az.encoding import Encoder
from agents.az.horizon import horizon_for
from agents.lookahead import LookaheadAgent, first_best
from agents.mcts import MCTSAgent
from agents.registry import mcts_budget, split_spec
from agents.view import public_view

from .selfplay import SAMPLE_FIELDS, GameSetup, Samples, sample_row, stack_samples

PRETRAIN_STREAM = 2**31 - 1
"""The second word of the pretraining games' seed, ``[seed, PRETRAIN_STREAM]`` (a self-play round's is its
iteration, far below it)."""
PARTS = 64
"""The games are split into this many parts, each with its own random stream, whatever the number of workers."""


TEACHERS = "lookahead or mcts:N (e.g. mcts:200)"


def check_teacher(spec: str) -> None:
    """Raise ValueError unless ``spec`` names a teacher (``TEACHERS``)."""
    name, arg = split_spec(spec) if isinstance(spec, str) else (None, None)
    if name == "lookahead" and arg is None:
        return
    if name == "mcts" and arg is not None:
        mcts_budget(arg)  # its message says what a budget is
        return
    raise ValueError(f"the pretraining teacher is {TEACHERS}; got {spec!r}")


@dataclass
class BotGames:
    """What ``bot_games`` plays: the run's games and inputs, and how the bot plays and teaches."""

    setup: GameSetup
    features: str
    temperature: float
    explore: float
    teacher: str = "lookahead"


class LookaheadTeacher:
    """The ``lookahead`` bot: its choice, and its judgement softened by ``temperature`` as the target."""

    def __init__(self, temperature: float) -> None:
        self.temperature = temperature

    def teach(self, view: Any, codes: list[int], judged: list[float]) -> tuple[np.ndarray, int]:
        """The policy target over ``codes`` and the index of the move the bot plays."""
        best = first_best(judged)
        values = np.array(judged)
        prior = np.exp((values - values[best]) / self.temperature)
        return prior / prior.sum(), best


class MCTSTeacher:
    """``mcts:N``: the move with the most visits, and each move's share of the root visits as the target."""

    def __init__(self, iterations: int, rng: np.random.Generator) -> None:
        self.agent = MCTSAgent(iterations, seed=rng)

    def teach(self, view: Any, codes: list[int], judged: list[float]) -> tuple[np.ndarray, int]:
        """The policy target over ``codes`` and the index of the move the bot plays."""
        root = self.agent.search(view)
        return np.array(MCTSAgent.visit_shares(root, codes)), codes.index(MCTSAgent.choice(root, codes))


def make_teacher(plan: BotGames, rng: np.random.Generator) -> LookaheadTeacher | MCTSTeacher:
    """The teacher ``plan`` names, drawing its random numbers (if any) from ``rng``."""
    check_teacher(plan.teacher)
    name, arg = split_spec(plan.teacher)
    return MCTSTeacher(mcts_budget(arg), rng) if name == "mcts" else LookaheadTeacher(plan.temperature)


def bot_games(plan: BotGames, games: int, seed: np.random.SeedSequence) -> Samples:
    """``games`` games of the teacher bot in every seat, one sample per decision with more than one legal move
    (module docstring)."""
    rng = np.random.default_rng(seed)
    setup = plan.setup
    encoder = Encoder(setup.game, plan.features, setup.options)
    horizon = horizon_for(setup.horizon)
    judge = LookaheadAgent()
    teacher = make_teacher(plan, rng)
    rows: dict[str, list[np.ndarray]] = {k: [] for k in SAMPLE_FIELDS}
    results: list[list[float]] = []
    for _ in range(games):
        state = setup.new_state(rng)
        players = state.num_players
        pending: list[tuple[np.ndarray, list[int], np.ndarray, int, Any]] = []
        while not state.done:
            codes = state.legal_codes()
            if len(codes) == 1:
                code = codes[0]
            else:
                view = public_view(state)
                judged = judge.values(view, codes)
                obs, actions = encoder.encode(view, judged)  # the bot's values are the input's judgement too
                policy, best = teacher.teach(view, codes, judged)
                pending.append((obs, actions, policy, state.current_player, horizon.start(view)))
                explore = rng.random() < plan.explore
                code = codes[int(rng.integers(len(codes)))] if explore else codes[best]
            state.play_code(code)
            still = []
            for obs, actions, policy, mover, base in pending:
                if horizon.over(state, base):
                    result = horizon.result(state, base)
                    for key, row in zip(rows, sample_row(encoder, players, obs, actions, policy, mover, result)):
                        rows[key].append(row)
                else:
                    still.append((obs, actions, policy, mover, base))
            pending = still
        results.append(horizon.result(state, None))
    return stack_samples(encoder, rows, results, [])


def _part(plan: BotGames, part: tuple[int, np.random.SeedSequence]) -> Samples:
    games, seed = part
    return bot_games(plan, games, seed)


def pretraining_samples(plan: BotGames, games: int, seed: int, run_map: Any,
                        progress: Callable[[int], None] | None = None) -> Samples:
    """``games`` bot games split into ``PARTS`` parts run by ``run_map(function, shared, items, done)`` (the run's
    workers: ``training.az.selfplay.SelfPlay.map``), joined in order; ``progress(n)`` is told of each part's
    ``n`` games as they come back."""
    seeds = np.random.SeedSequence([seed, PRETRAIN_STREAM]).spawn(PARTS)
    shares = [games // PARTS + (1 if i < games % PARTS else 0) for i in range(PARTS)]
    parts = [(n, s) for n, s in zip(shares, seeds) if n]
    done = None if progress is None else (lambda part: progress(part[0]))
    return Samples.concat(run_map(_part, plan, parts, done))

