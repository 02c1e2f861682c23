"""Agent specs as the command line and records spell them: ``name`` or ``name:argument``.

    random          uniform over the legal moves
    greedy          the most points now
    lookahead       points now against the next player's best reply, the tiles kept playable, the hand's end
    mcts[:N]        Monte Carlo tree search with N iterations a decision (default 200), over sampled pile orders
    ppo:PATH        a trained policy (the training issue fills it in; until then a clear error)
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np

from .base import Agent
from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import DEFAULT_BUDGET, MAX_BUDGET, MCTSAgent
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "greedy", "lookahead", "mcts", "ppo")
SPEC_HELP = "random, greedy, lookahead, mcts[:ITERATIONS] (e.g. mcts:200), ppo:PATH"


def _no_argument(name: str, factory: Callable[[np.random.Generator], Agent]) -> Callable[[str | None, np.random.Generator], Agent]:
    def make(arg: str | None, rng: np.random.Generator) -> Agent:
        if arg is not None:
            raise ValueError(f"agent {name!r} takes no argument; got {name}:{arg}")
        return factory(rng)

    return make


def _mcts(arg: str | None, rng: np.random.Generator) -> Agent:
    return MCTSAgent(iterations=mcts_budget(arg), seed=rng)


def mcts_budget(arg: str | None) -> int:
    """The iteration budget of ``mcts:ARG`` (``DEFAULT_BUDGET`` without one)."""
    if arg is None:
        return DEFAULT_BUDGET
    try:
        budget = int(arg)
    except ValueError:
        budget = 0
    if not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"mcts:{arg}: the budget is a whole number of iterations, 1..{MAX_BUDGET} (e.g. mcts:200)")
    return budget


def _ppo(arg: str | None, rng: np.random.Generator) -> Agent:
    if not arg:
        raise ValueError("ppo needs the path of a trained model: ppo:PATH")
    if not os.path.exists(arg):
        raise ValueError(f"no model at {arg} (ppo:PATH names a trained model file)")
    raise ValueError(f"ppo:{arg} needs a trained model; training is not implemented yet")


_FACTORIES: dict[str, Callable[[str | None, np.random.Generator], Agent]] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "greedy": _no_argument("greedy", lambda rng: GreedyAgent()),
    "lookahead": _no_argument("lookahead", lambda rng: LookaheadAgent()),
    "mcts": _mcts,
    "ppo": _ppo,
}


def split_spec(spec: str) -> tuple[str, str | None]:
    """``"mcts:200"`` -> ``("mcts", "200")``; ``"greedy"`` -> ``("greedy", None)``."""
    name, sep, arg = spec.strip().partition(":")
    return name, (arg if sep else None)


def make_agent(spec: str, seed: int | np.random.Generator | np.random.SeedSequence | None = None) -> Agent:
    """The agent ``spec`` names (``"greedy"``, ``"mcts:200"``, ...); its random choices flow from ``seed``.

    Raises ``ValueError`` saying what is allowed for an unknown name or a bad argument.
    """
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is a string ({SPEC_HELP}); got {spec!r}")
    name, arg = split_spec(spec)
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}; agents are: {SPEC_HELP}")
    return factory(arg, np.random.default_rng(seed))


def check_spec(spec: str) -> str:
    """``spec`` stripped, after checking it makes an agent (``ValueError`` otherwise)."""
    make_agent(spec, 0)
    return spec.strip()


def parse_agent_list(text: str, seats: int) -> list[str]:
    """``"random"`` for every seat, or one spec per seat (``"greedy,random,mcts:100"``)."""
    names = [check_spec(name) for name in text.split(",")]
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ValueError(f"--agents takes one agent for every seat or one per seat ({seats}); got {len(names)}")
    return names
