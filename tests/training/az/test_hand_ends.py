"""``training.az.hand_ends``: where a seat's games are won and lost, counted from game records."""

import json
import re
from pathlib import Path

import pytest

from agents.arena import new_state, play_game, seed_streams
from agents.registry import make_agent
from contack_env.records import RecordError, write_records
from contack_env.records.contack import game_record
from training.az.hand_ends import count, format_table, main

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
    assert totals.row(0) == (0.0, -5.0, 10.0, -50.0, 0.0, 1.0, 1.0)
    assert totals.row(1) == (1.0, 5.0, 15.0, -50.0, 0.0, 2.0, 1.0)


def _wins_from_scores(records: list[dict], seat: int) -> float:
    """The seat's wins read from the final scores alone (the highest total wins, a tie shares it)."""
    total = 0.0
    for r in records:
        best = max(r["scores"])
        if r["scores"][seat] == best:
            total += 1 / r["scores"].count(best)
    return total


@pytest.mark.parametrize("agents, at", [
    (["greedy", "random", "lookahead"], 2),
    (["random", "greedy", "random", "random"], 1),
    (["random"] * 4 + ["greedy"] + ["random"] * 2, 4),
])
def test_points_penalties_outs_and_wins_add_up_to_what_the_games_record(agents, at):
    records = _games(agents, 60, seed=0)
    totals = count(records, agents[at])
    players = len(agents)
    assert totals.games == 60 and totals.hands == 180 == sum(totals.ends.values())
    assert [s.names for s in totals.seats] == [{agents[(at + k) % players]} for k in range(players)]
    for k in range(players):
        seat = (at + k) % players  # +k plays k turns after the agent
        assert totals.seats[k].points + totals.seats[k].penalties == sum(r["scores"][seat] for r in records)
        # a seat that went out holds no tile, and only the seat that went out holds none
        clean = sum(h["events"][-1]["reason"] == "out" and h["events"][-1]["penalties"][seat] == 0
                    for r in records for h in r["hands"])
        assert totals.seats[k].outs == clean
        assert totals.seats[k].wins == pytest.approx(_wins_from_scores(records, seat))
        # the margin per hand, over the 3 hands of a game, is contack evaluate's: the score less the others' mean
        margins = [r["scores"][seat] - (sum(r["scores"]) - r["scores"][seat]) / (players - 1) for r in records]
        assert totals.row(k)[1] * 3 == pytest.approx(sum(margins) / len(records))
    assert sum(s.outs for s in totals.seats) == totals.ends["out"] > 0
    assert sum(s.wins for s in totals.seats) == pytest.approx(60)


def test_shared_wins_are_split():
    records = _games(["greedy", "random", "random"], 60, seed=0)
    shared = [r for r in records if len(r["winners"]) > 1]
    assert shared, "these 60 games hold ties (about one game in thirty does)"
    totals = count(records, "greedy")
    assert [s.wins for s in totals.seats] == pytest.approx([_wins_from_scores(records, seat) for seat in range(3)])
    assert any(s.wins % 1 for s in totals.seats)  # a half (or a third) of a game somewhere
    shared[0]["winners"] = shared[0]["winners"][:1]
    with pytest.raises(RecordError, match=f"game {records.index(shared[0]) + 1}"):
        count(records, "greedy")  # the engine says who won: a record that says otherwise is refused


def _contactix_record() -> dict:
    from contack_env.records.contactix import game_record as contactix_record

    streams = seed_streams(1, 3)
    state = play_game(new_state("contactix", 2, streams[0]), [make_agent("random", streams[k]) for k in (1, 2)])
    return contactix_record(state, seed=1, agents=["random", "random"])


@pytest.mark.parametrize("change, message", [
    (lambda rs: rs[1].update(agents=["greedy", "greedy"]), "game 2: 'greedy' must play exactly one seat"),
    (lambda rs: rs[1].update(agents=["lookahead", "random"]), "game 2: 'greedy' must play exactly one seat"),
    (lambda rs: rs[1].update(agents=None), "game 2 does not name its agents"),
    (lambda rs: rs[1].update(agents=7), "game 2: "),  # the record's own check says what agents may be
    (lambda rs: rs.__setitem__(1, _games(["greedy", "random", "random"], 1, seed=3)[0]),
     "game 2 has 3 seats where game 1 has 2"),
    (lambda rs: rs.__setitem__(2, _contactix_record()), "game 3 is a CON-TAC-TIX record; hand_ends counts Contack"),
])
def test_records_it_cannot_count_are_refused_naming_the_game(change, message):
    records = _games(["greedy", "random"], 3, seed=5)
    change(records)
    with pytest.raises(ValueError) as refused:
        count(records, "greedy")
    assert str(refused.value).startswith(message)


def test_a_solitaire_record_is_refused():
    from contack_env.records.contack import game_record as record_of

    streams = seed_streams(2, 2)
    state = play_game(new_state("solitaire1", 1, streams[0]), [make_agent("greedy", streams[1])])
    with pytest.raises(ValueError, match="game 1 is a solitaire1 record; hand_ends counts Contack games"):
        count([record_of(state, seed=2, agents=["greedy"])], "greedy")


def test_a_record_the_engine_does_not_reproduce_is_refused():
    record = _docs_example()
    record["hands"][0]["events"][2]["points"] = 10  # the engine scores 15 there
    with pytest.raises(RecordError, match="game 1"):
        count([record], "greedy")


def test_the_command_prints_the_table_and_refuses_bad_input_with_one_line(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    write_records(path, _games(["greedy", "random", "random"], 3, seed=2))
    assert main(["--records", str(path), "--agent", "greedy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("3 games, 9 hands (") and lines[0].endswith("seats counted on from greedy's")
    assert lines[1].split() == ["seat", "win", "rate", "margin/hand", "points/hand", "penalties/hand", "out/hand", "draws/hand",
                                "passes/hand"]
    assert [line.split()[0] for line in lines[2:]] == ["+0", "+1", "+2"]
    (tmp_path / "bad.json").write_text("[1]")
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.jsonl").write_text("")
    for argv, expected in (
        (["--records", str(path), "--agent", "mcts:200"],
         f"hand_ends: {path}, game 1: 'mcts:200' must play exactly one seat"),
        (["--records", str(tmp_path / "none.jsonl"), "--agent", "greedy"],
         f"hand_ends: cannot read {tmp_path / 'none.jsonl'}: No such file or directory"),
        (["--records", str(tmp_path / "folder"), "--agent", "greedy"],
         f"hand_ends: cannot read {tmp_path / 'folder'}: Is a directory"),
        (["--records", str(tmp_path / "bad.json"), "--agent", "greedy"],
         f"hand_ends: {tmp_path / 'bad.json'}: item 1 of the array is a number"),  # the file named once
        (["--records", str(tmp_path / "empty.jsonl"), "--agent", "greedy"],
         f"hand_ends: {tmp_path / 'empty.jsonl'} holds no records"),
    ):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(expected) and err.count("\n") == 1, err


def test_names_read_from_records_cannot_break_the_printed_table():
    odd = "greedy\nnext line"
    record = _docs_example()
    record["agents"] = [odd if name == "greedy" else name for name in record["agents"]]
    lines = format_table(count([record], "random"), "random").splitlines()
    assert len(lines) == 4  # the title, the header and one line a seat
    assert lines[3].startswith(r"+1 'greedy\nnext line' ")
    record["agents"] = [odd, "random"]
    lines = format_table(count([record], odd), odd).splitlines()
    assert len(lines) == 4 and lines[0].endswith(r"seats counted on from 'greedy\nnext line''s")
