"""The solitaires in a CleanRL-style loop (its ``ppo.py``): ``gym.vector.SyncVectorEnv`` of ``gym.make(id)`` behind
``RecordEpisodeStatistics``, a torch policy whose logits are masked with ``info["action_mask"]``, actions sampled
from ``Categorical``, episodes restarted by the vector env's autoreset, then one PPO-style update. An all-zero
mask would make every logit -inf and the sampling fail."""

from __future__ import annotations

import gymnasium as gym
import pytest

torch = pytest.importorskip("torch")
from torch import nn  # noqa: E402
from torch.distributions import Categorical  # noqa: E402

import contack_env  # noqa: E402,F401  (registers the ids)


def make_env(env_id: str):
    def thunk():
        return gym.wrappers.RecordEpisodeStatistics(gym.make(env_id))

    return thunk


@pytest.mark.parametrize("env_id", ["contack/Solitaire1-v0", "contack/Solitaire2-v0"])
def test_a_cleanrl_style_rollout_and_update(env_id):
    torch.manual_seed(1)
    num_envs, num_steps = 4, 128
    envs = gym.vector.SyncVectorEnv([make_env(env_id) for _ in range(num_envs)])
    n_actions = envs.single_action_space.n
    policy = nn.Sequential(nn.Linear(envs.single_observation_space.shape[0], 64), nn.Tanh(), nn.Linear(64, n_actions))
    optimizer = torch.optim.Adam(policy.parameters(), lr=2.5e-4)

    next_obs, infos = envs.reset(seed=1)
    observations, masks, actions, returns_seen = [], [], [], []
    for _ in range(num_steps):
        obs = torch.as_tensor(next_obs)
        mask = torch.as_tensor(infos["action_mask"], dtype=torch.bool)
        with torch.no_grad():
            logits = policy(obs).masked_fill(~mask, float("-inf"))
            action = Categorical(logits=logits).sample()
        assert mask[torch.arange(num_envs), action].all()
        observations.append(obs)
        masks.append(mask)
        actions.append(action)
        next_obs, reward, terminations, truncations, infos = envs.step(action.numpy())
        if "episode" in infos:  # RecordEpisodeStatistics, as CleanRL logs episodic returns
            returns_seen += infos["episode"]["r"][infos["_episode"]].tolist()
    assert returns_seen and set(returns_seen) <= {0.0, 1.0}  # reward "win": a deal is won (1) or lost (0)

    # One policy-gradient step on the rollout: the masked log-probabilities are finite.
    obs, mask, action = torch.cat(observations), torch.cat(masks), torch.cat(actions)
    logits = policy(obs).masked_fill(~mask, float("-inf"))
    logprob = Categorical(logits=logits).log_prob(action)
    assert torch.isfinite(logprob).all()
    loss = -logprob.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    assert all(torch.isfinite(p.grad).all() for p in policy.parameters())
    envs.close()
