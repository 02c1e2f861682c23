"""The greedy playout the searches share: ``mcts``' rollouts and the ``az`` search's rollout share of a leaf,
and the greedy moves the ``az`` search plays on from a new leaf before its network values it (``greedy_moves``).

At every decision with a choice, with probability ``greedy`` the move that scores the most now (ties to the
first in code order), else a uniform one; a forced move spends no random number. Contack and both solitaires
(every game whose state has a ``figure``).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

BLOCK = 4096
GREEDY = 0.8
"""The share of greedy moves in a playout (``mcts``' default, and the ``az`` search's)."""


def is_share(value: object) -> bool:
    """Whether ``value`` is a number from 0 to 1 (a playout's share of a leaf's value; not a bool)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0.0 <= value <= 1.0


class Uniforms:
    """Uniform draws in [0, 1) from ``rng``, taken a block at a time (a numpy call per draw costs more than the
    playout's own work)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._left: list[float] = []

    def __call__(self) -> float:
        if not self._left:
            self._left = self.rng.random(BLOCK).tolist()
        return self._left.pop()


def best_scoring(state: Any, codes: Sequence[int]) -> int:
    """The code among ``codes`` (legal at ``state``) whose move scores the most now; ties to the first."""
    figure = state.figure
    code = codes[0]
    best = -1
    for c in codes:
        p = figure.points_for_code(c)
        if p > best:
            best, code = p, c
    return code


def greedy_moves(state: Any, count: int, over: Callable[[Any], bool] | None = None) -> None:
    """Play ``state`` on, in place, by up to ``count`` moves, each the one that scores the most now (a forced
    move counts as one), stopping early when it is done or ``over(state)`` holds. No random number is spent."""
    for _ in range(count):
        if state.done or (over is not None and over(state)):
            return
        codes = state.legal_codes()
        state.play_code(codes[0] if len(codes) == 1 else best_scoring(state, codes))


def greedy_playout(state: Any, greedy: float, uniform: Callable[[], float],
                   over: Callable[[Any], bool] | None = None) -> None:
    """Play ``state`` on, in place, until it is done (or ``over(state)`` holds), as the module docstring says."""
    while not state.done and (over is None or not over(state)):
        codes = state.legal_codes()
        if len(codes) == 1:
            code = codes[0]
        elif uniform() < greedy:
            code = best_scoring(state, codes)
        else:
            code = codes[int(uniform() * len(codes))]
        state.play_code(code)
