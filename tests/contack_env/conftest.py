"""Helpers that build boards and positions directly, so each rule case is one short, readable test.

Boards are written as ``[("01-02-03", 0, 0), ("09-02-08", 0, -1), ...]`` (tile name, x, y) in placement order;
the last entry is the last-played tile unless ``last`` says otherwise. ``figure_of`` refuses a board that breaks
a contact (checked by the brute-force reference, not the engine), so a test cannot rest on an impossible figure.

The helpers are offered as fixtures (``figure_of``, ``brute_of``, ``position``, ``moves_of``, ``names_of``);
``bruteforce`` is importable from the tests because this file puts its folder on ``sys.path`` (the tests run
with ``--import-mode=importlib`` and have no ``__init__.py``, so siblings are not importable otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bruteforce as bf  # noqa: E402

from contack_env import ContackGame, Figure  # noqa: E402
from contack_env.contack.tiles import tile_id  # noqa: E402

Board = Sequence[tuple[str, int, int]]

# Boards used by several test files. Each was found by a search with the brute-force reference over real tiles
# and cells (see test_worked_examples.py) and is a legal game: every tile, in this order, was a legal placement.
BOARDS: dict[str, list[tuple[str, int, int]]] = {
    # Worked example 3, first play: the hole (0, -1) touches blue 10 above (10-03-09) and gold 1 on its right
    # (06-07-01); the last-played tile (1, -2) does not touch it.
    "two_sided_30": [
        ("10-03-09", 0, 0), ("01-02-03", 1, 0), ("08-01-07", 2, 0),
        ("02-03-04", 2, -1), ("06-07-01", 1, -1), ("09-10-01", 1, -2),
    ],
    # Worked example 3, second play: the hole (0, -1) touches blue 4 above (04-05-02) and red 10 on its left
    # (09-10-04); the last-played tile (-1, -2) does not touch it.
    "two_sided_15": [
        ("04-05-02", 0, 0), ("01-02-03", -1, 0), ("01-08-09", -2, 0),
        ("01-05-06", -2, -1), ("09-10-04", -1, -1), ("06-07-01", -1, -2),
    ],
    # Worked example 4: the down cell (1, 0) touches red 6 on its left (02-06-07), gold 10 on its right
    # (02-09-10) and blue 7 above (07-08-02). It is the only cell touching two or more tiles.
    "three_sided_50": [
        ("02-06-07", 0, 0), ("03-04-01", 0, -1), ("05-01-04", 1, -1), ("08-01-07", 2, -1), ("02-09-10", 2, 0),
        ("05-06-03", 3, 0), ("10-03-09", 3, 1), ("06-07-01", 2, 1), ("07-08-02", 1, 1),
    ],
}
# The same with three more tiles that leave a second hole at (2, 2), between 06-07-01 (2, 1) and the new
# (1, 2): in the first, 06-07-04, 04-08-09 and 09-10-04 fit it; in the second, no tile at all fits it.
BOARDS["three_sided_50_and_open_hole"] = BOARDS["three_sided_50"] + [
    ("01-02-03", 0, 1), ("01-05-06", 0, 2), ("09-10-01", 1, 2),
]
BOARDS["three_sided_50_and_dead_hole"] = BOARDS["three_sided_50"] + [
    ("01-02-03", 0, 1), ("01-08-09", 0, 2), ("06-02-05", 1, 2),
]


def figure_of(board: Board, last: tuple[int, int] | None = None, check: bool = True) -> Figure:
    """An engine figure holding ``board``; with ``check``, every touching pair must form a valid contact."""
    if check:
        brute = brute_of(board, last)
        assert brute.all_contacts_valid(), f"the test board {board} breaks a contact"
    return Figure.from_placements([(tile_id(name), x, y) for name, x, y in board], last=last)


def brute_of(board: Board, last: tuple[int, int] | None = None) -> bf.BruteFigure:
    """The brute-force reference's figure for ``board`` (every tile blue on B, as docs/rules.md section 2 proves)."""
    fig = bf.BruteFigure({(x, y): (bf.tile_number(name), "B") for name, x, y in board})
    fig.last = last if last is not None else (board[-1][1], board[-1][2])
    return fig


def ids(names: Sequence[str]) -> list[int]:
    return [tile_id(n) for n in names]


def position(
    hands: Sequence[Sequence[str]],
    board: Board,
    pile_top: Sequence[str] = (),
    to_move: int = 0,
    enclosed_end: str = "1939",
    scores: Sequence[int] | None = None,
    last: tuple[int, int] | None = None,
    trace: bool = False,
) -> ContackGame:
    """A one-hand game mid-hand: ``hands`` by seat, the figure, and a pile that starts with ``pile_top`` and
    goes on with every other tile in id order (tests that draw name the tiles they need on top)."""
    used = [t for h in hands for t in ids(h)] + ids([b[0] for b in board]) + ids(pile_top)
    assert len(used) == len(set(used)), "a tile appears twice in the test position"
    pile = ids(pile_top) + [t for t in range(36) if t not in used]
    return ContackGame.from_position(
        [ids(h) for h in hands],
        figure_of(board, last),
        pile,
        to_move,
        scores=scores,
        enclosed_end=enclosed_end,
        trace=trace,
    )


def moves_of(game_or_moves) -> set[tuple[str, int, int]]:
    """Legal moves as readable (tile name, x, y)."""
    moves = game_or_moves.legal_moves() if hasattr(game_or_moves, "legal_moves") else game_or_moves
    return {(bf.NAMES[m[0]], m[1], m[2]) for m in moves}


def names_of(mask: int) -> set[str]:
    """Tile names in a 36-bit hand mask (decoded here, not with the engine's ``tiles_in``)."""
    return {bf.NAMES[t] for t in range(36) if mask >> t & 1}


@pytest.fixture
def boards() -> dict[str, list[tuple[str, int, int]]]:
    """Named boards (copies, so a test may extend one)."""
    return {name: list(board) for name, board in BOARDS.items()}


@pytest.fixture(name="figure_of")
def _figure_of() -> Callable[..., Figure]:
    return figure_of


@pytest.fixture(name="brute_of")
def _brute_of() -> Callable[..., bf.BruteFigure]:
    return brute_of


@pytest.fixture(name="position")
def _position() -> Callable[..., ContackGame]:
    return position


@pytest.fixture(name="moves_of")
def _moves_of() -> Callable[..., set]:
    return moves_of


@pytest.fixture(name="names_of")
def _names_of() -> Callable[[int], set]:
    return names_of
