"""Records of either format as pictures: frames from the records' walker, a GIF, a PNG strip."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from contack_env.contactix.rules import ContactixState, cell_index
from contack_env.records import RecordError, read_records
from contack_env.render import contactix
from contack_env.render.pictures import DRAWN_BY, not_drawn_here, record_frames, save_gif, save_strip

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def test_a_contactix_record_is_drawn_position_by_position():
    record = read_records(GOLDEN / "contactix_5x5.jsonl")[0]
    frames = record_frames(record, size=(480, 300))
    assert len(frames) == len(record["moves"]) + 1
    assert not any(held for _, held in frames)
    # Frame k is the board after k moves, as render_rgb draws it.
    state = ContactixState(record["size"], record["swap"])
    for k, move in enumerate(record["moves"][:3], 1):
        state.play(cell_index(move[0], move[1], state.size))
        assert (frames[k][0] == contactix.render_rgb(state, 300)).all()


def test_finished_hands_are_held_in_a_contack_animation():
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    frames = record_frames(record, size=(320, 200))
    held = [k for k, (_, h) in enumerate(frames) if h]
    assert len(held) == len(record["hands"]) - 1  # every hand but the last shows its finished figure


def test_gif_and_strip_of_a_contactix_record(tmp_path):
    record = read_records(GOLDEN / "contactix_5x5.jsonl")[1]
    frames = [f for f, _ in record_frames(record, size=(480, 300))]
    with Image.open(save_gif(record, tmp_path / "g.gif", fps=5, size=(480, 300))) as gif:
        assert gif.n_frames == len(frames) and gif.info["duration"] == 200
    chosen = save_strip(record, tmp_path / "s.png", every=3, columns=2, size=(480, 300))
    assert chosen[-1] == len(frames) - 1 and chosen[:2] == [0, 3]
    with Image.open(tmp_path / "s.png") as im:
        strip = np.asarray(im.convert("RGB"))
    height, width = frames[0].shape[:2]
    assert (strip[:height, width : 2 * width] == frames[3]).all()


def test_a_record_that_does_not_replay_is_not_drawn(tmp_path):
    record = copy.deepcopy(read_records(GOLDEN / "contactix_5x5.jsonl")[0])
    record["moves"][1] = record["moves"][0]
    with pytest.raises(RecordError, match=r"^move 2 .*already holds a black peg"):
        save_gif(record, tmp_path / "g.gif")
    assert not (tmp_path / "g.gif").exists()


def test_a_frame_rate_is_a_number_and_the_pictures_carry_their_mark(tmp_path):
    record = read_records(GOLDEN / "contactix_5x5.jsonl")[1]
    for fps in ("2", None, True):  # "2" failed comparing str with float; True drew at 1 frame a second
        with pytest.raises(ValueError, match=r"fps is a number of frames a second, 0.01 to 100; got "):
            save_gif(record, tmp_path / "g.gif", fps=fps)
    assert not (tmp_path / "g.gif").exists()
    save_gif(record, tmp_path / "g.gif", fps=np.float32(4), size=(480, 300))
    save_strip(record, tmp_path / "s.png", size=(480, 300))
    # what contack render reads to replace only its own pictures (tests/contack_env/test_cli_render.py)
    with Image.open(tmp_path / "g.gif") as gif, Image.open(tmp_path / "s.png") as png:
        assert gif.info["comment"] == DRAWN_BY.encode() and png.info["Software"] == DRAWN_BY
    assert not_drawn_here(tmp_path / "g.gif") is None and not_drawn_here(tmp_path / "s.png") is None
