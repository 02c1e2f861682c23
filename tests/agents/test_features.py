"""Per-action lookahead features: one value per legal action, the lookahead bot's judgement, nothing elsewhere."""

import numpy as np
import pytest

from contack_env import ContackGame, Figure, contack_v0, new_game
from contack_env.contack.tiles import tile_id
from agents.features import input_size, lookahead_values, policy_input


def _opening_position(hands: list[list[str]]) -> ContackGame:
    """Two players, the opening 01-02-03 on (0, 0), seat 0 to move with ``hands``; the rest in the pile."""
    held = [tile_id(n) for hand in hands for n in hand]
    opening = tile_id("01-02-03")
    pile = [t for t in range(36) if t not in held and t != opening]
    figure = Figure.from_placements([(opening, 0, 0)])
    return ContackGame.from_position([[tile_id(n) for n in hand] for hand in hands], figure, pile, 0)


def test_the_values_of_a_position_worked_by_hand():
    # 01-02-03 on the up cell (0, 0) shows gold 3 on L, red 2 on R, blue 1 on B. Seat 0 holds 01-05-06 and
    # 08-01-07, seat 1 holds 06-07-01. Seat 0 has two moves:
    # - 01-05-06 below, on (0, -1) (cell slot 2): blue 1 matches blue 1, 0 points. 08-01-07 still fits a cell
    #   touching the figure ((-1, 0), below), +2 (KEEP); 06-07-01 fits neither free side of (0, -1) (red 7 + 5,
    #   gold 1 + 6), so seat 1 is blocked: +8 (BLOCKED / 1); there is no hole, nothing is handed to seat 1, and
    #   08-01-07 fits no free side of (0, -1) afterwards (red 1 + 5, gold 7 + 6): no CAN_PLAY. Value 10.
    # - 08-01-07 on the left, on (-1, 0) (cell slot 0): gold 7 + 3 = 10 points; 01-05-06 still fits (0, -1), +2;
    #   06-07-01 fits no free side of (-1, 0) (red 7 + 1, blue 6 + 8): +8; 01-05-06 fits no free side of (-1, 0)
    #   afterwards (red 5 + 1, blue 1 + 8). Value 20.
    game = _opening_position([["01-05-06", "08-01-07"], ["06-07-01"]])
    slot = {t: k for k, t in enumerate(sorted(tile_id(n) for n in ("01-05-06", "08-01-07")))}
    below = slot[tile_id("01-05-06")] * 21 + 2
    left = slot[tile_id("08-01-07")] * 21 + 0
    values = lookahead_values(game)
    assert values.dtype == np.float32 and values.shape == (105,)
    assert np.flatnonzero(values).tolist() == sorted([below, left])
    assert values[below] == np.float32(np.tanh(10 / 50))
    assert values[left] == np.float32(np.tanh(20 / 50))


def test_going_out_is_valued_above_everything():
    # Seat 0's last tile, 08-01-07, goes out on (-1, 0): 1000 + 10 points + 10 for the tile seat 1 keeps: the
    # feature saturates at 1.
    game = _opening_position([["08-01-07"], ["06-07-01"]])
    values = lookahead_values(game)
    assert np.flatnonzero(values).tolist() == [0] and values[0] == 1.0


def test_no_values_once_the_game_is_over():
    game = new_game(2, seed=3, num_hands=1)
    while not game.done:
        game.play_code(game.legal_codes()[0])
    assert not lookahead_values(game).any()


def test_the_values_do_not_depend_on_the_pile_order():
    a, b = new_game(3, seed=1), new_game(3, seed=1)
    pile = b.decks[0][b.pile_pos:]
    b.decks[0][b.pile_pos:] = pile[::-1]
    assert np.array_equal(lookahead_values(a), lookahead_values(b))


def test_the_input_is_the_observation_followed_by_the_values():
    env = contack_v0.raw_env(num_players=2)
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)["observation"]
    x = policy_input(env.game, obs, "lookahead")
    assert x.shape == (input_size("lookahead"),) == (787 + 105,)
    assert np.array_equal(x[:787], obs)
    assert policy_input(env.game, obs, "none") is obs
    with pytest.raises(ValueError, match="features must be one of none, lookahead"):
        input_size("oracle")
