"""The shipped search-guided models: network files for their game, each with its configuration and curve."""

from pathlib import Path

from agents.registry import make_agent
from training.az.config import AZConfig
from agents.az.network import AZNet

MODELS = Path(__file__).resolve().parents[3] / "models"


def test_every_shipped_az_model_loads_for_its_game_with_its_config_and_curve():
    paths = sorted(MODELS.glob("*_az.npz"))
    assert paths, "models/ ships search-guided networks"
    for path in paths:
        cfg = AZConfig.load(str(path.with_suffix(".toml")))
        net = AZNet.load(path, game=cfg.game)
        assert net.meta["players"] == cfg.players and net.meta["sims"] == cfg.play_sims
        assert net.meta["iterations"] == cfg.iterations, "the file is the run's final network"
        assert AZConfig.from_dict(net.meta["config"]) == cfg, "the .toml is the configuration it was trained with"
        assert (net.features, net.horizon) == (cfg.features, cfg.horizon), "it reads what it was trained on"
        assert (net.rollout, net.stakes, net.leaf_moves, net.search) == (cfg.play_rollout, cfg.play_stakes,
                                                                          cfg.play_leaf_moves, cfg.play_search), \
            "it plays as its file says"
        assert path.stat().st_size < 5_000_000, "a few MB at most"
        assert (MODELS / f"{path.stem}_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert make_agent(f"az:{path}", 0, cfg.game).sims == cfg.play_sims
