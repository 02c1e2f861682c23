from agents.greedy import GreedyAgent
from contack_env.figure import Figure, Move
from contack_env.multiplayer import ContackGame
from contack_env.tiles import tile_id


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


def test_greedy_breaks_ties_by_lowest_tile_id():
    game = _game_with_choices()
    # 09-02-08 at (0, -1) and 07-08-09 at (1, 0) both score 10; 09-02-08 has the lower id (13 < 33).
    tied = [Move(tile_id("07-08-09"), 1, 0), Move(tile_id("09-02-08"), 0, -1)]
    assert [game.clone().play(m) for m in tied] == [10, 10]
    assert GreedyAgent().act(game, sorted(tied)) == Move(tile_id("09-02-08"), 0, -1)


def test_greedy_breaks_ties_of_one_tile_by_lowest_cell():
    game = _game_with_choices()
    tied = [Move(tile_id("04-05-02"), -1, 0), Move(tile_id("04-05-02"), 0, -1)]
    assert [game.clone().play(m) for m in tied] == [5, 5]
    assert GreedyAgent().act(game, sorted(tied)) == Move(tile_id("04-05-02"), -1, 0)
