"""Counts in messages: ``1 game``, ``2 games``."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless ``count`` is 1 (``many``: an irregular plural)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
