"""The MaskablePPO learner of ``contack train``: built from a configuration, its random streams restarted at a
checkpoint, and its actor exported as a weights-only policy file (``agents.policy_file``).

``training.train`` runs it and ``training.monitor`` checkpoints and evaluates it; both import it from here.
"""

from __future__ import annotations

from typing import Any

from agents.policy_file import PolicyNet

from .config import TrainConfig
from .games import TRAINING_GAMES


def final_timesteps(start: int, cfg: TrainConfig) -> int:
    """The timesteps a run from ``start`` ends at: PPO collects whole rollouts of ``n_steps`` steps in each of
    ``n_envs`` environments, so ``total_timesteps`` is rounded up to the next whole rollout."""
    remaining = cfg.total_timesteps - start
    if remaining <= 0:
        return start
    rollout = cfg.n_steps * cfg.n_envs
    return start + -(-remaining // rollout) * rollout


def restart_streams(model: Any, cfg: TrainConfig, timesteps: int) -> None:
    """Reseed everything random in training from ``seed + timesteps``: torch, numpy and Python (SB3's
    ``set_random_seed``), the environments' next reset, and the opponents' bots. A run does it at each
    checkpoint (just after the checkpoint is written, with fresh games), and a resumed run does it where it
    starts: so a run killed and resumed continues exactly as the uninterrupted run did."""
    model.set_random_seed(cfg.seed + timesteps)
    if TRAINING_GAMES[cfg.game].self_play:
        model.get_env().env_method("reseed_opponents", timesteps)


def new_model(cfg: TrainConfig, venv: Any, tensorboard_log: str | None) -> Any:
    """The untrained MaskablePPO learner ``cfg`` describes, on ``venv`` (seeded with ``cfg.seed``)."""
    import torch
    from sb3_contrib import MaskablePPO

    from .networks import FactoredPolicy

    return MaskablePPO(
        FactoredPolicy if cfg.policy_kind == "factored" else "MlpPolicy",
        venv,
        learning_rate=cfg.learning_rate,
        n_steps=cfg.n_steps,
        batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs,
        gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm,
        policy_kwargs={
            "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
            "activation_fn": torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU,
        },
        tensorboard_log=tensorboard_log,
        seed=cfg.seed,
        device="cpu",
        verbose=0,
    )


def export_policy(model: Any, cfg: TrainConfig, path: str) -> PolicyNet:
    """Write the model's actor as a weights-only policy file."""
    meta = {"game": cfg.game, "players": cfg.players, **TRAINING_GAMES[cfg.game].policy_meta(cfg),
            "trained_steps": int(model.num_timesteps), "config": cfg.to_dict()}
    net = PolicyNet.from_sb3(model.policy, meta)
    net.save(path)
    return net
