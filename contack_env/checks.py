"""What every check of a count given by a user asks first: is it a whole number? (``whole_number_text``: the
same question of a count typed on a command line.)

Python's ``bool`` is an ``int`` (``True == 1``), so ``isinstance(value, int)`` lets ``hands=True`` through as one
hand; and numpy's integers (what an array of seeds holds) are not ``int``. ``is_whole_number`` takes the one and
refuses the other, so that every check says the same.

Standard library and numpy only: the rules layer imports it.
"""

from __future__ import annotations

import decimal
from typing import Any

import numpy as np


def is_whole_number(value: Any) -> bool:
    """True for an ``int`` or a numpy integer; False for a ``bool``, a float (even ``2.0``), a string, None."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def whole_number_text(text: str) -> int:
    """The whole number that ``text`` writes, as every command line reads a count: digits with an optional sign,
    or a number whose value is whole (``1e3``, ``2.0e6``), read exactly as written however long
    (``9007199254740993.0``, which a float would round); ``ValueError`` for anything else (``2.5``, ``nan``,
    ``x``, ``''``, a number of more than 308 digits written with an exponent, as ``1e400``)."""
    if text.strip().lstrip("+-").isdigit():
        return int(text)  # exactly, however long
    try:
        value = decimal.Decimal(text.strip())  # exactly as written: a float would round 9007199254740993.0
    except decimal.InvalidOperation:
        raise ValueError(f"not a whole number: {text!r}") from None
    # (past a float's range, 1e308, no count or seed is meant; its digits would only be refused later, at length)
    if not value.is_finite() or value.adjusted() > 308 or value != value.to_integral_value():
        raise ValueError(f"not a whole number: {text!r}")
    return int(value)


def lone_surrogate(value: Any) -> str | None:
    """The first string in ``value`` (a string, or JSON's lists and dicts of them, keys included) that holds a
    lone surrogate (``"\\ud800"``), else None. JSON may write one as an escape and Python's reader takes it, but it
    is no character: such a string cannot be written as UTF-8, so it fails wherever it is printed or sent."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if any("\ud800" <= c <= "\udfff" for c in item):
                return item
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None
