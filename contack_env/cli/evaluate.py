"""``contack evaluate``: agents against each other over whole games, duplicate format (docs/baselines.md)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import asdict
from typing import Any, Callable

from contack_env.contack.multiplayer import MAX_PLAYERS, MIN_PLAYERS
from contack_env.atomic import written_in_place
from contack_env.cli.rule_options import add_rule_options, rule_options
from contack_env.cli_support import INTERRUPTED, OUTPUT_ERRORS, check_seed_range, not_an_input, output_arg, seed_arg
from contack_env.cli_support import output_file_arg, whole_number_arg
from contack_env.games import GAMES, get_game
from contack_env.wording import plural


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.registry import spec_help

    ev = sub.add_parser(
        "evaluate",
        help="evaluate agents against each other over whole games, duplicate format (every deal in every seat rotation)",
    )
    ev.add_argument(
        "--game", choices=tuple(GAMES), default="contack",
        help="contack (default), a solitaire (each agent alone on the same deals), contactix (heads-up, colours swapped every deal), or another game of the registry (docs/architecture.md)",
    )
    ev.add_argument("--players", type=whole_number_arg, default=None, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default: one per agent); 1 for a solitaire")
    ev.add_argument("--agents", required=True, help=f"one agent per seat, comma-separated: {spec_help()}")
    ev.add_argument("--games", type=whole_number_arg, required=True, help="games in all: K/N deals, each played in all N seat rotations (K a multiple of N); solitaires: K deals per agent")
    ev.add_argument("--seed", type=seed_arg, required=True, help="deal d is played from seed S+d, so two evaluations of D deals share none when their seeds are D or more apart")
    ev.add_argument(
        "--agent-seed", type=seed_arg, default=None, metavar="A",
        help="the agents' random choices of deal d come from seed A+d instead of S+d: the same deals, other luck for the "
        "agents (default: S); several agent seeds show how much of a result is the agents' luck",
    )
    add_rule_options(ev)
    ev.add_argument("--workers", type=whole_number_arg, default=None,
                    help="worker processes (default 1); with --ray, games at once (default: the cluster's CPUs); the results do not depend on it")
    ev.add_argument("--ray", action="store_true",
                    help="play the games on a Ray cluster: RAY_ADDRESS's, else a local one (the [rllib] extra); the same results as --workers")
    ev.add_argument("--json", metavar="FILE", type=output_file_arg, help="write the statistics as JSON")
    ev.add_argument("--records", metavar="FILE", type=output_file_arg, help="write every game's record (JSON lines)")
    ev.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="progress on standard error: a bar on a terminal, elsewhere a plain line every 30 s (auto); "
                    "on: also a line at the start and at the end off a terminal; off: none")


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from agents.evaluate import check_request, evaluate, format_table, records_of, write_json
    from agents.registry import check_spec, spec_files
    from agents.worker_pool import WorkerLost

    game = get_game(args.game)
    options = rule_options(parser, args, game)
    try:
        # With the rule options, so that a policy trained for another board is an --agents error.
        agents = [check_spec(a, args.game, options) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    players = args.players
    seats_vary = game.min_players < game.max_players
    if not seats_vary and players is not None:
        try:
            game.check_players(players)
        except ValueError as err:
            parser.error(f"--players: {err}")
    if players is None:
        players = len(agents) if seats_vary else game.min_players
    if seats_vary and not game.min_players <= players <= game.max_players:
        if args.players is None:  # counted from --agents, one seat each: say so, not an option never typed
            parser.error(f"--agents names {plural(len(agents), 'agent')}, one a seat, and {game.title} is played by "
                         f"{game.min_players} to {game.max_players} players: name {game.min_players} to "
                         f"{game.max_players} agents, or one and --players N to seat it N times")
        parser.error(f"--players: {game.title} is played by {game.min_players} to {game.max_players} players; got {players}")
    if game.report != "solitaire" and len(agents) == 1:  # one agent for every seat
        agents = agents * players
    deals = args.games if game.report == "solitaire" else args.games // players  # deal d from S+d (and A+d)
    check_seed_range(parser, "--seed", args.seed, deals, "deals")
    check_seed_range(parser, "--agent-seed", args.agent_seed, deals, "deals")
    try:
        check_request(args.game, players, agents, args.games, args.workers, options, ray=args.ray)
    except ValueError as err:
        # the option's name where the setting is one (check_request speaks of its own arguments)
        parser.error(re.sub(r"^(workers|games)\b", r"--\1", str(err)))
    models = [path for spec in agents for path in spec_files(spec)]
    not_an_input(parser, "--json", args.json, models)
    not_an_input(parser, "--records", args.records, models)
    output_arg(parser, "--json", args.json, (".json",), json=True)
    output_arg(parser, "--records", args.records, json=True)
    if (args.json and args.records and os.path.realpath(args.json) == os.path.realpath(args.records)
            and not written_in_place(args.json)):  # a stream (/dev/stdout) takes one after the other
        parser.error(f"--json and --records name the same file ({args.records}); the records would replace the statistics")
    if args.ray:
        from agents.ray_tasks import RayUnavailable, require_ray

        try:
            require_ray()
        except RayUnavailable as err:
            print(f"contack evaluate: {err}", file=sys.stderr)
            return 2
    try:
        ev = evaluate(
            agents, args.games, args.seed, game=args.game, players=players, workers=args.workers,
            records=args.records is not None, progress=args.progress, ray=args.ray, agent_seed=args.agent_seed,
            **asdict(options),  # every rule option: those of other games at their defaults
        )
    except WorkerLost as err:
        print(f"contack evaluate: {err}; {INTERRUPTED['evaluate']}", file=sys.stderr)
        return 1
    print(format_table(ev))
    # Each output on its own: one that cannot be written (a full disk) must not cost the other the games
    written = [_write(args.json, lambda: write_json(args.json, ev), f"wrote {args.json}") if args.json else True]
    if args.records:
        from contack_env.records import write_records

        written.append(_write(args.records, lambda: write_records(args.records, records_of(ev.results)),
                              lambda count: f"wrote {plural(count, 'record')} to {args.records}"))
    return 0 if all(written) else 1


def _write(path: str, write: Callable[[], Any], said: str | Callable[[Any], str]) -> bool:
    """``write()``, then ``said`` (or ``said(what write returned)``) on standard output; False after saying on
    standard error why ``path`` could not be written."""
    try:
        result = write()
    except OUTPUT_ERRORS:  # the output's own failure (a reader gone away): contack_env.cli.main says so
        raise
    except OSError as err:
        print(f"contack evaluate: cannot write {path}: {err.strerror or err}", file=sys.stderr)
        return False
    print(said(result) if callable(said) else said)
    return True
