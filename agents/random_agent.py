"""``random``: uniform over the legal moves."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env.contack.figure import Move
from contack_env.contack.state import GameState

from .base import Agent

_BLOCK = 1024


class RandomAgent(Agent):
    """Picks uniformly among the legal moves with its own ``numpy.random.Generator``."""

    name = "random"

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        # Uniforms are drawn in blocks: one Generator call per move would cost more than the engine's move.
        self._uniforms: list[float] = []

    def act(self, state: GameState, legal: Sequence[Move]) -> Move:
        return legal[self.choose_index(len(legal))]

    def choose_index(self, n: int) -> int:
        """A uniform index in ``range(n)``."""
        if n == 1:
            return 0
        if not self._uniforms:
            self._uniforms = self.rng.random(_BLOCK).tolist()
        return int(self._uniforms.pop() * n)
