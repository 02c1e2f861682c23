"""``contack simulate``: play games between agents and write their records (docs/records.md)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Sequence

from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS
from contack_env.cli_support import output_arg, seed_arg
from contack_env.games import get_game
from contack_env.wording import plural

SIMULATED_GAMES = ("contack", "solitaire1", "solitaire2")


def add_parser(sub: argparse._SubParsersAction) -> None:
    sim = sub.add_parser("simulate", help="play games between agents and write their records (JSON lines)")
    sim.add_argument("--game", choices=SIMULATED_GAMES, default="contack", help="the game (default: contack)")
    sim.add_argument("--players", type=int, default=None, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 4); 1 for a solitaire")
    sim.add_argument("--agents", default="random", help="one agent for every seat, or one per seat, comma-separated (default: random)")
    sim.add_argument("--games", type=int, required=True, help="how many games")
    sim.add_argument("--seed", type=seed_arg, required=True, help="game i is played from seed S+i")
    sim.add_argument("--agent-seed", type=seed_arg, default=None, metavar="A",
                     help="the agents' random choices of game i come from seed A+i (default: S+i, with the deal)")
    sim.add_argument("--trace", action="store_true", help="add the list of legal moves to every place event")
    sim.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    sim.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (docs/rules.md section 5)")
    sim.add_argument("--out", required=True, help="where to write the records, one JSON object per line")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.arena import simulate_records
    from agents.registry import parse_agent_list

    from contack_env.records.contack import write_records

    try:
        players = get_game(args.game).check_players(args.players)
    except ValueError as err:
        parser.error(f"--players: {err}")
    if args.games < 1:
        parser.error(f"--games must be at least 1; got {args.games}")
    if args.hands < 1:
        parser.error(f"--hands must be at least 1; got {args.hands}")
    try:
        agent_names = parse_agent_list(args.agents, players, args.game)
    except ValueError as err:
        parser.error(f"--agents: {err}")
    output_arg(parser, "--out", args.out)

    from tqdm import tqdm

    records = []
    stream = simulate_records(args.game, players, agent_names, args.games, args.seed, args.hands, args.enclosed_end, args.trace,
                              args.agent_seed)
    for record in tqdm(stream, total=args.games, desc="simulate", unit="game", disable=None, file=sys.stderr):
        records.append(record)
    try:
        write_records(args.out, records)
    except OSError as err:
        print(f"contack simulate: cannot write {args.out}: {err}", file=sys.stderr)
        return 1
    print(summarize(records))
    print(f"wrote {plural(len(records), 'record')} to {args.out}")
    return 0


def summarize(records: Sequence[dict]) -> str:
    """A short table of what a batch of records shows: wins and mean scores per seat, or solitaire results."""
    first = records[0]
    n = len(records)
    lines = []
    if get_game(first["game"]).report == "scores":  # seats with scores; else a solitaire
        seats = first["players"]
        rules = first["rules"]
        lines.append(
            f"{plural(n, 'game')} of contack, {seats} players, {plural(rules['hands'], 'hand')}, "
            f"enclosed_end={rules['enclosed_end']}, {_seeds(records)}"
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
        lines.append(f"{plural(n, 'game')} of {first['game']}, agent {first['agents'][0]}, {_seeds(records)}")
        lines.append(f"won {won} ({won / n:.3f}), mean tiles placed {placed / n:.2f}, mean points {points / n:.2f}")
    return "\n".join(lines)


def _seeds(records: Sequence[dict]) -> str:
    first, last = records[0]["seed"], records[-1]["seed"]
    return f"seed {first}" if len(records) == 1 else f"seeds {first}..{last}"
