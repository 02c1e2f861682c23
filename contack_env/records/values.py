"""JSON values as records hold them: what kind a value is, strict equality, and a value shown in a message."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

__all__ = ["is_int", "json_kind", "plain", "same_json", "show"]


def is_int(value: Any) -> bool:
    """A JSON integer: an ``int`` but not a ``bool`` (``True`` is no seat number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_kind(value: Any) -> str:
    """What a JSON value is, in words (``an array``, ``a string``, ...), for messages."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if value is None:
        return "null"
    return type(value).__name__


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, lists and tuples alike, but never ``True == 1`` or ``1.0 == 1``."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def plain(value: Any) -> Any:
    """``value`` with tuples as lists and numpy integers as ints, as JSON writes them."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    return value


def show(value: Any, limit: int | None = None) -> str:
    """``value`` as JSON text (its ``repr`` if it is no JSON), cut to ``limit`` characters if given; a numpy
    number (a record built in Python) says so, since JSON would write it as the plain number a check asked for."""
    try:
        text = json.dumps(plain(value))
    except (TypeError, ValueError):
        text = repr(value)
    if limit is not None and len(text) > limit:
        text = text[: limit - 3] + "..."
    if isinstance(value, np.generic):  # shown as JSON writes it ("got 2"), it would read as the value asked for
        text += f" (numpy.{type(value).__name__}: a record holds JSON values, plain ints and floats)"
    return text
