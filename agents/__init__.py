"""Agents that play Contack, all behind one interface (``agents.base.Agent``).

``make_agent("random", seed=...)``, ``make_agent("greedy")``, ``make_agent("lookahead")``,
``make_agent("mcts:200", seed=...)``: see ``agents.registry`` for the specs. ``agents.evaluate`` plays them
against each other (``contack evaluate``); ``agents.play`` lets a person play them (``contack play``).
"""

from .base import Agent
from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .registry import AGENT_NAMES, make_agent, parse_agent_list

__all__ = [
    "AGENT_NAMES",
    "Agent",
    "GreedyAgent",
    "LookaheadAgent",
    "MCTSAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent_list",
]
