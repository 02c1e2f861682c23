"""What every check of a count given by a user asks first: is it a whole number?

Python's ``bool`` is an ``int`` (``True == 1``), so ``isinstance(value, int)`` lets ``hands=True`` through as one
hand; and numpy's integers (what an array of seeds holds) are not ``int``. ``is_whole_number`` takes the one and
refuses the other, so that every check says the same.

Standard library and numpy only: the rules layer imports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_whole_number(value: Any) -> bool:
    """True for an ``int`` or a numpy integer; False for a ``bool``, a float (even ``2.0``), a string, None."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
