"""The Contack game for 2 to 7 players over several hands (docs/rules.md section 5)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contack.figure import Figure
from contack_env.contack.state import GameState, deal_rng, hidden_order
from contack_env.contack.tiles import NUM_TILES, OPENING_RANK, TILE_NAMES, mask_of

MIN_PLAYERS, MAX_PLAYERS = 2, 7
HAND_SIZE = 5
PENALTY_PER_TILE = 10
ENCLOSED_END_OPTIONS = ("1939", "next_player", "never")
DEFAULT_NUM_HANDS = 3
"""The rules' count of hands (docs/rules.md section 5)."""
DEFAULT_ENCLOSED_END = "1939"
"""The rules' ending of a hand by an enclosed figure (docs/rules.md section 5), one of ``ENCLOSED_END_OPTIONS``."""
MAX_NUM_HANDS = 100  # a bound keeps a mistyped count from dealing without end


def check_num_hands(num_hands: int, option: str = "") -> None:
    """Raise ``ValueError`` saying what is allowed unless ``num_hands`` is 1..``MAX_NUM_HANDS``; the message starts
    with ``option`` (``"--hands: "``, ``"hands: "``) where it is given."""
    if not is_whole_number(num_hands) or not 1 <= num_hands <= MAX_NUM_HANDS:
        raise ValueError(f"{option}a game has 1 to {MAX_NUM_HANDS} hands (the rules play {DEFAULT_NUM_HANDS}); "
                         f"got {num_hands!r}")


def check_rules(num_players: int, num_hands: int, enclosed_end: str) -> None:
    """Raise ``ValueError`` saying what is allowed if the options are not."""
    if not is_whole_number(num_players) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {num_players!r}")
    check_num_hands(num_hands)
    check_enclosed_end(enclosed_end)


def check_enclosed_end(enclosed_end: str) -> None:
    """Raise ``ValueError`` naming ``ENCLOSED_END_OPTIONS`` unless ``enclosed_end`` is one of them."""
    if not isinstance(enclosed_end, str) or enclosed_end not in ENCLOSED_END_OPTIONS:  # (an array compares per item)
        raise ValueError(f"enclosed_end must be one of {', '.join(ENCLOSED_END_OPTIONS)}; got {enclosed_end!r}")


def shuffled_decks(rng: np.random.Generator, count: int) -> list[list[int]]:
    """``count`` independent shuffles of the 36 tile ids."""
    return [rng.permutation(NUM_TILES).tolist() for _ in range(count)]


def check_deck(deck: Sequence[int]) -> None:
    """``ValueError`` unless ``deck`` holds each of the 36 tile ids (whole numbers 0..35) exactly once."""
    try:
        ok = all(is_whole_number(t) for t in deck) and sorted(deck) == list(range(NUM_TILES))
    except TypeError:  # not a sequence at all
        ok = False
    if not ok:
        shown = repr(deck)
        raise ValueError(f"a deck must hold each of the 36 tile ids exactly once (whole numbers 0..35); got "
                         f"{shown if len(shown) <= 60 else shown[:57] + '...'}")


class ContackGame(GameState):
    """A whole game: ``num_hands`` hands, each dealt from ``decks[h]``.

    Create one with ``new_game`` (random deals from a seed) or directly from given decks (replaying a record).
    Public attributes: ``num_players``, ``hands`` (one tile bitmask per seat), ``scores`` (running totals,
    penalties included), ``hand_number`` (0-based), ``pile_size``, ``winners`` (once ``done``).
    """

    game = "contack"

    def __init__(
        self,
        decks: Sequence[Sequence[int]],
        num_players: int,
        num_hands: int = DEFAULT_NUM_HANDS,
        enclosed_end: str = DEFAULT_ENCLOSED_END,
        trace: bool = False,
        log: bool = True,
    ) -> None:
        check_rules(num_players, num_hands, enclosed_end)
        if len(decks) != num_hands:
            raise ValueError(f"{num_hands} hands need {num_hands} decks; got {len(decks)}")
        for deck in decks:
            check_deck(deck)
        super().__init__(trace=trace, log=log)
        self.num_players = int(num_players)
        self.num_hands = int(num_hands)
        self.enclosed_end = enclosed_end
        self.decks = [[int(t) for t in d] for d in decks]  # numpy integers would leak into the bit masks
        self.hands: list[int] = [0] * self.num_players
        self.scores: list[int] = [0] * self.num_players
        self._points = [0] * self.num_players
        self.hand_number = -1
        self.pile_pos = 0
        self.passes = 0
        self.winners: list[int] = []
        self.end_reasons: list[str] = []
        self.forced_tile: int | None = None
        """The drawn tile that must be placed when the decision is about one (docs/rules.md section 5.3), else None."""
        self._deal(0)

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[int]],
        figure: Figure,
        pile: Sequence[int],
        to_move: int,
        scores: Sequence[int] | None = None,
        enclosed_end: str = DEFAULT_ENCLOSED_END,
        trace: bool = False,
    ) -> "ContackGame":
        """A one-hand game set up mid-hand: ``hands`` (tile ids per seat), a ``figure``, the ``pile`` (top first),
        and the seat whose turn starts now (its forced draws and passes are played out at once).

        For tests, puzzles and analysis: the 36 tiles must be accounted for exactly once. The event log of the
        hand starts empty (no ``open``), so such a game does not make a valid record.
        """
        num_players = len(hands)
        check_rules(num_players, 1, enclosed_end)
        placed = list(figure.placed.values())
        held = [t for h in hands for t in h]
        check_deck(placed + held + list(pile))
        if not 0 <= to_move < num_players:
            raise ValueError(f"to_move is a seat, 0..{num_players - 1}; got {to_move!r}")
        game = cls.__new__(cls)
        GameState.__init__(game, trace=trace, log=True)
        game.num_players = num_players
        game.num_hands = 1
        game.enclosed_end = enclosed_end
        game.decks = [placed + [int(t) for t in held] + [int(t) for t in pile]]
        game.hands = [mask_of(int(t) for t in h) for h in hands]
        game.scores = list(scores) if scores is not None else [0] * num_players
        game._points = list(game.scores)
        game.hand_number = 0
        game.pile_pos = NUM_TILES - len(pile)
        game.passes = 0
        game.winners = []
        game.end_reasons = []
        game.forced_tile = None
        game.figure = figure.clone()
        game.hand_events.append([])
        game._turn(to_move)
        return game

    # -- views -----------------------------------------------------------------------------------------------
    @property
    def pile_size(self) -> int:
        return NUM_TILES - self.pile_pos

    @property
    def deck(self) -> list[int]:
        """The current hand's deck (the pile is its tail from ``pile_pos``)."""
        return self.decks[self.hand_number]

    def public_key(self) -> tuple:
        """What the table sees now beyond the moves that led here (``contack_env.protocol.State.public_key``):
        the hand number, the seat to move, every hand (draws and new deals: hands are face up), the forced tile,
        the figure's size and its last tile."""
        figure = self.figure
        last = figure.last
        return (self.done, self.hand_number, self.current_player, tuple(self.hands), self.forced_tile,
                len(figure), None if last is None else figure.placed[last])

    def face_down(self) -> int:
        """The tiles face down: the current hand's pile and the deals of the hands still to come."""
        return NUM_TILES - self.pile_pos + NUM_TILES * (self.num_hands - 1 - self.hand_number)

    def clone(self) -> "ContackGame":
        other = ContackGame.__new__(ContackGame)
        self._copy_base(other)
        other.num_players = self.num_players
        other.num_hands = self.num_hands
        other.enclosed_end = self.enclosed_end
        other.decks = self.decks  # never mutated: a clone that needs other deals replaces the list
        other.hands = list(self.hands)
        other.scores = list(self.scores)
        other.hand_number = self.hand_number
        other.pile_pos = self.pile_pos
        other.passes = self.passes
        other.winners = list(self.winners)
        other.end_reasons = list(self.end_reasons)
        other.forced_tile = self.forced_tile
        return other

    # -- the flow of a hand ----------------------------------------------------------------------------------
    def current_hand_only(self) -> "ContackGame":
        """A copy whose game ends with the current hand (a search that looks no further spares dealing the rest)."""
        game = self.clone()
        game.num_hands = self.hand_number + 1
        game.decks = game.decks[: self.hand_number + 1]
        return game

    def _hide(self, rng: np.random.Generator | None) -> None:
        # The pile of this hand and the deals of the hands to come are face down.
        h = self.hand_number
        deck = list(self.decks[h])
        deck[self.pile_pos :] = hidden_order(deck[self.pile_pos :], rng)
        later = [hidden_order(list(range(NUM_TILES)), rng) for _ in range(h + 1, self.num_hands)]
        self.decks = self.decks[:h] + [deck] + later

    def _deal(self, hand_number: int) -> None:
        self.hand_number = hand_number
        n = self.num_players
        deck = self.decks[hand_number]
        self.hands = [mask_of(deck[HAND_SIZE * i : HAND_SIZE * i + HAND_SIZE]) for i in range(n)]
        self.pile_pos = HAND_SIZE * n
        self.passes = 0
        self.forced_tile = None
        self.figure = type(self.figure)()
        if self.log:
            self.hand_events.append([])
        opening = min(deck[: HAND_SIZE * n], key=OPENING_RANK.__getitem__)
        opener = deck.index(opening) // HAND_SIZE
        self.hands[opener] ^= 1 << opening
        self.figure.place_opening(opening)
        self._event(type="open", seat=opener, tile=TILE_NAMES[opening], cell=[0, 0], blue="B", points=0)
        self._turn((opener + 1) % n)

    def _apply(self, tile: int, points: int) -> None:
        seat = self.current_player
        self.hands[seat] ^= 1 << tile
        self.scores[seat] += points
        self.passes = 0
        if not self.hands[seat]:
            self._end_hand("out")
        elif self.enclosed_end == "1939" and self.figure.is_enclosed():
            self._end_hand("enclosed")
        else:
            self._turn((seat + 1) % self.num_players)

    def _turn(self, seat: int) -> None:
        """Run turns from ``seat`` until one needs a choice (docs/rules.md section 5.3) or the hand ends."""
        figure = self.figure
        deck = self.decks[self.hand_number]
        while True:
            codes = figure.legal_codes(self.hands[seat])
            if codes:
                self.forced_tile = None
                self._decide(seat, codes)
                return
            while self.hands[seat].bit_count() < HAND_SIZE and self.pile_pos < NUM_TILES:
                tile = deck[self.pile_pos]
                self.pile_pos += 1
                self.hands[seat] |= 1 << tile
                self._event(type="draw", seat=seat, tile=TILE_NAMES[tile])
                codes = figure.legal_codes(1 << tile)
                if codes:
                    self.forced_tile = tile
                    self._decide(seat, codes)
                    return
            if self.enclosed_end == "next_player" and not figure.last_has_free_side():
                self._end_hand("enclosed")
                return
            self._event(type="pass", seat=seat)
            self.passes += 1
            if self.passes >= self.num_players:
                self._end_hand("blocked")
                return
            seat = (seat + 1) % self.num_players

    def _end_hand(self, reason: str) -> None:
        penalties = [-PENALTY_PER_TILE * h.bit_count() for h in self.hands]
        self.scores = [s + p for s, p in zip(self.scores, penalties)]
        self.end_reasons.append(reason)
        self._event(type="end", reason=reason, penalties=penalties, scores=list(self.scores))
        if self.hand_number + 1 < self.num_hands:
            self._deal(self.hand_number + 1)
        else:
            best = max(self.scores)
            self.winners = [i for i, s in enumerate(self.scores) if s == best]
            self._finish()


def new_game(
    num_players: int,
    num_hands: int = DEFAULT_NUM_HANDS,
    enclosed_end: str = DEFAULT_ENCLOSED_END,
    seed: int | np.random.Generator | None = None,
    trace: bool = False,
    log: bool = True,
) -> ContackGame:
    """A new game with every hand's deal drawn from ``seed`` (an int 0..``MAX_SEED``, a Generator, or None for
    fresh entropy)."""
    check_rules(num_players, num_hands, enclosed_end)
    rng = deal_rng(seed)
    return ContackGame(shuffled_decks(rng, num_hands), num_players, num_hands, enclosed_end, trace=trace, log=log)
