"""Two promises of docs/reliability.md that hold everywhere: nothing connects to a network, and no pickle is
ever loaded (policy files, checkpoints, records)."""

from __future__ import annotations

import io
import pickle
import socket
from contextlib import redirect_stderr, redirect_stdout


from contack_env.cli import main

TINY = ["--total-timesteps", "128", "--n-envs", "1", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1",
        "--net-arch", "16", "--eval-every", "64", "--eval-games", "2", "--eval-opponents", "random",
        "--checkpoint-every", "64", "--opponents", "greedy,self", "--progress", "off"]


AZ_TINY = ["--algorithm", "az", "--iterations", "2", "--games-per-iteration", "2", "--sims", "2", "--play-sims", "2",
           "--workers", "1", "--net-arch", "16", "--batch-size", "16", "--eval-every", "2", "--eval-games", "2",
           "--eval-opponents", "random", "--hands", "1", "--progress", "off"]


def _every_command(tmp_path) -> None:
    """Each command the way a user runs it (in this process, so that the patches apply): simulate, replay,
    render, train and resume (PPO and the search-guided learner), evaluate both trained policies with their
    records, ratings over them, solve, the demo with the shipped models. (``play`` and ``serve`` wait for a
    person; ``--backend rllib`` and ``--ray`` need Ray.)"""
    run = tmp_path / "run"
    az_run = tmp_path / "az_run"
    commands = [
        ["simulate", "--games", "2", "--seed", "1", "--players", "2", "--out", str(tmp_path / "g.jsonl")],
        ["replay", "--check", str(tmp_path / "g.jsonl")],
        ["replay", "--check", "--through-env", str(tmp_path / "g.jsonl")],
        ["render", str(tmp_path / "g.jsonl"), "--out", str(tmp_path / "g.png"), "--every", "50"],
        ["train", "--out", str(run), *TINY],
        ["train", "--out", str(run), "--resume", "--total-timesteps", "192", "--progress", "off"],
        ["evaluate", "--agents", f"ppo:{run / 'policy.npz'},random", "--games", "2", "--seed", "1",
         "--json", str(tmp_path / "ev.json"), "--records", str(tmp_path / "ppo.jsonl")],
        ["train", "--out", str(az_run), *AZ_TINY],
        ["train", "--out", str(az_run), "--resume", "--iterations", "3", "--progress", "off"],
        ["evaluate", "--agents", f"az:{az_run / 'policy.npz'},random", "--games", "2", "--seed", "1",
         "--records", str(tmp_path / "az.jsonl")],
        ["ratings", str(tmp_path / "ppo.jsonl"), str(tmp_path / "az.jsonl")],
        ["solve", "--game", "solitaire2", "--games", "2", "--seed", "1"],
        ["demo", "--games", "2", "--workers", "1", "--out", str(tmp_path / "demo")],
    ]
    for argv in commands:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()) as err:
            assert main(argv) == 0, (argv, err.getvalue())


def test_nothing_connects_to_a_network(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"a network connection was attempted: {args!r}")

    for name in ("connect", "connect_ex", "sendto"):
        monkeypatch.setattr(socket.socket, name, refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    _every_command(tmp_path)


def test_no_pickle_is_ever_loaded(tmp_path, monkeypatch):
    import torch

    def refuse(*args, **kwargs):
        raise AssertionError("a pickle was loaded")

    real_load = torch.load

    def weights_only_load(*args, **kwargs):
        # torch.load(weights_only=True) reads tensors with an unpickler of its own that makes no other object.
        assert kwargs.get("weights_only") is True, "torch.load without weights_only=True"
        return real_load(*args, **kwargs)

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    monkeypatch.setattr(torch, "load", weights_only_load)
    _every_command(tmp_path)
