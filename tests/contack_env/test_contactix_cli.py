"""CON-TAC-TIX on the command line and in agents.evaluate / contack_env.cli.terminal: ``contack evaluate --game contactix``
(heads-up duplicate format: every deal twice, colours swapped), ``contack play --game contactix``."""

from __future__ import annotations

import io
import json
import re

import pytest

from agents.evaluate import evaluate, format_table, records_of
from contack_env.cli.terminal import contactix_help, parse_contactix_move, play_contactix_terminal
from contack_env.cli import main
from contack_env.contactix.rules import ContactixState, cell_index
from contack_env.records.contactix import read_records, replay


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- evaluate ------------------------------------------------------------------------------------------------------
def test_every_deal_is_played_twice_with_the_colours_swapped():
    ev = evaluate(["two_distance", "random"], 8, seed=20, game="contactix", board_size=5, records=True)
    assert (ev.games, ev.deals, ev.rotations, ev.options.board_size, ev.options.swap) == (8, 4, 2, 5, False)
    records = records_of(ev.results)
    for result, record in zip(ev.results, records):
        assert record["seed"] == 20 + result.deal and record["size"] == 5
        black_entry = result.seat_entries[0]
        assert record["agents"] == [["two_distance", "random"][e] for e in result.seat_entries]
        assert black_entry == result.rotation  # entry 0 is black in rotation 0, white in rotation 1
        state = replay(record)
        assert result.winners == (state.winner,) and result.placed == len(state.moves)
    assert [(r.deal, r.rotation) for r in ev.results] == [(d, k) for d in range(4) for k in range(2)]
    top, bottom = ev.entries
    assert top.win_rate == 1.0 and bottom.win_rate == 0.0  # two_distance never loses to random on 5x5
    assert top.win_rate_black == top.win_rate_white == 1.0 and top.rating_elo > bottom.rating_elo


def test_win_rates_per_colour_and_the_table():
    ev = evaluate(["random", "random"], 20, seed=1, game="contactix", board_size=3)
    a, b = ev.entries
    assert a.win_rate + b.win_rate == pytest.approx(1.0)
    # With both colours equally often, an entry's win rate is the mean of its two per-colour rates, and what one
    # entry wins as black the other loses as white.
    assert a.win_rate == pytest.approx((a.win_rate_black + a.win_rate_white) / 2)
    assert a.win_rate_black == pytest.approx(1 - b.win_rate_white)
    table = format_table(ev)
    assert table.splitlines()[0] == "20 games of contactix 3x3, swap rule off: 10 deals (seeds 1..10) x 2 colour rotations"
    assert table.splitlines()[1].split() == ["#", "agent", "win", "rate", "95%", "CI", "as", "black", "as", "white", "Elo", "95%", "CI"]
    data = ev.to_json()
    assert data["rules"] == {"board_size": 3, "swap": False} and data["game"] == "contactix"
    assert set(data["entries"][0]) == {"agent", "games", "win_rate", "win_rate_ci95", "win_rate_black", "win_rate_white", "rating"}


def test_same_seed_same_numbers_whatever_the_worker_count():
    args = dict(seed=3, game="contactix", board_size=4, swap=True)
    one = evaluate(["mcts:8", "random"], 6, workers=1, **args)
    two = evaluate(["mcts:8", "random"], 6, workers=2, **args)
    assert [e.to_json() for e in one.entries] == [e.to_json() for e in two.entries]
    assert [(r.winners, r.placed) for r in one.results] == [(r.winners, r.placed) for r in two.results]


def test_cli_evaluate_contactix_prints_the_table_and_writes_json_and_records(tmp_path, capsys):
    js, recs = tmp_path / "ev.json", tmp_path / "games.jsonl"
    code, out, _ = _run(
        capsys, "evaluate", "--game", "contactix", "--board-size", "4", "--swap", "--agents", "two_distance,random",
        "--games", "4", "--seed", "2", "--json", str(js), "--records", str(recs),
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "4 games of contactix 4x4, swap rule on: 2 deals (seeds 2..3) x 2 colour rotations"
    assert lines[2].split()[:2] == ["1", "two_distance"] and lines[3].split()[:2] == ["2", "random"]
    assert json.loads(js.read_text())["rules"] == {"board_size": 4, "swap": True}
    records = read_records(recs)
    assert len(records) == 4 and all(r["swap"] for r in records) and all(replay(r).done for r in records)


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--game", "contactix", "--agents", "greedy,random", "--games", "4"], "unknown agent 'greedy' for contactix; agents are: random, two_distance"),
        (["--game", "contactix", "--agents", "random,random,random", "--games", "4"], "CON-TAC-TIX is heads-up: name 2 agents"),
        (["--game", "contactix", "--agents", "random", "--games", "5"], "positive multiple of 2; got 5 (4 or 6 would do)"),
        (["--game", "contactix", "--agents", "random", "--games", "4", "--players", "3"], "--players: CON-TAC-TIX is played by 2 players; got 3"),
        (["--game", "contactix", "--agents", "random", "--games", "4", "--board-size", "2"], "--board-size: board_size is a whole number 3..19; got 2"),
        (["--agents", "random,random", "--games", "4", "--board-size", "7"], "--board-size is an option of --game contactix, not of contack"),
        (["--game", "solitaire1", "--agents", "random", "--games", "4", "--swap"], "--swap is an option of --game contactix, not of solitaire1"),
        (["--game", "contactix", "--agents", "random", "--games", "4", "--hands", "1"], "--hands is an option of --game contack, not of contactix"),
        (["--game", "solitaire2", "--agents", "random", "--games", "4", "--enclosed-end", "never"], "--enclosed-end is an option of --game contack, not of solitaire2"),
        (["--agents", "random,random", "--games", "4", "--hands", "0"], "--hands: a game has 1 to 100 hands (the rules play 3); got 0"),
        # A policy for another board or rule is an --agents error, as in simulate.
        (["--game", "contactix", "--agents", "ppo:models/contactix_5x5.npz,random", "--games", "4", "--board-size", "5",
          "--swap"], "--agents: models/contactix_5x5.npz was trained without --swap; it cannot play with --swap"),
        (["--game", "contactix", "--agents", "ppo:models/contactix_5x5.npz,random", "--games", "4"],
         "--agents: models/contactix_5x5.npz was trained with --board-size 5; it cannot play with --board-size 11"),
    ],
)
def test_cli_evaluate_contactix_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", *argv, "--seed", "0"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


# -- play ------------------------------------------------------------------------------------------------------------
def test_parse_contactix_move():
    state = ContactixState(5, swap=True)
    assert parse_contactix_move("2 3", state) == cell_index(2, 3, 5)
    assert parse_contactix_move("(2, 3)", state) == cell_index(2, 3, 5)
    state.play(cell_index(2, 3, 5))
    assert parse_contactix_move("swap", state) == cell_index(2, 3, 5)
    for text, message in [
        ("2 3", r"\(2, 3\) holds Black's first peg: type swap to take it over"),
        ("5 0", r"hole \(5, 0\) is off the board: rows and columns are 0\.\.4"),
        ("two three", r"'two three' is not a hole: type R C"),
        ("1 2 3", r"a hole is R C, two numbers \(e\.g\. 2 2\), or swap"),
        ("", r"type a hole as R C"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_contactix_move(text, state)
    state.play(0)
    with pytest.raises(ValueError, match="no swap now: the swap is White's first move only"):
        parse_contactix_move("swap", state)
    with pytest.raises(ValueError, match=r"hole \(0, 0\) already holds a white peg"):
        parse_contactix_move("0 0", state)


@pytest.mark.parametrize("size", range(3, 20))
def test_the_helps_example_hole_is_a_move_on_that_board(size):
    example = re.search(r"e\.g\. (\d+ \d+)\)", contactix_help(size)).group(1)
    state = ContactixState(size, swap=True)
    assert parse_contactix_move(example, state) in state.legal_codes()
    assert f"each 0..{size - 1}" in contactix_help(size)


def test_play_a_whole_game_from_a_script():
    # The person (white) names every hole in turn; the taken ones are refused and asked again.
    every_hole = "".join(f"{r} {c}\n" for r in range(3) for c in range(3))
    out = io.StringIO()
    code = play_contactix_terminal(3, "random", seat=1, seed=5, input=io.StringIO("nonsense\n" + every_hole), output=out)
    text = out.getvalue()
    assert code == 0
    assert "You are white (o), random is black" in text
    assert "e.g. 1 1" in text  # the help's example is on this 3x3 board
    assert "'nonsense' is not a hole" in text
    assert "black (random) plays (" in text
    assert "has joined their sides after" in text and ("You win!" in text or "You lose." in text)


def test_cli_play_contactix(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = _run(capsys, "play", "--game", "contactix", "--board-size", "5", "--seed", "1")
    assert code == 0 and "CON-TAC-TIX 5x5" in out and "two_distance is white" in out and "Game stopped." in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--seat", "2"], "--seat: 0 (black, moves first) or 1 (white); got 2"),
        (["--players", "3"], "--players: CON-TAC-TIX is played by 2 players; got 3"),
        (["--board-size", "40"], "--board-size: board_size is a whole number 3..19; got 40"),
        (["--agents", "lookahead"], "unknown agent 'lookahead' for contactix"),
        (["--agents", "random,random"], "--agents: CON-TAC-TIX is heads-up, so it takes one bot (the other seat is "
                                        "yours); got 2: random,random"),
        (["--hands", "1"], "--hands is an option of --game contack, not of contactix"),
    ],
)
def test_cli_play_contactix_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit):
        main(["play", "--game", "contactix", *argv])
    assert message in capsys.readouterr().err


def test_cli_play_contack_refuses_contactix_options(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--board-size", "7"])
    assert "--board-size is an option of --game contactix, not of contack" in capsys.readouterr().err
