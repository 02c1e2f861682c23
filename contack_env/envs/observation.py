"""The observation vector of the multiplayer game (``contack_v0``), seen by one seat.

Everything is public information (every hand is face up, docs/rules.md section 5.1) except the order of the
pile, which no component reveals: a tile in the pile is only "unseen". Seats are relative to the observer:
relative seat 0 is the observer, 1 the next seat to play after them (to their left), and so on; components for
relative seats n .. 6 that a game of n players does not have stay 0, so one vector layout serves 2 to 7 players.

``LAYOUT`` declares the vector, piece by piece (``contack_env.envs.layout``): every index below, the network's
per-action gathers (``training.networks``) and the table of the ``contack_v0`` card come from it.

Two implementations, which the tests check against each other at every decision of many games, for every seat:

- ``observation_vector(game, seat)``: the reference, plain loops over any state, written to be read.
- ``ObservationBuilder``: what the environment uses at every step, where speed matters (the environment
  benchmark compares whole AEC steps with PettingZoo's connect four). It keeps what does not depend on the
  observer up to date incrementally and makes each observation with one numpy gather (its docstring says how).

Both return a fresh array per call, never a reused buffer: callers keep observations (replay buffers, tests).
"""

from __future__ import annotations

from array import array
from typing import Any, Sequence

import numpy as np

from contack_env.contack.figure import CELL_MASK, POINTS, TILE_SHIFT, neighbour_count
from contack_env.contack.grid import CELL_SIDES, NUM_CELL_INDICES
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, ContackGame
from contack_env.contack.tiles import NUM_TILES, tiles_in
from contack_env.envs.actions import NUM_CELL_SLOTS, ActionLayout, candidate_cells
from contack_env.envs.conventions import MASK_DTYPE, copy_attributes
from contack_env.envs.figure_features import (
    CELL_COLUMNS,
    CELL_PXY,
    CELLS,
    LAST_PLAYED,
    NEIGHBOUR_VALUES,
    ON_FIGURE,
    POINTS_SCALE,
    SHOWN,
    SLOT_PRESENT,
    SLOT_VALUES,
    TILE_VALUE_ROWS,
    TILE_X,
    TILE_Y,
    fill_cell_rows,
    fill_figure_columns,
    static_cell_row,
)
from contack_env.envs.layout import Column, Columns, ObservationLayout, Piece

NUM_SEATS = MAX_PLAYERS
"""Relative seats every per-seat component has room for."""
NUM_SLOTS = HAND_SIZE
"""Hand slots (the action encoding's tile slots)."""
NUM_ACTIONS = NUM_SLOTS * NUM_CELL_SLOTS
SCORE_SCALE = 300.0
"""Running scores (and the lead) are divided by this and clipped to [-1, 1] (4-player random play ends between
about -75 and 240)."""

TILE_COLUMNS = Columns(
    Column("held", "held by relative seat 0..6", NUM_SEATS),
    ON_FIGURE,
    Column("unseen", "unseen (in the pile; with the two before, one-hot)"),
    TILE_X,
    TILE_Y,
    LAST_PLAYED,
)
HAND_COLUMNS = Columns(SLOT_PRESENT, SLOT_VALUES, Column("forced", "the drawn tile that must be placed"))

LAYOUT = ObservationLayout(
    [
        Piece("tiles", (NUM_TILES, TILE_COLUMNS.width), "per tile, in tile id order:", columns=TILE_COLUMNS),
        CELLS,
        Piece(
            "hand",
            (NUM_SLOTS, HAND_COLUMNS.width),
            "per hand slot (the observer's tiles sorted by tile id, as the action encoding's slots):",
            columns=HAND_COLUMNS,
        ),
        Piece("points", (NUM_ACTIONS,), "per action: the points the placement scores / {scale:g} if it is legal, else 0", POINTS_SCALE),
        Piece("pile", (), "pile size / {scale:g}", float(NUM_TILES)),
        Piece("hand_number", (), "hand number (0-based) / number of hands"),
        Piece("hands_left", (), "hands still to play after this one / number of hands"),
        Piece("last_hand", (), "1 in the last hand"),
        Piece("scores", (NUM_SEATS,), "running score (penalties included) per relative seat / {scale:g}, clipped to [-1, 1]", SCORE_SCALE, low=-1.0),
        Piece("lead", (), "observer's score minus the best other score, / {scale:g}, clipped to [-1, 1]", SCORE_SCALE, low=-1.0),
        Piece("hand_sizes", (NUM_SEATS,), "tiles held per relative seat / {scale:g}", float(HAND_SIZE)),
        Piece("passes", (), "passes in a row so far / number of players"),
        Piece("to_move", (NUM_SEATS,), "one-hot: the relative seat to move (all 0 once the game is over)"),
        Piece("players", (MAX_PLAYERS - MIN_PLAYERS + 1,), f"one-hot: number of players, {MIN_PLAYERS}..{MAX_PLAYERS}"),
        Piece("enclosed_end", (len(ENCLOSED_END_OPTIONS),), "one-hot: `enclosed_end`, in the order " + ", ".join(f'"{o}"' for o in ENCLOSED_END_OPTIONS)),
    ]
)
"""The multiplayer observation, piece by piece (the table of the ``contack_v0`` card)."""
OBS_SIZE = LAYOUT.size
OBS_LOW = LAYOUT.low
"""The bounds of every component, for the Box space: -1 for the score components, else 0."""
OBS_HIGH = LAYOUT.high


def action_feature_index(extra: bool = False) -> np.ndarray:
    """``(NUM_ACTIONS, 15)`` indices into the observation: row ``a`` gathers action ``a``'s own features, the
    tile's 5 ``hand`` values (its slot ``a // NUM_CELL_SLOTS``), the cell's 9 ``cells`` values (its cell slot
    ``a % NUM_CELL_SLOTS``) and the ``points`` the placement scores; with ``extra``, a 16th: the action's value
    among the ``NUM_ACTIONS`` appended to the observation (``agents.features``). The networks that score every
    action alike read their input through it (``training.networks``, ``agents.az``)."""
    hand, cells, points = (LAYOUT.indices(name) for name in ("hand", "cells", "points"))
    rows = []
    for a in range(NUM_ACTIONS):
        slot, cell = divmod(a, NUM_CELL_SLOTS)
        rows.append([*hand[slot], *cells[cell], points[a], *([OBS_SIZE + a] if extra else [])])
    return np.array(rows, dtype=np.int64)


_ENCLOSED_INDEX = {option: i for i, option in enumerate(ENCLOSED_END_OPTIONS)}


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
    to_move = None if game.done else game.current_player

    def relative(seat: int) -> int:
        return (seat - observer) % n

    tiles = LAYOUT.view(obs, "tiles")
    tiles[:, TILE_COLUMNS["unseen"]] = 1.0
    for seat in range(n):
        for t in tiles_in(game.hands[seat]):
            tiles[t, TILE_COLUMNS["unseen"]] = 0.0
            tiles[t, TILE_COLUMNS["held"] + relative(seat)] = 1.0
    tiles[list(figure.placed.values()), TILE_COLUMNS["unseen"]] = 0.0
    fill_figure_columns(tiles, figure, TILE_COLUMNS)

    fill_cell_rows(LAYOUT.view(obs, "cells"), figure, candidate_cells(figure))

    own = tiles_in(game.hands[observer])
    hand = LAYOUT.view(obs, "hand")
    for slot, t in enumerate(own):
        hand[slot, HAND_COLUMNS["present"]] = 1.0
        hand[slot, HAND_COLUMNS.span("values")] = TILE_VALUE_ROWS[t]
        if observer == to_move and t == game.forced_tile:
            hand[slot, HAND_COLUMNS["forced"]] = 1.0

    if with_actions and observer == to_move:
        layout = ActionLayout(NUM_SLOTS, own, figure)
        points = LAYOUT.view(obs, "points")
        for code in game.legal_codes():  # (codes, not Moves: this runs for every legal move of every observation)
            points[layout.encode_code(code)] = figure.points_for(code >> TILE_SHIFT, code & CELL_MASK) / POINTS_SCALE

    obs[LAYOUT.start("pile")] = game.pile_size / NUM_TILES
    obs[LAYOUT.start("hand_number")] = game.hand_number / game.num_hands
    obs[LAYOUT.start("hands_left")] = (game.num_hands - 1 - game.hand_number) / game.num_hands
    obs[LAYOUT.start("last_hand")] = float(game.hand_number == game.num_hands - 1)
    scores, sizes = LAYOUT.view(obs, "scores"), LAYOUT.view(obs, "hand_sizes")
    for seat in range(n):
        scores[relative(seat)] = np.clip(game.scores[seat] / SCORE_SCALE, -1.0, 1.0)
        sizes[relative(seat)] = len(tiles_in(game.hands[seat])) / HAND_SIZE
    best_other = max(game.scores[seat] for seat in range(n) if seat != observer)
    obs[LAYOUT.start("lead")] = np.clip((game.scores[observer] - best_other) / SCORE_SCALE, -1.0, 1.0)
    obs[LAYOUT.start("passes")] = game.passes / n
    if to_move is not None:
        LAYOUT.view(obs, "to_move")[relative(to_move)] = 1.0
    LAYOUT.view(obs, "players")[n - MIN_PLAYERS] = 1.0
    LAYOUT.view(obs, "enclosed_end")[_ENCLOSED_INDEX[game.enclosed_end]] = 1.0
    return obs


# -- the builder's tables, from the layout -------------------------------------------------------------------------
# Plain ints (module globals read faster than layout lookups on the hot path).
_TILES_END = LAYOUT.end("tiles")
_CELLS_START, _CELL_WIDTH = LAYOUT.start("cells"), CELL_COLUMNS.width
_HAND_START, _HAND_END, _HAND_WIDTH = LAYOUT.start("hand"), LAYOUT.end("hand"), HAND_COLUMNS.width
_POINTS_START = LAYOUT.start("points")
_PILE, _HAND_NUMBER, _HANDS_LEFT, _LAST_HAND, _SCORES, _LEAD, _HAND_SIZES, _PASSES, _TO_MOVE, _PLAYERS, _ENCLOSED = (
    LAYOUT.start(name)
    for name in (
        "pile", "hand_number", "hands_left", "last_hand", "scores", "lead", "hand_sizes", "passes", "to_move",
        "players", "enclosed_end",
    )
)
_T_FIGURE, _T_UNSEEN, _T_X, _T_Y, _T_LAST = (TILE_COLUMNS[name] for name in ("figure", "unseen", "x", "y", "last"))
# The builder's tile table puts absolute seat s in column s: "held" is the first column (a test pins it).
_C_NEIGHBOURS, _C_FACING, _C_BESIDE_LAST = (CELL_COLUMNS[name] for name in ("neighbours", "facing", "beside_last"))
_H_FORCED = HAND_COLUMNS["forced"]
# _HAND_ROW_ARRAYS[t] is tile t's hand-slot row without the forced flag.
_HAND_ROW_ARRAYS = [array("f", [1.0, *TILE_VALUE_ROWS[t], 0.0]) for t in range(NUM_TILES)]
# Per engine cell index, for sides L, R, B: (neighbour, index in the neighbour's row of the value it is shown
# across that side, colour of the side). Across side L, R, B of a cell lies its neighbour's side R, L, B.
_FACING_SIDE = (1, 0, 2)
_TOUCHES = [
    tuple((n, _C_FACING + _FACING_SIDE[side], colour) for side, (n, colour) in enumerate(CELL_SIDES[c]))
    for c in range(NUM_CELL_INDICES)
]
# The builder's tile table: per tile, held by absolute seat 0..6, then the figure .. last columns, then a zero
# column; its scratch vector follows it, at offset _S.
_TABLE_WIDTH = TILE_COLUMNS.width + 1
_ZERO_COLUMN = TILE_COLUMNS.width
_TILE_TABLE_SIZE = NUM_TILES * _TABLE_WIDTH
_S = _TILE_TABLE_SIZE
_FRESH_TILE_TABLE = array("f", bytes(4 * _TILE_TABLE_SIZE))
for _t in range(NUM_TILES):
    _FRESH_TILE_TABLE[_t * _TABLE_WIDTH + _T_UNSEEN] = 1.0
_ZERO_OBS = array("f", bytes(4 * OBS_SIZE))
_ZERO_CELLS_AND_HAND = array("f", bytes(4 * (_HAND_END - _CELLS_START)))


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

    def __deepcopy__(self, memo: dict[int, Any]) -> "ObservationBuilder":
        # A copied numpy view would be an array of its own, cut off from the copied buffer it must gather from.
        other = copy_attributes(self, memo, skip=("_view",))
        other._view = np.frombuffer(other._src, dtype=np.float32)
        return other

    def attach(self, game: ContackGame) -> None:
        """Follow ``game`` from now on (an environment reuses its builder across episodes)."""
        self.game = game
        n = game.num_players
        if n != self._num_players:
            self._num_players = n
            self._to_move = [[_S + _TO_MOVE + (s - observer) % n for s in range(n)] for observer in range(n)]
            # One gather index per observer: the tile block from the tile table (relative seat r reads absolute
            # seat (observer + r) % n, relative seats n..6 the zero column), the rest from the scratch vector.
            rest = list(range(_S + _TILES_END, _S + OBS_SIZE))
            self._gather = []
            for observer in range(n):
                order = [(observer + r) % n for r in range(n)]
                columns = order + [_ZERO_COLUMN] * (NUM_SEATS - n) + list(range(_T_FIGURE, TILE_COLUMNS.width))
                tiles = [t * _TABLE_WIDTH + c for t in range(NUM_TILES) for c in columns]
                self._gather.append(np.array(tiles + rest, dtype=np.intp))
        src = self._src
        src[_S:] = _ZERO_OBS
        src[_S + _PLAYERS + n - MIN_PLAYERS] = 1.0
        src[_S + _ENCLOSED + _ENCLOSED_INDEX[game.enclosed_end]] = 1.0
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
                src[t * _TABLE_WIDTH + _T_UNSEEN] = 0.0
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
        src[_S + _HAND_NUMBER] = hand_number / num_hands
        src[_S + _HANDS_LEFT] = (num_hands - 1 - hand_number) / num_hands
        src[_S + _LAST_HAND] = 1.0 if hand_number == num_hands - 1 else 0.0
        src[:_TILE_TABLE_SIZE] = _FRESH_TILE_TABLE
        holder = self._holder = [-1] * NUM_TILES
        sizes = self._sizes = array("f", bytes(8 * n))
        for seat, mask in enumerate(game.hands):
            sizes[seat] = sizes[seat + n] = mask.bit_count() / HAND_SIZE
            for t in hand_tiles(mask):
                src[t * _TABLE_WIDTH + seat] = 1.0
                src[t * _TABLE_WIDTH + _T_UNSEEN] = 0.0
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
        src[base + _T_FIGURE] = 1.0
        src[base + _T_UNSEEN] = 0.0
        src[base + _T_X], src[base + _T_Y] = CELL_PXY[cell]
        # Each empty neighbour's row gains a placed neighbour and the value shown across the shared side: the
        # change ``cell_row`` would make, applied in place (a row is made when its cell first touches a tile).
        rows = self._rows
        frontier = figure.frontier
        for neighbour, facing, colour in _TOUCHES[cell]:
            if neighbour in placed:
                continue
            row = rows.get(neighbour)
            if row is None:
                row = rows[neighbour] = array("f", static_cell_row(neighbour))
            row[_C_NEIGHBOURS] = NEIGHBOUR_VALUES[neighbour_count(frontier[neighbour])]
            row[facing] = SHOWN[colour][tile]

    def _move_last(self, last: int | None) -> None:
        # Only the tile table's flag: whether a candidate cell touches the last-played tile is read at
        # observation time (cell slots 0..2 always do; a hole does if it is one of the last tile's neighbours).
        placed = self._figure.placed
        src = self._src
        if self._last is not None:
            src[placed[self._last] * _TABLE_WIDTH + _T_LAST] = 0.0
        if last is not None:
            src[placed[last] * _TABLE_WIDTH + _T_LAST] = 1.0
        self._last = last

    def _score_values(self) -> None:
        # Clipped scores, twice over (the observer's relative order is then one slice), and the two best scores,
        # from which ``observe`` works out the observer's lead (its score minus the best other score).
        scores = self.game.scores
        seen = self._scores_seen
        n = len(scores)
        clipped = self._score_array
        for seat in range(n):
            score = scores[seat]
            if score != seen[seat]:
                v = score / SCORE_SCALE
                clipped[seat] = clipped[seat + n] = v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0)
        ranked = sorted(scores)
        self._best, self._second = ranked[-1], ranked[-2]  # equal when two seats share the best score
        self._scores_seen = scores[:]
        self._any_score = True

    def observe(
        self,
        observer: int,
        cells: list[int | None] | None = None,
        codes: Sequence[int] | None = None,
        hand: list[int] | None = None,
        over: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The observation of seat ``observer`` and its int8 action mask.

        ``cells`` is ``actions.candidate_cells(figure)`` and ``hand`` ``hand_tiles`` of the observer's hand if
        the caller has them (else they are computed). For the seat to move, pass the legal move ``codes``: the
        mask and the points block are filled from them, with the action encoding of ``actions`` (slot = index in
        the hand sorted by tile id, cell slot = index in ``cells``). For any other seat, or without ``codes``,
        the mask and the points block are 0. ``over``: observe as at the game's end (no seat to move, the mask 0)
        although the engine's game goes on, as after an illegal action the environment ended it with.
        """
        game = self.game
        n = game.num_players
        if not 0 <= observer < n:
            raise ValueError(f"observer is a seat, 0..{n - 1}; got {observer!r}")
        self._sync()
        figure = game.figure
        src = self._src
        mask = np.zeros(NUM_ACTIONS, dtype=MASK_DTYPE)

        # Candidate cells: slots 0..2, then the holes (contiguous); the slots after them are empty.
        if cells is None:
            cells = candidate_cells(figure)
        rows = self._rows
        base = _S + _CELLS_START
        for cell in cells[:3]:  # the free sides of the last-played tile
            if cell is not None:
                src[base : base + _CELL_WIDTH] = rows[cell]
                src[base + _C_BESIDE_LAST] = 1.0
            base += _CELL_WIDTH
        holes = len(figure.holes)
        if holes:
            # The last-played tile's three neighbours, unpacked (no list to build and search per hole).
            (side_l, _), (side_r, _), (side_b, _) = CELL_SIDES[figure.last]
            for cell in cells[3 : 3 + holes]:
                src[base : base + _CELL_WIDTH] = rows[cell]
                if cell == side_l or cell == side_r or cell == side_b:
                    src[base + _C_BESIDE_LAST] = 1.0
                base += _CELL_WIDTH

        own = hand_tiles(game.hands[observer]) if hand is None else hand
        base = _S + _HAND_START
        for t in own:
            src[base : base + _HAND_WIDTH] = _HAND_ROW_ARRAYS[t]
            base += _HAND_WIDTH

        to_move = None
        points_at: list[int] = []
        if not (game.done or over):
            to_move = self._to_move[observer][game.current_player]
            src[to_move] = 1.0
            if observer == game.current_player:
                forced = game.forced_tile
                if forced is not None:
                    src[_S + _HAND_START + own.index(forced) * _HAND_WIDTH + _H_FORCED] = 1.0
                if codes is not None:
                    tile_at = figure.placed.get
                    slot_tile = -1
                    slot_base = 0
                    for code in codes:
                        tile, cell = code >> TILE_SHIFT, code & CELL_MASK  # split_code, inlined: the hot loop
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
                            src[_S + _POINTS_START + action] = points / POINTS_SCALE
                            points_at.append(_S + _POINTS_START + action)

        src[_S + _HAND_SIZES : _S + _HAND_SIZES + n] = self._sizes[observer : observer + n]
        if self._any_score:
            src[_S + _SCORES : _S + _SCORES + n] = self._score_array[observer : observer + n]
            score = game.scores[observer]
            best = self._best
            v = (score - (self._second if score == best else best)) / SCORE_SCALE
            src[_S + _LEAD] = v if -1.0 <= v <= 1.0 else (1.0 if v > 0 else -1.0)
        src[_S + _PILE] = (NUM_TILES - game.pile_pos) / NUM_TILES  # game.pile_size, without the property call
        src[_S + _PASSES] = game.passes / n

        obs = self._view.take(self._gather[observer])

        # Clear the observer's part of the scratch vector (the per-seat values and scalars are overwritten).
        src[_S + _CELLS_START : _S + _HAND_END] = _ZERO_CELLS_AND_HAND
        if to_move is not None:
            src[to_move] = 0.0
        for i in points_at:
            src[i] = 0.0
        return obs, mask


class ContackObserver:
    """``contack_v0``'s observation and mask of the seat to move, from a ``ContackGame`` alone (a
    ``contack_env.envs.conventions.StateObserver``): what a trained policy or network reads at a state."""

    obs_size = OBS_SIZE
    num_actions = NUM_ACTIONS
    factored = True

    def __init__(self, options: Any = None) -> None:
        # ``options`` (the rule options) change nothing here: the observation is the same for every number of
        # hands and way of ending a hand. One builder per table size, re-attached to each state: making one builds its gather indices, which cost
        # more than the observation itself.
        self._builders: dict[int, ObservationBuilder] = {}

    def observe_state(self, state: ContackGame) -> tuple[np.ndarray, np.ndarray, ActionLayout]:
        seat = state.current_player
        layout = ActionLayout(NUM_SLOTS, hand_tiles(state.hands[seat]), state.figure)
        builder = self._builders.get(state.num_players)
        if builder is None:
            builder = self._builders[state.num_players] = ObservationBuilder(state)
        else:
            builder.attach(state)
        obs, mask = builder.observe(seat, layout.cells, state.legal_codes())
        return obs, mask, layout
