"""The processes of a process group or a session, read from ``/proc``: what a test checks is left behind."""

from __future__ import annotations

import os
from pathlib import Path


def processes_in(group: int | None = None, session: int | None = None) -> dict[int, tuple[str, str]]:
    """The processes of process group ``group`` or of session ``session``: pid -> (state, command line)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if (group is not None and int(fields[2]) == group) or (session is not None and int(fields[3]) == session):
                found[int(entry)] = (fields[0], command)
    return found


def process_group(pgid: int) -> dict[int, tuple[str, str]]:
    """The processes in process group ``pgid``: pid -> (state, command line)."""
    return processes_in(group=pgid)
