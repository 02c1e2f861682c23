"""The golden outputs: each entry is a ``contack`` command line and the file it writes.

The files in this folder were written by these commands (and ``selfplay_golden``, ``learner_golden``) on the
project's own code; ``test_golden.py`` runs them again and compares byte for byte, so a change that alters play,
self-play, the learner, records or evaluation shows up as a diff (in the manner of OpenSpiel's playthroughs).
After a change that is meant to alter them, regenerate from the repository root with
``python tests/golden/commands.py`` and commit the diff with the change that caused it.
"""

from __future__ import annotations

import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent

# (file written, arguments after ``contack``; "{out}" is replaced by the output path). Paths of models are
# relative to the repository root, where the commands run, so that records name them the same on every machine.
COMMANDS: list[tuple[str, list[str]]] = [
    ("contack_2p.jsonl", ["simulate", "--game", "contack", "--players", "2", "--agents", "mcts:30,ppo:models/contack_2p.npz",
                          "--games", "2", "--seed", "11", "--trace", "--out", "{out}"]),
    ("contack_4p.jsonl", ["simulate", "--game", "contack", "--players", "4", "--agents",
                          "greedy,lookahead,random,ppo:models/contack_4p.npz", "--games", "2", "--seed", "12", "--trace",
                          "--out", "{out}"]),
    ("contack_7p.jsonl", ["simulate", "--game", "contack", "--players", "7", "--agents",
                          "random,greedy,lookahead,mcts:10,random,greedy,lookahead", "--games", "1", "--seed", "13",
                          "--trace", "--enclosed-end", "next_player", "--out", "{out}"]),
    ("solitaire1.jsonl", ["simulate", "--game", "solitaire1", "--agents", "ppo:models/solitaire1.npz", "--games", "3",
                          "--seed", "14", "--trace", "--out", "{out}"]),
    ("solitaire2.jsonl", ["simulate", "--game", "solitaire2", "--agents", "mcts:20", "--games", "2", "--seed", "15",
                          "--trace", "--out", "{out}"]),
    # The search-guided agents with the shipped networks, the search's sampling and Solitaire No. 2's exact
    # endgame included: a change to the search shows up here, and means the shipped az models (made by the
    # commands in models/README.md) are no longer what those commands make.
    ("az_contack_2p.jsonl", ["simulate", "--game", "contack", "--players", "2", "--agents",
                             "az:models/contack_2p_az.npz:8,az:models/contack_2p_az.npz:0", "--games", "1",
                             "--seed", "16", "--trace", "--out", "{out}"]),
    ("az_solitaire1.jsonl", ["simulate", "--game", "solitaire1", "--agents", "az:models/solitaire1_az.npz:8",
                             "--games", "1", "--seed", "17", "--trace", "--out", "{out}"]),
    ("az_solitaire2.jsonl", ["simulate", "--game", "solitaire2", "--agents", "az:models/solitaire2_az.npz:16",
                             "--games", "2", "--seed", "18", "--trace", "--out", "{out}"]),
    ("evaluate_2p.json", ["evaluate", "--players", "2", "--agents", "greedy,random", "--games", "4", "--seed", "3",
                          "--json", "{out}"]),
    ("contactix_5x5.jsonl", ["evaluate", "--game", "contactix", "--board-size", "5", "--agents",
                             "two_distance,ppo:models/contactix_5x5.npz", "--games", "2", "--seed", "4", "--records", "{out}"]),
    ("az_contactix_5x5.jsonl", ["evaluate", "--game", "contactix", "--board-size", "5", "--agents",
                                "az:models/contactix_5x5_az.npz:8,mcts:20", "--games", "2", "--seed", "21",
                                "--records", "{out}"]),
]


SELFPLAY = "az_selfplay.json"
"""Self-play samples of each shipped az model's own training setup (its ``.toml``, with one hand a game, fewer
simulations and fewer games), and the pretraining samples of the heads-up model's (two games of the
``lookahead`` bot, one hand each): what a change to self-play or pretraining (the search, the bot, the random
streams, the targets) would change in the trained models."""


def selfplay_golden() -> str:
    """The text of ``SELFPLAY``: two self-play games per shipped az model and two pretraining games of the
    heads-up one, their samples' targets rounded."""
    import dataclasses
    import json

    import numpy as np

    from agents.az.network import AZNet
    from training.az.config import AZConfig
    from training.az.pretrain import BotGames, bot_games
    from training.az.selfplay import Samples, play
    from contack_env.games import GAMES
    from training.az.train import game_setup

    def rounded(samples: Samples) -> dict[str, list]:
        return {
            "actions": [[int(a) for a in row.nonzero()[0]] for row in samples.mask],
            "policy": [[round(float(p), 3) for p in row[mask]] for row, mask in zip(samples.policy, samples.mask)],
            "value": [[round(float(v), 3) for v in row[seats > 0]]
                      for row, seats in zip(samples.value, samples.seats)],
            "results": [[round(float(r), 4) for r in game] for game in samples.results],
        }

    out = {}
    for name in ("contack_2p_az", "contack_4p_az", "contactix_5x5_az", "solitaire1_az", "solitaire2_az"):
        setup = game_setup(AZConfig.load(f"models/{name}.toml"))
        if "hands" in GAMES[setup.game].options:  # (a game of one hand is quicker, where the game has hands)
            setup = dataclasses.replace(setup, options=dataclasses.replace(setup.options, hands=1))
        setup = dataclasses.replace(setup, sims=8)
        out[name] = rounded(play(AZNet.load(f"models/{name}.npz"), setup, games=2, seed=19, parallel=2))
    cfg = AZConfig.load("models/contack_2p_az.toml")
    setup = game_setup(cfg)
    plan = BotGames(dataclasses.replace(setup, options=dataclasses.replace(setup.options, hands=1)), cfg.features,
                    cfg.pretrain_temperature, cfg.pretrain_explore)
    out["pretrain_contack_2p_az"] = rounded(bot_games(plan, 2, np.random.SeedSequence(20)))
    return json.dumps(out, sort_keys=True) + "\n"


LEARNER = "az_learner.json"
"""The heads-up az model's learner (its ``.toml``: network, optimizer, batches, losses) trained from its seed on
the samples of four pretraining games: each pass's mean losses and the exported network's policy and values at
the first positions. What a change to the learner would change in the trained models."""
PASSES = 12


def learner_golden() -> str:
    """The text of ``LEARNER`` (rounded: torch's float sums differ in the last bits from one build to another)."""
    import json

    import numpy as np
    import torch

    from training.az.config import AZConfig
    from training.az.pretrain import BotGames, bot_games
    from training.az.train import Learner, game_setup

    cfg = AZConfig.load("models/contack_2p_az.toml")
    plan = BotGames(game_setup(cfg), cfg.features, cfg.pretrain_temperature, cfg.pretrain_explore)
    samples = bot_games(plan, 4, np.random.SeedSequence(20))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # one thread: the sums in one order
    try:
        learner = Learner(cfg)
        learner.set_learning_rate(cfg.pretrain_learning_rate)
        losses = learner.fit(samples, PASSES, np.random.default_rng(21))
    finally:
        torch.set_num_threads(threads)
    net = learner.export({})
    first = range(4)
    actions = [list(samples.mask[i].nonzero()[0]) for i in first]
    logits, values = net.forward(samples.obs[list(first)], actions)
    policy = []
    for row, legal in zip(logits, actions):
        z = np.exp(row[legal] - row[legal].max())
        policy.append([round(float(p), 3) for p in z / z.sum()])
    out = {"samples": len(samples), "losses": [[round(float(x), 3) for x in pass_] for pass_ in losses],
           "policy": policy, "value": [[round(float(v), 3) for v in row[:cfg.players]] for row in values]}
    return json.dumps(out, sort_keys=True) + "\n"


PPO_RUN = "ppo_run.json"
"""A short run of the heads-up PPO model's command (its ``.toml``: 8,192 steps, a checkpoint, a snapshot and an
evaluation on the way): the evaluation rows and how far training moved each array of the policy. What a change
to ``contack train`` (the environments, the opponents, the random streams, the learner) would change in the
models its commands make."""
PPO_SETTINGS = ["--total-timesteps", "8192", "--checkpoint-every", "4096", "--snapshot-every", "4096",
                "--eval-every", "4096", "--eval-games", "4"]


def ppo_golden(folder: Path) -> str:
    """The text of ``PPO_RUN``, the run written under ``folder`` (rounded, as ``learner_golden``)."""
    import csv
    import json

    import numpy as np

    run(PPO_RUN, ["train", "--config", "models/contack_2p.toml", *PPO_SETTINGS, "--out", str(folder)], folder)
    with open(folder / "eval.csv", newline="") as f:
        rows = [{k: v for k, v in row.items() if k != "wall_s"} for row in csv.DictReader(f)]
    trained, initial = (np.load(folder / name) for name in ("policy.npz", "snapshots/snap_0000000000.npz"))
    # How far training moved each array of 100 weights or more from the initial ones, to 3 significant digits
    # (torch's float sums differ in the last bits from one build to another): a change to the run moves these.
    moved = {name: float(f"{np.abs(trained[name] - initial[name]).mean():.3g}")
             for name in trained.files if trained[name].dtype.kind == "f" and trained[name].size >= 100}
    return json.dumps({"eval": rows, "moved": moved}, sort_keys=True) + "\n"


def contack_main():
    """The ``contack`` console script, wherever the command line lives."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="contack")
    return script.load()


def run(name: str, args: list[str], out: Path) -> None:
    """Run one golden command, writing its file to ``out``; its printed output is discarded."""
    import contextlib
    import io

    argv = [a.replace("{out}", str(out)) for a in args]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = contack_main()(argv)
    if code not in (0, None):
        raise RuntimeError(f"contack {' '.join(argv)} exited {code}")


if __name__ == "__main__":
    for name, args in COMMANDS:
        run(name, args, GOLDEN / name)
        print(f"wrote {GOLDEN / name}", file=sys.stderr)
    (GOLDEN / SELFPLAY).write_text(selfplay_golden())
    print(f"wrote {GOLDEN / SELFPLAY}", file=sys.stderr)
    (GOLDEN / LEARNER).write_text(learner_golden())
    print(f"wrote {GOLDEN / LEARNER}", file=sys.stderr)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        (GOLDEN / PPO_RUN).write_text(ppo_golden(Path(folder) / "run"))
    print(f"wrote {GOLDEN / PPO_RUN}", file=sys.stderr)
