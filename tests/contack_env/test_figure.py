"""docs/rules.md sections 3 and 4 on the figure: contacts, legal placements, scoring, against ``contack_env.contack.figure``.

Each rule case is a small board built directly (``figure_of``); expected moves are written out by hand, and
``brute_of`` (the reference generator) is asked the same question so a wrong hand-written expectation shows up.
"""

from __future__ import annotations

import bruteforce as bf
import pytest

from contack_env import new_solitaire2
from contack_env.contack.figure import SIGNATURE_BITS, Figure, Move, code_to_move, move_code, move_to_code, split_code
from contack_env.contack.grid import cell_index
from contack_env.contack.tiles import mask_of, tile_id

ALL = mask_of(range(36))


def legal(fig: Figure, names: list[str] | None = None) -> set[tuple[str, int, int]]:
    """The engine's legal moves for the named tiles (every tile not on the table when None), as (name, x, y)."""
    # The figure answers for whatever mask it is given (callers pass a hand), so leave out the placed tiles.
    mask = ALL & ~mask_of(fig.placed.values()) if names is None else mask_of(tile_id(n) for n in names)
    return {(bf.NAMES[split_code(c)[0]], *code_to_move(c)[1:]) for c in fig.legal_codes(mask)}


def reference(brute: bf.BruteFigure, names: list[str] | None = None) -> set[tuple[str, int, int]]:
    tiles = range(36) if names is None else [bf.tile_number(n) for n in names]
    return {(bf.NAMES[t], x, y) for t, x, y in brute.legal_moves([t for t in tiles if (t, "B") not in brute.cells.values()])}


def points(fig: Figure, name: str, x: int, y: int) -> int:
    return fig.points_for(tile_id(name), cell_index(x, y))


# -- contacts (section 3) --------------------------------------------------------------------------------------
def test_matching_contact_is_legal_and_scores_nothing(figure_of, brute_of) -> None:
    # 01-02-03 at (0, 0) shows blue 1 on B; 01-05-06 below it meets blue 1 with blue 1.
    board = [("01-02-03", 0, 0)]
    fig = figure_of(board)
    assert ("01-05-06", 0, -1) in legal(fig)
    assert points(fig, "01-05-06", 0, -1) == 0
    assert brute_of(board).points(bf.tile_number("01-05-06"), 0, -1) == 0


@pytest.mark.parametrize(
    "name, x, y, pts",
    [
        ("09-02-08", 0, -1, 10),  # blue 9 below the opening's blue 1
        ("04-05-02", 0, -1, 5),  # blue 4 + 1
        ("02-03-04", 1, 0, 5),  # red 3 (a down cell shows red on L) + the opening's red 2 (on R)
        ("07-08-02", 1, 0, 10),  # red 8 + 2
        ("04-05-02", -1, 0, 5),  # gold 2 (a down cell shows gold on R) + the opening's gold 3 (on L)
        ("08-01-07", -1, 0, 10),  # gold 7 + 3
    ],
)
def test_counting_contact_scores_its_sum(figure_of, name: str, x: int, y: int, pts: int) -> None:
    fig = figure_of([("01-02-03", 0, 0)])
    assert (name, x, y) in legal(fig)
    assert points(fig, name, x, y) == pts


def test_5_5_is_a_counting_contact(figure_of) -> None:
    fig = figure_of([("05-01-04", 0, 0)])
    assert ("05-06-03", 0, -1) in legal(fig)
    assert points(fig, "05-06-03", 0, -1) == 10


def test_10_10_is_a_counting_contact(figure_of) -> None:
    fig = figure_of([("10-03-09", 0, 0)])
    assert ("10-06-09", 0, -1) in legal(fig)
    assert points(fig, "10-06-09", 0, -1) == 20


@pytest.mark.parametrize(
    "name, x, y",
    [
        ("02-03-04", 0, -1),  # blue 2 + blue 1 = 3
        ("06-07-04", 1, 0),  # red 7 + red 2 = 9
        ("03-04-05", -1, 0),  # gold 5 + gold 3 = 8
    ],
)
def test_neither_matching_nor_counting_is_illegal(figure_of, brute_of, name: str, x: int, y: int) -> None:
    board = [("01-02-03", 0, 0)]
    assert (name, x, y) not in legal(figure_of(board))
    assert brute_of(board).contacts(bf.tile_number(name), (x, y), "B") is None


def test_the_opening_alone_allows_exactly_the_rules_moves(figure_of, brute_of) -> None:
    board = [("01-02-03", 0, 0)]
    fig = figure_of(board)
    assert legal(fig) == reference(brute_of(board))
    # Each of the three cells takes the tiles whose facing value fits: blue 1 below, red 2 right, gold 3 left.
    below = {n for n, x, y in legal(fig) if (x, y) == (0, -1)}
    right = {n for n, x, y in legal(fig) if (x, y) == (1, 0)}
    left = {n for n, x, y in legal(fig) if (x, y) == (-1, 0)}
    assert below == {n for n, (b, r, g) in zip(bf.NAMES[1:], bf.VALUES[1:]) if bf.contact_ok(b, 1)}
    assert right == {n for n, (b, r, g) in zip(bf.NAMES[1:], bf.VALUES[1:]) if bf.contact_ok(r, 2)}
    assert left == {n for n, (b, r, g) in zip(bf.NAMES[1:], bf.VALUES[1:]) if bf.contact_ok(g, 3)}
    assert "09-02-08" in below and "02-03-04" not in below


# -- 4.1: touch at least one tile, every touching side valid ---------------------------------------------------
def test_a_cell_touching_no_tile_is_never_legal(figure_of) -> None:
    fig = figure_of([("01-02-03", 0, 0)])
    cells = {(x, y) for _, x, y in legal(fig)}
    assert cells == {(-1, 0), (1, 0), (0, -1)}


def test_a_two_sided_play_needs_both_contacts_valid(figure_of, brute_of, boards) -> None:
    # The hole (0, -1) touches blue 10 (10-03-09 above) and gold 1 (06-07-01 on its right).
    board = boards["two_sided_30"]
    fig = figure_of(board)
    brute = brute_of(board)
    assert ("10-06-09", 0, -1) in legal(fig)  # blue 10+10, gold 9+1
    # 05-06-03: blue 5+10 is valid but gold 3+1 is not; 06-07-04: gold 4+1 is valid but blue 6+10 is not.
    for name in ("05-06-03", "06-07-04"):
        assert (name, 0, -1) not in legal(fig)
        assert brute.contacts(bf.tile_number(name), (0, -1), "B") is None
    assert legal(fig) == reference(brute)


def test_a_single_invalid_side_makes_a_three_sided_play_illegal(figure_of, boards) -> None:
    # The hole (1, 0) shows red 6 on its L side, gold 10 on R, blue 7 on B.
    fig = figure_of(boards["three_sided_50"])
    hole_moves = {n for n, x, y in legal(fig) if (x, y) == (1, 0)}
    assert "08-09-10" in hole_moves
    assert "03-04-05" in hole_moves  # blue 3+7, red 4+6, gold 5+10: all counting
    assert "08-04-07" not in hole_moves  # blue 8+7 and red 4+6 count, gold 7+10 = 17 is invalid
    assert "05-06-07" not in hole_moves  # red 6 matches, blue 5+7 and gold 7+10 are invalid


# -- 4.2: touch the last-played tile, or an opportunity play ----------------------------------------------------
def test_a_single_neighbour_cell_away_from_the_last_tile_is_illegal_even_if_it_matches(figure_of, brute_of, boards) -> None:
    # (-1, 0) touches only 10-03-09 (gold 9 on its L side); 10-06-09 matches it gold 9 to gold 9. But the
    # last-played tile is 09-10-01 at (1, -2), so the placement is illegal.
    board = boards["two_sided_30"]
    fig = figure_of(board)
    brute = brute_of(board)
    assert brute.contacts(bf.tile_number("10-06-09"), (-1, 0), "B") == [("gold", 9, 9)]
    assert ("10-06-09", -1, 0) not in legal(fig)
    assert fig.placed_neighbours(cell_index(-1, 0)) == 1


def test_a_single_neighbour_cell_next_to_the_last_tile_is_legal(figure_of, boards) -> None:
    # Same board, but 10-03-09 declared last-played: now (-1, 0) is open to 10-06-09.
    fig = figure_of(boards["two_sided_30"], last=(0, 0))
    assert ("10-06-09", -1, 0) in legal(fig)


def test_an_opportunity_play_may_be_anywhere_on_the_figure(figure_of, boards) -> None:
    # The hole (0, -1) does not touch the last-played tile (1, -2) but touches two tiles.
    fig = figure_of(boards["two_sided_30"])
    assert fig.placed_neighbours(cell_index(0, -1)) == 2
    assert ("10-06-09", 0, -1) in legal(fig)
    assert cell_index(0, -1) in fig.holes


def test_a_three_sided_opportunity_play_may_be_anywhere_on_the_figure(figure_of, boards) -> None:
    # The last-played tile is 09-10-01 at (1, 2), far from the three-sided hole (1, 0).
    fig = figure_of(boards["three_sided_50_and_open_hole"])
    assert fig.last == cell_index(1, 2)
    assert fig.placed_neighbours(cell_index(1, 0)) == 3
    assert ("08-09-10", 1, 0) in legal(fig)


def test_candidate_cells_are_the_last_tiles_free_sides_and_the_holes(figure_of, brute_of, boards) -> None:
    board = boards["two_sided_30"]
    fig = figure_of(board)
    # Last-played 09-10-01 at (1, -2), a down cell: free sides L (0, -2), R (2, -2); its B (1, -1) is taken.
    assert {(x, y) for _, x, y in legal(fig)} == {(0, -2), (2, -2), (0, -1)}
    assert legal(fig) == reference(brute_of(board))


def test_all_legal_moves_on_every_named_board_match_the_reference(figure_of, brute_of, boards) -> None:
    for name, board in boards.items():
        for last in [None, (board[0][1], board[0][2])]:
            assert legal(figure_of(board, last)) == reference(brute_of(board, last)), (name, last)


# -- scoring ---------------------------------------------------------------------------------------------------
def test_a_play_scores_the_sum_of_its_counting_contacts_up_to_three(figure_of, boards) -> None:
    fig = figure_of(boards["three_sided_50"])
    assert points(fig, "08-09-10", 1, 0) == 50  # 9+6 red, 10+10 gold, 8+7 blue
    assert points(fig, "03-04-05", 1, 0) == 10 + 10 + 15  # blue 3+7, red 4+6, gold 5+10
    assert fig.place(tile_id("08-09-10"), cell_index(1, 0)) == 50


def test_two_contacts_one_matching_one_counting(figure_of, boards) -> None:
    fig = figure_of(boards["two_sided_15"])
    assert points(fig, "04-05-06", 0, -1) == 15  # blue 4 matches 4 (0), red 5+10


# -- a last-played tile with no free side ----------------------------------------------------------------------
def test_no_free_side_on_the_last_tile_leaves_only_opportunity_plays(figure_of, brute_of, boards) -> None:
    # After 08-09-10 fills the three-sided hole (1, 0), its three sides are taken; the only hole left is (2, 2).
    board = boards["three_sided_50_and_open_hole"] + [("08-09-10", 1, 0)]
    fig = figure_of(board)
    assert not fig.last_has_free_side()
    assert legal(fig) == {("06-07-04", 2, 2), ("04-08-09", 2, 2), ("09-10-04", 2, 2)}
    assert legal(fig) == reference(brute_of(board))
    assert not fig.is_enclosed()


def test_no_free_side_and_no_hole_leaves_no_move_and_is_enclosed(figure_of, boards) -> None:
    fig = figure_of(boards["three_sided_50"] + [("08-09-10", 1, 0)])
    assert not fig.last_has_free_side()
    assert fig.holes == set()
    assert legal(fig) == set()
    assert not fig.has_move(ALL)
    assert fig.is_enclosed()


def test_a_hole_nothing_fits_still_prevents_enclosure(figure_of, brute_of, boards) -> None:
    board = boards["three_sided_50_and_dead_hole"] + [("08-09-10", 1, 0)]
    fig = figure_of(board)
    assert legal(fig) == set() == reference(brute_of(board))
    assert fig.holes == {cell_index(2, 2)}
    assert not fig.is_enclosed()


# -- the Figure API --------------------------------------------------------------------------------------------
def test_has_move_agrees_with_legal_codes(figure_of, boards) -> None:
    fig = figure_of(boards["two_sided_30"])
    for t in range(36):
        assert fig.has_move(1 << t) == bool(fig.legal_codes(1 << t))


def test_legal_codes_are_sorted_and_restricted_to_the_mask(figure_of) -> None:
    fig = figure_of([("01-02-03", 0, 0)])
    codes = fig.legal_codes(mask_of([tile_id("09-02-08"), tile_id("01-05-06")]))
    assert codes == sorted(codes)
    assert {bf.NAMES[split_code(c)[0]] for c in codes} == {"09-02-08", "01-05-06"}


def test_move_codes_round_trip() -> None:
    for move in [Move(0, 0, 0), Move(35, -35, 17), Move(17, 34, -17)]:
        assert code_to_move(move_to_code(move)) == move
        assert move_to_code(move) == move_code(move.tile, cell_index(move.x, move.y))
    ordered = [Move(3, 0, 0), Move(3, 0, 1), Move(3, 1, -5), Move(4, -9, 0)]
    assert sorted(ordered, key=move_to_code) == ordered


def test_tile_at_placements_and_last(figure_of) -> None:
    fig = figure_of([("01-02-03", 0, 0), ("09-02-08", 0, -1)])
    assert fig.tile_at(0, -1) == tile_id("09-02-08")
    assert fig.tile_at(5, 5) is None
    assert fig.placements() == [Move(0, 0, 0), Move(tile_id("09-02-08"), 0, -1)]
    assert fig.last == cell_index(0, -1)
    assert len(fig) == 2


def test_clone_is_independent(figure_of) -> None:
    fig = figure_of([("01-02-03", 0, 0)])
    other = fig.clone()
    other.place(tile_id("09-02-08"), cell_index(0, -1))
    assert len(fig) == 1 and fig.last == cell_index(0, 0)
    assert ("09-02-08", 0, -1) in legal(fig)
    assert ("09-02-08", 0, -1) not in legal(other)


def test_place_opening_goes_on_the_origin_and_only_on_an_empty_table() -> None:
    fig = Figure()
    fig.place_opening(tile_id("01-02-03"))
    assert fig.tile_at(0, 0) == tile_id("01-02-03")
    with pytest.raises(ValueError, match="empty table"):
        fig.place_opening(tile_id("09-02-08"))


def test_from_placements_rejects_a_cell_placed_twice_and_an_empty_last_cell() -> None:
    with pytest.raises(ValueError, match="placed twice"):
        Figure.from_placements([(0, 0, 0), (13, 0, 0)])
    with pytest.raises(ValueError, match="holds no tile"):
        Figure.from_placements([(0, 0, 0)], last=(1, 0))


def test_the_signature_says_where_every_tile_lies_whatever_the_order_of_placement() -> None:
    game = new_solitaire2(11)
    while not game.done and len(game.figure) < 8:
        game.play_code(game.legal_codes()[-1])
    moves = [(t, c) for c, t in game.figure.placed.items()]
    forward, backward = Figure(), Figure()
    for t, c in moves:
        forward.place(t, c)
    for t, c in reversed(moves):
        backward.place(t, c)
    assert forward.signature == backward.signature == game.figure.signature
    assert game.figure.clone().signature == game.figure.signature
    for t, c in moves:  # each tile's field holds its cell
        assert (game.figure.signature >> (SIGNATURE_BITS * t)) & ((1 << SIGNATURE_BITS) - 1) == c + 1
    moved = Figure()
    for t, c in moves[:-1]:
        moved.place(t, c)
    moved.place(moves[-1][0], cell_index(30, 0))
    assert moved.signature != forward.signature
