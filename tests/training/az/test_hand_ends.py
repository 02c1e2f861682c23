"""``training.az.hand_ends``: where a seat's games are won and lost, counted from game records."""

import json
import re
from pathlib import Path

import pytest

from agents.arena import new_state, play_game, seed_streams
from agents.registry import make_agent
from contack_env.records import RecordError, write_records
from contack_env.records.contack import game_record
from training.az.hand_ends import count, main

DOCS = Path(__file__).resolve().parents[3] / "docs" / "records.md"


def _docs_example() -> dict:
    """The complete example of docs/records.md: one blocked hand, read there event by event."""
    text = DOCS.read_text().split("## A complete example", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))


def _games(agents: list[str], games: int, seed: int) -> list[dict]:
    """``games`` games of ``agents`` from ``seed`` on, as ``contack simulate`` plays them."""
    records = []
    for g in range(games):
        streams = seed_streams(seed + g, len(agents) + 1)
        players = [make_agent(name, streams[k + 1]) for k, name in enumerate(agents)]
        state = play_game(new_state("contack", len(agents), streams[0]), players)
        records.append(game_record(state, seed=seed + g, agents=agents))
    return records


def test_the_documented_example_reads_as_the_docs_tell_it():
    # docs/records.md: seat 0 (greedy) scores 15, draws two and passes; seat 1 (random) scores 10, draws one and
    # passes; the hand is blocked with five tiles each (-50); seat 0 wins
    totals = count([_docs_example()], "random")
    assert (totals.games, totals.hands, totals.ends) == (1, 1, {"blocked": 1})
    random_seat, greedy_seat = totals.seats  # counted from random's seat, 1: +1 is seat 0
    assert random_seat.names == {"random"} and greedy_seat.names == {"greedy"}
    assert totals.row(0) == (0.0, 10.0, -50.0, 0.0, 1.0, 1.0)
    assert totals.row(1) == (1.0, 15.0, -50.0, 0.0, 2.0, 1.0)


def test_points_and_penalties_make_the_final_scores_and_every_out_has_one_seat():
    agents = ["greedy", "random", "lookahead"]
    records = _games(agents, 12, seed=7)
    totals = count(records, "lookahead")  # at seat 2: +1 is seat 0, +2 seat 1
    assert [s.names for s in totals.seats] == [{"lookahead"}, {"greedy"}, {"random"}]
    for k, seat in enumerate((2, 0, 1)):
        scored = sum(r["scores"][seat] for r in records)
        assert totals.seats[k].points + totals.seats[k].penalties == scored
    assert sum(s.outs for s in totals.seats) == totals.ends.get("out", 0) > 0
    assert totals.hands == 36 and sum(totals.ends.values()) == 36
    # a seat that went out holds no tile: each of its outs is a hand where its penalty was 0
    for k, seat in enumerate((2, 0, 1)):
        clean = sum(h["events"][-1]["penalties"][seat] == 0 for r in records for h in r["hands"])
        assert totals.seats[k].outs <= clean


def test_shared_wins_are_split():
    # game 11 ends in a tie between seats 0 and 2 (the engine says so: a record claiming another winner is refused
    # below)
    records = _games(["greedy", "random", "random"], 3, seed=10)
    assert [r["winners"] for r in records][1] == [0, 2]
    totals = count(records, "greedy")
    assert [s.wins for s in totals.seats] == [sum(1 / len(r["winners"]) for r in records if seat in r["winners"])
                                              for seat in range(3)]
    assert totals.seats[0].wins % 1 == 0.5 and totals.seats[2].wins % 1 == 0.5
    records[1]["winners"] = [0]
    with pytest.raises(RecordError):
        count(records, "greedy")


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(agents=["greedy", "greedy"]), "must play exactly one seat"),
    (lambda r: r.update(agents=["lookahead", "random"]), "must play exactly one seat"),
    (lambda r: r.update(game="solitaire1"), "a Contack game of 2 seats is needed"),
])
def test_records_it_cannot_count_are_refused_naming_the_game(change, message):
    records = _games(["greedy", "random"], 3, seed=5)
    change(records[1])
    with pytest.raises(ValueError, match=f"game 2: .*{message}"):
        count(records, "greedy")


def test_a_record_the_engine_does_not_reproduce_is_refused():
    record = _docs_example()
    record["hands"][0]["events"][2]["points"] = 10  # the engine scores 15 there
    with pytest.raises(RecordError, match="game 1"):
        count([record], "greedy")


def test_the_command_prints_the_table_and_refuses_bad_input_with_one_line(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    write_records(path, _games(["greedy", "random", "random"], 3, seed=2))
    assert main(["--records", str(path), "--agent", "greedy"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("3 games, 9 hands (") and lines[0].endswith("seats counted on from greedy's")
    assert lines[1].split() == ["seat", "win", "rate", "points/hand", "penalties/hand", "out/hand", "draws/hand",
                                "passes/hand"]
    assert [line.split()[0] for line in lines[2:]] == ["+0", "+1", "+2"]
    for argv, message in ((["--records", str(path), "--agent", "mcts:200"], "'mcts:200' must play exactly one seat"),
                          (["--records", str(tmp_path / "none.jsonl"), "--agent", "greedy"], "No such file")):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith("hand_ends: ") and message in err and "Traceback" not in err
