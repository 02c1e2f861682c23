"""``contack play``: a person plays Contack or CON-TAC-TIX against bots at the terminal."""

from __future__ import annotations

import argparse

from contack_env.cli_support import add_board_options, add_hand_options, board_options, hand_options, seed_arg
from contack_env.contack.multiplayer import MAX_PLAYERS, MIN_PLAYERS
from contack_env.games import RuleOptions


def add_parser(sub: argparse._SubParsersAction) -> None:
    from agents.registry import spec_help

    pl = sub.add_parser("play", help="play Contack (or CON-TAC-TIX) against bots at the terminal")
    pl.add_argument("--game", choices=("contack", "contactix"), default="contack", help="contack (default) or contactix")
    pl.add_argument("--players", type=int, default=2, help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (default 2)")
    pl.add_argument(
        "--agents", default=None,
        help=f"the bots: one for every bot seat, or one per bot seat in seat order ({spec_help()}; default lookahead); "
        "contactix: one bot (random, two_distance, mcts[:N], ppo:PATH, az:PATH[:SIMS]; default two_distance)",
    )
    pl.add_argument("--seat", type=int, default=0, help="your seat (default 0); contactix: 0 black (moves first), 1 white")
    add_board_options(pl)
    pl.add_argument("--seed", type=seed_arg, default=None, help="the game's seed (default: a fresh one, printed)")
    add_hand_options(pl)


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from contack_env.cli.terminal import play_terminal
    from agents.registry import check_spec

    if args.game == "contactix":
        return _run_contactix(parser, args)
    board_options(parser, args, has_board=False)
    if args.agents is None:
        args.agents = "lookahead"
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players: Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {args.players}")
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat: the seats are 0..{args.players - 1}; got {args.seat}")
    hands, enclosed_end = hand_options(parser, args, has_hands=True)
    try:
        agents = [check_spec(a) for a in args.agents.split(",")]
    except ValueError as err:
        parser.error(f"--agents: {err}")
    if len(agents) not in (1, args.players - 1):
        parser.error(f"--agents: one bot for every bot seat, or one per bot seat ({args.players - 1}); got {len(agents)}")
    return play_terminal(args.players, agents, args.seat, args.seed, hands, enclosed_end)


def _run_contactix(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from contack_env.cli.terminal import play_contactix_terminal
    from agents.registry import check_spec

    if args.players != 2:
        parser.error(f"--players: contactix is played by 2 players; got {args.players}")
    hand_options(parser, args, has_hands=False)
    if args.seat not in (0, 1):
        parser.error(f"--seat: 0 (black, moves first) or 1 (white); got {args.seat}")
    board_size, swap = board_options(parser, args, has_board=True)
    agent = "two_distance" if args.agents is None else args.agents
    try:
        agent = check_spec(agent, "contactix", RuleOptions(board_size=board_size, swap=swap))
    except ValueError as err:
        parser.error(f"--agents: {err}")
    return play_contactix_terminal(board_size, agent, args.seat, args.seed, swap)
