"""Any record, by its ``format``: the walker replays both formats on the engine and through the environments
with the same structure checks and messages, and ``contack replay --check`` (with or without ``--through-env``)
takes files of either format."""

from __future__ import annotations

import copy
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

from contack_env.cli import main
from contack_env.envs.replay import replay_through_env
from contack_env.records import RecordError, check_paths, read_records, replay, walk, write_records

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def golden(name: str, k: int = 0) -> dict:
    return read_records(GOLDEN / name)[k]


def error_of(replayer, record) -> tuple[str, str]:
    with pytest.raises(RecordError) as info:
        replayer(record)
    return info.value.where, info.value.why


def _changed(name: str, change) -> dict:
    record = copy.deepcopy(golden(name))
    change(record)
    return record


def _first(record: dict, kind: str) -> dict:
    return next(e for e in record["hands"][0]["events"] if e["type"] == kind)


# Structure errors a record can have, and what both paths must say.
BROKEN = [
    ("contack_4p.jsonl", lambda r: r.update(agents=r["agents"][:3]), "agents", "agents is null or one name per seat (4); got "),
    ("contack_2p.jsonl", lambda r: r.update(agents="greedy"), "agents", 'agents is null or one name per seat (2); got "greedy"'),
    ("contack_2p.jsonl", lambda r: r.update(seed="abc"), "seed", 'seed is an integer or null; got "abc"'),
    ("contack_2p.jsonl", lambda r: r.update(seed=math.nan), "seed", "seed is an integer or null; got NaN"),
    ("solitaire2.jsonl", lambda r: r.update(players=2), "players", "a solitaire has 1 player; got 2"),
    ("solitaire1.jsonl", lambda r: r["hands"][0]["deck"].reverse() or r["hands"][0]["deck"].pop(), "hand 1, deck",
     "not a permutation of the 36 tiles (35 names; missing: "),
    ("contack_7p.jsonl", lambda r: r["rules"].update(hands=0), "rules.hands", "a game has 1 to 100 hands; got 0"),
    ("contack_7p.jsonl", lambda r: r["rules"].update(hands=101), "rules.hands", "a game has 1 to 100 hands; got 101"),
    # keys of another game of the format are refused, not passed over as keys no reader knows
    ("contack_2p.jsonl", lambda r: r["hands"][0].update(cut=0), "hand 1", "'cut' is Solitaire No. 2's"),
    ("contack_2p.jsonl", lambda r: _first(r, "place").update({"from": "pile"}), "hand 1, event 2 (place)",
     "'from' is Solitaire No. 1's; a place event of Contack has none"),
    ("solitaire2.jsonl", lambda r: _first(r, "place").update({"from": "pile"}), "hand 1, event 2 (place)",
     "'from' is Solitaire No. 1's"),
    ("solitaire1.jsonl", lambda r: _first(r, "place").update(stack=1), "hand 1, event 3 (place)", "'stack' is Solitaire No. 2's"),
    ("solitaire1.jsonl", lambda r: r["hands"][0]["events"][-1].update(penalties=[0]), "hand 1, event 81 (end)",
     "'penalties' is Contack's; the end of Solitaire No. 1 has none"),
    ("contactix_5x5.jsonl", lambda r: r.update(agents=["a"]), "agents", "agents is [black's, white's], two strings (or nulls); got [\"a\"]"),
    ("contactix_5x5.jsonl", lambda r: r.update(size=20), "size", "size is a whole number 3..19; got 20"),
    ("contactix_5x5.jsonl", lambda r: r["moves"].__setitem__(2, [1, 2.0]), "move 3 ([1, 2.0])",
     'a move is [r, c] (two whole numbers) or "swap"; got [1, 2.0]'),
]


@pytest.mark.parametrize("name,change,where,why", BROKEN, ids=[f"{b[0]}-{b[2]}" for b in BROKEN])
def test_both_paths_refuse_a_malformed_record_with_the_same_words(name, change, where, why):
    record = _changed(name, change)
    engine = error_of(replay, record)
    assert engine == (where, engine[1]) and engine[1].startswith(why), engine
    assert error_of(replay_through_env, record) == engine


def test_the_command_line_reports_the_same_failure_either_way(tmp_path, capsys):
    path = tmp_path / "mixed.jsonl"
    records = [golden("contack_2p.jsonl"), golden("contactix_5x5.jsonl")]
    records += [_changed(name, change) for name, change, _, _ in BROKEN]
    # NaN is no JSON: a file holds it only as the bare word NaN, which Python's reader takes as a float.
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    outputs = []
    for extra in ([], ["--through-env"]):
        assert main(["replay", "--check", *extra, str(path)]) == 1
        outputs.append(capsys.readouterr().out.splitlines())
    assert outputs[0] == outputs[1]
    lines = outputs[0]
    assert lines[:2] == [f"OK {path}:1", f"OK {path}:2"]
    for n, (line, (_, _, where, why)) in enumerate(zip(lines[2:], BROKEN), 3):
        assert line.startswith(f"FAIL {path}:{n} {where}: {why}"), line
    assert lines[-1] == f"2 passed, {len(BROKEN)} failed"


def test_a_contactix_evaluation_record_file_passes_both_checks_and_renders(tmp_path, capsys):
    path = tmp_path / "cx.jsonl"
    assert main(["evaluate", "--game", "contactix", "--board-size", "4", "--swap", "--agents", "two_distance,random",
                 "--games", "4", "--seed", "2", "--records", str(path)]) == 0
    records = read_records(path)
    assert len(records) == 4 and all(r["format"] == "contactix-record/1" for r in records)
    capsys.readouterr()
    for extra in ([], ["--through-env"]):
        assert main(["replay", "--check", *extra, str(path)]) == 0
        assert capsys.readouterr().out.splitlines() == [f"OK {path}:{n}" for n in range(1, 5)] + ["4 passed, 0 failed"]
    assert main(["render", str(path), "--index", "3", "--out", str(tmp_path / "g.gif")]) == 0
    from PIL import Image

    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames == len(records[3]["moves"]) + 1


def test_replay_dispatches_on_the_format():
    assert replay(golden("contactix_5x5.jsonl")).size == 5
    assert replay(golden("solitaire1.jsonl")).done
    assert error_of(replay, {**golden("contactix_5x5.jsonl"), "format": "contactix-record/2"}) == (
        "format", 'unknown format "contactix-record/2"; formats are "contack-record/1", "contactix-record/1"'
    )
    assert error_of(replay, {"size": 3}) == ("record", "missing key 'format'")
    assert error_of(replay, [1]) == ("record", "a record is a JSON object; got an array")


def test_the_walk_yields_the_start_and_every_decision():
    record = golden("contactix_5x5.jsonl")
    w = walk(record)
    seen = [(step.where, len(w.state.moves)) for step in w.steps()]
    assert seen[0] == ("start", 0)
    assert seen[1:] == [(f"move {k} ({json.dumps(m)})", k) for k, m in enumerate(record["moves"], 1)]
    record = golden("contack_2p.jsonl")
    w = walk(record)
    decisions = sum(1 for _ in w.steps()) - 1
    assert decisions == sum(1 for h in record["hands"] for e in h["events"] if e["type"] == "place")
    assert w.state.done and list(w.state.scores) == record["scores"]


def test_check_paths_takes_files_of_both_formats(tmp_path):
    path = tmp_path / "both.jsonl"
    write_records(path, [golden("contactix_5x5.jsonl"), golden("solitaire2.jsonl")])
    bad = _changed("contactix_5x5.jsonl", lambda r: r.update(winner="black" if r["winner"] == "white" else "white"))
    out = io.StringIO()
    assert check_paths([path], out=out) == (2, 0)
    write_records(path, [bad])
    assert check_paths([path], out=out) == (0, 1)
    assert out.getvalue().splitlines()[-2].startswith(f"FAIL {path}:1 winner: the record says ")


def test_an_environment_whose_mask_drops_a_legal_move_is_caught(monkeypatch):
    # The environment path checks the environment: a mask that forgets a legal move fails the record that
    # plays it, naming the mask.
    from contack_env.envs import contactix_v0

    record = golden("contactix_5x5.jsonl")
    first = record["moves"][0]
    n = record["size"]
    real = contactix_v0.raw_env.action_mask

    def forgetful(self):
        mask = real(self).copy()
        mask[first[0] * n + first[1]] = 0
        return mask

    monkeypatch.setattr(contactix_v0.raw_env, "action_mask", forgetful)
    where, why = error_of(replay_through_env, record)
    assert where == f"move 1 ({json.dumps(first)})"
    assert why == f"action {first[0] * n + first[1]} is one the mask does not allow"
    replay(record)  # the engine path does not use the environment


def test_a_contack_environment_with_a_wrong_mask_is_caught(monkeypatch):
    from contack_env.envs import contack_v0

    record = golden("contack_2p.jsonl")
    real = contack_v0.raw_env.action_mask

    def forgetful(self):
        mask = real(self).copy()
        mask[np.flatnonzero(mask)[0]] = 0  # drop the first legal action of every decision
        return mask

    monkeypatch.setattr(contack_v0.raw_env, "action_mask", forgetful)
    where, why = error_of(replay_through_env, record)
    assert where.startswith("hand 1, event ") and where.endswith("(place)")
    assert "mask" in why


def test_check_paths_takes_one_path_as_one_file(tmp_path):
    path = tmp_path / "both.jsonl"
    write_records(path, [golden("contactix_5x5.jsonl"), golden("solitaire2.jsonl")])
    for one in (path, str(path)):  # not the characters of its name
        assert check_paths(one, out=io.StringIO()) == (2, 0)


def test_load_schema_names_the_formats():
    from contack_env.records.schema import load_schema

    assert load_schema("contack-record/1")["properties"]["rules"]
    with pytest.raises(ValueError, match="record formats are 'contack-record/1', 'contactix-record/1'; got 'x'"):
        load_schema("x")
