"""The ``contack`` command line.

    contack simulate --game {contack,solitaire1,solitaire2} [--players N] [--agents random,greedy,...]
                     --games K --seed S [--trace] [--hands N] [--enclosed-end {1939,next_player,never}]
                     --out FILE.jsonl
    contack replay --check [--through-env] FILE...
    contack evaluate --players N --agents A,B,... --games K --seed S [--workers W] [--json FILE] [--records FILE]
                     [--game {contack,solitaire1,solitaire2}] [--hands N] [--enclosed-end ...]
    contack render FILE [--index I] --out OUT.gif|OUT.png [--every N] [--fps F]
    contack demo [--games K] [--seed S] [--workers W] [--models DIR] [--out DIR]
    contack train [--config FILE] [--out DIR] [--resume] [--FIELD VALUE ...]
    contack solve --game {solitaire1,solitaire2} --games K --seed S [--time-limit SECONDS]
    contack play [--players N] [--agents ...] [--seat S] [--seed S]
    contack evaluate --game contactix --agents A,B --games K --seed S [--board-size N] [--swap] [...]
    contack play --game contactix [--board-size N] [--swap] [--agents BOT] [--seat 0|1] [--seed S]
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
    _add_train(sub)
    _add_demo(sub)
    _add_render(sub)
    from agents.solver import add_arguments as add_solve_arguments

    add_solve_arguments(sub.add_parser("solve", help="can solitaire deals be won at all, every tile known (an exact solver)"))
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
    if args.command == "render":
        return _render(parser, args)
    if args.command == "demo":
        from training.demo import run_from_args as run_demo

        return run_demo(parser, args)
    if args.command == "train":
        from training.train import run_from_args

        return run_from_args(parser, args)
    if args.command == "play":
        return _play(parser, args)
    if args.command == "solve":
        from agents.solver import run_from_args as run_solve

        return run_solve(parser, args)
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
        agent_names = parse_agent_list(args.agents, players, args.game)
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
    ev.add_argument(
        "--game", choices=GAMES + ("contactix",), default="contack",
        help="contack (default), a solitaire (each agent alone on the same deals), or contactix (heads-up, colours swapped every deal)",
    )
    ev.add_argument("--board-size", type=int, default=None, help="contactix: the board is N x N holes, 3-19 (default 11)")
    ev.add_argument("--swap", action="store_true", help="contactix: play with the swap (pie) rule (off by default, as in 1942)")
    ev.add_argument("--players", type=int, default=None, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default: one per agent); 1 for a solitaire")
    ev.add_argument("--agents", required=True, help=f"one agent per seat, comma-separated: {SPEC_HELP}")
    ev.add_argument("--games", type=int, required=True, help="games in all: K/N deals, each played in all N seat rotations (K a multiple of N); solitaires: K deals per agent")
    ev.add_argument("--seed", type=int, required=True, help="deal d is played from seed S+d")
    ev.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    ev.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (RULES.md 5)")
    ev.add_argument("--workers", type=int, default=1, help="worker processes (default 1); the results do not depend on it")
    ev.add_argument("--json", metavar="FILE", help="write the statistics as JSON")
    ev.add_argument("--records", metavar="FILE", help="write every game's record (JSON lines)")

    pl = sub.add_parser("play", help="play Contack (or CON-TAC-TIX) against bots at the terminal")
    pl.add_argument("--game", choices=("contack", "contactix"), default="contack", help="contack (default) or contactix")
    pl.add_argument("--players", type=int, default=2, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 2)")
    pl.add_argument(
        "--agents", default=None,
        help=f"the bots: one for every bot seat, or one per bot seat in seat order ({SPEC_HELP}; default lookahead); "
        "contactix: one bot (random, two_distance, mcts[:N], ppo:PATH; default two_distance)",
    )
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0); contactix: 0 black (moves first), 1 white")
    pl.add_argument("--board-size", type=int, default=None, help="contactix: the board is N x N holes, 3-19 (default 11)")
    pl.add_argument("--swap", action="store_true", help="contactix: play with the swap (pie) rule")
    pl.add_argument("--seed", type=int, default=None, help="the game's seed (default: a fresh one, printed)")
    pl.add_argument("--hands", type=int, default=3, help="hands per game (default 3)")
    pl.add_argument("--enclosed-end", choices=ENCLOSED_END_OPTIONS, default="1939", help="when an enclosed figure ends a hand (RULES.md 5)")


def _evaluate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.evaluate import check_request, evaluate, format_table, records_of, write_json
    from agents.registry import check_spec

    contactix = args.game == "contactix"
    if not contactix and (args.board_size is not None or args.swap):
        parser.error("--board-size and --swap are options of --game contactix")
    board_size = 11 if args.board_size is None else args.board_size
    if contactix:
        from .contactix import check_size

        try:
            check_size(board_size)
        except ValueError as err:
            parser.error(f"--board-size: {err}")
    try:
        agents = [check_spec(a, args.game) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    players = args.players
    if players is None:
        players = 2 if contactix else len(agents) if args.game == "contack" else 1
    if contactix and len(agents) == 1:
        agents = agents * 2
    if args.game == "contack" and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players}")
    if args.game == "contack" and len(agents) == 1:
        agents = agents * players
    try:
        check_request(args.game, players, agents, args.games, args.hands, args.workers, board_size, args.swap)
    except ValueError as err:
        parser.error(str(err))
    extra = {"board_size": board_size, "swap": args.swap} if contactix else {}
    ev = evaluate(
        agents, args.games, args.seed, game=args.game, players=players, hands=args.hands, enclosed_end=args.enclosed_end,
        workers=args.workers, records=args.records is not None, progress=None, **extra,
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

    if args.game == "contactix":
        return _play_contactix(parser, args)
    if args.board_size is not None or args.swap:
        parser.error("--board-size and --swap are options of --game contactix")
    if args.agents is None:
        args.agents = "lookahead"
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


def _play_contactix(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.play import play_contactix_terminal
    from agents.registry import check_spec

    from .contactix import check_size

    if args.players != 2:
        parser.error(f"--players: contactix is played by 2 players; got {args.players}")
    if args.seat not in (0, 1):
        parser.error(f"--seat: 0 (black, moves first) or 1 (white); got {args.seat}")
    board_size = 11 if args.board_size is None else args.board_size
    try:
        check_size(board_size)
    except ValueError as err:
        parser.error(f"--board-size: {err}")
    agent = "two_distance" if args.agents is None else args.agents
    try:
        agent = check_spec(agent, "contactix", board_size=board_size, swap=args.swap)
    except ValueError as err:
        parser.error(f"--agents: {err}")
    return play_contactix_terminal(board_size, agent, args.seat, args.seed, args.swap)


def _add_render(sub: argparse._SubParsersAction) -> None:
    rn = sub.add_parser("render", help="draw a game record as an animated GIF (one frame per move) or a PNG strip")
    rn.add_argument("file", metavar="FILE", help="records: a JSON object, a JSON array or JSON lines")
    rn.add_argument("--index", type=int, default=0, help="which record of the file, from 0 (default 0)")
    rn.add_argument("--out", required=True, help="OUT.gif (animation) or OUT.png (a grid of every --every-th frame)")
    rn.add_argument("--every", type=int, default=5, help="PNG strip: one frame in N (default 5)")
    rn.add_argument("--fps", type=float, default=2.0, help="GIF: frames a second (default 2)")


def _render(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .records import RecordError, read_records, replay
    from .render import save_gif, save_strip

    try:
        records = read_records(args.file)
    except (OSError, RecordError) as err:
        print(f"contack render: {err}", file=sys.stderr)
        return 1
    if not 0 <= args.index < len(records):
        parser.error(f"--index: {args.file} holds {len(records)} record(s), 0..{len(records) - 1}; got {args.index}")
    record = records[args.index]
    try:
        replay(record)  # a record that does not replay cannot be drawn: say why first
        if args.out.lower().endswith(".gif"):
            save_gif(record, args.out, fps=args.fps)
        elif args.out.lower().endswith(".png"):
            save_strip(record, args.out, every=args.every)
        else:
            parser.error(f"--out must end in .gif or .png; got {args.out!r}")
    except RecordError as err:
        print(f"contack render: {args.file} record {args.index}: {err}", file=sys.stderr)
        return 1
    except ValueError as err:
        parser.error(str(err))
    print(f"wrote {args.out}")
    return 0


def _add_demo(sub: argparse._SubParsersAction) -> None:
    from training.demo import add_arguments

    add_arguments(sub.add_parser("demo", help="the shipped trained agents against the bots: tables, a plot, a finished game"))


def _add_train(sub: argparse._SubParsersAction) -> None:
    from training.train import add_arguments

    tr = sub.add_parser(
        "train",
        help="train a policy with MaskablePPO (self-play against a pool of bots; every setting of training.config) "
        "or, with --algorithm az, a search-guided network (training.az.config)",
    )
    add_arguments(tr)


if __name__ == "__main__":
    sys.exit(main())
