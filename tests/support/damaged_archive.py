"""A copy of a ``.npz`` whose zip directory is whole but one member's compressed data is not: the damage a bad disk
or copy leaves, which the archive's directory does not show (``zipfile.is_zipfile`` still says yes)."""

from __future__ import annotations

import zipfile
from pathlib import Path


def damaged_copy(source: str | Path, target: str | Path, member: str) -> Path:
    """``source`` written again to ``target`` with every member deflated, then the first byte of ``member``'s
    compressed data set to 0xFF: a deflate block of the reserved type, which zlib refuses however the rest reads."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for name in original.namelist():
            copy.writestr(name, original.read(name))
    with zipfile.ZipFile(target) as copy:
        info = copy.getinfo(member)
    data = bytearray(Path(target).read_bytes())
    # the local header: 30 bytes, then the name and the extra field, whose lengths it holds at 26 and 28
    start = info.header_offset + 30 + int.from_bytes(data[info.header_offset + 26:info.header_offset + 28], "little") \
        + int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")
    data[start] = 0xFF
    Path(target).write_bytes(bytes(data))
    return Path(target)
