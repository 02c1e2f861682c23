"""Tianshou 2 on ``contack_v0`` as its users run PettingZoo games (Tianshou's own tic-tac-toe example): the
AEC env in ``tianshou.env.PettingZooEnv``, a DQN learner against Tianshou's masked random player in a
``MultiAgentOffPolicyAlgorithm``, vector envs, a replay buffer and ``run_training``. The replay buffer stacks
every step's info, which works because the infos have a fixed shape (the env card's "Info")."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

tianshou = pytest.importorskip("tianshou")
torch = pytest.importorskip("torch")

from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, CollectStats, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

from contack_env import contack_v0  # noqa: E402


def get_env() -> PettingZooEnv:
    return PettingZooEnv(contack_v0.env(num_players=2))


def _algorithm() -> MultiAgentOffPolicyAlgorithm:
    env = get_env()
    observation_space = env.observation_space["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=env.action_space.n, hidden_sizes=[64, 64])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1, eps_inference=0.05),
        optim=AdamOptimizerFactory(lr=1e-4),
        n_step_return_horizon=3,
        gamma=0.9,
        target_update_freq=320,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    return MultiAgentOffPolicyAlgorithm(algorithms=[opponent, learner], env=env)  # the learner is player_1


def test_tianshou_collects_and_trains_on_contack():
    np.random.seed(0)
    torch.manual_seed(0)
    train_envs = DummyVectorEnv([get_env for _ in range(2)])
    test_envs = DummyVectorEnv([get_env for _ in range(2)])
    train_envs.seed(0)
    test_envs.seed(1)
    algorithm = _algorithm()
    buffer = VectorReplayBuffer(5_000, len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Tianshou's stats warn about 2-d (per-agent) returns
        first = train_collector.collect(n_episode=2)
        result = algorithm.run_training(
            OffPolicyTrainerParams(
                training_collector=train_collector,
                test_collector=test_collector,
                max_epochs=1,
                epoch_num_steps=200,
                collection_step_num_env_steps=10,
                test_step_num_episodes=2,
                batch_size=32,
                update_step_num_gradient_steps_per_sample=0.1,
                test_in_training=False,
                show_progress=False,
                verbose=False,
                multi_agent_return_reduction=lambda returns: returns[:, 1],
            )
        )
    # Each collected game is zero-sum between the two seats (reward "win": +1 / -1).
    assert first.n_collected_episodes == 2 and np.allclose(first.returns.sum(axis=1), 0.0)
    assert set(np.abs(first.returns).ravel()) == {1.0}
    assert result.update_step > 0 and result.train_step >= 200 and result.test_episode >= 2
    assert buffer.info.illegal_action.dtype == bool and not buffer.info.illegal_action[: len(buffer)].any()
    assert int(buffer.info.draws[: len(buffer)].sum()) > 0  # the counts reached the buffer
    assert sorted(buffer.info.keys()) == ["auto_moves", "draws", "env_id", "illegal_action", "passed"]
