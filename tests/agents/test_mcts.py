import pytest

from agents.mcts import MCTSAgent
from agents.registry import make_agent
from agents.view import public_view
from contack_env.contack.figure import Figure, Move
from contack_env.contack.multiplayer import ContackGame, new_game
from contack_env.contack.tiles import tile_id


def _names(*names: str) -> list[int]:
    return [tile_id(n) for n in names]


def _last_tile_two_cells() -> ContackGame:
    # Seat 1 holds only 03-07-08; it goes out either on (-7, -1) for 15 or on (-6, 0) for 10.
    placements = [
        ("03-04-05", 0, 0), ("08-09-10", -1, 0), ("05-09-10", -2, 0), ("10-03-09", -2, -1),
        ("09-02-08", -3, -1), ("08-04-07", -4, -1), ("05-06-03", -5, -1), ("07-08-02", -6, -1),
    ]
    figure = Figure.from_placements([(tile_id(n), x, y) for n, x, y in placements])
    seat0 = _names("01-05-06", "09-10-01", "02-03-04", "06-02-05")
    seat1 = _names("03-07-08")
    used = set(figure.placed.values()) | set(seat0) | set(seat1)
    pile = [t for t in range(36) if t not in used]
    return ContackGame.from_position([seat0, seat1], figure, pile, to_move=1)


def test_mcts_goes_out_on_the_cell_that_scores_more():
    game = _last_tile_two_cells()
    legal = game.legal_moves()
    assert {m: game.clone().play(m) for m in legal} == {
        Move(tile_id("03-07-08"), -7, -1): 15,
        Move(tile_id("03-07-08"), -6, 0): 10,
    }
    for seed in range(3):
        assert MCTSAgent(50, seed=seed).act(public_view(game), legal) == Move(tile_id("03-07-08"), -7, -1)


def test_mcts_sees_that_points_now_can_hand_the_next_player_more():
    # 10-06-09 on (-1, 0) scores 15 now but lets the opponent answer with 20; 01-05-06 there scores 0 and leaves
    # them no placement (they must draw).
    opening = tile_id("07-03-06")
    seat0 = _names("05-06-03", "02-06-07", "05-09-10", "10-06-09", "01-05-06")
    seat1 = _names("03-07-08", "03-04-01", "06-07-01", "10-03-09", "06-07-08")
    pile = [t for t in range(36) if t not in seat0 + seat1 + [opening]]
    game = ContackGame.from_position([seat0, seat1], Figure.from_placements([(opening, 0, 0)]), pile, to_move=0)
    for seed in range(2):
        assert MCTSAgent(200, seed=seed).act(public_view(game), game.legal_moves()) == Move(tile_id("01-05-06"), -1, 0)


def test_mcts_same_seed_same_choices_and_the_view_is_left_untouched():
    game = new_game(3, seed=12)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    view = public_view(game)
    before = (view.decks, view.hands, view.scores, dict(view.figure.placed), view.pile_pos, view.num_hands)
    a = [MCTSAgent(60, seed=5).act(view, view.legal_moves()) for _ in range(2)]
    assert a[0] == a[1]
    assert (view.decks, view.hands, view.scores, dict(view.figure.placed), view.pile_pos, view.num_hands) == before


def test_mcts_answers_a_single_legal_move_without_searching():
    agent = MCTSAgent(10, seed=0)
    game = _last_tile_two_cells()
    only = game.legal_moves()[:1]
    state = agent.rng.bit_generator.state
    assert agent.act(public_view(game), only) == only[0]
    assert agent.rng.bit_generator.state == state


@pytest.mark.parametrize("spec", ["mcts:0", "mcts:-3", "mcts:many", "mcts:2.5", "mcts:1_0", "mcts:+5", "mcts:²",
                                  "mcts:" + "9" * 5000], ids=lambda spec: spec[:12])
def test_mcts_budget_must_be_a_positive_whole_number(spec):
    with pytest.raises(ValueError, match="budget is a whole number of iterations"):
        make_agent(spec)


def test_mcts_spec_sets_the_budget():
    assert make_agent("mcts:37", seed=0).iterations == 37
    assert make_agent("mcts", seed=0).iterations == 200
