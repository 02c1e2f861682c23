import errno
import json
import sys

import pytest

from contack_env.cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("game,players", [("contack", p) for p in range(2, 8)] + [("solitaire1", 1), ("solitaire2", 1)])
def test_simulate_trace_records_replay_clean(tmp_path, capsys, game, players):
    out = tmp_path / "games.jsonl"
    code, stdout, _ = _run(
        capsys, "simulate", "--game", game, "--players", str(players), "--agents", "random,greedy" if players == 2 else "random",
        "--games", "3", "--seed", "5", "--trace", "--out", str(out),
    )
    assert code == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    records = [json.loads(line) for line in lines]
    assert all(r["format"] == "contack-record/1" and r["game"] == game for r in records)
    assert all("legal" in e for r in records for h in r["hands"] for e in h["events"] if e["type"] == "place")
    assert f"wrote 3 records to {out}" in stdout

    code, stdout, _ = _run(capsys, "replay", "--check", str(out))
    assert code == 0
    assert stdout.splitlines()[-1] == "3 passed, 0 failed"


def test_simulate_plays_contactix_on_the_board_asked_for_and_its_records_replay(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    code, stdout, _ = _run(capsys, "simulate", "--game", "contactix", "--board-size", "5", "--swap", "--agents",
                           "random,two_distance", "--games", "4", "--seed", "7", "--out", str(out))
    assert code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in records] == [7, 8, 9, 10]
    assert all(r["format"] == "contactix-record/1" and r["size"] == 5 and r["swap"] for r in records)
    assert all(r["agents"] == ["random", "two_distance"] for r in records)
    # Black's random moves come from each game's seed: not every game is the same one.
    assert len({json.dumps(r["moves"]) for r in records}) > 1
    lines = stdout.splitlines()
    assert lines[0] == "4 games of contactix, 5x5 board, swap rule on, seeds 7..10"
    black_wins = sum(r["winner"] == "black" for r in records)
    assert lines[2].split() == ["0", "black", "random", str(black_wins), f"{black_wins / 4:.3f}"]
    assert lines[3].split() == ["1", "white", "two_distance", str(4 - black_wins), f"{(4 - black_wins) / 4:.3f}"]
    assert lines[4] == f"mean moves {sum(len(r['moves']) for r in records) / 4:.1f}"
    code, stdout, _ = _run(capsys, "replay", "--check", str(out))
    assert code == 0
    assert stdout.splitlines()[-1] == "4 passed, 0 failed"


def test_simulate_rule_options_reach_the_records(tmp_path, capsys):
    out = tmp_path / "g.jsonl"
    code, _, _ = _run(capsys, "simulate", "--players", "3", "--games", "1", "--seed", "0", "--hands", "2",
                      "--enclosed-end", "never", "--out", str(out))
    assert code == 0
    record = json.loads(out.read_text())
    assert record["rules"] == {"hands": 2, "enclosed_end": "never"}
    assert len(record["hands"]) == 2


def test_replay_check_reports_a_broken_record_and_exits_1(tmp_path, capsys):
    out = tmp_path / "g.jsonl"
    assert _run(capsys, "simulate", "--players", "2", "--games", "2", "--seed", "1", "--out", str(out))[0] == 0
    first, second = out.read_text().splitlines()
    bad = json.loads(second)
    bad["scores"][0] += 1
    out.write_text(first + "\n" + json.dumps(bad) + "\n")
    code, stdout, _ = _run(capsys, "replay", "--check", str(out))
    assert code == 1
    true_scores = json.loads(second)["scores"]
    # Per record exactly "OK <file>:<n>" or "FAIL <where>: <why>", then the counts.
    assert stdout.splitlines() == [
        f"OK {out}:1",
        f"FAIL {out}:2 scores: the game ends with scores {json.dumps(true_scores)}, not {json.dumps(bad['scores'])}",
        "1 passed, 1 failed",
    ]


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--players", "8"], "2 to 7 players"),
        (["--players", "1"], "2 to 7 players"),
        (["--agents", "clever"], "unknown agent 'clever'"),
        (["--agents", "random,random,random", "--players", "2"], "one per seat"),
        (["--game", "solitaire1", "--players", "2"], "solitaire, played by 1 player"),
        (["--game", "chess"], "invalid choice: 'chess'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--enclosed-end", "sometimes"], "invalid choice: 'sometimes'"),
        (["--board-size", "5"], "--board-size is an option of --game contactix, not of contack"),
        (["--game", "solitaire1", "--swap"], "--swap is an option of --game contactix, not of solitaire1"),
        (["--game", "contactix", "--board-size", "2"], "board_size is a whole number 3..19; got 2"),
        (["--game", "contactix", "--players", "3"], "CON-TAC-TIX is played by 2 players; got 3"),
        (["--game", "contactix", "--agents", "greedy"], "unknown agent 'greedy' for contactix"),
        (["--game", "contactix", "--trace"], "--trace is an option of contack and the solitaires"),
        (["--game", "solitaire2", "--hands", "2"], "--hands is an option of --game contack, not of solitaire2"),
        (["--game", "contactix", "--enclosed-end", "never"], "--enclosed-end is an option of --game contack, not of contactix"),
        (["--game", "solitaire1", "--swap", "--board-size", "7"], "--board-size and --swap are options of --game contactix, not of solitaire1"),
        (["--hands", "0"], "--hands: a game has 1 to 100 hands (the rules play 3); got 0"),
        (["--hands", "1000000"], "--hands: a game has 1 to 100 hands (the rules play 3); got 1000000"),
    ],
)
def test_simulate_rejects_bad_arguments_saying_what_is_allowed(tmp_path, capsys, argv, message):
    base = ["simulate", "--games", "1", "--seed", "0", "--out", str(tmp_path / "x.jsonl")]
    with pytest.raises(SystemExit) as exc:
        main(base + argv)
    assert exc.value.code != 0
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    # `contack replay --check F | head -1`: the pipe's reader leaves before the command has written. No traceback,
    # and the status a shell gives a command that SIGPIPE ended.
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--agents", "random", "--players", "2", "--games", "50", "--seed", "1", "--hands", "1",
                 "--out", str(records)]) == 0
    for command in (["replay", "--check", str(records)],  # printing
                    ["simulate", "--agents", "random", "--games", "20", "--seed", "1", "--out", "/dev/stdout"]):  # writing
        proc = subprocess.Popen([sys.executable, "-m", "contack_env.cli", *command], cwd=root, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(root)})
        proc.stdout.close()  # before the command has started: its first write finds no reader
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 141, err
        assert err == "", err


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_an_output_with_no_room_is_one_line_not_a_traceback(tmp_path):
    # `contack ... > file` on a full disk: the printed lines cannot be written. The command's own files are
    # written (and reported) before; what it prints is lost, and it says so in one line, exit status 1.
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    records = tmp_path / "games.jsonl"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "contack_env.cli", "simulate", "--agents", "random", "--games", "2",
                               "--seed", "1", "--hands", "1", "--out", str(records)], cwd=root, stdout=full,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "contack simulate: cannot write the standard output: No space left on device\n"
    assert len(records.read_text().splitlines()) == 2


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_help_that_cannot_be_written_is_reported_not_lost(tmp_path):
    # argparse's --help swallows a failed write of its text: the command must not then exit 0 having shown nothing.
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "contack_env.cli", "train", "--help"], cwd=root, stdout=full,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr == "contack train: cannot write the standard output: No space left on device\n"


@pytest.mark.parametrize("code, words", [(errno.EINVAL, "Invalid argument"), (errno.EAGAIN, "Resource temporarily unavailable"),
                                          (errno.EBADF, "Bad file descriptor")])
def test_any_failing_write_of_the_output_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys, code, words):
    # Standard output that fails otherwise than by filling up (a device's error, a non-blocking pipe that is
    # full, a descriptor closed under the process): one line naming the error, exit status 1.
    class Failing:
        def write(self, text):
            raise OSError(code, words)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Failing())
    records = tmp_path / "games.jsonl"
    assert main(["simulate", "--agents", "random", "--games", "1", "--seed", "1", "--hands", "1", "--out", str(records)]) == 1
    assert capsys.readouterr().err == f"contack simulate: cannot write the standard output: {words}\n"
    assert len(records.read_text().splitlines()) == 1  # the command's own file was written before


def test_an_error_without_a_file_name_elsewhere_is_not_taken_for_the_output(tmp_path, monkeypatch):
    # Only a write to standard output is reported as the output's: another OSError, even a full disk's without
    # a file name, keeps its traceback, where "cannot write the standard output" would send the reader after
    # the wrong thing.
    import contack_env.cli.simulate as simulate

    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(simulate, "run", broken)
    with pytest.raises(OSError, match="No space left on device"):
        main(["simulate", "--agents", "random", "--games", "1", "--seed", "1", "--out", str(tmp_path / "g.jsonl")])


def test_an_error_of_the_games_in_simulate_is_not_taken_for_a_failed_write(tmp_path, monkeypatch, capsys):
    # the games are played while --out is being written: an agent's own file failing is not "cannot write --out"
    import agents.arena

    real = agents.arena.simulate_records

    def failing(*args, **kwargs):
        games = real(*args, **kwargs)
        yield next(games)
        raise OSError(errno.EIO, "Input/output error", "/data/opening_book.bin")

    monkeypatch.setattr(agents.arena, "simulate_records", failing)
    out = tmp_path / "g.jsonl"
    out.write_text('{"game": "contack"}\n')
    with pytest.raises(OSError, match="opening_book.bin"):
        main(["simulate", "--agents", "random", "--games", "3", "--seed", "1", "--out", str(out)])
    assert "cannot write" not in capsys.readouterr().err
    assert out.read_text() == '{"game": "contack"}\n' and [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


@pytest.mark.parametrize("failing", ["--json", "--records"])
def test_an_evaluation_output_that_cannot_be_written_costs_the_other_nothing(tmp_path, monkeypatch, capsys, failing):
    # a full disk under --json once ended the command before --records was written: every game played was lost,
    # and the message named no file
    import importlib

    def full(path, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    # (the module, not agents.evaluate, which is the package's function of that name)
    monkeypatch.setattr(importlib.import_module("agents.evaluate" if failing == "--json" else "contack_env.records"),
                        "write_json" if failing == "--json" else "write_records", full)
    paths = {"--json": tmp_path / "ev.json", "--records": tmp_path / "games.jsonl"}
    assert main(["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--hands", "1",
                 "--progress", "off", "--json", str(paths["--json"]), "--records", str(paths["--records"])]) == 1
    out, err = capsys.readouterr()
    assert err == f"contack evaluate: cannot write {paths[failing]}: No space left on device\n"
    kept = paths["--records" if failing == "--json" else "--json"]
    assert f"{kept}" in out.splitlines()[-1] and not paths[failing].exists()
    if kept.suffix == ".jsonl":
        assert len(kept.read_text().splitlines()) == 2
    else:
        assert json.loads(kept.read_text())["games"] == 2


def test_a_failing_output_after_a_file_is_written_is_not_blamed_on_the_file(tmp_path, monkeypatch, capsys):
    # `contack evaluate --json F`: the JSON is written, then "wrote F" cannot be printed. The command's own
    # `except OSError` for its files must not report that as F's failure.
    class FailingOnWrote:
        def write(self, text):
            if text.startswith("wrote"):
                raise OSError(errno.EIO, "Input/output error")
            return len(text)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", FailingOnWrote())
    target = tmp_path / "ev.json"
    assert main(["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--hands", "1",
                 "--json", str(target)]) == 1
    assert capsys.readouterr().err == "contack evaluate: cannot write the standard output: Input/output error\n"
    assert json.loads(target.read_text())["games"] == 2


def test_an_output_naming_a_model_the_agents_read_is_refused(tmp_path, capsys):
    # `--agents ppo:m.npz ... --out m.npz` would replace the policy file with records.
    import shutil
    from pathlib import Path

    model = tmp_path / "m.npz"
    shutil.copy(Path(__file__).resolve().parents[2] / "models" / "contack_2p_az.npz", model)
    kept = model.read_bytes()
    for argv in (["simulate", "--players", "2", "--agents", f"az:{model}:0,random", "--games", "1", "--seed", "0",
                  "--out", str(model)],
                 ["evaluate", "--players", "2", "--agents", f"az:{model}:0,random", "--games", "2", "--seed", "0",
                  "--records", str(model)]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2 and "is a file this command reads" in capsys.readouterr().err
    assert model.read_bytes() == kept


def test_a_broken_pipe_that_is_not_the_output_is_not_silenced(monkeypatch):
    # A worker's pipe breaking is a failure to report, not a reader of the output going away.
    import contack_env.cli as cli

    def broken(argv):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli, "_run", broken)
    with pytest.raises(BrokenPipeError):
        cli.main(["replay", "--check", "x"])


@pytest.mark.parametrize("game,argv,expected", [
    ("contack", ["--hands", "2", "--enclosed-end", "never"], {"hands": 2, "enclosed_end": "never"}),
    ("contactix", ["--board-size", "7", "--swap"], {"board_size": 7, "swap": True}),
    ("contactix", [], {}),
    ("solitaire2", [], {}),
])
def test_the_rule_option_flags_give_the_games_rule_options_the_rest_at_their_defaults(game, argv, expected):
    import argparse

    from contack_env.cli.rule_options import add_rule_options, rule_options
    from contack_env.games import GAMES, RuleOptions

    parser = argparse.ArgumentParser()
    add_rule_options(parser)
    assert rule_options(parser, parser.parse_args(argv), GAMES[game]) == RuleOptions(**expected)
