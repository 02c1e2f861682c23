"""The screen ``contack play`` shows at each of the person's decisions: at most 80 columns and 24 lines for any
table from 2 to 7 players, so a standard terminal shows it whole.

From the top: one status line; the part of the figure around the last-played tile (the whole figure when it
fits; the window follows play, and ``b`` draws the whole table); one line per seat (the agent, the score, the
hand); the latest events, so what the bots did since the person's last move stays on screen (who went out
included); the legal moves, numbered once, grouped by tile, with the points each scores. With ``colour`` (a
terminal that shows ANSI colours, and no ``NO_COLOR`` in the environment) every number is in its side's colour.
"""

from __future__ import annotations

import os
import re
from typing import Sequence, TextIO

from contack_env import TILE_NAMES, TILE_VALUES, ContackGame, Move
from contack_env.cli_support import clipped, padded, screen_width
from contack_env.contactix.rules import EMPTY, ContactixState
from contack_env.render.contactix import render_text as contactix_text
from contack_env.contack.grid import cell_index, cell_xy
from contack_env.render.text import ANSI, ANSI_BOLD, ANSI_RESET, draw_figure
from contack_env.contack.tiles import BLUE, GOLD, RED, tiles_in
from contack_env.wording import plural

WIDTH, HEIGHT = 80, 24
BOARD_ROW_LINES = 6
"""The lines of the smallest board view: one row of cells (3 lines), its last edge and the two rulers."""
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

HELP_SCREEN = """\
Contack in short
  36 triangular tiles; each edge has a colour (blue, red, gold) and a number.
  A tile's name is its numbers blue-red-gold, two digits each: 09-02-08 shows
  9 on blue, 2 on red, 8 on gold. Every tile lies with blue on its flat side:
  an up cell shows gold on the left, red on the right; a down cell the reverse.
  You place a tile against the last one played (the * cell), or into a hole
  (an empty cell touching two or more tiles). Every side it touches must meet
  the same colour, with equal numbers or numbers adding up to 5, 10, 15 or 20;
  each such sum scores its value. No move: draw until one fits or you hold 5,
  then pass. A hand ends when someone goes out (placed every tile), when the
  figure is enclosed, or when nobody can play; each tile still held costs 10.
  After the last hand (3 by default) the highest score wins.
Reading the table
  Cell (x, y): x on the rulers above and below, y at the sides. o marks a cell
  where you may place a tile; the screen shows the part around the last play.
Answering
  a move's number from the list, or TILE X Y (e.g. 09-02-08 0 -1)
  b  the whole table     ?  this help     q  quit"""


def use_colour(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that shows ANSI colours (and the user has not asked for none)."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM", "") in ("", "dumb"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def visible_len(text: str) -> int:
    """The width of ``text`` on a terminal (escape sequences take none; ``screen_width``)."""
    return screen_width(_ESCAPE.sub("", text))


def tile_text(tile: int, colour: bool) -> str:
    """A tile's name, each number in its side's colour when ``colour``."""
    if not colour:
        return TILE_NAMES[tile]
    return "-".join(f"{ANSI[c]}{TILE_VALUES[tile][c]:02d}{ANSI_RESET}" for c in (BLUE, RED, GOLD))


def _clip(text: str, width: int = WIDTH) -> str:
    return clipped(text, width)


def _window(lo: int, hi: int, centre: int, span: int) -> tuple[int, int]:
    """``span`` consecutive values of ``lo..hi`` around ``centre`` (all of them if there are no more)."""
    if hi - lo + 1 <= span:
        return lo, hi
    start = min(max(centre - span // 2, lo), hi - span + 1)
    return start, start + span - 1


def board_view(state: ContackGame, max_lines: int, colour: bool = False) -> list[str]:
    """The figure, or the largest window of it around the last-played tile that fits ``max_lines`` lines of 80
    columns (with its rulers); ``[]`` when not even one row fits."""
    fig = state.figure
    placements = [(t, *cell_xy(c)) for c, t in fig.placed.items()]
    targets = sorted({(m.x, m.y) for m in state.legal_moves()})
    cells = [(x, y) for _, x, y in placements] + targets
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    last = cell_xy(fig.last) if fig.last is not None else (0, 0)
    rows = ys and max(ys) - min(ys) + 1
    columns = xs and max(xs) - min(xs) + 1
    # A row of cells takes 3 lines (plus 1 for the last edge and 2 for the rulers); a column 6 characters.
    rows = min(rows, (max_lines - 3) // 3)
    columns = min(columns, 9)
    while rows >= 1 and columns >= 1:
        x0, x1 = _window(min(xs), max(xs), last[0], columns)
        y0, y1 = _window(min(ys), max(ys), last[1], rows)
        inside = [p for p in placements if x0 <= p[1] <= x1 and y0 <= p[2] <= y1]
        shown = [c for c in targets if x0 <= c[0] <= x1 and y0 <= c[1] <= y1]
        lines = draw_figure(inside, last=cell_xy(fig.last) if fig.last is not None else None, targets=shown, colour=colour)
        if len(lines) <= max_lines and all(visible_len(line) <= WIDTH for line in lines):
            return lines
        columns -= 1 if visible_len(max(lines, key=visible_len)) > WIDTH else 0
        rows -= 1 if len(lines) > max_lines else 0
    return []


def seat_lines(state: ContackGame, names: Sequence[str], colour: bool = False) -> list[str]:
    """One line per seat: ``>`` for the seat to move, its name, score and hand."""
    out = []
    for seat in range(state.num_players):
        mark = ">" if not state.done and seat == state.current_player else " "
        held = tiles_in(state.hands[seat])
        hand = " ".join(tile_text(t, colour) for t in held) if held else "(no tiles)"
        line = f"{mark} {padded(_clip(names[seat], 24), 24)} {state.scores[seat]:>5}  {hand}"
        out.append(f"{ANSI_BOLD}{line}{ANSI_RESET}" if colour and mark == ">" else line)
    return out


def move_lines(state: ContackGame, legal: Sequence[Move], colour: bool = False) -> list[str]:
    """The legal moves, numbered from 1 in ``legal``'s order, one tile a line (more when a tile has many cells):
    ``09-02-08  1:(0,-1)+5  2:(1,0)``; the points show when a move scores."""
    out: list[str] = []
    by_tile: dict[int, list[str]] = {}
    for k, m in enumerate(legal, 1):
        points = state.figure.points_for(m.tile, cell_index(m.x, m.y))
        by_tile.setdefault(m.tile, []).append(f"{k}:({m.x},{m.y})" + (f"+{points}" if points else ""))
    for tile, entries in by_tile.items():
        line = f"  {tile_text(tile, colour)} "
        width = 12
        for entry in entries:
            if width + len(entry) + 2 > WIDTH:
                out.append(line)
                line, width = " " * 11, 11
            line += "  " + entry
            width += len(entry) + 2
        out.append(line)
    return out


def decision_screen(
    state: ContackGame,
    legal: Sequence[Move],
    names: Sequence[str],
    news: Sequence[str],
    colour: bool = False,
) -> list[str]:
    """The lines to print for the person's decision: the ``news`` (events since the last decision) that do not fit
    on the screen, then the screen itself (module docstring) without the prompt: the last ``HEIGHT - 1`` lines,
    each at most ``WIDTH`` columns wide. So every event is told once, and the latest stay in view."""
    head = (
        f"Contack, {state.num_players} players, hand {state.hand_number + 1} of {state.num_hands}: "
        f"pile {state.pile_size}, {len(state.figure)} tiles on the table"
    )
    if state.forced_tile is not None:  # said first: the status line is cut at the screen's width
        head = f"Place the drawn {TILE_NAMES[state.forced_tile]}. {head}"
    seats = seat_lines(state, names, colour)
    moves = move_lines(state, legal, colour)
    budget = HEIGHT - 1 - 1 - len(seats)  # the prompt, the status line, the seats
    if len(moves) > budget - 1 - BOARD_ROW_LINES:  # the board keeps a row at least
        # Moves beyond the screen are still open: by number, or written out.
        moves = moves[: budget - 2 - BOARD_ROW_LINES] + [f"  ... {len(legal)} moves in all: b lists every one, or "
                                                         "type TILE X Y"]
    keep = max(0, min(4, budget - len(moves) - 1 - BOARD_ROW_LINES))  # the latest news, as room is left
    older, latest = list(news[: len(news) - keep]), [_clip(t) for t in news[len(news) - keep :]]
    board = board_view(state, budget - len(moves) - len(latest) - 1, colour)
    title = "Legal moves (number:(x,y)+points):"
    return older + [_clip(head), *board, *seats, *latest, title, *moves][: HEIGHT - 1]


def final_screen(state: ContackGame, names: Sequence[str], colour: bool = False) -> list[str]:
    """The finished game: the last hand's figure (as much as fits) and every seat's final score and hand, within
    ``HEIGHT - 1`` lines (the verdict goes under it)."""
    seats = seat_lines(state, names, colour)
    head = f"Game over after {plural(state.num_hands, 'hand')} ({', '.join(state.end_reasons)}); the last hand's table:"
    board = board_view(state, HEIGHT - 2 - len(seats), colour)
    return [_clip(head), *board, *seats]


def contactix_board(state: ContactixState) -> list[str]:
    """A CON-TAC-TIX board in at most 21 lines of 80 columns: the diamond of ``contactix_render.render_text`` while
    it fits (up to 10 x 10), else the board drawn as a rhombus, row ``r`` on its own line moved right by ``r``
    characters, so that a hole's six neighbours lie around it (left and right on its line, two above, two
    below). The last peg has ``>`` before it; the winning chain is in capitals."""
    n = state.size
    diamond = contactix_text(state).splitlines()[1:-1]  # without its status line and key
    if len(diamond) <= 21 and all(len(line) <= WIDTH for line in diamond):
        return diamond
    chain = set(state.winning_chain())
    last = state.last_peg
    tens = "   " + "".join(f" {c // 10 if c >= 10 else ' '}" for c in range(n))
    units = "   " + "".join(f" {c % 10}" for c in range(n))
    out = [tens.rstrip(), units + "   columns"] if n > 10 else [units + "   columns"]
    for r in range(n):
        cells = []
        for c in range(n):
            cell = r * n + c
            value = state.board[cell]
            ch = "." if value == EMPTY else "xo"[value - 1]
            if cell in chain:
                ch = ch.upper()
            cells.append((">" if cell == last else " ") + ch)
        out.append(f"{r:>2} " + " " * r + "".join(cells))
    return out


def contactix_screen(state: ContactixState, names: Sequence[str]) -> list[str]:
    """The screen of a CON-TAC-TIX decision or result: a status line, the board, its key; at most
    ``HEIGHT - 1`` lines of ``WIDTH`` columns. ``names``: Black's and White's names."""
    n = state.size
    head = f"CON-TAC-TIX {n}x{n}{' (swap rule)' if state.swap_rule else ''}, {len(state.moves)} moves: "
    if state.winner is not None:
        head += f"{names[state.winner]} has won (capitals)"
    else:
        head += f"{names[state.current_player]} to move" + (" (may swap)" if state.can_swap else "")
    key = f"x {names[0]} joins rows 0 and {n - 1}; o {names[1]} joins columns 0 and {n - 1}"
    return [_clip(head), *contactix_board(state), _clip(key)]
