"""Draw the diagrams of docs/rules.md (``docs/img/rules_*.png``) with the project's own code.

    python docs/make_rule_diagrams.py [FOLDER]      (default: the img folder beside this file)

Geometry comes from ``contack_env.contack.grid`` (``is_up``, ``neighbour``, ``orientation_colours``) and the layout of
``contack_env.render.image`` (``figure_layout``, ``Layout``); tiles are drawn by ``render.draw_tile``, so they look
exactly as in the game pictures. Every position shown is built placement by placement on the engine's
``Figure``, each tile checked against ``Figure.legal_codes`` (``_figure``), or set up with
``ContackGame.from_position``; every score and verdict printed is asserted against what the engine computes,
so a diagram cannot show something the rules forbid.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Sequence

from PIL import Image, ImageDraw

from contack_env.render import image as render
from contack_env.render.pictures import save_strip
from contack_env.contack.figure import Figure, Move, code_to_move, move_code
from contack_env.contack.grid import cell_index, cell_xy, is_up, neighbour, orientation_colours
from contack_env.contack.multiplayer import ContackGame
from contack_env.render.image import EDGE, FACE, HIGHLIGHT, INK, OUTLINE, PANEL, PANEL_INK, Layout, figure_layout
from contack_env.contack.tiles import ALL_TILES_MASK, BLUE, GOLD, RED, TILE_VALUES, contact_valid, tile_id
from contack_env.atomic import atomic_path

SS = 2  # drawn at twice the size, then reduced: antialiased edges, as render.py does
COLOUR_NAMES = {BLUE: "blue", RED: "red", GOLD: "gold"}
UP_FILL = (252, 250, 243)
DOWN_FILL = (219, 229, 219)
GRID_LINE = (150, 150, 140)
GHOST = (175, 170, 158)  # outlines of empty cells
OK_GREEN = (38, 140, 70)
HOLE_ORANGE = (222, 118, 10)
BAD_RED = (200, 30, 30)
GREY = (120, 120, 112)

Board = Sequence[tuple[str, int, int]]

# Boards of docs/rules.md section 8 (the same ones tests/contack_env/conftest.py uses); each is a legal game, which
# ``_figure`` re-checks with the engine.
TWO_SIDED_30: Board = [
    ("10-03-09", 0, 0), ("01-02-03", 1, 0), ("08-01-07", 2, 0),
    ("02-03-04", 2, -1), ("06-07-01", 1, -1), ("09-10-01", 1, -2),
]
TWO_SIDED_15: Board = [
    ("04-05-02", 0, 0), ("01-02-03", -1, 0), ("01-08-09", -2, 0),
    ("01-05-06", -2, -1), ("09-10-04", -1, -1), ("06-07-01", -1, -2),
]
THREE_SIDED_50: Board = [
    ("02-06-07", 0, 0), ("03-04-01", 0, -1), ("05-01-04", 1, -1), ("08-01-07", 2, -1), ("02-09-10", 2, 0),
    ("05-06-03", 3, 0), ("10-03-09", 3, 1), ("06-07-01", 2, 1), ("07-08-02", 1, 1),
]
# Three more tiles: the last-played tile is now 09-10-01 at (1, 2); (2, 2) is both beside it and a hole.
WITH_OPEN_HOLE: Board = list(THREE_SIDED_50) + [("01-02-03", 0, 1), ("01-05-06", 0, 2), ("09-10-01", 1, 2)]


# -- building and checking positions -------------------------------------------------------------------------
def _figure(board: Board) -> Figure:
    """The figure of ``board``, every tile after the first checked to be a legal placement (docs/rules.md section 4)."""
    figure = Figure()
    for k, (name, x, y) in enumerate(board):
        tile, cell = tile_id(name), cell_index(x, y)
        if k == 0:
            if (x, y) != (0, 0):
                raise ValueError(f"a figure opens at (0, 0), not ({x}, {y})")
            figure.place_opening(tile)
        elif move_code(tile, cell) not in figure.legal_codes(1 << tile):
            raise ValueError(f"{name} at ({x}, {y}) is not a legal placement after {board[:k]}")
        else:
            figure.place(tile, cell)
    return figure


def _placements(figure: Figure) -> list[tuple[int, int, int]]:
    return [(m.tile, m.x, m.y) for m in figure.placements()]


def _free_tiles(figure: Figure) -> int:
    mask = ALL_TILES_MASK
    for tile in figure.placed.values():
        mask &= ~(1 << tile)
    return mask


# -- drawing helpers (all coordinates are supersampled pixels) -----------------------------------------------
def _canvas(width: int, height: int, fill: tuple[int, int, int] = PANEL) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width * SS, height * SS), fill)
    return image, ImageDraw.Draw(image)


def _save(image: Image.Image, path: Path) -> Path:
    small = image.reduce(SS)
    # A palette of 96 colours keeps flat tiles and antialiased text intact and the files small.
    paletted = small.quantize(colors=96, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    with atomic_path(path) as tmp:
        paletted.save(tmp, format="PNG", optimize=True)
    return path


def _font(px: float) -> Any:
    return render.load_font(round(px * SS))


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    px: float,
    fill=PANEL_INK,
    centre: bool = True,
    bold: bool = False,
    top: bool = False,
) -> None:
    """Text (lines split at newlines) at supersampled ``xy``; ``px`` is the size in final pixels. ``centre``:
    each line centred on ``xy[0]`` and the block on ``xy[1]`` (``top``: the block hangs from ``xy[1]``);
    otherwise the block starts at ``xy``."""
    font = _font(px)
    stroke = {"stroke_width": 1, "stroke_fill": fill} if bold else {}
    lines = text.split("\n")
    step = px * SS * 1.25
    if centre and not top:
        y0 = xy[1] - (len(lines) - 1) * step / 2
    elif centre:
        y0 = xy[1] + step / 2
    else:
        y0 = xy[1]
    for k, line in enumerate(lines):
        y = y0 + k * step
        if centre:
            left, top_, right, bottom = draw.textbbox((0, 0), line, font=font)
            draw.text((xy[0] - (left + right) / 2, y - (top_ + bottom) / 2), line, font=font, fill=fill, **stroke)
        else:
            draw.text((xy[0], y), line, font=font, fill=fill, **stroke)


def _layout(cells: Sequence[tuple[int, int]], box: tuple[float, float, float, float], max_side: float) -> Layout:
    """``render.figure_layout`` in supersampled pixels for a box and a largest side given in final pixels."""
    left, top, right, bottom = (v * SS for v in box)
    return figure_layout(cells, (left, top, right, bottom), max_side * SS)


def _triangle(lay: Layout, x: int, y: int, shrink: float = 0.0) -> list[tuple[float, float]]:
    """The corners of cell ``(x, y)``, pulled towards its centre by ``shrink`` (a fraction)."""
    corners = lay.corners(x, y)
    c = lay.centre(x, y)
    return [(p[0] + (c[0] - p[0]) * shrink, p[1] + (c[1] - p[1]) * shrink) for p in (corners["R"], corners["L"], corners["B"])]


def _outline(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill, width: float) -> None:
    draw.line(pts + [pts[0]], fill=fill, width=max(1, round(width)), joint="curve")


def _tile(draw: ImageDraw.ImageDraw, lay: Layout, tile: int, x: int, y: int) -> None:
    render.draw_tile(draw, lay, tile, x, y)


def _oriented_tile(draw: ImageDraw.ImageDraw, lay: Layout, x: int, y: int, blue: str, tile: int | None) -> None:
    """A tile on ``(x, y)`` with its blue edge on side ``blue`` (``render.draw_tile`` always puts it on B):
    the same bands and numbers, coloured by ``grid.orientation_colours``. ``tile=None``: bands only."""
    colours = orientation_colours(x, y, blue)
    corners = lay.corners(x, y)
    c = lay.centre(x, y)
    draw.polygon([corners["R"], corners["L"], corners["B"]], fill=FACE)
    inner = {k: (p[0] + (c[0] - p[0]) * render.BAND, p[1] + (c[1] - p[1]) * render.BAND) for k, p in corners.items()}
    ends = {"L": ("R", "B"), "R": ("L", "B"), "B": ("R", "L")}
    for side, (a, b) in ends.items():
        draw.polygon([corners[a], corners[b], inner[b], inner[a]], fill=EDGE[colours[side]])
    _outline(draw, [corners["R"], corners["L"], corners["B"]], OUTLINE, max(1, lay.side * 0.012))
    if tile is None:
        return
    font = render.load_font(round(lay.side * render.NUMBER_SIZE))
    inradius = lay.side / (2 * math.sqrt(3))
    for side, (a, b) in ends.items():
        colour = colours[side]
        mx, my = (corners[a][0] + corners[b][0]) / 2, (corners[a][1] + corners[b][1]) / 2
        nx, ny = (c[0] - mx) / inradius, (c[1] - my) / inradius
        text = str(TILE_VALUES[tile][colour])
        w, h = render.text_size(draw, text, font)
        depth = render.BAND * inradius + render.NUMBER_GAP * lay.side + abs(nx) * w / 2 + abs(ny) * h / 2
        render.text_centred(draw, (mx + nx * depth, my + ny * depth), text, font, INK[colour])


def _side_mid(lay: Layout, x: int, y: int, side: str) -> tuple[float, float]:
    a, b = lay.sides(x, y)[side]
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _contact_label_at(lay: Layout, x: int, y: int, side: str) -> tuple[float, float]:
    """Where to put the label of the contact on ``side`` of cell ``(x, y)``: on the edge, past the middle towards
    the corner that comes next anticlockwise, so it hides neither number and labels of one cell never meet."""
    a, b = lay.sides(x, y)[side]
    c = lay.centre(x, y)
    # Screen y points down, so a negative cross product is an anticlockwise turn from a to b as seen.
    cross = (a[0] - c[0]) * (b[1] - c[1]) - (a[1] - c[1]) * (b[0] - c[0])
    end = b if cross < 0 else a
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return (mid[0] + (end[0] - mid[0]) * 0.58, mid[1] + (end[1] - mid[1]) * 0.58)


def _label_box(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: float, fill, ink=(255, 255, 255)) -> None:
    """A small rounded label centred on ``xy``, e.g. the points of a contact on its edge."""
    font = _font(px)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    w, h = right - left, bottom - top
    pad = px * SS * 0.3
    box = [xy[0] - w / 2 - pad, xy[1] - h / 2 - pad, xy[0] + w / 2 + pad, xy[1] + h / 2 + pad]
    draw.rounded_rectangle(box, radius=pad, fill=fill, outline=(255, 255, 255), width=SS)
    draw.text((xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2), text, font=font, fill=ink)


def _cross(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, width: float) -> None:
    cx, cy = centre
    draw.line([(cx - r, cy - r), (cx + r, cy + r)], fill=fill, width=round(width))
    draw.line([(cx - r, cy + r), (cx + r, cy - r)], fill=fill, width=round(width))


def _tick(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, width: float) -> None:
    cx, cy = centre
    draw.line([(cx - r, cy), (cx - r * 0.3, cy + r * 0.7), (cx + r, cy - r * 0.8)], fill=fill, width=round(width), joint="curve")


def _arrow(draw: ImageDraw.ImageDraw, p0: tuple[float, float], p1: tuple[float, float], fill, width: float) -> None:
    draw.line([p0, p1], fill=fill, width=round(width))
    ang = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
    head = width * 4
    left = (p1[0] - head * math.cos(ang - 0.4), p1[1] - head * math.sin(ang - 0.4))
    right = (p1[0] - head * math.cos(ang + 0.4), p1[1] - head * math.sin(ang + 0.4))
    draw.polygon([p1, left, right], fill=fill)


def _anticlockwise(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, width: float) -> None:
    """A circular arrow turning anticlockwise (on screen) round ``centre``."""
    cx, cy = centre
    # Pillow's angles run clockwise from 3 o'clock: the arc covers the left of the circle from 300 (upper right)
    # to 60 degrees (lower right); read anticlockwise it ends at 60, where the head points up and to the right.
    start, end = 60, 300
    draw.arc([cx - r, cy - r, cx + r, cy + r], start=start, end=end, fill=fill, width=round(width))
    a = math.radians(start)
    tip = (cx + r * math.cos(a), cy + r * math.sin(a))
    tangent = (math.sin(a), -math.cos(a))  # direction of decreasing angle: anticlockwise on screen
    head = width * 4.5
    normal = (math.cos(a), math.sin(a))
    draw.polygon(
        [
            (tip[0] + tangent[0] * head * 0.8, tip[1] + tangent[1] * head * 0.8),
            (tip[0] + normal[0] * head * 0.6, tip[1] + normal[1] * head * 0.6),
            (tip[0] - normal[0] * head * 0.6, tip[1] - normal[1] * head * 0.6),
        ],
        fill=fill,
    )


def _ghost(draw: ImageDraw.ImageDraw, lay: Layout, x: int, y: int) -> None:
    _outline(draw, _triangle(lay, x, y), GHOST, lay.side * 0.012)


def _last_outline(draw: ImageDraw.ImageDraw, lay: Layout, x: int, y: int) -> None:
    # As render.py marks the last-played tile.
    _outline(draw, _triangle(lay, x, y), HIGHLIGHT, max(2, lay.side * 0.055))


def _title(draw: ImageDraw.ImageDraw, width: int, text: str, y: float = 18, px: float = 17) -> None:
    _text(draw, (width * SS / 2, y * SS), text, px, bold=True)


# -- the diagrams --------------------------------------------------------------------------------------------
def grid_diagram(path: Path) -> Path:
    """A patch of the triangular grid: every cell's (x, y), up and down cells, the opening cell, the axes."""
    W, H = 680, 500
    image, draw = _canvas(W, H)
    _title(draw, W, "The table: cell (x, y) points up when x + y is even, down when odd")
    cells = [(x, y) for x in range(-3, 4) for y in range(-2, 3)]
    lay = _layout(cells, (40, 40, W - 10, H - 40), 150)
    for x, y in cells:
        pts = _triangle(lay, x, y)
        draw.polygon(pts, fill=UP_FILL if is_up(x, y) else DOWN_FILL)
        _outline(draw, pts, GRID_LINE, SS)
    for x, y in cells:
        cx, cy = lay.centre(x, y)
        label = "up" if is_up(x, y) else "down"
        # The centroid sits a third of the way from the base, so the two lines go a little towards the apex.
        shift = -0.03 * lay.side if is_up(x, y) else 0.03 * lay.side
        _text(draw, (cx, cy + shift - 0.045 * lay.side), f"({x}, {y})", lay.side / SS * 0.14, bold=(x, y) == (0, 0))
        _text(draw, (cx, cy + shift + 0.085 * lay.side), label, lay.side / SS * 0.105, fill=GREY)
    _outline(draw, _triangle(lay, 0, 0), OUTLINE, lay.side * 0.04)
    ox, oy = lay.centre(0, 0)
    _text(draw, (ox, oy + 0.2 * lay.side), "opening", lay.side / SS * 0.1, fill=OUTLINE)
    # Axes: x grows to the right, y upwards (a row of cells is one y).
    left, bottom = lay.point(-4, -2)
    right, _ = lay.point(4, -2)
    y_axis = bottom + 22 * SS
    _arrow(draw, (left + 10 * SS, y_axis), (right - 10 * SS, y_axis), PANEL_INK, 2 * SS)
    _text(draw, (right + 2 * SS, y_axis), "x", 16, centre=False, bold=True)
    x_axis = left - 8 * SS
    _, top = lay.point(-4, 3)
    _arrow(draw, (x_axis, bottom - 4 * SS), (x_axis, top + 8 * SS), PANEL_INK, 2 * SS)
    _text(draw, (x_axis - 14 * SS, top + 8 * SS), "y", 16, bold=True)
    return _save(image, path)


def sides_diagram(path: Path) -> Path:
    """The sides L, R, B of an up and a down cell, the neighbour each touches, and the colour it shows."""
    W, H = 760, 500
    image, draw = _canvas(W, H)
    _title(draw, W, "Sides L, R, B, the neighbour across each, and the colour every tile shows there")
    panels = [((0, 0), (10, 70, W / 2 - 10, H - 100)), ((1, 0), (W / 2 + 10, 70, W - 10, H - 100))]
    for (x, y), box in panels:
        nbrs = {side: neighbour(x, y, side) for side in "LRB"}
        lay = _layout([(x, y)] + list(nbrs.values()), box, 200)
        up = is_up(x, y)
        rel = {"L": "(x-1, y)", "R": "(x+1, y)", "B": "(x, y-1)" if up else "(x, y+1)"}
        for side, (nx, ny) in nbrs.items():
            _ghost(draw, lay, nx, ny)
            facing = {"L": "R", "R": "L", "B": "B"}[side]
            _text(draw, lay.centre(nx, ny), f"{rel[side]}\nits side {facing}", lay.side / SS * 0.08, fill=GREY)
        _oriented_tile(draw, lay, x, y, "B", None)
        colours = orientation_colours(x, y, "B")
        c = lay.centre(x, y)
        inradius = lay.side / (2 * math.sqrt(3))
        for side in "LRB":
            mx, my = _side_mid(lay, x, y, side)
            nx, ny = (c[0] - mx) / inradius, (c[1] - my) / inradius
            depth = inradius * 0.45
            _text(draw, (mx + nx * depth, my + ny * depth), side, lay.side / SS * 0.12, fill=INK[colours[side]], bold=True)
        _anticlockwise(draw, c, lay.side * 0.065, PANEL_INK, SS * 2)
        _text(draw, ((box[0] + box[2]) / 2 * SS, (box[1] - 22) * SS), f"{'up' if up else 'down'} cell (x, y)", 15, bold=True)
        order = "B, R, L" if up else "B, L, R"
        colour_order = ", ".join(f"{COLOUR_NAMES[colours[s]]} on {s}" for s in order.split(", "))
        _text(
            draw,
            ((box[0] + box[2]) / 2 * SS, (H - 78) * SS),
            f"anticlockwise the sides run {order}:\n{colour_order}",
            13,
        )
    _text(
        draw,
        (W / 2 * SS, (H - 28) * SS),
        "Every placed tile has blue on B, so every horizontal edge of the figure is blue;\n"
        "the arrow shows the anticlockwise order B, R, L and B, L, R and the colours blue, red, gold.",
        13,
        bold=True,
    )
    return _save(image, path)


def orientations_diagram(path: Path) -> Path:
    """The three orientations of a tile on an up and on a down cell (docs/rules.md section 2), and why only blue on B occurs."""
    W, H = 780, 640
    image, draw = _canvas(W, H)
    _title(draw, W, "Orientation: the side that carries the blue edge (tile 01-02-03)")
    tile = tile_id("01-02-03")
    col_w = (W - 130) / 3
    for row, (x, y) in enumerate(((0, 0), (1, 0))):
        top = 40 + row * 165
        _text(draw, (60 * SS, (top + 70) * SS), "up cell" if is_up(x, y) else "down cell", 14, bold=True)
        for k, blue in enumerate("BRL"):
            box = (120 + k * col_w, top, 120 + (k + 1) * col_w, top + 125)
            lay = _layout([(x, y)], box, 120)
            if blue == "B":
                # The engine's own drawing: the orientation every placed tile has.
                _tile(draw, lay, tile, x, y)
            else:
                _oriented_tile(draw, lay, x, y, blue, tile)
            colours = orientation_colours(x, y, blue)
            others = ", ".join(f"{COLOUR_NAMES[c]} {s}" for c in (RED, GOLD) for s in "LRB" if colours[s] == c)
            _text(draw, ((box[0] + box[2]) / 2 * SS, (top + 140) * SS), f"blue on {blue}: {others}", 13, bold=blue == "B")
    # Why only blue on B: the tile beside the opening tile must show red against its red side.
    top = 385
    draw.line([(20 * SS, (top - 22) * SS), ((W - 20) * SS, (top - 22) * SS)], fill=GRID_LINE, width=SS)
    _text(draw, (W / 2 * SS, (top - 2) * SS), "Why only blue on B occurs: 09-02-08 beside the opening 01-02-03, turned three ways", 14, bold=True)
    opening, other = tile_id("01-02-03"), tile_id("09-02-08")
    col_w = (W - 40) / 3
    for k, blue in enumerate("BRL"):
        box = (20 + k * col_w, top + 15, 20 + (k + 1) * col_w, top + 190)
        lay = _layout([(0, 0), (1, 0)], box, 130)
        _tile(draw, lay, opening, 0, 0)
        if blue == "B":
            _tile(draw, lay, other, 1, 0)
        else:
            _oriented_tile(draw, lay, 1, 0, blue, other)
        colour = orientation_colours(1, 0, blue)["L"]
        value = TILE_VALUES[other][colour]
        # What the opening tile shows on its R side, which (1, 0)'s L touches: red 2.
        facing_colour = orientation_colours(0, 0)["R"]
        facing_value = TILE_VALUES[opening][facing_colour]
        assert (facing_colour, facing_value) == (RED, 2)
        ok = colour == facing_colour and contact_valid(value, facing_value)
        # Above the top end of the shared side, clear of the numbers.
        top_end = min(lay.sides(1, 0)["L"], key=lambda p: p[1])
        mark = (top_end[0], top_end[1] - lay.side * 0.13)
        if ok:
            _tick(draw, mark, lay.side * 0.07, OK_GREEN, SS * 4)
        else:
            _cross(draw, mark, lay.side * 0.06, BAD_RED, SS * 4)
        verdict = "valid: red 2 = red 2" if ok else f"{COLOUR_NAMES[colour]} {value} against red 2: colours differ"
        _text(draw, ((box[0] + box[2]) / 2 * SS, (top + 205) * SS), f"blue on {blue}\n{verdict}", 13, fill=OK_GREEN if ok else BAD_RED, bold=ok)
    return _save(image, path)


def contacts_diagram(path: Path) -> Path:
    """A counting contact, a matching contact and an invalid contact (docs/rules.md section 3 and worked examples 1, 2)."""
    W, H = 840, 390
    image, draw = _canvas(W, H)
    _title(draw, W, "Contacts: touching sides share a colour; their numbers must be equal or add up to a multiple of 5")
    panels = [
        ("Counting contact: scores its sum", [("01-02-03", 0, 0)], ("09-02-08", 0, -1), "blue 1 + blue 9 = 10\na multiple of 5: +10 points"),
        ("Matching contact: legal, 0 points", [("01-02-03", 0, 0), ("09-02-08", 0, -1)], ("09-05-08", 1, -1), "gold 8 = gold 8\nequal, sum 16: 0 points"),
        ("Invalid contact: illegal", [("01-02-03", 0, 0)], ("02-03-04", 0, -1), "blue 1 against blue 2: not equal,\nand 3 is not a multiple of 5"),
    ]
    col_w = W / 3
    for k, (heading, board, (name, x, y), caption) in enumerate(panels):
        box = (k * col_w + 10, 60, (k + 1) * col_w - 10, H - 80)
        draw.rectangle([v * SS for v in box], fill=render.FELT)
        figure = _figure(board)
        tile = tile_id(name)
        legal = move_code(tile, cell_index(x, y)) in figure.legal_codes(1 << tile)
        points = figure.points_for(tile, cell_index(x, y))
        inner = (box[0] + 12, box[1] + 12, box[2] - 12, box[3] - 12)
        lay = _layout([(c[1], c[2]) for c in board] + [(x, y)], inner, 140)
        for t, px_, py_ in _placements(figure):
            _tile(draw, lay, t, px_, py_)
        _tile(draw, lay, tile, x, y)
        # The contact: the side of the new tile that touches the figure.
        touching = [s for s in "LRB" if figure.tile_at(*neighbour(x, y, s)) is not None]
        assert len(touching) == 1
        mid = _contact_label_at(lay, x, y, touching[0])
        if legal:
            _last_outline(draw, lay, x, y)
            _label_box(draw, mid, f"+{points}" if points else "0", 15, OK_GREEN)
        else:
            _cross(draw, lay.centre(x, y), lay.side * 0.2, BAD_RED, SS * 5)
            _label_box(draw, mid, "no", 15, BAD_RED)
        _text(draw, ((k + 0.5) * col_w * SS, 45 * SS), heading, 14, bold=True, fill=OK_GREEN if legal else BAD_RED)
        _text(draw, ((k + 0.5) * col_w * SS, (H - 74) * SS), f"{name} on ({x}, {y})\n{caption}", 13, top=True)
        # The diagram states what the engine does: checked here.
        assert legal == (k < 2) and points == (10, 0, 0)[k], (name, legal, points)
    return _save(image, path)


def holes_diagram(path: Path) -> Path:
    """Where a move may go (docs/rules.md section 4): the last-played tile's free sides and the opportunity openings."""
    W, H = 820, 560
    legend_w = 250
    image, draw = _canvas(W, H)
    # The figure on the felt, as the game pictures show it, so the last-played tile's white outline stands out.
    draw.rectangle([0, 0, (W - legend_w) * SS, H * SS], fill=render.FELT)
    on_felt = {"free": (120, 226, 140), "hole": (255, 168, 60), "none": (196, 204, 196)}
    figure = _figure(WITH_OPEN_HOLE)
    last = figure.last
    assert last is not None
    last_xy = cell_xy(last)
    frontier = sorted(figure.frontier)
    cells = [cell_xy(c) for c in list(figure.placed) + frontier]
    lay = _layout(cells, (0, 34, W - legend_w, H), 150)
    free = _free_tiles(figure)
    legal_cells = {cell_index(m.x, m.y) for m in map(code_to_move, figure.legal_codes(free))}
    beside_last = {n for n in (cell_index(*neighbour(*last_xy, s)) for s in "LRB") if n not in figure.placed}
    for t, x, y in _placements(figure):
        _tile(draw, lay, t, x, y)
    _last_outline(draw, lay, *last_xy)
    px = lay.side / SS * 0.13
    for cell in frontier:
        x, y = cell_xy(cell)
        c = lay.centre(x, y)
        c = (c[0], c[1] + (0.04 if is_up(x, y) else -0.04) * lay.side)
        if cell in figure.holes:
            _outline(draw, _triangle(lay, x, y, 0.1), on_felt["hole"], SS * 4)
            _text(draw, c, f"hole\n{figure.placed_neighbours(cell)} sides", px, fill=on_felt["hole"], bold=True)
        elif cell in beside_last:
            _outline(draw, _triangle(lay, x, y, 0.1), on_felt["free"], SS * 4)
            _text(draw, c, "free\nside", px, fill=on_felt["free"], bold=True)
        else:
            _cross(draw, lay.centre(x, y), lay.side * 0.07, on_felt["none"], SS * 3)
        # Marked cells are exactly the engine's candidate cells (where some tile not yet placed fits).
        assert (cell in legal_cells) == (cell in figure.holes or cell in beside_last), (x, y)
    _text(draw, ((W - legend_w) / 2 * SS, 18 * SS), "Where the next tile may go", 17, fill=(255, 255, 255), bold=True)
    lx, ly = (W - legend_w + 15) * SS, 40 * SS
    entries = [
        ("last", "the last-played tile"),
        ("free", "a free side of the last-played\ntile: the usual place to play"),
        ("hole", "a hole: an empty cell touching\n2 or 3 tiles. An opportunity\nplay may go there, anywhere\non the figure"),
        ("none", "touches one tile, not the last\none: nothing may go here now"),
    ]
    for kind, text in entries:
        draw.rectangle([lx - 4 * SS, ly - 4 * SS, lx + 40 * SS, ly + 34 * SS], fill=render.FELT)
        tri = [(lx, ly + 30 * SS), (lx + 36 * SS, ly + 30 * SS), (lx + 18 * SS, ly)]
        if kind == "last":
            draw.polygon(tri, fill=FACE)
            _outline(draw, tri, HIGHLIGHT, SS * 3)
        elif kind == "none":
            _cross(draw, (lx + 18 * SS, ly + 16 * SS), 8 * SS, on_felt["none"], SS * 3)
        else:
            _outline(draw, tri, on_felt[kind], SS * 3)
        _text(draw, (lx + 50 * SS, ly), text, 12.5, centre=False)
        ly += (44 + 16 * text.count("\n")) * SS
    note = (
        "Every touching side must form a\nvalid contact, so a marked cell\ntakes only the tiles that fit all\n"
        "its neighbours. The upper hole\nis also beside the last tile."
    )
    _text(draw, (lx, ly + 6 * SS), note, 12.5, centre=False, fill=GREY)
    return _save(image, path)


def tiles_diagram(path: Path) -> Path:
    """All 36 tiles with their ids and names, one row per lowest value (the rows of docs/rules.md section 1)."""
    rows: list[list[int | None]] = [[] for _ in range(8)]
    for t, values in enumerate(TILE_VALUES):
        rows[min(values) - 1].append(t)
    slots: list[int | None] = []
    for row in rows:
        slots += row + [None] * (8 - len(row))
    side = 78
    pixels = render.render_tiles(slots, columns=8, side=side)
    tiles = Image.fromarray(pixels)
    margin, head = 70, 40
    W, H = tiles.width + margin, tiles.height + head + 8
    image, draw = _canvas(W, H)
    image.paste(tiles.resize((tiles.width * SS, tiles.height * SS), Image.Resampling.NEAREST), (margin * SS, head * SS))
    _title(draw, W, "The 36 tiles: id, then name (blue-red-gold values), as they lie on the table", y=20)
    slot_h = round(1.2 * side)
    for k in range(8):
        _text(draw, (margin / 2 * SS, (head + k * slot_h + slot_h * 0.45) * SS), f"lowest\nvalue {k + 1}", 12, fill=GREY)
    return _save(image, path)


def examples_diagram(path: Path) -> Path:
    """Worked examples 3 and 4 of docs/rules.md section 8: two two-sided and one three-sided opportunity play."""
    W, H = 900, 440
    image, draw = _canvas(W, H)
    top, bottom = 36, H - 100
    draw.rectangle([0, top * SS, W * SS, bottom * SS], fill=render.FELT)
    _title(draw, W, "Opportunity plays (worked examples 3 and 4): the played tile has the white outline")
    plays = [
        (TWO_SIDED_30, ("10-06-09", 0, -1), 30),
        (TWO_SIDED_15, ("04-05-06", 0, -1), 15),
        (THREE_SIDED_50, ("08-09-10", 1, 0), 50),
    ]
    col_w = W / 3
    for k, (board, (name, x, y), expected) in enumerate(plays):
        figure = _figure(board)
        tile, cell = tile_id(name), cell_index(x, y)
        assert move_code(tile, cell) in figure.legal_codes(1 << tile)
        parts = []
        for side in "LRB":
            other = figure.tile_at(*neighbour(x, y, side))
            if other is not None:
                colour = orientation_colours(x, y)[side]
                parts.append((side, colour, TILE_VALUES[tile][colour], TILE_VALUES[other][colour]))
        points = figure.place(tile, cell)
        assert points == expected, (name, points)
        lay = _layout([(c[1], c[2]) for c in board] + [(x, y)], (k * col_w + 8, top, (k + 1) * col_w - 8, bottom), 110)
        for t, px_, py_ in _placements(figure):
            _tile(draw, lay, t, px_, py_)
        _last_outline(draw, lay, x, y)
        lines = [f"{len(parts)}-sided: {points} points", f"{name} into ({x}, {y})"]
        for side, colour, a, b in parts:
            score = a + b if (a + b) % 5 == 0 else 0
            _label_box(draw, _contact_label_at(lay, x, y, side), f"+{score}" if score else "0", 12, OK_GREEN)
            how = f"{a} + {b} = {a + b}" if score else f"{a} = {b}, matching: 0"
            lines.append(f"{COLOUR_NAMES[colour]} {how}")
        _text(draw, ((k + 0.5) * col_w * SS, (bottom + 6) * SS), lines[0], 13.5, top=True, bold=True)
        _text(draw, ((k + 0.5) * col_w * SS, (bottom + 24) * SS), "\n".join(lines[1:]), 12.5, top=True)
    return _save(image, path)


def turn_diagram(path: Path) -> Path:
    """A turn with drawing (docs/rules.md section 5.3), set up with ``ContackGame.from_position`` and drawn by render_rgb."""
    figure = _figure(TWO_SIDED_30)
    held = ["02-09-10", "03-07-08", "08-09-03"]  # none fits any candidate cell
    pile_top = ["05-06-07", "09-10-07"]  # the first fits nowhere, the second beside the last tile
    other_hand = ["06-07-08", "07-08-09", "03-04-05", "08-09-10", "04-05-02"]
    used = {tile_id(n) for n in held + pile_top + other_hand} | set(figure.placed.values())
    pile = [tile_id(n) for n in pile_top] + [t for t in range(36) if t not in used]
    game = ContackGame.from_position([[tile_id(n) for n in held], [tile_id(n) for n in other_hand]], figure, pile, to_move=0, scores=[35, 20])
    events = [(e["type"], e.get("tile")) for e in game.hand_events[-1]]
    assert events == [("draw", "05-06-07"), ("draw", "09-10-07")], events
    assert game.forced_tile == tile_id("09-10-07") and game.current_player == 0
    pixels = render.render_rgb(game, size=(760, 420))
    W, H = 760, 420 + 70
    image = Image.new("RGB", (W * SS, H * SS), PANEL)
    image.paste(Image.fromarray(pixels).resize((W * SS, 420 * SS), Image.Resampling.NEAREST), (0, 0))
    draw = ImageDraw.Draw(image)
    cells = [f"({m.x}, {m.y})" for m in game.legal_moves()]
    where = f"at {cells[0]}, the faint outline" if len(cells) == 1 else f"at {', '.join(cells)}, the faint outlines"
    _text(
        draw,
        (16 * SS, (420 + 10) * SS),
        f"Seat 0 held 02-09-10, 03-07-08, 08-09-03: none fits. It drew 05-06-07 (no fit), then 09-10-07, which fits,\n"
        f"so seat 0 must place 09-10-07 now ({where}), and the turn ends.",
        13,
        centre=False,
    )
    return _save(image, path)


# The example record of docs/records.md: ``contack simulate --game contack --players 2 --agents greedy,random
# --games 1 --seed 54 --hands 1 --trace`` plays this deal and these two placements (then both seats draw and pass).
EXAMPLE_DECK = (
    "04-05-06 02-06-07 08-09-10 02-09-10 01-02-03 01-08-09 03-04-01 07-08-02 08-09-06 10-03-09 02-03-04 05-06-03 "
    "09-02-08 07-08-05 04-05-02 08-01-07 06-07-04 09-10-04 08-04-07 07-08-09 03-07-08 05-09-10 10-06-09 06-02-05 "
    "06-07-01 05-01-04 07-03-06 09-10-07 05-06-07 03-04-05 09-10-01 08-09-03 01-05-06 09-05-08 04-08-09 06-07-08"
).split()
EXAMPLE_MOVES = (("01-08-09", 1, 0), ("04-05-06", 2, 0))


def example_record() -> dict[str, Any]:
    """The record of docs/records.md, rebuilt from its deal and its two placements by the engine."""
    from contack_env.records.contack import game_record

    game = ContackGame([[tile_id(name) for name in EXAMPLE_DECK]], 2, num_hands=1, trace=True)
    for name, x, y in EXAMPLE_MOVES:
        game.play(Move(tile_id(name), x, y))
    assert game.done, "the example hand ends after its two placements"
    return game_record(game, seed=54, agents=["greedy", "random"])


def record_diagram(path: Path) -> Path:
    """The example record drawn as ``contack render record.jsonl --out strip.png --every 1`` draws it."""
    save_strip(example_record(), path, every=1, columns=3, size=(460, 320))
    with Image.open(path) as strip:
        strip.load()
    return _save(strip.resize((strip.width * SS, strip.height * SS), Image.Resampling.NEAREST), path)


DIAGRAMS = {
    "rules_grid.png": grid_diagram,
    "rules_sides.png": sides_diagram,
    "rules_orientations.png": orientations_diagram,
    "rules_contacts.png": contacts_diagram,
    "rules_holes.png": holes_diagram,
    "rules_tiles.png": tiles_diagram,
    "rules_examples.png": examples_diagram,
    "rules_turn.png": turn_diagram,
    "rules_record.png": record_diagram,
}


def write_diagrams(folder: str | Path) -> list[Path]:
    """Draw every diagram into ``folder`` (created if missing); returns the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [draw_one(folder / name) for name, draw_one in DIAGRAMS.items()]


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "img"
    for written in write_diagrams(target):
        print(written, written.stat().st_size, "bytes")
