"""A worker process killed from outside (as the system kills one when memory runs out) ends the command with one
line saying so and what was kept, exit status 1, no traceback, rather than a wait without end or a message
blaming the disk; no process is left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import time

from processes import process_group
from reliability_helpers import AZ_LONG, ROOT, contack_command

LOST = "a worker process ended in the middle of its work"
PPO_LONG = ["--total-timesteps", "1000000", "--n-envs", "2", "--vec-env", "subproc", "--n-steps", "64", "--batch-size",
            "64", "--n-epochs", "1", "--net-arch", "16", "--checkpoint-every", "128", "--eval-every", "0",
            "--progress", "off"]


def _workers(main: int) -> list[int]:
    """The command's worker processes: not multiprocessing's resource tracker, whose loss the workers would
    report in their own way."""
    return [pid for pid, (state, command) in process_group(main).items()
            if pid != main and state != "Z" and "resource_tracker" not in command]


def _kill_a_worker(args: list[str], ready, timeout: float = 240) -> tuple[int, str]:
    """Start ``contack ARGS`` in a process group of its own, wait until ``ready()`` and a worker runs, kill the
    worker (SIGKILL); the exit status and standard error, once nothing of the group is left."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(contack_command(*args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    try:
        deadline = time.time() + timeout
        while not (ready() and _workers(proc.pid)) and time.time() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        victims = _workers(proc.pid)
        assert ready() and victims, "no worker ran"
        os.kill(victims[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    deadline = time.time() + 10
    while process_group(proc.pid) and time.time() < deadline:
        time.sleep(0.2)
    assert process_group(proc.pid) == {}, "processes left behind"
    return proc.returncode, err


def _one_line(code: int, err: str, *parts: str) -> None:
    assert code == 1, err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and all(part in lines[0] for part in parts), err


def test_evaluate_with_workers():
    started = time.time()
    code, err = _kill_a_worker(["evaluate", "--agents", "mcts:3000,random", "--games", "600", "--seed", "1",
                                "--workers", "2", "--progress", "off"], lambda: time.time() - started > 6)
    _one_line(code, err, f"contack evaluate: {LOST}", "nothing was written")


def test_az_training_with_workers_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    code, err = _kill_a_worker(["train", "--out", str(out), *AZ_LONG], lambda: (out / "state.json").exists())
    _one_line(code, err, f"contack train: {LOST}", f"continue it with `contack train --resume --out {out}`")


def test_ppo_training_with_subprocess_environments_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    code, err = _kill_a_worker(["train", "--out", str(out), *PPO_LONG], lambda: (out / "checkpoint.zip").exists())
    _one_line(code, err, f"contack train: {LOST}", f"continue it with `contack train --resume --out {out}`")
    assert "cannot write" not in err
