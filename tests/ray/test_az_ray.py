"""``contack train --algorithm az --ray``: self-play on Ray tasks, the network shipped to them every round, the
same samples and the same trained network as worker processes for the same seed."""

from __future__ import annotations

import json

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from agents.az.network import AZNet  # noqa: E402
from training.az.config import AZConfig  # noqa: E402
from training.az.selfplay import GameSetup, SelfPlay  # noqa: E402
from training.az.train import Learner, train  # noqa: E402
from contack_env.games import RuleOptions  # noqa: E402
from training.train import main  # noqa: E402

TINY = dict(iterations=2, games_per_iteration=4, sims=2, workers=2, parallel_games=2, net_arch=[8], batch_size=8,
            eval_every=0, hands=1, seed=3)


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def _weights(net):
    return [w for pair in [*net.trunk, net.head, *net.value] for w in pair]


def test_a_round_on_ray_gives_the_samples_of_worker_processes(cluster):
    cfg = AZConfig(**TINY)
    net = Learner(cfg).export({"game": "contack"})
    setup = GameSetup("contack", 2, RuleOptions(hands=1), 2, horizon=cfg.horizon)
    processes, on_ray = SelfPlay(2, 2), SelfPlay(2, 2, ray=True)
    try:  # a fresh SeedSequence each: a round spawns its children from it
        a = processes.round(net, setup, 5, np.random.SeedSequence([3, 0]))
        b = on_ray.round(net, setup, 5, np.random.SeedSequence([3, 0]))
    finally:
        processes.close()
        on_ray.close()
    assert len(a.results) == len(b.results) == 5
    for key in ("obs", "mask", "policy", "value", "seats"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    assert a.results == b.results
    assert ray.is_initialized()  # a session opened before is left open


def test_a_run_with_ray_trains_the_network_of_a_run_with_processes(cluster, tmp_path, capsys):
    train(AZConfig(**TINY), str(tmp_path / "processes"), progress=False)
    argv = ["--algorithm", "az", "--ray", "--progress", "off", "--out", str(tmp_path / "ray")]
    for key, value in TINY.items():
        argv += [f"--{key.replace('_', '-')}", ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    assert main(argv) == 0
    assert AZConfig.load(str(tmp_path / "ray" / "config.toml")).ray is True
    a, b = (AZNet.load(tmp_path / name / "policy.npz") for name in ("processes", "ray"))
    assert all(np.array_equal(x, y) for x, y in zip(_weights(a), _weights(b)))
    assert json.loads((tmp_path / "ray" / "state.json").read_text())["games"] == 8


def test_pretraining_games_on_ray_give_the_samples_of_worker_processes(cluster):
    from training.az.pretrain import BotGames, pretraining_samples

    plan = BotGames(GameSetup("contack", 2, RuleOptions(hands=1), 2, horizon="hand"), "lookahead", 10.0, 0.3)
    processes, on_ray = SelfPlay(2, 2), SelfPlay(2, 2, ray=True)
    try:
        a = pretraining_samples(plan, 5, 3, processes.map)
        b = pretraining_samples(plan, 5, 3, on_ray.map)
    finally:
        processes.close()
        on_ray.close()
    assert len(a) > 0 and len(a.results) == len(b.results) == 5
    for key in ("obs", "mask", "policy", "value", "seats"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
