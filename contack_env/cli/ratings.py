"""``contack ratings``: one Elo table fitted to the records of several matches (``agents.league``)."""

from __future__ import annotations

import argparse
import json
import sys

from contack_env.cli_support import (file_identity, input_file_arg, not_an_input, output_arg, output_file_arg,
                                     write_output)


def add_parser(sub: argparse._SubParsersAction) -> None:
    rat = sub.add_parser(
        "ratings",
        help="one Elo table for the games of several matches (the --records files of contack evaluate)",
        description="Fit one Elo table, with 95% intervals over deals, to every game in the record files "
        "(contack evaluate --records FILE, one file a match); all of one game and one table size. Games dealt the "
        "same tiles are one deal, across files too.",
    )
    rat.add_argument("files", nargs="+", metavar="FILE", type=input_file_arg, help="record files written by contack evaluate --records")
    rat.add_argument("--json", metavar="FILE", type=output_file_arg, help="also write the table as JSON")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.league import format_league, league, league_json
    from contack_env.records import RecordError, read_records

    seen: dict[object, str] = {}
    for path in args.files:  # a file given twice would count each of its games twice
        same = seen.setdefault(file_identity(path), path)
        if same != path or args.files.count(path) > 1:
            parser.error(f"{path} is given twice{'' if same == path else f' (as {same})'}: each file is one match, "
                         "whose games count once")
    not_an_input(parser, "--json", args.json, args.files)
    output_arg(parser, "--json", args.json, (".json",), json=True)
    try:
        # a torn last line (an append cut short) is left out and said, as replay and render do
        sources = [read_records(path, on_torn=lambda err: print(f"contack ratings: {err} (left out)", file=sys.stderr))
                   for path in args.files]
        table = league(sources, args.files)
    except RecordError as err:  # a file's contents, as replay and render report them: exit status 1
        print(f"contack ratings: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"contack ratings: cannot read {err.filename}: {err.strerror}", file=sys.stderr)
        return 1
    print(format_league(table))
    if args.json and not write_output("ratings", args.json, json.dumps(league_json(table), indent=1) + "\n"):
        return 1
    return 0
