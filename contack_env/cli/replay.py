"""``contack replay --check``: replay game records and check them against the rules (docs/records.md)."""

from __future__ import annotations

import argparse
import sys

from contack_env.cli_support import input_file_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    rep = sub.add_parser("replay", help="replay game records and check them against the rules")
    rep.add_argument("--check", action="store_true", required=True, help="check every record (required: replay checks)")
    rep.add_argument(
        "--through-env",
        action="store_true",
        help="replay through the environments (contack_v0, the solitaire envs, contactix_v0) instead of the engine alone",
    )
    rep.add_argument("files", nargs="+", metavar="FILE", type=input_file_arg, help="records: a JSON object, a JSON array or JSON lines")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from contack_env.records import check_paths

    through = None
    if args.through_env:
        from contack_env.envs.replay import through_env

        through = through_env
    passed, failed = check_paths(args.files, out=sys.stdout, through=through)
    return 1 if failed else 0
