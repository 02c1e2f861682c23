"""The 36 Contack tiles (docs/rules.md section 1).

A tile is identified by its id, 0..35, its position in the rules' list. Its name gives its values in the order
blue-red-gold, two digits each ("01-02-03"). Colours are indexed ``BLUE, RED, GOLD = 0, 1, 2``.
"""

from __future__ import annotations

from typing import Iterable

BLUE, RED, GOLD = 0, 1, 2
COLOURS = ("blue", "red", "gold")
NUM_TILES = 36
ALL_TILES_MASK = (1 << NUM_TILES) - 1


def _build_values() -> tuple[tuple[int, int, int], ...]:
    # The list exactly as docs/rules.md section 1 prints it; tests check it against the rule that generates it
    # (row `low` holds `low, k+low, k+low+1` anticlockwise) rather than deriving it here.
    printed = """
        01-02-03 03-04-01 05-01-04 01-05-06 06-07-01 08-01-07 01-08-09 09-10-01
        02-03-04 04-05-02 06-02-05 02-06-07 07-08-02 09-02-08 02-09-10
        03-04-05 05-06-03 07-03-06 03-07-08 08-09-03 10-03-09
        04-05-06 06-07-04 08-04-07 04-08-09 09-10-04
        05-06-07 07-08-05 09-05-08 05-09-10
        06-07-08 08-09-06 10-06-09
        07-08-09 09-10-07
        08-09-10
    """
    return tuple(tuple(int(v) for v in name.split("-")) for name in printed.split())  # type: ignore[misc]


TILE_VALUES: tuple[tuple[int, int, int], ...] = _build_values()
"""``TILE_VALUES[t] = (blue, red, gold)``."""

TILE_NAMES: tuple[str, ...] = tuple("-".join(f"{v:02d}" for v in vals) for vals in TILE_VALUES)
_ID_BY_NAME = {name: i for i, name in enumerate(TILE_NAMES)}

TILE_TOTALS: tuple[int, ...] = tuple(sum(v) for v in TILE_VALUES)
"""A tile's value: the sum of its three numbers."""

# Rank used to find the opening tile: lowest total first, ties to the smaller sorted values (docs/rules.md section 5.2).
OPENING_RANK: tuple[int, ...] = tuple(
    sorted(range(NUM_TILES), key=lambda t: (TILE_TOTALS[t], sorted(TILE_VALUES[t]))).index(t)
    for t in range(NUM_TILES)
)


def tile_id(name: str) -> int:
    """The id of the tile called ``name`` ("09-02-08"); ``ValueError`` if there is no such tile."""
    try:
        return _ID_BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"no tile is called {name!r}: a tile name is its blue-red-gold values, two digits each, "
            f"as in docs/rules.md, section 1 (e.g. '01-02-03')"
        ) from None


def tile_name(tile: int) -> str:
    """The name of tile ``tile`` (0..35)."""
    return TILE_NAMES[tile]


def contact_valid(a: int, b: int) -> bool:
    """Two same-coloured sides showing ``a`` and ``b`` form a valid contact (docs/rules.md section 3)."""
    return a == b or (a + b) % 5 == 0


def contact_points(a: int, b: int) -> int:
    """Points of a contact: its sum when the sum is a multiple of 5 (counting contact), else 0."""
    return a + b if (a + b) % 5 == 0 else 0


def mask_of(tiles: Iterable[int]) -> int:
    """Bitmask (bit t set for tile t) of an iterable of tile ids."""
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def tiles_in(mask: int) -> list[int]:
    """The tile ids in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
