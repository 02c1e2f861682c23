"""The text view (``contack_env.render.text``): a person reads every tile's numbers off the grid by the rulers, sees the
values in contact side by side, the last tile marked, the hands, scores and pile size, and never the pile order.

The tests read the drawn figure the way a person does: the column of cell ``x`` is under the label ``x`` of the
top ruler, the two inside lines of row ``y`` carry the label ``y``; an up cell's numbers are on the lower of the
two, a down cell's on the upper, within three columns of its ruler mark.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from contack_env import ContackGame, Figure, Solitaire1, new_game, new_solitaire2
from contack_env.contack.grid import cell_xy, is_up, side_colour
from contack_env.render.text import LAST_MARK, TARGET_MARK, draw_figure, render_text
from contack_env.contack.tiles import TILE_NAMES, TILE_VALUES, tile_id, tiles_in


# -- reading the drawn figure back -----------------------------------------------------------------------------
class Reading:
    """A drawn figure (its lines from the top ruler to the bottom one), indexed as a person reads it: by ruler
    column and row label."""

    def __init__(self, lines: list[str]) -> None:
        assert lines[0].startswith("x =")
        self.columns: dict[int, int] = {}
        for m in re.finditer(r"-?\d+", lines[0]):
            self.columns[int(m.group())] = m.start() + len(m.group()) // 2
        self.body = lines[1:-1]
        self.rows: dict[int, list[int]] = {}
        for i, line in enumerate(self.body):
            m = re.match(r"^\s*(-?\d+) ", line)
            if m:
                self.rows.setdefault(int(m.group(1)), []).append(i)

    @classmethod
    def of(cls, text: str) -> "Reading":
        lines = text.splitlines()
        top = next(i for i, line in enumerate(lines) if line.startswith("x ="))
        legend = next(i for i, line in enumerate(lines) if line.startswith("Cell (x, y)"))
        return cls(lines[top:legend])

    def line_of(self, x: int, y: int) -> int:
        """Index in ``body`` of the inside line that holds cell (x, y)'s numbers."""
        upper, lower = self.rows[y]
        return lower if is_up(x, y) else upper

    def window(self, x: int, y: int, line: int | None = None) -> str:
        text = self.body[self.line_of(x, y) if line is None else line]
        c = self.columns[x]
        return text[c - 3 : c + 4].ljust(7)

    def numbers(self, x: int, y: int) -> list[int]:
        """The numbers shown in cell (x, y), left to right."""
        return [int(n) for n in re.findall(r"\d+", self.window(x, y))]

    def narrow(self, x: int, y: int) -> str:
        """The character at the narrow end of cell (x, y) (the other inside line, on the cell's column)."""
        upper, lower = self.rows[y]
        line = upper if is_up(x, y) else lower
        return self.body[line][self.columns[x]]


def expected_numbers(tile: int, x: int, y: int) -> list[int]:
    """A tile's values as a reader sees them: the value on side L, then B, then R (docs/rules.md section 2)."""
    return [TILE_VALUES[tile][side_colour(x, y, side)] for side in ("L", "B", "R")]


def random_play(state, seed: int, moves: int | None = None):
    rng = np.random.default_rng(seed)
    played = 0
    while not state.done and (moves is None or played < moves):
        legal = state.legal_moves()
        state.play(legal[int(rng.integers(len(legal)))])
        played += 1
    return state


def placed(state) -> list[tuple[int, int, int]]:
    return [(tile, *cell_xy(cell)) for cell, tile in state.figure.placed.items()]


# -- the figure ------------------------------------------------------------------------------------------------
def test_worked_example_tiles_read_back_with_contacts_side_by_side(position):
    # Worked examples 1 and 2: 01-02-03 opens, 09-02-08 below it (blue 1 + blue 9), 09-05-08 to its right
    # (gold 8 against gold 8).
    state = position(
        [["03-04-01", "05-01-04"], ["06-07-01"]],
        [("01-02-03", 0, 0), ("09-02-08", 0, -1), ("09-05-08", 1, -1)],
        to_move=0,
    )
    reading = Reading.of(render_text(state))
    # Up (0, 0): gold 3 on L, blue 1 on B, red 2 on R. Down (0, -1): red 2 on L, blue 9 on top, gold 8 on R.
    assert reading.numbers(0, 0) == [3, 1, 2]
    assert reading.numbers(0, -1) == [2, 9, 8]
    assert reading.numbers(1, -1) == [8, 9, 5]
    # The blue contact: 1 over 9 in the same column, with only the edge line between them.
    up_line, down_line = reading.line_of(0, 0), reading.line_of(0, -1)
    assert down_line - up_line == 2
    assert reading.body[up_line + 1].strip(" -+") == ""
    col = reading.columns[0]
    assert reading.body[up_line][col] == "1" and reading.body[down_line][col] == "9"
    # The gold contact across the slanted edge: gold 8 on the right of down (0, -1), on the upper line, and gold
    # 8 on the left of up (1, -1), on the lower line, in one column, each against the same "/" edge.
    upper, lower = reading.rows[-1]
    col = reading.columns[0] + 3
    assert col == reading.columns[1] - 3
    assert reading.body[upper][col : col + 2] == "8/"
    assert reading.body[lower][col - 1 : col + 1] == "/8"


def test_every_placed_tile_reads_back_on_a_large_figure():
    # A finished solitaire spreads widest; every one of its tiles must be legible where it lies.
    widest = max(
        (random_play(new_solitaire2(seed), seed) for seed in range(12)),
        key=lambda s: len({cell_xy(c)[0] for c in s.figure.placed}),
    )
    reading = Reading.of(render_text(widest))
    assert len(placed(widest)) >= 20
    for tile, x, y in placed(widest):
        assert reading.numbers(x, y) == expected_numbers(tile, x, y), f"{TILE_NAMES[tile]} at ({x}, {y})"


def test_a_thirty_by_fifteen_figure_stays_on_its_grid():
    # A cross 30 cells wide and 15 high (contacts unchecked: only the drawing is under test).
    cells = [(x, 0) for x in range(-15, 15)] + [(0, y) for y in range(-7, 8) if y != 0]
    placements = [(k % 36, x, y) for k, (x, y) in enumerate(cells)]
    lines = draw_figure(placements, last=(14, 0))
    reading = Reading(lines)
    assert sorted(reading.columns) == list(range(-15, 15))
    assert sorted(reading.rows) == list(range(-7, 8))
    for tile, x, y in placements:
        assert reading.numbers(x, y) == expected_numbers(tile, x, y)
    assert reading.narrow(14, 0) == LAST_MARK
    # Six columns a cell (and the row labels): a wide terminal shows it whole.
    assert max(len(line) for line in lines) <= 6 * 32 + 12


def test_the_last_played_tile_and_only_it_is_marked():
    state = random_play(new_game(3, seed=5), seed=5, moves=7)
    reading = Reading.of(render_text(state))
    last = cell_xy(state.figure.last)
    assert reading.narrow(*last) == LAST_MARK
    assert sum(line.count(LAST_MARK) for line in reading.body) == 1
    for tile, x, y in placed(state):
        if (x, y) != last:
            assert reading.narrow(x, y) != LAST_MARK


def test_legal_target_cells_are_marked():
    state = random_play(new_game(2, seed=3), seed=3, moves=4)
    reading = Reading.of(render_text(state))
    targets = {(m.x, m.y) for m in state.legal_moves()}
    assert targets
    for x, y in targets:
        assert reading.window(x, y)[3] == TARGET_MARK
    assert sum(line.count(TARGET_MARK) for line in reading.body) == len(targets)
    unmarked = render_text(state, mark_targets=False)
    assert TARGET_MARK not in "".join(Reading.of(unmarked).body)
    assert "legal target" not in unmarked and " marked " not in unmarked  # nothing speaks of marks not made
    assert f"Legal moves: {len(state.legal_moves())} on " in unmarked


# -- the panel -------------------------------------------------------------------------------------------------
def test_hands_scores_pile_and_seat_to_move_are_shown(position):
    state = position(
        [["03-04-01", "05-01-04"], ["06-07-01", "02-06-07", "10-06-09"], ["08-09-10"]],
        [("01-02-03", 0, 0), ("09-02-08", 0, -1), ("09-05-08", 1, -1)],
        to_move=1,
        scores=[12, 35, -20],
    )
    text = render_text(state)
    lines = text.splitlines()
    for seat in range(3):
        line = next(line for line in lines if re.match(rf"^[> ] seat {seat} ", line))
        assert str(state.scores[seat]) in line.split()
        for tile in tiles_in(state.hands[seat]):
            assert TILE_NAMES[tile] in line
        assert line.startswith(">") == (seat == state.current_player)
    assert f"Pile: {state.pile_size} " in text
    assert state.pile_size == 36 - 3 - 6


def test_the_pile_order_is_never_shown(position):
    # Seat 0's 04-05-02 fits (2, -1), red 5 against red 5, so nothing is drawn and the pile order cannot matter.
    hands = [["03-04-01", "04-05-02"], ["06-07-01"]]
    board = [("01-02-03", 0, 0), ("09-02-08", 0, -1), ("09-05-08", 1, -1)]
    a = position(hands, board, to_move=0)
    assert a.legal_moves() and a.forced_tile is None
    pile = a.deck[a.pile_pos :]
    rng = np.random.default_rng(0)
    shuffled = [int(t) for t in rng.permutation(pile)]
    b = ContackGame.from_position(
        [[tile_id(n) for n in h] for h in hands], a.figure, shuffled, 0, scores=a.scores
    )
    assert b.deck[b.pile_pos :] != pile
    assert render_text(a) == render_text(b)
    text = render_text(a)
    for tile in pile:
        assert TILE_NAMES[tile] not in text


def test_a_drawn_tile_that_must_be_placed_is_named():
    # Seeded play that reaches a decision about a drawn tile (found by search, checked here).
    state = random_play(new_game(7, seed=10), seed=10, moves=14)
    assert state.forced_tile is not None
    text = render_text(state)
    assert f"drew {TILE_NAMES[state.forced_tile]} and must place it" in text


def test_a_finished_game_names_its_winners():
    state = random_play(new_game(4, num_hands=2, seed=2), seed=2)
    text = render_text(state)
    assert "Game over" in text
    assert f"final scores {state.scores}" in text
    for seat in state.winners:
        assert f"seat {seat}" in text.split("won by")[1]
    assert "Hands" in text and "hand 2 of 2" in text


def test_solitaire1_shows_discard_top_and_pile_size_but_not_the_pile():
    # 08-09-10 cannot touch 01-02-03 anywhere, so drawing it first sends it to the discard pile (and perhaps
    # more after it, until a drawn tile fits).
    figure = Figure.from_placements([(tile_id("01-02-03"), 0, 0)])
    rest = [t for t in range(36) if t not in (tile_id("01-02-03"), tile_id("08-09-10"))]
    state = Solitaire1.from_position(figure, [tile_id("08-09-10")] + rest)
    assert state.discard[0] == tile_id("08-09-10")
    text = render_text(state)
    assert f"Discard pile: {len(state.discard)} tile{'' if len(state.discard) == 1 else 's'}, top {TILE_NAMES[state.discard[-1]]}" in text
    assert f"Pile: {state.pile_size} " in text
    hidden = state.deck[state.pile_pos :]
    assert hidden
    for tile in hidden:
        assert TILE_NAMES[tile] not in text
    assert f"To place: {TILE_NAMES[state.forced_tile]} (from the pile)" in text


def test_solitaire2_shows_stack_tops_only():
    state = random_play(new_solitaire2(4), seed=4, moves=5)
    text = render_text(state)
    for k, stack in enumerate(state.stacks):
        if stack:
            assert f"stack {k}: {TILE_NAMES[stack[-1]]}  ({len(stack)})" in text
            for tile in stack[:-1]:
                assert TILE_NAMES[tile] not in text


def test_other_objects_are_refused():
    with pytest.raises(TypeError, match="ContackGame, Solitaire1 or Solitaire2"):
        render_text("not a state")  # type: ignore[arg-type]
