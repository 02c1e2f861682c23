"""``contack train --algorithm az``: short runs, what they write, resuming, seeds and the options."""

import json

import numpy as np
import pytest

from agents.registry import make_agent
from training.az.config import AZConfig
from agents.az.network import AZNet
from training.az.train import Learner, train
from training.run_folder import TrainingError
from training.train import main
from contack_env import new_game

TINY = ["--algorithm", "az", "--iterations", "2", "--games-per-iteration", "2", "--sims", "2", "--play-sims", "2",
        "--workers", "1", "--net-arch", "16", "--batch-size", "16", "--eval-every", "2", "--eval-games", "2",
        "--eval-opponents", "random", "--hands", "1", "--progress", "off"]


def _weights(net):
    return [w for pair in [*net.trunk, net.head, *net.value] for w in pair]


def test_a_short_run_writes_its_network_checkpoint_curve_and_config_and_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TINY, "--out", str(out)]) == 0
    for name in ("config.toml", "policy.npz", "checkpoint.pt", "state.json", "eval.csv", "learning_curve.png"):
        assert (out / name).is_file(), name
    assert any((out / "tb").rglob("events.out.tfevents*"))
    cfg = AZConfig.load(str(out / "config.toml"))
    assert (cfg.algorithm, cfg.iterations, cfg.net_arch, cfg.hands) == ("az", 2, [16], 1)
    rows = (out / "eval.csv").read_text().splitlines()
    assert {r.split(",")[0] for r in rows[1:]} == {"0", "2"}
    assert {r.split(",")[2] for r in rows[1:]} == {"az", "az:0"}
    state = json.loads((out / "state.json").read_text())
    assert (state["iteration"], state["games"]) == (2, 4)
    net = AZNet.load(out / "policy.npz", game="contack")
    assert (net.meta["iterations"], net.meta["sims"], net.stakes) == (2, 2, "margin")
    initial = Learner(cfg).export({})
    assert not all(np.array_equal(a, b) for a, b in zip(_weights(net), _weights(initial))), "training changed it"
    assert "az vs random: win rate" in capsys.readouterr().out
    make_agent(f"az:{out / 'policy.npz'}")

    # a total below what the run has done is refused, and config.toml keeps its own
    assert main(["--resume", "--out", str(out), "--iterations", "1", "--progress", "off"]) == 1
    assert "--iterations 1 is below the 2 iterations this run has done" in capsys.readouterr().err
    assert AZConfig.load(str(out / "config.toml")).iterations == 2

    # the run goes on from its checkpoint, with its own configuration (the algorithm is read from it)
    assert main(["--resume", "--out", str(out), "--iterations", "3", "--sims", "9", "--progress", "off"]) == 0
    err = capsys.readouterr().err
    assert "ignoring --sims" in err and "the run's iterations change from 2 to 3" in err
    assert json.loads((out / "state.json").read_text())["iteration"] == 3
    assert AZConfig.load(str(out / "config.toml")).sims == 2
    assert AZNet.load(out / "policy.npz").meta["iterations"] == 3

    # a new run never overwrites it
    assert main([*TINY, "--out", str(out)]) == 1
    assert "already holds a run" in capsys.readouterr().err
    # and the PPO trainer, asked to resume it, says whose run it is
    assert main(["--resume", "--algorithm", "ppo", "--out", str(out), "--progress", "off"]) == 1
    assert "it holds an --algorithm az run (checkpoint.pt)" in capsys.readouterr().err


def _stopped_by_a_file_error(tmp_path, capsys, monkeypatch, filename: str) -> str:
    """What ``contack train --algorithm az`` says when training raises a PermissionError naming ``filename``."""
    import errno

    import training.az.train as az_train

    def refused(cfg, out, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", filename)

    monkeypatch.setattr(az_train, "train", refused)
    assert main([*TINY, "--out", str(tmp_path / "run")]) == 1
    return capsys.readouterr().err


def test_a_run_that_cannot_write_its_folder_says_so_in_a_sentence(tmp_path, capsys, monkeypatch):
    err = _stopped_by_a_file_error(tmp_path, capsys, monkeypatch, str(tmp_path / "run" / ".tmp-abcdefghpolicy.npz"))
    assert "cannot write the run in" in err and "Permission denied" in err, err
    assert "run the same command again" in err and err.count("\n") == 1, err


def test_a_file_error_outside_the_run_is_not_called_a_failure_to_write_it(tmp_path, capsys, monkeypatch):
    err = _stopped_by_a_file_error(tmp_path, capsys, monkeypatch, str(tmp_path / "elsewhere" / "teacher.npz"))
    assert "stopped by a file outside the run: Permission denied" in err and "teacher.npz" in err, err
    assert "cannot write" not in err and err.count("\n") == 1, err


def test_a_run_from_before_the_lookahead_inputs_and_the_hand_horizon_resumes_as_it_began(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TINY, "--features", "none", "--horizon", "game", "--eval-every", "0", "--out", str(out)]) == 0
    config = out / "config.toml"
    lines = config.read_text().splitlines()
    older = "\n".join(line for line in lines if not line.startswith(("features", "horizon", "rollout"))) + "\n"
    config.write_text(older)
    (tmp_path / "given.toml").write_text(older)
    assert main(["--resume", "--out", str(out), "--iterations", "3", "--progress", "off"]) == 0
    net = AZNet.load(out / "policy.npz")
    assert (net.meta["iterations"], net.features, net.horizon, net.rollout) == (3, "none", "game", 0.0)
    # a configuration given to a new run takes today's defaults for what it leaves out
    given = AZConfig.load(str(tmp_path / "given.toml"))
    assert (given.features, given.horizon) == ("lookahead", "hand")


def test_contack_defaults_to_the_lookahead_inputs_and_the_hand_horizon_a_solitaire_to_neither_but_playouts():
    contack = AZConfig.from_dict({})
    assert (contack.features, contack.horizon, contack.players, contack.rollout) == ("lookahead", "hand", 2, 0.0)
    for game in ("solitaire1", "solitaire2"):
        solitaire = AZConfig.from_dict({"game": game})
        assert (solitaire.features, solitaire.horizon, solitaire.players, solitaire.rollout) == ("none", "game", 1, 0.5)
        assert AZConfig.from_dict({"game": game, "features": "lookahead"}).features == "lookahead"


def test_the_same_seed_trains_the_same_network(tmp_path):
    cfg = dict(iterations=1, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=8, eval_every=0,
               hands=1, seed=5)
    for name in ("a", "b"):
        train(AZConfig(**cfg), str(tmp_path / name), progress=False)
    a, b = (AZNet.load(tmp_path / name / "policy.npz") for name in ("a", "b"))
    assert all(np.array_equal(x, y) for x, y in zip(_weights(a), _weights(b)))
    for name in ("checkpoint.pt", "buffer.npz", "policy.npz"):  # byte for byte: no temporary name inside
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_a_resumed_run_trains_exactly_the_network_of_an_uninterrupted_one(tmp_path, capsys):
    cfg = dict(iterations=3, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=8, eval_every=0,
               hands=1, seed=7, checkpoint_every=1)
    train(AZConfig(**cfg), str(tmp_path / "whole"), progress=False)
    train(AZConfig(**{**cfg, "iterations": 2}), str(tmp_path / "cut"), progress=False)
    with np.load(tmp_path / "cut" / "buffer.npz") as data:
        assert int(data["iteration"]) == 2 and len(data["obs"]) > 0
    train(None, str(tmp_path / "cut"), resume=True, progress=False, iterations=3)
    assert "refills" not in capsys.readouterr().err
    whole, cut = (AZNet.load(tmp_path / name / "policy.npz") for name in ("whole", "cut"))
    assert all(np.array_equal(x, y) for x, y in zip(_weights(whole), _weights(cut)))

    # without its buffer the run still resumes, from fresh self-play, and says so; the network then differs
    train(AZConfig(**{**cfg, "iterations": 2}), str(tmp_path / "lost"), progress=False)
    (tmp_path / "lost" / "buffer.npz").unlink()
    train(None, str(tmp_path / "lost"), resume=True, progress=False, iterations=3)
    assert "holds no sample buffer of iteration 2; it refills" in capsys.readouterr().err
    lost = AZNet.load(tmp_path / "lost" / "policy.npz")
    assert not all(np.array_equal(x, y) for x, y in zip(_weights(whole), _weights(lost)))


def test_a_run_killed_between_its_new_buffer_and_its_checkpoint_resumes_as_an_uninterrupted_one(tmp_path, capsys,
                                                                                                    monkeypatch):
    # The buffer of a checkpoint is written before it; the one of the checkpoint on disk is kept aside until the new
    # checkpoint is whole. Replaced at once, a kill between the two left no buffer of the checkpoint's iteration:
    # the resumed run refilled it from fresh self-play and trained another network.
    cfg = dict(iterations=3, games_per_iteration=2, sims=2, workers=1, net_arch=[8], batch_size=8, eval_every=0,
               hands=1, seed=7, checkpoint_every=1)
    train(AZConfig(**cfg), str(tmp_path / "whole"), progress=False)
    saves, real_save = [], Learner.save

    def killed_at_the_second_checkpoint(learner, path, iteration, games):
        saves.append(iteration)
        if len(saves) == 2:
            raise KeyboardInterrupt
        return real_save(learner, path, iteration, games)

    out = tmp_path / "killed"
    with monkeypatch.context() as patch:
        patch.setattr(Learner, "save", killed_at_the_second_checkpoint)
        with pytest.raises(KeyboardInterrupt):
            train(AZConfig(**cfg), str(out), progress=False)
    with np.load(out / "buffer.npz") as new, np.load(out / "buffer_previous.npz") as kept:
        assert saves == [1, 2] and (int(new["iteration"]), int(kept["iteration"])) == (2, 1)
    capsys.readouterr()
    train(None, str(out), resume=True, progress=False)
    assert "refills" not in capsys.readouterr().err
    whole, resumed = (AZNet.load(tmp_path / name / "policy.npz") for name in ("whole", "killed"))
    assert all(np.array_equal(x, y) for x, y in zip(_weights(whole), _weights(resumed)))
    assert not (out / "buffer_previous.npz").exists()
    assert (out / "buffer.npz").read_bytes() == (tmp_path / "whole" / "buffer.npz").read_bytes()


def test_a_solitaire_run_over_worker_processes(tmp_path):
    cfg = AZConfig.from_dict(dict(game="solitaire2", iterations=1, games_per_iteration=4, sims=2, workers=2,
                                  parallel_games=2, net_arch=[8], batch_size=8, eval_every=0))
    train(cfg, str(tmp_path / "run"), progress=False)
    assert json.loads((tmp_path / "run" / "state.json").read_text())["games"] == 4
    assert AZNet.load(tmp_path / "run" / "policy.npz", game="solitaire2").meta["iterations"] == 1


def test_a_solitaire_evaluation_measures_the_reference_bots_once(tmp_path):
    cfg = AZConfig.from_dict(dict(game="solitaire1", iterations=2, games_per_iteration=1, sims=2, play_sims=2,
                                  workers=1, net_arch=[8], batch_size=8, eval_every=1, eval_games=2,
                                  eval_opponents=["greedy"]))
    train(cfg, str(tmp_path / "run"), progress=False)
    rows = (tmp_path / "run" / "eval.csv").read_text().splitlines()[1:]
    agents = [r.split(",")[2] for r in rows]
    assert agents.count("greedy") == 1, "a reference bot plays the same deals once"
    assert agents.count("az") == agents.count("az:0") == 3


def test_play_rollout_sets_the_policy_files_search_and_leaves_self_play_alone(tmp_path):
    runs = {}
    for name, extra in (("same", {}), ("play1", {"play_rollout": 1.0})):
        cfg = AZConfig.from_dict(dict(game="solitaire1", iterations=2, games_per_iteration=2, sims=2, play_sims=2,
                                      workers=1, net_arch=[8], batch_size=8, eval_every=0, **extra))
        train(cfg, str(tmp_path / name), progress=False)
        runs[name] = AZNet.load(tmp_path / name / "policy.npz", game="solitaire1")
        assert AZConfig.load(str(tmp_path / name / "config.toml")).rollout == 0.5  # the solitaire default
    assert runs["same"].rollout == 0.5  # without it, play searches as self-play did
    assert runs["play1"].rollout == 1.0
    assert make_agent(f"az:{tmp_path / 'play1' / 'policy.npz'}", 0, "solitaire1").rollout == 1.0
    assert all(np.array_equal(a, b) for a, b in zip(_weights(runs["same"]), _weights(runs["play1"])))


def test_leaf_moves_search_self_play_and_play_leaf_moves_the_policy_files_search(tmp_path):
    runs = {}
    for name, extra in (("plain", {}), ("play2", {"play_leaf_moves": 2}), ("both2", {"leaf_moves": 2})):
        cfg = AZConfig.from_dict(dict(players=2, hands=1, iterations=1, games_per_iteration=2, sims=4, play_sims=2,
                                      workers=1, net_arch=[8], batch_size=8, eval_every=0, features="none", **extra))
        train(cfg, str(tmp_path / name), progress=False)
        runs[name] = AZNet.load(tmp_path / name / "policy.npz", game="contack")
    assert (runs["plain"].leaf_moves, runs["play2"].leaf_moves, runs["both2"].leaf_moves) == (0, 2, 2)
    assert make_agent(f"az:{tmp_path / 'play2' / 'policy.npz'}", 0).leaf_moves == 2
    # a play setting leaves the self-play games, and so the weights, as they were; searching self-play's leaves
    # further on plays other games
    same = [np.array_equal(a, b) for a, b in zip(_weights(runs["plain"]), _weights(runs["play2"]))]
    other = [np.array_equal(a, b) for a, b in zip(_weights(runs["plain"]), _weights(runs["both2"]))]
    assert all(same) and not all(other)


def test_play_search_sets_the_policy_files_search_and_leaves_self_play_alone(tmp_path):
    runs = {}
    for name, extra in (("tree", {}), ("expectimax", {"play_search": "expectimax"})):
        cfg = AZConfig.from_dict(dict(players=2, hands=1, iterations=1, games_per_iteration=2, sims=4, play_sims=6,
                                      workers=1, net_arch=[8], batch_size=8, eval_every=1, eval_games=2,
                                      eval_opponents=["random"], features="none", **extra))
        train(cfg, str(tmp_path / name), progress=False)
        runs[name] = AZNet.load(tmp_path / name / "policy.npz", game="contack")
    assert (runs["tree"].search, runs["expectimax"].search) == ("tree", "expectimax")
    agent = make_agent(f"az:{tmp_path / 'expectimax' / 'policy.npz'}", 0)
    assert agent.net.search == "expectimax" and agent.sims == 6
    assert all(np.array_equal(a, b) for a, b in zip(_weights(runs["tree"]), _weights(runs["expectimax"])))
    # the evaluations play the file's search (the file they load is the run's eval_policy.npz); the network
    # alone plays the same games in either run
    assert AZNet.load(tmp_path / "expectimax" / "eval_policy.npz", game="contack").search == "expectimax"
    rows = {name: [r.split(",") for r in (tmp_path / name / "eval.csv").read_text().splitlines()[1:]]
            for name in runs}
    assert [r[2] for r in rows["tree"]] == [r[2] for r in rows["expectimax"]]
    alone = [[r for r in rows[name] if r[2] == "az:0"] for name in runs]
    assert [r[:-1] for r in alone[0]] == [r[:-1] for r in alone[1]]  # all but wall_s


def test_a_configuration_from_before_play_rollout_plays_with_its_rollout(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[train]\nalgorithm = "az"\ngame = "solitaire2"\nrollout = 1.0\n')
    assert AZConfig.load(str(path), written_by_a_run=True).play_rollout == 1.0
    assert AZConfig(rollout=0.25).play_rollout == 0.25
    assert AZConfig.load(str(path), written_by_a_run=True).play_leaf_moves == 0  # nor leaf moves before them
    assert AZConfig(leaf_moves=3).play_leaf_moves == 3
    assert AZConfig.load(str(path), written_by_a_run=True).play_search == "tree"  # nor another search


def _tree(folder):
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("mine", [
    {"config.toml": b"my settings", "eval.csv": b"my table", "tb/notes.txt": b"my notes"},  # names an az run writes
    {"policy.npz": b"my policy"},
    {"snapshots/mine.npz": b"mine", ".tmp-xyzcheckpoint.pt": b"someone's"},
])
def test_a_new_run_in_a_folder_no_run_made_is_refused_and_touches_nothing(tmp_path, capsys, mine):
    # --out . or a folder of one's own: without a marker what it holds is someone else's, whatever the names.
    for name, data in mine.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    before = _tree(tmp_path)
    assert main([*TINY, "--out", str(tmp_path)]) == 1
    assert "is not empty and is not a run folder of `contack train`" in capsys.readouterr().err
    assert _tree(tmp_path) == before


def test_a_new_run_refuses_a_finished_run_of_either_trainer_and_replaces_only_a_killed_one(tmp_path, capsys):
    from training.config import TrainConfig
    from training.train import train as train_ppo

    ppo = tmp_path / "ppo"
    train_ppo(TrainConfig(total_timesteps=64, n_envs=1, n_steps=64, batch_size=64, n_epochs=1, net_arch=[16],
                          eval_every=0), str(ppo), progress=False)
    before = _tree(ppo)
    assert main([*TINY, "--out", str(ppo)]) == 1
    assert "already holds a run (checkpoint.zip)" in capsys.readouterr().err
    assert _tree(ppo) == before
    az = tmp_path / "az"
    assert main([*TINY, "--eval-every", "0", "--out", str(az)]) == 0
    assert (az / ".contack-run").is_file()
    before = _tree(az)
    with pytest.raises(Exception, match=r"already holds a run \(checkpoint.pt\)"):  # nor a PPO run over an az one
        train_ppo(TrainConfig(total_timesteps=64, eval_every=0), str(az), progress=False)
    assert _tree(az) == before
    marker = json.loads((az / ".contack-run").read_text())["run_id"]
    assert json.loads((az / "state.json").read_text())["run_id"] == marker
    # A marked folder with a progress.csv and no checkpoint is a --backend rllib run made before such runs kept
    # checkpoints: its policy is its result, so it is refused too.
    (az / "checkpoint.pt").unlink()
    (az / "progress.csv").write_text("timesteps,seconds,steps_per_s,episode_return_mean\n")
    assert main([*TINY, "--out", str(az)]) == 1
    assert "already holds a --backend rllib run with no checkpoint" in capsys.readouterr().err
    # A run of ours killed before its first checkpoint (a marker, no checkpoint): a new run of either trainer
    # clears what any run here writes, and a file of the user's stays.
    (az / "progress.csv").unlink()
    (az / "tb" / "mine.txt").write_text("mine")
    (az / "notes.txt").write_text("mine")
    train_ppo(TrainConfig(total_timesteps=64, n_envs=1, n_steps=64, batch_size=64, n_epochs=1, net_arch=[16],
                          eval_every=0), str(az), progress=False)
    assert not (az / "buffer.npz").exists() and not list((az / "tb").glob("events.out.tfevents*"))
    assert (az / "notes.txt").read_text() == "mine" and (az / "tb" / "mine.txt").read_text() == "mine"
    assert (az / "checkpoint.zip").is_file()


def test_a_run_copied_without_its_marker_is_marked_again_with_its_own_id(tmp_path):
    # `cp -r run/* copy/` leaves the dot-file marker behind: --resume marks the copy with the id its state.json
    # holds, so that a kill before the next checkpoint still leaves a folder that resumes.
    out = tmp_path / "copy"
    assert main([*TINY, "--eval-every", "0", "--out", str(out)]) == 0
    run_id = json.loads((out / ".contack-run").read_text())["run_id"]
    (out / ".contack-run").unlink()
    assert main(["--resume", "--out", str(out), "--iterations", "3", "--progress", "off"]) == 0
    assert json.loads((out / ".contack-run").read_text())["run_id"] == run_id
    assert json.loads((out / "state.json").read_text())["run_id"] == run_id


def test_a_resume_refuses_a_state_of_another_run(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TINY, "--eval-every", "0", "--out", str(out)]) == 0
    state = json.loads((out / "state.json").read_text())
    (out / "state.json").write_text(json.dumps({**state, "run_id": "another"}))
    assert main(["--resume", "--out", str(out), "--iterations", "3", "--progress", "off"]) == 1
    assert "belongs to another run" in capsys.readouterr().err


def test_resuming_needs_a_checkpoint(tmp_path):
    with pytest.raises(TrainingError, match="nothing to resume in .*: no checkpoint.pt"):
        train(None, str(tmp_path), resume=True)


@pytest.mark.parametrize("argv,message", [
    (["--algorithm", "az", "--n-steps", "64"], "--n-steps: PPO setting"),
    (["--sims", "4"], "--sims: setting(s) of --algorithm az"),
    (["--ray"], "--ray: setting(s) of --algorithm az"),
    (["--algorithm", "az", "--game", "chess"], "game must be one of contack, solitaire1, solitaire2, contactix"),
    (["--algorithm", "az", "--game", "contactix", "--board-size", "2"], "board_size is a whole number 3..19; got 2"),
    (["--algorithm", "az", "--board-size", "5"], "board_size: not an option of game 'contack'"),
    (["--algorithm", "az", "--game", "contactix", "--hands", "2"], "hands: not an option of game 'contactix'"),
    (["--algorithm", "az", "--mode", "best"], "mode must be one of gumbel, visits"),
    (["--algorithm", "az", "--features", "hints"], "features must be one of none, lookahead"),
    (["--algorithm", "az", "--horizon", "turn"], "horizon must be one of game, hand"),
    (["--algorithm", "az", "--play-stakes", "odds"], "play_stakes must be one of margin, win; got 'odds'"),
    (["--algorithm", "az", "--eval-opponents", "nobody"], "unknown agent"),
    (["--algorithm", "az", "--value-from-search", "2"], "value_from_search must be a share from 0 to 1; got 2.0"),
    (["--algorithm", "az", "--play-rollout", "-1"], "play_rollout must be a share from 0 to 1; got -1.0"),
    (["--algorithm", "az", "--play-search", "beam"], "play_search must be one of tree, expectimax; got 'beam'"),
    (["--algorithm", "az", "--play-search", "expectimax", "--play-leaf-moves", "2"],
     "play_leaf_moves: the expectimax search plays no leaf moves"),
    (["--algorithm", "az", "--leaf-moves", "-1"], "leaf_moves must be a whole number, 0 or more; got -1"),
    (["--algorithm", "az", "--game", "solitaire2", "--rollout", "1", "--leaf-moves", "2"],
     "leaf_moves needs rollout below 1"),
    (["--algorithm", "az", "--value-playouts", "-4"], "value_playouts must be a whole number, 0 or more; got -4"),
    (["--algorithm", "az", "--value-playouts", "2.5"], "--value-playouts: '2.5' is not a valid whole number"),
    (["--algorithm", "az", "--seed", "-1"], "seed must be a whole number 0..9223372036854775807; got -1"),
    (["--algorithm", "az", "--seed", "99999999999999999999"], "got 99999999999999999999"),
])
def test_bad_options_are_refused_with_a_message(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--out", str(tmp_path / "run")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_help_gives_azs_own_default_of_a_setting_both_trainers_have(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert "3..19 (a policy plays the size it was trained on). (default 5; with --algorithm az 11)" in text
    assert "(default 0.0003; with --algorithm az 0.001)" in text
    assert "(default random,greedy; with --algorithm az lookahead,mcts:200)" in text
    assert "(default 0; with" not in text  # --seed: the same default for both, shown once


def test_ray_without_ray_installed_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError, as where it is not installed
    assert main([*TINY, "--ray", "--out", str(tmp_path / "run")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "contack train: --ray needs Ray, an optional extra: pip install -c constraints-rllib.txt -e '.[rllib]'"
    ]
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("features", ["none", "lookahead"])
def test_the_numpy_network_computes_what_the_torch_network_trained(features):
    # The numpy forward reads only the first layer's rows that meet a nonzero input; on real observations
    # (mostly zeros) and on dense inputs it must give the torch model's logits and values.
    import torch
    from az_nets import random_model

    from agents.az.encoding import Encoder

    enc = Encoder("contack", features)
    model = random_model("contack", 3, features, (64, 32))
    net = model.export({"game": "contack", "features": features})
    game = new_game(3, seed=4, log=False)
    observations, legal = [], []
    for _ in range(5):
        obs, actions = enc.encode(game)
        observations.append(obs)
        legal.append(actions)
        game.play_code(game.legal_codes()[-1])
    dense = np.random.default_rng(0).normal(size=(2, enc.obs_size)).astype(np.float32)
    for batch, actions in ((np.stack(observations), legal), (np.stack(observations[:1]), legal[:1]),
                           (dense, [[0, 7, 104], [3]]), (np.zeros((1, enc.obs_size), np.float32), [[5, 6]])):
        assert (batch == 0).any(axis=0).any() or batch is dense
        logits, values = net.forward(batch)
        with torch.no_grad():
            want_logits, want_values = model(torch.as_tensor(batch))
        assert np.allclose(logits, want_logits.numpy(), atol=1e-5)
        assert np.allclose(values, torch.sigmoid(want_values).numpy(), atol=1e-6)
        # told the legal actions, it scores those alone (the search's fast path), with the same logits there
        some_logits, some_values = net.forward(batch, actions)
        for b, legal_b in enumerate(actions):
            assert np.allclose(some_logits[b, legal_b], want_logits.numpy()[b, legal_b], atol=1e-5)
        assert np.allclose(some_values, torch.sigmoid(want_values).numpy(), atol=1e-6)


def test_what_a_stopped_run_kept_names_the_checkpoints_iteration_in_one_sentence_whatever_the_files_hold(tmp_path):
    import torch

    from training.az.command import kept

    out = tmp_path / "run"
    out.mkdir()
    assert "no checkpoint was written yet" in kept(str(out))
    torch.save({"iteration": 5, "games": 160}, out / "checkpoint.pt")
    # stopped after the checkpoint, before its state.json: --resume goes on from the checkpoint's iteration
    (out / "state.json").write_text('{"iteration": 4}')
    assert kept(str(out)) == (f"{out} keeps the run up to its last checkpoint, iteration 5; continue it with "
                              f"`contack train --resume --out {out}`")
    for damaged in (b"\xff\xfe not a checkpoint", b"", b"PK\x03\x04 half a zip"):  # said after Ctrl-C: no second error
        (out / "checkpoint.pt").write_bytes(damaged)
        assert kept(str(out)) == f"its checkpoint.pt cannot be read; `contack train --resume --out {out}` says what to do"


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished one-iteration run, copied by each test that spoils one of its files."""
    out = tmp_path_factory.mktemp("az") / "run"
    assert main([*TINY, "--iterations", "1", "--eval-every", "0", "--out", str(out)]) == 0
    return out


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _spoiled_resume(finished_run, tmp_path, capsys, spoil) -> str:
    """Copy the run, ``spoil(folder)`` it, resume it with more iterations: the one line it fails with (exit 1, no
    traceback, the folder left as it was)."""
    import shutil

    out = tmp_path / "run"
    shutil.copytree(finished_run, out)
    spoil(out)
    before = _files(out)
    capsys.readouterr()
    assert main(["--resume", "--out", str(out), "--iterations", "2", "--progress", "off"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "change from" not in err, "a resume that failed says of no change"
    assert _files(out) == before, "the folder is left as it was"
    return err


def test_a_garbage_checkpoint_is_called_damaged_without_torchs_advice_to_unpickle_it(finished_run, tmp_path, capsys):
    err = _spoiled_resume(finished_run, tmp_path, capsys, lambda out: (out / "checkpoint.pt").write_text("garbage\n"))
    assert "checkpoint.pt is damaged or not a checkpoint of `contack train --algorithm az`" in err
    assert "weights_only` set to `False`" not in err and "arbitrary code" not in err


def test_a_damaged_eval_csv_is_named_before_any_work(finished_run, tmp_path, capsys):
    # A renamed column failed with a traceback (KeyError: 'iteration'), a bad row after saying the run's iterations
    # changed, which config.toml then did not.
    def spoil(out):
        (out / "eval.csv").write_text("iteration,games_played,agent,opponent,games,win_rate,ci_low,ci_high,mean_margin,"
                                      "mean_tiles,wall_s\nabc,0,az,random,2,0.5,0.1,0.9,0,,1.0\n")

    err = _spoiled_resume(finished_run, tmp_path, capsys, spoil)
    assert "eval.csv is damaged (line 2: iteration is 'abc', not a whole number); mend it, or remove it" in err


def test_a_truncated_buffer_is_called_damaged(finished_run, tmp_path, capsys):
    def spoil(out):
        (out / "buffer.npz").write_bytes((out / "buffer.npz").read_bytes()[:100])

    err = _spoiled_resume(finished_run, tmp_path, capsys, spoil)
    assert "buffer.npz is damaged (" in err and "remove it to resume with a refilled buffer" in err


@pytest.mark.parametrize("state, why", [
    ("[1]", "it holds an array, not a JSON object"),
    ("null", "it holds null, not a JSON object"),
    ('{"iteration": "1"}', "iteration is '1', not a count of 0 or more"),
    ('{"run_id": 5}', "run_id is 5, not a string"),
])
def test_a_state_of_the_wrong_shape_is_called_damaged(finished_run, tmp_path, capsys, state, why):
    err = _spoiled_resume(finished_run, tmp_path, capsys, lambda out: (out / "state.json").write_text(state))
    assert f"state.json is damaged ({why}); remove it to resume" in err


@pytest.mark.parametrize("text, message", [
    ("garbage = =\n", "config.toml is not valid TOML"),
    ('[train]\nalgorithm = "az"\nsims = "x"\n', "config.toml: sims must be a whole number; got 'x' (str)"),
])
def test_a_damaged_config_of_an_az_run_is_named_on_resume(finished_run, tmp_path, capsys, text, message):
    # the run's checkpoint.pt says it is az's: the file's own problem is named, not "--iterations: not used by PPO"
    err = _spoiled_resume(finished_run, tmp_path, capsys, lambda out: (out / "config.toml").write_text(text))
    assert message in err and "not used by PPO" not in err


def test_a_resume_refuses_a_config_toml_edited_since_the_run_started(finished_run, tmp_path, capsys):
    # Two players edited to three resumed silently, and the exported file then claimed a three-player network.
    def edit(out):
        config = out / "config.toml"
        text = config.read_text()
        assert "players = 2" in text and "sims = 2" in text
        config.write_text(text.replace("players = 2", "players = 3").replace("\nsims = 2", "\nsims = 5"))

    err = _spoiled_resume(finished_run, tmp_path, capsys, edit)
    assert "config.toml was changed since the run started (players is 3 there, the run's is 2; sims is 5 there, " \
           "the run's is 2); a resumed run keeps the settings it started with (only iterations and ray may change)" in err


def test_a_resume_takes_the_length_of_the_run_from_an_edited_config_toml(finished_run, tmp_path, capsys):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(finished_run, out)
    config = out / "config.toml"
    config.write_text(config.read_text().replace("iterations = 1", "iterations = 2"))
    assert main(["--resume", "--out", str(out), "--progress", "off"]) == 0
    assert json.loads((out / "state.json").read_text())["config"]["iterations"] == 2
    assert AZNet.load(out / "policy.npz").meta["iterations"] == 2


def test_an_az_run_whose_config_lost_its_algorithm_line_still_resumes_as_az(finished_run, tmp_path, capsys):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(finished_run, out)
    config = out / "config.toml"
    config.write_text("".join(line for line in config.read_text().splitlines(True) if not line.startswith("algorithm")))
    assert main(["--resume", "--out", str(out), "--iterations", "2", "--progress", "off"]) == 0
    assert "the run's iterations change from 1 to 2" in capsys.readouterr().err
    assert AZConfig.load(str(config)).iterations == 2 and 'algorithm = "az"' in config.read_text()
