"""A game the suite has never seen, added as docs/architecture.md says, plays through the generic code unchanged.

The game is ``nim_game``'s small Nim (21 counters, take 1 to 3, whoever takes the last counter wins). Its state
implements ``contack_env.protocol.State``; one ``GameSpec`` registers it, with a state observer. Nothing in
``agents`` is told about it, yet ``play_game``, ``evaluate`` (duplicate format, seat rotations, records), the
generic ``random``, ``mcts`` and ``az:`` agents, and ``contack simulate`` work with it; the record tools say
plainly what they cannot do with its records. The test asserts what those produce, so a game branch creeping into
that code, or a protocol member the generic code starts to need without the protocol saying so, fails here.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from agents import evaluate, make_agent
from agents.evaluate import format_table
from agents.arena import play_game
from agents.az.encoding import Encoder
from agents.az.network import AZNet
from contack_env.cli import main
from contack_env.games import GAMES
from contack_env.protocol import State
from contack_env.records import CODECS
from nim_game import NIM, START, NimCodec, NimState, perfect as _perfect


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setitem(GAMES, "nim", NIM)
    return NIM


def test_the_state_implements_the_protocol(nim):
    state = nim.new_state(0)
    assert isinstance(state, State)
    assert state.legal_moves() == [1, 2, 3]


def test_play_game_plays_it_to_the_end_with_the_generic_bots(nim):
    state = nim.new_state(0)
    agents = [make_agent("random", seed=1, game="nim"), make_agent("mcts:200", seed=2, game="nim")]
    play_game(state, agents)
    assert state.done and sum(state.taken) == START and len(state.winners) == 1


def test_mcts_finds_the_winning_move(nim):
    # 7 counters: taking 3 leaves 4, a lost position for the other player; every other move loses.
    state = NimState(7)
    move = make_agent("mcts:400", seed=0, game="nim").act(state.public_view(), state.legal_moves())
    assert move == 3


def test_evaluate_runs_the_duplicate_format_and_writes_the_games_records(nim):
    # 21 counters: the first player wins with perfect play (take 1, then leave multiples of four).
    ev = evaluate([_perfect, "random"], games=20, seed=3, game="nim", records=True)
    assert len(ev.results) == 20
    first_seat = [r for r in ev.results if r.seat_entries[0] == 0]
    assert len(first_seat) == 10  # every deal in both seat rotations
    assert all(r.winners == (0,) for r in first_seat)  # from the first seat, perfect play never loses
    perfect, rand = ev.entries
    assert rand.agent == "random" and perfect.win_rate > 0.5 > rand.win_rate
    records = [r.record for r in ev.results]
    assert all(r["format"] == "nim-record/1" and sum(r["taken"]) == START for r in records)
    assert {r["agents"][0] for r in records} == {perfect.agent, "random"}  # the seats rotated


@pytest.mark.parametrize("report", ["scores", "colours"])
def test_the_report_names_only_the_rule_options_the_game_has(nim, monkeypatch, report):
    # Nim has none: no hands, no enclosed_end, no board size or swap rule of the games the suite ships
    monkeypatch.setitem(GAMES, "nim", dataclasses.replace(NIM, report=report))
    first = format_table(evaluate(["random", "random"], games=4, seed=3, game="nim")).splitlines()[0]
    assert first.startswith("4 games of nim" + (", 2 players: 2 deals" if report == "scores" else ": 2 deals")), first
    for word in ("hand", "enclosed_end", "swap", "x11"):
        assert word not in first, first


def _uniform_network(path) -> str:
    # Every move equally likely and every value 0.5: what the search decides, it finds by searching.
    enc = Encoder("nim")
    w = 4
    AZNet([(np.zeros((enc.obs_size, w), np.float32), np.zeros(w, np.float32))],
          (np.zeros((w, enc.num_actions), np.float32), np.zeros(enc.num_actions, np.float32)),
          [(np.zeros((w, 4), np.float32), np.zeros(4, np.float32)),
           (np.zeros((4, enc.seats), np.float32), np.zeros(enc.seats, np.float32))],
          meta={"game": "nim", "sims": 64}).save(path)
    return str(path)


def test_the_az_agent_searches_it_to_the_winning_move(nim, tmp_path):
    # 7 counters: taking 3 leaves 4, lost for the other player whatever they take; every other move loses. The
    # network knows nothing: the search finds the win from the game's ends, valued by who won.
    path = _uniform_network(tmp_path / "nim_az.npz")
    for seed in range(3):
        assert make_agent(f"az:{path}", seed=seed, game="nim").act(NimState(7), [1, 2, 3]) == 3


def test_the_az_agent_plays_whole_games_through_evaluate(nim, tmp_path):
    path = _uniform_network(tmp_path / "nim_az.npz")
    ev = evaluate([f"az:{path}:32", "random"], games=10, seed=5, game="nim")
    assert len(ev.results) == 10 and all(sum(r.scores) == 1 for r in ev.results)  # finished, one winner each


def test_simulate_writes_its_records_and_summarises_them_from_the_states(nim, tmp_path, capsys):
    out = tmp_path / "nim.jsonl"
    assert main(["simulate", "--game", "nim", "--agents", "mcts:100,random", "--games", "6", "--seed", "2",
                 "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6 and all(r["format"] == "nim-record/1" and sum(r["taken"]) == START for r in records)
    wins = [sum(1 for r in records if r["winners"] == [seat]) for seat in (0, 1)]
    shown = capsys.readouterr().out
    assert "6 games of nim, 2 players, seeds 2..7" in shown
    for seat, agent in enumerate(("mcts:100", "random")):  # each seat's wins, as the records have them
        assert f"{seat:>4}  {agent:<10} {wins[seat]:>8.1f} {wins[seat] / 6:>9.3f}" in shown, shown


def _records(tmp_path, games: int = 3):
    records = tmp_path / "nim.jsonl"
    assert main(["simulate", "--game", "nim", "--agents", "random", "--games", str(games), "--seed", "0",
                 "--out", str(records)]) == 0
    return records


def test_without_a_codec_the_record_tools_name_the_formats_they_read(nim, tmp_path, capsys):
    records = _records(tmp_path)
    capsys.readouterr()
    assert main(["replay", "--check", str(records)]) == 1
    assert 'unknown format "nim-record/1"; formats are "contack-record/1", "contactix-record/1"' in capsys.readouterr().out


def test_with_its_codec_replay_checks_its_records(nim, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(CODECS, "nim-record/1", NimCodec())
    records = _records(tmp_path)
    capsys.readouterr()
    assert main(["replay", "--check", str(records)]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
    lines = records.read_text().splitlines()
    wrong = json.loads(lines[0])
    wrong["winners"] = [1 - wrong["winners"][0]]
    records.write_text("\n".join([json.dumps(wrong), *lines[1:]]) + "\n")
    assert main(["replay", "--check", str(records)]) == 1
    assert "1 failed" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["replay", "--check", "--through-env"], ["render"]])
def test_the_tools_a_game_may_lack_say_so_without_a_traceback(nim, tmp_path, capsys, monkeypatch, command):
    # An environment and pictures are optional parts of a game: without them, a sentence, not a KeyError.
    monkeypatch.setitem(CODECS, "nim-record/1", NimCodec())
    records = _records(tmp_path, games=1)
    capsys.readouterr()
    picture = tmp_path / "nim.png"
    assert main([*command, str(records), *(["--out", str(picture)] if command == ["render"] else [])]) == 1
    said = capsys.readouterr()
    shown = said.out + said.err
    assert "Traceback" not in shown and not picture.exists()
    assert ("nim has no environment to replay through" if command[-1] == "--through-env"
            else "'nim-record/1' has none") in shown, shown


def test_the_search_values_its_end_by_who_won():
    # Its scores are 1 and 0: on Contack's scale of points (a margin of 40 to go from 0.5 to 0.73) that would be
    # a near tie; a game without tiles on a figure is valued by its winners instead.
    from agents.az.horizon import terminal_values

    state = NimState(1)
    state.play(1)  # seat 0 takes the last counter
    assert terminal_values(state) == [1.0, 0.0]
