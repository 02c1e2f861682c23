"""What a researcher reads while a run trains: the evaluation schedule, the progress bar and TensorBoard."""

import csv

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from training.config import TrainConfig
from training.learner import final_timesteps
from training.train import main

# Rollouts of 2 x 64 = 128 steps: --total-timesteps 300 trains 384 (three rollouts).
OPTIONS = ["--total-timesteps", "300", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
           "--net-arch", "16,16", "--eval-every", "150", "--eval-games", "2", "--eval-opponents", "random",
           "--opponents", "random", "--features", "none", "--checkpoint-every", "1000"]


def test_final_timesteps_rounds_up_to_whole_rollouts():
    cfg = TrainConfig(total_timesteps=20_000, n_envs=8, n_steps=512)
    assert final_timesteps(0, cfg) == 20_480
    assert final_timesteps(4096, cfg) == 20_480
    assert final_timesteps(100, cfg) == 100 + 5 * 4096  # a resumed run counts whole rollouts from where it stopped
    assert final_timesteps(20_480, cfg) == 20_480
    assert final_timesteps(0, TrainConfig(total_timesteps=8192, n_envs=8, n_steps=512)) == 8192


def test_one_evaluation_per_point_the_last_at_the_steps_trained_and_tensorboard_agrees(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["--out", str(out), "--progress", "on", *OPTIONS]) == 0
    with open(out / "eval.csv", newline="") as f:
        steps = [int(row["timesteps"]) for row in csv.DictReader(f)]
    # Every 150 below 300, at the first rollout boundary past it (after that rollout's update: 256, not 150 in
    # the middle of the second rollout), then the end: not 300 and again 384.
    assert steps == [0, 256, 384]
    captured = capsys.readouterr()
    # Off a terminal (pytest captures standard error), plain lines counting to the steps PPO will train, no bar.
    lines = [line for line in captured.err.splitlines() if line.startswith("train: ")]
    assert lines[0] == "train: 0/384 steps (0%)" and lines[-1].startswith("train: 384 steps in "), lines
    assert "/300" not in captured.err and "\r" not in captured.err, captured.err[-500:]
    assert "timesteps=384 vs random" in captured.out

    (events,) = [p.parent for p in (out / "tb").rglob("events.out.tfevents*")]
    acc = EventAccumulator(str(events))
    acc.Reload()
    tags = acc.Tags()["scalars"]
    assert [e.step for e in acc.Scalars("eval/win_rate_vs_random")] == steps
    # The learner's values keep SB3's steps, one update a rollout, evaluations or not (update 1 written at 256,
    # update 2 at 384), and the last update's values are written at the end (384 again).
    assert [e.step for e in acc.Scalars("train/loss")] == [256, 384, 384]
    for tag in ("rollout/ep_rew_mean", "rollout/ep_len_mean"):
        assert tag in tags, tags
    assert all(e.value > 0 for e in acc.Scalars("rollout/ep_len_mean"))


def test_the_last_evaluation_measures_the_policy_the_run_wrote(tmp_path):
    # 256 steps are exactly two rollouts of 2 x 64: the last evaluation comes after the last update, not inside
    # the last rollout (where the weights are those before it).
    from agents.evaluate import evaluate
    from training.evaluations import EVAL_SEED_OFFSET

    out = tmp_path / "run"
    options = OPTIONS[:]
    options[options.index("--total-timesteps") + 1] = "256"
    options[options.index("--eval-every") + 1] = "128"
    options[options.index("--eval-games") + 1] = "8"
    assert main(["--out", str(out), "--progress", "off", *options]) == 0
    with open(out / "eval.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == [0, 128, 256]
    again = evaluate([f"ppo:{out / 'policy.npz'}", "random"], 8, seed=EVAL_SEED_OFFSET)  # the run's seed is 0
    assert (float(rows[-1]["win_rate"]), float(rows[-1]["mean_score"])) == (
        round(again.entries[0].win_rate, 4), round(again.entries[0].mean_score, 2))


def test_a_runs_tensorboard_writer_flushes_every_few_seconds(tmp_path):
    # torch's default is every 120 s, and that is how long closing the writer could wait after a Ctrl-C that
    # landed while it was handed an event (its thread then sleeps until its next flush): a run took two minutes
    # to end on Ctrl-C
    from training.run_folder import TENSORBOARD_FILE, tensorboard_writer

    writer = tensorboard_writer(str(tmp_path))
    try:
        assert writer.flush_secs <= 5
        writer.add_scalar("x", 1.0, 1)
    finally:
        writer.close()
    assert any(p.name.startswith(TENSORBOARD_FILE) for p in tmp_path.iterdir())
