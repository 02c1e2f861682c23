"""``contack train --backend rllib``: a short run through the command line, its policy file played by
``contack evaluate``, and the export checked against the RLlib module's own logits."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

from agents.policy_file import PolicyNet  # noqa: E402
from contack_env import contack_v0  # noqa: E402
from training.config import TrainConfig  # noqa: E402

SMALL = ["--players", "2", "--n-steps", "64", "--n-envs", "2", "--batch-size", "64", "--n-epochs", "2",
         "--net-arch", "32,16", "--features", "none", "--opponents", "random,self", "--seed", "3"]


def contack(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "contack_env.cli", *args], capture_output=True, text=True,
                          timeout=540, cwd=cwd)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("rllib") / "run")
    done = contack("train", "--backend", "rllib", "--total-timesteps", "256", "--out", out, *SMALL)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == f"wrote {os.path.join(out, 'policy.npz')}"
    return out


def test_run_writes_a_policy_file_config_and_progress(run_dir: str) -> None:
    net = PolicyNet.load(os.path.join(run_dir, "policy.npz"), game="contack")
    assert [w.shape for w, _ in net.layers] == [(787, 32), (32, 16)] and net.head[0].shape == (16, 105)
    assert net.meta["backend"] == "rllib"
    cfg = TrainConfig.load(os.path.join(run_dir, "config.toml"))
    assert (cfg.net_arch, cfg.opponents, cfg.seed, cfg.total_timesteps) == ([32, 16], "random,self", 3, 256)
    with open(os.path.join(run_dir, "progress.csv")) as f:
        rows = list(csv.DictReader(f))
    # Two iterations of 64 steps x 2 envs (RLlib may sample a step or two more per iteration), then it stops;
    # the file is the policy after the last.
    steps = [int(r["timesteps"]) for r in rows]
    assert len(steps) == 2 and 128 <= steps[0] < 256 <= steps[1] < 256 + 8, steps
    assert net.meta["trained_steps"] == steps[-1]
    assert all(float(r["steps_per_s"]) > 0 for r in rows)


def test_policy_plays_in_evaluate(run_dir: str) -> None:
    spec = f"ppo:{os.path.join(run_dir, 'policy.npz')}"
    done = contack("evaluate", "--agents", f"{spec},random", "--players", "2", "--games", "4", "--seed", "0")
    assert done.returncode == 0, done.stderr
    assert spec in done.stdout and "random" in done.stdout


def test_a_used_folder_is_refused(run_dir: str) -> None:
    done = contack("train", "--backend", "rllib", "--total-timesteps", "64", "--out", run_dir, *SMALL)
    assert done.returncode == 1
    assert "already holds a run" in done.stderr and "Traceback" not in done.stderr


def test_bad_settings_exit_2_before_any_work(tmp_path) -> None:
    out = str(tmp_path / "run")
    for args, said in ((["--policy", "factored"], "factored"), (["--game", "contactix"], "contactix"),
                       (["--env-runners", "-1"], "--env-runners"), (["--resume"], "--resume")):
        done = contack("train", "--backend", "rllib", "--out", out, *args)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
    assert not os.path.exists(out)


def test_export_matches_the_trained_module_logits() -> None:
    """The numpy forward pass of the exported file gives the torch logits of the RLlib module the learner
    trained, masked the same way, on observations of real games."""
    import ray
    import torch
    from ray.rllib.core.columns import Columns

    from training.rllib.env import LEARNER
    from training.rllib.module import ppo_config
    from training.rllib.train import export_policy

    cfg = TrainConfig.from_dict({"players": 3, "n_steps": 32, "n_envs": 1, "batch_size": 32, "n_epochs": 1,
                                 "net_arch": [24, 12], "activation": "relu", "features": "none",
                                 "opponents": "random", "total_timesteps": 32})
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        algo = ppo_config(cfg, env_runners=0).build_algo()
        try:
            before = export_policy(algo, cfg, 0)
            algo.train()
            net = export_policy(algo, cfg, 32)
            learner_weights = algo.learner_group.get_weights()[LEARNER]
            module = algo.get_module(LEARNER)
            env = contack_v0.env(num_players=3)
            env.reset(seed=5)
            obs, masks = [], []
            rng = np.random.default_rng(0)
            for _ in range(12):
                o = env.observe(env.agent_selection)
                obs.append(o["observation"])
                masks.append(o["action_mask"])
                env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
            x, m = np.array(obs, dtype=np.float32), np.array(masks, dtype=np.float32)
            with torch.no_grad():
                out = module.forward_inference({Columns.OBS: {"observations": torch.from_numpy(x),
                                                              "action_mask": torch.from_numpy(m)}})
            torch_logits = out[Columns.ACTION_DIST_INPUTS].numpy()
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    assert net.activation == "relu"
    # The file holds the learner's trained weights, not those it started from.
    head_w = learner_weights["pi.net.mlp.0.weight"]
    np.testing.assert_allclose(net.head[0], np.asarray(head_w).T, rtol=0, atol=0)
    assert not np.allclose(net.head[0], before.head[0])
    legal = m.astype(bool)
    numpy_logits = net.logits(x)
    np.testing.assert_allclose(numpy_logits[legal], torch_logits[legal], rtol=1e-5, atol=1e-5)
    assert (torch_logits[~legal] < -1e30).all()  # masked out by the module, as PolicyNet.act masks them
    for row in range(len(x)):
        assert net.act(x[row], m[row]) == int(np.argmax(torch_logits[row]))
