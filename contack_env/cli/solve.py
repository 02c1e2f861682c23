"""``contack solve``: can solitaire deals be won at all, every tile known (``agents.solver``, an exact search)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.solver import add_arguments

    add_arguments(sub.add_parser("solve", help="can solitaire deals be won at all, every tile known (an exact solver)"))


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.solver import run_from_args

    return run_from_args(parser, args)
