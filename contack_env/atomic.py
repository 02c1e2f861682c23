"""Writing a file so that a reader sees the old content or the new, whole, never half a file."""

from __future__ import annotations

import os
import tempfile
from typing import Any

TEMPORARY_PREFIX = ".tmp-"
"""The names ``atomic_path`` writes under before the replace (what a kill at that moment leaves behind)."""


class atomic_path:
    """``with atomic_path(path) as tmp:`` write ``tmp``; on success it is flushed to disk and replaces ``path``
    in one step, so ``path`` holds the old content or the new, whole, even across a kill or a power loss."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __enter__(self) -> str:
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(dir=directory, prefix=TEMPORARY_PREFIX, suffix=os.path.basename(self.path))
        os.close(fd)
        return self.tmp

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            # mkstemp makes the file private (0600); give it the mode a plain open() would have
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.tmp, 0o666 & ~umask)
            with open(self.tmp, "rb") as f:
                os.fsync(f.fileno())
            os.replace(self.tmp, self.path)
            _fsync_directory(os.path.dirname(os.path.abspath(self.path)))
        elif os.path.exists(self.tmp):
            os.remove(self.tmp)


def _fsync_directory(directory: str) -> None:
    """Make the replace itself durable (where the platform lets a directory be opened: not on Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
