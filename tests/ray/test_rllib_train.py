"""``contack train --backend rllib``: a short run through the command line (its policy file played by
``contack evaluate``, its evaluations, curve and TensorBoard logs), and the export checked against the RLlib
module's own logits."""

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
    done = contack("train", "--backend", "rllib", "--total-timesteps", "256", "--out", out, "--eval-every", "128",
                   "--eval-games", "6", "--eval-opponents", "random,greedy", *SMALL)
    assert done.returncode == 0, done.stderr[-3000:]
    # The policy written, then the last evaluation, as an sb3 run ends.
    lines = done.stdout.strip().splitlines()
    assert lines[0] == f"wrote {os.path.join(out, 'policy.npz')}"
    assert [line.split(":")[0].split(" ", 1)[1] for line in lines[1:]] == ["vs random", "vs greedy"]
    return out


def test_run_writes_a_policy_file_config_and_progress(run_dir: str) -> None:
    net = PolicyNet.load(os.path.join(run_dir, "policy.npz"), game="contack")
    assert [w.shape for w, _ in net.layers] == [(787, 32), (32, 16)] and net.head[0].shape == (16, 105)
    assert net.meta["backend"] == "rllib"
    cfg = TrainConfig.load(os.path.join(run_dir, "config.toml"))
    assert (cfg.net_arch, cfg.opponents, cfg.seed, cfg.total_timesteps) == ([32, 16], "random,self", 3, 256)
    with open(os.path.join(run_dir, "config.toml")) as f:  # the way to repeat it names this trainer
        assert "`contack train --backend rllib --config <this file> --out DIR`" in f.readline()
    with open(os.path.join(run_dir, "progress.csv")) as f:
        rows = list(csv.DictReader(f))
    # Two iterations of 64 steps x 2 envs (RLlib may sample a step or two more per iteration), then it stops;
    # the file is the policy after the last.
    steps = [int(r["timesteps"]) for r in rows]
    assert len(steps) == 2 and 128 <= steps[0] < 256 <= steps[1] < 256 + 8, steps
    assert net.meta["trained_steps"] == steps[-1]
    assert all(float(r["steps_per_s"]) > 0 for r in rows)


def progress_steps(run_dir: str) -> list[int]:
    with open(os.path.join(run_dir, "progress.csv")) as f:
        return [int(r["timesteps"]) for r in csv.DictReader(f)]


def test_evaluations_come_at_0_between_iterations_and_at_the_end(run_dir: str) -> None:
    from agents.evaluate import evaluate
    from training.evaluations import EVAL_SEED_OFFSET

    with open(os.path.join(run_dir, "eval.csv")) as f:
        rows = list(csv.DictReader(f))
    first, last = progress_steps(run_dir)
    # --eval-every 128: before training, after the iteration that reached 128, and at the end (past 256).
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows] == [
        (t, bot) for t in (0, first, last) for bot in ("random", "greedy")]
    assert all(int(r["games"]) == 6 and r["agent"] == "policy" for r in rows)
    # The last rows measure the policy the run wrote, over the sb3 runs' evaluation deals (the run's seed is 3).
    for row in rows[-2:]:
        again = evaluate([f"ppo:{os.path.join(run_dir, 'policy.npz')}", row["opponent"]], 6,
                         seed=3 + EVAL_SEED_OFFSET)
        assert (float(row["win_rate"]), float(row["mean_score"])) == (
            round(again.entries[0].win_rate, 4), round(again.entries[0].mean_score, 2))
    with open(os.path.join(run_dir, "learning_curve.png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_tensorboard_has_each_iteration_and_each_evaluation(run_dir: str) -> None:
    from pathlib import Path

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    (events,) = [p.parent for p in (Path(run_dir) / "tb").rglob("events.out.tfevents*")]
    acc = EventAccumulator(str(events))
    acc.Reload()
    steps = progress_steps(run_dir)
    for tag in ("train/policy_loss", "train/vf_loss", "train/entropy", "time/steps_per_s"):
        assert [e.step for e in acc.Scalars(tag)] == steps, tag
    assert all(e.value > 0 for e in acc.Scalars("train/entropy"))
    for bot in ("random", "greedy"):
        assert [e.step for e in acc.Scalars(f"eval/win_rate_vs_{bot}")] == [0, *steps]


def test_policy_plays_in_evaluate(run_dir: str) -> None:
    spec = f"ppo:{os.path.join(run_dir, 'policy.npz')}"
    done = contack("evaluate", "--agents", f"{spec},random", "--players", "2", "--games", "4", "--seed", "0")
    assert done.returncode == 0, done.stderr
    assert spec in done.stdout and "random" in done.stdout


def test_a_used_folder_is_refused(run_dir: str) -> None:
    done = contack("train", "--backend", "rllib", "--total-timesteps", "64", "--out", run_dir, *SMALL)
    assert done.returncode == 1
    assert "already holds a --backend rllib run (rllib_checkpoint_" in done.stderr
    assert "continue it with --backend rllib --resume" in done.stderr and "Traceback" not in done.stderr


def test_bad_settings_exit_2_before_any_work(tmp_path) -> None:
    out = str(tmp_path / "run")
    for args, said in ((["--policy", "factored"], "factored"), (["--game", "contactix"], "contactix"),
                       (["--env-runners", "-1"], "--env-runners")):
        done = contack("train", "--backend", "rllib", "--out", out, *args)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)
    done = contack("train", "--backend", "rllib", "--resume", "--out", out)
    assert done.returncode == 1 and "nothing to resume" in done.stderr and "Traceback" not in done.stderr
    assert not os.path.exists(out)
    # A run of another trainer, or an rllib run made before checkpoints: --resume says what it is.
    from training.run_folder import write_marker

    for name, said in (("checkpoint.zip", "a run of the default (sb3) backend (checkpoint.zip): continue it without "
                        "--backend rllib"), ("checkpoint.pt", "a run of --algorithm az (checkpoint.pt)"),
                       ("progress.csv", "a --backend rllib run with no checkpoint (made before such runs kept "
                        "checkpoints), which cannot be continued")):
        folder = tmp_path / name
        folder.mkdir()
        write_marker(str(folder), "r1")
        (folder / name).write_bytes(b"")
        done = contack("train", "--backend", "rllib", "--resume", "--out", str(folder))
        assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_killed_run_resumes_from_its_checkpoint(tmp_path, monkeypatch) -> None:
    """Killed at its checkpoint of 514 steps (after that evaluation and progress row), the run resumes from the
    one before (257): the weights and RLlib's counters come back, the rows made after it are dropped and made
    again, the snapshots it named are sent to the environments again, and what a kill left half-written is
    removed."""
    from training.rllib import train as rllib_train

    cfg = TrainConfig.from_dict({"players": 2, "n_steps": 64, "n_envs": 2, "batch_size": 64, "n_epochs": 1,
                                 "net_arch": [16], "features": "none", "opponents": "random,self", "seed": 5,
                                 "total_timesteps": 640, "eval_every": 128, "eval_games": 2,
                                 "eval_opponents": ["random"], "checkpoint_every": 256, "snapshot_every": 256})
    out = tmp_path / "run"
    original = rllib_train._Session.checkpoint
    saved = {}

    def killed_past_300(self, steps):
        if steps > 300:
            raise KeyboardInterrupt
        original(self, steps)
        saved["policy"] = PolicyNet.load(str(out / "policy.npz"))

    monkeypatch.setattr(rllib_train._Session, "checkpoint", killed_past_300)
    with pytest.raises(KeyboardInterrupt):
        rllib_train.train(cfg, str(out), progress=False)
    monkeypatch.undo()
    (first,) = rllib_train.RLlibRun(str(out)).checkpoints()  # the one at 0 removed once 257's was written
    at = int(first.rsplit("_", 1)[1])
    assert 256 <= at < 300
    with open(out / "eval.csv") as f:
        assert [int(r["timesteps"]) for r in csv.DictReader(f)][-1] > 500  # made after the checkpoint
    half = out / ".tmp-0badcaferllib_checkpoint_0000000514"  # as a kill mid-write leaves it
    half.mkdir()
    (out / "notes.txt").write_text("mine")

    exported, sent = [], []
    export, send = rllib_train.export_policy, rllib_train.send_to_envs

    def exporting(*args):
        exported.append(export(*args))
        return exported[-1]

    def sending(algo, method, net):
        sent.append((method, net.meta["trained_steps"]))
        send(algo, method, net)

    monkeypatch.setattr(rllib_train, "export_policy", exporting)  # the first is the learner restored
    monkeypatch.setattr(rllib_train, "send_to_envs", sending)
    assert rllib_train.train(None, str(out), progress=False, resume=True) == str(out / "policy.npz")
    monkeypatch.undo()
    run = rllib_train.RLlibRun(str(out))
    (last,) = run.checkpoints()
    state = run.read_state()
    assert state["timesteps"] == int(last.rsplit("_", 1)[1]) >= 640 and not half.exists()
    assert (out / "notes.txt").read_text() == "mine"
    with open(out / "eval.csv") as f:
        evaluated = [int(r["timesteps"]) for r in csv.DictReader(f)]
    steps = progress_steps(str(out))
    # Each point once, in order: the rows after the checkpoint were dropped and made again.
    assert evaluated == sorted(set(evaluated)) and evaluated[0] == 0 and evaluated[-1] == steps[-1]
    assert steps == sorted(set(steps)) and at in steps and len(steps) == 5
    # RLlib's counters came back (the steps go on from the checkpoint's), and so did the weights: the learner
    # the resumed session starts from is the one checkpointed, exactly.
    assert steps[2] - at < 140
    restored, checkpointed = exported[0], saved["policy"]
    for (w, b), (w0, b0) in zip([*restored.layers, restored.head], [*checkpointed.layers, checkpointed.head]):
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
    # The pool the checkpoint held is sent back first (the snapshots of 0 and 257), then the new ones.
    assert sent == [("add_snapshot", 0), ("add_snapshot", at), ("add_snapshot", steps[3])]
    assert state["snapshots"] == [f"snap_{t:010d}.npz" for t in (0, at, steps[3])]
    assert all((out / "snapshots" / name).is_file() for name in state["snapshots"])


def test_a_run_killed_in_its_first_iteration_resumes_from_the_checkpoint_at_0(tmp_path, monkeypatch) -> None:
    from training.rllib import train as rllib_train

    cfg = TrainConfig.from_dict({"players": 2, "n_steps": 64, "n_envs": 1, "batch_size": 64, "n_epochs": 1,
                                 "net_arch": [16], "features": "none", "opponents": "random", "seed": 2,
                                 "total_timesteps": 64, "eval_every": 0})
    out = tmp_path / "run"

    def killed(self, steps, show):
        raise KeyboardInterrupt

    monkeypatch.setattr(rllib_train._Session, "iteration", killed)
    with pytest.raises(KeyboardInterrupt):
        rllib_train.train(cfg, str(out), progress=False)
    monkeypatch.undo()
    assert rllib_train.RLlibRun(str(out)).checkpoints() == ["rllib_checkpoint_0000000000"]
    done = contack("train", "--backend", "rllib", "--resume", "--out", str(out), "--progress", "off")
    assert done.returncode == 0, done.stderr[-3000:]
    assert [t >= 64 for t in progress_steps(str(out))] == [True]


def test_the_command_line_extends_a_finished_run_and_refuses_a_damaged_checkpoint(run_dir: str, tmp_path) -> None:
    import shutil

    from training.rllib.train import RLlibRun
    from training.run_folder import read_marker

    copy, damaged = tmp_path / "copy", tmp_path / "damaged"
    shutil.copytree(run_dir, copy)
    shutil.copytree(run_dir, damaged)
    # The copy lost its marker (as `cp -r run/* copy/` does): the resume marks it with the run's own id.
    run_id = RLlibRun(str(copy)).read_state()["run_id"]
    (copy / ".contack-run").unlink()
    done = contack("train", "--backend", "rllib", "--resume", "--total-timesteps", "384", "--out", str(copy))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "the run's total_timesteps changes from 256 to 384" in done.stderr
    assert done.stdout.startswith(f"wrote {copy / 'policy.npz'}")
    steps = progress_steps(str(copy))
    assert steps[:2] == progress_steps(run_dir) and len(steps) == 3 and steps[2] >= 384
    assert TrainConfig.load(str(copy / "config.toml")).total_timesteps == 384
    assert RLlibRun(str(copy)).checkpoints() == [f"rllib_checkpoint_{steps[2]:010d}"]
    assert read_marker(str(copy)) == run_id == RLlibRun(str(copy)).read_state()["run_id"]
    # A checkpoint RLlib cannot read back (a truncated pickle): a message, and the folder as it was.
    (checkpoint,) = RLlibRun(str(damaged)).checkpoints()
    state = damaged / checkpoint / "learner_group" / "learner" / "state.pkl"
    state.write_bytes(state.read_bytes()[:100])

    def contents():
        return {str(p.relative_to(damaged)): p.read_bytes() if p.is_file() else None for p in damaged.rglob("*")}

    before = contents()
    done = contack("train", "--backend", "rllib", "--resume", "--total-timesteps", "384", "--out", str(damaged))
    assert done.returncode == 1 and "cannot be restored" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "changes from" not in done.stderr  # config.toml keeps its total: nothing says otherwise
    assert contents() == before


def test_a_resume_refuses_a_config_toml_edited_since_the_run_started(run_dir: str, tmp_path) -> None:
    import shutil

    edited = tmp_path / "edited"
    shutil.copytree(run_dir, edited)
    config = edited / "config.toml"
    config.write_text(config.read_text().replace("players = 2", "players = 3"))

    def contents():
        return {str(p.relative_to(edited)): p.read_bytes() if p.is_file() else None for p in edited.rglob("*")}

    before = contents()
    done = contack("train", "--backend", "rllib", "--resume", "--total-timesteps", "384", "--out", str(edited))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "config.toml was changed since the run started (players is 3 there, the run's is 2)" in done.stderr
    assert contents() == before


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


def test_a_failure_to_build_the_algorithm_shuts_down_the_ray_the_run_started(tmp_path, monkeypatch) -> None:
    import ray

    from training.rllib import train as rllib_train

    cfg = TrainConfig.from_dict({"players": 2, "n_steps": 64, "n_envs": 1, "batch_size": 64, "n_epochs": 1,
                                 "net_arch": [16], "features": "none", "opponents": "random", "seed": 2,
                                 "total_timesteps": 64, "eval_every": 0})

    class Unbuildable:
        def build_algo(self):
            raise RuntimeError("no algorithm today")

    monkeypatch.setattr(rllib_train, "ppo_config", lambda *args, **kwargs: Unbuildable())
    assert not ray.is_initialized()
    with pytest.raises(RuntimeError, match="no algorithm today"):
        rllib_train.train(cfg, str(tmp_path / "run"), progress=False)
    assert not ray.is_initialized()
