"""A text view of a Contack state that a person can read at a terminal (pure Python, no RL imports).

The figure is drawn on the triangular grid of docs/rules.md section 2 with ``y`` growing upward. Every row of cells
takes three text lines: the horizontal edge line it shares with the row above, then two lines holding the cells'
insides; neighbouring up and down cells share their slanted ``/`` and ``\\`` edges. Each cell is 12 columns wide
at its horizontal side and successive cells of a row are 6 columns apart.

An up cell shows its gold (L), blue (B) and red (R) values on its lower inside line, just inside its left edge,
above its base and inside its right edge; a down cell shows red (L), blue (B) and gold (R) on its upper inside line,
just under its top. So two touching tiles show the values in contact next to each other: across a slanted edge
the two numbers sit one above the other in the same column, across a horizontal edge they face each other over
the edge line. The last-played tile carries a ``*`` in its narrow end; an empty cell where the player to move
may place a tile shows ``o``. Column numbers (``x``) run along the top and bottom, row numbers (``y``) down both
sides, so a cell can be read off as ``(x, y)``.

Below the figure come the hands (every hand is seen by everyone), scores, pile size (never its order), hand
number, the drawn tile that must be placed, and for the solitaires the discard pile top or the stack tops.
"""

from __future__ import annotations

from typing import Any

from contack_env.contack.figure import Move
from contack_env.contack.grid import cell_xy, is_up
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import BLUE, GOLD, RED, TILE_NAMES, TILE_VALUES, tiles_in
from contack_env.wording import plural

# Text geometry: a lattice step in x is _W columns, a row is _P lines; _W = 2 * _P gives slopes of two columns
# a line, which leaves room for three numbers (only one of them two digits: a tile's values differ) inside.
_W = 6
_P = 3
_ROW_LABEL = 4  # width of the row-number margins
LAST_MARK = "*"
TARGET_MARK = "o"
LEGEND = (
    "Cell (x, y): x on the rulers above and below, y at the sides. Up cells show gold L, blue B (base), red R;\n"
    f"down cells red L, blue B (top), gold R.  {LAST_MARK} = last played tile,  {TARGET_MARK} = legal target cell."
)
MAX_LISTED_MOVES = 30
# ANSI colours for a terminal: blue, red and gold (yellow) numbers; bold for the last-played mark, green targets.
ANSI = {BLUE: "\x1b[1;34m", RED: "\x1b[1;31m", GOLD: "\x1b[1;33m"}
ANSI_BOLD = "\x1b[1m"
ANSI_TARGET = "\x1b[32m"
ANSI_RESET = "\x1b[0m"


def render_text(state: GameState, mark_targets: bool = True) -> str:
    """A multi-line text view of ``state`` (a ``ContackGame``, ``Solitaire1`` or ``Solitaire2``).

    ``mark_targets`` marks with ``o`` the empty cells where the player to move has a legal placement.
    """
    if not isinstance(state, (ContackGame, Solitaire1, Solitaire2)):
        raise TypeError(
            f"render_text draws a ContackGame, Solitaire1 or Solitaire2; got {type(state).__name__}"
        )
    targets = sorted({(m.x, m.y) for m in state.legal_moves()}) if mark_targets else []
    lines = [_header(state), ""]
    lines += draw_figure(
        [(tile, *cell_xy(cell)) for cell, tile in state.figure.placed.items()],
        last=cell_xy(state.figure.last) if state.figure.last is not None else None,
        targets=targets,
    )
    # (unmarked, neither the legend nor the panel speaks of marks)
    lines.append(LEGEND if mark_targets else LEGEND.removesuffix(f",  {TARGET_MARK} = legal target cell.") + ".")
    lines.append("")
    if isinstance(state, ContackGame):
        lines += _contack_panel(state)
    elif isinstance(state, Solitaire1):
        lines += _solitaire1_panel(state)
    else:
        lines += _solitaire2_panel(state)
    if not mark_targets:
        lines = [line.removesuffix(f" marked {TARGET_MARK}") if line.startswith("Legal moves: ") else line
                 for line in lines]
    return "\n".join(lines) + "\n"


def draw_figure(
    placements: list[tuple[int, int, int]],
    last: tuple[int, int] | None = None,
    targets: list[tuple[int, int]] | tuple[tuple[int, int], ...] = (),
    colour: bool = False,
) -> list[str]:
    """The text lines of a figure: ``placements`` are ``(tile id, x, y)``; ``last`` is the cell to mark with ``*``;
    ``targets`` are empty cells to mark with ``o``. An empty figure gives one line saying so. ``colour``: each
    number in its side's colour, the marks in bold and green (ANSI escapes, for a terminal that shows them)."""
    cells = [(x, y) for _, x, y in placements] + list(targets)
    if not cells:
        return ["(the table is empty)"]
    xmin = min(x for x, _ in cells)
    xmax = max(x for x, _ in cells)
    ymin = min(y for _, y in cells)
    ymax = max(y for _, y in cells)

    width = _W * (xmax - xmin + 2) + 1
    height = _P * (ymax - ymin + 1) + 1
    grid = [[" "] * width for _ in range(height)]
    ink: dict[tuple[int, int], str] = {}  # (line, column) -> the ANSI colour of that character

    def col(u: int) -> int:  # column of lattice abscissa u (a vertex's x)
        return _W * (u - xmin + 1)

    def line(v: int) -> int:  # line of the horizontal lattice line at height v
        return _P * (ymax + 1 - v)

    def put(r: int, c: int, text: str) -> None:
        for i, ch in enumerate(text):
            grid[r][c + i] = ch

    def edge_h(v: int, u0: int, u1: int) -> None:
        r = line(v)
        for c in range(col(u0), col(u1) + 1):
            if grid[r][c] == " ":
                grid[r][c] = "-"
        grid[r][col(u0)] = grid[r][col(u1)] = "+"

    for tile, x, y in placements:
        c = col(x)
        top = line(y + 1)
        if is_up(x, y):
            grid[top][c] = "+" if grid[top][c] == " " else grid[top][c]
            put(top + 1, c - 2, "/")
            put(top + 1, c + 2, "\\")
            put(top + 2, c - 4, "/")
            put(top + 2, c + 4, "\\")
            edge_h(y, x - 1, x + 1)
            left, right = TILE_VALUES[tile][GOLD], TILE_VALUES[tile][RED]
            wide, narrow = top + 2, top + 1
        else:
            edge_h(y + 1, x - 1, x + 1)
            put(top + 1, c - 4, "\\")
            put(top + 1, c + 4, "/")
            put(top + 2, c - 2, "\\")
            put(top + 2, c + 2, "/")
            bottom = line(y)
            grid[bottom][c] = "+" if grid[bottom][c] == " " else grid[bottom][c]
            left, right = TILE_VALUES[tile][RED], TILE_VALUES[tile][GOLD]
            wide, narrow = top + 1, top + 2
        put(wide, c - 3, _inside(left, TILE_VALUES[tile][BLUE], right))
        left_colour, right_colour = (GOLD, RED) if is_up(x, y) else (RED, GOLD)
        for offset, colour_index in ((0, left_colour), (1, left_colour), (2, BLUE), (3, BLUE), (4, BLUE), (5, right_colour), (6, right_colour)):
            ink[(wide, c - 3 + offset)] = ANSI[colour_index]
        if last == (x, y):
            put(narrow, c, LAST_MARK)
            ink[(narrow, c)] = ANSI_BOLD
    for x, y in targets:
        put(line(y + 1) + (2 if is_up(x, y) else 1), col(x), TARGET_MARK)
        ink[(line(y + 1) + (2 if is_up(x, y) else 1), col(x))] = ANSI_TARGET
    if colour:
        for (r, c), code in ink.items():
            if grid[r][c] != " ":
                grid[r][c] = f"{code}{grid[r][c]}{ANSI_RESET}"

    ruler = [" "] * width
    for x in range(xmin, xmax + 1):
        text = str(x)
        start = col(x) - len(text) // 2  # centred on the column (a two-character label ends on it)
        for i, ch in enumerate(text):
            ruler[start + i] = ch
    ruler_line = " " * _ROW_LABEL + "".join(ruler).rstrip()
    out = ["x =" + ruler_line[3:]]
    for r, row in enumerate(grid):
        body = "".join(row)
        # Row numbers go on both inside lines of a row: the lower one holds up cells' numbers, the upper one
        # down cells' numbers, and either may be the one a reader's eye is on.
        if r % _P == 0:
            label = " " * _ROW_LABEL
            out.append((label + body).rstrip())
        else:
            y = ymax - r // _P
            out.append((f"{y:>{_ROW_LABEL - 1}} " + body + f" {y}").rstrip())
    out.append(ruler_line)
    return out


def _inside(left: int, blue: int, right: int) -> str:
    """Seven columns: the side values hug their edges, blue sits in the middle. A tile's values differ, so at
    most one of them has two digits, and a space always separates them ("9  5  8", "10 5  8", "9 10  8")."""
    middle = f" {blue} " if blue < 10 else f"{blue} "
    return f"{left:<2}" + middle + f"{right:>2}"


# -- the panel under the figure ------------------------------------------------------------------------------
def _names(tiles: list[int]) -> str:
    return " ".join(TILE_NAMES[t] for t in tiles) if tiles else "(none)"


def _last_event(state: GameState) -> dict[str, Any] | None:
    for events in reversed(state.hand_events):
        for event in reversed(events):
            if event.get("type") in ("place", "open"):
                return event
    return None


def _last_line(state: GameState) -> str | None:
    if state.figure.last is None:
        return None
    x, y = cell_xy(state.figure.last)
    tile = state.figure.placed[state.figure.last]
    text = f"Last played ({LAST_MARK}): {TILE_NAMES[tile]} at ({x}, {y})"
    event = _last_event(state)
    if event is not None and event.get("tile") == TILE_NAMES[tile] and event.get("cell") == [x, y]:
        who = f"seat {event['seat']}" if isinstance(state, ContackGame) else "you"
        verb = "opened with it" if event["type"] == "open" else f"scored {event['points']}"
        text += f", {who} {verb}"
    return text


def _header(state: GameState) -> str:
    if isinstance(state, ContackGame):
        return (
            f"Contack, {state.num_players} players, hand {state.hand_number + 1} of {state.num_hands}"
            f" (enclosed_end={state.enclosed_end}); {plural(len(state.figure), 'tile')} on the table"
        )
    name = "Solitaire No. 1" if isinstance(state, Solitaire1) else "Solitaire No. 2"
    return f"Contack {name}; {len(state.figure)} of 36 tiles placed"


def _targets_line(state: GameState) -> list[str]:
    moves: list[Move] = state.legal_moves()
    if not moves:
        return []
    cells = sorted({(m.x, m.y) for m in moves})
    out = [f"Legal moves: {len(moves)} on {plural(len(cells), 'cell')} marked {TARGET_MARK}"]
    if len(moves) <= MAX_LISTED_MOVES:
        by_tile: dict[int, list[str]] = {}
        for m in moves:
            by_tile.setdefault(m.tile, []).append(f"({m.x}, {m.y})")
        out += [f"  {TILE_NAMES[t]} at {' '.join(where)}" for t, where in by_tile.items()]
    return out


def _contack_panel(state: ContackGame) -> list[str]:
    out = []
    last = _last_line(state)
    if last:
        out.append(last)
    out.append(f"Pile: {plural(state.pile_size, 'tile')} face down")
    out.append("Hands (seat, score, tiles):")
    for seat in range(state.num_players):
        marker = ">" if not state.done and seat == state.current_player else " "
        tiles = tiles_in(state.hands[seat])
        out.append(f"{marker} seat {seat}  score {state.scores[seat]:>4}  {_names(tiles)}")
    if state.done:
        winners = ", ".join(f"seat {s}" for s in state.winners)
        out.append(f"Game over ({', '.join(state.end_reasons)}); final scores {state.scores}; won by {winners}")
        return out
    out.append(f"Scores: {state.scores}")
    if state.forced_tile is not None:
        out.append(f"Seat {state.current_player} drew {TILE_NAMES[state.forced_tile]} and must place it")
    else:
        out.append(f"Seat {state.current_player} to move")
    out += _targets_line(state)
    return out


def _solitaire1_panel(state: Solitaire1) -> list[str]:
    out = []
    last = _last_line(state)
    if last:
        out.append(last)
    out.append(f"Score: {state.score}")
    out.append(f"Pile: {plural(state.pile_size, 'tile')} face down")
    if state.discard:
        out.append(f"Discard pile: {plural(len(state.discard), 'tile')}, top {TILE_NAMES[state.discard[-1]]}")
    else:
        out.append("Discard pile: empty")
    if state.done:
        out.append("Won: all 36 tiles placed" if state.won else "Lost: the pile is empty and the discard top cannot go")
        return out
    tile = state.forced_tile
    if tile is not None:
        out.append(f"To place: {TILE_NAMES[tile]} (from the {state.source})")
    out += _targets_line(state)
    return out


def _solitaire2_panel(state: Solitaire2) -> list[str]:
    out = []
    last = _last_line(state)
    if last:
        out.append(last)
    out.append(f"Score: {state.score}")
    out.append("Stacks (top tile, tiles in the stack):")
    for k, stack in enumerate(state.stacks):
        top = TILE_NAMES[stack[-1]] if stack else "(empty)"
        out.append(f"  stack {k}: {top}  ({len(stack)})")
    if state.done:
        out.append("Won: all 36 tiles placed" if state.won else "Lost: no stack top can be placed")
        return out
    out += _targets_line(state)
    return out
