"""``contack evaluate --progress`` off a terminal, and counts in messages ("1 game", not "1 games")."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.progress import Lines, duration, reporter
from contack_env.cli import main
from contack_env.wording import plural

ROOT = Path(__file__).resolve().parents[2]


def _contack(*argv):
    return subprocess.run([sys.executable, "-m", "contack_env.cli", *argv], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)


def test_evaluate_progress_on_prints_plain_lines_to_a_log():
    done = _contack("evaluate", "--agents", "greedy,random", "--games", "4", "--seed", "1", "--progress", "on")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "evaluate: 0/4 games (0%)"
    assert lines[-1].startswith("evaluate: 4 games in ") and lines[-1].endswith(" s")
    assert "\r" not in done.stderr and "Traceback" not in done.stderr  # no bar redrawn in a log


def test_evaluate_progress_off_and_a_short_auto_run_stay_quiet_off_a_terminal():
    for mode in ("off", "auto"):
        done = _contack("evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "1", "--progress", mode)
        assert done.returncode == 0 and done.stderr == "", done.stderr


def test_evaluate_progress_refuses_other_values():
    done = _contack("evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "1", "--progress", "yes")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--progress" in done.stderr and "yes" in done.stderr
    assert all(mode in done.stderr for mode in ("auto", "on", "off"))  # what is allowed (quoting varies by Python)


def test_a_long_batch_reports_every_interval_off_a_terminal():
    now = [0.0]
    out = io.StringIO()
    lines = Lines(100, "evaluate", "game", out, ends=False, interval=30, clock=lambda: now[0])
    for _ in range(100):
        now[0] += 1.0  # a game a second: a line after 30, 60 and 90 games
        lines.update()
    lines.close()
    assert out.getvalue().splitlines() == [
        "evaluate: 30/100 games (30%), 30 s so far, about 1 min 10 s left",
        "evaluate: 60/100 games (60%), 1 min 0 s so far, about 40 s left",
        "evaluate: 90/100 games (90%), 1 min 30 s so far, about 10 s left",
    ]


def test_a_terminal_gets_a_bar():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    bar = reporter(3, "auto", Terminal(), "evaluate", "game")
    assert type(bar).__name__ == "tqdm"
    bar.close()
    assert isinstance(reporter(3, "on", io.StringIO(), "evaluate", "game"), Lines)


def test_duration_and_plural():
    assert [duration(s) for s in (0, 59.4, 60, 185, 3725)] == ["0 s", "59 s", "1 min 0 s", "3 min 5 s", "1 h 2 min"]
    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [plural(2, word) for word in ("batch", "pass", "box")] == ["2 batches", "2 passes", "2 boxes"]
    assert plural(2, "action is", "actions are") == "2 actions are"


def test_a_resumed_count_measures_its_pace_from_where_it_resumed_and_ends_with_the_postfix():
    now = [0.0]
    out = io.StringIO()
    lines = Lines(80, "train az", "iteration", out, ends=True, interval=60, clock=lambda: now[0], initial=40)
    for _ in range(40):
        now[0] += 3.0  # an iteration every 3 s since the resume: a line after 20 of them, 60 s in
        lines.update()
        lines.set_postfix(games=1344, value="0.652")
    lines.close()
    assert out.getvalue().splitlines() == [
        "train az: 40/80 iterations (50%)",
        "train az: 60/80 iterations (75%), 1 min 0 s so far, about 1 min 0 s left; games=1344, value=0.652",
        "train az: 40 iterations in 2 min 0 s (80/80); games=1344, value=0.652",
    ]


@pytest.mark.parametrize("argv,expected", [
    (["evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "4", "--hands", "1"],
     "2 games of contack, 2 players, 1 hand, enclosed_end=1939: 1 deal (seed 4) x 2 seat rotations"),
    (["evaluate", "--game", "solitaire1", "--agents", "greedy", "--games", "1", "--seed", "4"],
     "solitaire1: every agent plays the same 1 deal (seed 4)"),
    (["simulate", "--players", "2", "--agents", "greedy,random", "--games", "1", "--seed", "4", "--hands", "1", "--out", "{out}"],
     "1 game of contack, 2 players, 1 hand, enclosed_end=1939, seed 4"),
])
def test_counts_of_one_are_singular(tmp_path, capsys, argv, expected):
    out = tmp_path / "games.jsonl"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == expected
    if "simulate" in argv:
        assert f"wrote 1 record to {out}" in printed
