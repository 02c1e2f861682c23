"""Pictures (``contack_env.render.image``): the figure's tiles sit on the cells the layout says, each side's band has
that side's colour, the last tile is outlined, target cells are marked; records replay into frames, GIFs and
strips with the expected number of frames.

Records are built here straight from docs/records.md (deck names and the engine's event log), so these tests do not
lean on the records module.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from PIL import Image

from contack_env import new_game, new_solitaire1, new_solitaire2
from contack_env.contack.grid import cell_xy, neighbour, side_colour
from contack_env.render.image import (
    EDGE,
    FACE,
    HIGHLIGHT,
    PANEL,
    TARGET,
    render_layout,
    render_rgb,
    render_tiles,
    record_to_frames,
    tile_slot_layout,
)
from contack_env.render.pictures import save_gif, save_strip
from contack_env.records.contack import game_record

SIZE = (800, 500)


def random_play(state, seed: int, moves: int | None = None):
    rng = np.random.default_rng(seed)
    played = 0
    while not state.done and (moves is None or played < moves):
        legal = state.legal_moves()
        state.play(legal[int(rng.integers(len(legal)))])
        played += 1
    return state


def record_of(state) -> dict[str, Any]:
    """The contack-record/1 of a finished game."""
    return game_record(state)


def pixel(image: np.ndarray, xy: tuple[float, float]) -> tuple[int, int, int]:
    x, y = xy
    return tuple(int(v) for v in image[int(round(y)), int(round(x))])  # type: ignore[return-value]


def towards(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def band_point(layout, x: int, y: int, side: str) -> tuple[float, float]:
    """A point in the middle of side ``side``'s edge band of cell (x, y): a few pixels in from the side's midpoint,
    well inside the band (which is more than 5% of the side deep at the sizes used here)."""
    (a, b) = layout.sides(x, y)[side]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    centre = layout.centre(x, y)
    depth = 0.035 * layout.side
    dist = math.dist(mid, centre)
    return towards(mid, centre, depth / dist)


def placed(state) -> list[tuple[int, int, int]]:
    return [(tile, *cell_xy(cell)) for cell, tile in state.figure.placed.items()]


# -- render_rgb ------------------------------------------------------------------------------------------------
def test_shape_and_dtype():
    state = new_game(3, seed=1)
    image = render_rgb(state, size=SIZE)
    assert image.shape == (SIZE[1], SIZE[0], 3) and image.dtype == np.uint8
    assert render_rgb(state, size=640).shape == (400, 640, 3)


def test_different_states_give_different_pictures():
    state = new_game(2, seed=4)
    before = render_rgb(state, size=SIZE)
    state.play(state.legal_moves()[0])
    after = render_rgb(state, size=SIZE)
    assert before.shape == after.shape
    assert (before != after).any(axis=2).sum() > 500


@pytest.mark.parametrize(
    "state",
    [
        random_play(new_game(2, seed=7), seed=7, moves=6),
        random_play(new_game(4, seed=8), seed=8, moves=9),
        random_play(new_game(7, seed=10), seed=10, moves=14),
        random_play(new_solitaire1(9), seed=9),
        random_play(new_solitaire2(9), seed=9, moves=12),
    ],
    ids=["2p", "4p", "7p", "solitaire1", "solitaire2"],
)
def test_every_tile_shows_its_face_and_side_colours_where_the_layout_puts_it(state):
    image = render_rgb(state, size=SIZE)
    layout = render_layout(state, size=SIZE)
    last = cell_xy(state.figure.last)
    assert layout.side > 60  # bands several pixels deep
    for tile, x, y in placed(state):
        centre = layout.centre(x, y)
        # Halfway from the centre to the corner opposite B: clear of the bands and of the numbers.
        assert pixel(image, towards(centre, layout.corners(x, y)["B"], 0.5)) == FACE
        if (x, y) == last:
            continue  # its outline covers the rim of its bands
        for side in ("L", "R", "B"):
            if neighbour(x, y, side) == last:
                continue  # the last tile's outline covers this band's rim too
            assert pixel(image, band_point(layout, x, y, side)) == EDGE[side_colour(x, y, side)], (x, y, side)
    for corner in layout.corners(*last).values():
        assert pixel(image, corner) == HIGHLIGHT
    others = [(x, y) for _, x, y in placed(state) if (x, y) != last]
    for x, y in others:
        assert pixel(image, towards(layout.centre(x, y), layout.corners(x, y)["B"], 0.5)) != HIGHLIGHT


def test_blue_is_at_the_bottom_of_up_tiles_and_the_top_of_down_tiles():
    # The opening tile is an up cell: its blue band lies below its centre; a down tile's lies above.
    state = new_game(2, seed=4)
    state.play(next(m for m in state.legal_moves() if (m.x + m.y) % 2))
    image = render_rgb(state, size=SIZE)
    layout = render_layout(state, size=SIZE)
    cx, cy = layout.centre(0, 0)
    below = (cx, cy + 0.27 * layout.side)  # just above the base (the centre is 0.289 side above it)
    assert pixel(image, below) == EDGE[0]
    (x, y) = cell_xy(state.figure.last)
    dx, dy = layout.centre(x, y)
    assert pixel(image, (dx, dy - 0.24 * layout.side)) == EDGE[0]  # under the top edge, clear of its outline


def test_target_cells_are_marked_and_vanish_when_played():
    state = new_game(3, seed=2)
    image = render_rgb(state, size=SIZE)
    layout = render_layout(state, size=SIZE)
    targets = {(m.x, m.y) for m in state.legal_moves()}
    assert targets
    for x, y in targets:
        assert pixel(image, layout.centre(x, y)) == TARGET


def test_bounds_fix_the_scale():
    state = new_game(2, seed=4)
    small = render_layout(state, size=SIZE)
    wide = render_layout(state, size=SIZE, bounds=(-10, 10, -5, 5))
    assert wide.side < small.side / 3


def test_bad_arguments_are_refused():
    state = new_game(2, seed=4)
    with pytest.raises(ValueError, match="the image is 160 x 100 to 8000 x 8000 pixels; got 50 x 50"):
        render_rgb(state, size=(50, 50))
    # 2**31 failed in Pillow ("signed integer is greater than maximum"), 60000 x 40000 ran out of memory
    for huge in ((2**31, 200), (60000, 40000), 9000):
        with pytest.raises(ValueError, match="the image is 160 x 100 to 8000 x 8000 pixels"):
            render_rgb(state, size=huge)
    for odd in ("big", (720.9, 450.9), ("720", "450"), (float("inf"), 450), (720,)):  # no rounding, no parsing
        with pytest.raises(ValueError, match="width in pixels or a .width, height. pair of whole numbers"):
            render_rgb(state, size=odd)  # type: ignore[arg-type]
    for bounds in ("abc", (float("nan"), 1, 0, 1), (1, 0, 0, 0), (0, 1, 0)):
        with pytest.raises(ValueError, match=r"bounds is \(xmin, xmax, ymin, ymax\), four whole numbers"):
            render_rgb(state, bounds=bounds)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="supersample"):
        render_rgb(state, supersample=0)
    with pytest.raises(TypeError, match="ContackGame, Solitaire1 or Solitaire2"):
        render_rgb(object())  # type: ignore[arg-type]


# -- records ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def two_hand_record() -> dict[str, Any]:
    return record_of(random_play(new_game(3, num_hands=2, seed=6), seed=6))


def places(record: dict[str, Any]) -> int:
    return sum(1 for hand in record["hands"] for e in hand["events"] if e["type"] == "place")


def test_frames_one_per_opening_and_per_placement(two_hand_record):
    frames = record_to_frames(two_hand_record, size=(320, 200), supersample=1)
    assert len(frames) == places(two_hand_record) + len(two_hand_record["hands"])
    assert all(f.shape == (200, 320, 3) and f.dtype == np.uint8 for f in frames)
    assert all((a != b).any() for a, b in zip(frames, frames[1:]))


def test_a_finished_hand_is_shown_before_the_next_deal(two_hand_record):
    # Frame k (k >= 1) follows the k-th placement. The first hand's last placement gets a frame with its whole
    # figure at the hand's scale, one tile more than the frame before; then comes the next deal.
    first_places = sum(1 for e in two_hand_record["hands"][0]["events"] if e["type"] == "place")
    frames = record_to_frames(two_hand_record, size=(480, 300), supersample=1)
    face = [int((f == np.array(FACE, dtype=np.uint8)).all(axis=2).sum()) for f in frames]
    end = first_places
    per_tile = face[end - 1] / first_places  # first_places tiles on the table before the last placement
    assert face[end] == pytest.approx(face[end - 1] + per_tile, rel=0.05)
    assert (frames[end + 1] != frames[end]).any()


@pytest.mark.parametrize("make", [lambda: new_solitaire1(3), lambda: new_solitaire2(3)], ids=["solitaire1", "solitaire2"])
def test_solitaire_records_replay(make):
    state = random_play(make(), seed=3)
    record = record_of(state)
    frames = record_to_frames(record, size=(320, 200), supersample=1)
    assert len(frames) == places(record) + 1 == len(state.figure)


def test_gif_has_one_frame_per_frame(tmp_path, two_hand_record):
    path = save_gif(two_hand_record, tmp_path / "game.gif", fps=4, size=(320, 200))
    with Image.open(path) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == places(two_hand_record) + len(two_hand_record["hands"])
        assert gif.size == (320, 200)
        assert gif.info["duration"] == 250


def test_strip_holds_every_nth_frame_and_the_last(tmp_path, two_hand_record):
    size = (240, 150)
    frames = record_to_frames(two_hand_record, size=size)
    n = len(frames)
    chosen = save_strip(two_hand_record, tmp_path / "strip.png", every=4, columns=3, size=size)
    expected = list(range(0, n, 4)) + ([n - 1] if (n - 1) % 4 else [])
    assert chosen == expected
    with Image.open(tmp_path / "strip.png") as im:
        strip = np.asarray(im.convert("RGB"))
    rows = math.ceil(len(expected) / 3)
    assert strip.shape == (rows * size[1], 3 * size[0], 3)
    for k, index in enumerate(expected):
        r, c = divmod(k, 3)
        cell = strip[r * size[1] : (r + 1) * size[1], c * size[0] : (c + 1) * size[0]]
        assert (cell == frames[index]).all()


def test_bad_records_and_paths_are_refused(tmp_path, two_hand_record):
    with pytest.raises(ValueError, match='^game: unknown game "chess"'):
        record_to_frames({**two_hand_record, "game": "chess"})
    with pytest.raises(ValueError, match="^record: missing key 'format'"):
        record_to_frames({"players": 2})
    with pytest.raises(ValueError, match=r"end in \.gif"):
        save_gif(two_hand_record, tmp_path / "game.png")
    with pytest.raises(ValueError, match="every is a positive integer"):
        save_strip(two_hand_record, tmp_path / "s.png", every=0)


def test_an_illegal_place_event_names_where_it_is(two_hand_record):
    import copy

    bad = copy.deepcopy(two_hand_record)
    event = next(e for e in bad["hands"][0]["events"] if e["type"] == "place")
    index = bad["hands"][0]["events"].index(event)
    event["cell"] = [40, 40]
    with pytest.raises(ValueError, match=rf"^hand 1, event {index + 1} \(place\): {event['tile']} at \(40, 40\) is not legal here"):
        record_to_frames(bad, size=(320, 200))


# -- the tile set ----------------------------------------------------------------------------------------------
def test_tile_sheet_shape_follows_columns_and_side():
    assert render_tiles(columns=9, side=80).shape == (4 * 96, 9 * 100, 3)
    assert render_tiles(columns=12, side=40).shape == (3 * 48, 12 * 50, 3)
    assert render_tiles([5, 6], columns=9, side=40).shape == (48, 2 * 50, 3)  # fewer tiles than columns


def test_every_tile_of_the_sheet_lies_blue_on_the_base_where_the_slot_layout_says():
    side, columns = 80, 9
    image = render_tiles(columns=columns, side=side)
    for k in range(36):
        layout = tile_slot_layout(k, columns, side)
        assert pixel(image, towards(layout.centre(0, 0), layout.corners(0, 0)["B"], 0.5)) == FACE, k
        for s in ("L", "R", "B"):
            assert pixel(image, band_point(layout, 0, 0, s)) == EDGE[side_colour(0, 0, s)], (k, s)
    # an up cell: blue along the base, below the centre
    cx, cy = tile_slot_layout(0, columns, side).centre(0, 0)
    assert pixel(image, (cx, cy + 0.27 * side)) == EDGE[0]


def test_tile_sheet_slots_show_their_own_tile_and_none_leaves_the_place_empty():
    side = 60
    image = render_tiles([0, None, 35], columns=3, side=side)
    slot_w = round(1.25 * side)
    assert (image[:, slot_w : 2 * slot_w] == PANEL).all()
    first, last = image[:, :slot_w], image[:, 2 * slot_w :]
    assert (first != last).any(axis=2).sum() > 50  # different numbers and names
    same = render_tiles([35, None, 35], columns=3, side=side)
    assert (same[:, :slot_w] == last).all()


def test_tile_sheet_bad_arguments_are_refused():
    for bad in ([36], [-1], ["01-02-03"], [True]):
        with pytest.raises(ValueError, match=r"tile ids 0\.\.35 or None"):
            render_tiles(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one tile"):
        render_tiles([])
    with pytest.raises(ValueError, match="columns is a positive integer"):
        render_tiles(columns=0)
    with pytest.raises(ValueError, match="side is a tile's side"):
        render_tiles(side=10)
    with pytest.raises(ValueError, match="supersample"):
        render_tiles(supersample=5)
