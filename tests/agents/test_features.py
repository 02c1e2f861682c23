"""Per-action lookahead features: one value per legal action, the lookahead bot's judgement, nothing elsewhere."""

import numpy as np
import pytest

from agents.lookahead import LookaheadAgent
from agents.view import public_view
from contack_env import contack_v0, new_game
from agents.features import input_size, lookahead_values, policy_input


@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_best_valued_action_is_the_lookahead_bots_move(players):
    env = contack_v0.raw_env(num_players=players)
    rng = np.random.default_rng(players)
    bot = LookaheadAgent()
    env.reset(seed=players)
    checked = 0
    while not env.game.done and checked < 40:
        game = env.game
        mask = env.action_mask()
        values = lookahead_values(game)
        assert np.all(values[mask == 0] == 0)
        assert np.all(np.abs(values) <= 1)
        legal = game.legal_moves()
        if len(legal) > 1:
            chosen = env.encode_move(bot.act(public_view(game), legal))
            legal_values = np.where(mask == 1, values, -np.inf)
            assert values[chosen] == legal_values.max()
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 5


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
