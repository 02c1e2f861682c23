"""``contack train --algorithm az`` on a game the suite has never seen (``nim_game``): a game whose registry entry
names a state observer trains with defaults that need nothing of Contack, its evaluations play the ``az:`` spec
against the bots every game has, and the network it writes plays the game."""

import csv

import pytest

from agents.arena import play_game
from agents.registry import make_agent, spec_help
from contack_env.games import GAMES
from nim_game import NIM, NimState
from training.az.config import AZConfig
from training.train import main


@pytest.fixture
def nim(monkeypatch):
    monkeypatch.setitem(GAMES, "nim", NIM)


def test_its_defaults_leave_out_what_only_contack_has(nim):
    cfg = AZConfig.from_dict({"game": "nim"})
    assert (cfg.features, cfg.rollout, cfg.pretrain_games) == ("none", 0.0, 0)
    assert cfg.eval_opponents == ["random", "mcts:200"]
    assert "az:PATH" in spec_help("nim")
    for setting, value in (("features", "lookahead"), ("rollout", 0.5), ("leaf_moves", 2), ("value_playouts", 4),
                           ("pretrain_games", 10)):
        with pytest.raises(ValueError, match=rf"^{setting}: .* are made for contack, solitaire1, solitaire2; nim takes"):
            AZConfig.from_dict({"game": "nim", setting: value})


def test_a_short_run_trains_and_evaluates_it(nim, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["--algorithm", "az", "--game", "nim", "--iterations", "2", "--games-per-iteration", "4",
                 "--sims", "8", "--play-sims", "8", "--workers", "1", "--net-arch", "16", "--batch-size", "16",
                 "--eval-every", "2", "--eval-games", "4", "--progress", "off", "--out", str(out)]) == 0
    with open(out / "eval.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {(r["iteration"], r["opponent"]) for r in rows if r["agent"] == "az"} == {
        (i, o) for i in ("0", "2") for o in ("random", "mcts:200")}
    state = play_game(NimState(), [make_agent(f"az:{out / 'policy.npz'}", seed=0, game="nim"),
                                   make_agent("random", seed=1, game="nim")])
    assert state.done and sum(state.taken) == 21  # the network file plays it: legal moves, to the end
