"""docs/rules.md sections 6 and 7, the two solitaires, against ``contack_env.contack.solitaire``."""

from __future__ import annotations

import bruteforce as bf
import numpy as np
import pytest

from contack_env import IllegalMoveError, Move, Solitaire1, Solitaire2, new_solitaire1, new_solitaire2
from contack_env.contack.tiles import tile_id

OPENING = [("01-02-03", 0, 0)]
# On the opening board these do not fit anywhere (checked in test_multiplayer.py).
UNPLAYABLE = ["03-04-01", "05-01-04", "06-07-01", "02-09-10", "03-04-05", "03-07-08", "06-07-04", "05-09-10"]

# A whole won game (Solitaire No. 1, seed 274, random placements): all 36 tiles in placement order.
WON = [
    ("08-09-03", 0, 0), ("05-09-10", 1, 0), ("10-06-09", 1, 1), ("04-08-09", 0, 1),
    ("06-02-05", 0, 2), ("07-08-09", 1, 2), ("08-09-10", 1, 3), ("03-04-05", 0, 3),
    ("05-01-04", -1, 3), ("06-07-01", -2, 3), ("07-08-02", -3, 3), ("04-05-02", -4, 3),
    ("09-10-01", -5, 3), ("06-07-08", -5, 2), ("06-07-04", -6, 2), ("08-09-06", -7, 2),
    ("02-09-10", -7, 3), ("07-08-05", -8, 3), ("08-04-07", -8, 4), ("05-06-03", -9, 4),
    ("10-03-09", -9, 5), ("01-02-03", -8, 5), ("05-06-07", -7, 5), ("02-06-07", -6, 5),
    ("03-07-08", -6, 6), ("01-08-09", -5, 6), ("04-05-06", -5, 7), ("02-03-04", -6, 7),
    ("08-01-07", -6, 8), ("03-04-01", -5, 8), ("07-03-06", -5, 9), ("01-05-06", -6, 9),
    ("09-10-04", -7, 9), ("09-10-07", -7, 8), ("09-05-08", -8, 8), ("09-02-08", -9, 8),
]  # fmt: skip


def T(name: str) -> int:
    return tile_id(name)


def rest(*used: list) -> list[int]:
    """Every tile id not named in ``used`` (lists of names or of board entries), in id order."""
    names = {u[0] if isinstance(u, tuple) else u for group in used for u in group}
    return [t for t in range(36) if bf.NAMES[t] not in names]


def types(game) -> list[str]:
    return [e["type"] for e in game.hand_events[-1]]


def test_the_won_game_is_a_legal_game() -> None:
    fig = bf.BruteFigure()
    for i, (name, x, y) in enumerate(WON):
        t = bf.tile_number(name)
        assert i == 0 or (t, x, y) in fig.legal_moves([t]), (name, x, y)
        fig.place(t, x, y)
    assert len(fig.cells) == 36


# -- Solitaire No. 1 -------------------------------------------------------------------------------------------
def test_s1_the_first_tile_of_the_pile_opens() -> None:
    deck = [T("09-02-08")] + [t for t in range(36) if t != T("09-02-08")]
    game = Solitaire1(deck)
    assert game.figure.tile_at(0, 0) == T("09-02-08") and len(game.figure) == 1
    assert game.hand_events[0][0] == {"type": "open", "seat": 0, "tile": "09-02-08", "cell": [0, 0], "blue": "B", "points": 0}
    # The next event is the first draw, deck[1].
    assert game.hand_events[0][1] == {"type": "draw", "seat": 0, "tile": bf.NAMES[deck[1]]}


def test_s1_the_discard_top_is_placed_before_drawing(figure_of) -> None:
    pile = rest(OPENING, ["03-04-01", "09-02-08"])
    game = Solitaire1.from_position(figure_of(OPENING), pile, discard=[T("03-04-01"), T("09-02-08")])
    assert types(game) == []  # nothing drawn
    assert game.source == "discard" and game.forced_tile == T("09-02-08")
    assert game.pile_size == len(pile)
    game.play(Move(T("09-02-08"), 0, -1))
    assert game.hand_events[-1][0]["from"] == "discard"
    # 03-04-01, the new top, still fits nowhere, so play goes on with draws onto it.
    assert game.discard[0] == T("03-04-01") and T("09-02-08") not in game.discard
    assert types(game)[1] == "draw"


def test_s1_a_drawn_tile_that_cannot_be_placed_goes_on_the_discard(figure_of) -> None:
    pile = [T("03-04-01"), T("09-02-08")] + rest(OPENING, ["03-04-01", "09-02-08"])
    game = Solitaire1.from_position(figure_of(OPENING), pile)
    assert game.hand_events[-1] == [
        {"type": "draw", "seat": 0, "tile": "03-04-01"},
        {"type": "discard", "seat": 0, "tile": "03-04-01"},
        {"type": "draw", "seat": 0, "tile": "09-02-08"},
    ]
    assert game.discard == [T("03-04-01")]
    assert game.source == "pile" and game.forced_tile == T("09-02-08")
    assert {(m.x, m.y) for m in game.legal_moves()} == {(0, -1), (1, 0)}
    assert {m.tile for m in game.legal_moves()} == {T("09-02-08")}


def test_s1_after_a_placement_a_discard_top_that_now_fits_comes_before_the_next_draw(figure_of) -> None:
    # 03-07-08 fits nowhere on the opening board; once 09-02-08 lies at (0, -1), its gold 8 matches at (1, -1).
    pile = [T("09-02-08")] + rest(OPENING, ["09-02-08", "03-07-08"])
    game = Solitaire1.from_position(figure_of(OPENING), pile, discard=[T("03-07-08")])
    assert types(game) == ["draw"] and game.source == "pile"
    game.play(Move(T("09-02-08"), 0, -1))
    assert types(game) == ["draw", "place"]
    assert game.source == "discard"
    assert game.legal_moves() == [Move(T("03-07-08"), 1, -1)]
    assert game.play(Move(T("03-07-08"), 1, -1)) == 0
    assert game.discard == [] and types(game)[-1] == "draw"


def test_s1_lost_when_the_pile_is_empty_and_the_discard_top_cannot_be_placed(figure_of, boards) -> None:
    # The enclosed figure of worked example 4: nothing ever fits again, so every draw is discarded.
    board = boards["three_sided_50"] + [("08-09-10", 1, 0)]
    pile = rest(board)
    game = Solitaire1.from_position(figure_of(board), pile)
    assert game.done and not game.won
    assert types(game) == ["draw", "discard"] * len(pile) + ["end"]
    assert game.hand_events[-1][-1] == {"type": "end", "reason": "lost"}
    assert game.discard == pile and game.pile_size == 0
    assert game.legal_moves() == []


def test_s1_won_when_all_36_are_placed(figure_of) -> None:
    last = WON[-1]
    game = Solitaire1.from_position(figure_of(WON[:-1]), [T(last[0])])
    game.play(Move(T(last[0]), last[1], last[2]))
    assert game.done and game.won and len(game.figure) == 36
    assert game.hand_events[-1][-1] == {"type": "end", "reason": "won"}


def test_s1_the_score_is_the_sum_of_the_placements_points() -> None:
    game = new_solitaire1(274)
    rng = np.random.default_rng(274)
    while not game.done:
        moves = game.legal_moves()
        game.play(moves[rng.integers(len(moves))])
    assert game.score == sum(e["points"] for e in game.hand_events[0] if e["type"] == "place")
    assert (game.won, game.score) == bf.check_solitaire1(game.deck, game.hand_events[0])


def test_s1_the_player_only_chooses_where() -> None:
    game = new_solitaire1(3)
    while not game.done:
        assert len({m.tile for m in game.legal_moves()}) == 1
        assert game.legal_moves()[0].tile == game.forced_tile
        game.play(game.legal_moves()[-1])


def test_s1_refuses_a_deck_that_is_not_the_36_tiles() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        Solitaire1(list(range(35)))


# -- Solitaire No. 2 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cut", range(6))
def test_s2_stacks_are_dealt_in_fives_and_six_and_the_cut_tile_opens(cut: int) -> None:
    # The deck is a numpy array on purpose: a shuffled deck often is one (this once crashed move generation).
    deck = np.random.default_rng(cut).permutation(36)
    game = Solitaire2(deck, cut)
    assert game.stacks[:6] == [deck[5 * k : 5 * k + 5].tolist() for k in range(6)]
    assert game.stacks[6] == [t for i, t in enumerate(deck[30:].tolist()) if i != cut]
    opening = deck[30 + cut]
    assert game.hand_events[0][0]["tile"] == bf.NAMES[opening]
    assert game.figure.tile_at(0, 0) == opening
    assert game.legal_moves() == sorted(game.legal_moves())


def test_s2_layout_before_any_move(figure_of) -> None:
    deck = list(range(36))
    game = Solitaire2(deck, cut=2)
    # Stack k holds deck[5k .. 5k+4] bottom first; stack 6 deck[30 .. 35] less the cut-out deck[32].
    assert game.stacks[:6] == [deck[5 * k : 5 * k + 5] for k in range(6)]
    assert game.stacks[6] == [30, 31, 33, 34, 35]
    assert game.tops == [4, 9, 14, 19, 24, 29, 35]
    assert game.figure.tile_at(0, 0) == 32


@pytest.mark.parametrize("cut", [-1, 6, True, 2.5, "0"])
def test_s2_the_cut_is_a_position_in_stack_6(cut) -> None:
    with pytest.raises(ValueError, match="position in stack 6"):
        Solitaire2(list(range(36)), cut)


def test_s2_only_stack_tops_can_be_placed(figure_of) -> None:
    # 09-02-08 would fit but lies under 03-04-01; every other top but 07-08-09 fits nowhere.
    others = rest(OPENING, ["09-02-08", "03-04-01", "07-08-09"] + UNPLAYABLE[1:6])
    stacks = [[T("09-02-08"), T("03-04-01")], [T("07-08-09")]]
    for k, top in enumerate(UNPLAYABLE[1:6]):
        stacks.append(others[6 * k : 6 * k + 6] + [T(top)])
    assert sum(len(s) for s in stacks) == 35
    game = Solitaire2.from_position(figure_of(OPENING), stacks)
    assert game.legal_moves() == [Move(T("07-08-09"), 1, 0)]
    game.play(Move(T("07-08-09"), 1, 0))
    assert game.hand_events[-1][-1]["stack"] == 1
    assert game.stacks[1] == [] and game.tops[1] is None


def test_s2_taking_a_top_uncovers_the_next_tile(figure_of) -> None:
    stacks = [[T("09-02-08"), T("07-08-09")]] + [[] for _ in range(5)] + [rest(OPENING, ["09-02-08", "07-08-09"])]
    game = Solitaire2.from_position(figure_of(OPENING), stacks)
    game.play(Move(T("07-08-09"), 1, 0))
    assert game.tops[0] == T("09-02-08")
    assert game.stack_of(T("09-02-08")) == 0
    with pytest.raises(ValueError, match="not on top of a stack"):
        game.stack_of(T("01-05-06"))


def test_s2_lost_when_no_top_can_be_placed(figure_of, boards) -> None:
    board = boards["three_sided_50"] + [("08-09-10", 1, 0)]
    others = rest(board)
    stacks = [others[i::7] for i in range(7)]
    game = Solitaire2.from_position(figure_of(board), stacks)
    assert game.done and not game.won
    assert game.hand_events[-1] == [{"type": "end", "reason": "lost"}]
    with pytest.raises(IllegalMoveError):
        game.play(Move(others[0], 0, 1))


def test_s2_won_when_all_36_are_placed(figure_of) -> None:
    last = WON[-1]
    game = Solitaire2.from_position(figure_of(WON[:-1]), [[T(last[0])]] + [[] for _ in range(6)])
    game.play(Move(T(last[0]), last[1], last[2]))
    assert game.done and game.won
    assert game.hand_events[-1][-1] == {"type": "end", "reason": "won"}


def test_s2_refuses_other_than_seven_stacks(figure_of) -> None:
    with pytest.raises(ValueError, match="7 stacks"):
        Solitaire2.from_position(figure_of(OPENING), [rest(OPENING)])


def test_s2_new_game_draws_the_deck_then_the_cut_from_the_seed() -> None:
    rng = np.random.default_rng(99)
    deck = rng.permutation(36).tolist()
    cut = int(rng.integers(6))
    game = new_solitaire2(99)
    assert game.deck == deck and game.cut == cut
    assert game.figure.tile_at(0, 0) == deck[30 + cut]


# -- Solitaire No. 2's listed chance (contack_env.protocol.EnumerableChance) -------------------------------------
def _midgame(seed: int, moves: int) -> Solitaire2:
    """A Solitaire No. 2 after ``moves`` random placements (or fewer, if it ends first)."""
    rng = np.random.default_rng(seed)
    game = new_solitaire2(seed)
    for _ in range(moves):
        if game.done:
            break
        codes = game.legal_codes()
        game.play_code(codes[int(rng.integers(len(codes)))])
    return game


def _buried(game: Solitaire2) -> list[int]:
    return sorted(t for s in game.stacks for t in s[:-1])


def test_s2_uncovering_a_tile_has_one_outcome_per_buried_tile() -> None:
    game = _midgame(3, 2)
    code = next(c for c in game.legal_codes() if len(game.stacks[game.stack_of(game.move_of(c).tile)]) >= 2)
    tile = game.move_of(code).tile
    k = game.stack_of(tile)
    after = game.outcomes(code)
    # the uncovered tile is each buried tile once, all equally likely
    assert sorted(o.tops[k] for o in after) == _buried(game)
    real = game.clone()
    real.play_code(code)
    for o in after:
        assert o.figure.placed == real.figure.placed and o.figure.last == real.figure.last
        assert [len(s) for s in o.stacks] == [len(s) for s in real.stacks]
        assert [t for j, t in enumerate(o.tops) if j != k] == [t for j, t in enumerate(real.tops) if j != k]
        assert sorted(t for s in o.stacks for t in s) == sorted(t for s in real.stacks for t in s)


def test_s2_a_move_that_uncovers_nothing_has_one_outcome(figure_of) -> None:
    stacks = [[T("07-08-09")]] + [[] for _ in range(5)] + [rest(OPENING, ["07-08-09"])]
    game = Solitaire2.from_position(figure_of(OPENING), stacks)
    code = game.legal_codes()[0]
    assert game.stack_of(game.move_of(code).tile) == 0
    (after,) = game.outcomes(code)
    real = game.clone()
    real.play_code(code)
    assert after.position_key() == real.position_key() and after.stacks == real.stacks


def test_s2_outcomes_do_not_depend_on_the_buried_order() -> None:
    game = _midgame(5, 3)
    other = game.determinize(np.random.default_rng(1))
    assert other.stacks != game.stacks  # the same position, the buried tiles in another order
    assert other.position_key() == game.position_key()
    for code in game.legal_codes():
        assert sorted(map(repr, (o.position_key() for o in game.outcomes(code)))) == sorted(
            map(repr, (o.position_key() for o in other.outcomes(code))))


def test_s2_the_position_key_tells_positions_apart_and_moves_left_counts_the_stacks() -> None:
    game = _midgame(7, 4)
    assert game.moves_left() == 36 - len(game.figure) == sum(len(s) for s in game.stacks)
    assert game.face_down() == game.moves_left() - sum(1 for s in game.stacks if s)
    code = game.legal_codes()[0]
    keys = {o.position_key() for o in game.outcomes(code)}
    assert len(keys) == len(game.outcomes(code))  # each uncovered tile is another position
    assert game.position_key() not in keys

