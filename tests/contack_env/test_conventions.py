"""The conventions every environment shares (``contack_env.envs.conventions``), checked on all three: the mask's
dtype, the ``illegal_action`` option, unknown reset options."""

from __future__ import annotations

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
