"""Agent names as the command line and records spell them."""

from __future__ import annotations

from typing import Callable

import numpy as np

from .base import Agent
from .greedy import GreedyAgent
from .random_agent import RandomAgent

_FACTORIES: dict[str, Callable[[np.random.Generator], Agent]] = {
    "random": lambda rng: RandomAgent(rng),
    "greedy": lambda rng: GreedyAgent(),
}
AGENT_NAMES = tuple(_FACTORIES)


def make_agent(spec: str, seed: int | np.random.Generator | None = None) -> Agent:
    """The agent named ``spec``; its random choices flow from ``seed``."""
    factory = _FACTORIES.get(spec)
    if factory is None:
        raise ValueError(f"unknown agent {spec!r}; agents are: {', '.join(AGENT_NAMES)}")
    return factory(np.random.default_rng(seed))


def parse_agent_list(text: str, seats: int) -> list[str]:
    """``"random"`` for every seat, or one name per seat (``"greedy,random,random"``)."""
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in _FACTORIES:
            raise ValueError(f"unknown agent {name!r}; agents are: {', '.join(AGENT_NAMES)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise ValueError(f"--agents takes one name for every seat or one per seat ({seats}); got {len(names)}")
    return names
