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

        with pytest.raises(ValueError, match=rf"got 'margin' \(TrainConfig.for_game\('{game}', ...\)"):
            check_config(TrainConfig(game=game, players=1))  # and Contack's reward


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
