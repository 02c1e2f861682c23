"""``contack train``: MaskablePPO training with self-play (``training.train``, docs/training.md)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    from training.train import add_arguments

    tr = sub.add_parser(
        "train",
        help="train a policy with MaskablePPO (self-play against a pool of bots; every setting of training.config) "
        "or, with --algorithm az, a search-guided network (training.az.config)",
    )
    add_arguments(tr)


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from training.train import run_from_args

    return run_from_args(parser, args)
