"""Bots for CON-TAC-TIX (``contack_env.contactix.rules``).

**The interface.** A CON-TAC-TIX agent is an ``agents.base.Agent`` whose ``act(state, legal)`` receives

- ``state``: a ``ContactixState``, a copy of the game (the game has no hidden information, so there is no
  public view to make; changing the copy changes nothing), and
- ``legal``: ``state.legal_moves()``, the legal moves as ints, hole ``(r, c)`` being ``r * N + c`` (ascending;
  never empty). With the swap rule, at White's first move, one of them is the hole of Black's first peg: the
  swap (``state.is_swap(move)``),

and returns one of ``legal``; ``reset()`` is called before each game. These are the actions of
``contactix_v0`` too, so an agent can play in the environment through ``env.unwrapped.game``. The bots:

- ``random`` (``agents.random_agent.RandomAgent``, as in every game): uniform over the legal moves.
- ``two_distance`` (``TwoDistanceAgent``): a one-move search over the *two-distance* evaluation of Hex programs
  (Anshelevich's Queenbee). A player's two-distance of an empty hole to one of its sides is 1 for a hole on
  that side (or touching a group of its pegs that reaches the side), else 1 + the *second* smallest two-distance
  among its neighbours: the opponent can always block the best one, so only the second best counts. Empty
  holes linked through a group of the player's pegs count as neighbours, the opponent's pegs as walls. A
  player's *potential* is the least sum of its two-distances to both sides over the empty holes (how many more
  pegs its chain needs, roughly, against resistance), and its *mobility* the number of holes that reach it.
  The bot plays a winning move at once, blocks the opponent's only winning move, and otherwise tries the
  ``CANDIDATES`` holes that lie best on both players' shortest routes (least sum of all four two-distances;
  the swap too, when it is legal) and picks the one that leaves
  ``POTENTIAL_WEIGHT * (opponent's potential - own potential) + own mobility - opponent's mobility`` highest.
  Ties are broken at random with the bot's own generator.

``mcts[:N]`` (``agents.mcts.MCTSAgent``) plays CON-TAC-TIX too: see that module.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contactix.rules import EMPTY, ContactixState, neighbour_table, side_cells

from .base import Agent

CANDIDATES = 12
POTENTIAL_WEIGHT = 1000
_FAR = 10_000  # a two-distance that no route reaches (kept finite so that sums and differences stay ordered)

__all__ = ["CANDIDATES", "ContactixAgent", "TwoDistanceAgent", "potential", "two_distances"]


class ContactixAgent(Agent[ContactixState, int]):
    """Base of the CON-TAC-TIX bots: ``act(state: ContactixState, legal: list of ints) -> int`` (module docstring)."""

    @abstractmethod
    def act(self, state: ContactixState, legal: Sequence[int]) -> int:
        """The move to make: a hole index of ``legal``."""


# -- two-distance --------------------------------------------------------------------------------------------
def _links(board: Sequence[int], size: int, colour: int) -> tuple[list[int], dict[int, set[int]], dict[int, int]]:
    """The graph two-distances walk for ``colour``: the empty holes; for each, the empty holes it touches
    directly or through a group of ``colour``'s pegs; and which of ``colour``'s sides (bit 1: first, bit 2:
    second) it touches, directly or through such a group."""
    nb = neighbour_table(size)
    peg = colour + 1
    first, second = side_cells(size)[colour]
    on_side = [0] * len(board)
    for c in first:
        on_side[c] |= 1
    for c in second:
        on_side[c] |= 2
    group = [-1] * len(board)
    group_empty: list[set[int]] = []
    group_side: list[int] = []
    for start, value in enumerate(board):
        if value != peg or group[start] >= 0:
            continue
        g = len(group_empty)
        group[start] = g
        stack = [start]
        empties: set[int] = set()
        sides = 0
        while stack:
            c = stack.pop()
            sides |= on_side[c]
            for o in nb[c]:
                v = board[o]
                if v == EMPTY:
                    empties.add(o)
                elif v == peg and group[o] < 0:
                    group[o] = g
                    stack.append(o)
        group_empty.append(empties)
        group_side.append(sides)
    empty = [c for c, v in enumerate(board) if v == EMPTY]
    links: dict[int, set[int]] = {}
    sides_of: dict[int, int] = {}
    for c in empty:
        linked = set()
        sides = on_side[c]
        for o in nb[c]:
            v = board[o]
            if v == EMPTY:
                linked.add(o)
            elif v == peg:
                g = group[o]
                linked |= group_empty[g]
                sides |= group_side[g]
        linked.discard(c)
        links[c] = linked
        sides_of[c] = sides
    return empty, links, sides_of


def _distances(empty: list[int], links: dict[int, set[int]], sides_of: dict[int, int], bit: int, cells: int) -> list[int]:
    dist = [_FAR] * cells
    count = [0] * cells
    level = [c for c in empty if sides_of[c] & bit]
    for c in level:
        dist[c] = 1
    d = 1
    while level:
        d += 1
        following = []
        # Levels are settled in increasing distance, so the second settled neighbour of a hole is its second
        # nearest one: the hole's two-distance is then d.
        for c in level:
            for o in links[c]:
                if dist[o] == _FAR:
                    count[o] += 1
                    if count[o] == 2:
                        dist[o] = d
                        following.append(o)
        level = following
    return dist


def two_distances(board: Sequence[int], size: int, colour: int) -> tuple[list[int], list[int], dict[int, int]]:
    """``colour``'s two-distances of every hole to its first and to its second side (``_FAR`` where no route
    reaches, and for occupied holes), and which sides each empty hole touches (module docstring)."""
    empty, links, sides_of = _links(board, size, colour)
    cells = len(board)
    return (
        _distances(empty, links, sides_of, 1, cells),
        _distances(empty, links, sides_of, 2, cells),
        sides_of,
    )


def potential(board: Sequence[int], size: int, colour: int) -> tuple[int, int]:
    """``colour``'s potential (the least sum of two-distances to both sides over the empty holes) and mobility
    (how many holes reach it). ``(0, 0)`` if ``colour`` already has its chain."""
    d1, d2, _ = two_distances(board, size, colour)
    best, count = 2 * _FAR, 0
    for a, b in zip(d1, d2):
        s = a + b
        if s < best:
            best, count = s, 1
        elif s == best:
            count += 1
    return best, count


class TwoDistanceAgent(ContactixAgent):
    """``two_distance``: one-move search over the two-distance evaluation (module docstring)."""

    name = "two_distance"

    def __init__(self, seed: int | np.random.Generator | np.random.SeedSequence | None = None, candidates: int = CANDIDATES) -> None:
        if not is_whole_number(candidates) or candidates < 1:
            raise ValueError(f"candidates is a whole number, at least 1; got {candidates!r}")
        self.rng = np.random.default_rng(seed)
        self.candidates = candidates

    def act(self, state: ContactixState, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        n = state.size
        board = state.board
        me = state.current_player
        foe = 1 - me
        my1, my2, my_sides = two_distances(board, n, me)
        foe1, foe2, foe_sides = two_distances(board, n, foe)
        empty = [m for m in legal if board[m] == EMPTY]
        wins = [m for m in empty if my_sides[m] == 3]
        if wins:
            return self._pick(wins)
        threats = [m for m in empty if foe_sides[m] == 3]
        if len(threats) == 1:
            return threats[0]
        # The holes on both players' best routes: least sum of the four two-distances.
        ranked = sorted(empty, key=lambda m: my1[m] + my2[m] + foe1[m] + foe2[m])
        cut = min(self.candidates, len(ranked))
        limit = my1[ranked[cut - 1]] + my2[ranked[cut - 1]] + foe1[ranked[cut - 1]] + foe2[ranked[cut - 1]]
        tried = [m for m in ranked if my1[m] + my2[m] + foe1[m] + foe2[m] <= limit][: 2 * self.candidates]
        tried += [m for m in legal if board[m] != EMPTY]  # the swap, when legal
        best_value, best = None, []
        for move in tried:
            after = state.clone()
            after.play_code(move)
            value = self._value(after.board, n, me)
            if best_value is None or value > best_value:
                best_value, best = value, [move]
            elif value == best_value:
                best.append(move)
        return self._pick(best)

    @staticmethod
    def _value(board: Sequence[int], size: int, me: int) -> int:
        mine, my_mobility = potential(board, size, me)
        theirs, their_mobility = potential(board, size, 1 - me)
        return POTENTIAL_WEIGHT * (theirs - mine) + my_mobility - their_mobility

    def _pick(self, moves: Sequence[int]) -> int:
        if len(moves) == 1:
            return moves[0]
        return moves[int(self.rng.integers(len(moves)))]
