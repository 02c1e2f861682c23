"""A slow, obviously-correct reference for docs/rules.md, written from the text alone.

Nothing here imports the engine's tables: the tile list of section 1, the two tables of section 2 and the
contact rule of section 3 are re-typed below, and a legal placement (section 4) is found by trying every tile
in every orientation on every empty cell that touches the figure. Orientations are *not* assumed to be blue on
``B``: the generator tries all three, so "every tile ever placed has blue on B" is checked, not presupposed.

Besides the move generator, ``check_contack_hand``, ``check_solitaire1`` and ``check_solitaire2`` replay an
event log (docs/records.md vocabulary) from its deal and assert that every event is the one the rules of sections 5,
6 and 7 force or allow. Cells are ``(x, y)`` tuples; colours are the strings ``"blue"``, ``"red"``, ``"gold"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

# -- docs/rules.md section 1, re-typed ------------------------------------------------------------------------------
TILE_LIST = """
01-02-03 03-04-01 05-01-04 01-05-06 06-07-01 08-01-07 01-08-09 09-10-01
02-03-04 04-05-02 06-02-05 02-06-07 07-08-02 09-02-08 02-09-10
03-04-05 05-06-03 07-03-06 03-07-08 08-09-03 10-03-09
04-05-06 06-07-04 08-04-07 04-08-09 09-10-04
05-06-07 07-08-05 09-05-08 05-09-10
06-07-08 08-09-06 10-06-09
07-08-09 09-10-07
08-09-10
"""
NAMES: tuple[str, ...] = tuple(TILE_LIST.split())
VALUES: tuple[tuple[int, int, int], ...] = tuple(
    (int(n[0:2]), int(n[3:5]), int(n[6:8])) for n in NAMES
)  # (blue, red, gold)
ALL_TILES = frozenset(range(len(NAMES)))

BLUE, RED, GOLD = "blue", "red", "gold"
COLOUR_INDEX = {BLUE: 0, RED: 1, GOLD: 2}
SIDES = ("L", "R", "B")
HAND_SIZE = 5
PENALTY = 10

Cell = tuple[int, int]


def tile_number(name: str) -> int:
    """Tile id of ``name``: its position in the list of section 1."""
    return NAMES.index(name)


def tile_total(tile: int) -> int:
    """A tile's value: the sum of its three numbers (section 1)."""
    return sum(VALUES[tile])


def lowest_tile(tiles: Iterable[int]) -> int:
    """The opening tile among ``tiles`` (section 5.2): lowest value, ties to the smaller sorted values."""
    return min(tiles, key=lambda t: (tile_total(t), sorted(VALUES[t])))


# -- docs/rules.md section 2, re-typed ------------------------------------------------------------------------------
def is_up(x: int, y: int) -> bool:
    return (x + y) % 2 == 0


def kind(x: int, y: int) -> str:
    return "up" if is_up(x, y) else "down"


# The first table: (cell kind, side) -> (offset of the touched cell, the touched cell's side).
TOUCHES: dict[tuple[str, str], tuple[Cell, str]] = {
    ("up", "L"): ((-1, 0), "R"),
    ("up", "R"): ((+1, 0), "L"),
    ("up", "B"): ((0, -1), "B"),
    ("down", "L"): ((-1, 0), "R"),
    ("down", "R"): ((+1, 0), "L"),
    ("down", "B"): ((0, +1), "B"),
}

# The second table: (cell kind, side carrying blue) -> colour on each side.
ORIENTATION: dict[tuple[str, str], dict[str, str]] = {
    ("up", "B"): {"B": BLUE, "R": RED, "L": GOLD},
    ("up", "R"): {"R": BLUE, "L": RED, "B": GOLD},
    ("up", "L"): {"L": BLUE, "B": RED, "R": GOLD},
    ("down", "B"): {"B": BLUE, "L": RED, "R": GOLD},
    ("down", "R"): {"R": BLUE, "B": RED, "L": GOLD},
    ("down", "L"): {"L": BLUE, "R": RED, "B": GOLD},
}


def touched(cell: Cell, side: str) -> tuple[Cell, str]:
    """The cell that ``side`` of ``cell`` touches, and the side of that cell it touches through."""
    (dx, dy), other_side = TOUCHES[(kind(*cell), side)]
    return (cell[0] + dx, cell[1] + dy), other_side


# -- docs/rules.md section 3, re-typed ------------------------------------------------------------------------------
def contact_ok(a: int, b: int) -> bool:
    """Matching (equal) or counting (sum a multiple of 5)."""
    return a == b or (a + b) % 5 == 0


def contact_score(a: int, b: int) -> int:
    return a + b if (a + b) % 5 == 0 else 0


# -- the figure and section 4 ----------------------------------------------------------------------------------
@dataclass
class BruteFigure:
    """Placed tiles: ``cells[(x, y)] = (tile, side carrying blue)``, and the last-played cell."""

    cells: dict[Cell, tuple[int, str]] = field(default_factory=dict)
    last: Cell | None = None

    def shows(self, cell: Cell, side: str) -> tuple[str, int]:
        """(colour, value) shown on ``side`` of the tile placed on ``cell``."""
        tile, blue = self.cells[cell]
        colour = ORIENTATION[(kind(*cell), blue)][side]
        return colour, VALUES[tile][COLOUR_INDEX[colour]]

    def contacts(self, tile: int, cell: Cell, blue: str) -> list[tuple[str, int, int]] | None:
        """The contacts ``tile`` would make on the empty ``cell`` with blue on ``blue``, as
        (colour, its value, the neighbour's value); None if some touching side is not a valid contact."""
        colours = ORIENTATION[(kind(*cell), blue)]
        out = []
        for side in SIDES:
            other, other_side = touched(cell, side)
            if other not in self.cells:
                continue
            colour, value = self.shows(other, other_side)
            mine = VALUES[tile][COLOUR_INDEX[colours[side]]]
            if colours[side] != colour or not contact_ok(mine, value):
                return None
            out.append((colour, mine, value))
        return out

    def placed_around(self, cell: Cell) -> int:
        return sum(1 for side in SIDES if touched(cell, side)[0] in self.cells)

    def empty_touching(self) -> set[Cell]:
        """Every empty cell that touches at least one placed tile."""
        out = set()
        for cell in self.cells:
            for side in SIDES:
                other = touched(cell, side)[0]
                if other not in self.cells:
                    out.add(other)
        return out

    def placements(self, tiles: Iterable[int]) -> list[tuple[int, int, int, str]]:
        """Every legal (tile, x, y, blue side) for a tile of ``tiles``, per docs/rules.md section 4."""
        tiles = sorted(set(tiles))
        out = []
        for cell in sorted(self.empty_touching()):
            count = self.placed_around(cell)
            touches_last = self.last is not None and any(touched(cell, s)[0] == self.last for s in SIDES)
            if not (touches_last or count >= 2):  # 4.2
                continue
            for tile in tiles:
                for blue in SIDES:
                    if self.contacts(tile, cell, blue) is not None:  # 4.1 (count >= 1 since cell touches)
                        out.append((tile, cell[0], cell[1], blue))
        return sorted(out)

    def legal_moves(self, tiles: Iterable[int]) -> list[tuple[int, int, int]]:
        """Legal (tile, x, y), sorted; asserts that each has exactly one orientation and that it is blue on B."""
        found = self.placements(tiles)
        for tile, x, y, blue in found:
            assert blue == "B", f"{NAMES[tile]} fits ({x}, {y}) with blue on {blue}, not B"
        moves = [(t, x, y) for t, x, y, _ in found]
        assert len(moves) == len(set(moves)), "a tile fits one cell in two orientations"
        return moves

    def points(self, tile: int, x: int, y: int, blue: str = "B") -> int:
        contacts = self.contacts(tile, (x, y), blue)
        assert contacts is not None, f"{NAMES[tile]} does not fit ({x}, {y}) with blue on {blue}"
        return sum(contact_score(a, b) for _, a, b in contacts)

    def place(self, tile: int, x: int, y: int, blue: str = "B") -> int:
        """Put a tile down (no 4.2 check: callers check legality) and return its points."""
        assert (x, y) not in self.cells, f"({x}, {y}) is already taken"
        pts = self.points(tile, x, y, blue) if self.cells else 0
        self.cells[(x, y)] = (tile, blue)
        self.last = (x, y)
        return pts

    def last_has_free_side(self) -> bool:
        return self.last is not None and any(touched(self.last, s)[0] not in self.cells for s in SIDES)

    def opportunity_openings(self) -> set[Cell]:
        """Empty cells touching two or more placed tiles."""
        return {c for c in self.empty_touching() if self.placed_around(c) >= 2}

    def enclosed(self) -> bool:
        """Section 5.4, 1939: the last-played tile has no free side and no opportunity opening is left."""
        return not self.last_has_free_side() and not self.opportunity_openings()

    def all_contacts_valid(self) -> bool:
        """Every pair of touching placed tiles shows the same colour and a valid contact."""
        for cell in self.cells:
            for side in SIDES:
                other, other_side = touched(cell, side)
                if other in self.cells:
                    c1, v1 = self.shows(cell, side)
                    c2, v2 = self.shows(other, other_side)
                    if c1 != c2 or not contact_ok(v1, v2):
                        return False
        return True


def figure_from_events(events: Sequence[dict[str, Any]]) -> BruteFigure:
    """The figure the ``open`` and ``place`` events of one hand build (using each event's own ``blue``)."""
    fig = BruteFigure()
    for e in events:
        if e["type"] in ("open", "place"):
            fig.cells[tuple(e["cell"])] = (tile_number(e["tile"]), e["blue"])
            fig.last = tuple(e["cell"])
    return fig


# -- replaying event logs against sections 5, 6 and 7 ----------------------------------------------------------
def _check_place(fig: BruteFigure, e: dict[str, Any], allowed: Iterable[int], where: str) -> int:
    """Assert the place event ``e`` is legal for a tile of ``allowed`` and scores what the rules say; make it
    on ``fig`` and return its points."""
    tile = tile_number(e["tile"])
    x, y = e["cell"]
    legal = fig.legal_moves(allowed)
    assert e["blue"] == "B", f"{where}: placed with blue on {e['blue']}"
    assert (tile, x, y) in legal, f"{where}: {e['tile']} at ({x}, {y}) is not legal; legal: {legal}"
    if "legal" in e:
        listed = sorted((tile_number(n), lx, ly) for n, lx, ly in e["legal"])
        assert listed == legal, f"{where}: the event's legal list {listed} is not the rules' {legal}"
    pts = fig.place(tile, x, y)
    assert e["points"] == pts, f"{where}: scored {e['points']}, the rules say {pts}"
    return pts


def check_contack_hand(
    deck: Sequence[int], num_players: int, events: Sequence[dict[str, Any]], enclosed_end: str, scores: Sequence[int]
) -> list[int]:
    """Replay one multiplayer hand dealt from ``deck``; assert each event is what section 5 forces or allows;
    return the running scores after the hand (``scores`` are those before it)."""
    n = num_players
    assert sorted(deck) == sorted(ALL_TILES)
    hands = [set(deck[HAND_SIZE * i : HAND_SIZE * i + HAND_SIZE]) for i in range(n)]
    pile = list(deck[HAND_SIZE * n :])
    fig = BruteFigure()
    scores = list(scores)
    events = list(events)
    assert events and events[-1]["type"] == "end", "a hand's log ends with its end event"

    def end_must_be(reason: str, i: int) -> None:
        e = events[i]
        assert i == len(events) - 1, f"event {i}: the hand must end {reason} here"
        assert e["reason"] == reason, f"event {i} {e}: the hand must end {reason}"
        penalties = [-PENALTY * len(h) for h in hands]
        assert e["penalties"] == penalties, f"event {i} {e}: penalties are {penalties}"
        assert e["scores"] == [s + p for s, p in zip(scores, penalties)], f"event {i} {e}: wrong running scores"

    opening = lowest_tile(set().union(*hands))
    opener = next(s for s in range(n) if opening in hands[s])
    e = events[0]
    assert e == {"type": "open", "seat": opener, "tile": NAMES[opening], "cell": [0, 0], "blue": "B", "points": 0}, e
    hands[opener].remove(opening)
    fig.place(opening, 0, 0)
    seat = (opener + 1) % n
    passes = 0
    drawn: int | None = None  # the tile drawn last in the current turn
    i = 1
    while True:
        e = events[i]
        where = f"event {i} {e}"
        if e["type"] == "end":
            # The only end not forced right after a placement or a pass: next_player's, after the draws.
            assert enclosed_end == "next_player" and e["reason"] == "enclosed", f"{where}: the hand goes on"
            assert not fig.last_has_free_side() and not fig.legal_moves(hands[seat]), where
            assert len(hands[seat]) == HAND_SIZE or not pile, f"{where}: the seat had to draw first"
            end_must_be("enclosed", i)
            break
        assert e["seat"] == seat, f"{where}: it is seat {seat}'s turn"
        if e["type"] == "place":
            tile = tile_number(e["tile"])
            assert tile in hands[seat], f"{where}: not in the seat's hand"
            # After a draw only the drawn tile may be placed (5.3).
            scores[seat] += _check_place(fig, e, {drawn} if drawn is not None else hands[seat], where)
            hands[seat].remove(tile)
            passes = 0
            drawn = None
            if not hands[seat]:
                end_must_be("out", i + 1)
                break
            if enclosed_end == "1939" and fig.enclosed():
                end_must_be("enclosed", i + 1)
                break
            seat = (seat + 1) % n
        elif e["type"] == "draw":
            # Only when nothing held (the tiles drawn before included) can be placed, with fewer than 5 held.
            assert not fig.legal_moves(hands[seat]), f"{where}: the seat can play, so may not draw"
            assert len(hands[seat]) < HAND_SIZE and pile, f"{where}: no draw with 5 in hand or an empty pile"
            tile = tile_number(e["tile"])
            assert tile == pile[0], f"{where}: the pile's top is {NAMES[pile[0]]}"
            hands[seat].add(pile.pop(0))
            drawn = tile
        elif e["type"] == "pass":
            assert not fig.legal_moves(hands[seat]), f"{where}: a seat that can play must play"
            assert len(hands[seat]) == HAND_SIZE or not pile, f"{where}: the seat had to draw first"
            if enclosed_end == "next_player":
                assert fig.last_has_free_side(), f"{where}: under next_player the hand ends enclosed instead"
            passes += 1
            drawn = None
            seat = (seat + 1) % n
            if passes == n:
                end_must_be("blocked", i + 1)
                break
        else:
            raise AssertionError(f"{where}: not a multiplayer event")
        i += 1
    return list(events[-1]["scores"])


def check_solitaire1(deck: Sequence[int], events: Sequence[dict[str, Any]]) -> tuple[bool, int]:
    """Replay Solitaire No. 1 (section 6) from its pile ``deck``; return (won, points)."""
    pile = list(deck)
    discard: list[int] = []
    fig = BruteFigure()
    score = 0
    it = iter(enumerate(events))
    _, e = next(it)
    assert e == {"type": "open", "seat": 0, "tile": NAMES[pile[0]], "cell": [0, 0], "blue": "B", "points": 0}, e
    fig.place(pile.pop(0), 0, 0)
    drawn: int | None = None
    for i, e in it:
        where = f"event {i} {e}"
        discard_playable = bool(discard) and bool(fig.legal_moves([discard[-1]]))
        if e["type"] == "place":
            assert e["seat"] == 0
            if e["from"] == "discard":
                assert drawn is None and discard_playable, where
                assert tile_number(e["tile"]) == discard[-1], where
                score += _check_place(fig, e, [discard[-1]], where)
                discard.pop()
            else:
                assert e["from"] == "pile" and drawn is not None, where
                assert tile_number(e["tile"]) == drawn, where
                score += _check_place(fig, e, [drawn], where)
                drawn = None
        elif e["type"] == "draw":
            assert drawn is None and not discard_playable, f"{where}: the discard top must be placed first"
            assert pile and tile_number(e["tile"]) == pile[0], where
            drawn = pile.pop(0)
        elif e["type"] == "discard":
            assert drawn is not None and tile_number(e["tile"]) == drawn, where
            assert not fig.legal_moves([drawn]), f"{where}: a drawn tile that can be placed must be"
            discard.append(drawn)
            drawn = None
        elif e["type"] == "end":
            assert drawn is None and not pile and not discard_playable, where
            won = len(fig.cells) == len(NAMES)
            assert e["reason"] == ("won" if won else "lost"), where
            assert i == len(events) - 1, f"{where}: events after the end"
            return won, score
        else:
            raise AssertionError(f"{where}: not a Solitaire No. 1 event")
    raise AssertionError("the game has no end event")


def check_solitaire2(deck: Sequence[int], cut: int, events: Sequence[dict[str, Any]]) -> tuple[bool, int]:
    """Replay Solitaire No. 2 (section 7) from ``deck`` and ``cut``; return (won, points)."""
    stacks = [list(deck[5 * k : 5 * k + 5]) for k in range(6)] + [list(deck[30:36])]
    opening = stacks[6].pop(cut)
    fig = BruteFigure()
    score = 0
    it = iter(enumerate(events))
    _, e = next(it)
    assert e == {"type": "open", "seat": 0, "tile": NAMES[opening], "cell": [0, 0], "blue": "B", "points": 0}, e
    fig.place(opening, 0, 0)
    for i, e in it:
        where = f"event {i} {e}"
        tops = [s[-1] for s in stacks if s]
        if e["type"] == "place":
            k = e["stack"]
            assert stacks[k] and tile_number(e["tile"]) == stacks[k][-1], f"{where}: not the top of stack {k}"
            score += _check_place(fig, e, tops, where)
            stacks[k].pop()
        elif e["type"] == "end":
            assert not fig.legal_moves(tops), f"{where}: a stack top can still be placed"
            won = len(fig.cells) == len(NAMES)
            assert e["reason"] == ("won" if won else "lost"), where
            assert i == len(events) - 1, where
            return won, score
        else:
            raise AssertionError(f"{where}: not a Solitaire No. 2 event")
    raise AssertionError("the game has no end event")
