"""The two Contack solitaires (docs/rules.md sections 6 and 7)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contack.figure import Figure, split_code
from contack_env.contack.multiplayer import check_deck
from contack_env.contack.state import GameState, deal_rng, hidden_order
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES

NUM_STACKS = 7
STACK6_SIZE = 6


class SolitaireState(GameState):
    """What both solitaires share: one player, who wins by placing all 36 tiles."""

    num_players = 1
    won: bool

    @property
    def winners(self) -> list[int]:
        """``[0]`` once won, else ``[]``."""
        return [0] if self.done and self.won else []

    @property
    def scores(self) -> list[int]:
        """``[score]``: the points scored by counting contacts."""
        return [self.score]


class Solitaire1(SolitaireState):
    """Solitaire No. 1, draw and discard: ``deck`` is the face-down pile, ``deck[0]`` the opening tile.

    Attributes: ``pile_pos`` (next tile to draw), ``discard`` (bottom first), ``source`` (where the tile of the
    current decision comes from: "pile" or "discard"), ``won`` once ``done``.
    """

    game = "solitaire1"

    def __init__(self, deck: Sequence[int], trace: bool = False, log: bool = True) -> None:
        check_deck(deck)
        super().__init__(trace=trace, log=log)
        self.deck = [int(t) for t in deck]  # numpy integers would leak into the bit masks
        self._points = [0]
        self.discard: list[int] = []
        self.source = "pile"
        self.won = False
        if log:
            self.hand_events.append([])
        opening = self.deck[0]
        self.pile_pos = 1
        self.figure.place_opening(opening)
        self._event(type="open", seat=0, tile=TILE_NAMES[opening], cell=[0, 0], blue="B", points=0)
        self._advance()

    @classmethod
    def from_position(cls, figure: Figure, pile: Sequence[int], discard: Sequence[int] = (), trace: bool = False) -> "Solitaire1":
        """A game set up mid-play: a ``figure``, the face-down ``pile`` (next to draw first) and the ``discard``
        pile (bottom first). For tests and analysis; the event log starts empty."""
        placed = list(figure.placed.values())
        check_deck(placed + list(discard) + list(pile))
        game = cls.__new__(cls)
        GameState.__init__(game, trace=trace, log=True)
        game.deck = placed + [int(t) for t in discard] + [int(t) for t in pile]
        game._points = [0]
        game.discard = [int(t) for t in discard]
        game.source = "pile"
        game.won = False
        game.pile_pos = NUM_TILES - len(pile)
        game.figure = figure.clone()
        game.hand_events.append([])
        game._advance()
        return game

    @property
    def pile_size(self) -> int:
        return NUM_TILES - self.pile_pos

    @property
    def score(self) -> int:
        return self._points[0]

    @property
    def forced_tile(self) -> int | None:
        """The tile to place at the current decision (the player only chooses where)."""
        return split_code(self._codes[0])[0] if self._codes else None

    def public_key(self) -> tuple:
        """What the player sees beyond the moves that led here (``contack_env.protocol.State.public_key``): how
        far the pile is drawn, the discards and the drawn tile."""
        return (self.done, self.pile_pos, tuple(self.discard), self.forced_tile)

    def face_down(self) -> int:
        """The tiles still face down in the pile."""
        return NUM_TILES - self.pile_pos

    def clone(self) -> "Solitaire1":
        other = Solitaire1.__new__(Solitaire1)
        self._copy_base(other)
        other.deck = self.deck
        other.discard = list(self.discard)
        other.source = self.source
        other.won = self.won
        other.pile_pos = self.pile_pos
        return other

    def _hide(self, rng: np.random.Generator | None) -> None:
        # The pile is face down; the discard pile is face up.
        deck = list(self.deck)
        deck[self.pile_pos :] = hidden_order(deck[self.pile_pos :], rng)
        self.deck = deck

    def _add_source(self, event: dict[str, Any], tile: int) -> None:
        event["from"] = self.source

    def _apply(self, tile: int, points: int) -> None:
        if self.source == "discard":
            self.discard.pop()
        self._advance()

    def _advance(self) -> None:
        figure = self.figure
        check_discard = True
        while True:
            if check_discard and self.discard:
                codes = figure.legal_codes(1 << self.discard[-1])
                if codes:
                    self.source = "discard"
                    self._decide(0, codes)
                    return
            if self.pile_pos == NUM_TILES:
                self.won = not self.discard
                self._event(type="end", reason="won" if self.won else "lost")
                self._finish()
                return
            tile = self.deck[self.pile_pos]
            self.pile_pos += 1
            self._event(type="draw", seat=0, tile=TILE_NAMES[tile])
            codes = figure.legal_codes(1 << tile)
            if codes:
                self.source = "pile"
                self._decide(0, codes)
                return
            self.discard.append(tile)
            self._event(type="discard", seat=0, tile=TILE_NAMES[tile])
            # The figure has not changed, so the new discard top cannot be placed: draw again.
            check_discard = False


class Solitaire2(SolitaireState):
    """Solitaire No. 2, seven stacks: stacks 0..5 are ``deck[5k .. 5k+4]``, stack 6 is ``deck[30 .. 35]`` (last
    dealt on top); ``cut`` (0..5, from the bottom of stack 6) is the opening tile.

    Attributes: ``stacks`` (lists of tile ids, bottom first), ``won`` once ``done``.
    """

    game = "solitaire2"

    def __init__(self, deck: Sequence[int], cut: int, trace: bool = False, log: bool = True) -> None:
        check_deck(deck)
        if not is_whole_number(cut) or not 0 <= cut < STACK6_SIZE:
            raise ValueError(f"the cut is a position in stack 6, 0..{STACK6_SIZE - 1}; got {cut!r}")
        super().__init__(trace=trace, log=log)
        self.deck = [int(t) for t in deck]  # numpy integers would leak into the bit masks
        self.cut = int(cut)
        self._points = [0]
        self.won = False
        self.stacks: list[list[int]] = [self.deck[5 * k : 5 * k + 5] for k in range(6)] + [self.deck[30:36]]
        opening = self.stacks[6].pop(self.cut)
        if log:
            self.hand_events.append([])
        self.figure.place_opening(opening)
        self._event(type="open", seat=0, tile=TILE_NAMES[opening], cell=[0, 0], blue="B", points=0)
        self._advance()

    @property
    def score(self) -> int:
        return self._points[0]

    @classmethod
    def from_position(cls, figure: Figure, stacks: Sequence[Sequence[int]], trace: bool = False) -> "Solitaire2":
        """A game set up mid-play: a ``figure`` and seven ``stacks`` (bottom first). For tests and analysis; the
        event log starts empty and ``deck``/``cut`` describe no real deal."""
        if len(stacks) != NUM_STACKS:
            raise ValueError(f"Solitaire No. 2 has {NUM_STACKS} stacks; got {len(stacks)}")
        placed = list(figure.placed.values())
        check_deck(placed + [t for s in stacks for t in s])
        game = cls.__new__(cls)
        GameState.__init__(game, trace=trace, log=True)
        game.deck = placed + [t for s in stacks for t in s]
        game.cut = 0
        game._points = [0]
        game.won = False
        game.stacks = [[int(t) for t in s] for s in stacks]
        game.figure = figure.clone()
        game.hand_events.append([])
        game._advance()
        return game

    @property
    def tops(self) -> list[int | None]:
        """The top tile of each stack (None for an empty stack): the only tiles a player sees."""
        return [s[-1] if s else None for s in self.stacks]

    def stack_of(self, tile: int) -> int:
        """The stack whose top is ``tile``."""
        for k, s in enumerate(self.stacks):
            if s and s[-1] == tile:
                return k
        raise ValueError(f"{TILE_NAMES[tile]} is not on top of a stack")

    def public_key(self) -> tuple:
        """What the player sees beyond the moves that led here (``contack_env.protocol.State.public_key``): the
        stacks' tops."""
        return (self.done, tuple(self.tops))

    def outcomes(self, code: int) -> list["Solitaire2"]:
        """The equally likely states after the legal move ``code``, as the player sees the deal: one state per
        buried tile that can come up when the move uncovers a face-down tile, else the one state it leads to.

        Every arrangement of the buried tiles consistent with what was seen is equally likely (the deal is a
        uniform shuffle and only the tops have shown), so the tile uncovered is any buried tile with equal
        chance. Each outcome swaps that tile under the top it replaces; the order of the others is this
        state's, which carries no more than its own view does. An exact search (``agents.az.endgame``) enumerates
        these as the outcomes of a chance node."""
        k = self.stack_of(split_code(code)[0])
        if len(self.stacks[k]) < 2:
            after = self.clone()
            after.play_code(code)
            return [after]
        out = []
        for j, s in enumerate(self.stacks):
            for i in range(len(s) - 1):
                after = self.clone()
                stacks = after.stacks
                stacks[j][i], stacks[k][-2] = stacks[k][-2], stacks[j][i]
                after.play_code(code)
                out.append(after)
        return out

    def position_key(self) -> tuple:
        """The position up to the order of the buried tiles (``contack_env.protocol.EnumerableChance``): where
        each tile lies on the table (``Figure.signature``), the last-played cell, the stacks' heights and tops."""
        stacks = self.stacks
        return (self.figure.signature, self.figure.last, tuple(map(len, stacks)),
                tuple([s[-1] if s else None for s in stacks]))

    def moves_left(self) -> int:
        """The tiles still in the stacks: the most moves the game can last."""
        return sum(len(s) for s in self.stacks)

    def face_down(self) -> int:
        """The tiles buried under the stacks' tops."""
        return sum(len(s) - 1 for s in self.stacks if s)

    def clone(self) -> "Solitaire2":
        other = Solitaire2.__new__(Solitaire2)
        self._copy_base(other)
        other.deck = self.deck
        other.cut = self.cut
        other.won = self.won
        other.stacks = [list(s) for s in self.stacks]
        return other

    def _hide(self, rng: np.random.Generator | None) -> None:
        # Only the stack tops are face up; the deal is not seen, so a view keeps the stacks alone.
        hidden = hidden_order([t for s in self.stacks for t in s[:-1]], rng)
        stacks = []
        for s in self.stacks:
            k = max(len(s) - 1, 0)
            stacks.append(hidden[:k] + s[-1:])
            hidden = hidden[k:]
        self.stacks = stacks
        self.deck = []

    def _add_source(self, event: dict[str, Any], tile: int) -> None:
        event["stack"] = self.stack_of(tile)

    def _apply(self, tile: int, points: int) -> None:
        self.stacks[self.stack_of(tile)].pop()
        self._advance()

    def _advance(self) -> None:
        mask = 0
        for s in self.stacks:
            if s:
                mask |= 1 << s[-1]
        codes = self.figure.legal_codes(mask) if mask else []
        if codes:
            self._decide(0, codes)
            return
        self.won = len(self.figure) == NUM_TILES
        self._event(type="end", reason="won" if self.won else "lost")
        self._finish()


def new_solitaire1(seed: int | np.random.Generator | None = None, trace: bool = False, log: bool = True) -> Solitaire1:
    """A new deal of Solitaire No. 1 from ``seed`` (an int 0..``MAX_SEED``, a Generator, or None)."""
    rng = deal_rng(seed)
    return Solitaire1(rng.permutation(NUM_TILES).tolist(), trace=trace, log=log)


def new_solitaire2(seed: int | np.random.Generator | None = None, trace: bool = False, log: bool = True) -> Solitaire2:
    """A new deal of Solitaire No. 2 from ``seed`` (an int 0..``MAX_SEED``, a Generator, or None)."""
    rng = deal_rng(seed)
    deck = rng.permutation(NUM_TILES).tolist()
    return Solitaire2(deck, int(rng.integers(STACK6_SIZE)), trace=trace, log=log)
