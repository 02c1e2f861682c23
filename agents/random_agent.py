"""``random``: uniform over the legal moves."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env.protocol import MoveT

from .base import Agent, StateT

_BLOCK = 1024


class RandomAgent(Agent[StateT, MoveT]):
    """Picks uniformly among the legal moves with its own ``numpy.random.Generator`` (any game)."""

    name = "random"

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        # Uniforms are drawn in blocks: one Generator call per move would cost more than the engine's move.
        self._uniforms: list[float] = []

    def act(self, state: StateT, legal: Sequence[MoveT]) -> MoveT:
        return legal[self.choose_index(len(legal))]

    def choose_index(self, n: int) -> int:
        """A uniform index in ``range(n)``."""
        if n == 1:
            return 0
        if not self._uniforms:
            self._uniforms = self.rng.random(_BLOCK).tolist()
        return int(self._uniforms.pop() * n)
