"""`contack train --out DIR` deletes or overwrites only files it can prove it wrote (training.run_folder)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from training.config import TrainConfig
from training.run_folder import MARKER
from training.train import TrainingError, train

SMALL = dict(n_envs=1, n_steps=64, batch_size=64, n_epochs=1, net_arch=[16], snapshot_every=64, eval_every=0,
             opponents="greedy,self")
TINY = ["--n-envs", "1", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
        "--eval-every", "0", "--progress", "off"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _users_folder(folder: Path) -> dict[str, bytes]:
    # What a user may well keep under names a run also writes: their own results, notes and pictures.
    (folder / "snapshots").mkdir(parents=True)
    (folder / "tb").mkdir()
    (folder / "config.toml").write_text("[train]\nseed = 7\n# my notes\n")
    (folder / "eval.csv").write_text("timesteps,opponent\n0,my experiment\n")
    (folder / "learning_curve.png").write_bytes(b"my picture")
    (folder / "state.json").write_text('{"mine": true}')
    (folder / "policy.npz").write_bytes(b"my policy")
    (folder / "snapshots" / "snap_0000000064.npz").write_bytes(b"my snapshot")
    (folder / "tb" / "notes.txt").write_text("mine")
    return _snapshot(folder)


@pytest.mark.parametrize("kind", ["with config.toml", "eval.csv only"])
def test_a_folder_that_is_not_a_run_of_ours_is_refused_before_any_work(tmp_path, cli, kind):
    folder = tmp_path / "mine"
    if kind == "eval.csv only":
        folder.mkdir()
        (folder / "eval.csv").write_text("timesteps,opponent\n0,my experiment\n")
        before = _snapshot(folder)
    else:
        before = _users_folder(folder)
    result = cli("train", "--out", folder, "--total-timesteps", "64", *TINY)
    result.assert_clean_failure(1, "is not empty and is not a run folder of `contack train`")
    assert "Choose a new or empty folder for --out" in result.err
    assert _snapshot(folder) == before, "nothing in the folder was touched"
    assert not (folder / MARKER).exists()


def test_the_folder_is_checked_before_the_configuration_is_even_built(tmp_path, monkeypatch):
    # The refusal comes first: no environment or model is made (this would fail if it were).
    import training.train as tt

    folder = tmp_path / "mine"
    before = _users_folder(folder)
    monkeypatch.setattr(tt, "_vec_env", lambda cfg: pytest.fail("work started in a folder that is not ours"))
    assert tt.main(["--out", str(folder), "--total-timesteps", "64", *TINY]) == 1
    assert _snapshot(folder) == before


@pytest.mark.parametrize("algorithm", [[], ["--algorithm", "az"]])
@pytest.mark.parametrize("where", ["the file", "under the file"])
def test_out_naming_a_file_is_a_usage_error_at_once(tmp_path, cli, where, algorithm):
    # As for every command's --out (demo, simulate): a path that can never be a folder, exit status 2.
    target = tmp_path / "results.txt"
    target.write_text("keep me")
    out = target if where == "the file" else target / "run"
    result = cli("train", "--out", out, *(algorithm or TINY))
    result.assert_clean_failure(2, "is a file, not a folder" if where == "the file" else "lies under the file")
    assert "usage: contack train" in result.err
    assert target.read_text() == "keep me"


def test_a_run_marks_its_folder_and_a_second_run_there_is_refused(tmp_path, cli):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    marker = json.loads((out / MARKER).read_text())
    assert marker["format"] == "contack-run/1"
    assert json.loads((out / "state.json").read_text())["run_id"] == marker["run_id"]
    before = _snapshot(out)
    cli("train", "--out", out, *TINY).assert_clean_failure(1, "already holds a run (checkpoint.zip); continue it with --resume")
    assert _snapshot(out) == before


def test_a_run_killed_before_its_first_checkpoint_is_replaced_but_only_its_own_files(tmp_path):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    (out / "checkpoint.zip").unlink()  # as if killed before its first checkpoint
    (out / "snapshots" / "mine.npz").write_bytes(b"mine")  # not a name a run writes
    (out / "tb" / "mine.txt").write_text("mine")
    (out / "notes.txt").write_text("mine")
    old_id = json.loads((out / MARKER).read_text())["run_id"]
    train(TrainConfig(total_timesteps=64, seed=1, **SMALL), str(out), progress=False)
    for name in ("snapshots/mine.npz", "tb/mine.txt", "notes.txt"):
        assert (out / name).exists(), name
    new_id = json.loads((out / MARKER).read_text())["run_id"]
    assert new_id != old_id and json.loads((out / "state.json").read_text())["run_id"] == new_id
    assert TrainConfig.load(str(out / "config.toml")).seed == 1


def test_a_run_made_before_markers_still_resumes_and_is_marked(tmp_path, cli):
    out = tmp_path / "old"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    (out / MARKER).unlink()  # the layout of a run made before markers existed
    state = json.loads((out / "state.json").read_text())
    del state["run_id"]
    (out / "state.json").write_text(json.dumps(state))
    refused = cli("train", "--out", out, *TINY)
    refused.assert_clean_failure(1, "made before run folders were marked; continue it with --resume")
    assert not (out / MARKER).exists()
    ok = cli("train", "--out", out, "--resume", "--total-timesteps", "128", "--progress", "off")
    assert ok.code == 0, ok.err
    assert (out / MARKER).is_file()
    assert json.loads((out / "state.json").read_text())["timesteps"] == 128


def test_a_run_copied_without_its_marker_is_marked_again_with_its_own_id(tmp_path, cli):
    # `cp -r run/* copy/` leaves the dot-file marker behind; the resume marks the copy with the run id its
    # state.json holds, so that the state and the marker agree at the next resume too.
    out = tmp_path / "copy"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    run_id = json.loads((out / MARKER).read_text())["run_id"]
    (out / MARKER).unlink()
    ok = cli("train", "--out", out, "--resume", "--total-timesteps", "128", "--progress", "off")
    assert ok.code == 0, ok.err
    assert json.loads((out / MARKER).read_text())["run_id"] == run_id
    assert json.loads((out / "state.json").read_text())["run_id"] == run_id


def test_resume_refuses_a_state_of_another_run(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    (a / "state.json").write_bytes((b / "state.json").read_bytes())
    with pytest.raises(TrainingError, match="belongs to another run"):
        train(None, str(a), resume=True, progress=False, total_timesteps=128)


def test_resume_of_a_folder_that_is_no_run_is_refused(tmp_path, cli):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "checkpoint.zip").write_bytes(b"my zip")
    cli("train", "--out", folder, "--resume").assert_clean_failure(1, "is not a run folder of `contack train`")
    assert (folder / "checkpoint.zip").read_bytes() == b"my zip"


def test_resume_to_fewer_steps_than_done_is_refused_and_a_change_is_said(tmp_path, cli):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=128, **SMALL), str(out), progress=False)
    config = (out / "config.toml").read_text()
    refused = cli("train", "--out", out, "--resume", "--total-timesteps", "100")
    refused.assert_clean_failure(1, "--total-timesteps 100 is below the 128 timesteps this run has done")
    assert (out / "config.toml").read_text() == config
    grown = cli("train", "--out", out, "--resume", "--total-timesteps", "192", "--progress", "off")
    assert grown.code == 0, grown.err
    assert "the run's total_timesteps changes from 128 to 192" in grown.err
    assert TrainConfig.load(str(out / "config.toml")).total_timesteps == 192


@pytest.mark.parametrize("value", [-5, "12", 1.5, True])
def test_a_checkpoint_with_a_bad_step_count_is_called_damaged(tmp_path, cli, value):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    config = (out / "config.toml").read_text()
    with zipfile.ZipFile(out / "checkpoint.zip") as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    data = json.loads(members["data"])
    data["num_timesteps"] = value
    members["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(out / "checkpoint.zip", "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    result = cli("train", "--out", out, "--resume", "--total-timesteps", "128")
    result.assert_clean_failure(1, "checkpoint.zip is damaged or not a checkpoint of `contack train` (num_timesteps is")
    assert (out / "config.toml").read_text() == config, "the folder is left as it was"
    assert json.loads((out / "state.json").read_text())["timesteps"] == 64


def test_an_rllib_checkpoint_marks_a_run_and_only_its_half_written_copies_are_cleared(tmp_path, cli):
    # What a --backend rllib run leaves (training.rllib.train): a checkpoint is a folder. Built by hand here,
    # so that the rules hold without Ray installed.
    from training.run_folder import check_new_run_folder, write_marker

    out = tmp_path / "run"
    (out / "rllib_checkpoint_0000000128").mkdir(parents=True)
    (out / "rllib_checkpoint_0000000128" / "learner.pkl").write_bytes(b"state")
    write_marker(str(out), "a1")
    with pytest.raises(TrainingError, match=r"already holds a --backend rllib run \(rllib_checkpoint_0000000128\); "
                                            "continue it with --backend rllib --resume"):
        check_new_run_folder(str(out))
    # The sb3 trainer's --resume names the backend to use instead of saying there is nothing to resume.
    cli("train", "--out", out, "--resume").assert_clean_failure(
        1, "it holds a --backend rllib run (rllib_checkpoint_0000000128): continue it with --backend rllib --resume")
    # Killed while writing its first checkpoint (at 0, before any training): the half-written folder, never
    # renamed into place, is no run, and a new run clears it; nothing of the user's, even under a name close to
    # the run's.
    (out / "rllib_checkpoint_0000000128").rename(out / ".tmp-0badcaferllib_checkpoint_0000000000")
    (out / "rllib_checkpoint_mine").mkdir()
    (out / ".tmp-notes").write_text("mine")
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    assert not (out / ".tmp-0badcaferllib_checkpoint_0000000000").exists()
    assert (out / "rllib_checkpoint_mine").is_dir() and (out / ".tmp-notes").read_text() == "mine"
    assert (out / "checkpoint.zip").is_file()


def unreadable(monkeypatch, path: Path) -> None:
    """Reading ``path`` fails with permission denied from now on (the file itself stays whole), as it does for
    anyone but root when its mode is 000: so that the test says the same as root and as anyone else."""
    import builtins
    import io
    import os

    target = os.path.realpath(path)

    def guarded(real):
        def open_(file, *args, **kwargs):
            if isinstance(file, (str, os.PathLike)) and os.path.realpath(file) == target:
                raise PermissionError(13, "Permission denied", os.fspath(file))
            return real(file, *args, **kwargs)
        return open_

    monkeypatch.setattr(builtins, "open", guarded(builtins.open))
    monkeypatch.setattr(io, "open", guarded(io.open))


@pytest.mark.parametrize("name", ["checkpoint.zip", "state.json", MARKER])
def test_a_run_file_that_cannot_be_read_is_said_so_and_never_called_damaged(tmp_path, capsys, monkeypatch, name):
    from training.train import main

    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    before = _snapshot(out)
    unreadable(monkeypatch, out / name)
    assert main(["--out", str(out), "--resume", "--total-timesteps", "128", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert f"{name} cannot be read (Permission denied)" in err, err
    assert "damaged" not in err and "remove" not in err and "Traceback" not in err
    assert "changes from" not in err, "a resume that failed says of no change"
    monkeypatch.undo()
    assert _snapshot(out) == before, "the folder is left as it was"


@pytest.mark.parametrize("state, why", [
    ("[1, 2]", "it holds an array, not a JSON object"),
    ("null", "it holds null, not a JSON object"),
    ('{"snapshots": 5}', "snapshots is 5, not a list of file names"),
    ('{"snapshots": [5]}', "snapshots is [5], not a list of file names"),
    ('{"timesteps": "64"}', "timesteps is '64', not a count of 0 or more"),
    ('{"wall_s": "1"}', "wall_s is '1', not a number of seconds"),
])
def test_a_state_of_the_wrong_shape_is_called_damaged_on_resume(tmp_path, cli, state, why):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    (out / "state.json").write_text(state)
    before = _snapshot(out)
    result = cli("train", "--out", out, "--resume", "--total-timesteps", "128")
    result.assert_clean_failure(1, f"state.json is damaged ({why}); remove it to resume without the snapshots")
    assert _snapshot(out) == before


@pytest.mark.parametrize("name", ["checkpoint.pt", "buffer.npz", "state.json", MARKER, "config.toml"])
def test_an_az_run_file_that_cannot_be_read_is_said_so_and_never_called_damaged(tmp_path, capsys, monkeypatch, name):
    from training.train import main

    out = tmp_path / "run"
    assert main(["--algorithm", "az", "--iterations", "1", "--games-per-iteration", "2", "--sims", "2",
                 "--play-sims", "2", "--workers", "1", "--net-arch", "16", "--eval-every", "0", "--hands", "1",
                 "--progress", "off", "--out", str(out)]) == 0
    before = _snapshot(out)
    capsys.readouterr()
    unreadable(monkeypatch, out / name)
    assert main(["--out", str(out), "--resume", "--iterations", "2", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert f"{name}: Permission denied" in err if name == "config.toml" else f"{name} cannot be read (Permission denied)" in err, err
    for wrong in ("damaged", "remove", "Traceback", "cannot write", "change from", "not used by PPO"):
        assert wrong not in err, err
    monkeypatch.undo()
    assert _snapshot(out) == before, "the folder is left as it was"


@pytest.mark.parametrize("spoil, why", [
    (lambda text: text.replace("timesteps,", "steps,", 1), "line 1: its header is steps,opponent,"),
    (lambda text: text + "abc,random,2,0.5,0.1,0.9,0,0,1.0,policy,\n", "line 4: timesteps is 'abc', not a whole number"),
    (lambda text: text + "64\n", "line 4: it has 1 field, the header 11"),
    (lambda text: text + "64,random,2,half,0.1,0.9,0,0,1.0,policy,\n", "line 4: win_rate is 'half', not a number"),
])
def test_a_damaged_eval_csv_stops_the_resume_before_any_work(tmp_path, capsys, spoil, why):
    # It failed at the end of the resumed training (drawing the curve, no checkpoint written), or with a
    # traceback, or with a message naming no file.
    from training.train import main

    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **{**SMALL, "eval_every": 64, "eval_games": 2, "eval_opponents": ["random"]}),
          str(out), progress=False)
    (out / "eval.csv").write_text(spoil((out / "eval.csv").read_text()))
    before = _snapshot(out)
    capsys.readouterr()
    assert main(["--out", str(out), "--resume", "--total-timesteps", "128", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert f"contack train: {out / 'eval.csv'} is damaged ({why}" in err and "Traceback" not in err, err
    assert "mend it, or remove it to go on without the evaluations made so far" in err
    assert _snapshot(out) == before, "the folder is left as it was"


@pytest.mark.parametrize("algorithm", [[], ["--algorithm", "az", "--iterations", "1", "--games-per-iteration", "2",
                                            "--sims", "2", "--play-sims", "2", "--workers", "1", "--hands", "1"]])
@pytest.mark.parametrize("how", ["new run", "resume"])
def test_the_folder_of_a_run_going_on_now_is_refused_and_left_alone(tmp_path, capsys, algorithm, how):
    # A run killed before its first checkpoint leaves a marker and no checkpoint, as a run still before its first
    # checkpoint does: a second run took the live one's folder for a dead one's and removed its files.
    from training.run_folder import folder_held
    from training.train import main

    out = tmp_path / "run"
    argv = [*(algorithm or TINY), "--net-arch", "16", "--eval-every", "0", "--progress", "off", "--out", str(out)]
    assert main([*argv, *([] if algorithm else ["--total-timesteps", "64"])]) == 0
    if how == "new run":  # the live run, before its first checkpoint
        (out / ("checkpoint.pt" if algorithm else "checkpoint.zip")).unlink()
    before = _snapshot(out)
    capsys.readouterr()
    with folder_held(str(out)):  # as the live run holds it
        resumed = ["--out", str(out), "--resume", "--progress", "off"]
        assert main(resumed if how == "resume" else [*argv, *([] if algorithm else ["--total-timesteps", "64"])]) == 1
    err = capsys.readouterr().err
    assert f"contack train: {out} is in use: a `contack train` run is going on there now" in err, err
    assert _snapshot(out) == before, "the live run's files are left alone"
    assert main([*argv, *([] if algorithm else ["--total-timesteps", "64"])] if how == "new run"
                else ["--out", str(out), "--resume", "--progress", "off"]) == 0, "once it ends, the folder is free"


def test_resume_of_a_folder_of_the_users_says_it_is_no_run_not_to_start_one_there(tmp_path, capsys):
    # It said "start the run without --resume", which a folder holding the user's files then refuses too.
    from training.train import main

    folder = tmp_path / "mine"
    before = _users_folder(folder)
    assert main(["--out", str(folder), "--resume", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert f"nothing to resume in {folder}: it is not a run folder of `contack train` (no {MARKER} marker" in err
    assert "without --resume" not in err and _snapshot(folder) == before


def test_a_marker_that_is_a_folder_is_not_called_unreadable(tmp_path, capsys):
    from training.train import main

    folder = tmp_path / "run"
    (folder / MARKER).mkdir(parents=True)
    assert main(["--out", str(folder), *TINY, "--total-timesteps", "64"]) == 1
    err = capsys.readouterr().err
    assert f"{folder / MARKER} is a folder where a run writes a file" in err
    assert "make it readable" not in err and "Traceback" not in err


def test_a_snapshot_the_state_names_that_is_gone_says_what_to_do(tmp_path, capsys):
    from training.train import main

    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, **SMALL), str(out), progress=False)
    name = json.loads((out / "state.json").read_text())["snapshots"][0]
    (out / "snapshots" / name).unlink()
    assert main(["--out", str(out), "--resume", "--total-timesteps", "128", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert f"names the self-play snapshot {name}, which cannot be played: no policy file at" in err
    assert "put it back, or remove" in err and "to resume without the snapshots" in err and "Traceback" not in err
    (out / "state.json").unlink()  # as the message says: the run then resumes without them, and says so
    assert main(["--out", str(out), "--resume", "--total-timesteps", "128", "--progress", "off"]) == 0
    assert (f"contack train: {out / 'state.json'} is missing, so the run resumes without the self-play snapshots"
            in capsys.readouterr().err)
    assert main(["--out", str(out), "--resume", "--total-timesteps", "192", "--progress", "off"]) == 0
    assert "is missing" not in capsys.readouterr().err  # written again by the resumed run


def test_a_run_that_ends_while_a_new_one_starts_there_is_left_alone(tmp_path, monkeypatch):
    # The folder is checked again once it is held: a run that wrote its first checkpoint and ended between the
    # new run's first check and its hold was taken for one killed before its checkpoint, and cleared.
    import shutil

    import training.train as tt

    finished = tmp_path / "finished"
    train(TrainConfig(total_timesteps=64, **SMALL), str(finished), progress=False)
    out = tmp_path / "run"
    out.mkdir()
    shutil.copy(finished / MARKER, out / MARKER)  # the other run, still before its first checkpoint
    real_check = tt.check_config

    def meanwhile_the_other_run_ends(cfg):
        for name in ("checkpoint.zip", "state.json", "config.toml", "policy.npz"):
            shutil.copy(finished / name, out / name)
        return real_check(cfg)

    monkeypatch.setattr(tt, "check_config", meanwhile_the_other_run_ends)
    with pytest.raises(TrainingError, match=r"already holds a run \(checkpoint.zip\)"):
        train(TrainConfig(total_timesteps=64, seed=9, **SMALL), str(out), progress=False)
    kept = _snapshot(out)
    assert sorted(kept) == sorted([MARKER, "checkpoint.zip", "state.json", "config.toml", "policy.npz"])
    assert all(kept[name] == (finished / name).read_bytes() for name in kept), "the other run's files are its own"


@pytest.mark.parametrize("algorithm", ["ppo", "az"])
def test_a_folder_that_refuses_the_runs_first_file_says_nothing_was_written(tmp_path, monkeypatch, capsys, algorithm):
    # an immutable folder (chattr +i): the marker's write failed, and the message named its temporary file and
    # said "the files written are whole" of a run that had written none
    import errno

    import training.run_folder
    from contack_env.cli import main

    def refused(folder, run_id):
        raise PermissionError(errno.EPERM, "Operation not permitted", f"{folder}/.tmp-x1y2.contack-run")

    monkeypatch.setattr(training.run_folder, "write_marker", refused)
    out = tmp_path / "imm"
    out.mkdir()
    args = ["--algorithm", "az", "--iterations", "1"] if algorithm == "az" else ["--total-timesteps", "64", *TINY]
    assert main(["train", "--out", str(out), *args, "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert err == (f"contack train: cannot write in {out}: Operation not permitted; nothing was written: name a "
                   "folder you can write in\n")
    assert list(out.iterdir()) == []


def test_settings_are_compared_as_toml_and_json_give_them_back():
    from training.run_folder import check_settings_kept

    recorded = {"net_arch": [32, 32], "rollout": 0.0, "swap": False, "dropped": 1, "players": 2}
    # Lists come back for tuples, a float written as 0 as a whole number; a setting only one side knows (one a
    # later version added, one it dropped) is not compared: none of these is a change.
    check_settings_kept("c.toml", recorded, {"net_arch": (32, 32), "rollout": 0, "swap": False, "added": 5,
                                              "players": 2}, free=())
    check_settings_kept("c.toml", None, {"players": 3}, free=())  # a run whose state kept no settings
    with pytest.raises(TrainingError, match=r"\(swap is 0 there, the run's is false; net_arch is \[32, 16\] there"):
        check_settings_kept("c.toml", recorded, {"swap": 0, "net_arch": [32, 16], "players": 2}, free=())
    with pytest.raises(TrainingError, match=r"only iterations and ray may change\)"):
        check_settings_kept("c.toml", recorded, {"players": 3}, free=("iterations", "ray"))
    check_settings_kept("c.toml", recorded, {"players": 3}, free=("players",))
