"""The ``contack`` command line.

    contack simulate --game {contack,solitaire1,solitaire2} [--players N] [--agents random,greedy,...]
                     --games K --seed S [--trace] [--hands N] [--enclosed-end {1939,next_player,never}]
                     --out FILE.jsonl
    contack replay --check [--through-env] FILE...
    contack evaluate --players N --agents A,B,... --games K --seed S [--workers W] [--json FILE] [--records FILE]
                     [--game {contack,solitaire1,solitaire2}] [--hands N] [--enclosed-end ...]
    contack play [--players N] [--agents ...] [--seat S] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Sequence

from .multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS

GAMES = ("contack", "solitaire1", "solitaire2")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage line, then what is allowed
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="contack", description="Contack (Parker Brothers, 1939): rules engine and tools.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sim = sub.add_parser("simulate", help="play games between agents and write their records (JSON lines)")
    sim.add_argument("--game", choices=GAMES, default="contack", help="the game (default: contack)")
    sim.add_argument("--players", type=int, default=None, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4); 1 for a solitaire")
    sim.add_argument("--agents", default="random", help="one agent for every seat, or one per seat, comma-separated (default: random)")
    sim.add_argument("--games", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=int, required=True, help="game i is played from seed S+i")
    sim.add_argument("--trace", action="store_true", help="add the list of legal moves to every place event")
    sim.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    sim.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (RULES.md 5)")
    sim.add_argument("--out", required=True, help="where to write the records, one JSON object per line")

    rep = sub.add_parser("replay", help="replay game records and check them against the rules")
    rep.add_argument("--check", action="store_true", required=True, help="check every record (the only mode so far)")
    rep.add_argument(
        "--through-env",
        action="store_true",
        help="replay through the environments (contack_v0, the solitaire envs) instead of the engine alone",
    )
    rep.add_argument("files", nargs="+", metavar="FILE", help="records: a JSON object, a JSON array or JSON lines")
    _add_evaluate_and_play(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "simulate":
        return _simulate(parser, args)
    if args.command == "replay":
        return _replay(args)
    if args.command == "evaluate":
        return _evaluate(parser, args)
    if args.command == "play":
        return _play(parser, args)
    parser.error(f"unknown command {args.command!r}")
    return 2


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.arena import simulate_records
    from agents.registry import parse_agent_list

    from .records import write_records

    if args.game == "contack":
        players = 4 if args.players is None else args.players
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players}")
    else:
        players = 1 if args.players is None else args.players
        if players != 1:
            parser.error(f"--players: {args.game} is a solitaire, played by 1 player; got {players}")
    if args.games < 1:
        parser.error(f"--games must be at least 1; got {args.games}")
    if args.hands < 1:
        parser.error(f"--hands must be at least 1; got {args.hands}")
    try:
        agent_names = parse_agent_list(args.agents, players)
    except ValueError as err:
        parser.error(f"--agents: {err}")

    from tqdm import tqdm

    records = []
    stream = simulate_records(args.game, players, agent_names, args.games, args.seed, args.hands, args.enclosed_end, args.trace)
    for record in tqdm(stream, total=args.games, desc="simulate", unit="game", disable=None, file=sys.stderr):
        records.append(record)
    try:
        write_records(args.out, records)
    except OSError as err:
        print(f"contack simulate: cannot write {args.out}: {err}", file=sys.stderr)
        return 1
    print(summarize(records))
    print(f"wrote {len(records)} records to {args.out}")
    return 0


def summarize(records: Sequence[dict]) -> str:
    """A short table of what a batch of records shows: wins and mean scores per seat, or solitaire results."""
    first = records[0]
    n = len(records)
    lines = []
    if first["game"] == "contack":
        seats = first["players"]
        rules = first["rules"]
        lines.append(
            f"{n} games of contack, {seats} players, {rules['hands']} hands, enclosed_end={rules['enclosed_end']}, "
            f"seeds {first['seed']}..{records[-1]['seed']}"
        )
        wins = [0.0] * seats
        totals = [0] * seats
        reasons: Counter[str] = Counter()
        for record in records:
            for seat in record["winners"]:
                wins[seat] += 1 / len(record["winners"])
            for seat, score in enumerate(record["scores"]):
                totals[seat] += score
            for hand in record["hands"]:
                reasons[hand["events"][-1]["reason"]] += 1
        lines.append(f"{'seat':>4}  {'agent':<10} {'wins':>8} {'win rate':>9} {'mean score':>11}")
        for seat in range(seats):
            lines.append(
                f"{seat:>4}  {first['agents'][seat]:<10} {wins[seat]:>8.1f} {wins[seat] / n:>9.3f} {totals[seat] / n:>11.2f}"
            )
        lines.append("hand ends: " + ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items())))
    else:
        won = sum(1 for r in records if r["winners"])
        placed = sum(sum(1 for h in r["hands"] for e in h["events"] if e["type"] in ("open", "place")) for r in records)
        points = sum(r["scores"][0] for r in records)
        lines.append(f"{n} games of {first['game']}, agent {first['agents'][0]}, seeds {first['seed']}..{records[-1]['seed']}")
        lines.append(f"won {won} ({won / n:.3f}), mean tiles placed {placed / n:.2f}, mean points {points / n:.2f}")
    return "\n".join(lines)


def _replay(args: argparse.Namespace) -> int:
    from .records import check_paths

    if args.through_env:
        from .env_replay import replay_through_env

        passed, failed = check_paths(args.files, out=sys.stdout, replayer=replay_through_env)
    else:
        passed, failed = check_paths(args.files, out=sys.stdout)
    return 1 if failed else 0


# -- evaluate and play (agents/evaluate.py, agents/play.py) -----------------------------------------------------
def _add_evaluate_and_play(sub: argparse._SubParsersAction) -> None:
    from agents.registry import SPEC_HELP

    ev = sub.add_parser(
        "evaluate",
        help="evaluate agents against each other over whole games, duplicate format (every deal in every seat rotation)",
    )
    ev.add_argument("--game", choices=GAMES, default="contack", help="contack (default), or a solitaire: each agent alone on the same deals")
    ev.add_argument("--players", type=int, default=None, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default: one per agent); 1 for a solitaire")
    ev.add_argument("--agents", required=True, help=f"one agent per seat, comma-separated: {SPEC_HELP}")
    ev.add_argument("--games", type=int, required=True, help="games in all: K/N deals, each played in all N seat rotations (K a multiple of N); solitaires: K deals per agent")
    ev.add_argument("--seed", type=int, required=True, help="deal d is played from seed S+d")
    ev.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    ev.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (RULES.md 5)")
    ev.add_argument("--workers", type=int, default=1, help="worker processes (default 1); the results do not depend on it")
    ev.add_argument("--json", metavar="FILE", help="write the statistics as JSON")
    ev.add_argument("--records", metavar="FILE", help="write every game's record (JSON lines)")

    pl = sub.add_parser("play", help="play Contack against bots at the terminal")
    pl.add_argument("--players", type=int, default=2, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 2)")
    pl.add_argument("--agents", default="lookahead", help=f"the bots: one for every bot seat, or one per bot seat in seat order ({SPEC_HELP}; default lookahead)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    pl.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one, printed)")
    pl.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    pl.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (RULES.md 5)")


def _evaluate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.evaluate import check_request, evaluate, format_table, records_of, write_json
    from agents.registry import check_spec

    try:
        agents = [check_spec(a) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    players = args.players
    if players is None:
        players = len(agents) if args.game == "contack" else 1
    if args.game == "contack" and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players}")
    if args.game == "contack" and len(agents) == 1:
        agents = agents * players
    try:
        check_request(args.game, players, agents, args.games, args.hands, args.workers)
    except ValueError as err:
        parser.error(str(err))
    ev = evaluate(
        agents, args.games, args.seed, game=args.game, players=players, hands=args.hands, enclosed_end=args.enclosed_end,
        workers=args.workers, records=args.records is not None, progress=None,
    )
    print(format_table(ev))
    try:
        if args.json:
            write_json(args.json, ev)
            print(f"wrote {args.json}")
        if args.records:
            from .records import write_records

            count = write_records(args.records, records_of(ev.results))
            print(f"wrote {count} records to {args.records}")
    except OSError as err:
        print(f"contack evaluate: cannot write: {err}", file=sys.stderr)
        return 1
    return 0


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.play import play_terminal
    from agents.registry import check_spec

    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {args.players}")
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat: the seats are 0..{args.players - 1}; got {args.seat}")
    if args.hands < 1:
        parser.error(f"--hands must be at least 1; got {args.hands}")
    try:
        agents = [check_spec(a) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    if len(agents) not in (1, args.players - 1):
        parser.error(f"--agents: one bot for every bot seat, or one per bot seat ({args.players - 1}); got {len(agents)}")
    return play_terminal(args.players, agents, args.seat, args.seed, args.hands, args.enclosed_end)


if __name__ == "__main__":
    sys.exit(main())
