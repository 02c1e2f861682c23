"""The action encoding shared by every Contack environment: a *slot* and a *cell slot*.

A placement is a tile and a cell (the orientation is always blue on ``B``, docs/rules.md sections 2 and 4). Rather
than naming the cell by absolute coordinates (71 x 35 cells, docs/rules.md section 2, times the tiles: tens of
thousands of actions, nearly all of them never legal), an action names it among the only cells a placement can
ever go to (docs/rules.md section 4.2):

- cell slots 0, 1, 2: the free cell across side ``L``, ``R``, ``B`` of the last-played tile, when that cell
  touches only the last-played tile;
- cell slots 3 .. 3 + MAX_HOLES - 1: the *holes*, empty cells touching two or three tiles (where opportunity
  plays go, including a hole beside the last-played tile), in ascending ``(x, y)`` order.

Every candidate cell has exactly one cell slot, so every legal placement has exactly one action. MAX_HOLES = 18
is exact for completeness: the figure is connected, so ``k`` tiles have at least ``k - 1`` contacts and at most
``3k - 2(k - 1) = k + 2`` free sides; a hole takes at least two of them, so there are at most ``(k + 2) // 2``
holes, and a decision has ``k <= 35`` tiles placed (36 would mean the game is over), hence at most 18.

The tile is named by a *slot*: in the multiplayer game the position of the tile in the player's hand sorted by
tile id (a hand never holds more than 5), in Solitaire No. 2 the stack (7), in Solitaire No. 1 the one tile to
place (1). ``action = slot * NUM_CELL_SLOTS + cell_slot``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env.contack.figure import (CELL_MASK, TILE_SHIFT, Figure, Move, code_to_move, move_code, neighbour_count,
                                        on_the_grid)
from contack_env.contack.grid import CELL_SIDES, cell_index

MAX_HOLES = 18
NUM_CELL_SLOTS = 3 + MAX_HOLES


def candidate_cells(figure: Figure) -> list[int | None]:
    """The engine cell index in each cell slot (None where the slot is empty)."""
    cells: list[int | None] = [None] * NUM_CELL_SLOTS
    if figure.last is None:
        return cells
    placed = figure.placed
    frontier = figure.frontier
    for k, (n, _) in enumerate(CELL_SIDES[figure.last]):
        if n not in placed and neighbour_count(frontier[n]) == 1:
            cells[k] = n
    holes = sorted(figure.holes)  # cell indices sort as (x, y) do
    if len(holes) > MAX_HOLES:  # impossible for a legal figure (module docstring); never truncate silently
        raise RuntimeError(f"{len(holes)} holes exceed the encoding's {MAX_HOLES}: the figure is not a legal one")
    cells[3 : 3 + len(holes)] = holes
    return cells


class ActionLayout:
    """The mapping between actions and moves at one decision.

    ``slots`` holds the tile in each slot (None for an empty slot); ``cells`` is ``candidate_cells(figure)``.
    """

    __slots__ = ("num_slots", "slots", "cells", "_slot_of", "_cell_slot_of")

    def __init__(self, num_slots: int, slots: Sequence[int | None], figure: Figure) -> None:
        if len(slots) > num_slots:
            raise ValueError(f"{len(slots)} tiles do not fit {num_slots} slots")
        self.num_slots = num_slots
        self.slots = list(slots) + [None] * (num_slots - len(slots))
        self.cells = candidate_cells(figure)
        self._slot_of = {t: k for k, t in enumerate(self.slots) if t is not None}
        self._cell_slot_of = {c: k for k, c in enumerate(self.cells) if c is not None}

    @property
    def num_actions(self) -> int:
        return self.num_slots * NUM_CELL_SLOTS

    def encode_code(self, code: int) -> int:
        """The action of an engine move code."""
        # Inline: called for every legal move when the mask is built.
        return self._slot_of[code >> TILE_SHIFT] * NUM_CELL_SLOTS + self._cell_slot_of[code & CELL_MASK]

    def encode(self, move: Move) -> int:
        """The action of ``move``; ``KeyError`` if its tile or cell has no slot at this decision (a cell beyond the
        engine's grid has none, though its index is another cell's)."""
        if not on_the_grid(move):
            raise KeyError(move)
        return self._slot_of[move.tile] * NUM_CELL_SLOTS + self._cell_slot_of[cell_index(move.x, move.y)]

    def decode_code(self, action: int) -> int | None:
        """The engine move code of ``action``, or None if its slot or cell slot is empty."""
        slot, cell_slot = divmod(int(action), NUM_CELL_SLOTS)
        if not 0 <= slot < self.num_slots:
            return None
        tile = self.slots[slot]
        cell = self.cells[cell_slot]
        if tile is None or cell is None:
            return None
        return move_code(tile, cell)

    def decode(self, action: int) -> Move | None:
        code = self.decode_code(action)
        if code is None:
            return None
        return code_to_move(code)

    def mask(self, codes: Sequence[int]) -> np.ndarray:
        """The int8 action mask of the legal move codes ``codes``."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        for code in codes:
            mask[self.encode_code(code)] = 1
        return mask
