"""What every Contack game state shares: the figure, the decision to make, the event log.

A state always rests at a *decision* (a seat must choose one of ``legal_moves()``) or at the end of the game:
everything the rules force (openings, draws, passes, discards, hand ends, new deals) happens inside ``play``.
Events are logged in the vocabulary of docs/records.md, one list per hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from contack_env.contack.figure import (CELL_MASK, TILE_SHIFT, Figure, Move, as_move, code_to_move, move_to_code,
                                        on_the_grid)
from contack_env.contack.grid import OFFSET, SPAN
from contack_env.contack.tiles import TILE_NAMES
from contack_env.seeds import check_seed
from contack_env.wording import plural


class IllegalMoveError(ValueError):
    """A move that is not among the legal moves of the current decision."""


class GameState:
    """Base of the multiplayer game and the solitaires. Subclasses implement ``_apply`` (after a placement)."""

    game: str = ""

    def __init__(self, trace: bool = False, log: bool = True) -> None:
        self.figure = Figure()
        self.current_player: int = 0
        self.done = False
        self.trace = trace
        self.log = log
        self.hand_events: list[list[dict[str, Any]]] = []
        self._codes: list[int] = []
        self._moves: list[Move] | None = None
        self._points: list[int] = []  # points scored by each seat (or the solitaire player), penalties excluded

    # -- the decision ----------------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The moves open to ``current_player``, sorted by tile id, then x, then y; empty once ``done``."""
        if self._moves is None:
            self._moves = [code_to_move(c) for c in self._codes]
        return self._moves

    def legal_codes(self) -> list[int]:
        """The same moves as integer codes (``figure.move_code``), for callers on a hot path."""
        return self._codes

    def play(self, move: Move) -> int:
        """Make ``move`` for ``current_player``; returns the points it scored. Raises ``IllegalMoveError``."""
        if self.done:
            raise IllegalMoveError(f"the game is over; no move is legal (tried {move})")
        try:
            move = as_move(move)
        except ValueError as err:
            raise IllegalMoveError(str(err)) from None
        code = move_to_code(move)
        if not on_the_grid(move) or code not in self._codes:
            raise IllegalMoveError(
                f"{_describe(move)} is not legal for seat {self.current_player}; "
                f"{plural(len(self._codes), 'legal move')}: {', '.join(str(m) for m in self.legal_moves())}"
            )
        return self.play_code(code)

    def move_of(self, code: int) -> Move:
        """The ``Move`` a code of ``legal_codes()`` stands for."""
        return code_to_move(code)

    def play_code(self, code: int) -> int:
        """Make the legal move with this code, unchecked (``legal_codes`` must hold it)."""
        tile = code >> TILE_SHIFT  # inline: this runs once per move of every game
        cell = code & CELL_MASK
        if self.log:
            event: dict[str, Any] = {
                "type": "place",
                "seat": self.current_player,
                "tile": TILE_NAMES[tile],
                "cell": [cell // SPAN - OFFSET, cell % SPAN - OFFSET],
                "blue": "B",
                "points": 0,
            }
            if self.trace:
                event["legal"] = [[TILE_NAMES[m.tile], m.x, m.y] for m in self.legal_moves()]
            self._add_source(event, tile)
            self.hand_events[-1].append(event)
        points = self.figure.place(tile, cell)
        if self.log:
            event["points"] = points
        self._points[self.current_player] += points
        self._apply(tile, points)
        return points

    # -- for subclasses --------------------------------------------------------------------------------------
    def _add_source(self, event: dict[str, Any], tile: int) -> None:
        """Add game-specific keys to a place event (Solitaire No. 1's "from", No. 2's "stack")."""

    def _apply(self, tile: int, points: int) -> None:
        raise NotImplementedError

    def _decide(self, seat: int, codes: list[int]) -> None:
        self.current_player = seat
        self._codes = codes
        self._moves = None

    def _finish(self) -> None:
        self.done = True
        self._codes = []
        self._moves = None

    def _event(self, **event: Any) -> None:
        if self.log:
            self.hand_events[-1].append(event)

    def _copy_base(self, other: "GameState") -> None:
        other.figure = self.figure.clone()
        other.current_player = self.current_player
        other.done = self.done
        other.trace = self.trace
        other.log = self.log
        other.hand_events = [list(h) for h in self.hand_events] if self.log else []
        other._codes = self._codes
        other._moves = self._moves
        other._points = list(self._points)

    # -- hidden information (contack_env.protocol) --------------------------------------------------------------
    def public_view(self) -> "GameState":
        """A copy whose face-down tiles are in a canonical order (ascending tile id); no event log is kept."""
        return self._rearranged(None)

    def determinize(self, rng: np.random.Generator) -> "GameState":
        """A copy of this view with its face-down tiles in a random order drawn from ``rng``."""
        if not isinstance(rng, np.random.Generator):  # (a seed would fail deep inside, on its first draw)
            raise TypeError(f"rng is a numpy Generator (numpy.random.default_rng(seed)); got {rng!r}")
        return self._rearranged(rng)

    def _rearranged(self, rng: np.random.Generator | None) -> "GameState":
        view = self.clone()
        view.log = False
        view.hand_events = []
        view._hide(rng)
        return view

    def _hide(self, rng: np.random.Generator | None) -> None:
        """Put this copy's face-down tiles in canonical (``rng`` None) or random order (each game's own)."""
        raise NotImplementedError

    @property
    def points_scored(self) -> list[int]:
        """Points each seat scored by counting contacts, all hands together, penalties excluded."""
        return list(self._points)


def deal_rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    """The generator a new game deals from: ``seed`` itself if it is a Generator, else a new one from ``seed``, a
    whole number 0..``MAX_SEED`` (``check_seed``: a bool, a float or a list is refused, not dealt from), or None
    for fresh entropy."""
    if seed is None or isinstance(seed, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)):
        return np.random.default_rng(seed)  # (numpy's own seeding objects, as default_rng takes them)
    return np.random.default_rng(check_seed(seed))


def hidden_order(tiles: list[int], rng: np.random.Generator | None) -> list[int]:
    """Face-down ``tiles`` in the canonical order (ascending) or, with ``rng``, a random one."""
    if rng is None:
        return sorted(tiles)
    return [tiles[i] for i in rng.permutation(len(tiles))]


def _describe(move: Any) -> str:
    try:
        m = Move(*move)
        if 0 <= m.tile < len(TILE_NAMES):
            return str(m)
        return f"tile id {m.tile} at ({m.x}, {m.y}) (tile ids are 0..35)"
    except TypeError:
        return repr(move)
