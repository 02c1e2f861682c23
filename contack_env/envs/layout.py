"""Observation layouts declared once, as named pieces.

An observation vector is a sequence of *pieces*, each with a name, a shape and what its values mean (as
OpenSpiel's observers declare their tensors). An ``ObservationLayout`` is built from the pieces alone; every
index an environment, a network or a test needs comes from it, and so does the table of the environment's card
(``card_table``), which a test compares with the card. A piece whose last axis holds a row of several values
(a tile's row, a cell slot's row) names them with ``Columns``.

    >>> tiny = ObservationLayout([Piece("cells", (2, 3), "per cell:", columns=Columns(
    ...     Column("present", "holds a cell"), Column("xy", "its position", width=2))),
    ...     Piece("score", (), "score / {scale:g}", scale=100.0, low=-1.0)])
    >>> tiny.size, tiny.start("score"), tiny.columns("cells")["xy"]
    (7, 6, 1)
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np


@dataclass(frozen=True)
class Column:
    """``width`` consecutive values of a row, named ``name``; ``text`` says what they mean."""

    name: str
    text: str
    width: int = 1


class Columns:
    """The named values of one row of a per-row piece, in order: ``columns["x"]`` is the index of ``x`` in the row."""

    def __init__(self, *columns: Column) -> None:
        self.columns = columns
        self._index: dict[str, int] = {}
        self._width: dict[str, int] = {}
        k = 0
        for column in columns:
            if column.name in self._index:
                raise ValueError(f"two columns are named {column.name!r}")
            self._index[column.name] = k
            self._width[column.name] = column.width
            k += column.width
        self.width = k

    def __getitem__(self, name: str) -> int:
        return self._index[name]

    def span(self, name: str) -> slice:
        """The indices of column ``name`` in the row."""
        start = self._index[name]
        return slice(start, start + self._width[name])

    def text(self) -> str:
        """The columns as the card lists them: ``0: present; 1-2: its position``."""
        parts = []
        for column in self.columns:
            k = self._index[column.name]
            where = f"{k}" if column.width == 1 else f"{k}-{k + column.width - 1}"
            parts.append(f"{where}: {column.text}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Piece:
    """One named block of an observation.

    ``shape`` is ``()`` for a single value. ``text`` says what the values are; ``{scale:g}`` in it stands for
    ``scale``, the number the quantity is divided by (when one fixed number is), so the card shows the number the
    code divides by. Every value lies in ``[low, 1]``. ``columns`` names the values of the last axis.
    """

    name: str
    shape: tuple[int, ...]
    text: str
    scale: float | None = None
    low: float = 0.0
    columns: Columns | None = None

    def __post_init__(self) -> None:
        if self.columns is not None and (not self.shape or self.shape[-1] != self.columns.width):
            raise ValueError(f"piece {self.name!r}: its last axis {self.shape} is not its {self.columns.width} columns")

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def description(self) -> str:
        """What the card says of the piece: its text, then its columns."""
        text = self.text.format(scale=self.scale) if self.scale is not None else self.text
        return f"{text} {self.columns.text()}" if self.columns is not None else text


class ObservationLayout:
    """The pieces of one observation vector, laid end to end in the order given."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = tuple(pieces)
        self._piece: dict[str, Piece] = {}
        self._start: dict[str, int] = {}
        k = 0
        for piece in self.pieces:
            if piece.name in self._piece:
                raise ValueError(f"two pieces are named {piece.name!r}")
            self._piece[piece.name] = piece
            self._start[piece.name] = k
            k += piece.size
        self.size = k
        low = np.zeros(k, dtype=np.float32)
        for piece in self.pieces:
            low[self.span(piece.name)] = piece.low
        self.low = low
        """The lowest value of every component (for the ``Box`` space); the highest is always 1."""
        self.high = np.ones(k, dtype=np.float32)

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __getitem__(self, name: str) -> Piece:
        return self._piece[name]

    def start(self, name: str) -> int:
        """The index of the first value of piece ``name`` (the index of a single-value piece)."""
        return self._start[name]

    def end(self, name: str) -> int:
        return self._start[name] + self._piece[name].size

    def span(self, name: str) -> slice:
        return slice(self._start[name], self.end(name))

    def columns(self, name: str) -> Columns:
        columns = self._piece[name].columns
        if columns is None:
            raise KeyError(f"piece {name!r} has no named columns")
        return columns

    def view(self, obs: np.ndarray, name: str) -> np.ndarray:
        """Piece ``name`` of the vector ``obs``, in its shape (a view: writing to it writes ``obs``)."""
        piece = self._piece[name]
        return obs[self.span(name)].reshape(piece.shape)

    def indices(self, name: str) -> np.ndarray:
        """The vector indices of piece ``name``, in its shape: ``indices("cells")[k]`` is cell slot ``k``'s row."""
        piece = self._piece[name]
        return np.arange(self._start[name], self.end(name)).reshape(piece.shape)

    def card_table(self, width: int = 72) -> str:
        """The observation table of the environment's card: one row per piece (indices, name, shape, meaning),
        its meaning wrapped to ``width`` characters on continuation rows."""
        rows = []
        for piece in self.pieces:
            first, last = self._start[piece.name], self.end(piece.name) - 1
            indices = f"{first}" if first == last else f"{first}-{last}"
            shape = " x ".join(map(str, piece.shape)) if piece.shape else "1"
            lines = textwrap.wrap(piece.description(), width, break_on_hyphens=False)
            rows.append((indices, f"`{piece.name}`", shape, lines[0]))
            rows.extend(("", "", "", line) for line in lines[1:])
        header = ("indices", "piece", "shape", "content")
        widths = [max(len(r[i]) for r in (header, *rows)) for i in range(4)]

        def line(cells: Sequence[str]) -> str:
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"

        rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([line(header), rule, *(line(r) for r in rows)])
