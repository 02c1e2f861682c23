"""``contack demo``: the main job, the shipped trained agents against the bots (``training.demo``)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    from training.demo import add_arguments

    add_arguments(sub.add_parser("demo", help="the shipped trained agents against the bots: tables, a plot, a finished game"))


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from training.demo import run_from_args

    return run_from_args(parser, args)
