"""Pictures of CON-TAC-TIX positions: a text diagram (``render_text``) and an RGB image (``render_rgb``, Pillow).

Both draw the board as the diamond it is, standing on a corner: hole ``(r, c)`` sits on line ``r + c`` (from the
top) and ``c - r`` places right of the vertical axis, so ``(0, 0)`` is the top corner, ``(0, N-1)`` the right,
``(N-1, 0)`` the left and ``(N-1, N-1)`` the bottom one. Rows run from the upper-left side down to the
lower-right one, columns from the upper-right side down to the lower-left one. So:

- Black's sides (rows ``0`` and ``N-1``) are the **upper-right** and the **lower-left** side;
- White's sides (columns ``0`` and ``N-1``) are the **upper-left** and the **lower-right** side;
- the four corner holes lie on one side of each colour.

Text: ``x`` a black peg, ``o`` a white peg, ``.`` an empty hole; the pegs of the winning chain are ``X`` / ``O``.
Rows are numbered along the upper-left side, columns along the upper-right side; ``B`` and ``W`` mark the lower
sides (Black's lower-left, White's lower-right). Image: hexagonal holes on a wooden board, each side a band of
its colour (black, white), pegs as discs, the last peg ringed, the winning chain joined by a red line.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw

from contack_env.checks import is_whole_number
from contack_env.contactix.rules import BLACK, COLOUR_NAMES, EMPTY, WHITE, ContactixState, cell_rc
from contack_env.records.contactix import CODEC
from contack_env.records.walker import Walk
from contack_env.render.image import agent_label, load_font, text_centred

RGB = tuple[int, int, int]

BOARD: RGB = (205, 160, 100)
HOLE_FACE: RGB = (228, 196, 146)
HOLE_LINE: RGB = (150, 108, 60)
HOLE: RGB = (92, 62, 34)
BLACK_PEG: RGB = (28, 28, 30)
WHITE_PEG: RGB = (246, 244, 238)
PEG_LINE: RGB = (60, 50, 40)
SIDE: dict[int, RGB] = {BLACK: (24, 24, 26), WHITE: (250, 250, 246)}
SIDE_LINE: RGB = (60, 50, 40)
CHAIN: RGB = (214, 40, 40)
LAST: RGB = (220, 60, 40)
INK: RGB = (40, 30, 20)

SQRT3 = math.sqrt(3.0)
DEFAULT_HEIGHT = 640

__all__ = ["DEFAULT_HEIGHT", "hole_centre", "record_to_frames", "render_rgb", "render_text"]


# -- text ----------------------------------------------------------------------------------------------------
def _status(state: ContactixState) -> str:
    n = state.size
    played = len(state.moves)
    head = f"CON-TAC-TIX {n}x{n}, swap rule {'on' if state.swap_rule else 'off'}; {played} move{'' if played == 1 else 's'}"
    if state.moves:
        mover = COLOUR_NAMES[(len(state.moves) - 1) % 2]
        if len(state.moves) == 2 and state.swapped:
            head += "; last: white swapped"
        else:
            r, c = cell_rc(state.moves[-1], n)
            head += f"; last: {mover} ({r}, {c})"
    if state.winner is not None:
        tail = f"{COLOUR_NAMES[state.winner]} has won (the chain is in capitals)"
    else:
        tail = f"{COLOUR_NAMES[state.current_player]} to move" + (" (may swap)" if state.can_swap else "")
    return f"{head}; {tail}"


def render_text(state: ContactixState) -> str:
    """The position as a text diamond (module docstring), with a status line above and a key below."""
    n = state.size
    chain = set(state.winning_chain())
    off = n + 3  # x runs from -(n + 1) to n + 1, and a two-digit label takes one more
    lines = [[" "] * (2 * off + 1) for _ in range(2 * n + 1)]  # line L holds text line L - 1

    def put(line: int, x: int, text: str, right: bool = False) -> None:
        row = lines[line + 1]
        start = off + x - (len(text) - 1 if right else 0)
        for k, ch in enumerate(text):
            row[start + k] = ch

    board = state.board
    for cell, value in enumerate(board):
        r, c = divmod(cell, n)
        ch = "." if value == EMPTY else "xo"[value - 1]
        if cell in chain:
            ch = ch.upper()
        put(r + c, c - r, ch)
    for k in range(n):
        put(k - 1, -k - 1, str(k), right=True)  # row k, up-left of (k, 0)
        put(k - 1, k + 1, str(k))  # column k, up-right of (0, k)
        put(n + k, k - n, "B")  # below-left of (n-1, k): Black's lower-left side
        put(n + k, n - k, "W")  # below-right of (k, n-1): White's lower-right side
    body = ["".join(row).rstrip() for row in lines]
    indent = min(len(b) - len(b.lstrip()) for b in body if b.strip())
    body = [b[indent:] for b in body]
    key = (
        f"black x joins rows 0 (upper right) and {n - 1} (lower left, B); "
        f"white o joins columns 0 (upper left) and {n - 1} (lower right, W)"
    )
    return "\n".join([_status(state), *body, key])


# -- image ---------------------------------------------------------------------------------------------------
def _hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    # Pointy-top: the diamond's same-line neighbours are side by side horizontally.
    return [(cx + radius * math.cos(math.radians(90 + 60 * k)), cy + radius * math.sin(math.radians(90 + 60 * k))) for k in range(6)]


BAND_IN, BAND_OUT = 1.35, 2.25  # the side bands, as distances from the line through the side's hole centres (in sx)
LABEL_STEPS = 1.75  # row and column numbers sit this many holes beyond the board, along their line


def _geometry(n: int, H: int, ss: int) -> tuple[float, float, int, float, float]:
    """For an image ``H`` pixels high (supersampled): the title's height, ``sx``, the width, and the centre of
    hole (0, 0). Lengths are in units of ``sx``, half the distance between the centres of two holes side by side
    on a line; lines are ``sqrt(3) * sx`` apart, so every hole is equally far from its six neighbours."""
    title_h = H * 0.08
    sx = (H - title_h) / ((2 * n - 2) * SQRT3 + 4 * BAND_OUT + 1.0)
    W = int(math.ceil(((2 * n - 2) + 2 * (2 / SQRT3) * BAND_OUT + 3.0) * sx))
    W += (-W) % ss
    return title_h, sx, W, W / 2, title_h + (2 * BAND_OUT + 0.5) * sx


def hole_centre(size: int, r: int, c: int, height: int = DEFAULT_HEIGHT) -> tuple[float, float]:
    """Where ``render_rgb`` (with this ``height``) draws the centre of hole ``(r, c)``: ``(x, y)`` in pixels."""
    _, sx, _, cx0, cy0 = _geometry(size, int(height), 1)
    return cx0 + (c - r) * sx, cy0 + (r + c) * SQRT3 * sx


def render_rgb(
    state: ContactixState, height: int = DEFAULT_HEIGHT, supersample: int = 2, agents: Sequence[str | None] | None = None
) -> np.ndarray:
    """An RGB picture of ``state`` as a ``(height, width, 3)`` uint8 array (module docstring). The width follows
    from the height (the diamond is taller than wide: its angles at the top and bottom are 60 degrees).
    ``agents``: Black's and White's agent specs, named in the title."""
    if not is_whole_number(height) or height < 120:
        raise ValueError(f"height is a whole number of pixels, at least 120; got {height!r}")
    if not is_whole_number(supersample) or not 1 <= supersample <= 4:
        raise ValueError(f"supersample is an integer 1..4; got {supersample!r}")
    if agents is not None and (isinstance(agents, str) or len(agents) != 2 or not all(a is None or isinstance(a, str) for a in agents)):
        raise ValueError(f"agents is Black's and White's agent spec, or None; got {agents!r}")
    n = state.size
    ss = int(supersample)
    H = int(height) * ss
    title_h, sx, W, cx0, cy0 = _geometry(n, H, ss)
    band_in, band_out = BAND_IN, BAND_OUT
    sy = SQRT3 * sx
    radius = 2 * sx / SQRT3  # pointy-top hexagons: neighbours on a line share a vertical side

    def centre(r: int, c: int) -> tuple[float, float]:
        return cx0 + (c - r) * sx, cy0 + (r + c) * sy

    image = Image.new("RGB", (W, H), BOARD)
    draw = ImageDraw.Draw(image)

    # The four sides, each a band along its side of the diamond in its owner's colour. Offsetting a side by d
    # moves the 60-degree corners (top, bottom) 2d along the vertical and the 120-degree ones 2d/sqrt(3) along
    # the horizontal; the bands meet on those lines, so every corner is half Black's and half White's.
    ym = cy0 + (n - 1) * sy

    def diamond(d: float) -> dict[str, tuple[float, float]]:
        d *= sx
        return {
            "top": (cx0, cy0 - 2 * d),
            "bottom": (cx0, cy0 + 2 * (n - 1) * sy + 2 * d),
            "left": (cx0 - (n - 1) * sx - 2 * d / SQRT3, ym),
            "right": (cx0 + (n - 1) * sx + 2 * d / SQRT3, ym),
        }

    inner, outer = diamond(band_in), diamond(band_out)
    for a, b, colour in (("top", "right", BLACK), ("left", "bottom", BLACK), ("top", "left", WHITE), ("right", "bottom", WHITE)):
        draw.polygon([inner[a], inner[b], outer[b], outer[a]], fill=SIDE[colour], outline=SIDE_LINE, width=max(1, ss))

    board = state.board
    chain = state.winning_chain()
    line_w = max(1, int(round(sx * 0.08)))
    for cell, value in enumerate(board):
        x, y = centre(*cell_rc(cell, n))
        draw.polygon(_hexagon(x, y, radius), fill=HOLE_FACE, outline=HOLE_LINE, width=line_w)
        if value == EMPTY:
            hr = radius * 0.2
            draw.ellipse((x - hr, y - hr, x + hr, y + hr), fill=HOLE)
    if len(chain) > 1:
        draw.line([centre(*cell_rc(cell, n)) for cell in chain], fill=CHAIN, width=max(2, int(round(sx * 0.3))), joint="curve")
    for cell, value in enumerate(board):
        if value != EMPTY:
            x, y = centre(*cell_rc(cell, n))
            pr = radius * 0.6
            fill = BLACK_PEG if value == BLACK + 1 else WHITE_PEG
            draw.ellipse((x - pr, y - pr, x + pr, y + pr), fill=fill, outline=PEG_LINE, width=line_w)
    for cell in chain:
        x, y = centre(*cell_rc(cell, n))
        cr = radius * 0.72
        draw.ellipse((x - cr, y - cr, x + cr, y + cr), outline=CHAIN, width=max(2, int(round(sx * 0.2))))
    last = state.last_peg
    if last is not None and state.winner is None:
        x, y = centre(*cell_rc(last, n))
        lr = radius * 0.18
        draw.ellipse((x - lr, y - lr, x + lr, y + lr), fill=LAST)

    # Row numbers beyond the upper-left band, column numbers beyond the upper-right one, each on its row's
    # (column's) line produced: where hole (k, -t) or (-t, k) would be.
    font = load_font(int(sx * 1.05))
    for k in range(n):
        text_centred(draw, centre(k, -LABEL_STEPS), str(k), font, INK)
        text_centred(draw, centre(-LABEL_STEPS, k), str(k), font, INK)
    title = f"CON-TAC-TIX {n}x{n}"
    if agents is not None:
        title += f": black {agent_label(agents[0])}, white {agent_label(agents[1])}"
    px = int(title_h * 0.36)
    while px > 6 * ss and draw.textlength(title, font=load_font(px)) > W * 0.96:  # a small board is narrow
        px -= 1
    text_centred(draw, (W / 2, title_h * 0.3), title, load_font(px), INK)
    text_centred(draw, (W / 2, title_h * 0.72), _short_status(state), load_font(int(title_h * 0.36)), INK)
    if ss > 1:
        # Box-filter downsampling: antialiased edges, flat areas keep their colour.
        image = image.reduce(ss)
    return np.asarray(image, dtype=np.uint8).copy()


def _short_status(state: ContactixState) -> str:
    if state.winner is not None:
        return f"{COLOUR_NAMES[state.winner]} has won"
    return f"{COLOUR_NAMES[state.current_player]} to move" + (" (may swap)" if state.can_swap else "")


# -- records -------------------------------------------------------------------------------------------------
def record_to_frames(record: Mapping[str, Any], height: int = DEFAULT_HEIGHT, supersample: int = 2) -> list[np.ndarray]:
    """The game of ``record`` (a ``contactix-record/1`` mapping) drawn move by move: the empty board, then one
    frame per move, each ``render_rgb`` of the position. The record is walked and checked by the records'
    walker; one that does not replay raises ``RecordError`` (a ``ValueError``) naming the move."""
    walk = Walk(record, CODEC)
    return [render_rgb(walk.state, height, supersample) for _ in walk.steps()]
