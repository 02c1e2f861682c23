"""PettingZoo's Stable-Baselines3 action-masking tutorial (``tutorials/SB3/connect_four/
sb3_connect_four_action_mask.py`` in the PettingZoo repository), its pattern with only the environment id swapped:
the AEC environment made by id, a ``BaseWrapper`` that gives it Gymnasium's ``reset``/``step`` (the observation of
the agent to move next, the reward of the agent that just moved), sb3-contrib's ``ActionMasker`` and
``MaskablePPO`` playing every seat, then games against a uniform random player in seat 0.

``python tests/clients/sb3_tutorial.py`` prints the figures docs/clients.md quotes (20,480 steps, as the tutorial).
"""

from __future__ import annotations

import argparse
import ast
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pettingzoo.utils
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.logger import Logger

import contack_env  # noqa: F401  (registers contack/contack-v0)


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The tutorial's wrapper: one Gymnasium env whose every step is the move of the agent to move."""

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        current = self.agent_selection
        super().step(action)
        return (self.observe(self.agent_selection), self._cumulative_rewards[current], self.terminations[current],
                self.truncations[current], self.infos[current])

    def observe(self, agent: str) -> np.ndarray:
        return super().observe(agent)["observation"]

    def action_mask(self) -> np.ndarray:
        return super().observe(self.agent_selection)["action_mask"]


def train(env_id: str, steps: int, seed: int = 0, **env_kwargs: Any) -> MaskablePPO:
    env = SB3ActionMaskWrapper(pettingzoo.make("aec", env_id, **env_kwargs))
    env.reset(seed=seed)
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0, seed=seed)
    # A logger with no outputs: SB3's default one makes an empty /tmp/SB3-<time> folder on every learn().
    model.set_logger(Logger(folder=None, output_formats=[]))
    model.learn(total_timesteps=steps)
    return model


def evaluate(model: MaskablePPO, env_id: str, num_games: int = 100, render_mode: str | None = None,
             **env_kwargs: Any) -> tuple[float, dict[str, float]]:
    """The tutorial's evaluation: seat 0 plays uniformly at random, every other seat is the model; the win rate
    is the model's share (as ``player_1``) of the games won by ``player_0`` or ``player_1``."""
    env = pettingzoo.make("aec", env_id, render_mode=render_mode, **env_kwargs)
    scores = dict.fromkeys(env.possible_agents, 0.0)
    total_rewards = dict.fromkeys(env.possible_agents, 0.0)
    for i in range(num_games):
        env.reset(seed=i)
        env.action_space(env.possible_agents[0]).seed(i)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                if env.rewards[env.possible_agents[0]] != env.rewards[env.possible_agents[1]]:
                    winner = max(env.rewards, key=env.rewards.get)
                    scores[winner] += env.rewards[winner]
                for a in env.possible_agents:
                    total_rewards[a] += env.rewards[a]
                break
            if agent == env.possible_agents[0]:
                act = env.action_space(agent).sample(action_mask)
            else:
                act = int(model.predict(observation, action_masks=action_mask, deterministic=True)[0])
            env.step(act)
    env.close()
    won = scores[env.possible_agents[0]] + scores[env.possible_agents[1]]
    return (scores[env.possible_agents[1]] / won if won else 0.0), total_rewards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="contack/contack-v0")
    parser.add_argument("--steps", type=int, default=20_480)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kwargs", default="{}", help="environment options, a Python dict literal")
    parser.add_argument("--eval-kwargs", default=None,
                        help="environment options for the evaluation (default: --kwargs); its win rate reads the "
                             "rewards of the last step, a game's result only with reward 'win'")
    args = parser.parse_args()
    kwargs = ast.literal_eval(args.kwargs)
    eval_kwargs = kwargs if args.eval_kwargs is None else ast.literal_eval(args.eval_kwargs)
    for seed in args.seeds:
        model = train(args.env_id, args.steps, seed, **kwargs)
        rate, totals = evaluate(model, args.env_id, args.games, **eval_kwargs)
        print(f"{args.env_id} trained {kwargs}, evaluated {eval_kwargs}, seed {seed}: win rate {rate:.2f} against "
              f"random, totals {totals}", flush=True)


if __name__ == "__main__":
    main()
