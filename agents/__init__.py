"""Agents that play Contack, all behind one interface (``agents.base.Agent``).

``make_agent("random", seed=...)``, ``make_agent("greedy")``, ``make_agent("lookahead")``,
``make_agent("mcts:200", seed=...)``: see ``agents.registry`` for the specs. ``evaluate`` plays them against each
other (``contack evaluate``): specs, ``Agent`` objects and functions ``f(state, legal) -> move`` alike;
``register("name", factory)`` makes an agent of your own a spec; ``contack play`` lets a person play them at
the terminal (``contack_env.cli.terminal``).

``from agents import evaluate`` is the function: the module of the same name stays ``agents.evaluate`` for
``from agents.evaluate import ...`` (``import agents.evaluate as module`` would give the function).
"""

from .base import Agent
from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .evaluate import evaluate
from .function_agent import FunctionAgent
from .registry import AGENT_NAMES, make_agent, parse_agent_list, register, unregister

__all__ = [
    "AGENT_NAMES",
    "Agent",
    "FunctionAgent",
    "GreedyAgent",
    "LookaheadAgent",
    "MCTSAgent",
    "RandomAgent",
    "evaluate",
    "make_agent",
    "parse_agent_list",
    "register",
    "unregister",
]
