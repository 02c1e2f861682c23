"""docs/rules.md section 2 (the triangular grid, neighbours and orientations), against ``contack_env.contack.grid``.

Besides comparing with the tables re-typed in ``bruteforce``, the tables are checked against plane geometry:
cells are real triangles (a cell's corners computed from ``(x, y)``), two cells touch when they share an edge,
and "anticlockwise" is measured with angles.
"""

from __future__ import annotations

import itertools
import math

import bruteforce as bf
import pytest

from contack_env.contack.grid import (
    CELL_SIDES,
    cell_index,
    cell_xy,
    facing_side,
    is_up,
    neighbour,
    neighbours,
    orientation_colours,
    side_colour,
)
from contack_env.contack.tiles import BLUE, GOLD, RED

COLOUR = {BLUE: "blue", RED: "red", GOLD: "gold"}
CELLS = [(x, y) for x in range(-5, 6) for y in range(-4, 5)]
H = math.sqrt(3) / 2  # height of a unit triangle


def corners(x: int, y: int) -> list[tuple[float, float]]:
    """The three corners of cell (x, y) in the plane: cells of width 1 side by side along a row, rows H apart;
    an up cell has its base at height y*H, a down cell its top at (y+1)*H."""
    if (x + y) % 2 == 0:
        return [((x - 1) / 2, y * H), ((x + 1) / 2, y * H), (x / 2, (y + 1) * H)]
    return [((x - 1) / 2, (y + 1) * H), ((x + 1) / 2, (y + 1) * H), (x / 2, y * H)]


def geometric_sides(x: int, y: int) -> dict[str, frozenset]:
    """Each side of a cell as its pair of corners: B is the horizontal edge, L and R the left and right ones."""
    c = corners(x, y)
    c = [(round(p[0], 6), round(p[1], 6)) for p in c]  # rounded so equal corners compare equal
    edges = [frozenset(pair) for pair in itertools.combinations(c, 2)]
    base = next(e for e in edges if len({p[1] for p in e}) == 1)
    others = sorted((e for e in edges if e != base), key=lambda e: sum(p[0] for p in e))
    return {"B": base, "L": others[0], "R": others[1]}


def anticlockwise_sides(x: int, y: int) -> list[str]:
    """The sides of a cell in anticlockwise order (increasing angle of the side's midpoint about the centre),
    starting from B."""
    c = corners(x, y)
    centre = (sum(p[0] for p in c) / 3, sum(p[1] for p in c) / 3)
    angle = {}
    for side, edge in geometric_sides(x, y).items():
        mx = sum(p[0] for p in edge) / 2 - centre[0]
        my = sum(p[1] for p in edge) / 2 - centre[1]
        angle[side] = math.atan2(my, mx)
    start = angle["B"]
    return sorted(angle, key=lambda s: (angle[s] - start) % (2 * math.pi))


# -- up and down -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cell, up", [((0, 0), True), ((1, 0), False), ((0, 1), False), ((-1, -1), True), ((2, -4), True), ((-3, 0), False)]
)
def test_a_cell_points_up_when_x_plus_y_is_even(cell: tuple[int, int], up: bool) -> None:
    assert is_up(*cell) is up
    # The geometry agrees: an up cell's apex is above its base.
    ys = sorted(p[1] for p in corners(*cell))
    apex_above = ys[0] == ys[1]
    assert apex_above is up


# -- neighbours ------------------------------------------------------------------------------------------------
def test_up_cell_neighbours() -> None:
    assert neighbours(2, 0) == {"L": (1, 0), "R": (3, 0), "B": (2, -1)}


def test_down_cell_neighbours() -> None:
    assert neighbours(1, 0) == {"L": (0, 0), "R": (2, 0), "B": (1, 1)}


def test_neighbour_table_is_the_rules_table() -> None:
    for (x, y), side in itertools.product(CELLS, bf.SIDES):
        other, other_side = bf.touched((x, y), side)
        assert neighbour(x, y, side) == other
        assert facing_side(side) == other_side


def test_neighbour_table_is_the_geometry() -> None:
    # Side s of a cell touches the neighbour the table names through the side the table names: they are the
    # same edge of the plane, and no other cell has that edge.
    for (x, y), side in itertools.product(CELLS, bf.SIDES):
        other, other_side = bf.touched((x, y), side)
        assert geometric_sides(x, y)[side] == geometric_sides(*other)[other_side]
        sharing = [c for c in CELLS if c != (x, y) and geometric_sides(x, y)[side] in geometric_sides(*c).values()]
        assert sharing in ([other], []), sharing  # [] only at the border of the sampled window


def test_touching_is_symmetric_and_up_touches_down() -> None:
    for (x, y), side in itertools.product(CELLS, bf.SIDES):
        nx, ny = neighbour(x, y, side)
        assert neighbour(nx, ny, facing_side(side)) == (x, y)
        assert is_up(nx, ny) != is_up(x, y)


def test_unknown_side_is_an_error() -> None:
    with pytest.raises(ValueError, match="sides are 'L', 'R' and 'B'"):
        neighbour(0, 0, "T")
    with pytest.raises(ValueError, match="sides are 'L', 'R' and 'B'"):
        orientation_colours(0, 0, blue="X")


# -- orientations ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cell, blue, expected",
    [
        ((0, 0), "B", {"B": "blue", "R": "red", "L": "gold"}),  # up, blue on B: red R, gold L
        ((0, 0), "R", {"R": "blue", "L": "red", "B": "gold"}),  # up, blue on R: red L, gold B
        ((0, 0), "L", {"L": "blue", "B": "red", "R": "gold"}),  # up, blue on L: red B, gold R
        ((1, 0), "B", {"B": "blue", "L": "red", "R": "gold"}),  # down, blue on B: red L, gold R
        ((1, 0), "R", {"R": "blue", "B": "red", "L": "gold"}),  # down, blue on R: red B, gold L
        ((1, 0), "L", {"L": "blue", "R": "red", "B": "gold"}),  # down, blue on L: red R, gold B
    ],
)
def test_orientation_table_row(cell: tuple[int, int], blue: str, expected: dict[str, str]) -> None:
    got = {side: COLOUR[c] for side, c in orientation_colours(*cell, blue=blue).items()}
    assert got == expected
    assert expected == bf.ORIENTATION[(bf.kind(*cell), blue)]


def test_sides_run_b_r_l_anticlockwise_on_up_cells_and_b_l_r_on_down_cells() -> None:
    assert anticlockwise_sides(0, 0) == ["B", "R", "L"]
    assert anticlockwise_sides(1, 0) == ["B", "L", "R"]


def test_every_orientation_runs_blue_red_gold_anticlockwise() -> None:
    # Tiles are never turned over, so colours always run blue, red, gold anticlockwise (docs/rules.md section 1).
    for cell in [(0, 0), (1, 0), (-3, 5), (4, -1)]:
        order = anticlockwise_sides(*cell)
        for blue in bf.SIDES:
            colours = orientation_colours(*cell, blue=blue)
            start = order.index(blue)
            assert [COLOUR[colours[order[(start + i) % 3]]] for i in range(3)] == ["blue", "red", "gold"]


def test_blue_is_always_on_b() -> None:
    # The consequence of docs/rules.md section 2: next to a tile with blue on B, the only orientation in which the
    # touching sides share a colour is again blue on B, whichever side touches. From the opening tile (blue on
    # B) on, every tile therefore has blue on B.
    for cell, side in itertools.product([(0, 0), (1, 0)], bf.SIDES):
        other, other_side = bf.touched(cell, side)
        theirs = orientation_colours(*other, blue="B")[other_side]
        fitting = [blue for blue in bf.SIDES if orientation_colours(*cell, blue=blue)[side] == theirs]
        assert fitting == ["B"], (cell, side, fitting)


def test_blue_on_b_shows_red_right_gold_left_up_and_red_left_gold_right_down() -> None:
    assert [COLOUR[side_colour(0, 0, s)] for s in "BRL"] == ["blue", "red", "gold"]
    assert [COLOUR[side_colour(1, 0, s)] for s in "BLR"] == ["blue", "red", "gold"]


def test_touching_sides_always_show_the_same_colour_with_blue_on_b() -> None:
    for (x, y), side in itertools.product(CELLS, bf.SIDES):
        other, other_side = bf.touched((x, y), side)
        assert side_colour(x, y, side) == side_colour(*other, other_side)


# -- the engine's cell indices ---------------------------------------------------------------------------------
def test_cell_indices_are_distinct_and_round_trip_over_the_reachable_table() -> None:
    # docs/rules.md section 2 bounds every legal figure to -35 <= x <= 35, -17 <= y <= 17; their neighbours too.
    seen = set()
    for x in range(-36, 37):
        for y in range(-18, 19):
            i = cell_index(x, y)
            assert cell_xy(i) == (x, y)
            seen.add(i)
    assert len(seen) == 73 * 37


def test_cell_sides_table_is_the_rules_table() -> None:
    for x in range(-36, 37):
        for y in range(-18, 19):
            expected = []
            for side in ("L", "R", "B"):
                other, _ = bf.touched((x, y), side)
                colour = bf.ORIENTATION[(bf.kind(x, y), "B")][side]
                expected.append((cell_index(*other), bf.COLOUR_INDEX[colour]))
            assert list(CELL_SIDES[cell_index(x, y)]) == expected, (x, y)
