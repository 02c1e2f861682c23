"""The training loop of ``contack train --backend rllib`` (``training.rllib.module`` has the PPO settings).

What a run writes in ``--out``:

    .contack-run         the run marker (``training.run_folder``), written first
    config.toml          the whole configuration (repeat with ``contack train --backend rllib --config FILE``)
    policy.npz           the learner's actor after the latest iteration, weights only (``ppo:DIR/policy.npz``)
    progress.csv         per iteration: timesteps, seconds, steps_per_s, episode_return_mean

RLlib trains in iterations of ``n_steps x n_envs`` env steps (each one a decision of the learner), so a run
trains ``total_timesteps`` rounded up to whole iterations (RLlib's env runners may sample a few steps more
than an iteration asks, at episode ends). Self-play: the pool's "self" plays the learner as it
is at the start, then its snapshots, one every ``snapshot_every`` timesteps (the latest ``keep_snapshots``),
which the trainer sends to every environment of every env runner. ``RAY_ADDRESS`` makes ``ray.init`` join a
running cluster, where ``--env-runners K`` spreads the env runners.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from agents.policy_file import PolicyNet
from contack_env.atomic import write_text

from ..config import TrainConfig
from ..run_folder import check_new_run_folder, claim_folder, new_run_id
from .env import LEARNER
from .export import policy_net
from .module import check_rllib_config, ppo_config

PROGRESS_HEADER = "timesteps,seconds,steps_per_s,episode_return_mean\n"


def export_policy(algo: Any, cfg: TrainConfig, timesteps: int) -> PolicyNet:
    """The learning module's actor as a ``PolicyNet`` with the run's metadata."""
    meta = {"game": cfg.game, "players": cfg.players, "features": cfg.features, "trained_steps": int(timesteps),
            "backend": "rllib", "config": cfg.to_dict()}
    return policy_net(algo.get_module(LEARNER), meta)


def send_to_envs(algo: Any, method: str, net: PolicyNet) -> None:
    """Call ``method(net)`` on every environment of every env runner (the local one too)."""
    def call(runner: Any) -> None:
        vector = getattr(runner, "env", None)
        for env in getattr(vector, "envs", None) or []:
            getattr(env.unwrapped, method)(net)

    algo.env_runner_group.foreach_env_runner(call)


def env_steps(result: dict[str, Any], before: int) -> int:
    """The env steps sampled so far (``before`` when an iteration reports none: its env runners returned no
    samples within RLlib's ``sample_timeout_s`` on a loaded machine)."""
    return int(result.get("num_env_steps_sampled_lifetime", before))


def train(cfg: TrainConfig, out: str, env_runners: int = 0, progress: bool | None = None) -> str:
    """Train; return the path of the policy file written."""
    import ray
    import torch

    check_rllib_config(cfg)
    check_new_run_folder(out)  # a run of this backend (its progress.csv, no checkpoint) is refused too
    claim_folder(out, new_run_id())
    config_path = os.path.join(out, "config.toml")
    cfg.save(config_path)
    torch.set_num_threads(cfg.torch_threads)  # the learner's (and the local env runner's) process
    show = sys.stderr.isatty() if progress is None else progress
    started_ray = not ray.is_initialized()
    if started_ray:  # RAY_ADDRESS, when set, joins that cluster
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                 configure_logging=False)
    policy_path = os.path.join(out, "policy.npz")
    progress_path = os.path.join(out, "progress.csv")
    rows = PROGRESS_HEADER
    algo = ppo_config(cfg, env_runners).build_algo()
    try:
        send_to_envs(algo, "set_latest", export_policy(algo, cfg, 0))
        steps, next_snapshot, start = 0, cfg.snapshot_every, time.perf_counter()
        while steps < cfg.total_timesteps:
            tick = time.perf_counter()
            result = algo.train()
            done = env_steps(result, steps)
            rate = (done - steps) / max(time.perf_counter() - tick, 1e-9)
            steps = done
            net = export_policy(algo, cfg, steps)
            net.save(policy_path)
            if steps >= next_snapshot:
                send_to_envs(algo, "add_snapshot", net)
                next_snapshot += cfg.snapshot_every
            ret = result.get("env_runners", {}).get("episode_return_mean", float("nan"))
            rows += f"{steps},{time.perf_counter() - start:.1f},{rate:.1f},{ret:.4f}\n"
            write_text(progress_path, rows)
            if show:
                print(f"timesteps={steps}/{cfg.total_timesteps} steps/s={rate:.0f} episode_return_mean={ret:.3f}",
                      file=sys.stderr, flush=True)
    finally:
        algo.stop()
        if started_ray:
            ray.shutdown()
    return policy_path
