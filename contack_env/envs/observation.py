"""The observation vector of the multiplayer game (``contack_v0``), seen by one seat.

Everything is public information (every hand is face up, docs/rules.md section 5.1) except the order of the pile, which no
component reveals: a tile in the pile is only "unseen". Seats are relative to the observer: relative seat 0 is
the observer, 1 the next seat to play after them (to their left), and so on; components for relative seats n .. 6
that a game of n players does not have stay 0, so one vector layout serves 2 to 7 players.

The layout (``OBS_SIZE`` float32 values, every one in [0, 1] except the score components, in [-1, 1]) is listed
with its index ranges in the ``contack_v0`` module docstring; the constants below are the same numbers and a
test checks that the two agree.

Two implementations, which the tests check against each other at every decision of many games, for every seat:

- ``observation_vector(game, seat)``: the reference, plain loops over any state, written to be read.
- ``ObservationBuilder``: what the environment uses at every step, where speed matters (the environment
  benchmark compares whole AEC steps with PettingZoo's connect four). It keeps what does not depend on the
  observer up to date incrementally and makes each observation with one numpy gather (its docstring says how).

Both return a fresh array per call, never a reused buffer: callers keep observations (replay buffers, tests).
"""

from __future__ import annotations

from array import array
from typing import Sequence

import numpy as np

from contack_env.envs.actions import NUM_CELL_SLOTS, ActionLayout, candidate_cells
from contack_env.contack.figure import POINTS, neighbour_count, split_code
from contack_env.contack.grid import CELL_SIDES, NUM_CELL_INDICES, OFFSET, SPAN, cell_index
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, ContackGame
from contack_env.contack.tiles import BLUE, GOLD, NUM_TILES, RED, TILE_VALUES, tiles_in

NUM_SEATS = MAX_PLAYERS
"""Relative seats every per-seat component has room for."""
NUM_SLOTS = HAND_SIZE
"""Hand slots (the action encoding's tile slots)."""
NUM_ACTIONS = NUM_SLOTS * NUM_CELL_SLOTS

# Grid bound (docs/rules.md section 2): every placed tile lies in -35 <= x <= 35, -17 <= y <= 17.
X_BOUND = 35
Y_BOUND = 17
SCORE_SCALE = 300.0
"""Running scores are divided by this and clipped to [-1, 1] (4-player random play ends between about -75
and 240)."""
POINTS_SCALE = 50.0  # the best placement scores 50 (docs/rules.md section 4)
VALUE_SCALE = 10.0  # tile values are 1..10

# -- per tile: 36 rows of TILE_FEATURES ------------------------------------------------------------------------
TILE_FEATURES = 12
T_HELD = 0  # 0..6: held by relative seat r (one-hot with T_FIGURE and T_UNSEEN)
T_FIGURE = 7  # on the figure
T_UNSEEN = 8  # in the pile (its place in the pile is never shown)
T_X = 9  # (x + 35) / 70 if on the figure, else 0
T_Y = 10  # (y + 17) / 34 if on the figure, else 0
T_LAST = 11  # the last-played tile

# -- per cell slot: NUM_CELL_SLOTS rows of CELL_FEATURES, in the action encoding's order -----------------------
CELL_FEATURES = 9
C_PRESENT = 0
C_X = 1  # (x + 35) / 70, clipped to [0, 1]: a candidate just outside the bound exists but is never legal
C_Y = 2  # (y + 17) / 34, clipped likewise
C_UP = 3  # the cell points up (its L shows gold and R red; a down cell the reverse; B is always blue)
C_NEIGHBOURS = 4  # placed neighbours / 3
C_FACING = 5  # 5, 6, 7: the value the placed neighbour across side L, R, B shows this cell, / 10; 0 if none
C_ADJ_LAST = 8  # the cell touches the last-played tile

# -- per hand slot: NUM_SLOTS rows of HAND_FEATURES (the observer's hand sorted by tile id) ---------------------
HAND_FEATURES = 5
H_PRESENT = 0
H_VALUES = 1  # 1, 2, 3: blue, red, gold values / 10
H_FORCED = 4  # the drawn tile that must be placed (docs/rules.md section 5.3)

# -- the blocks -------------------------------------------------------------------------------------------------
TILES_START = 0
TILES_END = TILES_START + NUM_TILES * TILE_FEATURES
CELLS_START = TILES_END
CELLS_END = CELLS_START + NUM_CELL_SLOTS * CELL_FEATURES
HAND_START = CELLS_END
HAND_END = HAND_START + NUM_SLOTS * HAND_FEATURES
POINTS_START = HAND_END  # per action: the points the placement scores / 50 if legal, else 0
POINTS_END = POINTS_START + NUM_ACTIONS
PILE = POINTS_END  # pile size / 36
HAND_PROGRESS = PILE + 1  # hand number (0-based) / number of hands
HANDS_LEFT = HAND_PROGRESS + 1  # hands still to play after this one / number of hands
LAST_HAND = HANDS_LEFT + 1  # this is the last hand
SCORES_START = LAST_HAND + 1  # per relative seat: running score / 300, clipped to [-1, 1]
SCORES_END = SCORES_START + NUM_SEATS
LEAD = SCORES_END  # observer's score minus the best other score, / 300, clipped to [-1, 1]
HAND_SIZES_START = LEAD + 1  # per relative seat: tiles held / 5
HAND_SIZES_END = HAND_SIZES_START + NUM_SEATS
PASSES = HAND_SIZES_END  # passes in a row so far / number of players
TO_MOVE_START = PASSES + 1  # one-hot: the relative seat to move (all 0 once the game is over)
TO_MOVE_END = TO_MOVE_START + NUM_SEATS
PLAYERS_START = TO_MOVE_END  # one-hot: number of players, 2..7
PLAYERS_END = PLAYERS_START + (MAX_PLAYERS - MIN_PLAYERS + 1)
ENCLOSED_START = PLAYERS_END  # one-hot: enclosed_end option, "1939", "next_player", "never"
ENCLOSED_END = ENCLOSED_START + len(ENCLOSED_END_OPTIONS)
OBS_SIZE = ENCLOSED_END

# The bounds of every component, for the Box space.
OBS_LOW = np.zeros(OBS_SIZE, dtype=np.float32)
OBS_LOW[SCORES_START : LEAD + 1] = -1.0
OBS_HIGH = np.ones(OBS_SIZE, dtype=np.float32)

# The colour shown on sides L, R, B of an up cell and of a down cell (docs/rules.md section 2, blue always on B).
_UP_COLOURS = (GOLD, RED, BLUE)
_DOWN_COLOURS = (RED, GOLD, BLUE)
_ENCLOSED_INDEX = {option: i for i, option in enumerate(ENCLOSED_END_OPTIONS)}


# Builder tables. _HAND_ROWS[t] is tile t's hand-slot row without the forced flag.
_HAND_ROW_ARRAYS = [array("f", [1.0, *(v / VALUE_SCALE for v in TILE_VALUES[t]), 0.0]) for t in range(NUM_TILES)]
# Across side L, R, B of a cell lies its neighbour's side R, L, B.
_FACING_SIDE = (1, 0, 2)


def _px(x: int) -> float:
    return min(max((x + X_BOUND) / (2 * X_BOUND), 0.0), 1.0)


def _py(y: int) -> float:
    return min(max((y + Y_BOUND) / (2 * Y_BOUND), 0.0), 1.0)


# The tile ids of every 12-bit slice of a 36-bit tile mask, by slice value, for ``hand_tiles``.
_SLICE_TILES = tuple(
    tuple(tuple(offset + b for b in range(12) if value >> b & 1) for value in range(1 << 12)) for offset in (0, 12, 24)
)


def hand_tiles(mask: int) -> list[int]:
    """The tile ids in the 36-bit ``mask``, ascending (``tiles.tiles_in``, by table lookup: on the hot path)."""
    low, mid, high = _SLICE_TILES
    return [*low[mask & 4095], *mid[mask >> 12 & 4095], *high[mask >> 24]]


def observation_vector(game: ContackGame, observer: int, with_actions: bool = True) -> np.ndarray:
    """The float32 observation of ``game`` from seat ``observer``'s point of view, built from scratch.

    The reference implementation: plain loops over the state, written for clarity (the environment uses the
    faster ``ObservationBuilder``, and the tests check that the two agree). The points block is filled when
    ``observer`` is the seat to move (and ``with_actions``); otherwise it is 0, as that seat has no legal action.
    Works for any state, including ``ContackGame.from_position``.
    """
    n = game.num_players
    if not 0 <= observer < n:
        raise ValueError(f"observer is a seat, 0..{n - 1}; got {observer!r}")
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    figure = game.figure
    placed = figure.placed
    last = figure.last
    to_move = None if game.done else game.current_player

    def relative(seat: int) -> int:
        return (seat - observer) % n

    tiles = obs[TILES_START:TILES_END].reshape(NUM_TILES, TILE_FEATURES)
    for t in range(NUM_TILES):
        tiles[t, T_UNSEEN] = 1.0
    for seat in range(n):
        for t in tiles_in(game.hands[seat]):
            tiles[t, T_UNSEEN] = 0.0
            tiles[t, T_HELD + relative(seat)] = 1.0
    for cell, t in placed.items():
        x, y = cell // SPAN - OFFSET, cell % SPAN - OFFSET
        tiles[t, T_UNSEEN] = 0.0
        tiles[t, T_FIGURE] = 1.0
        tiles[t, T_X] = _px(x)
        tiles[t, T_Y] = _py(y)
        tiles[t, T_LAST] = 1.0 if cell == last else 0.0

    cells = candidate_cells(figure)
    block = obs[CELLS_START:CELLS_END].reshape(NUM_CELL_SLOTS, CELL_FEATURES)
    for k, cell in enumerate(cells):
        if cell is None:
            continue
        x, y = cell // SPAN - OFFSET, cell % SPAN - OFFSET
        up = (x + y) % 2 == 0
        colours = _UP_COLOURS if up else _DOWN_COLOURS
        block[k, C_PRESENT] = 1.0
        block[k, C_X] = _px(x)
        block[k, C_Y] = _py(y)
        block[k, C_UP] = 1.0 if up else 0.0
        block[k, C_NEIGHBOURS] = figure.placed_neighbours(cell) / 3.0
        for side, (neighbour, _) in enumerate(CELL_SIDES[cell]):
            if neighbour in placed:
                block[k, C_FACING + side] = TILE_VALUES[placed[neighbour]][colours[side]] / VALUE_SCALE
                if neighbour == last:
                    block[k, C_ADJ_LAST] = 1.0

    own = tiles_in(game.hands[observer])
    hand = obs[HAND_START:HAND_END].reshape(NUM_SLOTS, HAND_FEATURES)
    for slot, t in enumerate(own):
        hand[slot, H_PRESENT] = 1.0
        for colour in range(3):
            hand[slot, H_VALUES + colour] = TILE_VALUES[t][colour] / VALUE_SCALE
        if observer == to_move and t == game.forced_tile:
            hand[slot, H_FORCED] = 1.0

    if with_actions and observer == to_move:
        layout = ActionLayout(NUM_SLOTS, own, figure)
        for move in game.legal_moves():
            action = layout.encode(move)
            obs[POINTS_START + action] = figure.points_for(move.tile, cell_index(move.x, move.y)) / POINTS_SCALE

    obs[PILE] = game.pile_size / NUM_TILES
    obs[HAND_PROGRESS] = game.hand_number / game.num_hands
    obs[HANDS_LEFT] = (game.num_hands - 1 - game.hand_number) / game.num_hands
    obs[LAST_HAND] = float(game.hand_number == game.num_hands - 1)
    for seat in range(n):
        r = relative(seat)
        obs[SCORES_START + r] = np.clip(game.scores[seat] / SCORE_SCALE, -1.0, 1.0)
        obs[HAND_SIZES_START + r] = len(tiles_in(game.hands[seat])) / HAND_SIZE
    best_other = max(game.scores[seat] for seat in range(n) if seat != observer)
    obs[LEAD] = np.clip((game.scores[observer] - best_other) / SCORE_SCALE, -1.0, 1.0)
    obs[PASSES] = game.passes / n
    if to_move is not None:
        obs[TO_MOVE_START + relative(to_move)] = 1.0
    obs[PLAYERS_START + n - MIN_PLAYERS] = 1.0
    obs[ENCLOSED_START + ENCLOSED_END_OPTIONS.index(game.enclosed_end)] = 1.0
    return obs


def _static_cell_row(cell: int) -> array:
    # The features of an empty cell that never change: present, position, orientation.
    x, y = cell // SPAN - OFFSET, cell % SPAN - OFFSET
    row = array("f", bytes(4 * CELL_FEATURES))
    row[C_PRESENT] = 1.0
    row[C_X] = _px(x)
    row[C_Y] = _py(y)
    row[C_UP] = 1.0 if (x + y) % 2 == 0 else 0.0
    return row


# Per engine cell index: the (px, py) of a tile there, and an empty cell's static row (filled on first use).
_CELL_PXY = [(_px(c // SPAN - OFFSET), _py(c % SPAN - OFFSET)) for c in range(NUM_CELL_INDICES)]
_STATIC_ROWS: dict[int, array] = {}
# Per engine cell index, for sides L, R, B: (neighbour, index in the neighbour's row of the value it is shown
# across that side, colour of the side).
_TOUCHES = [
    tuple((n, C_FACING + _FACING_SIDE[side], colour) for side, (n, colour) in enumerate(CELL_SIDES[c]))
    for c in range(NUM_CELL_INDICES)
]
# _SHOWN[colour][t]: the value tile t shows on its `colour` side, / 10.
_SHOWN = tuple(tuple(TILE_VALUES[t][colour] / VALUE_SCALE for t in range(NUM_TILES)) for colour in range(3))
_THIRDS = (0.0, 1 / 3, 2 / 3, 1.0)
# The builder's tile table: per tile, held by absolute seat 0..6, then T_FIGURE .. T_LAST, then a zero column;
# its scratch vector follows it, at offset _S.
_TABLE_WIDTH = TILE_FEATURES + 1
_ZERO_COLUMN = TILE_FEATURES
_TILE_TABLE_SIZE = NUM_TILES * _TABLE_WIDTH
_S = _TILE_TABLE_SIZE
_FRESH_TILE_TABLE = array("f", bytes(4 * _TILE_TABLE_SIZE))
for _t in range(NUM_TILES):
    _FRESH_TILE_TABLE[_t * _TABLE_WIDTH + T_UNSEEN] = 1.0
_ZERO_OBS = array("f", bytes(4 * OBS_SIZE))
_ZERO_CELLS_AND_HAND = array("f", bytes(4 * (HAND_END - CELLS_START)))


def _clip(v: float) -> float:
    return v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0)


class ObservationBuilder:
    """Fast observations of one game, for any observer: what the environment uses at every step.

    Numpy pays about a microsecond per call and a tenth of one per scalar write, and an observation has a few
    hundred values of which only a few dozen change from one decision to the next. So the builder keeps one
    float32 ``array.array`` (whose element and slice writes cost a fraction of numpy's) that holds everything an
    observation is made of, and an observation is a single numpy gather from it (``take``, a fresh array):

    - a tile table, one row per tile: one column per *absolute* seat, then the figure, unseen, position and
      last-played columns, and a column of zeros. It is kept up to date incrementally: a draw moves a tile to
      its drawer, a placement moves its tile to the figure. The gather reads it in the observer's column order
      (relative seats; seats a small table lacks read the zero column).
    - a *scratch* vector laid out as the observation: the per-hand constants stay in it; the observer's part
      (candidate-cell rows in slot order, own hand, action points, per-seat values) is written into it before
      the gather and cleared after.

    Candidate-cell rows are kept per engine cell index: a placement updates the rows of its (at most three)
    empty neighbours. A new hand (the engine makes a new ``Figure`` per deal) starts everything again.
    """

    def __init__(self, game: ContackGame) -> None:
        self._src = array("f", bytes(4 * (_TILE_TABLE_SIZE + OBS_SIZE)))
        self._view = np.frombuffer(self._src, dtype=np.float32)
        self._num_players = 0
        self.attach(game)

    def attach(self, game: ContackGame) -> None:
        """Follow ``game`` from now on (an environment reuses its builder across episodes)."""
        self.game = game
        n = game.num_players
        if n != self._num_players:
            self._num_players = n
            self._to_move = [[_S + TO_MOVE_START + (s - observer) % n for s in range(n)] for observer in range(n)]
            # One gather index per observer: the tile block from the tile table (relative seat r reads absolute
            # seat (observer + r) % n, relative seats n..6 the zero column), the rest from the scratch vector.
            rest = list(range(_S + TILES_END, _S + OBS_SIZE))
            self._gather = []
            for observer in range(n):
                order = [(observer + r) % n for r in range(n)]
                columns = order + [_ZERO_COLUMN] * (NUM_SEATS - n) + list(range(T_FIGURE, TILE_FEATURES))
                tiles = [t * _TABLE_WIDTH + c for t in range(NUM_TILES) for c in columns]
                self._gather.append(np.array(tiles + rest, dtype=np.intp))
        src = self._src
        src[_S:] = _ZERO_OBS
        src[_S + PLAYERS_START + n - MIN_PLAYERS] = 1.0
        src[_S + ENCLOSED_START + _ENCLOSED_INDEX[game.enclosed_end]] = 1.0
        self._figure = None
        self._scores_seen = [0] * n  # scores of 0 leave the score components at 0
        self._score_array = array("f", bytes(8 * n))
        self._any_score = False

    def _sync(self) -> None:
        game = self.game
        figure = game.figure
        placed = figure.placed
        src = self._src
        if figure is not self._figure or len(placed) < self._count:  # a new hand: start again
            self._restart()
        if game.pile_pos != self._pile_pos:
            # Within a hand tiles only go from the pile to a hand (a draw) and from a hand to the figure.
            hands = game.hands
            holder = self._holder
            sizes = self._sizes
            n = game.num_players
            for t in game.decks[game.hand_number][self._pile_pos : game.pile_pos]:
                src[t * _TABLE_WIDTH + T_UNSEEN] = 0.0
                for seat, mask in enumerate(hands):
                    if mask >> t & 1:
                        src[t * _TABLE_WIDTH + seat] = 1.0
                        holder[t] = seat
                        sizes[seat] = sizes[seat + n] = mask.bit_count() / HAND_SIZE
                        break
            self._pile_pos = game.pile_pos
        count = len(placed)
        if count != self._count:
            last = figure.last
            if count == self._count + 1 and last is not None:  # the usual step: one placement, the last
                self._add(last, placed[last])
            else:
                for cell, tile in list(placed.items())[self._count :]:
                    self._add(cell, tile)
            self._count = count
        if figure.last != self._last:
            self._move_last(figure.last)
        if game.scores != self._scores_seen:
            self._score_values()

    def _restart(self) -> None:
        game = self.game
        n = game.num_players
        src = self._src
        num_hands = game.num_hands
        hand_number = game.hand_number
        src[_S + HAND_PROGRESS] = hand_number / num_hands
        src[_S + HANDS_LEFT] = (num_hands - 1 - hand_number) / num_hands
        src[_S + LAST_HAND] = 1.0 if hand_number == num_hands - 1 else 0.0
        src[:_TILE_TABLE_SIZE] = _FRESH_TILE_TABLE
        holder = self._holder = [-1] * NUM_TILES
        sizes = self._sizes = array("f", bytes(8 * n))
        for seat, mask in enumerate(game.hands):
            sizes[seat] = sizes[seat + n] = mask.bit_count() / HAND_SIZE
            for t in hand_tiles(mask):
                src[t * _TABLE_WIDTH + seat] = 1.0
                src[t * _TABLE_WIDTH + T_UNSEEN] = 0.0
                holder[t] = seat
        self._pile_pos = game.pile_pos
        self._rows: dict[int, array] = {}
        self._figure = game.figure
        self._count = 0
        self._last = None

    def _add(self, cell: int, tile: int) -> None:
        """A tile placed on ``cell``: it leaves its holder's hand, and its empty neighbours see it."""
        figure = self._figure
        placed = figure.placed
        src = self._src
        base = tile * _TABLE_WIDTH
        seat = self._holder[tile]
        if seat >= 0:  # (a from_position figure's tiles were never held)
            src[base + seat] = 0.0
            self._holder[tile] = -1
            n = self._num_players
            self._sizes[seat] = self._sizes[seat + n] = self.game.hands[seat].bit_count() / HAND_SIZE
        src[base + T_FIGURE] = 1.0
        src[base + T_UNSEEN] = 0.0
        src[base + T_X], src[base + T_Y] = _CELL_PXY[cell]
        rows = self._rows
        frontier = figure.frontier
        for neighbour, facing, colour in _TOUCHES[cell]:
            if neighbour in placed:
                continue
            row = rows.get(neighbour)
            if row is None:
                static = _STATIC_ROWS.get(neighbour)
                if static is None:
                    static = _STATIC_ROWS[neighbour] = _static_cell_row(neighbour)
                row = rows[neighbour] = array("f", static)
            row[C_NEIGHBOURS] = _THIRDS[neighbour_count(frontier[neighbour])]
            row[facing] = _SHOWN[colour][tile]

    def _move_last(self, last: int | None) -> None:
        # Only the tile table's flag: whether a candidate cell touches the last-played tile is read at
        # observation time (cell slots 0..2 always do; a hole does if it is one of the last tile's neighbours).
        placed = self._figure.placed
        src = self._src
        if self._last is not None:
            src[placed[self._last] * _TABLE_WIDTH + T_LAST] = 0.0
        if last is not None:
            src[placed[last] * _TABLE_WIDTH + T_LAST] = 1.0
        self._last = last

    def _score_values(self) -> None:
        # Clipped scores, twice over (the observer's relative order is then one slice).
        scores = self.game.scores
        seen = self._scores_seen
        n = len(scores)
        clipped = self._score_array
        for seat in range(n):
            score = scores[seat]
            if score != seen[seat]:
                v = score / SCORE_SCALE
                clipped[seat] = clipped[seat + n] = v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0)
        # Each seat's lead (its score minus the best other score, clipped) changes only with the scores: worked
        # out here for every seat rather than at every observation.
        lead = self._lead = []
        for seat in range(n):
            v = (scores[seat] - max(scores[:seat] + scores[seat + 1 :])) / SCORE_SCALE
            lead.append(v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0))
        self._scores_seen = scores[:]
        self._any_score = True

    def observe(
        self, observer: int, cells: list[int | None] | None = None, codes: Sequence[int] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The observation of seat ``observer`` and its int8 action mask.

        ``cells`` is ``actions.candidate_cells(figure)`` if the caller has it (else it is computed). For the
        seat to move, pass the legal move ``codes``: the mask and the points block are filled from them, with
        the action encoding of ``actions`` (slot = index in the hand sorted by tile id, cell slot = index in
        ``cells``). For any other seat, or without ``codes``, the mask and the points block are 0.
        """
        game = self.game
        n = game.num_players
        if not 0 <= observer < n:
            raise ValueError(f"observer is a seat, 0..{n - 1}; got {observer!r}")
        self._sync()
        figure = game.figure
        src = self._src
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

        # Candidate cells: slots 0..2, then the holes (contiguous); the slots after them are empty.
        if cells is None:
            cells = candidate_cells(figure)
        rows = self._rows
        base = _S + CELLS_START
        for cell in cells[:3]:  # the free sides of the last-played tile
            if cell is not None:
                src[base : base + CELL_FEATURES] = rows[cell]
                src[base + C_ADJ_LAST] = 1.0
            base += CELL_FEATURES
        holes = len(figure.holes)
        if holes:
            # The last-played tile's three neighbours, unpacked (no list to build and search per hole).
            (side_l, _), (side_r, _), (side_b, _) = CELL_SIDES[figure.last]
            for cell in cells[3 : 3 + holes]:
                src[base : base + CELL_FEATURES] = rows[cell]
                if cell == side_l or cell == side_r or cell == side_b:
                    src[base + C_ADJ_LAST] = 1.0
                base += CELL_FEATURES

        own = hand_tiles(game.hands[observer])
        base = _S + HAND_START
        for t in own:
            src[base : base + HAND_FEATURES] = _HAND_ROW_ARRAYS[t]
            base += HAND_FEATURES

        to_move = None
        points_at: list[int] = []
        if not game.done:
            to_move = self._to_move[observer][game.current_player]
            src[to_move] = 1.0
            if observer == game.current_player:
                forced = game.forced_tile
                if forced is not None:
                    src[_S + HAND_START + own.index(forced) * HAND_FEATURES + H_FORCED] = 1.0
                if codes is not None:
                    tile_at = figure.placed.get
                    slot_tile = -1
                    slot_base = 0
                    for code in codes:
                        tile, cell = split_code(code)
                        if tile != slot_tile:  # legal codes come sorted by tile: one hand-slot search per tile
                            slot_tile = tile
                            slot_base = own.index(tile) * NUM_CELL_SLOTS
                        action = slot_base + cells.index(cell)
                        mask[action] = 1
                        # The points of the contacts with the placed neighbours (sides unrolled: no loop).
                        (n_l, c_l), (n_r, c_r), (n_b, c_b) = CELL_SIDES[cell]
                        points = 0
                        other = tile_at(n_l)
                        if other is not None:
                            points += POINTS[c_l][tile][other]
                        other = tile_at(n_r)
                        if other is not None:
                            points += POINTS[c_r][tile][other]
                        other = tile_at(n_b)
                        if other is not None:
                            points += POINTS[c_b][tile][other]
                        if points:
                            src[_S + POINTS_START + action] = points / POINTS_SCALE
                            points_at.append(_S + POINTS_START + action)

        src[_S + HAND_SIZES_START : _S + HAND_SIZES_START + n] = self._sizes[observer : observer + n]
        if self._any_score:
            src[_S + SCORES_START : _S + SCORES_START + n] = self._score_array[observer : observer + n]
            src[_S + LEAD] = self._lead[observer]
        src[_S + PILE] = (NUM_TILES - game.pile_pos) / NUM_TILES  # game.pile_size, without the property call
        src[_S + PASSES] = game.passes / n

        obs = self._view.take(self._gather[observer])

        # Clear the observer's part of the scratch vector (the per-seat values and scalars are overwritten).
        src[_S + CELLS_START : _S + HAND_END] = _ZERO_CELLS_AND_HAND
        if to_move is not None:
            src[to_move] = 0.0
        for i in points_at:
            src[i] = 0.0
        return obs, mask
