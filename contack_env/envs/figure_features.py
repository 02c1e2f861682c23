"""What every Contack observation shows of the figure and of a tile: the pieces the multiplayer environment and
the solitaires share, their scales, and the one function that builds a candidate cell's row.

Positions are scaled by the grid bound: every cell of a legal figure lies in ``-35 <= x <= 35``,
``-17 <= y <= 17`` (docs/rules.md section 2; ``docs/grid_bounds.py`` shows the exact reach), so a tile's
``px = (x + 35) / 70`` and ``py = (y + 17) / 34`` lie in [0, 1]. A candidate cell just outside that box can exist
(a free neighbour of a tile on the edge) but can never be filled; its position is clipped.
"""

from __future__ import annotations

from array import array
from typing import Sequence

import numpy as np

from contack_env.contack.figure import Figure
from contack_env.contack.grid import CELL_SIDES, NUM_CELL_INDICES, OFFSET, SPAN
from contack_env.contack.tiles import NUM_TILES, TILE_VALUES
from contack_env.envs.actions import NUM_CELL_SLOTS
from contack_env.envs.layout import Column, Columns, Piece

X_BOUND = 35
"""Every placed tile has ``-X_BOUND <= x <= X_BOUND`` (docs/rules.md section 2)."""
Y_BOUND = 17
"""Every placed tile has ``-Y_BOUND <= y <= Y_BOUND`` (docs/rules.md section 2)."""
TILE_VALUE_SCALE = 10.0
"""Tile values (1..10) are divided by this."""
POINTS_SCALE = 50.0
"""Points a placement scores are divided by this: the best placement scores 50 (docs/rules.md section 4)."""
NEIGHBOUR_SCALE = 3.0
"""A cell has three sides: its count of placed neighbours is divided by this."""


def px(x: int) -> float:
    """The scaled x of a cell, ``(x + 35) / 70``, clipped to [0, 1]."""
    return min(max((x + X_BOUND) / (2 * X_BOUND), 0.0), 1.0)


def py(y: int) -> float:
    """The scaled y of a cell, ``(y + 17) / 34``, clipped to [0, 1]."""
    return min(max((y + Y_BOUND) / (2 * Y_BOUND), 0.0), 1.0)


# -- the columns of a tile's row that say where it lies ------------------------------------------------------------
ON_FIGURE = Column("figure", "on the figure")
TILE_X = Column("x", "`px` of its cell if on the figure, else 0")
TILE_Y = Column("y", "`py` of its cell if on the figure, else 0")
LAST_PLAYED = Column("last", "it is the last-played tile")

# -- a tile offered to the player (a hand slot, a stack top, the tile to place) ------------------------------------
SLOT_PRESENT = Column("present", "the slot holds a tile")
SLOT_VALUES = Column("values", f"its blue, red, gold values / {TILE_VALUE_SCALE:g}", 3)

# -- a candidate cell (a cell slot of the action encoding) ---------------------------------------------------------
CELL_COLUMNS = Columns(
    Column("present", "the slot holds a cell"),
    Column("x", "its `px`"),
    Column("y", "its `py` (both clipped to [0, 1])"),
    Column("up", "it points up"),
    Column("neighbours", f"placed neighbours / {NEIGHBOUR_SCALE:g}"),
    Column(
        "facing",
        f"the value the placed neighbour across side L, R, B shows this cell / {TILE_VALUE_SCALE:g} (0 if none)",
        3,
    ),
    Column("beside_last", "it touches the last-played tile"),
)
CELLS = Piece("cells", (NUM_CELL_SLOTS, CELL_COLUMNS.width), "per cell slot, in the action encoding's order:", columns=CELL_COLUMNS)
"""The candidate-cell rows, the same piece in every Contack observation."""

_PRESENT, _X, _Y, _UP = (CELL_COLUMNS[name] for name in ("present", "x", "y", "up"))
_NEIGHBOURS, _FACING, _BESIDE_LAST = CELL_COLUMNS["neighbours"], CELL_COLUMNS["facing"], CELL_COLUMNS["beside_last"]
NEIGHBOUR_VALUES = tuple(k / NEIGHBOUR_SCALE for k in range(4))
"""``NEIGHBOUR_VALUES[k]``: the ``neighbours`` value of a cell with ``k`` placed neighbours."""
_STATIC_ROWS: dict[int, array] = {}

TILE_VALUE_ROWS = tuple(tuple(v / TILE_VALUE_SCALE for v in TILE_VALUES[t]) for t in range(NUM_TILES))
"""``TILE_VALUE_ROWS[t]``: tile ``t``'s blue, red and gold values, scaled."""
SHOWN = tuple(tuple(TILE_VALUE_ROWS[t][colour] for t in range(NUM_TILES)) for colour in range(3))
"""``SHOWN[colour][t]``: the scaled value tile ``t`` shows on its ``colour`` side."""
CELL_PXY = tuple((px(c // SPAN - OFFSET), py(c % SPAN - OFFSET)) for c in range(NUM_CELL_INDICES))
"""``CELL_PXY[cell]``: the ``(px, py)`` of a tile on engine cell index ``cell``."""


def static_cell_row(cell: int) -> array:
    """The values of cell ``cell``'s row that never change (present, position, orientation; the rest 0), as a
    float32 ``array``: shared, copy it before writing."""
    row = _STATIC_ROWS.get(cell)
    if row is None:
        x, y = cell // SPAN - OFFSET, cell % SPAN - OFFSET
        row = array("f", bytes(4 * CELL_COLUMNS.width))
        row[_PRESENT] = 1.0
        row[_X] = px(x)
        row[_Y] = py(y)
        row[_UP] = 1.0 if (x + y) % 2 == 0 else 0.0
        row = _STATIC_ROWS[cell] = row
    return row


def cell_row(placed: dict[int, int], cell: int) -> array:
    """The row of empty cell ``cell`` next to the tiles ``placed`` (cell index -> tile), all but the
    ``beside_last`` flag, as a fresh float32 ``array``."""
    row = array("f", static_cell_row(cell))
    count = 0
    for side, (neighbour, colour) in enumerate(CELL_SIDES[cell]):
        tile = placed.get(neighbour)
        if tile is not None:
            count += 1
            row[_FACING + side] = SHOWN[colour][tile]
    row[_NEIGHBOURS] = NEIGHBOUR_VALUES[count]
    return row


def fill_cell_rows(block: np.ndarray, figure: Figure, cells: Sequence[int | None]) -> None:
    """Write the row of every candidate cell (``cells``: the engine cell index per cell slot, None where empty)
    into ``block`` (``CELLS``' shape, zeros where a slot is empty)."""
    placed = figure.placed
    beside_last = {n for n, _ in CELL_SIDES[figure.last]} if figure.last is not None else set()
    for k, cell in enumerate(cells):
        if cell is None:
            continue
        block[k] = cell_row(placed, cell)
        if cell in beside_last:
            block[k, _BESIDE_LAST] = 1.0


def fill_figure_columns(tiles: np.ndarray, figure: Figure, columns: Columns) -> None:
    """Write the ``figure``, ``x``, ``y`` and ``last`` columns of the per-tile rows ``tiles`` (one row per tile
    id, laid out by ``columns``) for the tiles on ``figure``."""
    on_figure, x, y, last = (columns[name] for name in (ON_FIGURE.name, TILE_X.name, TILE_Y.name, LAST_PLAYED.name))
    for cell, tile in figure.placed.items():
        tiles[tile, on_figure] = 1.0
        tiles[tile, x], tiles[tile, y] = CELL_PXY[cell]
    if figure.last is not None:
        tiles[figure.placed[figure.last], last] = 1.0
