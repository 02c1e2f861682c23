"""``greedy``: the move that scores the most points now."""

from __future__ import annotations

from typing import Sequence

from contack_env.contack.figure import Move
from contack_env.contack.grid import cell_index
from contack_env.contack.state import GameState

from .base import Agent


class GreedyAgent(Agent[GameState, Move]):
    """Highest points now; ties go to the lowest tile id, then the lowest ``(x, y)`` (x first, then y).

    The tie-break is applied to the moves themselves, so the choice does not depend on the order of ``legal``.
    """

    name = "greedy"

    def act(self, state: GameState, legal: Sequence[Move]) -> Move:
        figure = state.figure
        best = legal[0]
        best_points = -1
        for move in legal:
            points = figure.points_for(move.tile, cell_index(move.x, move.y))
            # Move is (tile, x, y): tuple order is the tie-break order.
            if points > best_points or (points == best_points and move < best):
                best, best_points = move, points
        return best
