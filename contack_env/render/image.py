"""Pictures of Contack states and games (Pillow and numpy only).

``render_rgb`` draws a state as the table looks: ivory equilateral tiles on green felt, each side's edge a band
of its colour (blue, red, gold) with its number printed near it, as on the 1939 set; the last-played tile has a
white outline and the empty cells where the player to move may place a tile are outlined faintly. A panel beside
the figure holds the hands (tile names, each number in its side's colour), scores, pile size, hand number and
the seat to move. The figure is scaled to fit whatever its extent.

``record_to_frames`` replays a ``contack-record/1`` game record (docs/records.md) through the records' walker
move by move and draws it, every frame with one geometry (the panel as wide as the widest frame needs, the scale
fixed within a hand), so a GIF's panel stands still and a strip is a regular grid; ``contack_env.render.pictures``
makes a GIF or a PNG strip of it. The panel names each seat's agent: from the record, or
``render_rgb(..., agents=[...])``.

Geometry: a cell ``(x, y)`` of docs/rules.md section 2 has its corners on the lattice points ``(u, v)``; an up cell's
are ``(x-1, y)``, ``(x+1, y)``, ``(x, y+1)``, a down cell's ``(x-1, y+1)``, ``(x+1, y+1)``, ``(x, y)``. A lattice
point is drawn at pixel ``(ox + u * side / 2, oy - v * side * sqrt(3) / 2)``, so every tile is equilateral.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from contack_env.checks import is_whole_number
from contack_env.contack.grid import cell_xy, is_up, side_colour
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import BLUE, GOLD, RED, TILE_NAMES, TILE_VALUES, tiles_in
from contack_env.records.contack import CODEC
from contack_env.records.walker import Walk

RGB = tuple[int, int, int]
Bounds = tuple[int, int, int, int]

FELT: RGB = (31, 84, 58)
PANEL: RGB = (243, 237, 222)
FACE: RGB = (251, 246, 230)
OUTLINE: RGB = (58, 46, 36)
HIGHLIGHT: RGB = (255, 255, 255)
TARGET: RGB = (104, 160, 124)
EDGE: dict[int, RGB] = {BLUE: (38, 86, 196), RED: (206, 44, 38), GOLD: (232, 168, 22)}
INK: dict[int, RGB] = {BLUE: (22, 52, 150), RED: (160, 24, 20), GOLD: (146, 92, 0)}
PANEL_INK: RGB = (40, 34, 28)

SQRT3 = math.sqrt(3.0)
BAND = 0.22  # edge band depth, as a fraction of the distance from a side to the tile's centre
NUMBER_GAP = 0.015  # gap between an edge band and its number, as a fraction of the side length
NUMBER_SIZE = 0.165  # number font size, as a fraction of the side length

DEFAULT_SIZE = (960, 600)


# -- fonts ---------------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def load_font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font at ``px`` pixels (Pillow >= 10.1 with FreeType), else its fixed bitmap font, so
    nothing is ever downloaded or looked up on the system."""
    px = max(6, int(px))
    try:
        return ImageFont.load_default(size=px)
    except (TypeError, AttributeError, OSError, ImportError):
        return ImageFont.load_default()


def text_size(draw: ImageDraw.ImageDraw, text: str, font: Any) -> tuple[int, int]:
    """Width and height of ``text``'s ink in ``font``."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    return right - left, bottom - top


def text_centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Any, fill: RGB) -> None:
    """Draw ``text`` with its ink centred on ``xy``."""
    # Centred from the ink's bounding box rather than with anchors, which bitmap fonts do not support.
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2), text, font=font, fill=fill)


# -- the layout of the figure --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where the figure's lattice lies in the image: lattice point ``(u, v)`` is at ``(ox + u*side/2,
    oy - v*side*sqrt(3)/2)`` pixels."""

    side: float
    ox: float
    oy: float

    def point(self, u: float, v: float) -> tuple[float, float]:
        return (self.ox + u * self.side / 2, self.oy - v * self.side * SQRT3 / 2)

    def corners(self, x: int, y: int) -> dict[str, tuple[float, float]]:
        """The corners of cell ``(x, y)`` by the side they face: ``corners[s]`` is the corner opposite side s."""
        if is_up(x, y):
            return {"R": self.point(x - 1, y), "L": self.point(x + 1, y), "B": self.point(x, y + 1)}
        return {"R": self.point(x - 1, y + 1), "L": self.point(x + 1, y + 1), "B": self.point(x, y)}

    def sides(self, x: int, y: int) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
        """The two ends of each side ``L``, ``R``, ``B`` of cell ``(x, y)``."""
        c = self.corners(x, y)
        return {"L": (c["R"], c["B"]), "R": (c["L"], c["B"]), "B": (c["R"], c["L"])}

    def centre(self, x: int, y: int) -> tuple[float, float]:
        pts = list(self.corners(x, y).values())
        return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)


def figure_layout(cells: Iterable[tuple[int, int]], box: tuple[int, int, int, int], max_side: float | None = None) -> Layout:
    """The layout that fits the cells ``cells`` (or the bounds they span) centred in the pixel box
    ``(left, top, right, bottom)``."""
    cells = list(cells) or [(0, 0)]
    xmin = min(x for x, _ in cells)
    xmax = max(x for x, _ in cells)
    ymin = min(y for _, y in cells)
    ymax = max(y for _, y in cells)
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    margin = 0.05 * min(width, height)
    half_units = xmax - xmin + 2
    rows = ymax - ymin + 1
    side = min((width - 2 * margin) * 2 / half_units, (height - 2 * margin) / (rows * SQRT3 / 2))
    side = min(side, max_side if max_side is not None else height / 3.2)
    # Centre the lattice box [xmin-1, xmax+1] x [ymin, ymax+1] in the pixel box.
    cx = (left + right) / 2
    cy = (top + bottom) / 2
    ox = cx - (xmin - 1 + xmax + 1) / 2 * side / 2
    oy = cy + (ymin + ymax + 1) / 2 * side * SQRT3 / 2
    return Layout(side, ox, oy)


# -- what is drawn: a view of a state ------------------------------------------------------------------------
@dataclass
class _Line:
    text: str = ""
    tiles: list[int] = field(default_factory=list)
    bold: bool = False
    marker: bool = False  # a pointer before the line: the seat to move
    highlight: int | None = None  # a tile to box (the drawn tile that must be placed)


@dataclass
class _View:
    placements: list[tuple[int, int, int]]
    last: tuple[int, int] | None
    targets: list[tuple[int, int]]
    lines: list[_Line]


def _names_line(prefix: str, tiles: Sequence[int], **kw: Any) -> _Line:
    return _Line(prefix, list(tiles), **kw)


def _last_play(state: GameState) -> tuple[int, int] | None:
    """(seat, points) of the placement that put the last-played tile down, from the event log."""
    if state.figure.last is None or not state.hand_events:
        return None
    tile = TILE_NAMES[state.figure.placed[state.figure.last]]
    for event in reversed(state.hand_events[-1]):
        if event.get("type") == "place" and event.get("tile") == tile:
            return int(event["seat"]), int(event["points"])
    return None


def agent_label(spec: str | None) -> str:
    """An agent spec as a picture names it: a trained policy by its file's stem (``ppo:models/contack_2p.npz`` ->
    ``ppo:contack_2p``), anything else as it is; ``?`` when not known. Line breaks and other control characters
    (a record names its agents as it likes) are drawn as spaces: a label is one line."""
    if not spec:
        return "?"
    spec = "".join(" " if not ch.isprintable() else ch for ch in spec)
    name, sep, arg = spec.partition(":")
    if sep and ("/" in arg or "\\" in arg or arg.endswith(".npz")):
        return f"{name}:{Path(arg.replace(chr(92), '/')).stem}"
    return spec


def _view(state: GameState, note: str | None = None, agents: Sequence[str | None] | None = None) -> _View:
    """What to draw for ``state``; ``note`` replaces the status line (used for a hand that has just ended);
    ``agents``, one spec per seat, names who sits where."""
    if not isinstance(state, (ContackGame, Solitaire1, Solitaire2)):
        raise TypeError(f"render_rgb draws a ContackGame, Solitaire1 or Solitaire2; got {type(state).__name__}")
    fig = state.figure
    placements = [(tile, *cell_xy(cell)) for cell, tile in fig.placed.items()]
    last = cell_xy(fig.last) if fig.last is not None else None
    targets = [] if note else sorted({(m.x, m.y) for m in state.legal_moves()})
    lines: list[_Line] = []
    last_play = _last_play(state)
    if isinstance(state, ContackGame):
        lines.append(_Line(f"Contack, {state.num_players} players", bold=True))
        lines.append(_Line(f"Hand {state.hand_number + 1} of {state.num_hands}   Pile: {state.pile_size}"))
        lines.append(_Line(f"Table: {len(fig)} tile{'' if len(fig) == 1 else 's'}"))
        if last_play:
            lines.append(_Line(f"Last play: seat {last_play[0]}, +{last_play[1]}"))
        if note:
            lines.append(_Line(note, bold=True))
        elif state.done:
            won = ", ".join(str(s) for s in state.winners)
            lines.append(_Line(f"Game over ({', '.join(state.end_reasons)})", bold=True))
            lines.append(_Line(f"Seat {won} wins" if len(state.winners) == 1 else f"Seats {won} share the win", bold=True))
        elif state.forced_tile is not None:
            lines.append(_names_line(f"Seat {state.current_player} must place ", [state.forced_tile], bold=True))
        else:
            lines.append(_Line(f"Seat {state.current_player} to move", bold=True))
        lines.append(_Line(""))
        for seat in range(state.num_players):
            to_move = not state.done and not note and seat == state.current_player
            who = f" ({agent_label(agents[seat])})" if agents else ""
            lines.append(_Line(f"Seat {seat}{who}   score {state.scores[seat]}", marker=to_move, bold=to_move))
            highlight = state.forced_tile if to_move else None
            held = tiles_in(state.hands[seat])
            lines.append(_names_line("" if held else "(no tiles)", held, highlight=highlight))
    elif isinstance(state, Solitaire1):
        lines.append(_Line("Contack Solitaire No. 1" + (f" ({agent_label(agents[0])})" if agents else ""), bold=True))
        lines.append(_Line(f"Score: {state.score}   Table: {len(fig)}/36" + (f"   Last: +{last_play[1]}" if last_play else "")))
        lines.append(_Line(f"Pile: {state.pile_size}"))
        lines.append(_names_line(f"Discard ({len(state.discard)}): ", state.discard[-1:]))
        if state.done:
            lines.append(_Line("Won: all 36 placed" if state.won else "Lost", bold=True))
        elif state.forced_tile is not None:
            lines.append(_names_line(f"To place (from {state.source}): ", [state.forced_tile], bold=True))
    else:
        lines.append(_Line("Contack Solitaire No. 2" + (f" ({agent_label(agents[0])})" if agents else ""), bold=True))
        lines.append(_Line(f"Score: {state.score}   Table: {len(fig)}/36" + (f"   Last: +{last_play[1]}" if last_play else "")))
        if state.done:
            lines.append(_Line("Won: all 36 placed" if state.won else "Lost", bold=True))
        lines.append(_Line(""))
        for k, stack in enumerate(state.stacks):
            lines.append(_names_line(f"Stack {k} ({len(stack)}): " + ("" if stack else "empty"), stack[-1:]))
    return _View(placements, last, targets, lines)


# -- drawing -------------------------------------------------------------------------------------------------
def draw_tile(draw: ImageDraw.ImageDraw, lay: Layout, tile: int, x: int, y: int) -> None:
    """Tile ``tile`` on cell ``(x, y)`` of ``lay``, its blue edge on side B (sizes follow ``lay.side``)."""
    corners = lay.corners(x, y)
    c = lay.centre(x, y)
    pts = [corners["R"], corners["L"], corners["B"]]
    draw.polygon(pts, fill=FACE)
    inner = {k: (p[0] + (c[0] - p[0]) * BAND, p[1] + (c[1] - p[1]) * BAND) for k, p in corners.items()}
    ends = {"L": ("R", "B"), "R": ("L", "B"), "B": ("R", "L")}
    font = load_font(round(lay.side * NUMBER_SIZE))
    inradius = lay.side / (2 * SQRT3)
    for side, (a, b) in ends.items():
        colour = side_colour(x, y, side)
        draw.polygon([corners[a], corners[b], inner[b], inner[a]], fill=EDGE[colour])
    draw.line(pts + [pts[0]], fill=OUTLINE, width=max(1, round(lay.side * 0.012)), joint="curve")
    for side, (a, b) in ends.items():
        colour = side_colour(x, y, side)
        mx = (corners[a][0] + corners[b][0]) / 2
        my = (corners[a][1] + corners[b][1]) / 2
        nx, ny = (c[0] - mx) / inradius, (c[1] - my) / inradius  # unit normal into the tile
        text = str(TILE_VALUES[tile][colour])
        w, h = text_size(draw, text, font)
        # Just clear of the band: the text box's half-extent along the normal, plus a small gap.
        depth = BAND * inradius + NUMBER_GAP * lay.side + abs(nx) * w / 2 + abs(ny) * h / 2
        text_centred(draw, (mx + nx * depth, my + ny * depth), text, font, INK[colour])


def _draw_target(draw: ImageDraw.ImageDraw, lay: Layout, x: int, y: int) -> None:
    corners = lay.corners(x, y)
    c = lay.centre(x, y)
    pts = [corners["R"], corners["L"], corners["B"]]
    # Drawn a little inside the cell so the outline never paints over a neighbouring tile's edge.
    inset = [(p[0] + (c[0] - p[0]) * 0.12, p[1] + (c[1] - p[1]) * 0.12) for p in pts]
    draw.line(inset + [inset[0]], fill=TARGET, width=max(1, round(lay.side * 0.02)), joint="curve")
    r = lay.side * 0.035
    draw.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=TARGET)


def _draw_figure(draw: ImageDraw.ImageDraw, view: _View, lay: Layout) -> None:
    for x, y in view.targets:
        _draw_target(draw, lay, x, y)
    for tile, x, y in view.placements:
        draw_tile(draw, lay, tile, x, y)
    if view.last is not None:
        corners = lay.corners(*view.last)
        pts = [corners["R"], corners["L"], corners["B"]]
        draw.line(pts + [pts[0]], fill=HIGHLIGHT, width=max(2, round(lay.side * 0.055)), joint="curve")


def _draw_name(draw: ImageDraw.ImageDraw, xy: tuple[float, float], tile: int, font: Any) -> float:
    """Draw a tile's name with each number in its colour; returns the x where it ends."""
    x, y = xy
    parts = [(f"{TILE_VALUES[tile][c]:02d}", INK[c]) for c in (BLUE, RED, GOLD)]
    for i, (text, colour) in enumerate(parts):
        draw.text((x, y), text, font=font, fill=colour)
        x += draw.textlength(text, font=font)
        if i < 2:
            draw.text((x, y), "-", font=font, fill=PANEL_INK)
            x += draw.textlength("-", font=font)
    return x


def _wrap(draw: ImageDraw.ImageDraw, lines: list[_Line], font: Any, px: float, width: float) -> list[_Line] | None:
    """The panel's lines as drawn rows at this font: tile names that do not fit go on to further rows (indented
    like the rest). None when some text alone is too wide."""
    name_w = draw.textlength("00-00-00  ", font=font)
    rows: list[_Line] = []
    for line in lines:
        room = width - px - draw.textlength(line.text, font=font)
        if room < 0:
            return None
        per_row = max(0, int((room + draw.textlength("  ", font=font)) // name_w))
        first = line.tiles[:per_row]
        rows.append(_Line(line.text, first, line.bold, line.marker, line.highlight))
        rest = line.tiles[len(first):]
        if rest:
            per_row = int((width - px + draw.textlength("  ", font=font)) // name_w)
            if per_row < 1:
                return None
            for i in range(0, len(rest), per_row):
                rows.append(_Line("", rest[i : i + per_row], line.bold, False, line.highlight))
    return rows


def _draw_panel(draw: ImageDraw.ImageDraw, view: _View, box: tuple[int, int, int, int], ss: int) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, fill=PANEL)
    pad = 0.06 * (right - left)
    width = right - left - 2 * pad
    # The largest font at which the lines, wrapped to the panel's width, fit its height.
    px = max(8 * ss, round(min(40 * ss, (bottom - top) / 26)))
    rows = None
    while px > 7 * ss:
        font = load_font(px)
        rows = _wrap(draw, view.lines, font, px, width)
        if rows is not None and len(rows) * px * 1.32 <= (bottom - top) - 2 * pad:
            break
        px -= ss
    font = load_font(px)
    if rows is None:
        rows = view.lines  # nothing fits even at the smallest size: draw unwrapped, clipped at the edge
    step = px * 1.32
    y = top + pad
    for line in rows:
        x = left + pad
        if line.marker:
            # A pointer triangle: the seat to move.
            h = px * 0.7
            cy = y + px * 0.55
            draw.polygon([(x, cy - h / 2), (x, cy + h / 2), (x + h * 0.85, cy)], fill=EDGE[RED])
        x += px
        if line.text:
            draw.text((x, y), line.text, font=font, fill=PANEL_INK, stroke_width=1 if line.bold else 0, stroke_fill=PANEL_INK)
            x += draw.textlength(line.text, font=font)
        for tile in line.tiles:
            end = _draw_name(draw, (x, y), tile, font)
            if tile == line.highlight:
                l, t, r, b = draw.textbbox((x, y), TILE_NAMES[tile], font=font)
                draw.rectangle([l - 3 * ss, t - 3 * ss, r + 3 * ss, b + 3 * ss], outline=EDGE[RED], width=max(1, ss * 2))
            x = end + draw.textlength("  ", font=font)
        y += step


def _line_width(draw: ImageDraw.ImageDraw, line: _Line, font: Any, px: float) -> float:
    # Every line starts after a pointer's width, whether or not it has the pointer.
    return px + draw.textlength(line.text, font=font) + draw.textlength("00-00-00  ", font=font) * len(line.tiles)


def _panel_width(draw: ImageDraw.ImageDraw, view: _View, W: int, H: int, ss: int) -> int:
    """As wide as the panel's lines need at a comfortable font size, within 22% .. 36% of the image, so a short
    panel (a solitaire) leaves the figure more room."""
    px = max(7 * ss, min(H / 34, H * 0.85 / (len(view.lines) * 1.32)))
    font = load_font(round(px))
    need = max(_line_width(draw, line, font, px) for line in view.lines) / 0.88
    return int(min(max(need, 0.22 * W), 0.36 * W))


def _layout(
    draw: ImageDraw.ImageDraw, view: _View, W: int, H: int, bounds: Bounds | None, ss: int, panel_w: int | None = None
) -> tuple[Layout, int]:
    """The figure's layout and the panel's width (``panel_w`` if given) in a ``W`` x ``H`` (supersampled) image."""
    if panel_w is None:
        panel_w = _panel_width(draw, view, W, H, ss)
    if bounds is not None:
        xmin, xmax, ymin, ymax = bounds
        cells: list[tuple[int, int]] = [(xmin, ymin), (xmax, ymax)]
    else:
        cells = [(x, y) for _, x, y in view.placements] + view.targets
    return figure_layout(cells, (0, 0, W - panel_w, H)), panel_w


def _render_view(
    view: _View, size: tuple[int, int], bounds: Bounds | None, supersample: int, panel_w: int | None = None
) -> np.ndarray:
    width, height = size
    ss = supersample
    W, H = width * ss, height * ss
    image = Image.new("RGB", (W, H), FELT)
    draw = ImageDraw.Draw(image)
    lay, panel_w = _layout(draw, view, W, H, bounds, ss, panel_w)
    _draw_figure(draw, view, lay)
    _draw_panel(draw, view, (W - panel_w, 0, W, H), ss)
    if ss > 1:
        # Box-filter downsampling: antialiased edges, while flat areas keep their exact colour.
        image = image.reduce(ss)
    return np.asarray(image, dtype=np.uint8).copy()


MAX_SIDE = 8000
"""The widest and tallest picture drawn, in pixels (drawn at twice that with the default supersampling: a
larger one takes gigabytes)."""


def check_size(size: int | tuple[int, int]) -> tuple[int, int]:
    """``size`` as ``(width, height)``: a width (the height follows the default shape) or a pair, whole numbers
    of pixels from 160 x 100 to ``MAX_SIDE`` x ``MAX_SIDE``; ``ValueError`` for anything else (``720.9``,
    ``"720"``: no rounding)."""
    if is_whole_number(size):
        size = (int(size), int(round(size * DEFAULT_SIZE[1] / DEFAULT_SIZE[0])))
    try:
        width, height = size  # type: ignore[misc]
        if not (is_whole_number(width) and is_whole_number(height)):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"size is a width in pixels or a (width, height) pair of whole numbers; got {size!r}") from None
    if not (160 <= width <= MAX_SIDE and 100 <= height <= MAX_SIDE):
        raise ValueError(f"the image is 160 x 100 to {MAX_SIDE} x {MAX_SIDE} pixels; got {width} x {height}")
    return int(width), int(height)


def check_bounds(bounds: object) -> Bounds | None:
    """``bounds`` as ``(xmin, xmax, ymin, ymax)``, four whole numbers with ``xmin <= xmax`` and ``ymin <= ymax``
    (cells), or None; ``ValueError`` for anything else."""
    if bounds is None:
        return None
    try:
        xmin, xmax, ymin, ymax = bounds  # type: ignore[misc]
        if not all(is_whole_number(v) for v in (xmin, xmax, ymin, ymax)) or xmin > xmax or ymin > ymax:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"bounds is (xmin, xmax, ymin, ymax), four whole numbers of cells with xmin <= xmax and "
                         f"ymin <= ymax, or None; got {bounds!r}") from None
    return int(xmin), int(xmax), int(ymin), int(ymax)


def _check_supersample(supersample: int) -> None:
    if not is_whole_number(supersample) or not 1 <= supersample <= 4:
        raise ValueError(f"supersample is an integer 1..4; got {supersample!r}")


def render_rgb(
    state: GameState,
    size: int | tuple[int, int] = DEFAULT_SIZE,
    bounds: Bounds | None = None,
    supersample: int = 2,
    agents: Sequence[str | None] | None = None,
) -> np.ndarray:
    """An RGB picture of ``state`` (``ContackGame``, ``Solitaire1`` or ``Solitaire2``) as a ``(height, width, 3)``
    uint8 array.

    ``size``: ``(width, height)`` in pixels, or a width (the height follows the default 8:5 shape).
    ``bounds``: ``(xmin, xmax, ymin, ymax)`` cells to fit in the figure area instead of the figure's own extent
    (keeps the scale fixed across the frames of a game). ``supersample``: drawing scale before downsampling, for
    antialiased edges (1 draws directly). ``agents``: one spec per seat, to name who sits where in the panel.
    """
    _check_supersample(supersample)
    return _render_view(_view(state, agents=_check_agents(state, agents)), check_size(size), check_bounds(bounds),
                        int(supersample))


def _check_agents(state: GameState, agents: Sequence[str | None] | None) -> list[str | None] | None:
    if agents is None:
        return None
    seats = state.num_players
    names = None if isinstance(agents, str) else list(agents)
    if names is None or len(names) != seats or not all(a is None or isinstance(a, str) for a in names):
        raise ValueError(f"agents is one spec per seat ({seats}), or None; got {agents!r}")
    return names


def render_layout(
    state: GameState, size: int | tuple[int, int] = DEFAULT_SIZE, bounds: Bounds | None = None, supersample: int = 2
) -> Layout:
    """Where ``render_rgb`` with the same arguments puts the figure, in the returned image's pixels: use
    ``Layout.corners``, ``sides`` and ``centre`` to find a cell (e.g. to mark it, or to read its colours)."""
    _check_supersample(supersample)
    width, height = check_size(size)
    ss = int(supersample)
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lay, _ = _layout(draw, _view(state), width * ss, height * ss, check_bounds(bounds), ss)
    return Layout(lay.side / ss, lay.ox / ss, lay.oy / ss)


def tile_slot_layout(k: int, columns: int, side: float) -> Layout:
    """Where ``render_tiles(..., columns, side)`` draws its ``k``-th tile, in the image's pixels: as cell (0, 0)
    of this layout. Slot ``k`` is the box of ``round(1.25 * side)`` x ``round(1.2 * side)`` pixels at column
    ``k % columns``, row ``k // columns``; the tile's apex is ``0.1 * side`` below the box's top."""
    slot_w, slot_h = round(1.25 * side), round(1.2 * side)
    left, top = (k % columns) * slot_w, (k // columns) * slot_h
    return Layout(float(side), left + slot_w / 2, top + (0.1 + SQRT3 / 2) * side)


def render_tiles(
    tiles: Sequence[int | None] | None = None, columns: int = 9, side: int = 90, supersample: int = 2
) -> np.ndarray:
    """The tiles ``tiles`` (tile ids, in the order given; ``None`` leaves a place empty; default: all 36 in id
    order) drawn as they lie on the table, in an up cell with blue on the base (so red on the right, gold on the
    left), each with ``id: name`` underneath, ``columns`` to a row (fewer if there are fewer tiles). ``side``:
    a tile's side in pixels. Returns an RGB ``(height, width, 3)`` uint8 array; ``tile_slot_layout`` says where
    each tile is."""
    _check_supersample(supersample)
    tiles = list(range(len(TILE_NAMES))) if tiles is None else list(tiles)
    if not tiles:
        raise ValueError("render_tiles needs at least one tile (or None for all 36)")
    for t in tiles:
        if t is not None and (not is_whole_number(t) or not 0 <= t < len(TILE_NAMES)):
            raise ValueError(f"tiles holds tile ids 0..{len(TILE_NAMES) - 1} or None (an empty place); got {t!r}")
    if not is_whole_number(columns) or columns < 1:
        raise ValueError(f"columns is a positive integer; got {columns!r}")
    if not is_whole_number(side) or not 24 <= side <= 1000:
        raise ValueError(f"side is a tile's side in pixels, an integer 24..1000; got {side!r}")
    ss = int(supersample)
    cols = min(int(columns), len(tiles))
    rows = math.ceil(len(tiles) / cols)
    slot_w, slot_h = round(1.25 * side), round(1.2 * side)
    image = Image.new("RGB", (cols * slot_w * ss, rows * slot_h * ss), PANEL)
    draw = ImageDraw.Draw(image)
    font = load_font(round(0.15 * side * ss))
    for k, tile in enumerate(tiles):
        if tile is None:
            continue
        lay = tile_slot_layout(k, cols, side)
        lay = Layout(lay.side * ss, lay.ox * ss, lay.oy * ss)
        draw_tile(draw, lay, int(tile), 0, 0)
        label = f"{int(tile)}: "
        width = draw.textlength(label, font=font) + draw.textlength(TILE_NAMES[tile], font=font)
        x = lay.ox - width / 2
        y = lay.oy + 0.06 * lay.side  # just under the base
        draw.text((x, y), label, font=font, fill=PANEL_INK)
        _draw_name(draw, (x + draw.textlength(label, font=font), y), int(tile), font)
    if ss > 1:
        image = image.reduce(ss)
    return np.asarray(image, dtype=np.uint8).copy()


# -- records -------------------------------------------------------------------------------------------------
def _frame_states(record: Mapping[str, Any]) -> list[tuple[GameState, str | None, int]]:
    """Every frame's state of a ``contack-record/1`` record, walked and checked by the records' walker:
    (state, note, hand index). Frames are the position after each hand's opening and after each placement; a
    placement that ends a hand before the last one is shown twice: the finished figure, then the next hand's
    opening. A record that does not replay raises ``RecordError`` (a ``ValueError``) naming where."""
    walk = Walk(record, CODEC)
    frames: list[tuple[GameState, str | None, int]] = []
    for step in walk.steps():
        state = walk.state
        if step.move is None:  # the start: the first hand's opening
            frames.append((state.clone(), None, 0))
            continue
        before, _, h = frames[-1]
        if len(state.hand_events) > step.index[0] + 1:  # the move ended its hand and the next was dealt
            # The engine dealt the next hand inside play(); to show the finished figure, play the move again on
            # the position before it, on a copy that believes this hand is the last.
            ending = before.clone()
            ending.num_hands = ending.hand_number + 1
            ending.play(step.move)
            frames.append((ending, f"Hand {ending.hand_number + 1} over ({ending.end_reasons[-1]})", h))
            frames.append((state.clone(), None, h + 1))
        else:
            frames.append((state.clone(), None, h))
    return frames


def _hand_bounds(frames: list[tuple[GameState, str | None, int]]) -> dict[int, Bounds]:
    cells: dict[int, set[tuple[int, int]]] = {}
    for state, note, h in frames:
        view_cells = cells.setdefault(h, set())
        view_cells.update(cell_xy(c) for c in state.figure.placed)
        if not note:
            view_cells.update((m.x, m.y) for m in state.legal_moves())
    return {
        h: (min(x for x, _ in c), max(x for x, _ in c), min(y for _, y in c), max(y for _, y in c))
        for h, c in cells.items()
    }


def record_to_frames(
    record: Mapping[str, Any], size: int | tuple[int, int] = (720, 450), supersample: int = 2
) -> list[np.ndarray]:
    """The game of ``record`` (a ``contack-record/1`` mapping) drawn move by move: one frame per hand opening,
    one per placement, and for every hand but the last one more showing its finished figure. Within a hand the
    scale is fixed, so tiles stay put from frame to frame."""
    return [image for image, _ in record_to_held_frames(record, size, supersample)]


def record_to_held_frames(
    record: Mapping[str, Any], size: int | tuple[int, int] = (720, 450), supersample: int = 2
) -> list[tuple[np.ndarray, bool]]:
    """``record_to_frames`` with, for each frame, whether an animation should hold it longer (a finished hand)."""
    _check_supersample(supersample)
    frames = _frame_states(record)
    images = _draw_frames(record, frames, check_size(size), int(supersample))
    return [(image, note is not None) for image, (_, note, _) in zip(images, frames)]


def _draw_frames(
    record: Mapping[str, Any], frames: list[tuple[GameState, str | None, int]], wh: tuple[int, int], ss: int
) -> list[np.ndarray]:
    """Every frame drawn with one geometry: the scale fixed within a hand, and one panel width for the whole game,
    the widest any frame needs, so the figure's area and the panel never move from frame to frame. The panel
    names each seat's agent when the record says."""
    bounds = _hand_bounds(frames)
    agents = record.get("agents")
    seats = frames[0][0].num_players
    if not (isinstance(agents, list) and len(agents) == seats and all(a is None or isinstance(a, str) for a in agents)):
        agents = None
    views = [_view(state, note, agents) for state, note, _ in frames]
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    panel_w = max(_panel_width(draw, view, wh[0] * ss, wh[1] * ss, ss) for view in views)
    return [_render_view(view, wh, bounds[h], ss, panel_w) for view, (_, _, h) in zip(views, frames)]
