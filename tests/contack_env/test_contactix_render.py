"""Pictures of CON-TAC-TIX positions: the text diamond and the RGB image (pegs where the holes are, the four
coloured sides, the winning chain marked)."""

from __future__ import annotations

import numpy as np
import pytest

from contack_env.contactix.rules import ContactixState, cell_index
from contack_env.render.contactix import (
    BLACK_PEG,
    BOARD,
    CHAIN,
    HOLE,
    SIDE,
    WHITE_PEG,
    hole_centre,
    render_rgb,
    render_text,
)


def _black_won_3x3() -> ContactixState:
    # Black's chain runs down column 1: (0, 1), (1, 1), (2, 1).
    state = ContactixState(3)
    for r, c in [(0, 1), (0, 0), (1, 1), (1, 0), (2, 1)]:
        state.play(cell_index(r, c, 3))
    return state


def test_text_diamond_of_a_won_game():
    assert render_text(_black_won_3x3()) == "\n".join(
        [
            "CON-TAC-TIX 3x3, swap rule off; 5 moves; last: black (2, 1); black has won (the chain is in capitals)",
            "  0 0",
            " 1 o 1",
            "2 o X 2",
            " . X .",
            "B X . W",
            " B . W",
            "  B W",
            "black x joins rows 0 (upper right) and 2 (lower left, B); white o joins columns 0 (upper left) and 2 "
            "(lower right, W)",
        ]
    )


def _text_holes(text: str, n: int) -> dict[tuple[int, int], str]:
    """The character of every hole, read from where the diamond puts hole (r, c): on line r + c below the
    label line, c - r places right of the vertical axis (which runs between the two 0 labels)."""
    lines = text.splitlines()
    axis = lines[1].index("0") + 1
    return {(r, c): lines[2 + r + c][axis + c - r] for r in range(n) for c in range(n)}


def test_text_puts_hole_r_c_on_line_r_plus_c_at_c_minus_r():
    n = 5
    state = ContactixState(n)
    state.play(cell_index(3, 1, n))  # black
    state.play(cell_index(0, 4, n))  # white, in the right corner
    text = render_text(state)
    holes = _text_holes(text, n)
    assert holes.pop((3, 1)) == "x" and holes.pop((0, 4)) == "o"
    assert set(holes.values()) == {"."}
    assert text.splitlines()[0].endswith("2 moves; last: white (0, 4); black to move")
    # The lower sides are marked: B along Black's lower-left side (row 4), W along White's lower-right (column 4).
    lower = text.splitlines()[2 + n : 2 + 2 * n]
    assert [line.split()[0] for line in lower] == ["B"] * n and [line.split()[-1] for line in lower] == ["W"] * n


def test_text_with_the_swap_pending_and_taken():
    state = ContactixState(4, swap=True)
    state.play(cell_index(0, 2, 4))
    assert render_text(state).splitlines()[0].endswith("1 move; last: black (0, 2); white to move (may swap)")
    state.play(cell_index(0, 2, 4))
    text = render_text(state)
    assert text.splitlines()[0].endswith("last: white swapped; black to move")
    holes = _text_holes(text, 4)
    assert holes.pop((2, 0)) == "o" and set(holes.values()) == {"."}


def _near(pixel, colour, tol=40):
    return all(abs(int(a) - b) <= tol for a, b in zip(pixel, colour))


def test_image_pegs_holes_sides_and_chain():
    state = _black_won_3x3()
    image = render_rgb(state)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[0] == 640 and image.shape[2] == 3

    def at(r, c, dx=0.0, dy=0.0):
        x, y = hole_centre(3, r, c)
        return image[int(round(y + dy)), int(round(x + dx))]

    assert _near(at(0, 1), BLACK_PEG) and _near(at(2, 1), BLACK_PEG)
    assert _near(at(0, 0), WHITE_PEG) and _near(at(1, 0), WHITE_PEG)
    assert _near(at(2, 2), HOLE) and _near(at(1, 2), HOLE)
    # The chain's pegs are ringed in red, the white pegs are not.
    sx = hole_centre(3, 0, 1)[0] - hole_centre(3, 0, 0)[0]  # the unit of the layout: (0, 1) is one sx right
    ring = (0.72 * 2 / np.sqrt(3) - 0.1) * sx  # inside the ring: 0.72 of the hexagon's circumradius, 0.2 sx wide
    assert _near(at(1, 1, dy=-ring), CHAIN, tol=60)
    assert not _near(at(1, 0, dy=-ring), CHAIN, tol=60)
    # The sides: beyond hole (1, 0) on the upper-left lies White's band, beyond (0, 1) on the upper-right Black's.
    band = 1.8 * sx  # between the band's inner (1.35 sx) and outer (2.25 sx) edge, along the outward normal
    assert _near(at(1, 0, dx=-band * np.sqrt(3) / 2, dy=-band / 2), SIDE[1], tol=10)
    assert _near(at(0, 1, dx=band * np.sqrt(3) / 2, dy=-band / 2), SIDE[0], tol=10)
    assert _near(at(2, 1, dx=-band * np.sqrt(3) / 2, dy=band / 2), SIDE[0], tol=10)  # lower left: row 2
    assert _near(at(1, 2, dx=band * np.sqrt(3) / 2, dy=band / 2), SIDE[1], tol=10)  # lower right: column 2
    assert _near(image[-3, 2], BOARD, tol=5)


def test_image_size_and_bad_arguments():
    state = ContactixState(11)
    small = render_rgb(state, height=300, supersample=1)
    assert small.shape[0] == 300 and small.shape[1] < 300
    assert render_rgb(state).shape == render_rgb(_after_one(state)).shape  # frames of one game share a shape
    with pytest.raises(ValueError, match="height is a whole number of pixels, at least 120"):
        render_rgb(state, height=50)
    with pytest.raises(ValueError, match="supersample is an integer 1..4"):
        render_rgb(state, supersample=0)


def _after_one(state: ContactixState) -> ContactixState:
    after = state.clone()
    after.play(60)
    return after
