"""docs/rules.md section 5, the game for 2 to 7 players, against ``contack_env.contack.multiplayer``.

Positions are built directly: ``ContackGame(decks, n)`` for deals, ``position(...)`` (conftest) for mid-hand
situations. On the bare opening board used below (01-02-03 at (0, 0), last-played), these tiles have no legal
placement: 03-04-01 05-01-04 06-07-01 02-09-10 03-04-05 03-07-08 06-07-04 05-09-10 06-07-08 08-09-06 10-06-09
08-09-10 (``test_the_unplayable_tiles_are_unplayable`` checks it with the reference).
"""

from __future__ import annotations

from typing import Sequence

import bruteforce as bf
import numpy as np
import pytest

from contack_env import ContackGame, IllegalMoveError, Move, new_game
from contack_env.contack.grid import cell_index
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS
from contack_env.contack.tiles import tile_id

OPENING = [("01-02-03", 0, 0)]
UNPLAYABLE = ["03-04-01", "05-01-04", "06-07-01", "02-09-10", "03-04-05", "03-07-08", "06-07-04", "05-09-10",
              "06-07-08", "08-09-06", "10-06-09", "08-09-10"]  # fmt: skip


def T(name: str) -> int:
    return tile_id(name)


def deck_of(hands: Sequence[Sequence[str]], pile_top: Sequence[str] = ()) -> list[int]:
    """A deck dealing ``hands`` (five names each) with ``pile_top`` next, then every other tile in id order."""
    named = [T(n) for h in hands for n in h] + [T(n) for n in pile_top]
    assert all(len(h) == 5 for h in hands) and len(set(named)) == len(named)
    return named + [t for t in range(36) if t not in named]


def types(game: ContackGame, hand: int = -1) -> list[str]:
    return [e["type"] for e in game.hand_events[hand]]


def test_the_unplayable_tiles_are_unplayable(brute_of) -> None:
    brute = brute_of(OPENING)
    assert all(not brute.legal_moves([bf.tile_number(n)]) for n in UNPLAYABLE)


# -- options ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 8, 0, -2, 2.0, True])
def test_two_to_seven_players(n) -> None:
    with pytest.raises(ValueError, match="2 to 7 players"):
        new_game(n)


def test_bad_options_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="1939, next_player, never"):
        new_game(3, enclosed_end="sometimes")
    for hands in (0, 101, 10**11):  # past 100 a mistyped count would deal without end
        with pytest.raises(ValueError, match="1 to 100 hands"):
            new_game(3, num_hands=hands)
    for hands in (1, 100):  # the bounds themselves are allowed
        assert new_game(2, num_hands=hands, seed=0).num_hands == hands
    with pytest.raises(ValueError, match="3 hands need 3 decks"):
        ContackGame([list(range(36))], 3)
    with pytest.raises(ValueError, match="each of the 36 tile ids exactly once"):
        ContackGame([list(range(35)) + [0]], 2, num_hands=1)
    assert ENCLOSED_END_OPTIONS == ("1939", "next_player", "never")


def test_a_game_is_three_hands_by_default() -> None:
    game = new_game(4, seed=1)
    assert game.num_hands == 3 and len(game.decks) == 3 and game.enclosed_end == "1939"


# -- the deal and the opening ----------------------------------------------------------------------------------
def test_seat_i_is_dealt_deck_5i_to_5i_plus_4_and_the_pile_starts_at_deck_5n(names_of) -> None:
    hands = [
        ["09-02-08", "07-08-09", "10-03-09", "04-08-09", "05-06-07"],
        ["01-02-03", "08-09-10", "06-07-08", "02-09-10", "03-07-08"],
        ["09-10-01", "06-07-04", "05-09-10", "08-09-06", "10-06-09"],
    ]
    deck = deck_of(hands)
    game = ContackGame([deck], 3, num_hands=1)
    # Seat 1 opened with 01-02-03; seat 2 can play (09-10-01 below it), so nobody has drawn yet.
    assert names_of(game.hands[0]) == set(hands[0])
    assert names_of(game.hands[1]) == set(hands[1]) - {"01-02-03"}
    assert names_of(game.hands[2]) == set(hands[2])
    assert game.pile_pos == 15 and game.pile_size == 21
    assert game.deck[game.pile_pos :] == deck[15:]


def test_the_holder_of_the_lowest_tile_opens_and_scores_nothing(names_of) -> None:
    hands = [
        ["09-02-08", "07-08-09", "10-03-09", "04-08-09", "05-06-07"],
        ["09-10-01", "06-07-04", "05-09-10", "08-09-06", "10-06-09"],
        ["08-09-10", "06-07-08", "02-09-10", "01-02-03", "03-07-08"],
    ]
    game = ContackGame([deck_of(hands)], 3, num_hands=1)
    assert game.hand_events[0][0] == {"type": "open", "seat": 2, "tile": "01-02-03", "cell": [0, 0], "blue": "B", "points": 0}
    assert game.figure.tile_at(0, 0) == T("01-02-03")
    assert "01-02-03" not in names_of(game.hands[2])
    assert game.scores == [0, 0, 0] and game.points_scored == [0, 0, 0]
    # The next seat, (2 + 1) mod 3, plays next.
    assert game.current_player == 0


def test_equal_values_open_with_the_smaller_sorted_values() -> None:
    # 01-05-06 and 03-04-05 are both worth 12, every other dealt tile more.
    hands = [
        ["10-06-09", "09-10-04", "03-04-05", "08-09-06", "09-05-08"],
        ["08-09-10", "01-05-06", "09-10-07", "07-08-09", "05-09-10"],
    ]
    game = ContackGame([deck_of(hands)], 2, num_hands=1)
    assert game.hand_events[0][0]["seat"] == 1
    assert game.hand_events[0][0]["tile"] == "01-05-06"


# -- a turn ----------------------------------------------------------------------------------------------------
def test_a_player_who_can_play_must_play_and_does_not_draw(position, moves_of) -> None:
    # Seat 0 holds 2 tiles (fewer than 5) and the pile is full, but 09-02-08 can be placed: no draw.
    game = position([["09-02-08", "03-04-01"], ["07-08-09"]], OPENING)
    assert game.current_player == 0 and game.forced_tile is None
    assert types(game) == []
    assert moves_of(game) == {("09-02-08", 0, -1), ("09-02-08", 1, 0)}


@pytest.mark.parametrize("enclosed_end", ENCLOSED_END_OPTIONS)
def test_with_five_tiles_and_no_placement_the_player_passes_without_drawing(position, enclosed_end) -> None:
    # the last-played tile has free sides: a pass ends nothing, whatever enclosed_end says of an enclosed figure
    game = position([UNPLAYABLE[:5], ["09-02-08", "07-08-09"]], OPENING, enclosed_end=enclosed_end)
    pile = game.pile_size
    assert game.hand_events[-1] == [{"type": "pass", "seat": 0}]
    assert game.pile_size == pile and game.hands[0].bit_count() == 5
    assert not game.done and game.current_player == 1 and game.passes == 1


@pytest.mark.parametrize("enclosed_end", ENCLOSED_END_OPTIONS)
def test_drawing_stops_at_five_tiles_then_the_player_passes(position, enclosed_end) -> None:
    # Three tiles, none playable: draw 02-09-10, 03-04-05 (unplayable), then hold five and pass, although the
    # next tile on the pile (09-02-08) would have fitted. The hand goes on under every enclosed_end.
    game = position([UNPLAYABLE[:3], ["07-08-09"]], OPENING, pile_top=["02-09-10", "03-04-05", "09-02-08"],
                    enclosed_end=enclosed_end)
    assert not game.done and game.current_player == 1
    assert game.hand_events[-1] == [
        {"type": "draw", "seat": 0, "tile": "02-09-10"},
        {"type": "draw", "seat": 0, "tile": "03-04-05"},
        {"type": "pass", "seat": 0},
    ]
    assert game.hands[0].bit_count() == 5
    assert game.deck[game.pile_pos] == T("09-02-08")


def test_a_drawn_tile_that_fits_must_be_placed(position, moves_of) -> None:
    # Draw 02-09-10 (no fit), then 09-02-08 (fits): the turn's moves are 09-02-08's placements only.
    game = position([UNPLAYABLE[:3], ["07-08-09"]], OPENING, pile_top=["02-09-10", "09-02-08"])
    assert types(game) == ["draw", "draw"]
    assert game.current_player == 0
    assert game.forced_tile == T("09-02-08")
    assert moves_of(game) == {("09-02-08", 0, -1), ("09-02-08", 1, 0)}
    assert game.play(Move(T("09-02-08"), 0, -1)) == 10
    assert game.forced_tile is None
    assert game.hands[0].bit_count() == 4


def test_only_the_drawn_tile_may_be_placed(position) -> None:
    game = position([UNPLAYABLE[:3], ["07-08-09"]], OPENING, pile_top=["09-02-08"])
    assert game.forced_tile == T("09-02-08")
    with pytest.raises(IllegalMoveError):
        game.play(Move(T("03-04-01"), 0, -1))
    with pytest.raises(IllegalMoveError):
        game.play(Move(T("09-02-08"), -1, 0))  # a cell where it does not fit


def test_with_an_empty_pile_a_player_short_of_five_passes_without_drawing(position, boards) -> None:
    # Seven seats share every tile not on the table, so the pile is empty; seat 0's two tiles do not fit.
    board = boards["three_sided_50"]
    mine = ["01-05-06", "01-08-09"]
    rest = [bf.NAMES[t] for t in range(36) if bf.NAMES[t] not in mine and bf.NAMES[t] not in {b[0] for b in board}]
    hands = [mine] + [rest[5 * i : 5 * i + 5] for i in range(6)]
    game = position(hands, board)
    assert game.pile_size == 0
    assert game.hand_events[-1][0] == {"type": "pass", "seat": 0}


def test_a_placement_resets_the_run_of_passes(position) -> None:
    game = position([UNPLAYABLE[:5], ["09-02-08", "07-08-09"], ["09-05-08", "05-09-10"]], OPENING)
    assert game.current_player == 1 and game.passes == 1
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.current_player == 2 and game.passes == 0 and not game.done


# -- the end of a hand -----------------------------------------------------------------------------------------
def test_a_player_placing_their_last_tile_ends_the_hand_out(position) -> None:
    game = position([["09-02-08"], ["07-08-09", "03-04-01", "05-01-04"]], OPENING)
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.done and game.end_reasons == ["out"]
    assert game.hand_events[-1][-1] == {"type": "end", "reason": "out", "penalties": [0, -30], "scores": [10, -30]}


def test_out_takes_precedence_over_enclosed(position, boards) -> None:
    game = position([["08-09-10"], ["04-05-06", "07-08-09"]], boards["three_sided_50"])
    game.play(Move(T("08-09-10"), 1, 0))
    assert game.end_reasons == ["out"]
    assert game.scores == [50, -20]


def test_1939_the_enclosing_placement_ends_the_hand_at_once(position, boards) -> None:
    game = position([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09"]], boards["three_sided_50"])
    game.play(Move(T("08-09-10"), 1, 0))
    assert game.end_reasons == ["enclosed"]
    assert types(game) == ["place", "end"]


def test_1939_not_enclosed_while_an_opportunity_opening_exists_even_if_nothing_fits_it(position, boards) -> None:
    # The hole (2, 2) touches two tiles but no tile fits it: the hand goes on, and ends blocked.
    game = position([["08-09-10", "04-05-06"], ["07-08-09", "05-09-10"]], boards["three_sided_50_and_dead_hole"])
    game.play(Move(T("08-09-10"), 1, 0))
    assert game.figure.holes == {cell_index(2, 2)}
    assert game.done and game.end_reasons == ["blocked"]
    assert types(game) == ["place"] + ["draw"] * 3 + ["pass"] + ["draw"] * 4 + ["pass"] + ["end"]


def test_1939_an_open_opportunity_opening_lets_the_next_player_play(position, boards, moves_of) -> None:
    game = position([["08-09-10", "04-05-06"], ["06-07-04", "07-08-09"]], boards["three_sided_50_and_open_hole"])
    game.play(Move(T("08-09-10"), 1, 0))
    assert not game.done and game.current_player == 1
    assert moves_of(game) == {("06-07-04", 2, 2)}


def test_n_passes_in_a_row_block_the_hand(position, boards) -> None:
    # Under "never" the enclosing play does not end the hand: seat 1 draws to five and passes, so does seat 0.
    game = position([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09"]], boards["three_sided_50"], enclosed_end="never")
    game.play(Move(T("08-09-10"), 1, 0))
    assert types(game) == ["place"] + ["draw"] * 3 + ["pass"] + ["draw"] * 4 + ["pass"] + ["end"]
    assert [e["seat"] for e in game.hand_events[-1][1:-1]] == [1] * 4 + [0] * 5
    assert game.end_reasons == ["blocked"]
    assert game.hand_events[-1][-1]["penalties"] == [-50, -50]


def test_next_player_ends_enclosed_after_the_next_players_draws_without_a_pass(position, boards) -> None:
    game = position([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09"]], boards["three_sided_50"], enclosed_end="next_player")
    game.play(Move(T("08-09-10"), 1, 0))
    assert types(game) == ["place", "draw", "draw", "draw", "end"]
    assert game.end_reasons == ["enclosed"]
    assert game.hand_events[-1][-1]["penalties"] == [-10, -50]


def test_next_player_goes_on_when_the_next_player_has_an_opportunity_play(position, boards, moves_of) -> None:
    hands = [["08-09-10", "04-05-06"], ["06-07-04", "07-08-09"]]
    game = position(hands, boards["three_sided_50_and_open_hole"], enclosed_end="next_player")
    game.play(Move(T("08-09-10"), 1, 0))
    assert not game.done and moves_of(game) == {("06-07-04", 2, 2)}


def test_penalty_is_10_per_tile_held(position) -> None:
    game = position([["09-02-08"], ["07-08-09", "03-04-01"], UNPLAYABLE[2:7]], OPENING, scores=[5, 7, 9])
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.hand_events[-1][-1]["penalties"] == [0, -20, -50]
    assert game.scores == [15, -13, -41]


# -- over several hands ----------------------------------------------------------------------------------------
def test_hands_are_dealt_anew_from_all_36_with_a_new_opener_and_scores_run_on(names_of) -> None:
    deck1 = deck_of([
        ["01-02-03", "09-02-08", "07-08-09", "04-08-09", "05-06-07"],
        ["09-10-01", "06-07-04", "05-09-10", "08-09-06", "10-06-09"],
    ])  # fmt: skip
    deck2 = deck_of([
        ["08-09-10", "06-07-08", "02-09-10", "03-07-08", "10-03-09"],
        ["09-10-04", "03-04-01", "07-08-05", "09-05-08", "02-06-07"],
    ])  # fmt: skip
    game = ContackGame([deck1, deck2], 2, num_hands=2)
    rng = np.random.default_rng(0)
    while game.hand_number == 0:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
    first_end = game.hand_events[0][-1]
    # Hand 2: seat 1 holds the lowest tile, 03-04-01; seat 0 (next) can play (02-09-10 below it), so no draw.
    assert game.hand_events[1][0]["seat"] == 1 and game.hand_events[1][0]["tile"] == "03-04-01"
    assert len(game.figure) == 1 and game.figure.tile_at(0, 0) == T("03-04-01")
    assert names_of(game.hands[0]) == set(bf.NAMES[t] for t in deck2[:5])
    assert game.pile_pos == 10
    assert game.scores == first_end["scores"]
    while not game.done:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
    scores = bf.check_contack_hand(deck1, 2, game.hand_events[0], "1939", [0, 0])
    scores = bf.check_contack_hand(deck2, 2, game.hand_events[1], "1939", scores)
    assert game.scores == scores == game.hand_events[1][-1]["scores"]


def test_the_highest_total_wins(position) -> None:
    game = position([["09-02-08"], ["07-08-09"]], OPENING, scores=[30, 51])
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.scores == [40, 41] and game.winners == [1]


def test_equal_totals_share_the_win(position) -> None:
    game = position([["09-02-08"], ["07-08-09"]], OPENING, scores=[30, 50])
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.scores == [40, 40] and game.winners == [0, 1]


def test_no_move_is_legal_once_the_game_is_over(position) -> None:
    game = position([["09-02-08"], ["07-08-09"]], OPENING)
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.done and game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.play(Move(T("07-08-09"), 1, 0))


def test_a_move_that_is_not_legal_is_refused_with_the_legal_ones(position) -> None:
    game = position([["09-02-08", "03-04-01"], ["07-08-09"]], OPENING)
    with pytest.raises(IllegalMoveError, match="09-02-08 at \\(0, -1\\)"):
        game.play(Move(T("03-04-01"), 0, -1))
    with pytest.raises(IllegalMoveError, match="a move is \\(tile id, x, y\\)"):
        game.play("nonsense")


def test_decks_may_be_numpy_arrays() -> None:
    # A shuffled deck is often a numpy array; its integers once leaked into the hand bit masks and crashed.
    rng = np.random.default_rng(5)
    decks = [rng.permutation(36) for _ in range(2)]
    game = ContackGame(decks, 3, num_hands=2)
    while not game.done:
        game.play(game.legal_moves()[0])
    assert game.decks == [d.tolist() for d in decks]
    assert all(type(t) is int for d in game.decks for t in d)
