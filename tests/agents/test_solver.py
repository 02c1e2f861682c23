"""The exact solitaire solver: its winning lines win, it is a ceiling for every player, unknown when out of time."""

import json
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.evaluate import evaluate
from agents.solver import LOST, UNKNOWN, WON, deal, solve, solve_deals
from contack_env.cli import main


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_a_winning_line_wins_the_deal_when_replayed(game):
    solutions = solve_deals(game, 8, seed=3, time_limit=5.0)
    won = [s for s in solutions if s.result == WON]
    assert won
    for s in won:
        state = deal(game, 3, s.deal)
        for code in s.line:
            assert code in state.legal_codes()
            state.play_code(code)
        assert state.done and state.won


def test_every_deal_a_player_wins_is_winnable_and_some_are_not():
    # Solitaire No. 1: a quarter or so of the deals can be won at all; a player who wins one proves it can.
    ev = evaluate(["mcts:30", "greedy"], 30, seed=5, game="solitaire1")
    won_by_a_player = {r.deal for r in ev.results if r.winners}
    verdicts = {s.deal: s.result for s in solve_deals("solitaire1", 30, seed=5, time_limit=5.0)}
    assert won_by_a_player and all(verdicts[d] == WON for d in won_by_a_player)
    assert LOST in verdicts.values()


def test_a_deal_not_settled_in_time_is_unknown():
    hard = next(s for s in solve_deals("solitaire1", 30, seed=1, time_limit=5.0) if s.positions > 600)
    result, line, _ = solve(deal("solitaire1", 1, hard.deal), time_limit=1e-6)
    assert (result, line) == (UNKNOWN, None)


def test_the_command_reports_the_share_of_winnable_deals(capsys):
    assert main(["solve", "--game", "solitaire2", "--games", "3", "--seed", "1", "--time-limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "solitaire2, 3 deals (seed 1)" in out and "winnable" in out
    assert main(["solve", "--game", "solitaire1", "--games", "1", "--seed", "1"]) == 0
    one = capsys.readouterr().out  # deal 1 of seed 1 settles at once (not winnable)
    assert one.startswith("solitaire1, 1 deal (seed 1)") and "of the 1 deal settled;" in one and one.count("deals") == 0
    with pytest.raises(SystemExit):
        main(["solve", "--game", "solitaire1", "--games", "0", "--seed", "1"])
    assert "--games must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "--game", "solitaire1", "--games", "2", "--seed", "-1"])
    assert "--seed: a seed is a whole number 0.." in capsys.readouterr().err
    with pytest.raises(SystemExit):  # deal 1 would be dealt from 2**63, a seed no other command takes
        main(["solve", "--game", "solitaire1", "--games", "2", "--seed", str(2**63 - 1)])
    assert "with 2 deals would play from seeds up to" in capsys.readouterr().err


def _winnable(state) -> bool:
    # The reference: every move tried, nothing remembered, no shortcut.
    if state.done:
        return bool(state.won)
    for code in state.legal_codes():
        child = state.clone()
        child.play_code(code)
        if _winnable(child):
            return True
    return False


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_its_verdicts_on_short_endings_are_an_exhaustive_searchs(game):
    # A "lost" verdict is a claim about every line of play: positions a few tiles from the end of 40 deals
    # (reached by random moves), each solved and searched exhaustively without the solver's memory of lost positions.
    rng = np.random.default_rng(0)
    verdicts = []
    for index in range(200):
        state = deal(game, 11, index)
        while not state.done and len(state.figure) < 18:
            codes = state.legal_codes()
            state.play_code(codes[rng.integers(len(codes))])
        if state.done:
            continue
        result, _, _ = solve(state, time_limit=30.0)
        verdicts.append((result, _winnable(state.clone())))
        if len(verdicts) == 40:
            break
    assert {result for result, _ in verdicts} == {WON, LOST}  # both kinds of verdict are checked
    assert all((result == WON) == winnable for result, winnable in verdicts), verdicts


def _printed_counts_and_share(out: str) -> tuple[tuple[int, int, int], list[float]]:
    counts = re.search(r"winnable (\d+), not winnable (\d+), unknown (\d+)", out)
    share = re.search(r"share winnable ([\d.]+) \[([\d.]+), ([\d.]+)\] of the \d+ deals settled; "
                      r"between ([\d.]+) and ([\d.]+) of all", out)
    return tuple(map(int, counts.groups())), [float(x) for x in share.groups()]


@pytest.mark.parametrize("time_limit", ["5", "1e-6"])  # every deal settled; three of twelve unknown
def test_the_json_holds_what_is_printed_and_each_deals_verdict(tmp_path, capsys, time_limit):
    games, seed = (5, 1) if time_limit == "5" else (12, 1)
    path = tmp_path / "solve.json"
    assert main(["solve", "--game", "solitaire1", "--games", str(games), "--seed", str(seed),
                 "--time-limit", time_limit, "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f"wrote {path}\n")
    data = json.loads(path.read_text())
    assert "seconds" not in json.dumps(data)
    assert (data["game"], data["games"], data["seed"], data["time_limit"]) == ("solitaire1", games, seed,
                                                                              float(time_limit))
    counts, share = _printed_counts_and_share(out)
    assert (data["winnable"], data["not_winnable"], data["unknown"]) == counts
    assert [round(x, 3) for x in [data["share_winnable"], *data["share_winnable_ci95"],
                                  *data["share_winnable_of_all"]]] == share
    # The solver itself, asked directly: the same verdict per deal, the same positions where the deal settled.
    direct = solve_deals("solitaire1", games, seed, float(time_limit))
    names = {WON: "winnable", LOST: "not_winnable", UNKNOWN: "unknown"}
    assert data["deals"] == [{"deal": i, "seed": seed + i, "result": names[s.result],
                              "positions": None if s.result == UNKNOWN else s.positions}
                             for i, s in enumerate(direct)]
    unknown = sum(s.result == UNKNOWN for s in direct)
    assert (unknown == 0) == (time_limit == "5")  # the solver looks at the clock every 512 positions
    won, settled = sum(s.result == WON for s in direct), games - unknown
    assert data["settled"] == settled and data["share_winnable"] == won / settled
    # Wilson's score interval, 95%, written out here from its formula
    p, n, z = won / settled, settled, 1.959964
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert data["share_winnable_ci95"] == pytest.approx([centre - half, centre + half], abs=1e-4)
    assert data["share_winnable_of_all"] == [won / games, (won + unknown) / games]


def test_when_no_deal_settles_the_json_has_no_share(tmp_path, capsys):
    path = tmp_path / "solve.json"
    assert main(["solve", "--game", "solitaire1", "--games", "3", "--seed", "10", "--time-limit", "1e-6",
                 "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "winnable 0, not winnable 0, unknown 3" in out and "share winnable" not in out
    data = json.loads(path.read_text())
    assert (data["settled"], data["share_winnable"], data["share_winnable_ci95"]) == (0, None, None)
    assert data["share_winnable_of_all"] == [0.0, 1.0]
    assert [d["positions"] for d in data["deals"]] == [None] * 3


@pytest.mark.parametrize("limit", ["inf", "nan", "0", "-1"])
def test_the_time_limit_is_a_finite_number_of_seconds(capsys, limit):
    with pytest.raises(SystemExit) as exited:
        main(["solve", "--game", "solitaire1", "--games", "1", "--seed", "0", "--time-limit", limit])
    assert exited.value.code == 2
    assert f"--time-limit must be a finite number of seconds above 0; got {limit}" in capsys.readouterr().err


def test_two_runs_write_the_same_bytes_and_dev_stdout_follows_the_summary(tmp_path, capsys):
    argv = ["solve", "--game", "solitaire2", "--games", "6", "--seed", "4", "--time-limit", "5"]
    for name in ("a.json", "b.json"):
        assert main([*argv, "--json", str(tmp_path / name)]) == 0
    written = (tmp_path / "a.json").read_bytes()
    assert written == (tmp_path / "b.json").read_bytes()
    # Another process, another hash seed, standard output sent to a file (as a shell's `> out.txt` does): the
    # summary, then the same JSON, then the closing line.
    out = tmp_path / "out.txt"
    root = Path(__file__).resolve().parents[2]
    contack = shlex.join([sys.executable, "-m", "contack_env.cli", *argv, "--json", "/dev/stdout"])
    command = f"unset PYTHONUNBUFFERED; exec > '{out}'; exec {contack}"
    proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "7"})
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    first, start = text.splitlines()[0], text.index("{\n")
    assert first.startswith("solitaire2, 6 deals (seed 4)") and text.endswith("}\nwrote /dev/stdout\n")
    assert text[start:-len("wrote /dev/stdout\n")].encode() == written


def test_a_json_path_that_cannot_be_written_is_a_usage_error_before_any_deal(tmp_path, capsys, monkeypatch):
    import agents.solver

    monkeypatch.setattr(agents.solver, "solve_deals", lambda *a: pytest.fail("solved before the path was checked"))
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", "--game", "solitaire1", "--games", "2", "--seed", "1", "--json", str(tmp_path)])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert f"--json: {tmp_path} is a folder" in captured.err and "Traceback" not in captured.err + captured.out
