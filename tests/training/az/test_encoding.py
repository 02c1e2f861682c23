"""What the search-guided network sees: the environments' observations, whatever order states come in."""

import numpy as np
import pytest

from contack_env import new_game, new_solitaire2
from contack_env.envs.observation import observation_vector
from contack_env.envs.solitaire_v0 import Solitaire2Env
from agents.az.encoding import Encoder, relative_to_absolute
from agents.lookahead import LookaheadAgent
from contack_env.contack.figure import move_to_code, split_code


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


def _judged(state, encoder):
    obs, actions = encoder.encode(state)
    base = encoder.observation_size
    return obs[:base], obs[base:base + encoder.num_actions], obs[base + encoder.num_actions:], actions


def test_lookahead_inputs_are_the_bots_judgement_of_each_legal_move_and_its_choice():
    plain, judged = Encoder("contack"), Encoder("contack", "lookahead")
    bot = LookaheadAgent()
    assert judged.obs_size == plain.obs_size + 2 * judged.num_actions
    for players in (2, 4):
        game = new_game(players, seed=players, log=False)
        checked = 0
        while not game.done:
            obs, values, choice, actions = _judged(game, judged)
            assert np.array_equal(obs, plain.encode(game)[0])
            codes = game.legal_codes()
            illegal = np.ones(judged.num_actions, dtype=bool)
            illegal[actions] = False
            assert not values[illegal].any() and not choice[illegal].any()
            for code, action in zip(codes, actions):
                tile, cell = split_code(code)
                assert values[action] == pytest.approx(np.tanh(bot.move_value(game, tile, cell) / 50.0), abs=1e-6)
            move = bot.act(game, game.legal_moves())
            assert choice.sum() == 1 and choice[actions[codes.index(move_to_code(move))]] == 1
            checked += len(codes) > 1
            game.play_code(codes[(checked * 7) % len(codes)])
        assert checked > 5


def test_lookahead_inputs_in_a_solitaire_mark_the_bots_choice():
    judged = Encoder("solitaire2", "lookahead")
    bot = LookaheadAgent()
    state = new_solitaire2(4, log=False)
    while not state.done:
        _, values, choice, actions = _judged(state, judged)
        codes = state.legal_codes()
        move = bot.act(state, state.legal_moves())
        assert choice.sum() == 1 and choice[actions[codes.index(move_to_code(move))]] == 1
        assert (values[actions] > 0).all()  # the solitaire values are positive
        state.play_code(codes[-1])


def test_judgement_given_by_the_caller_is_the_input_it_would_compute():
    # Pretraining passes the bot's values it has already judged; the input must be the same, and made of them.
    judged = Encoder("contack", "lookahead")
    bot = LookaheadAgent()
    game = new_game(3, seed=9, log=False)
    while not game.done:
        codes = game.legal_codes()
        values = bot.values(game, codes)
        obs, actions = judged.encode(game, values)
        assert np.array_equal(obs, judged.encode(game)[0])
        if len(codes) > 1:
            reversed_choice = [-v for v in values]
            other, _ = judged.encode(game, reversed_choice)
            base = judged.observation_size + judged.num_actions
            assert other[base + actions[int(np.argmin(values))]] == 1  # the choice follows the values given
        game.play_code(codes[0])
