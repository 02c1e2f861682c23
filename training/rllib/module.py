"""RLlib's PPO configuration for ``contack train --backend rllib`` (new API stack, multi-agent).

One learning module, ``learner`` (``training.rllib.env.LEARNER``): RLlib's ``ActionMaskingTorchRLModule`` with
separate actor and critic MLPs of ``net_arch`` and ``activation`` and a single Linear policy head, the network a
policy file holds (``training.rllib.export``). The ``TrainConfig`` fields map onto RLlib's PPO settings:

    n_steps x n_envs -> train_batch_size_per_learner      batch_size -> minibatch_size
    n_envs           -> num_envs_per_env_runner (each)    n_epochs   -> num_epochs
    learning_rate, gamma                                  gae_lambda -> lambda_
    clip_range -> clip_param                              ent_coef   -> entropy_coeff
    vf_coef -> vf_loss_coeff                              max_grad_norm -> grad_clip
    torch_threads -> each env runner's torch threads      seed (+ timesteps when resumed) -> debugging(seed=...)
"""

from __future__ import annotations

from typing import Any

from ..config import TrainConfig

RLLIB_GAMES = ("contack",)


def check_rllib_config(cfg: TrainConfig) -> None:
    """What the RLlib backend does not do, said before any work (``ValueError`` naming the setting)."""
    if cfg.game not in RLLIB_GAMES:
        raise ValueError(f"--backend rllib trains {', '.join(RLLIB_GAMES)}; got game {cfg.game!r} (use the sb3 backend)")
    if cfg.policy == "factored":
        raise ValueError("policy 'factored' is the sb3 backend's network; --backend rllib trains an mlp (--policy mlp or auto)")


def env_config(cfg: TrainConfig, seed: int | None = None) -> dict[str, Any]:
    """What ``ContackMultiAgentEnv`` is built from (its bots seeded from ``seed``, by default the run's)."""
    return {"players": cfg.players, "hands": cfg.hands, "enclosed_end": cfg.enclosed_end, "reward": cfg.reward,
            "opponents": cfg.opponents, "keep_snapshots": cfg.keep_snapshots, "features": cfg.features,
            "seed": cfg.seed if seed is None else seed}


def model_config(cfg: TrainConfig) -> dict[str, Any]:
    return {"fcnet_hiddens": list(cfg.net_arch), "fcnet_activation": cfg.activation, "vf_share_layers": False,
            "head_fcnet_hiddens": []}


def ppo_config(cfg: TrainConfig, env_runners: int = 0, seed: int | None = None) -> Any:
    """The ``PPOConfig`` of a run; ``seed`` (by default the run's) seeds its games, networks and bots."""
    seed = cfg.seed if seed is None else seed
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from .env import LEARNER, ContackMultiAgentEnv, policy_mapping_fn

    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config(cfg))
    return (
        PPOConfig()
        .environment(ContackMultiAgentEnv, env_config=env_config(cfg, seed), disable_env_checking=True)
        .env_runners(num_env_runners=env_runners, num_envs_per_env_runner=cfg.n_envs,
                     # "auto": the iteration's n_steps x n_envs steps shared among the env runners' environments;
                     # no timeout, as RLlib drops the samples of a runner that answers late (a loaded machine).
                     rollout_fragment_length="auto", num_cpus_per_env_runner=1, sample_timeout_s=None)
        .multi_agent(policies={LEARNER}, policy_mapping_fn=policy_mapping_fn, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={LEARNER: spec}))
        .training(train_batch_size_per_learner=cfg.n_steps * cfg.n_envs, minibatch_size=cfg.batch_size,
                  num_epochs=cfg.n_epochs, lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda,
                  clip_param=cfg.clip_range, entropy_coeff=cfg.ent_coef, vf_loss_coeff=cfg.vf_coef,
                  grad_clip=cfg.max_grad_norm)
        .python_environment(extra_python_environs_for_worker={"OMP_NUM_THREADS": str(cfg.torch_threads)})
        .debugging(seed=seed, log_level="ERROR")
    )
