"""docs/rules.md section 8: every worked example, each its own test, on boards built directly.

Examples 1 and 2 give their cells. Examples 3 and 4 give only the contacts, so their positions were found by a
search with the brute-force reference while writing these tests and are hard-coded (``BOARDS`` in conftest.py):
  - fix the target cell and which of its sides must touch which colour and value;
  - enumerate short chains of cells from one required neighbour round the shared corner to the other (for
    example 4, on to the third), that touch the target only at those neighbours;
  - fill the chain with distinct real tiles by backtracking, each tile a legal placement (docs/rules.md section 4)
    after the previous one, with the required values on the target's neighbours, the chain starting at (0, 0);
  - for example 3 add one more tile beyond the chain, so the last-played tile does not touch the target and
    the play is an opportunity play; for example 4 keep the first board after which the play leaves no
    empty cell touching two tiles (so the hand ends "enclosed").
``test_the_example_boards_are_legal_games`` re-checks with the reference that each board is such a game.
"""

from __future__ import annotations

import bruteforce as bf
import pytest

from contack_env import Move
from contack_env.contack.grid import cell_index
from contack_env.contack.tiles import tile_id


def T(name: str) -> int:
    return tile_id(name)


@pytest.mark.parametrize(
    "name", ["two_sided_30", "two_sided_15", "three_sided_50", "three_sided_50_and_open_hole", "three_sided_50_and_dead_hole"]
)
def test_the_example_boards_are_legal_games(boards, name: str) -> None:
    fig = bf.BruteFigure()
    for i, (tile, x, y) in enumerate(boards[name]):
        t = bf.tile_number(tile)
        assert i == 0 and (x, y) == (0, 0) or (t, x, y) in fig.legal_moves([t]), (tile, x, y)
        fig.place(t, x, y)


# -- example 1 -------------------------------------------------------------------------------------------------
def test_example_1_blue_1_meets_blue_9_for_10_points(position, brute_of) -> None:
    board = [("01-02-03", 0, 0)]
    assert brute_of(board).contacts(T("09-02-08"), (0, -1), "B") == [("blue", 9, 1)]
    game = position([["09-02-08", "07-08-09"], ["08-09-10"]], board)
    assert Move(T("09-02-08"), 0, -1) in game.legal_moves()
    assert game.play(Move(T("09-02-08"), 0, -1)) == 10
    event = game.hand_events[-1][0]
    assert event["type"] == "place" and event["blue"] == "B" and event["points"] == 10 and event["cell"] == [0, -1]
    assert game.scores == [10, 0]


# -- example 2 -------------------------------------------------------------------------------------------------
def test_example_2_gold_8_matches_gold_8_for_0_points(position, brute_of) -> None:
    board = [("01-02-03", 0, 0), ("09-02-08", 0, -1)]
    # (1, -1) is an up cell: its L side (gold) touches the R side (gold) of the down cell (0, -1), and nothing else.
    assert brute_of(board).contacts(T("09-05-08"), (1, -1), "B") == [("gold", 8, 8)]
    game = position([["09-05-08", "07-08-09"], ["08-09-10"]], board)
    assert Move(T("09-05-08"), 1, -1) in game.legal_moves()
    assert game.play(Move(T("09-05-08"), 1, -1)) == 0
    assert game.hand_events[-1][0]["points"] == 0


# -- example 3 -------------------------------------------------------------------------------------------------
def test_example_3_two_sided_opportunity_play_blue_10_10_gold_9_1_scores_30(position, brute_of, boards) -> None:
    # 10-06-09 into the down cell (0, -1): its B side (blue 10) meets the B side of 10-03-09 at (0, 0) (blue
    # 10), its R side (gold 9) meets the L side of 06-07-01 at (1, -1) (gold 1). Its L side (-1, -1) is empty.
    # The last-played tile is 09-10-01 at (1, -2), which (0, -1) does not touch: only an opportunity play.
    board = boards["two_sided_30"]
    brute = brute_of(board)
    assert sorted(brute.contacts(T("10-06-09"), (0, -1), "B")) == [("blue", 10, 10), ("gold", 9, 1)]
    assert bf.touched((0, -1), "L")[0] not in brute.cells
    assert brute.last not in [bf.touched((0, -1), s)[0] for s in bf.SIDES]
    game = position([["10-06-09", "07-08-09"], ["08-09-10"]], board)
    assert Move(T("10-06-09"), 0, -1) in game.legal_moves()
    assert game.play(Move(T("10-06-09"), 0, -1)) == 30
    assert game.scores[0] == 30


def test_example_3_two_sided_play_blue_4_matches_red_10_5_scores_15(position, brute_of, boards) -> None:
    # 04-05-06 into the down cell (0, -1): blue 4 (B) meets blue 4 of 04-05-02 at (0, 0), a matching contact;
    # red 5 (L) meets red 10 (R) of 09-10-04 at (-1, -1), counting 15. The last-played tile (-1, -2) does not
    # touch (0, -1).
    board = boards["two_sided_15"]
    brute = brute_of(board)
    assert sorted(brute.contacts(T("04-05-06"), (0, -1), "B")) == [("blue", 4, 4), ("red", 5, 10)]
    assert brute.last not in [bf.touched((0, -1), s)[0] for s in bf.SIDES]
    game = position([["04-05-06", "07-08-09"], ["08-09-10"]], board)
    assert Move(T("04-05-06"), 0, -1) in game.legal_moves()
    assert game.play(Move(T("04-05-06"), 0, -1)) == 15


# -- example 4 -------------------------------------------------------------------------------------------------
def test_example_4_three_sided_play_scores_50_and_leaves_no_free_side(position, brute_of, boards) -> None:
    # 08-09-10 into the down cell (1, 0): red 9 (L) meets red 6 of 02-06-07, gold 10 (R) meets gold 10 of
    # 02-09-10, blue 8 (B) meets blue 7 of 07-08-02: 15 + 20 + 15 = 50.
    board = boards["three_sided_50"]
    brute = brute_of(board)
    assert sorted(brute.contacts(T("08-09-10"), (1, 0), "B")) == [("blue", 8, 7), ("gold", 10, 10), ("red", 9, 6)]
    game = position([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09"]], board)
    assert Move(T("08-09-10"), 1, 0) in game.legal_moves()
    assert game.play(Move(T("08-09-10"), 1, 0)) == 50
    assert not game.figure.last_has_free_side()
    assert game.figure.last == cell_index(1, 0)


def test_example_4_ends_the_hand_enclosed_under_1939(position, boards) -> None:
    # No other cell touches two tiles, so nobody can play: the hand ends at once, nobody draws.
    game = position([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09"]], boards["three_sided_50"])
    pile_before = game.pile_size
    game.play(Move(T("08-09-10"), 1, 0))
    assert game.done
    assert game.end_reasons == ["enclosed"]
    assert game.pile_size == pile_before
    events = game.hand_events[-1]
    assert [e["type"] for e in events] == ["place", "end"]
    assert events[-1]["penalties"] == [-10, -20]
    assert game.scores == [40, -20]
    assert game.winners == [0]
