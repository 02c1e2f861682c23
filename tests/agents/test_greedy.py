import numpy as np

from agents.greedy import GreedyAgent
from contack_env.contack.figure import Figure, Move
from contack_env.contack.multiplayer import ContackGame, new_game
from contack_env.contack.tiles import tile_id


def _game_with_choices() -> ContackGame:
    # Opening 01-02-03; seat 0 holds 09-02-08 (blue 9 + blue 1 = 10 points below the opening) among others.
    opening = tile_id("01-02-03")
    figure = Figure.from_placements([(opening, 0, 0)])
    rest = [t for t in range(36) if t != opening]
    hand = [tile_id("09-02-08"), tile_id("02-03-04"), tile_id("04-05-02"), tile_id("06-07-08"), tile_id("07-08-09")]
    others = [t for t in rest if t not in hand]
    return ContackGame.from_position([hand, others[:5]], figure, others[5:], to_move=0)


def test_greedy_takes_the_highest_scoring_move():
    game = _game_with_choices()
    legal = game.legal_moves()
    move = GreedyAgent().act(game, legal)
    scores = {m: game.clone().play(m) for m in legal}
    assert scores[move] == max(scores.values())
    assert move == Move(tile_id("09-02-08"), 0, -1)


def _orders(moves):
    """The moves in every order that could fool a greedy relying on its input order: as given, reversed, sorted,
    sorted descending, and shuffled."""
    rng = np.random.default_rng(0)
    orders = [list(moves), list(reversed(moves)), sorted(moves), sorted(moves, reverse=True)]
    orders += [[moves[i] for i in rng.permutation(len(moves))] for _ in range(20)]
    return orders


def test_greedy_breaks_ties_by_lowest_tile_id_whatever_the_order_of_the_moves():
    game = _game_with_choices()
    # 09-02-08 at (0, -1) and 07-08-09 at (1, 0) both score 10; 09-02-08 has the lower id (13 < 33).
    tied = [Move(tile_id("07-08-09"), 1, 0), Move(tile_id("09-02-08"), 0, -1)]
    assert [game.clone().play(m) for m in tied] == [10, 10]
    assert tile_id("09-02-08") < tile_id("07-08-09")
    for order in _orders(tied):
        assert GreedyAgent().act(game, order) == Move(tile_id("09-02-08"), 0, -1), order


def test_greedy_breaks_ties_of_one_tile_by_lowest_cell_whatever_the_order_of_the_moves():
    game = _game_with_choices()
    # 04-05-02 scores 5 both at (-1, 0) and at (0, -1); (-1, 0) < (0, -1).
    tied = [Move(tile_id("04-05-02"), 0, -1), Move(tile_id("04-05-02"), -1, 0)]
    assert [game.clone().play(m) for m in tied] == [5, 5]
    for order in _orders(tied):
        assert GreedyAgent().act(game, order) == Move(tile_id("04-05-02"), -1, 0), order


def test_greedy_on_all_legal_moves_in_any_order_takes_the_documented_choice():
    # Every decision of several games: greedy, fed the legal moves in any order, makes the move that has the most
    # points and, among those, the lowest (tile id, x, y), as documented.
    decisions = ties = 0
    for seed in range(6):
        game = new_game(2 + seed, num_hands=1, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.done:
            legal = game.legal_moves()
            points = {m: game.clone().play(m) for m in legal}
            best = max(points.values())
            expected = min(m for m in legal if points[m] == best)
            ties += sum(points[m] == best for m in legal) > 1
            shuffled = [legal[i] for i in rng.permutation(len(legal))]
            for order in (shuffled, list(reversed(legal))):
                assert GreedyAgent().act(game, order) == expected
            game.play(expected)
            decisions += 1
    assert decisions > 100 and ties > 10  # the tie-break was really exercised
