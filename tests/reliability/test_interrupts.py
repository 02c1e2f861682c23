"""Ctrl-C ends every command with one line saying what was kept (for train: how to resume), exit status 130,
no traceback, and no worker process left behind; so does SIGTERM (``kill``, ``timeout``), sent to the command
alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from processes import process_group
from reliability_helpers import AZ_LONG, ENTRY, ROOT, contack_command

TINY = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
        "--eval-every", "0", "--progress", "off"]


def _interrupt(args: list[str], ready, workers: int = 0, cwd: Path = ROOT, timeout: float = 240,
               terminate: bool = False) -> tuple[int, str, str]:
    """Start ``contack ARGS`` in a process group of its own (as a terminal's job), wait until ``ready()``,
    then press Ctrl-C: SIGINT to the whole group, workers included (``terminate``: SIGTERM to the command's
    process alone, as ``kill PID`` and ``timeout`` send it). Check that no worker outlives the command and that
    nothing of the group is left, not even a defunct process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen(contack_command(*args), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=ctrl_c_as_at_a_terminal)
    try:
        deadline = time.time() + timeout
        while not ready() and time.time() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        assert ready(), "the command never got to the point to interrupt"
        # let the worker processes start (the command's own and multiprocessing's helpers are in the group too)
        deadline = time.time() + 60
        while len(process_group(proc.pid)) < 1 + workers and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        before = process_group(proc.pid)
        if terminate:
            os.kill(proc.pid, signal.SIGTERM)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert len(before) >= 1 + workers, "the workers had started"
    workers = {pid for pid, (_, command) in before.items() if pid != proc.pid and "resource_tracker" not in command}
    alive = {pid for pid, (state, _) in process_group(proc.pid).items() if state != "Z"}
    assert not workers & alive, "a worker outlived the command"
    # multiprocessing's resource tracker ends when the command has ended (its pipe closes),
    # and whatever exits after the command is reaped by init: all soon after.
    deadline = time.time() + 10
    while process_group(proc.pid) and time.time() < deadline:
        time.sleep(0.2)
    assert process_group(proc.pid) == {}, "processes left behind"
    return proc.returncode, out, err


def ctrl_c_as_at_a_terminal() -> None:
    """In the child, before the command starts: Ctrl-C's default action, as a shell gives a command it starts in
    the foreground. A test suite run as a background job (``cmd &``) inherits SIGINT ignored, and Python keeps an
    ignored SIGINT ignored: the command would never see the key."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _after(seconds: float):
    start = time.time()
    return lambda: time.time() - start > seconds


def _one_clean_line(code: int, err: str, message: str) -> None:
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_in_evaluate(workers):
    # Far more games than 7 s can play (60 games of mcts:300 against random once took 8 s, and ended before
    # the key): the command must still be running when Ctrl-C comes.
    code, out, err = _interrupt(["evaluate", "--agents", "mcts:3000,random", "--games", "600", "--seed", "1",
                                 "--workers", workers], _after(6), workers=int(workers) if workers != "1" else 0)
    _one_clean_line(code, err, "contack evaluate: interrupted; nothing was written")


def test_sigterm_to_evaluate_ends_its_workers_as_ctrl_c_does():
    code, out, err = _interrupt(["evaluate", "--agents", "mcts:3000,random", "--games", "600", "--seed", "1",
                                 "--workers", "2"], _after(6), workers=2, terminate=True)
    _one_clean_line(code, err, "contack evaluate: interrupted; nothing was written")


def test_ctrl_c_in_simulate_keeps_the_old_records_and_leaves_no_temporary_file(tmp_path):
    # the records go into a temporary file as the games end (ready: it is there), and replace --out only at the end
    out = tmp_path / "games.jsonl"
    old = '{"format": "contack-record/1", "game": "contack", "note": "an earlier run"}\n'
    out.write_text(old)
    code, _, err = _interrupt(["simulate", "--agents", "mcts:300", "--games", "600", "--seed", "1", "--out",
                               str(out)], lambda: any(p.name.startswith(".tmp-") for p in tmp_path.iterdir()))
    _one_clean_line(code, err, "contack simulate: interrupted; --out is as it was")
    assert out.read_text() == old and [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]


@pytest.mark.parametrize("seat", ["0", "1"])
def test_ctrl_c_in_play_at_the_prompt_and_while_a_bot_thinks(seat):
    # Seat 1: the bot (mcts with a huge budget) moves first and is thinking when Ctrl-C comes.
    code, out, err = _interrupt(["play", "--agents", "mcts:1000000", "--seat", seat, "--seed", "1"], _after(5))
    _one_clean_line(code, err, "contack play: interrupted; the game is not saved")
    assert "Game seed 1" in out


# With subprocess environments a Ctrl-C that lands while the trainer reads a worker's reply (more likely on a
# loaded machine) left the pipe out of step, and closing the workers then hung or failed (training.train ends
# them instead: tests/training/test_train.py).
@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_ctrl_c_in_train_says_how_to_resume_and_the_resume_works(tmp_path, vec_env):
    out = tmp_path / "run"
    code, _, err = _interrupt(["train", "--out", str(out), "--total-timesteps", "1000000", "--checkpoint-every", "128",
                               "--snapshot-every", "128", "--vec-env", vec_env, *TINY],
                              lambda: (out / "checkpoint.zip").exists(), workers=2 if vec_env == "subproc" else 0)
    _one_clean_line(code, err, "contack train: interrupted; ")
    assert f"continue it with `contack train --resume --out {out}`" in err
    steps = int(err.split("last checkpoint, ")[1].split(" timesteps")[0])
    assert steps >= 128
    resumed = subprocess.run(contack_command("train", "--out", out, "--resume", "--total-timesteps", str(steps + 128),
                                             "--progress", "off"), cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert resumed.returncode == 0, resumed.stderr
    assert not list(out.rglob(".tmp-*"))


def test_ctrl_c_in_az_training_with_workers_says_how_to_resume_and_the_resume_works(tmp_path):
    out = tmp_path / "run"
    code, _, err = _interrupt(["train", "--out", str(out), *AZ_LONG], lambda: (out / "state.json").exists(), workers=2)
    _one_clean_line(code, err, "contack train: interrupted; ")
    assert f"continue it with `contack train --resume --out {out}`" in err
    iteration = int(err.split("last checkpoint, iteration ")[1].split(";")[0])
    assert iteration >= 1
    resumed = subprocess.run(contack_command("train", "--out", out, "--resume", "--iterations", str(iteration + 1)),
                             cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert resumed.returncode == 0, resumed.stderr
    assert not list(out.rglob(".tmp-*"))


def test_ctrl_c_in_train_before_the_first_checkpoint_says_there_is_nothing_to_resume(tmp_path):
    out = tmp_path / "run"
    code, _, err = _interrupt(["train", "--out", str(out), "--total-timesteps", "1000000", "--checkpoint-every",
                               "1000000", *TINY], lambda: (out / "config.toml").exists())
    _one_clean_line(code, err, "no checkpoint was written yet, so there is nothing to resume")


def test_after_an_interrupt_an_object_it_left_half_built_fails_silently_as_it_is_collected():
    # Ctrl-C inside a ZipFile's constructor leaves one whose __del__ fails on the way out ("Exception ignored"
    # and a traceback after the command's one line): once the command has said it was interrupted, quiet.
    script = ("from contack_env.cli_support import quiet_exit_after_interrupt\n"
              "class HalfBuilt:\n    def __del__(self): raise AttributeError('_writing')\n"
              "HalfBuilt()\nquiet_exit_after_interrupt()\nHalfBuilt()\n")
    err = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60).stderr
    assert err.count("Exception ignored") == 1, err  # the first, before the call, is still reported


# Ctrl-C while a command is still starting: the key lands while the command line's modules load (most of the
# second a command takes to start), made certain here by pressing it from inside the import of one of them.
_KEY_DURING_IMPORT = """
import importlib.abc, os, signal, sys
class PressCtrlC(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "contack_env.cli.train":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, PressCtrlC())
"""


def test_ctrl_c_while_the_command_line_loads_gives_one_line_and_status_130():
    done = subprocess.run([sys.executable, "-c", _KEY_DURING_IMPORT + ENTRY, "replay", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          preexec_fn=ctrl_c_as_at_a_terminal)
    _one_clean_line(done.returncode, done.stderr, "contack: interrupted while starting; nothing was done")
    assert done.stdout == ""  # the command never ran


def test_ctrl_c_while_the_options_are_read_gives_one_line_and_status_130(monkeypatch, capsys):
    import contack_env.cli as cli

    def pressed() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parsers", pressed)
    try:
        code = cli.main(["replay", "--help"])
    except KeyboardInterrupt:  # (caught: it would stop the whole test session)
        pytest.fail("Ctrl-C while the options were read left contack_env.cli.main as a KeyboardInterrupt")
    assert code == 130
    assert capsys.readouterr().err.strip() == "contack: interrupted while starting; nothing was done"


@pytest.mark.parametrize("before", ["default", "ignored"])
def test_a_program_that_imports_the_command_line_keeps_ctrl_c_as_it_was(before):
    # the start-up handler is the command's own: once the modules are loaded, Ctrl-C is KeyboardInterrupt again
    # (or still ignored, as a background job has it)
    script = ("import signal\n"
              f"if {before == 'ignored'}: signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
              "was = signal.getsignal(signal.SIGINT)\n"
              "import contack_env.cli\n"
              "assert signal.getsignal(signal.SIGINT) is was, signal.getsignal(signal.SIGINT)\n"
              "print('kept')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=ctrl_c_as_at_a_terminal)
    assert done.stdout == "kept\n", done.stderr
