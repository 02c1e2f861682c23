"""Agents that play Contack, all behind one interface (``agents.base.Agent``).

``make_agent("random", seed=...)``, ``make_agent("greedy")``: see ``agents.registry`` for the names.
"""

from .base import Agent
from .greedy import GreedyAgent
from .random_agent import RandomAgent
from .registry import AGENT_NAMES, make_agent, parse_agent_list

__all__ = ["AGENT_NAMES", "Agent", "GreedyAgent", "RandomAgent", "make_agent", "parse_agent_list"]
