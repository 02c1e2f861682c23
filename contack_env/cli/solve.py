"""``contack solve``: can solitaire deals be won at all, every tile known (``agents.solver``, an exact search)."""

from __future__ import annotations

import argparse
import json
import math

from contack_env.cli_support import (check_seed_range, output_arg, output_file_arg, seed_arg, whole_number_arg,
                                     write_output)
from contack_env.wording import plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.solver import SOLITAIRES

    parser = sub.add_parser("solve", help="can solitaire deals be won at all, every tile known (an exact solver)")
    parser.add_argument("--game", choices=SOLITAIRES, required=True, help="the solitaire")
    parser.add_argument("--games", type=whole_number_arg, required=True, metavar="K", help="deals 0 .. K-1")
    parser.add_argument("--seed", type=seed_arg, required=True, metavar="S", help="the deals of `contack evaluate --seed S`")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                        help="per deal; a deal not settled in time is unknown (default 10)")
    parser.add_argument("--json", metavar="FILE", type=output_file_arg,
                        help="also write as JSON the request (game, games, seed, time limit), the counts, the share "
                        "winnable with its 95%% Wilson interval, and per deal its seed, result and positions searched "
                        "(null when unknown); no times, so two runs give the same bytes, but a deal close to the time "
                        "limit can settle differently on a slower machine")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.solver import count_verdicts, solutions_json, solve_deals

    if args.games < 1:
        parser.error(f"--games must be at least 1; got {args.games}")
    check_seed_range(parser, "--seed", args.seed, args.games, "deals")
    if not 0 < args.time_limit < math.inf:  # an infinite limit would write Infinity, which JSON does not have
        parser.error(f"--time-limit must be a finite number of seconds above 0; got {args.time_limit:g}")
    output_arg(parser, "--json", args.json, (".json",), json=True)
    solutions = solve_deals(args.game, args.games, args.seed, args.time_limit)
    t = count_verdicts(solutions)
    k = len(solutions)
    print(f"{args.game}, {plural(k, 'deal')} (seed {args.seed}), every tile known, {args.time_limit:g} s a deal at most:")
    print(f"  winnable {t.winnable}, not winnable {t.not_winnable}, unknown {t.unknown}")
    settled = t.settled
    if settled:
        lo, hi = t.share_ci95
        least, most = t.share_of_all
        print(f"  share winnable {t.share:.3f} [{lo:.3f}, {hi:.3f}] of the {plural(settled, 'deal')} settled; "
              f"between {least:.3f} and {most:.3f} of {'all ' if k > 1 else ''}{plural(k, 'deal')}")
    print(f"  {sum(s.seconds for s in solutions):.1f} s, {plural(sum(s.positions for s in solutions), 'position')} searched")
    if args.json:
        found = solutions_json(args.game, args.games, args.seed, args.time_limit, solutions)
        if not write_output("solve", args.json, json.dumps(found, indent=2, allow_nan=False) + "\n"):
            return 1
    return 0
