"""The seeds every command and function of the suite takes: whole numbers ``0..MAX_SEED``.

A run of ``count`` games (or deals) from seed ``S`` plays game ``i`` from ``S + i`` and writes that seed into its
record, so that the game can be played again alone: every one of them must itself be a seed the suite takes
(``largest_first_seed``). Standard library only: the rules layer holds it, and every layer reads it.
"""

from __future__ import annotations

import operator

MAX_SEED = 2**63 - 1
"""The largest seed, the largest signed 64-bit integer (docs/reliability.md); the environments draw the seeds of
unseeded resets below it too."""


def largest_first_seed(count: int) -> int:
    """The largest seed that ``count`` games (or deals) may start from, game ``i`` from ``seed + i``: each record
    carries its game's seed, to be played again with it, so every one must be a seed the commands take."""
    return MAX_SEED - count + 1


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an ``int`` if it is a seed the suite takes: a whole number ``0..MAX_SEED``, a Python or numpy
    integer. ``ValueError`` naming ``name`` for anything else: a bool (``True`` would deal as seed 1), a float, a
    string, a list, a number out of range."""
    try:
        if isinstance(seed, bool):
            raise TypeError
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} is a whole number 0..{MAX_SEED}; got {seed!r} ({type(seed).__name__})") from None
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"{name} is a whole number 0..{MAX_SEED}; got {value}")
    return value


__all__ = ["MAX_SEED", "check_seed", "largest_first_seed"]
