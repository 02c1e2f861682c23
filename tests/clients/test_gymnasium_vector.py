"""The solitaires under Gymnasium's vector environments, in both autoreset modes: every mask an agent is shown
has a legal action, so sampling from it never fails, also on the step that ends an episode."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import contack_env  # noqa: F401  (registers the ids)

AutoresetMode = getattr(gymnasium.vector, "AutoresetMode", None)  # Gymnasium 1.1+; 1.0 only resets on the next step
MODES = ["next_step", "same_step"] if AutoresetMode is not None else ["next_step"]


def _make_vec(env_id, mode, num_envs=3, **kwargs):
    vector_kwargs = {} if AutoresetMode is None else {"autoreset_mode": getattr(AutoresetMode, mode.upper())}
    return gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync", vector_kwargs=vector_kwargs, **kwargs)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("env_id", ["contack/Solitaire1-v0", "contack/Solitaire2-v0"])
@pytest.mark.parametrize("illegal", [False, True])
def test_sampling_from_the_masks_never_meets_an_empty_one(env_id, mode, illegal):
    envs = _make_vec(env_id, mode)
    _, info = envs.reset(seed=7)
    rng = np.random.default_rng(7)
    space = envs.single_action_space
    ended = 0
    for _ in range(300):
        for masks in (info["action_mask"], np.stack(envs.call("action_masks"))):
            assert masks.shape == (envs.num_envs, space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        if illegal:  # now and then an illegal action ends an episode at once
            actions = np.where(rng.random(envs.num_envs) < 0.05, np.argmin(info["action_mask"], axis=1), actions)
        _, _, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        ended += int(terminated.sum())
    assert ended >= 3  # episodes ended, and the steps after them were sampled too
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_the_sampled_action_after_an_episode_plays_no_move(mode):
    # Next-step mode: the step after the last one resets and ignores its action (here, the placeholder 0).
    # Same-step mode: the last step's info is already the next episode's, with a placement pending.
    envs = _make_vec("contack/Solitaire1-v0", mode, num_envs=1)
    _, info = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        _, _, terminated, _, info = envs.step(np.array([rng.choice(np.flatnonzero(info["action_mask"][0]))]))
        if terminated[0]:
            break
    if mode == "next_step":
        assert np.flatnonzero(info["action_mask"][0]).tolist() == [0] and not info["decision"][0]
        _, reward, terminated, _, info = envs.step(np.array([0]))
        assert (reward[0], terminated[0]) == (0.0, False)
    assert info["decision"][0] and info["tiles_placed"][0] == 1  # a fresh deal: the opening tile alone
    envs.close()
