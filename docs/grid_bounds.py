"""How far a legal figure reaches (docs/rules.md section 2), with legal games that reach every extreme.

The bound
---------
Take a legal figure of ``k <= 36`` tiles. It is connected and holds the opening cell ``(0, 0)``, so every tile is
joined to the opening by a path of at most ``k - 1`` steps between touching cells.

*x.* A step changes ``x`` by at most 1, so ``|x| <= k - 1 <= 35``.

*y.* Give cell ``(x, y)`` the potential ``phi = 2y`` if it points up, ``2y + 1`` if down. Every step changes
``phi`` by exactly 1: across ``L``/``R`` from an up cell to the down cell beside it (+1) or back (-1); across an up
cell's ``B`` to the down cell below (``2y -> 2(y-1) + 1``, -1); across a down cell's ``B`` to the up cell above
(+1). The opening has ``phi = 0``, so ``|phi| <= k - 1 <= 35`` for every tile: ``2y <= 35`` gives ``y <= 17``,
and ``2y + 1 >= -35`` gives ``y >= -18``.

*The edges, by the value classes.* On one colour a valid contact joins two tiles of the same class ({5, 10},
{1, 4, 6, 9}, {2, 3, 7, 8}), as ``a == b`` or ``a + b = 0 mod 5`` forces ``a = +-b mod 5``. Count the tiles by
the class of each colour: blue 6 / 15 / 15, red 7 / 14 / 15, gold 6 / 16 / 14.

- ``x = 35`` needs 35 steps that all change ``x``: the figure is the row ``(0, 0) .. (35, 0)`` of all 36 tiles,
  and the up cells ``(2j, 0)`` show red on ``R``, so the pairs ``(t_2j, t_2j+1)``, ``j = 0..17``, are 18 red
  contacts covering all 36 tiles: each red class would have an even count, but {5, 10} has 7. So ``x <= 34``.
  Leftwards the pairs ``(t_2j, t_2j+1)`` are gold contacts (an up cell's ``L`` is gold) and the gold counts are
  all even: no obstruction, and ``x = -35`` is reached.
- ``y = -18`` needs ``phi = -35``: 35 steps that all lower ``phi``, alternating ``B`` (from up cells) and ``L``/
  ``R`` (from down cells), so the pairs ``(t_2j, t_2j+1)`` are 18 blue contacts covering all 36 tiles; blue
  {1, 4, 6, 9} has 15 tiles. So ``y >= -17``.

Every legal figure therefore lies within ``-35 <= x <= 34`` and ``-17 <= y <= 17`` (docs/rules.md states the looser
``x <= 35``), and each of the four edges is reached by a Solitaire No. 2 game below (all of them won).

*The multiplayer game reaches less.* A hand ends at once when a player places the last tile of their hand, so
when a tile is placed every other player still holds one: a hand of ``n`` players places at most ``37 - n``
tiles, 35 for two. With ``k <= 35`` the same arguments give ``-34 <= x <= 34`` and ``-17 <= y <= 17``, and the
two-player deals below reach all four of those edges.

The search
----------
An extreme is reached by a *chain*: each tile placed on a fixed kind of cell next to the last one (the row
``(-k, 0)`` or ``(k, 0)``; for ``y = +-17`` any cell whose potential is ``+-k``, a zigzag), so every placement
touches the last-played tile and is legal when its one contact is valid; the engine's own move generator says
which are (``Figure.legal_codes``). ``_search`` builds the chain by depth-first search (candidates in a seeded
random order, fewest onward continuations first) *together with* a two-player deal under which the players,
always choosing the chain's next tile, must play exactly that chain:

- The opening tile is 01-02-03, the lowest of all (docs/rules.md section 5.2), so its holder, seat 0, opens and seat 1 plays
  first.
- The tiles dealt and drawn are decided lazily. A hand holds *slots*, each an unknown tile with the set of
  tiles it may still be. When the seat to move plays the chain's next tile ``c`` it either holds ``c`` (a slot
  that admits ``c`` becomes ``c``: a player holding a legal move may choose any), or it holds no legal move at
  all (every slot loses the tiles that fit the figure now) and draws: ``j`` tiles that do not fit (new slots;
  the search tries ``j`` = 0 and 1), then ``c``, which it must place and places on the chain; or it fills its
  hand to 5 with unfitting tiles and passes. The hand must not run out before the chain's last tile (a player who places their last tile ends
  the hand) and, to reach 35 tiles, runs out exactly on it.
- A bipartite matching keeps the slots fillable with distinct unassigned tiles; at the end it fills them.
- The chain is then completed to a won Solitaire No. 2 game (all 36 tiles; for ``x = -35`` the next tile goes
  on ``(-35, 0)``), and the deal is rebuilt (hands, then the pile in draw order) and played in the engine.

The chain's tiles, released in order by seven stacks (``solitaire2_deal``), give the Solitaire No. 2 deals.
``python -m docs/grid_bounds.py`` reruns the search (``_regenerate``: the first seed from 0 that succeeds within
20,000 nodes, about half a minute in all) and prints the data block stored below; the tests check that the
stored games are legal, reach their extremes and are what the search finds from the stored seeds (a few
seconds).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from contack_env.contack.figure import Figure, Move
from contack_env.contack.grid import cell_xy
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import NUM_STACKS, STACK6_SIZE
from contack_env.contack.tiles import ALL_TILES_MASK, NUM_TILES, OPENING_RANK, TILE_NAMES, TILE_VALUES, contact_valid, tile_id

__all__ = [
    "MULTIPLAYER_EXTREMES",
    "SOLITAIRE_EXTREMES",
    "colour_components",
    "extreme_multiplayer_deals",
    "extreme_solitaire2_deals",
    "potential",
    "reaches",
    "solitaire2_deal",
]

SOLITAIRE_EXTREMES = ("x=-35", "x=34", "y=17", "y=-17")
MULTIPLAYER_EXTREMES = ("x=-34", "x=34", "y=17", "y=-17")
OPENING = tile_id("01-02-03")  # the lowest tile: whoever holds it opens (docs/rules.md section 5.2)
HAND_SIZE = 5
PILE_SIZE = NUM_TILES - 2 * HAND_SIZE


def potential(x: int, y: int) -> int:
    """``2y`` for an up cell, ``2y + 1`` for a down one: every step between touching cells changes it by 1."""
    return 2 * y + (0 if (x + y) % 2 == 0 else 1)


def reaches(name: str, cells: Sequence[tuple[int, int]]) -> bool:
    """Whether one of ``cells`` lies on the extreme ``name`` ("x=-35", "y=17", ...)."""
    axis, value = name.split("=")
    index = 0 if axis == "x" else 1
    return any(cell[index] == int(value) for cell in cells)


def colour_components(colour: int) -> list[list[int]]:
    """The connected components of the graph joining two tiles whose ``colour`` sides form a valid contact.

    A set of disjoint contacts of one colour covering every tile (a perfect matching of this graph) needs every
    component to have an even number of tiles; the bound in the module docstring rests on red and blue having
    odd components.
    """
    parent = list(range(NUM_TILES))

    def find(t: int) -> int:
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    for t in range(NUM_TILES):
        for u in range(t + 1, NUM_TILES):
            if contact_valid(TILE_VALUES[t][colour], TILE_VALUES[u][colour]):
                parent[find(t)] = find(u)
    groups: dict[int, list[int]] = {}
    for t in range(NUM_TILES):
        groups.setdefault(find(t), []).append(t)
    return sorted(groups.values())


# -- Solitaire No. 2 deals -----------------------------------------------------------------------------------
def solitaire2_deal(moves: Sequence[Move], cut: int) -> list[int]:
    """A Solitaire No. 2 deck whose stacks release ``moves[1:]`` in order and whose cut is ``moves[0]``.

    Stack ``k`` holds ``moves[5k+1 .. 5k+5]``, the first on top, so taking the tops stack by stack plays the
    tiles in order (stack 6 has the opening tile at position ``cut`` besides).
    """
    tiles = [m.tile for m in moves]
    if sorted(tiles) != list(range(NUM_TILES)):
        raise ValueError("a Solitaire No. 2 game that releases its tiles in order places all 36 tiles")
    if not 0 <= cut < STACK6_SIZE:
        raise ValueError(f"the cut is a position in stack 6, 0..{STACK6_SIZE - 1}; got {cut!r}")
    rest = tiles[1:]
    deck = [0] * NUM_TILES
    for k in range(NUM_STACKS):
        positions = list(range(5 * k, 5 * k + 5)) if k < NUM_STACKS - 1 else [p for p in range(30, 36) if p != 30 + cut]
        for i, tile in enumerate(rest[5 * k : 5 * k + 5]):
            deck[positions[-1 - i]] = tile  # bottom first: the first tile of the group goes on top
    deck[30 + cut] = tiles[0]
    return deck


# -- the search ----------------------------------------------------------------------------------------------
class _Shape(NamedTuple):
    steps: int  # the chain's last shaped step (the extreme tile is moves[steps])
    prefix: int  # K: tiles of the two-player chain (it reaches the multiplayer extreme with moves[K-1])
    on_shape: Callable[[int, int, int], bool]  # (step k, x, y) -> whether moves[k] may go on (x, y)
    tail_cell: tuple[int, int] | None  # where the solitaire's tile after the two-player chain must go, if anywhere


_SHAPES: dict[str, _Shape] = {
    "x=-34": _Shape(34, 35, lambda k, x, y: (x, y) == (-k, 0), (-35, 0)),
    "x=34": _Shape(34, 35, lambda k, x, y: (x, y) == (k, 0), None),
    "y=17": _Shape(34, 35, lambda k, x, y: potential(x, y) == k, None),
    "y=-17": _Shape(33, 34, lambda k, x, y: potential(x, y) == -k, None),
}
# Solitaire extreme -> the two-player chain it extends.
_SOLITAIRE_OF = {"x=-35": "x=-34", "x=34": "x=34", "y=17": "y=17", "y=-17": "y=-17"}


class _Limit(Exception):
    pass


class ExtremeGame(NamedTuple):
    solitaire_moves: list[Move]  # 36 placements, moves[0] the opening
    multiplayer_deck: list[int]  # a two-player, one-hand deal
    multiplayer_moves: list[Move]  # every placement of that hand, the opening first


def _matching(slots: Sequence[tuple[int, int]], pool: int) -> dict[int, int] | None:
    """Distinct tiles of ``pool`` for the slots ``(id, allowed mask)``: {slot id: tile}, or None if impossible."""
    owner: dict[int, int] = {}  # tile bit -> slot index

    def augment(i: int, seen: set[int]) -> bool:
        m = slots[i][1] & pool
        while m:
            low = m & -m
            m ^= low
            if low in seen:
                continue
            seen.add(low)
            if low not in owner or augment(owner[low], seen):
                owner[low] = i
                return True
        return False

    for i in range(len(slots)):
        if not augment(i, set()):
            return None
    return {slots[i][0]: low.bit_length() - 1 for low, i in owner.items()}


def _fitting(figure: Figure, pool: int) -> int:
    """The tiles of ``pool`` with a legal placement on ``figure``."""
    out = 0
    m = pool
    while m:
        low = m & -m
        m ^= low
        if figure.has_move(low):
            out |= low
    return out


def _tail(figure: Figure, remaining: int, first_cell: tuple[int, int] | None) -> list[Move] | None:
    """Legal placements of every tile in ``remaining`` (the first on ``first_cell`` if given), or None."""
    if not remaining:
        return []
    for code in figure.legal_codes(remaining):
        x, y = cell_xy(code & 16383)
        if first_cell is not None and (x, y) != first_cell:
            continue
        nxt = figure.clone()
        nxt.place(code >> 14, code & 16383)
        rest = _tail(nxt, remaining & ~(1 << (code >> 14)), None)
        if rest is not None:
            return [Move(code >> 14, x, y)] + rest
    return None


def _search(name: str, seed: int, node_limit: int = 20000) -> ExtremeGame | None:
    """One seeded depth-first search for the two-player chain ``name`` (a key of ``_SHAPES``) and its deal."""
    shape = _SHAPES[name]
    K = shape.prefix
    rng = np.random.default_rng(seed)
    allowed0 = sum(1 << t for t in range(NUM_TILES) if OPENING_RANK[t] > OPENING_RANK[OPENING])
    nodes = 0
    # Deal bookkeeping: slot ids 0..3 are seat 0's dealt tiles besides the opening, 4..8 seat 1's; each pile
    # entry is ("slot", id) for a tile drawn and kept, or ("tile", t) for a chain tile drawn and placed.
    chain: list[Move] = [Move(OPENING, 0, 0)]
    pile: list[tuple[str, int]] = []
    assigned: dict[int, int] = {}
    next_slot = [2 * HAND_SIZE - 1]

    def finish(figure: Figure, slots: list[list[tuple[int, int]]], pool: int) -> ExtremeGame | None:
        fill = _matching(slots[0] + slots[1], pool)
        if fill is None:
            return None
        tail = _tail(figure, pool, shape.tail_cell)
        if tail is None:
            return None
        tiles = {**assigned, **fill}
        deck = [OPENING] + [tiles[i] for i in range(4)] + [tiles[i] for i in range(4, 9)]
        deck += [tiles[v] if kind == "slot" else v for kind, v in pile]
        deck += sorted(set(range(NUM_TILES)) - set(deck))
        return ExtremeGame(chain + tail, deck, _play_chain(deck, chain))

    def dfs(
        figure: Figure, k: int, s: int, slots: list[list[tuple[int, int]]], pool: int, pile_left: int, passes: int
    ) -> ExtremeGame | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise _Limit
        if k == K:
            return finish(figure, slots, pool)
        fits = _fitting(figure, pool)
        mine = slots[s]
        size = len(mine)
        checked = [(i, a & ~fits) for i, a in mine]  # the hand after a turn without a legal move
        options = []
        for code in figure.legal_codes(pool):
            x, y = cell_xy(code & 16383)
            if not shape.on_shape(k, x, y):
                continue
            c = code >> 14
            nxt = figure.clone()
            nxt.place(c, code & 16383)
            onward = 0
            if k + 1 < K:
                onward = sum(1 for cc in nxt.legal_codes(pool & ~(1 << c)) if shape.on_shape(k + 1, *cell_xy(cc & 16383)))
                if onward == 0:
                    continue
            noise = onward + 2 * rng.random()
            if any(a >> c & 1 for _, a in mine):
                options.append((0, noise, "hand", c, x, y, nxt, 0))
            for j in range(2):
                if size + j < HAND_SIZE and pile_left >= j + 1:
                    options.append((1 + j, noise, "draw", c, x, y, nxt, j))
        options.sort(key=lambda o: (o[0], o[1]))
        for _, _, kind, c, x, y, nxt, j in options:
            bit = 1 << c
            new_slots = [list(slots[0]), list(slots[1])]
            left = pile_left
            if kind == "hand":
                i = min((i for i, (_, a) in enumerate(mine) if a >> c & 1), key=lambda i: mine[i][1].bit_count())
                sid = mine[i][0]
                new_slots[s].pop(i)
                assigned[sid] = c
                if not new_slots[s] and k != K - 1:
                    del assigned[sid]
                    continue  # the seat would go out and end the hand before the chain is done
            else:
                new_slots[s] = list(checked)
                extra = []
                for _ in range(j):
                    next_slot[0] += 1
                    extra.append((next_slot[0], pool & ~fits & ~bit))
                new_slots[s] += extra
                pile.extend(("slot", sid) for sid, _ in extra)
                pile.append(("tile", c))
                left -= j + 1
            if _matching(new_slots[0] + new_slots[1], pool & ~bit) is not None:
                chain.append(Move(c, x, y))
                found = dfs(nxt, k + 1, 1 - s, new_slots, pool & ~bit, left, 0)
                if found is not None:
                    return found
                chain.pop()
            if kind == "hand":
                del assigned[sid]
            else:
                del pile[len(pile) - j - 1 :]
        # No chain tile for this seat: it draws unfitting tiles up to a full hand and passes (then the other
        # seat must play: two passes in a row would block the hand).
        if passes == 0:
            j = min(HAND_SIZE - size, pile_left)
            extra = []
            for _ in range(j):
                next_slot[0] += 1
                extra.append((next_slot[0], pool & ~fits))
            new_slots = [list(slots[0]), list(slots[1])]
            new_slots[s] = checked + extra
            if _matching(new_slots[0] + new_slots[1], pool) is not None:
                pile.extend(("slot", sid) for sid, _ in extra)
                found = dfs(figure, k, 1 - s, new_slots, pool, pile_left - j, 1)
                if found is not None:
                    return found
                del pile[len(pile) - j :]
        return None

    figure = Figure()
    figure.place_opening(OPENING)
    slots = [[(i, allowed0) for i in range(4)], [(i, allowed0) for i in range(4, 9)]]
    try:
        return dfs(figure, 1, 1, slots, ALL_TILES_MASK & ~(1 << OPENING), PILE_SIZE, 0)
    except _Limit:
        return None


def _play_chain(deck: list[int], chain: list[Move]) -> list[Move]:
    """Play the two-player hand of ``deck``, choosing the chain's next tile while there is one, then the first
    legal move; returns every placement. Raises if the chain is not what the players must play."""
    game = ContackGame([deck], 2, num_hands=1)
    moves = [chain[0]]
    for move in chain[1:]:
        if game.done:
            raise AssertionError(f"the hand ended before {move}")
        game.play(move)
        moves.append(move)
    while not game.done:
        move = game.legal_moves()[0]
        game.play(move)
        moves.append(move)
    return moves


def _regenerate(seeds: Sequence[int] = range(100)) -> dict[str, tuple[int, ExtremeGame]]:
    """Rerun the search for every two-player chain: {name: (first seed that works, game)}."""
    out = {}
    for name in _SHAPES:
        for seed in seeds:
            game = _search(name, seed)
            if game is not None:
                out[name] = (seed, game)
                break
        else:
            raise RuntimeError(f"no seed in {seeds} finds {name}")
    return out


def _print_data() -> None:  # pragma: no cover - run by hand: python -m docs/grid_bounds.py
    def moves_text(moves: list[Move]) -> str:
        items = [f"{TILE_NAMES[m.tile]} {m.x} {m.y};" for m in moves]
        return "\n".join(f"        {' '.join(items[i : i + 6])}" for i in range(0, len(items), 6))

    print("_DATA = {")
    for name, (seed, game) in _regenerate().items():
        print(f'    "{name}": {{\n        "seed": {seed},')
        print('        "chain": """')
        print(moves_text(game.solitaire_moves) + '""",')
        names = [TILE_NAMES[t] for t in game.multiplayer_deck]
        print('        "deck": """')
        print("\n".join(f"        {' '.join(names[i : i + 9])}" for i in range(0, NUM_TILES, 9)) + '""",')
        print(f'        "played": {len(game.multiplayer_moves)},')
        print("    },")
    print("}")


# -- the stored games ----------------------------------------------------------------------------------------
# Found by _regenerate() (python -m docs/grid_bounds.py prints this block). "chain": the won Solitaire No. 2
# game, as "tile x y;" in placement order; its first K moves (K = 35, or 34 for y=-17) are the two-player
# chain. "deck": the two-player deal; "played": how many placements its hand has (the chain and what follows).
_DATA: dict[str, dict[str, Any]] = {
    "x=-34": {
        "seed": 0,
        "chain": """
        01-02-03 0 0; 04-05-02 -1 0; 09-05-08 -2 0; 09-10-07 -3 0; 09-10-01 -4 0; 09-10-04 -5 0;
        01-05-06 -6 0; 02-03-04 -7 0; 06-02-05 -8 0; 03-04-05 -9 0; 05-06-03 -10 0; 08-04-07 -11 0;
        05-01-04 -12 0; 03-04-01 -13 0; 08-01-07 -14 0; 08-09-03 -15 0; 02-09-10 -16 0; 08-09-10 -17 0;
        05-09-10 -18 0; 07-08-05 -19 0; 07-08-02 -20 0; 03-07-08 -21 0; 06-07-08 -22 0; 02-06-07 -23 0;
        05-06-07 -24 0; 09-02-08 -25 0; 07-03-06 -26 0; 08-09-06 -27 0; 10-06-09 -28 0; 10-03-09 -29 0;
        06-07-04 -30 0; 06-07-01 -31 0; 07-08-09 -32 0; 04-08-09 -33 0; 01-08-09 -34 0; 04-05-06 -35 0;""",
        "deck": """
        01-02-03 09-05-08 09-10-01 01-05-06 04-05-06 04-05-02 09-10-07 09-10-04 02-03-04
        01-08-09 06-02-05 03-04-05 05-06-03 08-04-07 05-01-04 03-04-01 08-01-07 08-09-03
        02-09-10 08-09-10 05-09-10 07-08-05 07-08-02 03-07-08 06-07-08 02-06-07 05-06-07
        08-09-06 09-02-08 07-03-06 10-03-09 06-07-04 06-07-01 04-08-09 10-06-09 07-08-09""",
        "played": 35,
    },
    "x=34": {
        "seed": 3,
        "chain": """
        01-02-03 0 0; 07-08-05 1 0; 06-02-05 2 0; 07-08-02 3 0; 09-05-08 4 0; 04-05-02 5 0;
        09-02-08 6 0; 02-03-04 7 0; 09-10-01 8 0; 09-10-07 9 0; 08-04-07 10 0; 05-06-03 11 0;
        08-01-07 12 0; 08-09-03 13 0; 02-06-07 14 0; 08-09-10 15 0; 03-04-05 16 0; 05-01-04 17 0;
        03-04-01 18 0; 05-06-07 19 0; 03-07-08 20 0; 06-07-04 21 0; 08-09-06 22 0; 02-09-10 23 0;
        05-09-10 24 0; 10-06-09 25 0; 01-08-09 26 0; 04-08-09 27 0; 10-03-09 28 0; 07-03-06 29 0;
        04-05-06 30 0; 01-05-06 31 0; 07-08-09 32 0; 06-07-01 33 0; 09-10-04 34 0; 06-07-08 34 -1;""",
        "deck": """
        01-02-03 06-02-05 09-05-08 09-02-08 04-08-09 07-08-05 07-08-02 04-05-02 02-03-04
        10-03-09 09-10-01 09-10-07 08-04-07 05-06-03 08-01-07 08-09-03 02-06-07 08-09-10
        03-04-05 05-01-04 03-04-01 06-07-04 05-06-07 08-09-06 03-07-08 01-08-09 02-09-10
        10-06-09 07-03-06 01-05-06 09-10-04 06-07-08 05-09-10 04-05-06 06-07-01 07-08-09""",
        "played": 35,
    },
    "y=17": {
        "seed": 0,
        "chain": """
        01-02-03 0 0; 05-06-07 -1 0; 05-09-10 -1 1; 10-06-09 0 1; 05-06-03 0 2; 04-05-02 -1 2;
        06-02-05 -1 3; 10-03-09 0 3; 05-01-04 0 4; 04-05-06 -1 4; 01-05-06 -1 5; 04-08-09 -2 5;
        01-08-09 -2 6; 06-07-01 -3 6; 09-10-01 -3 7; 09-10-07 -2 7; 09-10-04 -2 8; 06-07-04 -3 8;
        09-05-08 -3 9; 08-04-07 -4 9; 02-06-07 -4 10; 03-04-01 -3 10; 02-03-04 -3 11; 09-02-08 -2 11;
        06-07-08 -2 12; 03-07-08 -1 12; 07-03-06 -1 13; 08-09-06 -2 13; 07-08-02 -2 14; 07-08-09 -1 14;
        08-09-03 -1 15; 08-09-10 0 15; 07-08-05 0 16; 02-09-10 -1 16; 08-01-07 -1 17; 03-04-05 0 17;""",
        "deck": """
        01-02-03 05-09-10 05-06-03 06-02-05 03-04-05 05-06-07 10-06-09 04-05-02 10-03-09
        02-06-07 05-01-04 04-05-06 01-05-06 04-08-09 01-08-09 06-07-01 09-10-01 09-10-07
        09-10-04 06-07-04 08-04-07 03-04-01 08-09-03 02-09-10 08-09-10 09-05-08 02-03-04
        09-02-08 06-07-08 03-07-08 07-03-06 07-08-02 07-08-05 08-09-06 08-01-07 07-08-09""",
        "played": 35,
    },
    "y=-17": {
        "seed": 1,
        "chain": """
        01-02-03 0 0; 04-05-02 0 -1; 05-06-03 1 -1; 05-09-10 1 -2; 05-06-07 0 -2; 05-01-04 0 -3;
        04-05-06 1 -3; 06-02-05 1 -4; 10-03-09 0 -4; 10-06-09 0 -5; 04-08-09 1 -5; 01-05-06 1 -6;
        01-08-09 2 -6; 09-10-01 2 -7; 09-10-04 1 -7; 06-07-01 1 -8; 06-07-08 0 -8; 06-07-04 0 -9;
        03-04-01 1 -9; 02-03-04 1 -10; 03-07-08 0 -10; 07-03-06 0 -11; 09-02-08 -1 -11; 09-10-07 -1 -12;
        08-01-07 0 -12; 07-08-09 0 -13; 08-09-06 1 -13; 08-04-07 1 -14; 03-04-05 0 -14; 07-08-05 0 -15;
        02-09-10 1 -15; 08-09-03 1 -16; 07-08-02 2 -16; 08-09-10 2 -17; 02-06-07 1 -17; 09-05-08 0 -17;""",
        "deck": """
        01-02-03 05-06-03 05-06-07 04-05-06 08-01-07 04-05-02 05-09-10 05-01-04 06-02-05
        08-09-10 10-03-09 10-06-09 04-08-09 01-05-06 01-08-09 09-10-01 09-10-04 06-07-01
        06-07-08 06-07-04 03-04-01 02-03-04 03-07-08 07-03-06 09-05-08 09-02-08 07-08-09
        09-10-07 08-04-07 03-04-05 08-09-03 02-06-07 08-09-06 07-08-05 02-09-10 07-08-02""",
        "played": 34,
    },
}
SOLITAIRE_CUTS = {"x=-35": 0, "x=34": 2, "y=17": 4, "y=-17": 5}
"""The cut of each Solitaire No. 2 deal (any cut works; these vary it)."""


def _parse_moves(text: str) -> list[Move]:
    out = []
    for item in text.replace("\n", " ").split(";"):
        if item.strip():
            name, x, y = item.split()
            out.append(Move(tile_id(name), int(x), int(y)))
    return out


def extreme_solitaire2_deals() -> dict[str, tuple[list[int], int, list[Move]]]:
    """{extreme: (deck, cut, moves)}: Solitaire No. 2 games reaching x = -35, x = 34, y = 17 and y = -17.

    Taking the tops in ``moves`` order plays every tile (each game is won); ``moves[0]`` is the opening (the
    cut tile).
    """
    out = {}
    for name in SOLITAIRE_EXTREMES:
        moves = _parse_moves(_DATA[_SOLITAIRE_OF[name]]["chain"])
        cut = SOLITAIRE_CUTS[name]
        out[name] = (solitaire2_deal(moves, cut), cut, moves)
    return out


def extreme_multiplayer_deals() -> dict[str, tuple[list[int], list[Move]]]:
    """{extreme: (deck, moves)}: two-player, one-hand games (``ContackGame([deck], 2, num_hands=1)``) reaching
    x = -34, x = 34, y = 17 and y = -17; ``moves`` are all the hand's placements, the opening first, and at every
    decision the next one is legal (the draws and passes between them are forced)."""
    out = {}
    for name in MULTIPLAYER_EXTREMES:
        data = _DATA[name]
        deck = [tile_id(n) for n in data["deck"].split()]
        moves = _parse_moves(data["chain"])[: _SHAPES[name].prefix]
        out[name] = (deck, _play_chain(deck, moves))
    return out


if __name__ == "__main__":  # pragma: no cover
    _print_data()
