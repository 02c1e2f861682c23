import numpy as np
import pytest

from agents.greedy import GreedyAgent
from agents.lookahead import LookaheadAgent, first_best, playable_mask
from agents.view import public_view
from contack_env import new_game
from contack_env.contack.figure import Figure, Move, split_code
from contack_env.contack.grid import cell_index
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import new_solitaire1, new_solitaire2
from contack_env.contack.tiles import TILE_VALUES, contact_valid, tile_id, tiles_in


def _names(*names: str) -> list[int]:
    return [tile_id(n) for n in names]


def _reply_trap() -> ContackGame:
    # Opening 07-08-02 at (0, 0). Seat 0 can put 06-07-04 on (1, 0) for 15, which lets seat 1 answer with 15,
    # or 09-05-08 on (-1, 0) for 10, after which seat 1's best answer scores nothing.
    opening = tile_id("07-08-02")
    seat0 = _names("02-06-07", "05-06-07", "02-09-10", "06-07-04", "09-05-08")
    seat1 = _names("09-02-08", "05-06-03", "07-08-09", "08-01-07", "08-09-03")
    pile = [t for t in range(36) if t not in seat0 + seat1 + [opening]]
    return ContackGame.from_position([seat0, seat1], Figure.from_placements([(opening, 0, 0)]), pile, to_move=0)


def _best_reply(game: ContackGame, move: Move) -> int | None:
    figure = game.figure.clone()
    figure.place(move.tile, cell_index(move.x, move.y))
    codes = figure.legal_codes(game.hands[1])
    return max((figure.points_for_code(c) for c in codes), default=None)


def test_lookahead_declines_points_that_hand_the_next_player_as_many():
    game = _reply_trap()
    legal = game.legal_moves()
    greedy_move = Move(tile_id("06-07-04"), 1, 0)
    quiet_move = Move(tile_id("09-05-08"), -1, 0)
    assert set(legal) == {greedy_move, quiet_move}
    # The facts of the position, checked on the engine.
    assert game.clone().play(greedy_move) == 15 and _best_reply(game, greedy_move) == 15
    assert game.clone().play(quiet_move) == 10 and _best_reply(game, quiet_move) == 0
    assert GreedyAgent().act(public_view(game), legal) == greedy_move
    assert LookaheadAgent().act(public_view(game), legal) == quiet_move


def test_lookahead_without_its_weights_plays_like_greedy_in_that_position():
    # With every term but the points off, nothing but the points now is left to choose by.
    game = _reply_trap()
    agent = LookaheadAgent(opponents=0.0, blocked=0.0, can_play=0.0, next_points=0.0, keep=0.0, hole=0.0)
    assert agent.act(public_view(game), game.legal_moves()) == Move(tile_id("06-07-04"), 1, 0)


def _one_tile_left() -> ContackGame:
    # Seat 0 holds one tile, 06-07-04, which fits the opening 07-08-02; seat 1 holds five.
    opening = tile_id("07-08-02")
    seat0 = _names("06-07-04")
    seat1 = _names("09-02-08", "05-06-03", "07-08-09", "08-01-07", "08-09-03")
    pile = [t for t in range(36) if t not in seat0 + seat1 + [opening]]
    return ContackGame.from_position([seat0, seat1], Figure.from_placements([(opening, 0, 0)]), pile, to_move=0)


def test_lookahead_goes_out_when_it_can():
    # Seat 0 holds one tile that fits: every legal move goes out; with two, it must take the one that scores more.
    game = _one_tile_left()
    legal = game.legal_moves()
    best = max(legal, key=lambda m: game.clone().play(m))
    chosen = LookaheadAgent().act(public_view(game), legal)
    assert game.clone().play(chosen) == game.clone().play(best)
    after = game.clone()
    after.play(chosen)
    assert after.end_reasons == ["out"]


def test_playable_mask_is_the_tiles_with_some_compatible_empty_cell():
    # Around a lone opening tile the three empty cells touch it on its gold (L), red (R) and blue (B) sides, so
    # a tile fits somewhere exactly when one of its colours forms a valid contact with the opening's.
    opening = tile_id("01-02-03")
    figure = Figure.from_placements([(opening, 0, 0)])
    expected = {
        t
        for t in range(36)
        if t != opening and any(contact_valid(TILE_VALUES[opening][c], TILE_VALUES[t][c]) for c in range(3))
    }
    assert set(tiles_in(playable_mask(figure))) - {opening} == expected  # placed tiles do not matter
    assert tile_id("09-02-08") in expected  # blue 9 + 1 = 10 (docs/rules.md section 8.1)


def test_lookahead_plays_the_solitaires_legally_and_deterministically():
    for make in (new_solitaire1, new_solitaire2):
        runs = []
        for _ in range(2):
            state = make(seed=4)
            moves = []
            while not state.done:
                legal = state.legal_moves()
                move = LookaheadAgent().act(public_view(state), legal)
                assert move in legal
                moves.append(move)
                state.play(move)
            runs.append(moves)
        assert runs[0] == runs[1]


def test_first_best_takes_the_first_of_the_highest_values():
    assert first_best([3.0]) == 0
    assert first_best([1.0, 4.0, 2.0, 4.0]) == 1
    assert first_best([-2.0, -1.0, -1.0]) == 1


def test_best_code_is_the_code_of_the_move_the_bot_plays():
    from contack_env.contack.figure import code_to_move
    from contack_env.contack.multiplayer import new_game

    judge = LookaheadAgent()
    checked = 0
    for seed in range(3):
        state = new_game(2, seed=seed)
        while not state.done:
            view = public_view(state)
            code = judge.best_code(view)
            values = judge.values(view, view.legal_codes())
            assert code in view.legal_codes()
            assert judge.value(view, code) == max(values)
            assert code_to_move(code) == judge.act(view, view.legal_moves())
            checked += len(values) > 1
            state.play_code(code)
    assert checked > 20


# docs/rules.md worked example 4: a figure whose down cell (1, 0) touches three tiles (red 6, gold 10, blue 7).
THREE_SIDED_50 = [
    ("02-06-07", 0, 0), ("03-04-01", 0, -1), ("05-01-04", 1, -1), ("08-01-07", 2, -1), ("02-09-10", 2, 0),
    ("05-06-03", 3, 0), ("10-03-09", 3, 1), ("06-07-01", 2, 1), ("07-08-02", 1, 1),
]


def _around_the_hole(hands: list[list[str]], enclosed_end: str = "1939") -> ContackGame:
    board = [(tile_id(name), x, y) for name, x, y in THREE_SIDED_50]
    held = [_names(*hand) for hand in hands]
    used = {t for hand in held for t in hand} | {t for t, _, _ in board}
    pile = [t for t in range(36) if t not in used]
    return ContackGame.from_position(held, Figure.from_placements(board), pile, to_move=0, enclosed_end=enclosed_end)


def test_an_enclosing_move_is_worth_the_hands_result_as_a_margin():
    # 08-09-10 into the hole scores 50 and leaves no hole and no free side: under the 1939 rule the hand ends
    # there. The bot values it as that result: 50 points, plus 10 for each tile the others hold on average
    # (3 and 1: 2) less each tile it keeps (1).
    game = _around_the_hole([["08-09-10", "01-02-03"], ["04-05-06", "07-08-09", "05-09-10"], ["06-07-04"]])
    after = game.clone()
    assert after.play(Move(tile_id("08-09-10"), 1, 0)) == 50 and after.end_reasons == ["enclosed"]
    assert LookaheadAgent().move_value(game, tile_id("08-09-10"), cell_index(1, 0)) == 50 + 10 * (2 - 1)


def test_going_out_is_worth_its_points_the_others_tiles_and_a_thousand_more():
    # GO_OUT (1000) puts going out ahead of any other move; the rest is the hand's result as a margin: the
    # points, plus 10 for each tile the other seat still holds (5).
    game = _one_tile_left()
    for move in game.legal_moves():
        points = game.clone().play(move)
        assert LookaheadAgent().move_value(game, move.tile, cell_index(move.x, move.y)) == 1000 + points + 10 * 5


def test_leaving_the_next_seat_no_placement_earns_the_blocked_weight_shared_by_the_others():
    # Over random games, each move that neither ends the hand nor goes out: turning the BLOCKED weight (8) off
    # changes its value by 8 / (n - 1) exactly when the next seat has no placement after it, by nothing otherwise.
    full, without = LookaheadAgent(), LookaheadAgent(blocked=0.0)
    blocking = 0
    for seed in range(40):
        game = new_game(2 + seed % 3, 1, seed=seed, log=False)
        rng = np.random.default_rng(seed)
        while not game.done:
            codes = game.legal_codes()
            seat, n = game.current_player, game.num_players
            for code in codes:
                tile, cell = split_code(code)
                figure = game.figure.clone()
                figure.place(tile, cell)
                if game.hands[seat].bit_count() == 1 or figure.is_enclosed():
                    continue  # the hand ends with this move: no replies are judged
                blocked = not figure.legal_codes(game.hands[(seat + 1) % n])
                blocking += blocked
                change = full.move_value(game, tile, cell) - without.move_value(game, tile, cell)
                assert change == pytest.approx(8 / (n - 1) if blocked else 0.0)
            game.play_code(codes[rng.integers(len(codes))])
    assert blocking > 20  # the case was met
