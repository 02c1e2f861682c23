"""Training runs with small budgets: what a run writes, a killed run resumed, seeds, the trained agent."""

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from agents.evaluate import evaluate
from agents.registry import make_agent
from contack_env import new_game
from training.config import TrainConfig
from training.evaluations import EVAL_SEED_OFFSET
from agents.policy_file import PolicyNet
from training.run_folder import Run, write_marker
from training.train import TrainingError, main, train

SMALL = dict(n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=[32, 32], snapshot_every=128)


def test_a_short_run_writes_its_policy_checkpoint_curve_and_config(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["--out", str(out), "--total-timesteps", "2048", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
                 "--net-arch", "32,32", "--eval-every", "1024", "--eval-games", "4", "--checkpoint-every", "1024",
                 "--opponents", "greedy,self", "--progress", "off"])
    assert code == 0
    for name in ("config.toml", "policy.npz", "checkpoint.zip", "state.json", "eval.csv", "learning_curve.png"):
        assert (out / name).is_file(), name
    assert any((out / "tb").rglob("events.out.tfevents*"))
    cfg = TrainConfig.load(str(out / "config.toml"))
    assert (cfg.total_timesteps, cfg.net_arch, cfg.opponents) == (2048, [32, 32], "greedy,self")
    rows = (out / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("timesteps,opponent,games,win_rate")
    assert {r.split(",")[0] for r in rows[1:]} == {"0", "1024", "2048"}
    assert json.loads((out / "state.json").read_text())["timesteps"] == 2048
    assert PolicyNet.load(out / "policy.npz").meta["trained_steps"] == 2048
    assert "vs greedy: win rate" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_first_update(tmp_path):
    weights = []
    for name in ("a", "b"):
        train(TrainConfig(total_timesteps=128, eval_every=0, seed=3, **SMALL), str(tmp_path / name), progress=False)
        net = PolicyNet.load(tmp_path / name / "policy.npz")
        weights.append([w for layer in [*net.layers, net.head] for w in layer])
    initial = PolicyNet.load(tmp_path / "a" / "snapshots" / "snap_0000000000.npz")
    assert all(np.array_equal(x, y) for x, y in zip(*weights))
    assert not np.array_equal(initial.head[0], weights[0][-2]), "the update changed the weights"


def test_a_killed_run_resumes_from_its_last_checkpoint(tmp_path, monkeypatch):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "training.train", "--out", str(out), "--total-timesteps", "100000", "--n-envs", "2",
           "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "32,32", "--eval-every", "0",
           "--checkpoint-every", "128", "--snapshot-every", "128", "--progress", "off"]
    proc = subprocess.Popen(cmd, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        deadline = time.time() + 120
        while not (out / "checkpoint.zip").exists() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert (out / "checkpoint.zip").exists(), "the run wrote no checkpoint"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with zipfile.ZipFile(out / "checkpoint.zip") as archive:
        stopped = json.loads(archive.read("data"))["num_timesteps"]
        saved = torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=True)
    snapshots = Run(str(out)).state_at(stopped)["snapshots"]  # the kill may have come between a state and its checkpoint
    with pytest.raises(TrainingError, match="already holds a run"):
        train(TrainConfig(**SMALL), str(out), progress=False)
    target = stopped + 256

    # What the resumed session hands to learn(): the checkpoint's weights and count, the killed run's snapshots,
    # and only the steps still to go (a restart from zero would train `target` steps from fresh weights).
    seen = {}
    real_learn = MaskablePPO.learn

    def spy(model, total_timesteps, **kwargs):
        seen.update(start=model.num_timesteps, steps=total_timesteps,
                    state={k: v.clone() for k, v in model.policy.state_dict().items()},
                    pool=[len(env.pool.snapshots) for env in model.get_env().envs])
        return real_learn(model, total_timesteps, **kwargs)

    monkeypatch.setattr(MaskablePPO, "learn", spy)
    train(None, str(out), resume=True, progress=False, total_timesteps=target)
    assert (seen["start"], seen["steps"]) == (stopped, target - stopped)
    assert saved.keys() == seen["state"].keys()
    assert all(torch.equal(saved[k], seen["state"][k]) for k in saved), "resumed from the checkpoint's weights"
    assert seen["pool"] == [len(snapshots)] * 2, "the killed run's snapshots are back in the pool"
    assert json.loads((out / "state.json").read_text())["timesteps"] == target
    net = PolicyNet.load(out / "policy.npz")
    assert net.meta["trained_steps"] == target
    assert net.meta["config"]["net_arch"] == [32, 32], "a resumed run keeps the configuration it started with"
    assert not list(out.rglob(".tmp-*")), "no temporary file of an interrupted write is left"


def test_a_run_killed_between_a_state_and_its_checkpoint_resumes_as_the_uninterrupted_run(tmp_path, monkeypatch):
    # The state of a checkpoint is written just before it. Written after it, a kill between the two left the
    # checkpoint with an older state: the resumed run lost a snapshot from its pool and trained other weights.
    cfg = dict(players=2, opponents="self", eval_every=0, checkpoint_every=128, total_timesteps=512, **SMALL)
    train(TrainConfig(**cfg), str(tmp_path / "whole"), progress=False)
    saves, real_save = [], MaskablePPO.save

    def killed_at_the_second_checkpoint(model, path, *args, **kwargs):
        saves.append(model.num_timesteps)
        if len(saves) == 2:
            raise KeyboardInterrupt
        return real_save(model, path, *args, **kwargs)

    out = tmp_path / "killed"
    with monkeypatch.context() as patch:
        patch.setattr(MaskablePPO, "save", killed_at_the_second_checkpoint)
        with pytest.raises(KeyboardInterrupt):
            train(TrainConfig(**cfg), str(out), progress=False)
    state = json.loads((out / "state.json").read_text())
    assert saves == [128, 256] and state["timesteps"] == 256 and state["previous"]["timesteps"] == 128
    with zipfile.ZipFile(out / "checkpoint.zip") as archive:
        assert json.loads(archive.read("data"))["num_timesteps"] == 128
    train(None, str(out), resume=True, progress=False)
    whole, resumed = (np.load(tmp_path / run / "policy.npz") for run in ("whole", "killed"))
    assert all(np.array_equal(whole[k], resumed[k]) for k in whole.files if k != "meta")
    states = [json.loads((tmp_path / run / "state.json").read_text()) for run in ("whole", "killed")]
    assert states[0]["snapshots"] == states[1]["snapshots"] and states[1]["timesteps"] == 512


def test_resume_drops_the_evaluations_made_after_the_last_checkpoint(tmp_path):
    out = tmp_path / "run"
    cfg = TrainConfig(total_timesteps=256, eval_every=128, eval_games=2, checkpoint_every=128, opponents="greedy",
                      eval_opponents=["random"], **SMALL)
    train(cfg, str(out), progress=False)
    # As if a session had evaluated at 384 and been killed before its checkpoint there, mid-write of another file.
    with open(out / "eval.csv", "a", encoding="utf-8") as f:
        f.write("384,random,2,0.1234,0.0,1.0,0.0,0.0,0.1,policy,\n")
    (out / ".tmp-abc123checkpoint.zip").write_bytes(b"half a zip")
    # and what the other trainer's interrupted writes leave (a folder its run was killed in, then replaced)
    for name in ("checkpoint.pt", "buffer.npz", "buffer_previous.npz"):
        (out / f".tmp-abc123{name}").write_bytes(b"half a file")
    train(None, str(out), resume=True, progress=False, total_timesteps=512)
    rows = (out / "eval.csv").read_text().splitlines()[1:]
    assert [int(r.split(",")[0]) for r in rows] == [0, 128, 256, 384, 512], "every evaluation once, in order"
    assert "0.1234" not in (out / "eval.csv").read_text(), "the killed session's row was dropped, not kept"
    assert not list(out.glob(".tmp-*")), "no temporary file of an interrupted write is left, whichever trainer's"


def test_resuming_a_finished_run_keeps_its_count(tmp_path):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=128, eval_every=0, **SMALL), str(out), progress=False)
    train(None, str(out), resume=True, progress=False)
    assert json.loads((out / "state.json").read_text())["timesteps"] == 128
    assert PolicyNet.load(out / "policy.npz").meta["trained_steps"] == 128
    with zipfile.ZipFile(out / "checkpoint.zip") as archive:
        assert json.loads(archive.read("data"))["num_timesteps"] == 128


def test_a_new_run_replaces_what_a_run_killed_before_its_first_checkpoint_left(tmp_path):
    out = tmp_path / "run"
    (out / "snapshots").mkdir(parents=True)
    (out / "snapshots" / "snap_0000000999.npz").write_bytes(b"stale")
    (out / "tb" / "ppo_1").mkdir(parents=True)
    (out / "tb" / "ppo_1" / "events.out.tfevents.stale").write_bytes(b"stale")
    (out / "eval.csv").write_text("timesteps,opponent\n0,stale\n")
    write_marker(str(out), "killedrun")  # the killed run marked the folder first, then wrote its config
    TrainConfig(total_timesteps=999).save(str(out / "config.toml"))
    (out / ".tmp-k1llcheckpoint.zip").write_bytes(b"half")
    (out / ".tmp-k1llnotes.txt").write_bytes(b"another program's")
    (out / "notes.txt").write_text("mine")
    train(TrainConfig(total_timesteps=128, eval_every=128, eval_games=2, eval_opponents=["random"], **SMALL), str(out),
          progress=False)
    assert "stale" not in (out / "eval.csv").read_text()
    assert not (out / "snapshots" / "snap_0000000999.npz").exists()
    assert [p.name for p in (out / "tb").iterdir()] == ["ppo_1"], "TensorBoard shows the new run alone"
    assert not (out / "tb" / "ppo_1" / "events.out.tfevents.stale").exists()
    assert not (out / ".tmp-k1llcheckpoint.zip").exists()
    assert (out / "notes.txt").read_text() == "mine", "only the run's own files are touched"
    assert (out / ".tmp-k1llnotes.txt").exists(), "another program's temporary file is not the run's"


def test_a_new_run_in_a_folder_no_run_made_is_refused_and_touches_nothing(tmp_path):
    # --out . or --out /tmp: without a marker the folder is not a run's, and what it holds is someone else's.
    (tmp_path / "snapshots").mkdir()
    (tmp_path / "snapshots" / "mine.npz").write_bytes(b"mine")
    (tmp_path / ".tmp-xyzcheckpoint.zip").write_bytes(b"someone's")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(TrainingError, match="is not empty and is not a run folder of `contack train`"):
        train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(tmp_path), progress=False)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "snapshots" / "mine.npz").read_bytes() == b"mine"


def test_a_failed_resume_leaves_the_run_as_it_was(tmp_path, capsys):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(out), progress=False)
    config = (out / "config.toml").read_text()
    wider = tmp_path / "wider"
    train(TrainConfig(total_timesteps=64, eval_every=0, **{**SMALL, "net_arch": [48, 48]}), str(wider), progress=False)
    os.replace(wider / "checkpoint.zip", out / "checkpoint.zip")  # a checkpoint of another network
    with pytest.raises(TrainingError, match="checkpoint.zip does not fit the network of"):
        train(None, str(out), resume=True, progress=False, total_timesteps=128)
    assert (out / "config.toml").read_text() == config
    assert "changes from" not in capsys.readouterr().err  # the total stays 64: nothing says it changed


def test_an_older_solitaire_run_resumes_and_reports(tmp_path, capsys):
    # eval.csv written before the agent and mean_tiles columns existed: the run resumes, the summary and the
    # curve make do without the tiles of those rows.
    out = tmp_path / "s1"
    # Rollouts of 128 steps (SMALL): an evaluation at every rollout boundary.
    train(TrainConfig.for_game("solitaire1", total_timesteps=256, eval_every=128, eval_games=4, **SMALL), str(out),
          progress=False)
    with open(out / "eval.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["agent"] == "policy"]
    old = ["timesteps,opponent,games,win_rate,ci_low,ci_high,mean_score,mean_margin,wall_s"]
    old += [",".join(r[k] for k in old[0].split(",")) for r in rows]
    (out / "eval.csv").write_text("\n".join(old) + "\n")
    assert main(["--out", str(out), "--resume", "--progress", "off"]) == 0
    assert "timesteps=256 policy: win rate" in capsys.readouterr().out
    assert main(["--out", str(out), "--resume", "--total-timesteps", "512", "--progress", "off"]) == 0
    printed = capsys.readouterr().out
    assert "timesteps=512 policy: win rate" in printed and "tiles placed on average, over 4 deals" in printed
    with open(out / "eval.csv", newline="") as f:
        back = list(csv.DictReader(f))
    assert [(r["timesteps"], r["agent"], bool(r["mean_tiles"])) for r in back] == [
        ("0", "policy", False), ("128", "policy", False), ("256", "policy", False),
        *((t, a, True) for t in ("384", "512") for a in ("policy", "random", "greedy"))]


def test_snapshots_and_evaluations_hold_the_policy_trained_on_the_steps_they_name(tmp_path):
    # A rollout's last step comes before its update: taken then, "128 steps" would be the policy of 0 steps.
    cfg = dict(players=2, opponents="random,self", eval_every=128, eval_games=4, eval_opponents=["greedy"], **SMALL)
    train(TrainConfig(total_timesteps=128, **cfg), str(tmp_path / "short"), progress=False)
    train(TrainConfig(total_timesteps=256, **cfg), str(tmp_path / "long"), progress=False)
    trained = np.load(tmp_path / "short" / "policy.npz")
    snapshot = np.load(tmp_path / "long" / "snapshots" / "snap_0000000128.npz")
    initial = np.load(tmp_path / "long" / "snapshots" / "snap_0000000000.npz")
    assert all(np.array_equal(trained[k], snapshot[k]) for k in trained.files if k != "meta")
    assert not all(np.array_equal(trained[k], initial[k]) for k in trained.files if k != "meta")

    def rows(run: str) -> dict[str, dict[str, str]]:
        with open(tmp_path / run / "eval.csv", newline="") as f:
            return {r["timesteps"]: {k: v for k, v in r.items() if k != "wall_s"} for r in csv.DictReader(f)}

    assert sorted(rows("long"), key=int) == ["0", "128", "256"]
    assert rows("long")["128"] == rows("short")["128"]  # the same policy, evaluated on the same games


def test_a_finished_run_extended_is_the_uninterrupted_run(tmp_path):
    # The snapshot due at the first run's end (256) joins the pool before the extension trains against it.
    cfg = dict(players=2, opponents="self", eval_every=0, checkpoint_every=128, **SMALL)
    train(TrainConfig(total_timesteps=512, **cfg), str(tmp_path / "whole"), progress=False)
    train(TrainConfig(total_timesteps=256, **cfg), str(tmp_path / "extended"), progress=False)
    train(None, str(tmp_path / "extended"), resume=True, progress=False, total_timesteps=512)
    whole, extended = (np.load(tmp_path / run / "policy.npz") for run in ("whole", "extended"))
    assert all(np.array_equal(whole[k], extended[k]) for k in whole.files if k != "meta")
    states = [json.loads((tmp_path / run / "state.json").read_text()) for run in ("whole", "extended")]
    assert states[0]["snapshots"] == states[1]["snapshots"]
    assert "snap_0000000256.npz" in states[1]["snapshots"]


def test_a_resume_refuses_a_config_toml_edited_since_the_run_started(tmp_path, capsys):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(out), progress=False)
    started = (out / "config.toml").read_text()
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    edited = started.replace("players = 2", "players = 3").replace("n_envs = 2", "n_envs = 4")
    assert "players = 3" in edited and "n_envs = 4" in edited
    (out / "config.toml").write_text(edited)
    assert main(["--out", str(out), "--resume", "--total-timesteps", "128", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert "config.toml was changed since the run started (players is 3 there, the run's is 2; n_envs is 4 there, " \
           "the run's is 2)" in err
    assert "only total_timesteps and vec_env may change" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == {**before, "config.toml": edited.encode()}
    # Put back, with the two settings a resume may take from the file: it goes on, and its export says so.
    (out / "config.toml").write_text(started.replace('vec_env = "dummy"', 'vec_env = "subproc"')
                                     .replace("total_timesteps = 64", "total_timesteps = 128"))
    assert main(["--out", str(out), "--resume", "--progress", "off"]) == 0
    meta = PolicyNet.load(out / "policy.npz").meta
    assert (meta["trained_steps"], meta["players"], meta["config"]["vec_env"]) == (128, 2, "subproc")
    assert json.loads((out / "state.json").read_text())["config"]["total_timesteps"] == 128


def test_a_run_whose_state_kept_no_settings_resumes_with_its_config_toml(tmp_path):
    # A run made before states kept the settings: nothing to hold config.toml to, so it resumes as before.
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(out), progress=False)
    state = json.loads((out / "state.json").read_text())
    del state["config"]
    (out / "state.json").write_text(json.dumps(state))
    (out / "config.toml").write_text((out / "config.toml").read_text().replace("eval_games = 100", "eval_games = 7"))
    train(None, str(out), resume=True, progress=False, total_timesteps=128)
    assert PolicyNet.load(out / "policy.npz").meta["config"]["eval_games"] == 7


def test_a_damaged_checkpoint_stops_the_resume_with_a_message(tmp_path):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(out), progress=False)
    (out / "checkpoint.zip").write_bytes(b"not a zip")
    with pytest.raises(TrainingError, match="checkpoint.zip is damaged or not a checkpoint of `contack train`"):
        train(None, str(out), resume=True, progress=False, total_timesteps=128)


def test_resume_names_the_options_it_ignores(tmp_path, capsys):
    out = tmp_path / "run"
    train(TrainConfig(total_timesteps=64, eval_every=0, **SMALL), str(out), progress=False)
    assert main(["--out", str(out), "--resume", "--learning-rate", "1e-3", "--seed", "5", "--total-timesteps", "128",
                 "--progress", "off"]) == 0
    err = capsys.readouterr().err
    assert "--resume continues with the run's own config.toml; ignoring --learning-rate, --seed (only --total-timesteps" in err
    # An ignored option is not checked either: it cannot stop the resume.
    assert main(["--out", str(out), "--resume", "--players", "9", "--config", "missing.toml", "--progress", "off"]) == 0
    assert "ignoring --players, --config" in capsys.readouterr().err
    assert PolicyNet.load(out / "policy.npz").meta["config"]["learning_rate"] == TrainConfig().learning_rate
    assert PolicyNet.load(out / "policy.npz").meta["trained_steps"] == 128


def test_resume_without_a_checkpoint_says_what_to_do(tmp_path):
    with pytest.raises(TrainingError, match="nothing to resume"):
        train(None, str(tmp_path / "empty"), resume=True, progress=False)


def test_a_trained_policy_plays_only_legal_moves_through_ppo_path(tmp_path):
    train(TrainConfig(players=3, total_timesteps=128, eval_every=0, **SMALL), str(tmp_path / "r"), progress=False)
    path = tmp_path / "r" / "policy.npz"
    agent = make_agent(f"ppo:{path}")
    for players in (2, 3, 5, 7):  # one policy plays any table size: the spaces do not depend on it
        state = new_game(players, num_hands=1, seed=players)
        while not state.done:
            legal = state.legal_moves()
            from agents.view import public_view

            move = agent.act(public_view(state), legal) if state.current_player == 0 else legal[0]
            assert move in legal
            state.play(move)
    ev = evaluate([f"ppo:{path}", "random"], 4, seed=1)
    assert ev.entries[0].games == 4


def test_a_person_plays_a_trained_policy_at_the_terminal(tmp_path):
    import io

    from contack_env.cli.terminal import play_terminal

    train(TrainConfig(total_timesteps=64, n_envs=1, n_steps=64, batch_size=64, n_epochs=1, net_arch=[16], eval_every=0),
          str(tmp_path / "r"), progress=False)
    out = io.StringIO()
    code = play_terminal(2, [f"ppo:{tmp_path / 'r' / 'policy.npz'}"], seat=1, seed=4, hands=1,
                         input=io.StringIO("1\n" * 100), output=out)
    assert code == 0
    assert "Final scores" in out.getvalue()


def test_solitaire_training_runs_and_its_policy_plays_the_solitaire(tmp_path, capsys):
    out = tmp_path / "s1"
    assert main(["--game", "solitaire1", "--total-timesteps", "256", "--eval-every", "128", "--eval-games", "4",
                 "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--net-arch", "32,32", "--out", str(out),
                 "--progress", "off"]) == 0
    # Every evaluation measures the policy and, on the same deals, the reference bots (random and greedy).
    with open(out / "eval.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["timesteps"], r["agent"], r["opponent"]) for r in rows] == [
        (t, a, "-") for t in ("0", "128", "256") for a in ("policy", "random", "greedy")]
    assert all(0 < float(r["mean_tiles"]) <= 36 and r["games"] == "4" for r in rows)
    for bot in ("random", "greedy"):  # the same deals each time, and the bots do not learn
        assert len({(r["win_rate"], r["mean_tiles"]) for r in rows if r["agent"] == bot}) == 1
    reference = evaluate(["random", "greedy"], 4, seed=EVAL_SEED_OFFSET, game="solitaire1")
    assert [float(r["mean_tiles"]) for r in rows[1:3]] == [round(e.mean_tiles_placed, 2) for e in reference.entries]
    printed = capsys.readouterr().out
    assert "timesteps=256 policy: win rate" in printed and "timesteps=256 greedy: win rate" in printed
    assert "tiles placed on average, over 4 deals" in printed
    ev = evaluate([f"ppo:{out / 'policy.npz'}"], 4, seed=2, game="solitaire1")
    assert 0 < ev.entries[0].mean_tiles_placed <= 36
    with pytest.raises(ValueError, match="is a policy for 'solitaire1'"):
        evaluate([f"ppo:{out / 'policy.npz'}", "greedy"], 2, seed=2)


def test_the_training_script_runs_by_its_path_too(tmp_path):
    # `python training/train.py ...` works as `python -m training.train ...` does, from any folder.
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "training", "train.py")
    ok = subprocess.run([sys.executable, script, "--out", str(tmp_path / "r"), "--total-timesteps", "64", "--n-envs", "1",
                         "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
                         "--eval-every", "0", "--progress", "off"], cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert f"wrote {tmp_path / 'r' / 'policy.npz'}" in ok.stdout
    bad = subprocess.run([sys.executable, script, "--players", "9"], cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode == 2 and "Contack is played by 2 to 7 players; got 9" in bad.stderr


def test_after_a_ctrl_c_mid_message_the_subprocess_workers_are_ended_not_waited_for():
    # A Ctrl-C that lands while the trainer reads a worker's reply leaves the pipe out of step: SB3's own close
    # then waits forever for a message length read half-way (or reads garbage). The run ends the workers instead.
    import functools

    import gymnasium
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor

    from training.train import _close_after_failure

    venv = VecMonitor(SubprocVecEnv([functools.partial(gymnasium.make, "CartPole-v1")] * 2, start_method="spawn"))
    venv.reset()
    venv.step_async(np.zeros(2, dtype=np.int64))
    workers = venv.unwrapped.processes
    venv.unwrapped.remotes[0]._recv(2)  # half of the reply's 4-byte length, as the interrupted read left it
    _close_after_failure(venv)
    assert not any(worker.is_alive() for worker in workers)


def test_a_ctrl_c_while_the_subprocess_environments_start_is_not_a_workers_traceback(monkeypatch, capfd):
    # Ctrl-C reaches every process of the terminal's group; a worker that took it before make_env ignores it
    # printed a traceback and died, and the run failed on the broken pipe instead of stopping as asked
    import pool_tasks

    import training.train

    monkeypatch.setattr(training.train, "make_env", pool_tasks.interrupted_while_starting)
    venv = training.train._vec_env(TrainConfig(n_envs=2, vec_env="subproc"))
    try:
        assert venv.reset().shape[0] == 2
    finally:
        venv.close()
    assert "KeyboardInterrupt" not in capfd.readouterr().err


@pytest.mark.parametrize("how", ["killed", "failed"])
def test_a_worker_that_ended_is_told_apart_killed_from_outside_or_failed_on_its_own(how):
    import functools
    import os
    import signal

    import gymnasium
    import pool_tasks
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecMonitor

    from training.train import _close_after_failure, _ended_worker

    first = pool_tasks.fails_at_step if how == "failed" else functools.partial(gymnasium.make, "CartPole-v1")
    venv = VecMonitor(SubprocVecEnv([first, first], start_method="spawn"))  # as a run starts them
    try:
        venv.reset()
        assert _ended_worker(venv) is None  # both at work
        if how == "killed":
            os.kill(venv.unwrapped.processes[0].pid, signal.SIGKILL)
        with pytest.raises((EOFError, BrokenPipeError, ConnectionResetError)):
            venv.step(np.zeros(2, dtype=np.int64))
        code = _ended_worker(venv)
        assert code == -signal.SIGKILL if how == "killed" else code > 0
    finally:
        _close_after_failure(venv)


def test_a_run_saved_with_a_batch_larger_than_its_rollout_still_resumes(tmp_path, capsys):
    # A new run with --batch-size above n_steps x n_envs is refused (a minibatch is drawn from one rollout), but
    # a run saved before that check, whose config.toml holds such a setting, resumes as it trained.
    out = tmp_path / "run"
    assert main(["--out", str(out), "--total-timesteps", "64", "--n-envs", "1", "--n-steps", "64", "--batch-size", "64",
                 "--n-epochs", "1", "--net-arch", "16", "--eval-every", "0", "--progress", "off"]) == 0
    config = out / "config.toml"
    config.write_text(config.read_text().replace("batch_size = 64", "batch_size = 512"))
    state = json.loads((out / "state.json").read_text())
    state["config"]["batch_size"] = 512  # as that run's state would say
    (out / "state.json").write_text(json.dumps(state))
    assert main(["--resume", "--out", str(out), "--total-timesteps", "128", "--progress", "off"]) == 0
    assert json.loads((out / "state.json").read_text())["timesteps"] == 128
    with pytest.raises(SystemExit):  # the same settings for a new run: a usage error
        main(["--config", str(config), "--out", str(tmp_path / "new")])
    assert "batch_size (512) is larger than a rollout, n_steps x n_envs (64)" in capsys.readouterr().err


@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_a_run_that_diverges_says_so_not_which_illegal_move_its_policy_chose(tmp_path, capfd, vec_env):
    # A learning rate far too large blows the weights up: the logits pass the action mask's, and the masked policy
    # sends an illegal action, which the environment refused in its own words (naming a move, not the cause); in a
    # subprocess environment the worker failing on it was reported as a worker's failure, to be run again as is.
    code = main(["--out", str(tmp_path / "run"), "--n-steps", "32", "--n-envs", "2", "--batch-size", "32",
                 "--eval-every", "0", "--net-arch", "16", "--policy", "mlp", "--total-timesteps", "640",
                 "--learning-rate", "1e6", "--max-grad-norm", "1e9", "--vec-env", vec_env, "--progress", "off"])
    err = capfd.readouterr().err
    last = err.strip().splitlines()[-1]  # (a worker that failed prints its own error first)
    assert code == 1 and last.startswith("contack train: the training diverged: after ")
    assert vec_env == "subproc" or len(err.strip().splitlines()) == 1
    assert "start a new run with a smaller learning_rate (this one's is 1e+06) or max_grad_norm (1e+09)" in last
