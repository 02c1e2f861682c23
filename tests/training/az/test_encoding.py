"""What the search-guided network sees: the environments' observations, whatever order states come in."""

import numpy as np

from contack_env import new_game, new_solitaire2
from contack_env.envs.observation import observation_vector
from contack_env.envs.solitaire_v0 import Solitaire2Env
from agents.az.encoding import Encoder, relative_to_absolute


def test_contack_inputs_are_the_reference_observation_across_interleaved_games_and_table_sizes():
    # The encoder reuses one observation builder per table size; states of other games in between must not leak.
    encoder = Encoder("contack")
    games = [new_game(n, seed=n, log=False) for n in (2, 5, 2, 3)]
    step = 0
    while any(not g.done for g in games):
        for g in games:
            if g.done:
                continue
            obs, actions = encoder.encode(g)
            assert np.array_equal(obs, observation_vector(g, g.current_player))
            assert len(set(actions)) == len(g.legal_codes())
            assert all(0 <= a < encoder.num_actions for a in actions)
            codes = g.legal_codes()
            g.play_code(codes[step % len(codes)])
            step += 1


def test_solitaire_inputs_and_actions_are_the_environments():
    encoder = Encoder("solitaire2")
    env = Solitaire2Env()
    state = new_solitaire2(4, log=False)
    obs, actions = encoder.encode(state)
    expected, mask, layout = env.observe_state(state)
    assert np.array_equal(obs, expected)
    assert sorted(actions) == sorted(np.flatnonzero(mask).tolist())
    assert [layout.decode_code(a) for a in actions] == state.legal_codes()


def test_relative_values_come_back_in_table_order():
    assert relative_to_absolute([0.9, 0.2, 0.4], mover=1, players=3) == [0.4, 0.9, 0.2]
