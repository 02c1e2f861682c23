"""Agent specs as the command line and records spell them: ``name`` or ``name:argument``.

    random          uniform over the legal moves
    greedy          the most points now
    lookahead       points now against the next player's best reply, the tiles kept playable, the hand's end
    mcts[:N]        Monte Carlo tree search with N iterations a decision (default 200), over sampled pile orders
    ppo:PATH        a trained policy: a ``contack-policy/1`` weight file written by ``contack train`` (policy.npz)
    az:PATH[:SIMS]  a search-guided network (``contack-az/1``, ``contack train --algorithm az``) searching SIMS
                    simulations a decision (default: the file's; 0: the network alone)

The solitaires take the same specs (``make_agent(spec, seed, game="solitaire1")``); ``game`` matters to
``ppo:PATH`` and ``az:PATH`` alone, whose file must hold a network for that game (Contack, or that solitaire): a
file for another game fails when the agent is made (``check_spec`` at the command line), not in the middle of
play.

CON-TAC-TIX (``make_agent(spec, seed, game="contactix")``; ``agents.contactix_bots``):

    random          uniform over the legal moves
    two_distance    one-move search over the two-distance connection evaluation
    mcts[:N]        Monte Carlo tree search with N iterations a move (default 200), random playouts
    ppo:PATH        a policy file written by ``contack train --game contactix`` (it plays the board size it was
                    trained on; ``check_spec(spec, "contactix", board_size=N)`` checks that early)
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .base import Agent
from .contactix_bots import TwoDistanceAgent
from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import DEFAULT_BUDGET, MAX_BUDGET, MCTSAgent
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "greedy", "lookahead", "mcts", "ppo", "az")
SPEC_HELP = "random, greedy, lookahead, mcts[:ITERATIONS] (e.g. mcts:200), ppo:PATH, az:PATH[:SIMS]"
CONTACTIX_AGENT_NAMES = ("random", "two_distance", "mcts", "ppo")
CONTACTIX_SPEC_HELP = "random, two_distance, mcts[:ITERATIONS] (e.g. mcts:200), ppo:PATH"
AGENT_GAMES = ("contack", "solitaire1", "solitaire2", "contactix")

Factory = Callable[[str | None, np.random.Generator, str], Agent]
"""Makes an agent from the spec's argument, its generator and the game it is for."""


def _no_argument(name: str, factory: Callable[[np.random.Generator], Agent]) -> Factory:
    def make(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
        if arg is not None:
            raise ValueError(f"agent {name!r} takes no argument; got {name}:{arg}")
        return factory(rng)

    return make


def _mcts(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
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


def _ppo(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    if not arg:
        raise ValueError("ppo needs the path of a trained model: ppo:PATH")
    from .ppo_agent import PPOAgent  # numpy-only loader; imported here so the registry stays light

    return PPOAgent(arg, game=game, seed=rng)


def _az(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    if not arg:
        raise ValueError("az needs the path of a trained network: az:PATH or az:PATH:SIMS")
    path, sims = arg, None
    head, sep, tail = arg.rpartition(":")
    if sep and head and tail.strip().isdigit():  # az:PATH:SIMS (a path may itself hold a colon)
        path, sims = head, int(tail)
    from .az_agent import AZAgent  # numpy-only network; imported here so the registry stays light

    return AZAgent(path, sims=sims, game=game, seed=rng)


_FACTORIES: dict[str, Factory] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "greedy": _no_argument("greedy", lambda rng: GreedyAgent()),
    "lookahead": _no_argument("lookahead", lambda rng: LookaheadAgent()),
    "mcts": _mcts,
    "ppo": _ppo,
    "az": _az,
}


def _contactix_ppo(arg: str | None, rng: np.random.Generator, game: str) -> Agent:
    if not arg:
        raise ValueError("ppo needs the path of a trained model: ppo:PATH")
    from .ppo_agent import ContactixPPOAgent  # numpy-only loader, imported here so the registry stays light

    return ContactixPPOAgent(arg, seed=rng)


_CONTACTIX_FACTORIES: dict[str, Factory] = {
    "random": _no_argument("random", lambda rng: RandomAgent(rng)),
    "two_distance": _no_argument("two_distance", lambda rng: TwoDistanceAgent(rng)),
    "mcts": _mcts,
    "ppo": _contactix_ppo,
}


def split_spec(spec: str) -> tuple[str, str | None]:
    """``"mcts:200"`` -> ``("mcts", "200")``; ``"greedy"`` -> ``("greedy", None)``."""
    name, sep, arg = spec.strip().partition(":")
    return name, (arg if sep else None)


def make_agent(
    spec: str, seed: int | np.random.Generator | np.random.SeedSequence | None = None, game: str = "contack"
) -> Agent:
    """The agent ``spec`` names (``"greedy"``, ``"mcts:200"``, ...) for ``game`` (``AGENT_GAMES``: Contack, a
    solitaire, or ``"contactix"``); its random choices flow from ``seed``.

    Raises ``ValueError`` saying what is allowed for an unknown name or a bad argument.
    """
    if game == "contactix":
        factories, help_text, where = _CONTACTIX_FACTORIES, CONTACTIX_SPEC_HELP, " for contactix"
    elif game in AGENT_GAMES:
        factories, help_text, where = _FACTORIES, SPEC_HELP, ""
    else:
        raise ValueError(f"agents are made for the games {', '.join(AGENT_GAMES)}; got {game!r}")
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is a string ({help_text}); got {spec!r}")
    name, arg = split_spec(spec)
    factory = factories.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}{where}; agents are: {help_text}")
    return factory(arg, np.random.default_rng(seed), game)


def check_spec(spec: str, game: str = "contack", board_size: int | None = None, swap: bool = False) -> str:
    """``spec`` stripped, after checking it makes an agent for ``game`` (``ValueError`` otherwise).

    For CON-TAC-TIX, ``board_size`` (and ``swap``) also check that an agent bound to one board, a trained
    policy, can play that game."""
    agent = make_agent(spec, 0, game)
    if game == "contactix" and board_size is not None and hasattr(agent, "check_board"):
        agent.check_board(board_size, swap)
    return spec.strip()


def parse_agent_list(text: str, seats: int, game: str = "contack") -> list[str]:
    """``"random"`` for every seat, or one spec per seat (``"greedy,random,mcts:100"``), each checked for ``game``."""
    names = [check_spec(name, game) for name in text.split(",")]
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ValueError(f"--agents takes one agent for every seat or one per seat ({seats}); got {len(names)}")
    return names
