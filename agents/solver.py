"""An exact solver for a solitaire deal with every tile known: can the deal be won at all?

A player sees only part of a deal (Solitaire No. 1's pile is face down, Solitaire No. 2's stacks show their
tops); the solver sees all of it, so what it finds is a ceiling for any player: the share of deals that can be
won. It searches depth first over the placements, remembering the positions already shown lost (a position is
the figure, which tile went where and which was placed last, and how far the pile or each stack has gone: the
rest follows from the deal). A deal it cannot settle within the time limit is reported as unknown, never
guessed.

The deals are those of ``contack evaluate --game G --seed S``: deal ``i`` is dealt from stream 0 of
``agents.arena.seed_streams(S + i, ...)``, so the solver's share and the agents' win rates are over the same
deals.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from contack_env import GameState, Solitaire1, Solitaire2
from contack_env.cli_support import check_seed_range, seed_arg

from .arena import new_state, seed_streams

WON, LOST, UNKNOWN = "won", "lost", "unknown"
SOLITAIRES = ("solitaire1", "solitaire2")


class _OutOfTime(Exception):
    pass


@dataclass
class Solution:
    """The verdict on one deal: ``result`` (won, lost or unknown), a winning line (move codes) when won, the
    positions searched and the seconds spent."""

    deal: int
    result: str
    line: list[int] | None
    positions: int
    seconds: float


def _key(state: GameState) -> tuple:
    figure = state.figure
    placed = frozenset(figure.placed.items())
    if isinstance(state, Solitaire1):
        return placed, figure.last, state.pile_pos, tuple(state.discard)
    return placed, figure.last, tuple(len(s) for s in state.stacks)  # type: ignore[attr-defined]


def solve(state: GameState, time_limit: float) -> tuple[str, list[int] | None, int]:
    """Whether ``state`` (a solitaire, every tile known) can be won: ``(result, winning line or None,
    positions searched)``; ``unknown`` once ``time_limit`` seconds are spent."""
    if not isinstance(state, (Solitaire1, Solitaire2)):
        raise TypeError(f"the solver plays the solitaires, not {type(state).__name__}")
    deadline = time.perf_counter() + time_limit
    lost: set[tuple] = set()
    line: list[int] = []
    searched = 0

    def wins(s: GameState) -> bool:
        nonlocal searched
        if s.done:
            return bool(s.won)  # type: ignore[attr-defined]
        key = _key(s)
        if key in lost:
            return False
        searched += 1
        if searched % 512 == 0 and time.perf_counter() > deadline:
            raise _OutOfTime
        for code in s.legal_codes():
            child = s.clone()
            child.play_code(code)
            line.append(code)
            if wins(child):
                return True
            line.pop()
        lost.add(key)
        return False

    state = state.clone()
    state.log = False
    try:
        return (WON, list(line), searched) if wins(state) else (LOST, None, searched)
    except _OutOfTime:
        return UNKNOWN, None, searched


def deal(game: str, seed: int, index: int) -> GameState:
    """Deal ``index`` of ``contack evaluate --game game --seed seed``."""
    if game not in SOLITAIRES:
        raise ValueError(f"the solver plays {', '.join(SOLITAIRES)}; got {game!r}")
    return new_state(game, 1, seed_streams(seed + index, 2)[0], log=False)


def solve_deals(game: str, games: int, seed: int, time_limit: float) -> list[Solution]:
    """Every deal ``0 .. games - 1`` of ``seed``, each within ``time_limit`` seconds."""
    out = []
    for i in range(games):
        start = time.perf_counter()
        result, line, searched = solve(deal(game, seed, i), time_limit)
        out.append(Solution(i, result, line, searched, time.perf_counter() - start))
    return out


# -- contack solve ---------------------------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``contack solve``'s options."""
    parser.add_argument("--game", choices=SOLITAIRES, required=True, help="the solitaire")
    parser.add_argument("--games", type=int, required=True, metavar="K", help="deals 0 .. K-1")
    parser.add_argument("--seed", type=seed_arg, required=True, metavar="S", help="the deals of `contack evaluate --seed S`")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                        help="per deal; a deal not settled in time is unknown (default 10)")


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .evaluate import wilson

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
