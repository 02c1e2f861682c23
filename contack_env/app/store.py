"""Open games and uploaded records kept by id: capped in number, dropped after a while unused."""

from __future__ import annotations

import secrets
import time
from typing import Callable, Generic, TypeVar

T = TypeVar("T")


class StoreFull(Exception):
    """No room for another item (the cap is reached and none has expired)."""


class Store(Generic[T]):
    """Items by a random id. ``get`` marks an item used; one unused for ``idle_seconds`` is dropped.

    At the cap, ``add`` makes room by dropping the least recently used item that ``spare(item)`` says can go (a
    finished game, a record file: anything its page can make again), and refuses only when none can.
    ``clock`` (seconds, monotonic) is injectable so expiry can be tested without waiting.
    """

    def __init__(self, cap: int, idle_seconds: float, clock: Callable[[], float] = time.monotonic,
                 spare: Callable[[T], bool] = lambda item: False) -> None:
        if cap < 1:
            raise ValueError(f"the cap is at least 1; got {cap}")
        if not idle_seconds > 0:
            raise ValueError(f"idle_seconds is positive; got {idle_seconds}")
        self.cap = cap
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.spare = spare
        self._items: dict[str, tuple[T, float]] = {}

    def __len__(self) -> int:
        self.purge()
        return len(self._items)

    def purge(self) -> int:
        """Drop the items unused for ``idle_seconds``; returns how many went."""
        now = self.clock()
        old = [key for key, (_, seen) in self._items.items() if now - seen >= self.idle_seconds]
        for key in old:
            del self._items[key]
        return len(old)

    def check_room(self) -> None:
        """``StoreFull`` when ``add`` would refuse an item now: checked before a costly item is made for nothing."""
        self._room()

    def _room(self) -> str | None:
        """The key of the item ``add`` would drop to make room (None: there is room); ``StoreFull`` if none can go."""
        self.purge()
        if len(self._items) < self.cap:
            return None
        spare = [(seen, key) for key, (held, seen) in self._items.items() if self.spare(held)]
        if not spare:
            raise StoreFull(
                f"{self.cap} are open, the most this server keeps; one unused for "
                f"{self.idle_seconds / 60:g} minutes is closed"
            )
        return min(spare)[1]

    def add(self, item: T) -> str:
        """Keep ``item``; its new id. At the cap the least recently used spare item makes room; ``StoreFull``
        when none is spare."""
        spare = self._room()
        if spare is not None:
            del self._items[spare]
        key = secrets.token_urlsafe(12)  # unguessable, so one page cannot act on another's game by counting
        self._items[key] = (item, self.clock())
        return key

    def get(self, key: str) -> T:
        """The item ``key`` names, marked used now; ``KeyError`` if there is none (never was, or expired)."""
        self.purge()
        item, _ = self._items[key]
        self._items[key] = (item, self.clock())
        return item
