"""The shipped models still load and play at their strength with today's code (feature pipeline included).

A small, seeded version of models/README.md's tables: a change that breaks how ``ppo:PATH`` rebuilds a policy's
input (the observation, the lookahead features) shows up here as a collapse to random play.
"""

from pathlib import Path

import pytest

from agents.evaluate import evaluate

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize(
    "model, opponents, games, at_least",
    [
        ("contack_2p.npz", ["random"], 100, 0.70),  # 0.817 over 1000 games
        ("contack_2p.npz", ["greedy"], 100, 0.55),  # 0.697
        ("contack_4p.npz", ["greedy"] * 3, 100, 0.28),  # 0.357 (fair share 0.25)
    ],
)
def test_a_shipped_model_beats_the_bots(model, opponents, games, at_least):
    ev = evaluate([f"ppo:{MODELS / model}", *opponents], games, seed=1, players=1 + len(opponents))
    assert ev.entries[0].win_rate >= at_least, ev.entries[0]


SHIPPED = {"contack_2p": "contack", "contack_4p": "contack", "solitaire1": "solitaire1", "solitaire2": "solitaire2",
           "contactix_5x5": "contactix"}


def test_every_shipped_model_is_small_and_has_its_config_and_curve_beside_it():
    from training.config import TrainConfig
    from agents.policy_file import PolicyNet

    # (the search-guided *_az.npz networks have their own test: tests/training/az/test_shipped_az_models.py)
    assert sorted(p.stem for p in MODELS.glob("*.npz") if not p.stem.endswith("_az")) == sorted(SHIPPED)
    for name, game in SHIPPED.items():
        assert (MODELS / f"{name}.npz").stat().st_size < 5_000_000, "a few MB at most"
        assert (MODELS / f"{name}_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        net = PolicyNet.load(MODELS / f"{name}.npz", game=game)
        # The .toml beside it is the configuration the file was trained with (the one to repeat the run with).
        assert TrainConfig.load(str(MODELS / f"{name}.toml")) == TrainConfig.from_dict(net.meta["config"]), name


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_the_shipped_solitaire_models_place_more_tiles_than_random(game):
    ev = evaluate([f"ppo:{MODELS / game}.npz", "random"], 100, seed=1, game=game)
    trained, random = ev.entries
    # 1000 deals (models/README.md): 24.85 vs 23.88 and 23.54 vs 20.01; on these 100: 25.06 vs 23.37, 22.82 vs 20.49
    assert trained.mean_tiles_placed > random.mean_tiles_placed + 0.5, (trained, random)
