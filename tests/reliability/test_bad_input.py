"""Bad input on the command line and in files: a message saying what was wrong and what is allowed, an exit
status, and never a traceback; output paths are checked before any game is played."""

from __future__ import annotations

import json
import re
import time

import numpy as np
import pytest


@pytest.mark.parametrize("args", [
    ["simulate", "--games", "1", "--out", "x.jsonl"],
    ["evaluate", "--agents", "random,greedy", "--games", "2"],
    ["play"],
    ["demo", "--games", "2"],
])
def test_a_negative_seed_is_a_usage_error(tmp_path, cli, args):
    cli(*args, "--seed", "-1", cwd=tmp_path).assert_clean_failure(2, "a seed is a whole number 0..9223372036854775807; got -1")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (["demo", "--games", "0"], "--games is at least 1; got 0"),  # found while the command runs
    (["demo", "--workers", "0"], "--workers is at least 1; got 0"),
    (["demo", "--models", __file__], f"--models names the folder of the shipped models; {__file__} is a file"),
    (["demo", "--models", ""], "--models names the folder of the shipped models; got an empty name"),
    (["train", "--players", "9"], "players: Contack is played by 2 to 7 players; got 9"),
    (["evaluate", "--agents", "random", "--game", "solitaire1", "--hands", "2", "--games", "2", "--seed", "1"],
     "--hands is an option of --game contack, not of solitaire1"),
    (["simulate", "--games", "x"], "argument --games"),  # found by argparse itself
    # once said by the top-level parser, with its usage, as `contack: error:`
    (["simulate", "--agents", "random", "--games", "1", "--seed", "1", "--out", "x.jsonl", "extra"],
     "unrecognized arguments: extra"),
    (["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--bogus"],
     "unrecognized arguments: --bogus"),
])
def test_a_usage_error_shows_the_usage_of_the_command_given(tmp_path, cli, args, message):
    result = cli(*args, cwd=tmp_path)
    result.assert_clean_failure(2, f"contack {args[0]}: error: {message}")
    assert result.err.startswith(f"usage: contack {args[0]} ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, option", [
    (["simulate", "--seed", "1", "--out", "x.jsonl", "--games"], "--games"),
    (["simulate", "--seed", "1", "--games", "1", "--out", "x.jsonl", "--players"], "--players"),
    (["evaluate", "--agents", "random,greedy", "--seed", "1", "--games"], "--games"),
    (["evaluate", "--agents", "random,greedy", "--seed", "1", "--games", "2", "--workers"], "--workers"),
    (["solve", "--game", "solitaire1", "--seed", "1", "--games"], "--games"),
    (["render", "x.jsonl", "--out", "x.png", "--every"], "--every"),
    (["play", "--seat"], "--seat"),
    (["simulate", "--seed", "1", "--games", "1", "--out", "x.jsonl", "--hands"], "--hands"),
    (["simulate", "--game", "contactix", "--seed", "1", "--games", "1", "--out", "x.jsonl", "--board-size"],
     "--board-size"),
    (["serve", "--port"], "--port"),
    (["demo", "--games"], "--games"),
])
@pytest.mark.parametrize("text", ["2.5", "many"])
def test_a_count_that_is_not_a_whole_number_is_refused_in_the_words_of_every_command(tmp_path, cli, args, option, text):
    # as contack train says it, not Python's "invalid int value"
    cli(*args, text, cwd=tmp_path).assert_clean_failure(2, f"argument {option}: {text!r} is not a valid whole number")
    assert list(tmp_path.iterdir()) == []


def test_a_count_may_be_written_as_train_reads_one(tmp_path, cli):
    # 2e0 games from seed 1e0: what contack train takes for its counts, every command takes
    ok = cli("simulate", "--game", "solitaire1", "--games", "2e0", "--seed", "1e0", "--out", "x.jsonl", cwd=tmp_path)
    assert ok.code == 0 and "wrote 2 records" in ok.out
    assert cli("replay", "x.jsonl", "--check", cwd=tmp_path).code == 0
    # the rule options too (they took Python's int() alone)
    ok = cli("simulate", "--hands", "2e0", "--games", "1", "--seed", "1", "--out", "h.jsonl", cwd=tmp_path)
    assert ok.code == 0 and "2 hands" in ok.out
    ok = cli("simulate", "--game", "contactix", "--board-size", "5e0", "--games", "1", "--seed", "1", "--out", "b.jsonl",
             cwd=tmp_path)
    assert ok.code == 0 and "5x5 board" in ok.out


def test_a_seed_that_is_not_a_number_is_a_usage_error(tmp_path, cli):
    cli("simulate", "--games", "1", "--seed", "abc", "--out", "x.jsonl", cwd=tmp_path).assert_clean_failure(
        2, "argument --seed: a seed is a whole number")


def test_json_into_a_missing_folder_is_made_before_the_games(tmp_path, cli):
    # The README's and docs/baselines.md's commands write into folders that may not exist yet.
    result = cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--json", "out/sub/x.json",
                 "--records", "out/r.jsonl", cwd=tmp_path)
    assert result.code == 0, result.err
    assert json.loads((tmp_path / "out" / "sub" / "x.json").read_text())["games"] == 2
    assert (tmp_path / "out" / "r.jsonl").is_file()


@pytest.mark.parametrize("option", ["--json", "--records"])
def test_an_output_that_cannot_be_written_is_refused_before_any_game(tmp_path, cli, option):
    (tmp_path / "file").write_text("")
    started = time.time()
    # mcts:100000 would take minutes a game: the refusal must come before the first one.
    result = cli("evaluate", "--agents", "mcts:100000,greedy", "--games", "2", "--seed", "1", option, "file/x.json",
                 cwd=tmp_path, timeout=120)
    result.assert_clean_failure(2, f"{option}: file/x.json lies under a file")
    assert time.time() - started < 100
    (tmp_path / "dir").mkdir()
    cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", option, "dir", cwd=tmp_path
        ).assert_clean_failure(2, "dir is a folder; name a file")


def test_every_json_summary_must_be_named_json_so_that_it_cannot_replace_records(tmp_path, cli):
    # evaluate's and solve's --json took any name (ratings' did not): `--json games.jsonl` replaced the records.
    assert cli("simulate", "--game", "solitaire1", "--games", "2", "--seed", "3", "--out", "games.jsonl",
               cwd=tmp_path).code == 0
    records = (tmp_path / "games.jsonl").read_bytes()
    (tmp_path / "kept.jsonl").write_bytes(records)
    for args in (["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1"],
                 ["solve", "--game", "solitaire1", "--games", "1", "--seed", "1"],
                 ["ratings", "games.jsonl"]):
        for name in ("kept.jsonl", "out.txt"):
            cli(*args, "--json", name, cwd=tmp_path).assert_clean_failure(2, f"--json: {name!r} must end in .json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "kept.jsonl"]
    assert (tmp_path / "kept.jsonl").read_bytes() == records


def test_an_output_named_by_its_ending_alone_is_refused(tmp_path, cli):
    # "--json .json" wrote a hidden file, where a name was meant (render said so already)
    (tmp_path / "sub").mkdir()
    cli("ratings", "--json", "sub/.JSON", "r.jsonl", cwd=tmp_path).assert_clean_failure(
        2, "--json: sub/.JSON names a file before its ending, e.g. sub/out.JSON")
    for args, option, name in ((["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1"], "--json", ".json"),
                               (["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1"], "--records",
                                "sub/.jsonl"),
                               (["solve", "--game", "solitaire1", "--games", "1", "--seed", "1"], "--json", ".json"),
                               (["simulate", "--game", "solitaire1", "--games", "1", "--seed", "1"], "--out", ".jsonl")):
        cli(*args, option, name, cwd=tmp_path).assert_clean_failure(2, f"{option}: {name} names a file before its ending")
    assert list((tmp_path / "sub").iterdir()) == []


def test_a_file_named_dash_is_the_standard_input_and_no_outputs_name(tmp_path, cli):
    # simulate --out - wrote a file named "-"; the standard output holds the command's table, so data is not sent
    # there by that name (/dev/stdout writes it after the table)
    for args in (["simulate", "--game", "solitaire1", "--games", "2", "--seed", "3", "--out", "-"],
                 ["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--json", "-"],
                 ["ratings", "x.jsonl", "--json", "-"]):
        cli(*args, cwd=tmp_path).assert_clean_failure(2, "- would be a file named '-': name a file, or /dev/stdout")
    assert list(tmp_path.iterdir()) == []
    assert cli("simulate", "--game", "solitaire1", "--games", "2", "--seed", "3", "--out", "g.jsonl", cwd=tmp_path).code == 0
    records = (tmp_path / "g.jsonl").read_text()
    checked = cli("replay", "--check", "-", stdin=records, cwd=tmp_path)
    assert checked.code == 0 and checked.out.splitlines()[-1] == "2 passed, 0 failed", checked.out
    drawn = cli("render", "-", "--index", "1", "--out", "g.png", "--every", "50", stdin=records, cwd=tmp_path)
    assert drawn.code == 0 and (tmp_path / "g.png").stat().st_size > 0


def test_simulate_out_is_checked_before_the_games(tmp_path, cli):
    (tmp_path / "file").write_text("")
    cli("simulate", "--games", "1", "--seed", "1", "--agents", "mcts:100000", "--out", "file/x.jsonl", cwd=tmp_path,
        timeout=120).assert_clean_failure(2, "--out: file/x.jsonl lies under a file")


def test_an_output_named_as_a_folder_is_refused_before_the_games_and_a_refusal_makes_no_folder(tmp_path, cli):
    # `--json out/`: the name of a folder, missing or not; found only at the write, it lost every game played
    started = time.time()
    cli("evaluate", "--agents", "mcts:100000,greedy", "--games", "2", "--seed", "1", "--json", "out/", cwd=tmp_path,
        timeout=120).assert_clean_failure(2, "--json: out/ names a folder; name a file (in it, e.g. out/out.json)")
    cli("simulate", "--games", "1", "--seed", "1", "--out", "results/", cwd=tmp_path, timeout=120
        ).assert_clean_failure(2, "--out: results/ names a folder")
    assert time.time() - started < 100
    # a later option refused: the folder of an earlier one's path is not made
    (tmp_path / "notes.txt").write_text("mine")
    cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--json", "new/sub/x.json",
        "--records", "notes.txt", cwd=tmp_path).assert_clean_failure(2, "--records: notes.txt is there")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--json", "new/sub/x.json",
               cwd=tmp_path).code == 0
    assert json.loads((tmp_path / "new" / "sub" / "x.json").read_text())["games"] == 2  # the write makes it


JSON_OUTPUTS = {  # every option that writes JSON, with the rest of its command
    "evaluate --json": ["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "{seed}", "--json"],
    "evaluate --records": ["evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "{seed}", "--records"],
    "simulate --out": ["simulate", "--games", "1", "--seed", "{seed}", "--out"],
    "solve --json": ["solve", "--game", "solitaire1", "--games", "1", "--seed", "{seed}", "--json"],
    "ratings --json": ["ratings", "{records}", "--json"],
}


def _json_output(tmp_path, cli, name, seed, path):
    if name == "ratings --json" and not (tmp_path / "m.jsonl").exists():
        assert cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--records", "m.jsonl",
                   cwd=tmp_path).code == 0
    argv = [a.format(seed=seed, records=tmp_path / "m.jsonl") for a in JSON_OUTPUTS[name]]
    return cli(*argv, path, cwd=tmp_path)


@pytest.mark.parametrize("name", list(JSON_OUTPUTS))
@pytest.mark.parametrize("kind, content, why", [
    ("model", None, "is a zip archive, as a model file (.npz) is"),
    ("text", b"# my notes\n{not json}\n", "is text that does not begin as a JSON object does (it begins '# my notes\\n"),
    ("toml", b"[build-system]\nrequires = []\n", "is text that does not begin as a JSON object does"),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00", "holds binary data, not text"),
    ("utf-16", '{"a": 1}'.encode("utf-16"), "is UTF-16 text, not UTF-8"),
    ("latin-1", b"{" + b" " * 4094 + b"\xff more", "is not UTF-8 text"),  # a bad byte, not a cut character
    ("notebook", b'{\n "cells": [],\n "metadata": {}\n}\n',
     "is a JSON object that is no JSON output of a command (theirs begin with the key \"game\" or a record's "
     "\"format\"; it begins '{\\n \"cells\": [],\\n \"me')"),
    ("manifest", b'\xef\xbb\xbf  {"name": "x", "game": "contack"}', "is a JSON object that is no JSON output of a"),
    ("run marker", b'{"format": "contack-run/1", "run_id": "x"}', "is a JSON object that is no JSON output of a"),
])
def test_a_json_output_never_replaces_a_file_that_is_not_json(tmp_path, cli, name, kind, content, why):
    # A slip of the name (--json models/contack_2p_az.npz) must not lose a model, a script or a picture.
    target = tmp_path / ("out.json" if name.endswith("--json") else "target")  # a summary's name ends in .json
    if content is None:
        np.savez(target.with_suffix(".npz"), w=np.arange(3))
        content = target.with_suffix(".npz").read_bytes()
    target.write_bytes(content)
    option = name.split()[1]
    _json_output(tmp_path, cli, name, 1, target).assert_clean_failure(
        2, f"{option}: {target} is there and {why}")
    assert target.read_bytes() == content


@pytest.mark.parametrize("name", list(JSON_OUTPUTS))
def test_a_json_output_replaces_its_own_earlier_output_or_an_empty_file(tmp_path, cli, name):
    target = tmp_path / "out.json"
    target.write_bytes(b"")
    assert _json_output(tmp_path, cli, name, 1, target).code == 0
    first = target.read_text()
    assert first.lstrip()[0] in "{["
    second = _json_output(tmp_path, cli, name, 7, target)
    assert second.code == 0, second.err
    if name != "ratings --json":  # the same records: the same table
        assert target.read_text() != first  # replaced by the other seed's output
    # only the beginning decides: a file whose first character is cut in two at the read's end still passes
    target.write_bytes(b"{" + b" " * 4094 + "é".encode())
    assert _json_output(tmp_path, cli, name, 1, target).code == 0
    target.write_bytes(b"\xef\xbb\xbf \n\t")  # a byte-order mark and white space: nothing to lose
    assert _json_output(tmp_path, cli, name, 1, target).code == 0
    for other in (b'{}', b' {\n  "format": "contactix-record/1"}\n', b'{"game" : "solitaire2"}'):
        target.write_bytes(other)  # an empty object, and the beginnings of the other commands' outputs
        assert _json_output(tmp_path, cli, name, 1, target).code == 0


def test_a_file_that_cannot_be_read_is_not_taken_for_json(tmp_path, monkeypatch):
    # (as root every file can be read: the refusal to open is made here)
    from contack_env.cli_support import not_json

    target = tmp_path / "model.npz"
    target.write_bytes(b"PK\x03\x04")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", refuse)
    why = not_json(str(target))
    monkeypatch.undo()
    assert why == "cannot be read to tell whether it is JSON (Permission denied)"


def test_demo_out_under_a_file_is_refused_at_once(tmp_path, cli):
    (tmp_path / "file").write_text("")
    cli("demo", "--out", "file/demo", cwd=tmp_path).assert_clean_failure(
        2, "--out: file/demo lies under a file (" + str(tmp_path / "file") + "), where no folder can be made")
    # the file named once, and what to name instead
    cli("demo", "--out", "file", cwd=tmp_path).assert_clean_failure(
        2, "--out: file is a file, not a folder: name a folder (a new one is made)")


def _records(tmp_path, cli, game="solitaire1", games=2):
    path = tmp_path / "g.jsonl"
    assert cli("simulate", "--game", game, "--games", str(games), "--seed", "3", "--out", path).code == 0
    return path


def test_render_into_a_missing_folder_makes_it_and_onto_a_folder_is_refused(tmp_path, cli):
    path = _records(tmp_path, cli)
    ok = cli("render", path, "--out", tmp_path / "new" / "deeper" / "g.png", "--every", "50")
    assert ok.code == 0, ok.err
    assert (tmp_path / "new" / "deeper" / "g.png").stat().st_size > 0
    (tmp_path / "pics.png").mkdir()
    cli("render", path, "--out", tmp_path / "pics.png").assert_clean_failure(
        2, f"is a folder; name a file (in it, e.g. {tmp_path / 'pics.png' / 'out.png'})")  # a name render takes
    # a refused input, index, record or option makes no folder for the picture
    record = json.loads(path.read_text().splitlines()[0])
    place = next(e for e in record["hands"][0]["events"] if e["type"] == "place")
    place["cell"] = [40, 40]  # far from the figure: the record does not replay
    (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n")
    for argv, code, words in (([tmp_path / "nope.jsonl"], 1, "cannot read"), ([path, "--index", "9"], 2, "--index"),
                              ([path, "--every", "0"], 2, "--every is a whole number of frames, at least 1"),
                              ([tmp_path / "bad.jsonl"], 1, "bad.jsonl:1 (--index 0): ")):
        out = tmp_path / "unmade" / "g.png"
        cli("render", *argv, "--out", out).assert_clean_failure(code, words)
        assert not (tmp_path / "unmade").exists()
    cli("render", path, "--out", tmp_path / ".gif").assert_clean_failure(2, "--out names a file before its ending")


def test_records_with_a_huge_number_or_deep_nesting_fail_with_a_reason(tmp_path, cli):
    path = _records(tmp_path, cli)
    good = path.read_text().splitlines()
    cases = {
        "digits.jsonl": good[0].replace('"seed": 3', '"seed": ' + "9" * 5000) + "\n",
        "deep.jsonl": "[" * 100_000 + "]" * 100_000 + "\n",
        "deep_in_lines.jsonl": good[0] + "\n" + '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
        "deep_object.json": "{\n" + '"a": ' + "[" * 100_000 + "]" * 100_000 + "\n}\n",
    }
    reasons = {"digits.jsonl": "line 1: invalid record: a number of more than 4300 digits",
               "deep.jsonl": "nested too deeply to read",
               "deep_in_lines.jsonl": "line 2: invalid record: nested too deeply to read",
               "deep_object.json": "deep_object.json: invalid record: nested too deeply to read"}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        result = cli("replay", "--check", tmp_path / name)
        assert result.code == 1 and "Traceback" not in result.err, result.err
        assert reasons[name] in result.out, result.out
        cli("render", tmp_path / name, "--out", tmp_path / "x.gif").assert_clean_failure(1, reasons[name])


def test_a_duplicate_key_is_refused_naming_it(tmp_path, cli):
    path = _records(tmp_path, cli, games=1)
    line = path.read_text().splitlines()[0]
    (tmp_path / "dup.jsonl").write_text(line.replace('"seed": 3', '"seed": 3, "seed": "abc"') + "\n")
    result = cli("replay", "--check", tmp_path / "dup.jsonl")
    assert result.code == 1
    assert "dup.jsonl, line 1: invalid record: an object holds the key 'seed' twice" in result.out
    # Inside an event too, and in a pretty-printed file (one object over many lines).
    record = json.loads(line)
    text = json.dumps(record, indent=1).replace('"points": ', '"points": 0, "points": ', 1)
    (tmp_path / "dup.json").write_text(text)
    result = cli("replay", "--check", tmp_path / "dup.json")
    assert result.code == 1 and "an object holds the key 'points' twice" in result.out


def test_a_torn_last_line_is_reported_and_the_intact_records_are_checked_drawn_and_rated(tmp_path, cli):
    path = _records(tmp_path, cli, games=3)
    text = path.read_text()
    torn = tmp_path / "torn.jsonl"
    torn.write_text(text[: len(text) - 200])  # as an append killed mid-write leaves it: the last line cut short
    result = cli("replay", "--check", torn)
    assert result.code == 1, result.out
    lines = result.out.splitlines()
    assert lines[0].startswith("FAIL ") and "torn.jsonl, line 3: torn last line" in lines[0]
    assert lines[1:3] == [f"OK {torn}:1", f"OK {torn}:2"] and lines[-1] == "2 passed, 1 failed"
    assert "Traceback" not in result.err
    drawn = cli("render", torn, "--index", "1", "--out", tmp_path / "t.png", "--every", "50")
    assert drawn.code == 0, drawn.err
    assert "line 3: torn last line" in drawn.err and (tmp_path / "t.png").is_file()
    played = tmp_path / "played.jsonl"  # ratings rates games at a table, not solitaires
    assert cli("simulate", "--players", "2", "--agents", "greedy,random", "--games", "3", "--hands", "1", "--seed", "3",
               "--out", played).code == 0
    whole = played.read_text()
    played.write_text(whole[: len(whole) - 200])
    rated = cli("ratings", played)  # the two intact games rated, the torn one said and left out
    assert rated.code == 0 and rated.out.startswith("2 games of contack"), rated.err
    assert "played.jsonl, line 3: torn last line" in rated.err and "(left out)" in rated.err
    # A bad line that is not the last is no torn append: the file is refused as before.
    lines = text.splitlines()
    (tmp_path / "mid.jsonl").write_text("\n".join([lines[0], lines[1][:50], lines[2]]) + "\n")
    result = cli("replay", "--check", tmp_path / "mid.jsonl")
    assert result.code == 1 and "mid.jsonl, line 2: invalid JSON" in result.out and "OK" not in result.out


@pytest.mark.parametrize("setting, message", [
    ('learning_rate = "fast"', "learning_rate must be a finite number; got 'fast' (str)"),
    ('n_envs = "8"', "n_envs must be a whole number; got '8' (str)"),
    ("gamma = 5.0", "gamma must be at least 0 and at most 1; got 5.0"),
    ("learning_rate = -1e-3", "learning_rate must be more than 0; got -0.001"),
    ("n_steps = 2.5", "n_steps must be a whole number; got 2.5 (float)"),
    ("net_arch = [64, \"wide\"]", "net_arch must be a list of whole numbers"),
    ("eval_opponents = \"random\"", "eval_opponents must be a list of strings; got 'random'"),
    ("seed = -1", "seed must be a whole number 0..2147483647; got -1"),
    ("batch_size = 1", "batch_size must be at least 2; got 1"),
    ("enclosed_end = \"sometimes\"", "enclosed_end must be one of 1939, next_player, never"),
    ("hands = true", "hands must be a whole number; got True (bool)"),
    ("ent_coef = nan", "ent_coef must be a finite number; got nan"),
    ('algorithm = "AZ"', "algorithm must be ppo or az; got 'AZ'"),
    ("gamma = 0.9\n[extra]\ngamma = 0.5", "the settings go in the [train] table; the file also holds extra"),
])
def test_a_config_file_with_a_bad_field_is_refused_naming_it(tmp_path, cli, setting, message):
    (tmp_path / "c.toml").write_text(f"[train]\n{setting}\n")
    result = cli("train", "--config", tmp_path / "c.toml", "--out", tmp_path / "run")
    result.assert_clean_failure(2, f"c.toml: {message}")
    assert not (tmp_path / "run").exists()


def test_a_bad_training_option_is_refused_naming_it(tmp_path, cli):
    cli("train", "--gamma", "5", "--out", tmp_path / "run").assert_clean_failure(2, "gamma must be at least 0 and at most 1")
    cli("train", "--seed", "-1", "--out", tmp_path / "run").assert_clean_failure(2, "seed must be a whole number 0..")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("argv, message", [
    (["--total-timesteps", "1e400"], "--total-timesteps: '1e400' is not a valid whole number"),
    (["--seed", "1.5e0"], "--seed: '1.5e0' is not a valid whole number"),  # never cut down to 1
    (["--learning-rate", "1e400"], "--learning-rate: '1e400' is not a valid number"),
    (["--algorithm", "az", "--iterations", "1e400"], "--iterations: '1e400' is not a valid whole number"),
    (["--net-arch", "16,,16"], "--net-arch: '16,,16' is not a valid list of whole numbers"),  # not 16,16
    (["--eval-opponents", "random,,greedy"], "--eval-opponents: 'random,,greedy' is not a valid list"),
    (["--hands", "101"], "hands: a game has 1 to 100 hands (the rules play 3); got 101"),
    (["--algorithm", "az", "--hands", "1000000"], "hands: a game has 1 to 100 hands (the rules play 3); got 1000000"),
    # a network whose default search no az:PATH could play (az:PATH:SIMS takes at most 100,000)
    (["--algorithm", "az", "--play-sims", "200000"], "play_sims must be at most 100,000 simulations a decision"),
    (["--algorithm", "az", "--sims", str(10**30)], "sims must be at most 100,000 simulations a decision"),
    # PPO normalizes the advantages of each minibatch: a last one of a single sample would be NaN
    (["--n-steps", "5", "--n-envs", "1", "--batch-size", "2"], "leaves a last minibatch of one sample"),
    # a minibatch is drawn from one rollout: a larger one would be stored and silently never used
    (["--n-steps", "32", "--n-envs", "1"], "batch_size (512) is larger than a rollout, n_steps x n_envs (32)"),
    # a slip of the keyboard: it spent minutes making games in silence, or forked a process each
    (["--n-envs", "80000"], "n_envs must be a whole number 1..4096 with vec_env 'dummy' (they step one after another"),
    (["--n-envs", "300", "--vec-env", "subproc"], "n_envs must be a whole number 1..256 with vec_env 'subproc' (each is a process); got 300"),
])
def test_a_training_option_out_of_range_is_refused_before_any_work(tmp_path, cli, argv, message):
    cli("train", *argv, "--out", tmp_path / "run").assert_clean_failure(2, message)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("algorithm, its_settings, not_its", [
    ([], "(--n-steps x --n-envs)", "--buffer-size"),
    (["--algorithm", "az"], "(--buffer-size)", "--n-steps"),
])
def test_a_network_too_large_for_memory_stops_the_run_with_one_line(tmp_path, cli, algorithm, its_settings, not_its):
    # 2**40 units a layer is more than any address space holds: torch's allocator fails at once (a traceback
    # advising nothing, before); the line says which of this trainer's settings take memory.
    result = cli("train", *algorithm, "--net-arch", str(2**40), "--eval-every", "0", "--out", tmp_path / "run")
    result.assert_clean_failure(1, "contack train: not enough memory: Unable to allocate")
    assert "(--net-arch)" in result.err and its_settings in result.err and not_its not in result.err
    assert "no checkpoint was written yet" in result.err  # what the run kept, as for any other stop
    # the size in a unit that reads at a glance (it was "3653632.0 GiB")
    amount = re.search(r"Unable to allocate ([0-9.]+) ([KMGTPE]iB|bytes)", result.err)
    assert amount is not None and float(amount.group(1)) < 1024, result.err


@pytest.mark.parametrize("size, words", [
    (0, "0 bytes"), (972, "972 bytes"), (1023, "1.0 KiB"), (1024, "1.0 KiB"), (3 * 2**20 // 2, "1.5 MiB"),
    (2**20 - 1, "1.0 MiB"),  # not "1024.0 KiB": the unit is chosen after rounding
    (3653632 * 2**30, "3.5 PiB"), (2**60, "1.0 EiB"), (2**70, "1024.0 EiB"),
])
def test_an_allocation_is_sized_in_the_largest_unit_that_leaves_at_least_one(size, words):
    from training.stopped import size_in_words

    assert size_in_words(size) == words


def test_a_memory_error_without_a_message_still_says_what_ran_out(capsys):
    # Python's own MemoryError (bytearray(huge)) carries no message: the line must not read "memory: ."
    from training.stopped import report_stop

    assert report_stop(MemoryError(), "runs/x", lambda out: f"{out} keeps its last checkpoint", str, "HINT") == 1
    err = capsys.readouterr().err
    assert err == "contack train: not enough memory: an allocation failed; runs/x keeps its last checkpoint. HINT\n"


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "2", "--seed", str(2**63 - 1), "--out", "{}/g.jsonl"],
    ["simulate", "--games", "3", "--seed", "1", "--agent-seed", str(2**63 - 2), "--out", "{}/g.jsonl"],
    ["evaluate", "--agents", "random,greedy", "--games", "6", "--seed", str(2**63 - 2)],
    ["evaluate", "--agents", "random,greedy", "--games", "6", "--seed", "1", "--agent-seed", str(2**63 - 2)],
])
def test_seeds_past_the_largest_are_refused_with_the_largest_first_seed(tmp_path, cli, argv):
    # game i is played from seed S+i, and its record says so: every such seed must be one the commands take
    result = cli(*[a.format(tmp_path) for a in argv])
    result.assert_clean_failure(2, "past the largest, 9223372036854775807; give at most")
    assert ", or play at most " in result.err
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("argv, what, seed", [
    (["solve", "--game", "solitaire1", "--games", str(10**30), "--seed", "1"], "deals", 1),
    (["simulate", "--games", str(10**30), "--seed", "5", "--out", "{}/g.jsonl"], "games", 5),
])
def test_more_games_than_there_are_seeds_are_refused_with_how_many_fit(tmp_path, cli, argv, what, seed):
    # no first seed would do: the way out is fewer games (it used to advise a negative seed)
    result = cli(*[a.format(tmp_path) for a in argv])
    result.assert_clean_failure(2, f"{10**30} {what} would play from more seeds than there are "
                                   f"(0..9223372036854775807); play at most {2**63 - seed} {what} from --seed {seed}")


def test_the_largest_seeds_are_taken_where_every_deal_fits(cli):
    # 4 heads-up games are 2 deals, played from seeds S and S+1
    result = cli("evaluate", "--agents", "random,greedy", "--games", "4", "--seed", str(2**63 - 2), "--hands", "1")
    assert result.code == 0, result.err


def test_render_of_a_file_without_records_says_so(tmp_path, cli):
    (tmp_path / "empty.jsonl").write_text("\n\n")
    cli("render", tmp_path / "empty.jsonl", "--out", tmp_path / "x.png").assert_clean_failure(1, "holds no record to draw")
    assert not (tmp_path / "x.png").exists()


def test_a_bad_option_over_a_good_config_file_is_not_blamed_on_the_file(tmp_path, cli):
    (tmp_path / "c.toml").write_text("[train]\ngamma = 0.9\n")
    result = cli("train", "--config", tmp_path / "c.toml", "--gamma", "5", "--out", tmp_path / "run")
    result.assert_clean_failure(2, "error: gamma must be at least 0 and at most 1; got 5.0")
    assert "c.toml" not in result.err


ENDLESS = "/dev/zero"  # a device that never ends: read whole, it filled the memory (24 GB once, for az:)


@pytest.mark.skipif(not __import__("os").path.exists(ENDLESS), reason="needs /dev/zero")
@pytest.mark.parametrize("args, message", [
    (["simulate", "--agents", f"az:{ENDLESS},random", "--games", "1", "--seed", "1", "--out", "x.jsonl"],
     f"--agents: {ENDLESS} is not a file on disk (a device or a pipe), not a contack-az/1 network file"),
    (["simulate", "--agents", f"ppo:{ENDLESS},random", "--games", "1", "--seed", "1", "--out", "x.jsonl"],
     f"--agents: {ENDLESS} is not a file on disk (a device or a pipe), not a contack-policy/1 policy file"),
    (["train", "--config", ENDLESS, "--out", "r"],
     f"{ENDLESS} is larger than 1 MiB; a configuration is a TOML file of a few KB"),
])
def test_an_endless_input_is_refused_not_read_until_memory_runs_out(tmp_path, cli, args, message):
    result = cli(*args, cwd=tmp_path)
    result.assert_clean_failure(2, message)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["replay", "--check"], ["ratings"], ["render", "--out", "z.png"]])
def test_a_records_file_with_no_line_breaks_is_refused_before_it_fills_the_memory(tmp_path, cli, command):
    # a 4 GiB file of zeros was read whole and parsed (a MemoryError under a memory limit); the reader stops at
    # the first line longer than any record's
    from contack_env.records.files import MAX_LINE_BYTES

    zeros = tmp_path / "zeros.jsonl"
    with zeros.open("wb") as f:
        f.truncate(MAX_LINE_BYTES + (2 << 20))  # sparse: no disk used
    result = cli(*command[:1], str(zeros), *command[1:], cwd=tmp_path)
    assert result.code == 1 and "Traceback" not in result.err
    assert f"{zeros}, line 1: more than 64 MiB without a line break" in result.out + result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["zeros.jsonl"]


def test_running_out_of_memory_is_a_line_not_a_traceback(monkeypatch, capsys):
    from contack_env import cli
    from contack_env.cli import main

    def allocates(parser, args):
        raise MemoryError("Unable to allocate 3.00 GiB for an array")

    monkeypatch.setattr(cli.COMMANDS["replay"], "run", allocates)
    assert main(["replay", "--check", "games.jsonl"]) == 1
    assert capsys.readouterr().err == ("contack replay: ran out of memory (Unable to allocate 3.00 GiB for an array); "
                                       "each file written is whole or was not written\n")


def test_statistics_given_where_records_belong_are_named_as_such(tmp_path, cli):
    # `contack ratings ev.json` with evaluate's --json output once said only "missing key 'format'"
    stats = tmp_path / "ev.json"
    cli("evaluate", "--agents", "random,greedy", "--games", "2", "--seed", "1", "--hands", "1", "--progress", "off",
        "--json", str(stats), cwd=tmp_path)
    result = cli("ratings", str(stats), cwd=tmp_path)
    result.assert_clean_failure(1, "missing key 'format': it is the statistics of a command (`contack evaluate "
                                   "--json`, `ratings --json`, `solve --json`), not a game's record")
    from contack_env.records import RecordError, codec_for

    with pytest.raises(RecordError) as raised:  # a record without its format is not taken for statistics
        codec_for({"game": "contack", "players": 2})
    assert str(raised.value).endswith("missing key 'format'")
