"""The single-seat training environment: gymnasium's checker, masks, rewards that add up, seeding."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from training.opponents import OpponentPool, parse_weights
from training.seat_env import ContackSeatEnv


def _env(players=2, opponents="greedy,random", reward="margin", seed=0):
    return ContackSeatEnv(players, OpponentPool(parse_weights(opponents), seed=seed), reward=reward)


def _play(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        mask = env.action_masks()
        assert mask.any(), "the learner is only asked to act when it has a legal action"
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
    return total, steps, info


def test_gymnasium_env_checker_accepts_it():
    env = ContackSeatEnv(2, OpponentPool({"greedy": 1}), illegal_action="lose")
    check_env(env, skip_render_check=True)


def test_an_illegal_action_raises_or_loses_as_asked():
    env = _env()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match=f"action {illegal} is illegal"):
        env.step(illegal)
    env = ContackSeatEnv(2, OpponentPool({"greedy": 1}), illegal_action="lose")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    assert not env.action_masks().any()


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_actions_that_are_no_int_raise_and_one_outside_the_space_is_illegal(illegal_action):
    env = ContackSeatEnv(2, OpponentPool({"greedy": 1}), illegal_action=illegal_action)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_masks())[0])
    for action in (legal + 0.5, True, "1"):  # not rounded down to an action, nor bool taken for 1
        with pytest.raises(ValueError, match=r"an action is an int in 0..104"):
            env.step(action)
    if illegal_action == "raise":
        with pytest.raises(ValueError, match="action 105 is illegal"):
            env.step(105)
    else:
        _, reward, done, _, info = env.step(105)
        assert (reward, done, info["illegal_action"]) == (-1.0, True, True)


def test_illegal_action_option_says_what_is_allowed():
    with pytest.raises(ValueError, match="illegal_action is one of 'raise', 'lose'; got 'skip'"):
        ContackSeatEnv(2, OpponentPool({"greedy": 1}), illegal_action="skip")


@pytest.mark.parametrize("players", [2, 4, 7])
def test_every_observation_is_a_decision_of_the_learner_with_two_or_more_moves(players):
    env = _env(players)
    rng = np.random.default_rng(players)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        game = env.game_env.game
        assert game.current_player == env.seat
        assert env.action_masks().sum() == len(game.legal_codes()) >= 2
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert not env.action_masks().any()
    assert len(info["final_scores"]) == players


def test_margin_rewards_add_up_to_the_final_margin_plus_the_win_reward():
    env = _env(3, reward="margin")
    rng = np.random.default_rng(0)
    for seed in range(5):
        total, _, info = _play(env, seed, rng)
        scores = info["final_scores"]
        own = scores[env.seat]
        margin = (own - (sum(scores) - own) / 2) / 100
        winners = env.game_env.game.winners
        win = (3 / len(winners) - 1) / 2 if env.seat in winners else -0.5
        assert total == pytest.approx(margin + win)


def test_score_rewards_add_up_to_the_final_score_and_win_rewards_are_zero_sum():
    rng = np.random.default_rng(1)
    env = _env(2, reward="score")
    total, _, info = _play(env, 4, rng)
    assert total == pytest.approx(info["final_scores"][env.seat] / 100)
    env = _env(2, reward="win")
    total, _, info = _play(env, 4, rng)
    assert total == (1.0 if info["won"] == 1 else -1.0 if info["won"] == 0 else 0.0)


def test_the_same_seed_gives_the_same_seat_opponents_and_game():
    a, b = _env(4, "greedy,random,lookahead"), _env(4, "greedy,random,lookahead")
    for env in (a, b):
        env.reset(seed=11)
    assert (a.seat, [o[0] for o in a.opponents if o]) == (b.seat, [o[0] for o in b.opponents if o])
    ra, rb = np.random.default_rng(5), np.random.default_rng(5)
    assert _play(a, 12, ra) == _play(b, 12, rb)
    assert a.game_env.game.decks == b.game_env.game.decks


def test_seats_are_drawn_evenly():
    env = _env(3)
    seats = [env.reset(seed=s)[1]["seat"] for s in range(300)]
    counts = np.bincount(seats, minlength=3)
    assert counts.min() > 70


def test_a_step_after_the_end_is_an_error():
    env = _env()
    _play(env, 0, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_an_unknown_reward_or_opponent_says_what_is_allowed():
    with pytest.raises(ValueError, match="reward must be one of win, margin, score"):
        _env(reward="points")
    with pytest.raises(ValueError, match="opponent 'clever'"):
        OpponentPool(parse_weights("clever"))


def test_sb3_contribs_action_masker_takes_it_because_it_subclasses_gymnasium_env():
    # gymnasium 1.x wrappers refuse an object that only looks like an env (the reason ContackSeatEnv subclasses it)
    from gymnasium import spaces
    from sb3_contrib.common.wrappers import ActionMasker

    wrapped = ActionMasker(_env(), lambda env: env.action_masks())
    wrapped.reset(seed=0)
    assert wrapped.action_masks().any()

    class LooksLikeAnEnv:
        observation_space, action_space = spaces.Box(0, 1, (3,)), spaces.Discrete(2)

    # gymnasium 1.4 raises TypeError, 1.2 (the rllib extra's) AssertionError
    with pytest.raises((TypeError, AssertionError), match="Expected env to be a `gymnasium.Env`"):
        ActionMasker(LooksLikeAnEnv(), lambda env: np.ones(2, bool))
