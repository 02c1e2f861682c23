"""The one error every record reader and checker raises."""

from __future__ import annotations

__all__ = ["RecordError"]


class RecordError(ValueError):
    """A record that is malformed or does not replay. ``where`` says where (e.g. ``hand 2, event 14 (place)``,
    ``move 5 ([3, 4])``, or a file and line), ``why`` what is wrong; ``str()`` is ``"where: why"``."""

    def __init__(self, why: str, where: str = "") -> None:
        self.where = where
        self.why = why
        super().__init__(f"{where}: {why}" if where else why)
