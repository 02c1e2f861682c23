"""``contack train``: MaskablePPO training with self-play (``training.train``, docs/training.md), or RLlib's PPO
with ``--backend rllib`` (``training.rllib``, docs/scale.md)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    from training.rllib.command import add_arguments as add_backend_arguments
    from training.train import add_arguments

    tr = sub.add_parser(
        "train",
        help="train a policy with MaskablePPO (self-play against a pool of bots; every setting of training.config) "
        "or, with --algorithm az, a search-guided network (training.az.config); --backend rllib trains PPO with Ray RLlib",
    )
    add_arguments(tr)
    add_backend_arguments(tr)


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from training.rllib import command as rllib_command
    from training.train import run_from_args

    if args.backend == "rllib" or args.env_runners is not None:
        return rllib_command.run_from_args(parser, args)
    return run_from_args(parser, args)
