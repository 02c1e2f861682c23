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

import time
from dataclasses import dataclass
from typing import Any, Sequence

from contack_env import GameState, Solitaire1, Solitaire2

from .arena import new_state, seed_streams

WON, LOST, UNKNOWN = "won", "lost", "unknown"
SOLITAIRES = ("solitaire1", "solitaire2")
VERDICTS = {WON: "winnable", LOST: "not_winnable", UNKNOWN: "unknown"}
"""A result as ``contack solve --json`` names it (and counts it)."""


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


@dataclass(frozen=True)
class Verdicts:
    """The verdicts on a set of deals, as ``contack solve`` reports them."""

    winnable: int
    not_winnable: int
    unknown: int

    @property
    def deals(self) -> int:
        return self.winnable + self.not_winnable + self.unknown

    @property
    def settled(self) -> int:
        return self.winnable + self.not_winnable

    @property
    def share(self) -> float | None:
        """The share winnable of the deals settled (None when none is)."""
        return self.winnable / self.settled if self.settled else None

    @property
    def share_ci95(self) -> tuple[float, float] | None:
        """The share's 95% Wilson interval, n = the deals settled (None when none is)."""
        from .evaluate import wilson

        return wilson(self.winnable / self.settled, self.settled) if self.settled else None

    @property
    def share_of_all(self) -> tuple[float, float]:
        """The share winnable of every deal: at least (no unknown deal winnable), at most (every one)."""
        return self.winnable / self.deals, (self.winnable + self.unknown) / self.deals


def count_verdicts(solutions: Sequence[Solution]) -> Verdicts:
    """How many of ``solutions`` are winnable, not winnable and unknown."""
    count = {r: sum(s.result == r for s in solutions) for r in (WON, LOST, UNKNOWN)}
    return Verdicts(count[WON], count[LOST], count[UNKNOWN])


def solutions_json(game: str, games: int, seed: int, time_limit: float,
                   solutions: Sequence[Solution]) -> dict[str, Any]:
    """What ``contack solve --json`` writes: the request, the counts, the share winnable with its interval, and
    each deal's seed, result and positions searched. No times: two runs give the same bytes unless a deal settles
    so close to the time limit that it is unknown in one of them. An unknown deal's positions are null (how far
    the search got depends on the machine's speed); a settled deal's are the same on every machine."""
    t = count_verdicts(solutions)
    ci = t.share_ci95
    return {
        "game": game,
        "games": games,
        "seed": seed,
        "time_limit": time_limit,
        "winnable": t.winnable,
        "not_winnable": t.not_winnable,
        "unknown": t.unknown,
        "settled": t.settled,
        "share_winnable": t.share,
        "share_winnable_ci95": None if ci is None else list(ci),
        "interval": "Wilson score interval, n = deals settled",
        "share_winnable_of_all": list(t.share_of_all),
        "deals": [{"deal": s.deal, "seed": seed + s.deal, "result": VERDICTS[s.result],
                   "positions": None if s.result == UNKNOWN else s.positions} for s in solutions],
    }
