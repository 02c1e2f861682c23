"""The ``contack evaluate`` and ``contack play`` subcommands (wired in contack_env/cli/)."""

import io
import json
from pathlib import Path

import pytest

from contack_env.cli import main
from contack_env.records import check_paths

MODELS = Path(__file__).resolve().parents[2] / "models"


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_evaluate_prints_the_table_and_writes_json_and_records(tmp_path, capsys):
    js, recs = tmp_path / "ev.json", tmp_path / "games.jsonl"
    code, out, _ = _run(
        capsys, "evaluate", "--players", "2", "--agents", "lookahead,greedy", "--games", "6", "--seed", "7",
        "--json", str(js), "--records", str(recs),
    )
    assert code == 0
    assert "6 games of contack, 2 players, 3 hands" in out
    assert "3 deals (seeds 7..9) x 2 seat rotations" in out
    lines = out.splitlines()
    assert lines[2].split()[:2] == ["1", "lookahead"] and lines[3].split()[:2] == ["2", "greedy"]
    data = json.loads(js.read_text())
    assert data["games"] == 6 and [e["agent"] for e in data["entries"]] == ["lookahead", "greedy"]
    assert f"wrote 6 records to {recs}" in out
    assert check_paths([str(recs)], out=io.StringIO()) == (6, 0)


def test_evaluate_with_an_agent_seed_says_so_and_its_games_are_simulate_games(tmp_path, capsys):
    js, recs, again = tmp_path / "ev.json", tmp_path / "games.jsonl", tmp_path / "again.jsonl"
    code, out, _ = _run(
        capsys, "evaluate", "--agents", "greedy,mcts:4", "--games", "4", "--seed", "7", "--agent-seed", "100",
        "--json", str(js), "--records", str(recs),
    )
    assert code == 0 and "2 deals (seeds 7..8) x 2 seat rotations; the agents' random choices from seeds 100..101" in out
    assert json.loads(js.read_text())["agent_seed"] == 100
    last = json.loads(recs.read_text().splitlines()[-1])  # deal 1, second rotation: mcts:4 in seat 0
    code, _, _ = _run(capsys, "simulate", "--players", "2", "--agents", ",".join(last["agents"]), "--games", "1",
                      "--seed", "8", "--agent-seed", "101", "--out", str(again))
    assert code == 0 and json.loads(again.read_text()) == last


def test_a_contactix_evaluation_game_is_a_simulate_game(tmp_path, capsys):
    recs, again = tmp_path / "games.jsonl", tmp_path / "again.jsonl"
    code, _, _ = _run(capsys, "evaluate", "--game", "contactix", "--board-size", "5", "--agents", "random,mcts:3",
                      "--games", "4", "--seed", "7", "--records", str(recs))
    assert code == 0
    records = [json.loads(line) for line in recs.read_text().splitlines()]
    for record in (records[1], records[2]):  # one game of each rotation
        code, _, _ = _run(capsys, "simulate", "--game", "contactix", "--board-size", "5", "--agents",
                          ",".join(record["agents"]), "--games", "1", "--seed", str(record["seed"]), "--out", str(again))
        assert code == 0 and json.loads(again.read_text()) == record


def test_evaluate_refuses_json_and_records_in_one_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "0", "--json", "same.json",
              "--records", "./same.json"])
    assert exit_info.value.code == 2 and "--json and --records name the same file" in capsys.readouterr().err
    assert not (tmp_path / "same.json").exists()
    # a stream is not replaced: both go to it, one after the other
    assert main(["evaluate", "--agents", "greedy,random", "--games", "2", "--seed", "0", "--json", "/dev/null",
                 "--records", "/dev/null", "--progress", "off"]) == 0


def test_evaluate_solitaire(capsys):
    code, out, _ = _run(capsys, "evaluate", "--game", "solitaire1", "--agents", "greedy,random", "--games", "3", "--seed", "0")
    assert code == 0
    assert "solitaire1: every agent plays the same 3 deals" in out
    assert "tiles placed" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--agents", "greedy,clever", "--games", "4"], "unknown agent 'clever'; agents are: random, greedy, lookahead, mcts"),
        (["--players", "8", "--agents", "greedy", "--games", "8"], "Contack is played by 2 to 7 players; got 8"),
        # --players not given: the seats are counted from --agents, and the message says so, not "--players: got 1"
        (["--agents", "greedy", "--games", "2"], "error: --agents names 1 agent, one a seat, and Contack is played by 2 to 7 "
                                                 "players: name 2 to 7 agents, or one and --players N to seat it N times"),
        ([f"--agents={','.join(['greedy'] * 8)}", "--games", "8"], "error: --agents names 8 agents, one a seat"),
        (["--agents", "greedy,ppo:nowhere/model.zip", "--games", "4"], "no policy file at nowhere/model.zip"),
        (["--agents", "greedy,ppo", "--games", "4"], "ppo needs the path of a trained model: ppo:PATH"),
        (["--agents", "greedy,mcts:lots", "--games", "4"], "budget is a whole number of iterations"),
        (["--agents", "greedy,random", "--games", "5"], "multiple of 2; got 5"),
        # a game of one table size names the option and the game by its title, as simulate and play do
        (["--game", "contactix", "--players", "3", "--agents", "random,random", "--games", "2"],
         "error: --players: CON-TAC-TIX is played by 2 players; got 3"),
        (["--game", "solitaire1", "--players", "2", "--agents", "random", "--games", "2"],
         "error: --players: Solitaire No. 1 is a solitaire, played by 1 player; got 2"),
        (["--players", "3", "--agents", "greedy,random", "--games", "6"], "3 players need 3 agents"),
        (["--agents", "greedy,random", "--games", "4", "--workers", "0"], "error: --workers is at least 1; got 0"),
        (["--agents", "greedy,random", "--games", "4", "--workers", "100000"], "workers is at most 256 processes"),
        (["--agents", "greedy,random", "--games", "10000000002"], "games is at most 10,000,000 in one evaluation"),
        (["--game", "solitaire1", "--agents", "random", "--games", "10000001"], "got 10,000,001: play several"),
        (["--game", "solitaire2", "--players", "2", "--agents", "greedy", "--games", "4"], "solitaire, played by 1 player"),
        (["--agents", "greedy,random", "--games", "4", "--agent-seed", "-3"], "--agent-seed: a seed is a whole number 0.."),
    ],
)
def test_evaluate_bad_arguments_say_what_is_allowed(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", *argv, "--seed", "0"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_evaluate_ppo_with_a_file_that_is_no_policy_says_so(tmp_path, capsys):
    model = tmp_path / "model.zip"
    model.write_bytes(b"not a model")
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "--agents", f"greedy,ppo:{model}", "--games", "2", "--seed", "0"])
    assert exit_info.value.code == 2
    assert f"{model} is not a contack-policy/1 policy file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,model,game",
    [
        (["evaluate", "--players", "2", "--agents", "ppo:{},random", "--games", "2"], "solitaire1", "contack"),
        (["evaluate", "--players", "2", "--agents", "ppo:{},random", "--games", "2"], "contactix_5x5", "contack"),
        (["evaluate", "--game", "solitaire1", "--agents", "ppo:{}", "--games", "2"], "contack_2p", "solitaire1"),
        (["evaluate", "--game", "solitaire1", "--agents", "greedy,ppo:{}", "--games", "2"], "solitaire2", "solitaire1"),
        (["evaluate", "--game", "contactix", "--board-size", "5", "--agents", "ppo:{},random", "--games", "2"],
         "contack_4p", "contactix"),
        (["simulate", "--game", "solitaire2", "--agents", "ppo:{}", "--games", "1", "--out", "x.jsonl"], "solitaire1",
         "solitaire2"),
        (["play", "--players", "2", "--agents", "ppo:{}"], "solitaire2", "contack"),
    ],
)
def test_a_policy_for_another_game_is_refused_before_play_starts(capsys, argv, model, game):
    # Every shipped model's file records its game; a mismatch is a usage error (exit 2), not a traceback mid-game.
    path = str(MODELS / f"{model}.npz")
    with pytest.raises(SystemExit) as exit_info:
        main([*(a.format(path) for a in argv), "--seed", "0"])
    assert exit_info.value.code == 2
    trained_for = "contactix" if model.startswith("contactix") else model.split("_")[0]
    assert f"--agents: {path} is a policy for '{trained_for}', not for '{game}'" in capsys.readouterr().err


def test_play_from_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("nonsense\n" + "1\n" * 200))
    code, out, _ = _run(capsys, "play", "--players", "2", "--agents", "greedy", "--seed", "4", "--hands", "1")
    assert code == 0
    assert "'nonsense' is not a move" in out
    assert "Final scores" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--players", "8"], "Contack is played by 2 to 7 players; got 8"),
        (["--seat", "2"], "the seats are 0..1; got 2"),
        (["--agents", "sneaky"], "unknown agent 'sneaky'"),
        (["--players", "4", "--agents", "greedy,random"], "one per bot seat (3); got 2"),
    ],
)
def test_play_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit):
        main(["play", *argv])
    assert message in capsys.readouterr().err
