"""Training configurations: TOML round trip, the command line over the file, clear errors."""

import argparse

import pytest

from training.config import TrainConfig
from training.train import add_arguments, config_from_args


def _parse(argv):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return config_from_args(parser.parse_args(argv))


def test_a_saved_config_loads_back_equal(tmp_path):
    cfg = TrainConfig(players=4, net_arch=[64, 32], opponents="greedy*2,self", learning_rate=1e-4)
    cfg.save(str(tmp_path / "c.toml"))
    assert TrainConfig.load(str(tmp_path / "c.toml")) == cfg


def test_options_override_the_file_which_overrides_the_defaults(tmp_path):
    TrainConfig(players=4, seed=7).save(str(tmp_path / "c.toml"))
    cfg = _parse(["--config", str(tmp_path / "c.toml"), "--seed", "9", "--net-arch", "32,32", "--eval-opponents", "greedy"])
    assert (cfg.players, cfg.seed, cfg.net_arch, cfg.eval_opponents) == (4, 9, [32, 32], ["greedy"])
    assert cfg.n_envs == TrainConfig().n_envs


def test_numbers_can_be_written_in_scientific_notation():
    assert _parse(["--total-timesteps", "2e6", "--learning-rate", "3e-4"]).total_timesteps == 2_000_000


@pytest.mark.parametrize(
    "values,message",
    [
        ({"players": 8}, "Contack is played by 2 to 7 players; got 8"),
        ({"game": "chess"}, "game must be one of contack, solitaire1, solitaire2"),
        ({"game": "solitaire1", "players": 2}, "is a solitaire, played by 1 player"),
        ({"net_arch": []}, "net_arch is a list of layer widths"),
        ({"n_envs": 0}, "n_envs must be at least 1"),
        ({"activation": "gelu"}, "activation must be one of tanh, relu"),
    ],
)
def test_bad_settings_say_what_is_allowed(values, message):
    with pytest.raises(ValueError) as err:
        TrainConfig(**values)
    assert message in str(err.value)


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2", "contactix"])
def test_for_game_starts_from_the_games_defaults_and_the_constructor_points_to_it(game):
    # The defaults docs/training.md gives ("Solitaires", "CON-TAC-TIX"): 1 player and the tiles reward, evaluated
    # against random and greedy; CON-TAC-TIX heads-up for the win, against random and two_distance.
    documented = {
        "solitaire1": {"players": 1, "reward": "tiles", "eval_opponents": ["random", "greedy"]},
        "solitaire2": {"players": 1, "reward": "tiles", "eval_opponents": ["random", "greedy"]},
        "contactix": {"players": 2, "reward": "win", "opponents": "random,two_distance,self",
                      "eval_opponents": ["random", "two_distance"]},
    }
    cfg = TrainConfig.for_game(game, seed=5)
    assert cfg.game == game and cfg.seed == 5
    for name, value in documented[game].items():
        assert getattr(cfg, name) == value, name
    assert TrainConfig.for_game(game, reward="win").reward == "win", "a given value wins over the game's default"
    assert TrainConfig.for_game("contack") == TrainConfig()
    if game != "contactix":  # the constructor keeps Contack's 2 players, which a solitaire refuses
        with pytest.raises(ValueError, match=rf"TrainConfig.for_game\('{game}', ...\)"):
            TrainConfig(game=game)
        from training.train import check_config

        with pytest.raises(ValueError, match=rf"features: .*in Python, TrainConfig.for_game\('{game}', ...\)"):
            TrainConfig(game=game, players=1)  # and Contack's lookahead inputs, which a solitaire never reads
        with pytest.raises(ValueError, match=rf"got 'margin' \(in Python, TrainConfig.for_game\('{game}', ...\)"):
            check_config(TrainConfig(game=game, players=1, features="none"))  # and Contack's reward


def test_an_unknown_setting_in_a_file_is_named(tmp_path):
    (tmp_path / "c.toml").write_text("[train]\nplayers = 2\nlearning_rat = 0.1\n")
    with pytest.raises(ValueError, match="unknown setting.*learning_rat"):
        TrainConfig.load(str(tmp_path / "c.toml"))


def test_a_missing_or_broken_file_is_named(tmp_path):
    with pytest.raises(ValueError, match="no configuration file at"):
        TrainConfig.load(str(tmp_path / "none.toml"))
    (tmp_path / "bad.toml").write_text("[train\n")
    with pytest.raises(ValueError, match="is not valid TOML"):
        TrainConfig.load(str(tmp_path / "bad.toml"))


@pytest.mark.parametrize("algorithm", ["ppo", "az"])
def test_a_config_that_is_a_folder_or_not_text_is_refused_by_the_command_with_why(tmp_path, capsys, algorithm):
    from contack_env.cli import main

    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe[train]")
    (tmp_path / "number.toml").write_text("train = 1\n")
    for config, words in ((tmp_path / "binary.toml", "is not a TOML file: it is not UTF-8 text"),
                          (tmp_path, "is a folder; --config names a TOML file"),
                          (tmp_path / "number.toml", "[train] is a table of settings; got 1")):
        with pytest.raises(SystemExit) as exit_:
            main(["train", "--algorithm", algorithm, "--config", str(config), "--out", str(tmp_path / "run")])
        assert exit_.value.code == 2 and words in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_a_solitaire_run_defaults_to_one_player_and_the_tiles_reward(game):
    cfg = _parse(["--game", game])
    assert (cfg.players, cfg.reward, cfg.features) == (1, "tiles", "none")
    assert _parse(["--game", game, "--reward", "win"]).reward == "win"  # an option still wins over the game's default
    assert _parse([]).players == 2  # Contack keeps the field defaults


@pytest.mark.parametrize("algorithm", ["ppo", "az"])
def test_numpy_integers_are_whole_numbers_kept_as_plain_ints(tmp_path, algorithm):
    # A sweep's values often come from numpy (np.arange): the run's config.toml and SB3's seed take only ints.
    import numpy as np

    from training.az.config import AZConfig

    kind = TrainConfig if algorithm == "ppo" else AZConfig
    cfg = kind(seed=np.int64(7), hands=np.int64(2), net_arch=[np.int64(32), np.int64(16)])
    assert [type(v) for v in (cfg.seed, cfg.hands, *cfg.net_arch)] == [int] * 4
    cfg.save(str(tmp_path / "config.toml"))
    loaded = kind.load(str(tmp_path / "config.toml"))
    assert (loaded.seed, loaded.hands, loaded.net_arch) == (7, 2, [32, 16])


T = ["--total-timesteps", "64", "--n-steps", "32", "--n-envs", "1", "--batch-size", "32", "--eval-every", "0",
     "--progress", "off"]
Z = ["--algorithm", "az", "--iterations", "1", "--games-per-iteration", "2", "--sims", "2", "--play-sims", "2",
     "--workers", "1", "--net-arch", "16", "--eval-every", "0", "--progress", "off"]


def _refused(tmp_path, capsys, argv):
    """The usage error ``contack train argv`` ends in (exit 2, no traceback, no run folder made)."""
    from training.train import main

    with pytest.raises(SystemExit) as exit_:
        main([*argv, *(() if "--out" in argv else ("--out", str(tmp_path / "run")))])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err, err
    assert not (tmp_path / "run").exists()
    return err


@pytest.mark.parametrize("argv,message", [
    # a torch thread count past any machine's makes torch hang or crash; workers as `evaluate --workers`
    ([*T, "--torch-threads", "257"], "torch_threads must be a whole number 1..256; got 257"),
    ([*Z, "--torch-threads", "257"], "torch_threads must be a whole number 1..256; got 257"),
    # a setting the game's training never reads would be written into config.toml for nothing
    ([*T, "--game", "solitaire1", "--hands", "5"], "hands: not an option of game 'solitaire1'"),
    ([*T, "--game", "contack", "--board-size", "9"], "board_size: not an option of game 'contack'"),
    ([*T, "--game", "solitaire2", "--enclosed-end", "never"], "enclosed_end: not an option of game 'solitaire2'"),
    ([*T, "--game", "contactix", "--hands", "2"], "hands: not an option of game 'contactix'"),
    ([*T, "--game", "contactix", "--features", "lookahead"], "features: contactix's training does not use it"),
    ([*T, "--game", "solitaire1", "--opponents", "mcts:5"], "opponents: solitaire1's training does not use it"),
    # weights past the largest number, or adding up past it
    ([*T, "--opponents", "greedy*1e308,random*1e308"], "the opponents' weights add up past the largest number"),
    ([*T, "--opponents", "greedy*inf,random"], "the weight after the name must be a positive number (finite)"),
    # evaluations asked for against no one
    ([*T, "--eval-every", "1", "--eval-opponents", ""], "eval_opponents is empty"),
    ([*Z, "--eval-every", "1", "--eval-opponents", ""], "eval_opponents is empty"),
    # the seeds a run derives are seeds too: the evaluations' (az), the random streams' seed + timesteps (PPO)
    ([*Z, "--seed", str(2**63 - 1), "--eval-every", "1", "--eval-games", "2", "--eval-opponents", "random"],
     f"seed must be a whole number 0..{2**63 - 1 - 1_000_000} with evaluations"),
    ([*T, "--seed", str(2**31 - 1), "--total-timesteps", "3e9"], "must stay below 2**32"),
    (["--algorithm", "az", "--out", ""], "--out is empty"),
    ([*T, "--out", ""], "--out is empty"),
])
def test_a_bad_option_is_a_usage_error_before_any_run_folder(tmp_path, capsys, argv, message):
    assert message in _refused(tmp_path, capsys, argv)


@pytest.mark.parametrize("algorithm, values", [
    ("ppo", {"torch_threads": 100000}), ("az", {"torch_threads": 10000}), ("az", {"workers": 1000}),
    ("ppo", {"torch_threads": 256}), ("az", {"torch_threads": 256, "workers": 256}),
])
def test_torch_threads_and_az_workers_are_capped_at_256(algorithm, values):
    # checked on the configuration, not by a run: a regression here would start 1000 processes or crash torch
    from training.az.config import AZConfig

    kind = TrainConfig if algorithm == "ppo" else AZConfig
    if max(values.values()) <= 256:
        kind.from_dict(values)
        return
    with pytest.raises(ValueError, match=r"must be a whole number 1\.\.256; got"):
        kind.from_dict(values)


def test_a_solitaire_with_players_is_told_its_default_in_words_for_the_command_line_too(tmp_path, capsys):
    err = _refused(tmp_path, capsys, [*T, "--game", "solitaire1", "--players", "2"])
    assert "got 2 (solitaire1's default is 1; in Python, TrainConfig.for_game" in err


def test_a_solitaires_empty_evaluation_opponents_still_evaluate_its_policy_alone():
    assert TrainConfig.for_game("solitaire1", eval_every=1, eval_opponents=[]).eval_opponents == []


@pytest.mark.parametrize("line,message", [
    ('learning_rate = "0.1"', "learning_rate must be a finite number; got '0.1' (str)"),
    ('weight_decay = "x"', "weight_decay must be a finite number; got 'x' (str)"),
    ('eval_every = "x"', "eval_every must be a whole number; got 'x' (str)"),
    ('net_arch = "64"', "net_arch must be a list of whole numbers; got '64'"),
    ("net_arch = [1.5]", "net_arch must be a list of whole numbers; got [1.5]"),
    ("sample_reuse = inf", "sample_reuse must be a finite number; got inf (float)"),
    ("learning_rate = inf", "learning_rate must be a finite number; got inf (float)"),
    ("value_weight = inf", "value_weight must be a finite number; got inf (float)"),
    ("pretrain_temperature = inf", "pretrain_temperature must be a finite number; got inf (float)"),
    ("eval_every = 1.5", "eval_every must be a whole number; got 1.5 (float)"),
    ("weight_decay = nan", "weight_decay must be a finite number; got nan (float)"),
    ('ray = "yes"', "ray must be true or false; got 'yes' (str)"),
    ("play_rollout = inf", "play_rollout must be a finite number; got inf (float)"),
])
def test_an_az_config_file_of_the_wrong_types_is_refused_naming_the_setting(tmp_path, capsys, line, message):
    (tmp_path / "f.toml").write_text(f'[train]\nalgorithm = "az"\n{line}\n')
    # Z less the options that would override the file's line (--net-arch, --eval-every)
    flags = [a for i, a in enumerate(Z) if not {a, Z[i - 1]} & {"--net-arch", "--eval-every"}]
    err = _refused(tmp_path, capsys, ["--config", str(tmp_path / "f.toml"), *flags])
    assert f"f.toml: {message}" in err
