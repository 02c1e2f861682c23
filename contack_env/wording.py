"""Counts in messages: ``1 game``, ``2 games``."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1 (``-es`` after a hissing end, as in "batches";
    ``many``: an irregular plural)."""
    regular = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{count} {word if count == 1 else many or regular}"
