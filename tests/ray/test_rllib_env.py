"""``training.rllib.env.ContackMultiAgentEnv``: one learner seat per game, opponents from the pool inside."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

from agents.policy_file import PolicyNet  # noqa: E402
from training.opponents import PolicyOpponent  # noqa: E402
from training.rllib.env import ContackMultiAgentEnv, policy_mapping_fn  # noqa: E402


def play(env: ContackMultiAgentEnv, seed: int) -> tuple[str, int, float]:
    obs, info = env.reset(seed=seed)
    (agent,) = obs
    assert agent == f"player_{info[agent]['seat']}" and policy_mapping_fn(agent, None) == "learner"
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        o = obs[agent]
        assert env.observation_spaces[agent].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        obs, rew, done, cut, info = env.step({agent: int(rng.choice(legal))})
        assert set(obs) == {agent}
        total += rew[agent]
        steps += 1
        if done["__all__"]:
            assert "won" in info[agent] and env.agents == []
            return agent, steps, total


def test_episodes_are_whole_games_from_a_drawn_seat() -> None:
    env = ContackMultiAgentEnv({"players": 3, "opponents": "random", "features": "none"})
    seats = {play(env, seed)[0] for seed in range(6)}
    assert len(seats) > 1  # the learner's seat is drawn each game
    assert play(env, 4)[0] == play(env, 4)[0]  # from the seed


def test_self_plays_the_latest_policy_then_the_snapshots() -> None:
    env = ContackMultiAgentEnv({"players": 2, "opponents": "self", "keep_snapshots": 1})
    first = PolicyNet([], (np.zeros((787, 105), np.float32), np.zeros(105, np.float32)))
    second = PolicyNet([], (np.ones((787, 105), np.float32), np.zeros(105, np.float32)))
    env.set_latest(first)
    env.reset(seed=0)
    (opponent,) = [o for o in env.seat_env.opponents if o is not None]
    assert isinstance(opponent[1], PolicyOpponent) and opponent[1].net is first
    env.add_snapshot(second)
    env.reset(seed=0)
    (opponent,) = [o for o in env.seat_env.opponents if o is not None]
    assert opponent[1].net is second
