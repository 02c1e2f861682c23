import json

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
    ],
)
def test_simulate_rejects_bad_arguments_saying_what_is_allowed(tmp_path, capsys, argv, message):
    base = ["simulate", "--games", "1", "--seed", "0", "--out", str(tmp_path / "x.jsonl")]
    with pytest.raises(SystemExit) as exc:
        main(base + argv)
    assert exc.value.code != 0
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.jsonl").exists()
