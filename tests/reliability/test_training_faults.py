"""Fault injection: `kill -9` a training run at random moments, mid-write included, and `--resume` it, five
times; the run ends as the uninterrupted run with the same seed does: the same evaluation rows, the same
weights, nothing left half-written, and steps never going back."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from reliability_helpers import ROOT

from agents.policy_file import PolicyNet

TOTAL = 2048
RUN = ["--total-timesteps", str(TOTAL), "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
       "--net-arch", "16", "--checkpoint-every", "256", "--snapshot-every", "256", "--eval-every", "512",
       "--eval-games", "2", "--eval-opponents", "random", "--opponents", "greedy,random,self", "--seed", "9",
       "--progress", "off"]
# The killed sessions write slowly: each atomic write waits a little between writing its temporary file and
# replacing the target, so that a kill often lands mid-write (what must never leave half a file).
SLOW_WRITES = """
import sys, time
import contack_env.atomic as atomic
finish = atomic.atomic_path.__exit__
def slow(self, *exc):
    time.sleep(0.15)
    return finish(self, *exc)
atomic.atomic_path.__exit__ = slow
from contack_env.cli import main
sys.exit(main())
"""


def _start(out: Path, slow: bool) -> subprocess.Popen:
    resume = ["--resume"] if (out / "checkpoint.zip").exists() else []
    code = SLOW_WRITES if slow else "import sys; from contack_env.cli import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, "train", "--out", str(out), *resume, *RUN], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _temporaries(out: Path) -> list[Path]:
    return [p for p in out.rglob(".tmp-*")]


def _rows(out: Path) -> list[dict[str, str]]:
    with open(out / "eval.csv", newline="") as f:
        return [{k: v for k, v in row.items() if k != "wall_s"} for row in csv.DictReader(f)]


def _steps(out: Path) -> int:
    """The timesteps of the checkpoint on disk (0: none yet). Not state.json's: it is written just before the
    checkpoint, so a kill between the two leaves it one checkpoint ahead."""
    try:
        with zipfile.ZipFile(out / "checkpoint.zip") as archive:
            return json.loads(archive.read("data"))["num_timesteps"]
    except (FileNotFoundError, zipfile.BadZipFile):
        return 0


def _weights(path: Path) -> list[np.ndarray]:
    net = PolicyNet.load(path)
    return [w for layer in [*net.layers, net.head] for w in layer]


def test_a_run_killed_five_times_and_resumed_ends_as_the_uninterrupted_run(tmp_path):
    reference = tmp_path / "reference"
    started = time.time()
    done = _start(reference, slow=False)
    first = None  # when the first checkpoint was there: before it, a session has nothing to lose but time
    while done.poll() is None and time.time() < started + 600:
        if first is None and (reference / "checkpoint.zip").exists():
            first = time.time() - started
        time.sleep(0.01)
    assert done.wait(timeout=60) == 0, done.communicate()[1]
    duration = time.time() - started  # a whole session, start-up included
    first = duration / 2 if first is None else first

    out = tmp_path / "killed"
    rnd = random.Random(12)
    steps_seen = [0]
    mid_write = 0
    temporaries_seen = False  # a write under way was seen at least once: the writes go through temporary files
    for kill in range(5):
        proc = _start(out, slow=True)
        # At a random moment of the session (of what is left of the run); three times of five at the next write
        # after it (mid-write).
        left = 0.3 + 0.7 * (1 - steps_seen[-1] / TOTAL)
        # Start-up and the first checkpoint take a good part of so short a run: while no checkpoint exists, the
        # moment is drawn after the reference's first one.
        if steps_seen[-1] == 0:
            # Wait for this session's first checkpoint (its start-up is slow under load), then a moment after it.
            deadline = time.time() + 300
            while proc.poll() is None and not (out / "checkpoint.zip").exists() and time.time() < deadline:
                time.sleep(0.01)
            at = time.time() + rnd.uniform(0.0, 0.5) * (duration - first)
        else:
            at = time.time() + rnd.uniform(0.3, 0.9) * duration * left
        wait_for_write = kill in (0, 2, 3)
        while proc.poll() is None and time.time() < at + (60 if wait_for_write else 0):
            writing = bool(_temporaries(out))
            temporaries_seen = temporaries_seen or writing
            if time.time() >= at and (not wait_for_write or writing):
                break
            time.sleep(0.005)
        mid_write += bool(wait_for_write and _temporaries(out))
        if proc.poll() is not None:  # on a loaded machine the session can finish the run first: no kill to test
            pytest.skip(f"session {kill} ended before its kill (timing; the in-process kill tests below check the same)")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        steps_seen.append(_steps(out))
        assert steps_seen[-1] >= steps_seen[-2], f"the checkpoints went back: {steps_seen}"
    # Not timing: every checkpoint is written slowly through a temporary file, and the sessions wrote some.
    assert temporaries_seen or steps_seen[-1] == 0, "no write was seen going through a temporary file"
    if mid_write < 2 or steps_seen[-1] == 0:  # timing on a loaded machine, not the property under test
        pytest.skip(f"{mid_write} kills landed mid-write and {steps_seen[-1]} steps were checkpointed: too few to test "
                    "(the in-process kill tests below check the same)")

    last = _start(out, slow=False)
    assert last.wait(timeout=600) == 0, last.communicate()[1]
    assert _temporaries(out) == [], "a resumed run clears what the killed writes left"
    rows = _rows(out)
    assert rows == _rows(reference)
    assert [int(r["timesteps"]) for r in rows] == [0, 512, 1024, 1536, 2048]
    assert all(np.array_equal(a, b) for a, b in zip(_weights(out / "policy.npz"), _weights(reference / "policy.npz")))
    assert json.loads((out / "state.json").read_text())["timesteps"] == TOTAL
    print("checkpoints at the kills:", steps_seen[1:])


@pytest.mark.parametrize("game", ["contack", "contactix", "solitaire1"])
def test_a_run_stopped_between_checkpoints_and_resumed_is_the_uninterrupted_run(tmp_path, monkeypatch, game):
    # In-process and for every kind of game: stopped at 448 steps (the last checkpoint at 384), resumed to the end.
    from training.config import TrainConfig
    from training.monitor import TrainingMonitor
    from training.train import train

    values = dict(total_timesteps=768, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=[16],
                  snapshot_every=128, checkpoint_every=128, eval_every=256, eval_games=2, seed=4)
    extra = {"contack": dict(opponents="greedy,random,self", eval_opponents=["random"]),
             "contactix": {}, "solitaire1": dict(eval_opponents=["random"])}[game]
    train(TrainConfig.for_game(game, **values, **extra), str(tmp_path / "whole"), progress=False)

    on_step = TrainingMonitor._on_step

    def stop_at_448(monitor):
        if monitor.num_timesteps >= 448:
            raise KeyboardInterrupt
        return on_step(monitor)

    monkeypatch.setattr(TrainingMonitor, "_on_step", stop_at_448)
    with pytest.raises(KeyboardInterrupt):
        train(TrainConfig.for_game(game, **values, **extra), str(tmp_path / "stopped"), progress=False)
    monkeypatch.undo()
    assert json.loads((tmp_path / "stopped" / "state.json").read_text())["timesteps"] == 384
    train(None, str(tmp_path / "stopped"), resume=True, progress=False)
    assert _rows(tmp_path / "stopped") == _rows(tmp_path / "whole")
    assert len(_rows(tmp_path / "whole")) >= 4
    assert all(np.array_equal(a, b) for a, b in zip(_weights(tmp_path / "stopped" / "policy.npz"),
                                                    _weights(tmp_path / "whole" / "policy.npz")))
