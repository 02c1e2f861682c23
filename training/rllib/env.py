"""``contack_v0`` as an RLlib ``MultiAgentEnv`` for self-play against the opponent pool.

Each episode is one whole game: the seats are ``player_0`` .. ``player_{n-1}`` as in ``contack_v0``; one seat,
drawn each game, is the learner's (the policy mapping sends it to the learning module), and the other seats are
played inside the environment by opponents drawn from the ``OpponentPool``: bots, and frozen snapshots of the
learner (``add_snapshot``; "self" plays the latest policy, ``set_latest``, until the first snapshot). This is
the game, seat draw, opponents and reward of ``training.seat_env.ContackSeatEnv`` (which it runs), so both
backends train on the same problem; only the learner's seat is an RLlib agent, so every step is one of its
decisions and RLlib's env steps count the run's timesteps.

The observation is ``training.rllib.observations.masked_observation``: the policy input (``contack_v0``'s
observation, with the per-action ``features`` appended) and the action mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from agents.policy_file import PolicyNet
from contack_env.envs.observation import NUM_ACTIONS

from ..opponents import OpponentPool, parse_weights
from ..seat_env import ContackSeatEnv
from .observations import masked_observation, masked_space

LEARNER = "learner"
"""The id of the learning module; every seat the learner takes maps to it."""


def policy_mapping_fn(agent_id: str, episode: Any, **kwargs: Any) -> str:
    """Every RLlib agent of this environment is the learner at its seat of that game."""
    return LEARNER


class ContackMultiAgentEnv(MultiAgentEnv):
    """``config``: players, hands, enclosed_end, reward, opponents (a pool spec), keep_snapshots, features, seed."""

    made = 0
    """Environments made in this process so far."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        c = dict(config or {})
        players = int(c.get("players", 2))
        # Each env runner (RLlib's EnvContext carries its worker_index) and each environment it makes, in order,
        # gets its own bots' streams; RLlib seeds the games themselves (seed + an offset per environment).
        ContackMultiAgentEnv.made += 1
        salt = int(getattr(config, "worker_index", 0)) * 1000 + ContackMultiAgentEnv.made
        pool = OpponentPool(parse_weights(c.get("opponents", "random")), keep=int(c.get("keep_snapshots", 5)),
                            seed=int(c.get("seed", 0)) + salt)
        self.seat_env = ContackSeatEnv(players, pool, reward=c.get("reward", "margin"), num_hands=int(c.get("hands", 3)),
                                       enclosed_end=c.get("enclosed_end", "1939"), features=c.get("features", "none"))
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = []
        space = masked_space(self.seat_env.observation_space, NUM_ACTIONS)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._agent = self.possible_agents[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        obs, info = self.seat_env.reset(seed=seed, options=options)
        self._agent = self.possible_agents[info["seat"]]
        self.agents = [self._agent]
        return {self._agent: self._observe(obs)}, {self._agent: info}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self._agent
        obs, reward, terminated, truncated, info = self.seat_env.step(int(action_dict[agent]))
        if terminated or truncated:
            self.agents = []
        done = {agent: terminated, "__all__": terminated}
        cut = {agent: truncated, "__all__": truncated}
        return {agent: self._observe(obs)}, {agent: reward}, done, cut, {agent: info}

    def _observe(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        mask = self.seat_env.action_masks()
        return masked_observation(obs, mask)

    # -- self-play: what the trainer sends every environment --------------------------------------------------
    def add_snapshot(self, net: PolicyNet) -> None:
        self.seat_env.pool.add_snapshot(net)

    def set_latest(self, net: PolicyNet) -> None:
        self.seat_env.pool.set_latest(net)
