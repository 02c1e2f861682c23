"""The figure on the table: placed tiles, contacts, scoring and the legal-move generator (docs/rules.md section 3 and 4).

This is the hot path of everything built on the engine, so it is incremental: each empty cell touching the
figure (the *frontier*) keeps a bitmask of the tiles whose sides are compatible with every placed neighbour,
and a count of placed neighbours. Placing a tile updates its (at most three) empty neighbours; generating moves
is then a bitwise AND of a hand's mask with the masks of a handful of candidate cells: the empty neighbours of
the last-played tile and the *holes* (empty cells touching two or more tiles, where opportunity plays go).
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from contack_env.checks import is_whole_number
from contack_env.contack.grid import CELL_SIDES, OFFSET, ORIGIN, SPAN, cell_index
from contack_env.contack.tiles import ALL_TILES_MASK, NUM_TILES, TILE_NAMES, TILE_VALUES, contact_points, contact_valid


class Move(NamedTuple):
    """A placement: tile id and cell. The orientation is always blue on ``B`` (docs/rules.md sections 2 and 4)."""

    tile: int
    x: int
    y: int

    def __str__(self) -> str:
        if not 0 <= self.tile < NUM_TILES:  # (a move given by a caller, not yet checked)
            return f"tile id {self.tile} at ({self.x}, {self.y}) (tile ids are 0..{NUM_TILES - 1})"
        return f"{TILE_NAMES[self.tile]} at ({self.x}, {self.y})"


def _build_compat() -> tuple[tuple[int, ...], ...]:
    # COMPAT[colour][t]: mask of the tiles u whose `colour` side forms a valid contact with t's `colour` side.
    return tuple(
        tuple(
            sum(1 << u for u in range(NUM_TILES) if contact_valid(TILE_VALUES[t][c], TILE_VALUES[u][c]))
            for t in range(NUM_TILES)
        )
        for c in range(3)
    )


def _build_points() -> tuple[tuple[tuple[int, ...], ...], ...]:
    # POINTS[colour][t][u]: points of the contact between t and u along their `colour` sides.
    return tuple(
        tuple(tuple(contact_points(TILE_VALUES[t][c], TILE_VALUES[u][c]) for u in range(NUM_TILES)) for t in range(NUM_TILES))
        for c in range(3)
    )


COMPAT = _build_compat()
POINTS = _build_points()

# A frontier entry packs the compatible-tile mask (bits 0..35) and the placed-neighbour count (bits 40..).
COUNT_SHIFT = 40
_ONE = 1 << COUNT_SHIFT
_KEEP_COUNT = ((1 << 4) - 1) << COUNT_SHIFT
_NEW_FRONTIER = ALL_TILES_MASK

# A move's integer code packs the tile id above the engine cell index (``grid.cell_index``, below 2**14), so codes
# sort as moves do: by tile, then x, then y. These names are the one definition of that layout; hot loops use the
# two constants inline rather than a call per move.
TILE_SHIFT = 14
CELL_MASK = (1 << TILE_SHIFT) - 1
SIGNATURE_BITS = TILE_SHIFT + 1
"""Bits per tile in ``Figure.signature`` (a cell index plus one)."""


def move_code(tile: int, cell: int) -> int:
    """Integer code of placing ``tile`` on the engine cell index ``cell``."""
    return tile << TILE_SHIFT | cell


def split_code(code: int) -> tuple[int, int]:
    """``(tile, cell index)`` of a move code."""
    return code >> TILE_SHIFT, code & CELL_MASK


def code_to_move(code: int) -> Move:
    """The ``Move`` (tile, x, y) of a move code."""
    cell = code & CELL_MASK
    return Move(code >> TILE_SHIFT, cell // SPAN - OFFSET, cell % SPAN - OFFSET)


def move_to_code(move: Move) -> int:
    """The code of a ``Move``."""
    return move.tile << TILE_SHIFT | cell_index(move.x, move.y)


def as_move(move: object) -> Move:
    """``move`` (a ``Move``, or any sequence of tile id, x and y) as a ``Move`` of Python ints. ``ValueError``
    unless it is three whole numbers (Python or numpy integers): a float (``1.9``), a string or a bool is no
    coordinate, and turned into one by ``int()`` it would name another move than the one given."""
    try:
        tile, x, y = move  # type: ignore[misc]
    except (TypeError, ValueError):
        raise ValueError(f"a move is (tile id, x, y), three whole numbers; got {move!r}") from None
    if not all(is_whole_number(v) for v in (tile, x, y)):
        raise ValueError(f"a move is (tile id, x, y), three whole numbers; got {move!r}")
    return Move(int(tile), int(x), int(y))


def on_the_grid(move: Move) -> bool:
    """Whether ``move``'s tile is a tile id and its cell one of the engine's cells (a cell beyond the grid would
    share its index, and its move code, with another)."""
    return 0 <= move.tile < NUM_TILES and -OFFSET <= move.x < SPAN - OFFSET and -OFFSET <= move.y < SPAN - OFFSET


def neighbour_count(entry: int) -> int:
    """How many placed tiles a frontier cell touches, from its ``Figure.frontier`` entry."""
    return entry >> COUNT_SHIFT


class Figure:
    """Tiles placed on the table, with the frontier that makes move generation fast.

    ``placed`` maps cell index to tile id; ``last`` is the cell index of the last-played tile (None while empty).
    """

    __slots__ = ("placed", "frontier", "holes", "last", "signature")

    def __init__(self) -> None:
        self.placed: dict[int, int] = {}
        self.frontier: dict[int, int] = {}
        self.holes: set[int] = set()
        self.last: int | None = None
        self.signature = 0
        """Where every tile lies, packed in one int (``SIGNATURE_BITS`` per tile id: its cell index plus one, 0
        while it is not placed), kept as tiles are placed: a cheap key for positions."""

    @classmethod
    def from_placements(cls, placements: Iterable[tuple[int, int, int]], last: tuple[int, int] | None = None) -> "Figure":
        """A figure built directly from ``[(tile id, x, y), ...]`` in placement order, without legality checks
        (for tests, puzzles and analysis). The last-played tile is the last placement unless ``last`` says."""
        figure = cls()
        for tile, x, y in placements:
            cell = cell_index(x, y)
            if cell in figure.placed:
                raise ValueError(f"cell ({x}, {y}) is placed twice")
            figure.place(int(tile), cell)
        if last is not None:
            cell = cell_index(*last)
            if cell not in figure.placed:
                raise ValueError(f"the last-played cell {last} holds no tile")
            figure.last = cell
        return figure

    def placements(self) -> list[Move]:
        """Every placed tile as a Move, sorted by tile id."""
        return sorted(Move(t, c // SPAN - OFFSET, c % SPAN - OFFSET) for c, t in self.placed.items())

    def clone(self) -> "Figure":
        other = Figure.__new__(Figure)
        other.placed = self.placed.copy()
        other.frontier = self.frontier.copy()
        other.holes = self.holes.copy()
        other.last = self.last
        other.signature = self.signature
        return other

    def __len__(self) -> int:
        return len(self.placed)

    # -- placing ---------------------------------------------------------------------------------------------
    def place(self, tile: int, cell: int) -> int:
        """Put ``tile`` on cell index ``cell`` (blue on B) and return the points it scores.

        No legality check: callers place only moves from ``legal_codes`` (or the opening tile at the origin).
        """
        placed = self.placed
        frontier = self.frontier
        points = 0
        for n, colour in CELL_SIDES[cell]:
            u = placed.get(n)
            if u is None:
                entry = (frontier.get(n, _NEW_FRONTIER) & (COMPAT[colour][tile] | _KEEP_COUNT)) + _ONE
                frontier[n] = entry
                if entry >> COUNT_SHIFT == 2:
                    self.holes.add(n)
            else:
                points += POINTS[colour][tile][u]
        placed[cell] = tile
        self.signature |= (cell + 1) << (SIGNATURE_BITS * tile)
        frontier.pop(cell, None)
        self.holes.discard(cell)
        self.last = cell
        return points

    def place_opening(self, tile: int) -> None:
        """The opening tile goes on the up cell (0, 0), blue on B (docs/rules.md section 2)."""
        if self.placed:
            raise ValueError("the opening tile goes on an empty table")
        self.place(tile, ORIGIN)

    # -- queries ---------------------------------------------------------------------------------------------
    def legal_codes(self, tiles_mask: int) -> list[int]:
        """Codes (``move_code``) of every legal placement of a tile in ``tiles_mask``, sorted.

        Candidates are the empty neighbours of the last-played tile and the holes (docs/rules.md section 4.2); a frontier
        cell's mask already says which tiles fit every placed neighbour (docs/rules.md section 4.1).
        """
        frontier = self.frontier
        placed = self.placed
        shift = TILE_SHIFT  # a local: read once per placement below, the engine's hottest loop
        out: list[int] = []
        if self.last is not None:
            for n, _ in CELL_SIDES[self.last]:
                # A neighbour that touches two or more tiles is a hole and is taken below.
                if n not in placed:
                    entry = frontier[n]
                    if entry < 2 * _ONE:
                        m = entry & tiles_mask
                        while m:
                            low = m & -m
                            out.append((low.bit_length() - 1) << shift | n)
                            m ^= low
        for n in self.holes:
            m = frontier[n] & tiles_mask
            while m:
                low = m & -m
                out.append((low.bit_length() - 1) << shift | n)
                m ^= low
        out.sort()
        return out

    def has_move(self, tiles_mask: int) -> bool:
        """Whether any tile of ``tiles_mask`` has a legal placement."""
        frontier = self.frontier
        if self.last is not None:
            for n, _ in CELL_SIDES[self.last]:
                if n not in self.placed and frontier[n] & tiles_mask:
                    return True
        for n in self.holes:
            if frontier[n] & tiles_mask:
                return True
        return False

    def points_for_code(self, code: int) -> int:
        """Points the move with this code would score."""
        return self.points_for(code >> TILE_SHIFT, code & CELL_MASK)

    def points_for(self, tile: int, cell: int) -> int:
        """Points ``tile`` would score on the empty cell index ``cell``."""
        placed = self.placed
        points = 0
        for n, colour in CELL_SIDES[cell]:
            u = placed.get(n)
            if u is not None:
                points += POINTS[colour][tile][u]
        return points

    def last_has_free_side(self) -> bool:
        """Whether the last-played tile has an empty neighbour."""
        if self.last is None:
            return False
        placed = self.placed
        # A plain loop, not any() over a generator: this runs after every placement (is_enclosed).
        for n, _ in CELL_SIDES[self.last]:
            if n not in placed:
                return True
        return False

    def is_enclosed(self) -> bool:
        """The last-played tile has no free side and no empty cell touches two or more tiles (docs/rules.md section 5.4)."""
        return not self.holes and not self.last_has_free_side()

    def placed_neighbours(self, cell: int) -> int:
        """How many placed tiles touch the cell index ``cell``."""
        return sum(1 for n, _ in CELL_SIDES[cell] if n in self.placed)

    def tile_at(self, x: int, y: int) -> int | None:
        return self.placed.get(cell_index(x, y))
