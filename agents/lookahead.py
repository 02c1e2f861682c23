"""``lookahead``: each move judged by one round of replies: the points it scores, the points it hands the
others, and whether its player can still play when the turn comes back.

Every hand is face up, so after a candidate move the bot can play the round out on a copy of the figure: each
other seat in turn order makes its greedy reply (the most points now, ties to the lowest move code), or, with no
placement, is skipped (draws are not simulated: the pile is face down, and the bot never looks at it). It scores
every legal move ``(tile, cell)`` of the seat to move ``s`` of ``n`` seats as

- if the move ends the hand, its exact result as a margin over the mean of the other seats: going out scores
  the points plus 10 for every tile the others hold on average (and ``GO_OUT`` = 1000 more, so it always comes
  first); enclosing the figure (1939 rule) the points plus 10 x (the others' mean tiles - my tiles);
- otherwise

      points now
      - OPPONENTS * (the points of the simulated replies, all other seats together) / (n - 1)
      - 10 * my tiles          if a simulated reply goes out or encloses the figure (the hand ends; the round stops)
      + BLOCKED / (n - 1)      when the next player has no placement at all (they must draw or pass)
      + CAN_PLAY               when I have a placement after the round ...
      + NEXT_POINTS * the best points of that placement
      + KEEP  * the tiles I keep that fit some empty cell touching the figure after my move
      + HOLE  * the tiles I keep that fit a hole after my move (an empty cell touching two tiles: an opportunity
                play on any later turn, whatever tile is played last)

  Other seats' points count ``1/(n-1)`` each because what matters is the margin over their mean; being able to
  play when the turn comes back is what keeps a player from drawing and so what brings them out first.

It looks only at the figure and the hands, never at the pile, so its choice cannot depend on the face-down order.
In the solitaires it plays the move that leaves the most tiles placeable (No. 2: visible stack tops; No. 1:
tiles not yet placed), then the most points.

Ties (equal values, compared exactly as floats) go to the first move in ``legal`` order: lowest tile id, then
lowest ``(x, y)``. The weights were tuned on seeds the published baselines do not use (docs/baselines.md).
"""

from __future__ import annotations

from typing import Sequence

from contack_env.contack.figure import Figure, Move, split_code
from contack_env.contack.grid import cell_index
from contack_env.contack.multiplayer import PENALTY_PER_TILE, ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import ALL_TILES_MASK

from .base import Agent

# Weights, tuned by duplicate-format games against greedy at 2 and 4 players.
OPPONENTS = 1.0
BLOCKED = 8.0
CAN_PLAY = 10.0
NEXT_POINTS = 0.5
KEEP = 2.0
HOLE = 8.0
GO_OUT = 1000.0


def playable_mask(figure: Figure) -> int:
    """Tiles that fit at least one empty cell touching the figure, wherever it is (the last-played rule aside).

    Placed tiles may be in it too (the mask is about values, not whereabouts); callers AND it with a hand."""
    union = 0
    for entry in figure.frontier.values():
        union |= entry
    return union & ALL_TILES_MASK


def first_best(values: Sequence[float]) -> int:
    """The index of the move the bot plays among moves judged ``values``: the first of the highest."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


GAMES = ("contack", "solitaire1", "solitaire2")
"""The games the bot plays and judges (those played with tiles on a figure; the greedy playout's games too)."""


class LookaheadAgent(Agent[GameState, Move]):
    """See the module docstring; the keyword arguments override the module's weights."""

    name = "lookahead"

    def __init__(
        self,
        opponents: float = OPPONENTS,
        blocked: float = BLOCKED,
        can_play: float = CAN_PLAY,
        next_points: float = NEXT_POINTS,
        keep: float = KEEP,
        hole: float = HOLE,
    ) -> None:
        self.opponents = opponents
        self.blocked = blocked
        self.can_play = can_play
        self.next_points = next_points
        self.keep = keep
        self.hole = hole

    def act(self, state: GameState, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if isinstance(state, ContackGame):
            values = [self.move_value(state, m.tile, cell_index(m.x, m.y)) for m in legal]
        elif isinstance(state, (Solitaire1, Solitaire2)):
            values = [self._solitaire_value(state, m.tile, cell_index(m.x, m.y)) for m in legal]
        else:
            raise TypeError(f"lookahead plays ContackGame, Solitaire1 and Solitaire2; got {type(state).__name__}")
        return legal[first_best(values)]

    def best_code(self, state: GameState) -> int:
        """The code of the move the bot plays at ``state`` (a decision): ``act`` by move code."""
        codes = state.legal_codes()
        if len(codes) == 1:
            return codes[0]
        return codes[first_best(self.values(state, codes))]

    def values(self, state: GameState, codes: Sequence[int]) -> list[float]:
        """``value`` of each of ``codes`` (legal moves of ``state``), in order."""
        return [self.value(state, code) for code in codes]

    def value(self, state: GameState, code: int) -> float:
        """The bot's judgement of the legal move ``code`` at ``state`` (higher is better; it plays the highest):
        ``move_value`` in Contack, the solitaire value (module docstring) in a solitaire."""
        tile, cell = split_code(code)
        if isinstance(state, ContackGame):
            return self.move_value(state, tile, cell)
        if isinstance(state, (Solitaire1, Solitaire2)):
            return self._solitaire_value(state, tile, cell)
        raise TypeError(f"lookahead plays ContackGame, Solitaire1 and Solitaire2; got {type(state).__name__}")

    def move_value(self, state: ContackGame, tile: int, cell: int) -> float:
        """The value of placing ``tile`` on cell index ``cell`` for the seat to move (see the module docstring)."""
        seat = state.current_player
        n = state.num_players
        others = n - 1
        figure = state.figure.clone()
        points = figure.place(tile, cell)
        mine = state.hands[seat] & ~(1 << tile)
        held = mine.bit_count()
        others_held = (sum(h.bit_count() for h in state.hands) - held - 1) / others
        if not mine:
            return GO_OUT + points + PENALTY_PER_TILE * others_held
        enclosing_ends = state.enclosed_end == "1939"
        if enclosing_ends and figure.is_enclosed():
            return points + PENALTY_PER_TILE * (others_held - held)
        value = float(points) + self.keep * (mine & playable_mask(figure)).bit_count()
        if figure.holes:
            fit = 0
            for c in figure.holes:
                fit |= figure.frontier[c]
            value += self.hole * (mine & fit).bit_count()
        # One round of greedy replies on the copy of the figure.
        handed = 0
        for k in range(1, n):
            hand = state.hands[(seat + k) % n]
            codes = figure.legal_codes(hand)
            if not codes:
                if k == 1:
                    value += self.blocked / others
                continue
            best, code = -1, codes[0]
            for c in codes:
                p = figure.points_for_code(c)
                if p > best:
                    best, code = p, c
            handed += best
            if hand.bit_count() == 1:  # they go out: the hand ends, and I pay for my tiles
                return value - self.opponents * handed / others - PENALTY_PER_TILE * held
            figure.place(*split_code(code))
            if enclosing_ends and figure.is_enclosed():
                return value - self.opponents * handed / others - PENALTY_PER_TILE * held
        value -= self.opponents * handed / others
        codes = figure.legal_codes(mine)
        if codes:
            value += self.can_play + self.next_points * max(figure.points_for_code(c) for c in codes)
        return value

    def _solitaire_value(self, state: GameState, tile: int, cell: int) -> float:
        figure = state.figure.clone()
        points = figure.place(tile, cell)
        if isinstance(state, Solitaire2):
            # Only the other stack tops count: the tile under the one played is face down, so not seen.
            tops = 0
            for s in state.stacks:
                if s and s[-1] != tile:
                    tops |= 1 << s[-1]
            fit = (tops & playable_mask(figure)).bit_count()
        else:
            unplaced = ALL_TILES_MASK
            for t in figure.placed.values():
                unplaced &= ~(1 << t)
            fit = (unplaced & playable_mask(figure)).bit_count()
        return 100.0 * fit + points
