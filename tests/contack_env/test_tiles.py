"""docs/rules.md section 1 (the tiles) and section 3 (contacts), against ``contack_env.contack.tiles``."""

from __future__ import annotations

import itertools

import bruteforce as bf
import pytest

from contack_env.contack.tiles import (
    BLUE,
    GOLD,
    NUM_TILES,
    OPENING_RANK,
    RED,
    TILE_NAMES,
    TILE_TOTALS,
    TILE_VALUES,
    contact_points,
    contact_valid,
    mask_of,
    tile_id,
    tile_name,
    tiles_in,
)


def rotations(values: tuple[int, int, int]) -> set[tuple[int, int, int]]:
    """The three readings of a tile's values anticlockwise, from each side."""
    return {values[i:] + values[:i] for i in range(3)}


# -- the list --------------------------------------------------------------------------------------------------
def test_the_engine_holds_the_36_tiles_of_the_rules_in_order() -> None:
    assert NUM_TILES == 36
    assert TILE_NAMES == bf.NAMES
    assert TILE_VALUES == bf.VALUES


def test_the_list_follows_its_generating_rule() -> None:
    # Row `low` holds, read anticlockwise from the lowest value, `low, k+low, k+low+1` for k = 1..9-low; the
    # list runs row by row, k ascending. Tile values are blue-red-gold, also anticlockwise, so each tile is one
    # of the three rotations of its row's triple.
    expected = [(low, k + low, k + low + 1) for low in range(1, 9) for k in range(1, 10 - low)]
    assert len(expected) == 36
    for tile, triple in enumerate(expected):
        assert TILE_VALUES[tile] in rotations(triple), f"tile {tile} {TILE_NAMES[tile]} is not {triple} rotated"


def test_rows_are_the_lowest_value() -> None:
    row_lengths = [8, 7, 6, 5, 4, 3, 2, 1]
    starts = list(itertools.accumulate([0] + row_lengths[:-1]))
    for low, (start, length) in enumerate(zip(starts, row_lengths), start=1):
        assert {min(TILE_VALUES[t]) for t in range(start, start + length)} == {low}


def test_values_run_1_to_10_and_differ_on_each_tile() -> None:
    for values in TILE_VALUES:
        assert all(1 <= v <= 10 for v in values)
        assert len(set(values)) == 3


def test_no_two_tiles_are_the_same_tile_rotated() -> None:
    seen = [frozenset(rotations(v)) for v in TILE_VALUES]
    assert len(set(seen)) == 36


def test_colour_indices() -> None:
    assert (BLUE, RED, GOLD) == (0, 1, 2)
    blue, red, gold = TILE_VALUES[tile_id("09-02-08")]
    assert (blue, red, gold) == (9, 2, 8)


# -- names -----------------------------------------------------------------------------------------------------
def test_a_name_is_blue_red_gold_two_digits_each() -> None:
    for tile, (b, r, g) in enumerate(TILE_VALUES):
        assert tile_name(tile) == f"{b:02d}-{r:02d}-{g:02d}"
    assert tile_name(tile_id("10-03-09")) == "10-03-09"


def test_tile_id_and_tile_name_are_inverse() -> None:
    for tile in range(36):
        assert tile_id(tile_name(tile)) == tile
    assert tile_id("01-02-03") == 0
    assert tile_id("08-09-10") == 35


@pytest.mark.parametrize("bad", ["1-2-3", "01-03-02", "02-03-01", "", "01-02-03 ", None, 5])
def test_tile_id_rejects_what_is_not_a_tile_name(bad) -> None:
    # 01-03-02 is 01-02-03 turned over (not a tile: tiles are never turned over); 02-03-01 is it rotated, but
    # a name reads from blue.
    with pytest.raises(ValueError, match="no tile is called"):
        tile_id(bad)


# -- value and opening rank ------------------------------------------------------------------------------------
def test_a_tiles_value_is_the_sum_of_its_numbers() -> None:
    assert TILE_TOTALS == tuple(sum(v) for v in bf.VALUES)
    assert TILE_TOTALS[tile_id("01-02-03")] == 6
    assert TILE_TOTALS[tile_id("08-09-10")] == 27


def test_01_02_03_is_the_lowest_tile() -> None:
    assert min(range(36), key=TILE_TOTALS.__getitem__) == tile_id("01-02-03")
    assert OPENING_RANK[tile_id("01-02-03")] == 0
    assert OPENING_RANK[tile_id("08-09-10")] == 35


def test_opening_rank_ties_go_to_the_smaller_sorted_values() -> None:
    # Both are worth 12; 01-05-06 sorts as (1, 5, 6) < (3, 4, 5).
    a, b = tile_id("01-05-06"), tile_id("03-04-05")
    assert TILE_TOTALS[a] == TILE_TOTALS[b] == 12
    assert OPENING_RANK[a] < OPENING_RANK[b]


def test_opening_rank_is_a_total_order_by_value_then_sorted_values() -> None:
    assert sorted(OPENING_RANK) == list(range(36))
    by_rank = sorted(range(36), key=OPENING_RANK.__getitem__)
    assert by_rank == sorted(range(36), key=lambda t: (sum(bf.VALUES[t]), sorted(bf.VALUES[t])))


# -- contacts (section 3) --------------------------------------------------------------------------------------
def test_matching_contact_is_valid_and_scores_nothing() -> None:
    assert contact_valid(8, 8) and contact_points(8, 8) == 0
    assert contact_valid(4, 4) and contact_points(4, 4) == 0


@pytest.mark.parametrize("a, b, points", [(1, 4, 5), (1, 9, 10), (2, 8, 10), (6, 9, 15), (7, 8, 15), (10, 10, 20)])
def test_counting_contact_scores_its_sum(a: int, b: int, points: int) -> None:
    assert contact_valid(a, b) and contact_valid(b, a)
    assert contact_points(a, b) == contact_points(b, a) == points


@pytest.mark.parametrize("v, points", [(5, 10), (10, 20)])
def test_5_5_and_10_10_count(v: int, points: int) -> None:
    # Matching and counting at once: they count (the 1939 rules' note).
    assert contact_valid(v, v)
    assert contact_points(v, v) == points


@pytest.mark.parametrize("a, b", [(1, 2), (3, 4), (9, 7), (10, 5 + 1), (2, 9)])
def test_neither_matching_nor_counting_is_invalid(a: int, b: int) -> None:
    assert not contact_valid(a, b)
    assert contact_points(a, b) == 0


def test_contacts_agree_with_the_rules_for_every_pair_of_values() -> None:
    for a, b in itertools.product(range(1, 11), repeat=2):
        assert contact_valid(a, b) == bf.contact_ok(a, b), (a, b)
        assert contact_points(a, b) == bf.contact_score(a, b), (a, b)


def test_values_fall_into_three_classes_that_only_touch_their_own() -> None:
    # docs/rules.md section 2: 5 and 10 only touch each other; 1, 4, 6, 9 only each other; 2, 3, 7, 8 only each other.
    classes = [{5, 10}, {1, 4, 6, 9}, {2, 3, 7, 8}]
    for a, b in itertools.product(range(1, 11), repeat=2):
        same_class = any(a in c and b in c for c in classes)
        if contact_valid(a, b):
            assert same_class, (a, b)


# -- masks -----------------------------------------------------------------------------------------------------
def test_masks_round_trip() -> None:
    tiles = [0, 5, 17, 35]
    assert mask_of(tiles) == (1 << 0) | (1 << 5) | (1 << 17) | (1 << 35)
    assert tiles_in(mask_of(tiles)) == tiles
    assert tiles_in(0) == []
    assert tiles_in(mask_of(range(36))) == list(range(36))
