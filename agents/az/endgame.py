"""Exact play at the end of a one-player game whose chance can be listed (Solitaire No. 2): an endgame table
computed on the spot, as chess engines consult tablebases.

Near the end of Solitaire No. 2 few tiles are left and few of them are face down, so the whole rest of the game
can be searched: an expectimax over the player's moves and, after a move that uncovers a buried tile, over the
tiles that can come up, each equally likely (``contack_env.protocol.EnumerableChance.outcomes``). A position's
value is its exact chance of winning under best play, as the player knows it: the search branches on what could
be uncovered and never reads the order the face-down tiles happen to have. Positions reached by different move
orders are searched once (``position_key``), and a move whose outcomes can no longer beat the best move found so
far is cut off (values lie in [0, 1]), so the best move's value stays exact.

``exact_decision`` tries only games with at most ``ENDGAME_MOVES`` moves left and ``ENDGAME_FACE_DOWN`` tiles
face down, and gives up (``None``) past a budget of new positions, leaving the decision to the search. It also
leaves to the search a position lost under any play, where the search's values (the share of the tiles placed)
still tell the moves apart. The values it settles go into an ``EndgameTable`` that the agent keeps from one
decision to the next, as engines keep their transposition tables: a position's key says everything that matters
of it, so a value holds in any deal, and the decision after one given up on starts from what that search
completed. The search-guided agent consults it before each search (``agents.az.search.Search``'s ``endgame``).
"""

from __future__ import annotations

from dataclasses import dataclass

from contack_env.games import get_game
from contack_env.protocol import EnumerableChance, State

ENDGAME_MOVES = 12
"""The most moves left for which an exact search is tried."""
ENDGAME_FACE_DOWN = 4
"""The most tiles face down for which an exact search is tried: with more, a search of a few thousand positions
rarely settles the decision (measured in ``docs/training.md``, *Exact endgames*)."""
ENDGAME_POSITIONS = 3000
"""The default budget of new positions per decision (about 0.1 s of search on one core at most)."""
TABLE_SIZE = 200_000
"""The most values an ``EndgameTable`` keeps before it starts afresh (a few hundred bytes each)."""


class EndgameTable:
    """Exact values of positions (by ``position_key``), kept across decisions and deals."""

    def __init__(self, size: int = TABLE_SIZE) -> None:
        self.size = size
        self.values: dict[tuple, float] = {}

    def make_room(self) -> None:
        """Start afresh once full (a search adds at most its budget)."""
        if len(self.values) >= self.size:
            self.values.clear()


@dataclass
class ExactDecision:
    """The best move found by the exact search and its chance of winning."""

    code: int
    value: float
    positions: int
    """New positions searched (each evaluated once; those already in the table are not counted)."""


class _OutOfBudget(Exception):
    pass


def has_exact_endgame(game: str) -> bool:
    """Whether the exact search can ever play in ``game`` (a name of ``contack_env.games.GAMES``): one seat, and
    chance it can list (``EnumerableChance``), as a freshly dealt state of the game shows."""
    state = get_game(game).new_state(0, log=False)
    return state.num_players == 1 and isinstance(state, EnumerableChance)


def can_solve(state: State) -> bool:
    """Whether ``state`` is a position the exact search tries: one seat, chance it can list, few moves left and
    few tiles face down."""
    return (state.num_players == 1 and isinstance(state, EnumerableChance)
            and state.moves_left() <= ENDGAME_MOVES and state.face_down() <= ENDGAME_FACE_DOWN)


def exact_decision(view: State, max_positions: int = ENDGAME_POSITIONS,
                   table: EndgameTable | None = None) -> ExactDecision | None:
    """The move with the highest chance of winning from ``view`` (a public view at a decision), the first in
    code order among equals; None when the search does not apply (``can_solve``), runs past ``max_positions``
    new positions (those not in ``table``), or finds the game lost under any play."""
    if max_positions <= 0 or view.done or not can_solve(view):
        return None
    if table is None:
        table = EndgameTable()
    table.make_room()
    solver = _Expectimax(max_positions, table.values)
    try:
        code, value = solver.best(view)
    except _OutOfBudget:
        return None
    if value <= 0.0:
        return None
    return ExactDecision(code, value, solver.positions)


class _Expectimax:
    def __init__(self, max_positions: int, memo: dict[tuple, float]) -> None:
        self.max_positions = max_positions
        self.positions = 0
        self.memo = memo

    def value(self, state: State) -> float:
        if state.done:
            return 1.0 if state.winners else 0.0
        key = state.position_key()  # type: ignore[attr-defined]
        known = self.memo.get(key)
        if known is not None:
            return known
        self.positions += 1
        if self.positions > self.max_positions:
            raise _OutOfBudget
        value = self.best(state)[1]
        self.memo[key] = value
        return value

    def best(self, state: State) -> tuple[int, float]:
        best_code, best = -1, -1.0
        for code in state.legal_codes():
            value = self.move_value(state, code, best)
            if value > best:
                best_code, best = code, value
                if best >= 1.0:
                    break
        return best_code, best

    def move_value(self, state: State, code: int, bar: float) -> float:
        """The chance of winning after ``code``; any value at most ``bar`` once the move cannot beat it."""
        outcomes = state.outcomes(code)  # type: ignore[attr-defined]
        n = len(outcomes)
        total = 0.0
        for i, after in enumerate(outcomes):
            total += self.value(after)
            if total + (n - 1 - i) <= bar * n:  # even winning every outcome left would not beat the bar
                return -1.0
        return total / n
