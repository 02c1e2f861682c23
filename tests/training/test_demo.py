"""The main job (`contack demo`) on small stand-in models: tables, JSONs, a plot, a finished game that replays."""

import json
from pathlib import Path

import pytest
from az_nets import uniform_net  # tests/training/conftest.py

from contack_env.cli import main
from contack_env.records import check_paths
from training.config import TrainConfig
from training.train import train


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    for players in (2, 4):
        run = folder / f"run{players}"
        cfg = TrainConfig(players=players, total_timesteps=64, n_envs=1, n_steps=64, batch_size=64, n_epochs=1,
                          net_arch=[16], eval_every=0)
        train(cfg, str(run), progress=False)
        (run / "policy.npz").rename(folder / f"contack_{players}p.npz")
        uniform_net().save(folder / f"contack_{players}p_az.npz")  # every move alike: the demo plays it alone
    return folder


def test_the_demo_prints_the_tables_and_writes_its_files(models, tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["demo", "--games", "4", "--models", str(models), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("win rate") >= 8
    for name in ("results.png", "game.png", "game.jsonl", "demo_1.json", "demo_8.json"):
        assert (out / name).is_file(), name
    first = json.loads((out / "demo_1.json").read_text())
    assert first["entries"][0]["agent"].startswith("ppo:") and first["entries"][1]["agent"] == "random"
    # Then the search-guided networks alone against lookahead, heads-up and at four players.
    for k, players in ((7, 2), (8, 4)):
        az = json.loads((out / f"demo_{k}.json").read_text())
        agents = [e["agent"] for e in az["entries"]]
        assert az["players"] == players and agents == [f"az:{models}/contack_{players}p_az.npz:0"] + ["lookahead"] * (players - 1)
    assert not (out / "demo_9.json").exists()
    assert check_paths([str(out / "game.jsonl")], out=None) == (1, 0)


def test_missing_models_say_where_they_were_looked_for(tmp_path, capsys):
    assert main(["demo", "--games", "2", "--models", str(tmp_path), "--out", str(tmp_path / "o")]) == 1
    assert f"no shipped model at {tmp_path}/contack_2p.npz" in capsys.readouterr().err


def test_a_models_folder_that_does_not_exist_is_a_usage_error_as_a_file_there_is(tmp_path, capsys):
    (tmp_path / "file").write_text("mine")
    for models, told in ((tmp_path / "nope", f"there is no {tmp_path / 'nope'}"), (tmp_path / "file", f"{tmp_path / 'file'} is a file")):
        with pytest.raises(SystemExit) as exited:
            main(["demo", "--games", "2", "--models", str(models), "--out", str(tmp_path / "o")])
        err = capsys.readouterr().err
        assert exited.value.code == 2 and f"contack demo: error: --models names the folder of the shipped models; {told}" in err
    assert not (tmp_path / "o").exists()


def _copy_of(models, folder, names):
    """``folder`` holding copies of the model files ``names`` of the folder ``models`` (and no others)."""
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes((models / name).read_bytes())
    return folder


def test_a_model_its_agent_cannot_play_is_found_before_any_game(models, tmp_path, capsys):
    partial = _copy_of(models, tmp_path / "models", ("contack_2p.npz", "contack_4p.npz", "contack_4p_az.npz"))
    (partial / "contack_2p_az.npz").write_bytes((models / "contack_2p.npz").read_bytes())  # a PPO file in its place
    assert main(["demo", "--games", "2", "--models", str(partial), "--out", str(tmp_path / "o")]) == 1
    captured = capsys.readouterr()
    assert f"contack demo: the shipped model {partial}/contack_2p_az.npz cannot be played (" in captured.err
    assert "format is 'contack-policy/1', expected 'contack-az/1'" in captured.err
    assert "win rate" not in captured.out and not (tmp_path / "o").exists()


def test_an_out_folder_under_a_file_is_a_usage_error(models, tmp_path, capsys):
    (tmp_path / "file").write_text("mine")
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--games", "2", "--models", str(models), "--out", str(tmp_path / "file" / "o")])
    assert exited.value.code == 2 and "contack demo: error: --out:" in capsys.readouterr().err
    assert (tmp_path / "file").read_text() == "mine"


def test_a_missing_search_guided_model_is_found_before_any_game(models, tmp_path, capsys):
    partial = _copy_of(models, tmp_path / "models", ("contack_2p.npz", "contack_4p.npz", "contack_2p_az.npz"))
    assert main(["demo", "--games", "2", "--models", str(partial), "--out", str(tmp_path / "o")]) == 1
    captured = capsys.readouterr()
    assert f"no shipped model at {partial}/contack_4p_az.npz" in captured.err
    assert "win rate" not in captured.out and not (tmp_path / "o").exists()


def test_the_shipped_models_are_found_from_any_folder(tmp_path, monkeypatch, capsys):
    from agents.policy_file import shipped_models_folder

    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # the repository's root, where the README's commands run
    assert shipped_models_folder() == "models"
    monkeypatch.chdir(tmp_path)
    folder = shipped_models_folder()
    assert folder.endswith("models") and (tmp_path / folder / "contack_2p.npz").is_file()  # an absolute path
    assert main(["demo", "--games", "4", "--workers", "1", "--out", "out"]) == 0
    first = json.loads((tmp_path / "out" / "demo_1.json").read_text())
    assert first["entries"][0]["agent"] == f"ppo:{folder}/contack_2p.npz"
    assert check_paths([str(tmp_path / "out" / "game.jsonl")], out=None) == (1, 0)


def test_a_worker_killed_mid_game_is_one_line_saying_what_was_kept(models, tmp_path, monkeypatch, capsys):
    import importlib

    from agents.worker_pool import LOST, WorkerLost

    class LosesAWorker:  # as the pool reports a worker the system killed (tests/agents/test_worker_pool.py)
        def __init__(self, workers):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        def map(self, function, items, chunksize=1):
            raise WorkerLost(LOST)

    # The module, not the function that agents/__init__.py binds to the same name
    monkeypatch.setattr(importlib.import_module("agents.evaluate"), "WorkerPool", LosesAWorker)
    assert main(["demo", "--games", "4", "--workers", "2", "--models", str(models), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert err == f"contack demo: {LOST}; --out is as it was (the demo's files replace those there only once every game is played)\n"
    assert list((tmp_path / "o").iterdir()) == []  # nothing of the run left


def test_a_folder_holding_files_a_demo_did_not_write_is_refused_and_left_as_it_was(models, tmp_path, capsys):
    mine = tmp_path / "mydemo"
    mine.mkdir()
    (mine / "game.jsonl").write_text("my precious notes")
    (mine / "notes.txt").write_text("mine too")
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--games", "2", "--models", str(models), "--out", str(mine)])
    assert exited.value.code == 2
    assert f"--out {mine} holds game.jsonl, which no demo wrote there" in capsys.readouterr().err
    assert sorted(p.name for p in mine.iterdir()) == ["game.jsonl", "notes.txt"]
    assert (mine / "game.jsonl").read_text() == "my precious notes"
    # other files are left alone: without game.jsonl the demo writes beside them, and runs there again
    (mine / "game.jsonl").unlink()
    for _ in range(2):
        assert main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(mine)]) == 0
    assert (mine / "notes.txt").read_text() == "mine too" and (mine / "game.jsonl").is_file()


def test_a_file_put_in_place_of_a_demos_output_is_refused_and_kept(models, tmp_path, capsys):
    # the marker once made every file of an output's name the demo's to replace: a picture of the user's copied
    # over game.png in a demo's folder was replaced without a word
    out = tmp_path / "d"
    assert main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(out)]) == 0
    (out / "game.png").write_bytes(b"\x89PNG my own picture")
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(out)])
    assert exited.value.code == 2
    assert (f"--out {out} holds game.png, which the demo that wrote there did not write or which changed since"
            in capsys.readouterr().err)
    assert (out / "game.png").read_bytes() == b"\x89PNG my own picture"


def test_an_interrupted_demo_leaves_the_earlier_demos_files_as_they_were(models, tmp_path, monkeypatch, capsys):
    # an interrupted demo once left the new run's first tables beside the earlier run's plot and game
    import training.demo
    from training.demo import MARKER, OUTPUTS

    out = tmp_path / "d"
    assert main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) == {*OUTPUTS, MARKER}

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(training.demo, "write_finished_game", interrupted)  # the last step, the tables written
    assert main(["demo", "--games", "4", "--seed", "9", "--workers", "1", "--models", str(models), "--out", str(out)]) == 130
    assert "--out is as it was" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    monkeypatch.undo()
    assert main(["demo", "--games", "4", "--seed", "9", "--workers", "1", "--models", str(models), "--out", str(out)]) == 0
    assert json.loads((out / "demo_8.json").read_text())["games"] == 4  # its own files, still the demo's to replace


def test_a_folder_marked_before_markers_listed_the_files_is_still_the_demos(models, tmp_path):
    from training.demo import MARKER, OUTPUTS

    old = tmp_path / "runs_demo"
    old.mkdir()
    (old / MARKER).write_text("contack demo writes its files here and replaces them on the next run\n")
    for name in OUTPUTS:
        (old / name).write_text("an earlier demo's")
    assert main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(old)]) == 0
    assert json.loads((old / "demo_1.json").read_text())["games"] == 2
    assert json.loads((old / MARKER).read_text())["format"] == "contack-demo/1"


def test_a_whole_demos_output_from_before_the_marker_is_replaced(models, tmp_path):
    from training.demo import OUTPUTS

    old = tmp_path / "runs_demo"
    old.mkdir()
    for name in OUTPUTS:
        (old / name).write_text("an earlier demo's")
    assert main(["demo", "--games", "2", "--workers", "1", "--models", str(models), "--out", str(old)]) == 0
    assert json.loads((old / "demo_1.json").read_text())["games"] == 2


@pytest.mark.parametrize("argv,message", [
    (["--workers", "300"], "--workers is at most 256; got 300"),
    (["--out", ""], "--out names the folder for the demo's files; got an empty name"),
    (["--games", "3", "--seed", "9223372036854775807"], "--seed 9223372036854775807 with 2 deals would play"),
])
def test_bad_options_are_usage_errors_before_any_folder_is_made(models, tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["demo", "--games", "2", "--models", str(models), "--out", "o", *argv])
    assert exited.value.code == 2 and message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
