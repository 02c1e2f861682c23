"""The conventions every environment shares (``contack_env.envs.conventions``), checked on all three: the mask's
dtype, the ``illegal_action`` option, unknown reset options, copies."""

from __future__ import annotations

import copy
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

from contack_env import contack_v0, contactix_v0
from contack_env.envs.solitaire_v0 import Solitaire1Env, Solitaire2Env

PETTINGZOO = {"contack_v0": contack_v0, "contactix_v0": contactix_v0}


@pytest.mark.parametrize("name", PETTINGZOO)
def test_pettingzoo_masks_are_int8_everywhere(name):
    env = PETTINGZOO[name].env()
    env.reset(seed=0)
    for agent in env.agents:
        assert env.observation_space(agent)["action_mask"].dtype == np.int8
        assert env.observe(agent)["action_mask"].dtype == np.int8
    assert env.unwrapped.action_mask().dtype == np.int8


@pytest.mark.parametrize("cls", [Solitaire1Env, Solitaire2Env])
def test_solitaire_masks_are_int8_everywhere(cls):
    env = cls()
    _, info = env.reset(seed=0)
    assert env.action_masks().dtype == np.int8 and info["action_mask"].dtype == np.int8
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert info["action_mask"].dtype == np.int8
    # Through Gymnasium's wrappers, where MaskablePPO reaches it.
    wrapped = gymnasium.make("contack/Solitaire2-v0")
    wrapped.reset(seed=3)
    assert wrapped.get_wrapper_attr("action_masks")().dtype == np.int8


@pytest.mark.parametrize("name", PETTINGZOO)
def test_pettingzoo_illegal_action_option(name):
    module = PETTINGZOO[name]
    for make, expected in ((module.env, "lose"), (module.raw_env, "raise")):
        assert make().unwrapped.illegal_action == expected
    for value in ("raise", "lose"):
        assert module.env(illegal_action=value).unwrapped.illegal_action == value
    with pytest.raises(ValueError, match="illegal_action is one of 'raise', 'lose'; got 'pass'"):
        module.raw_env(illegal_action="pass")
    raw = module.raw_env(illegal_action="raise")
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.action_mask() == 0)[0]) if (raw.action_mask() == 0).any() else raw.action_space(raw.agent_selection).n
    with pytest.raises(ValueError, match=f"action {illegal} is illegal for {raw.agent_selection}"):
        raw.step(illegal)


@pytest.mark.parametrize("cls", [Solitaire1Env, Solitaire2Env])
def test_solitaire_illegal_action_option(cls):
    assert cls().illegal_action == "lose"
    with pytest.raises(ValueError, match="illegal_action is one of 'raise', 'lose'; got 'pass'"):
        cls(illegal_action="pass")
    env = cls(illegal_action="raise")
    _, info = env.reset(seed=0)
    with pytest.raises(ValueError, match="is not legal here"):
        env.step(env.action_space.n)  # outside the space: illegal like any action outside the mask
    env = cls()
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(env.action_space.n)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


@pytest.mark.parametrize("make", [contack_v0.env, contactix_v0.env, Solitaire1Env, Solitaire2Env])
def test_unknown_reset_options_are_ignored_with_a_warning(make):
    env = make()
    with pytest.warns(UserWarning, match=r"reset ignores the unknown option \['typo'\]"):
        env.reset(seed=1, options={"typo": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=1)  # no options, no warning


def _aec_transcript(env, rng, steps=None):
    """Steps ``env`` with random legal actions from ``rng`` (all its steps, or ``steps``) and what each step
    showed: the agent, its observation and mask, its reward, termination and truncation."""
    out = []
    while env.agents and (steps is None or len(out) < steps):
        agent = env.agent_selection
        obs, reward, terminated, truncated, _ = env.last()
        out.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), reward, terminated, truncated))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("make", [lambda: contack_v0.env(num_players=2), lambda: contack_v0.env(num_players=5),
                                  lambda: contack_v0.raw_env(num_players=3), contactix_v0.env])
def test_a_deep_copy_of_a_pettingzoo_env_goes_on_from_where_the_original_stands(make):
    env = make()
    env.reset(seed=11)
    _aec_transcript(env, np.random.default_rng(0), steps=17)
    before = env.observe(env.agent_selection)["observation"].copy()
    twin = copy.deepcopy(env)
    assert twin.agent_selection == env.agent_selection
    # the copy plays on alone: the original stays where it was
    assert _aec_transcript(twin, np.random.default_rng(5), steps=9)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], before)
    # the original and a second copy, given the same actions, play the same rest of the game
    second = copy.deepcopy(env)
    rest = _aec_transcript(env, np.random.default_rng(7))
    assert rest == _aec_transcript(second, np.random.default_rng(7))
    assert env.unwrapped.game_record() == second.unwrapped.game_record()
    assert len(rest) > 1 and not env.agents


@pytest.mark.parametrize("module", [contack_v0, contactix_v0])
def test_a_pickled_pettingzoo_env_is_made_again_from_its_arguments(module):
    env = module.raw_env(illegal_action="raise")
    env.reset(seed=2)
    fresh = pickle.loads(pickle.dumps(env))  # EzPickle: what worker processes are sent
    assert fresh.illegal_action == "raise" and getattr(fresh, "game", None) is None
    fresh.reset(seed=2)
    assert np.array_equal(fresh.observe(fresh.agent_selection)["observation"],
                          env.observe(env.agent_selection)["observation"])


@pytest.mark.parametrize("cls", [Solitaire1Env, Solitaire2Env])
def test_a_deep_copy_of_a_solitaire_env_goes_on_from_where_the_original_stands(cls):
    def play(env, rng, steps=None):
        out = []
        while steps is None or len(out) < steps:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, reward, terminated, truncated, _ = env.step(action)
            out.append((action, obs.tolist(), reward))
            if terminated or truncated:
                return out
        return out

    env = cls()
    env.reset(seed=5)
    play(env, np.random.default_rng(0), steps=4)
    twin = copy.deepcopy(env)
    before = env.action_masks().copy()
    play(twin, np.random.default_rng(1), steps=3)
    assert np.array_equal(env.action_masks(), before)
    second = copy.deepcopy(env)
    assert play(env, np.random.default_rng(2)) == play(second, np.random.default_rng(2))
