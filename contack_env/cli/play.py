"""``contack play``: a person plays Contack or CON-TAC-TIX against bots at the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from contack_env.cli.rule_options import add_rule_options, rule_options
from contack_env.cli_support import seed_arg, whole_number_arg
from contack_env.contack.multiplayer import MAX_PLAYERS, MIN_PLAYERS
from contack_env.games import RuleOptions, get_game


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.registry import spec_help

    pl = sub.add_parser("play", help="play Contack (or CON-TAC-TIX) against bots at the terminal")
    pl.add_argument("--game", choices=("contack", "contactix"), default="contack", help="contack (default) or contactix")
    pl.add_argument("--players", type=whole_number_arg, default=2, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 2)")
    pl.add_argument(
        "--agents", default=None,
        help=f"the bots: one for every bot seat, or one per bot seat in seat order ({spec_help()}; default lookahead); "
        "contactix: one bot (random, two_distance, mcts[:N], ppo:PATH, az:PATH[:SIMS]; default two_distance)",
    )
    pl.add_argument("--seat", type=whole_number_arg, default=0, help="your seat (default 0); contactix: 0 black (moves first), 1 white")
    pl.add_argument("--seed", type=seed_arg, default=None, help="the game's seed (default: a fresh one, printed)")
    add_rule_options(pl)


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from contack_env.cli.terminal import play_terminal
    from agents.registry import check_spec

    options = rule_options(parser, args, get_game(args.game))
    if args.game == "contactix":
        return _run_contactix(parser, args, options)
    if args.agents is None:
        args.agents = "lookahead"
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {args.players}")
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat: the seats are 0..{args.players - 1}; got {args.seat}")
    try:
        agents = [check_spec(a) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    if len(agents) not in (1, args.players - 1):
        parser.error(f"--agents: one bot for every bot seat, or one per bot seat ({args.players - 1}); got {len(agents)}")
    return _reported(lambda: play_terminal(args.players, agents, args.seat, args.seed, options.hands,
                                           options.enclosed_end))


def _reported(play: Callable[[], int]) -> int:
    """``play()``'s exit status; a bot that failed (an agent of the user's own) ends the game with one line."""
    from contack_env.cli.terminal import BotFailed

    try:
        return play()
    except BotFailed as err:
        print(f"contack play: {err}", file=sys.stderr)
        return 1


def _run_contactix(parser: argparse.ArgumentParser, args: argparse.Namespace, options: RuleOptions) -> int:
    from contack_env.cli.terminal import play_contactix_terminal
    from agents.registry import check_spec

    if args.players != 2:
        parser.error(f"--players: CON-TAC-TIX is played by 2 players; got {args.players}")
    if args.seat not in (0, 1):
        parser.error(f"--seat: 0 (black, moves first) or 1 (white); got {args.seat}")
    agent = "two_distance" if args.agents is None else args.agents
    if "," in agent:
        parser.error(f"--agents: CON-TAC-TIX is heads-up, so it takes one bot (the other seat is yours); got "
                     f"{len(agent.split(','))}: {agent}")
    try:
        agent = check_spec(agent, "contactix", options)
    except ValueError as err:
        parser.error(f"--agents: {err}")
    return _reported(lambda: play_contactix_terminal(options.board_size, agent, args.seat, args.seed, options.swap))
