"""``contack ratings`` (``agents.league``): one Elo table over the records of several matches."""

from __future__ import annotations

import json
import os

import pytest

from agents.evaluate import evaluate, records_of
from agents.league import league
from contack_env.cli import main
from contack_env.records import RecordError, read_records, write_records


def _match(tmp_path, name, agents, games, players=2, seed=1):
    """A match as a user plays it: ``contack evaluate --records``; its evaluation and its records."""
    path = tmp_path / name
    ev = evaluate(agents, games, seed, players=players, records=True)
    write_records(path, records_of(ev.results))
    return ev, read_records(path)


def test_one_match_rates_as_contack_evaluate_rates_it(tmp_path):
    ev, records = _match(tmp_path, "a.jsonl", ["greedy", "random"], 40)
    table = league([records])
    assert (table.games, table.deals, table.players) == (40, 20, 2)
    by_name = {e.agent: e for e in table.entries}
    for entry in ev.entries:
        mine = by_name[entry.agent]
        assert mine.games == entry.games and mine.win_rate == pytest.approx(entry.win_rate)
        assert mine.rating.elo == pytest.approx(entry.rating_elo, abs=0.05)
        assert mine.rating.ci95 == pytest.approx(entry.rating_ci95, abs=0.05)


def test_a_contactix_match_rates_as_contack_evaluate_rates_it_its_deals_by_seed(tmp_path):
    path = tmp_path / "c.jsonl"
    ev = evaluate(["random", "mcts:20"], 20, 1, game="contactix", board_size=5, records=True)
    write_records(path, records_of(ev.results))
    table = league([read_records(path)])
    assert (table.game, table.games, table.deals, table.players) == ("contactix", 20, 10, 2)
    by_name = {e.agent: e for e in table.entries}
    for entry in ev.entries:
        assert by_name[entry.agent].rating.elo == pytest.approx(entry.rating_elo, abs=0.05)
        assert by_name[entry.agent].rating.ci95 == pytest.approx(entry.rating_ci95, abs=0.05)
    assert main(["ratings", str(path)]) == 0


def test_an_agent_in_two_matches_is_one_entry_and_the_ladder_orders_them(tmp_path):
    _, a = _match(tmp_path, "a.jsonl", ["greedy", "random"], 60)
    _, b = _match(tmp_path, "b.jsonl", ["lookahead", "greedy"], 60)
    table = league([a, b])
    assert [e.agent for e in table.entries] == ["lookahead", "greedy", "random"]
    assert {e.agent: e.games for e in table.entries} == {"lookahead": 60, "greedy": 120, "random": 60}
    assert table.deals == 30, "both matches were played on the deals of seeds 1..30: one deal each"


def test_games_on_the_same_tiles_are_one_deal_across_files(tmp_path):
    _, a = _match(tmp_path, "a.jsonl", ["greedy", "random"], 60)
    _, later = _match(tmp_path, "b.jsonl", ["lookahead", "greedy"], 60, seed=31)
    assert league([a, later]).deals == 60, "seeds 1..30 and 31..60 deal different tiles"
    once, twice = league([a]), league([a, a])
    assert twice.games == 120 and twice.deals == 30

    def width(table):
        low, high = next(e for e in table.entries if e.agent == "greedy").rating.ci95
        return high - low

    # The same games read twice tell nothing new: the interval must not narrow (as if 60 deals had been played).
    assert width(twice) == pytest.approx(width(once), rel=0.03)


def test_copies_of_a_bot_at_one_table_are_one_entry_with_every_seat_counted(tmp_path):
    ev, records = _match(tmp_path, "a.jsonl", ["greedy", "random", "random", "random"], 40, players=4)
    table = league([records])
    games = {e.agent: e.games for e in table.entries}
    assert games == {"greedy": 40, "random": 120}
    greedy = next(e for e in table.entries if e.agent == "greedy")
    assert greedy.win_rate == pytest.approx(ev.entries[0].win_rate)


def test_records_that_cannot_be_rated_are_refused_naming_the_file_and_record(tmp_path):
    _, two = _match(tmp_path, "a.jsonl", ["greedy", "random"], 4)
    _, four = _match(tmp_path, "b.jsonl", ["greedy", "random", "random", "random"], 4, players=4)
    with pytest.raises(RecordError, match=r"b.jsonl, record 1: a game of contack with 4 players; the first record"):
        league([two, four], ["a.jsonl", "b.jsonl"])
    nameless = [dict(two[0], agents=None)]
    with pytest.raises(RecordError, match="record 1: has no agent name for every seat"):
        league([nameless])
    broken = json.loads(json.dumps(two[0]))
    broken["hands"][0]["events"][1]["tile"] = broken["hands"][0]["events"][2]["tile"]
    with pytest.raises(RecordError, match="record 1: does not replay"):
        league([[broken]])
    with pytest.raises(RecordError, match="two agents or more"):
        league([[dict(two[0], agents=["greedy", "greedy"])]])


def test_the_command_prints_the_table_and_writes_json_and_refuses_bad_input(tmp_path, capsys):
    for name, agents in (("a.jsonl", "greedy,random"), ("b.jsonl", "lookahead,greedy")):
        assert main(["evaluate", "--players", "2", "--agents", agents, "--games", "20", "--seed", "1",
                     "--records", str(tmp_path / name), "--progress", "off"]) == 0
    capsys.readouterr()
    out = tmp_path / "r.json"
    assert main(["ratings", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("40 games of contack, 2 players, 10 deals, from 2 files")
    assert main(["simulate", "--players", "2", "--agents", "greedy,random", "--games", "1", "--seed", "3", "--hands", "1",
                 "--out", str(tmp_path / "one.jsonl")]) == 0
    capsys.readouterr()
    assert main(["ratings", str(tmp_path / "one.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("1 game of contack, 2 players, 1 deal, from 1 file\n")
    data = json.loads(out.read_text())
    assert [e["agent"] for e in data["entries"]] == [line.split()[1] for line in printed.splitlines()[2:5]]
    # a file that cannot be read, or read as records, fails as in replay and render (1); usage errors are 2
    assert main(["ratings", str(tmp_path / "missing.jsonl")]) == 1
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert main(["ratings", str(tmp_path / "picture.png")]) == 1
    assert "not UTF-8 text" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["ratings", str(tmp_path / "a.jsonl"), "--json", str(tmp_path / "r.txt")])
    assert exit_.value.code == 2
    capsys.readouterr()
    # a device or a stream (/dev/stdout) needs no ending
    assert main(["ratings", str(tmp_path / "a.jsonl"), "--json", "/dev/null"]) == 0
    assert capsys.readouterr().err == ""
    # a file given twice, by the same name or another, would count each of its games twice
    (tmp_path / "again.jsonl").symlink_to(tmp_path / "a.jsonl")
    os.link(tmp_path / "a.jsonl", tmp_path / "hard.jsonl")
    for second in ("a.jsonl", "again.jsonl", "hard.jsonl"):
        with pytest.raises(SystemExit) as exit_:
            main(["ratings", str(tmp_path / "a.jsonl"), str(tmp_path / second), "--json", str(tmp_path / "new" / "r.json")])
        assert exit_.value.code == 2 and "is given twice" in capsys.readouterr().err
        assert not (tmp_path / "new").exists()  # refused before the --json folder is made
    # --json naming an input file, by any name, would replace its records with the table
    kept = (tmp_path / "b.jsonl").read_bytes()
    (tmp_path / "b.json").symlink_to(tmp_path / "b.jsonl")
    for out in ("b.jsonl", "b.json"):
        with pytest.raises(SystemExit) as exit_:
            main(["ratings", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--json", str(tmp_path / out)])
        assert exit_.value.code == 2 and "is a file this command reads" in capsys.readouterr().err
    assert (tmp_path / "b.jsonl").read_bytes() == kept


def test_names_read_from_records_cannot_break_the_printed_table(tmp_path, capsys):
    # Records may come from anywhere: a newline or an escape in an agent's name must not start a new row.
    _, records = _match(tmp_path, "a.jsonl", ["greedy", "random"], 4)
    odd = "bot\nwith a\tnewline\x1b[2J"
    for record in records:
        record["agents"] = [odd if name == "random" else name for name in record["agents"]]
    write_records(tmp_path / "odd.jsonl", records)
    assert main(["ratings", str(tmp_path / "odd.jsonl")]) == 0
    printed = capsys.readouterr().out.splitlines()
    rows = [line for line in printed if line[:3].strip().isdigit()]
    assert len(rows) == 2 and "\x1b" not in "".join(printed)
    assert any(r"'bot\nwith a\tnewline\x1b[2J'" in row for row in rows)  # quoted: not the name 'bot\\n...'
    col = printed[1].index("win rate")  # the columns stay under their headings
    assert all(0 <= float(row[col:col + len("win rate")]) <= 1 for row in rows)  # misaligned: not a number
    # the message for a table of one agent shows the name on one line too
    for record in records:
        record["agents"] = [odd, odd]
    write_records(tmp_path / "one.jsonl", records)
    assert main(["ratings", str(tmp_path / "one.jsonl")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and r"every seat is played by 'bot\nwith a" in err
