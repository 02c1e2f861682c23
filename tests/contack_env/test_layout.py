"""The observation-layout mechanism (``contack_env.envs.layout``) on a small made-up layout."""

from __future__ import annotations

import numpy as np
import pytest

from contack_env.envs.layout import Column, Columns, ObservationLayout, Piece

ROW = Columns(Column("present", "holds a cell"), Column("xy", "its position", width=2))
TINY = ObservationLayout(
    [
        Piece("cells", (2, 3), "per cell:", columns=ROW),
        Piece("score", (), "score / {scale:g}, clipped", scale=100.0, low=-1.0),
        Piece("flags", (4,), "one-hot: the seat to move"),
    ]
)


def test_pieces_are_laid_end_to_end():
    assert TINY.size == 11
    assert [(TINY.start(p.name), TINY.end(p.name)) for p in TINY] == [(0, 6), (6, 7), (7, 11)]
    assert TINY.indices("cells").tolist() == [[0, 1, 2], [3, 4, 5]]
    assert ROW["xy"] == 1 and ROW.span("xy") == slice(1, 3) and ROW.width == 3


def test_views_write_through_to_the_vector():
    obs = np.zeros(TINY.size, dtype=np.float32)
    TINY.view(obs, "cells")[1, ROW.span("xy")] = (0.5, 0.25)
    TINY.view(obs, "flags")[2] = 1.0
    assert obs.tolist() == [0, 0, 0, 0, 0.5, 0.25, 0, 0, 0, 1, 0]


def test_bounds_come_from_the_pieces():
    assert TINY.low.tolist() == [0] * 6 + [-1] + [0] * 4
    assert (TINY.high == 1).all() and TINY.low.dtype == np.float32


def test_the_card_table_lists_every_piece_with_its_shape_and_scale():
    lines = TINY.card_table().splitlines()
    assert [c.strip() for c in lines[0].split("|")[1:5]] == ["indices", "piece", "shape", "content"]
    cells = [line.split("|")[1:4] for line in lines[2:]]
    assert [[c.strip() for c in row] for row in cells] == [["0-5", "`cells`", "2 x 3"], ["6", "`score`", "1"], ["7-10", "`flags`", "4"]]
    assert "per cell: 0: holds a cell; 1-2: its position" in lines[2]
    assert "score / 100, clipped" in lines[3]


def test_misdeclared_layouts_are_refused():
    with pytest.raises(ValueError, match="two pieces are named 'a'"):
        ObservationLayout([Piece("a", (1,), ""), Piece("a", (2,), "")])
    with pytest.raises(ValueError, match="two columns are named 'x'"):
        Columns(Column("x", ""), Column("x", ""))
    with pytest.raises(ValueError, match="is not its 3 columns"):
        Piece("cells", (2, 4), "", columns=ROW)
    with pytest.raises(KeyError):
        TINY.columns("score")
