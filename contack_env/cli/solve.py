"""``contack solve``: can solitaire deals be won at all, every tile known (``agents.solver``, an exact search)."""

from __future__ import annotations

import argparse

from contack_env.cli_support import check_seed_range, seed_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.solver import SOLITAIRES

    parser = sub.add_parser("solve", help="can solitaire deals be won at all, every tile known (an exact solver)")
    parser.add_argument("--game", choices=SOLITAIRES, required=True, help="the solitaire")
    parser.add_argument("--games", type=int, required=True, metavar="K", help="deals 0 .. K-1")
    parser.add_argument("--seed", type=seed_arg, required=True, metavar="S", help="the deals of `contack evaluate --seed S`")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                        help="per deal; a deal not settled in time is unknown (default 10)")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.evaluate import wilson
    from agents.solver import LOST, UNKNOWN, WON, solve_deals

    if args.games < 1:
        parser.error(f"--games must be at least 1; got {args.games}")
    check_seed_range(parser, "--seed", args.seed, args.games, "deals")
    if not args.time_limit > 0:
        parser.error(f"--time-limit must be above 0 seconds; got {args.time_limit}")
    solutions = solve_deals(args.game, args.games, args.seed, args.time_limit)
    count = {r: sum(s.result == r for s in solutions) for r in (WON, LOST, UNKNOWN)}
    k = len(solutions)
    print(f"{args.game}, {k} deals (seed {args.seed}), every tile known, {args.time_limit:g} s a deal at most:")
    print(f"  winnable {count[WON]}, not winnable {count[LOST]}, unknown {count[UNKNOWN]}")
    settled = count[WON] + count[LOST]
    if settled:
        lo, hi = wilson(count[WON] / settled, settled)
        print(f"  share winnable {count[WON] / settled:.3f} [{lo:.3f}, {hi:.3f}] of the {settled} deals settled; "
              f"between {count[WON] / k:.3f} and {(count[WON] + count[UNKNOWN]) / k:.3f} of all {k}")
    print(f"  {sum(s.seconds for s in solutions):.1f} s, {sum(s.positions for s in solutions)} positions searched")
    return 0
