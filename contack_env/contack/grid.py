"""The triangular grid of the table (docs/rules.md section 2).

A cell is ``(x, y)``; it points up when ``x + y`` is even, down when odd. Sides are ``"L"``, ``"R"``, ``"B"``.
Every placed tile has blue on ``B`` (docs/rules.md section 2), so an up cell shows red on ``R`` and gold on ``L``, a
down cell red on ``L`` and gold on ``R``; this module holds that table and the neighbour relation.

For speed the engine addresses cells by an integer index (``cell_index``); the public helpers take ``(x, y)``.
"""

from __future__ import annotations

from contack_env.contack.tiles import BLUE, GOLD, RED

SIDES = ("L", "R", "B")
_FACING = {"L": "R", "R": "L", "B": "B"}

# Integer cell indices: (x + OFFSET) * SPAN + (y + OFFSET). A figure of 36 tiles lies within 35 steps of the
# origin, so OFFSET = 64 keeps every reachable cell and its neighbours inside 0 .. SPAN*SPAN - 1.
OFFSET = 64
SPAN = 128
NUM_CELL_INDICES = SPAN * SPAN
ORIGIN = OFFSET * SPAN + OFFSET


def is_up(x: int, y: int) -> bool:
    """Whether cell ``(x, y)`` points up."""
    return (x + y) % 2 == 0


def neighbour(x: int, y: int, side: str) -> tuple[int, int]:
    """The cell that side ``side`` of ``(x, y)`` touches."""
    if side == "L":
        return (x - 1, y)
    if side == "R":
        return (x + 1, y)
    if side == "B":
        return (x, y - 1) if is_up(x, y) else (x, y + 1)
    raise ValueError(f"unknown side {side!r}: sides are 'L', 'R' and 'B'")


def neighbours(x: int, y: int) -> dict[str, tuple[int, int]]:
    """The three cells touching ``(x, y)``, by side."""
    return {side: neighbour(x, y, side) for side in SIDES}


def facing_side(side: str) -> str:
    """The side of the neighbour across ``side`` of any cell that touches it (the same for up and down cells)."""
    return _FACING[side]


def orientation_colours(x: int, y: int, blue: str = "B") -> dict[str, int]:
    """Colour on each side of a tile on ``(x, y)`` whose blue edge is on side ``blue`` (docs/rules.md section 2).

    Colours run blue, red, gold anticlockwise; anticlockwise an up cell's sides run B, R, L and a down
    cell's B, L, R.
    """
    if blue not in SIDES:
        raise ValueError(f"unknown side {blue!r}: sides are 'L', 'R' and 'B'")
    order = ("B", "R", "L") if is_up(x, y) else ("B", "L", "R")
    start = order.index(blue)
    return {order[(start + i) % 3]: colour for i, colour in enumerate((BLUE, RED, GOLD))}


def side_colour(x: int, y: int, side: str) -> int:
    """Colour shown on ``side`` of any tile placed on ``(x, y)`` (blue is always on ``B``)."""
    return orientation_colours(x, y)[side]


def cell_index(x: int, y: int) -> int:
    """The engine's integer index of cell ``(x, y)``."""
    return (x + OFFSET) * SPAN + (y + OFFSET)


def cell_xy(index: int) -> tuple[int, int]:
    """The ``(x, y)`` of an engine cell index."""
    return (index // SPAN - OFFSET, index % SPAN - OFFSET)


def _build_cell_sides() -> list[tuple[tuple[int, int], ...]]:
    # CELL_SIDES[i] = ((neighbour index, colour of the shared sides), ...) for sides L, R, B; index arithmetic
    # rather than the helpers above because this runs over all 16384 indices at import.
    up = ((-SPAN, GOLD), (SPAN, RED), (-1, BLUE))
    down = ((-SPAN, RED), (SPAN, GOLD), (1, BLUE))
    table: list[tuple[tuple[int, int], ...]] = []
    for i in range(NUM_CELL_INDICES):
        sides = down if (i // SPAN + i % SPAN) % 2 else up
        table.append(tuple((i + step, colour) for step, colour in sides))
    return table


CELL_SIDES = _build_cell_sides()
"""``CELL_SIDES[i]``: for sides L, R, B of cell index ``i``, the neighbour's index and the shared colour."""
