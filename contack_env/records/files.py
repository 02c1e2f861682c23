"""Record files, for both formats: read (one JSON object, a JSON array, or JSON lines), write (JSON lines,
replacing the file atomically) and append (one line at the end)."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from contack_env.atomic import atomic_path
from contack_env.records.errors import RecordError
from contack_env.records.values import json_kind as _json_kind

__all__ = ["append_record", "read_records", "write_records"]


def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` to ``path`` as JSON lines, one record a line, replacing the file atomically (a
    temporary file beside it, then a rename): a reader never sees half a file. Returns the count."""
    lines = []
    for n, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise TypeError(f"record {n}: a record is a dict; got {type(record).__name__}")
        lines.append(json.dumps(record, allow_nan=False) + "\n")
    with atomic_path(os.fspath(path)) as tmp:
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(lines)
    return len(lines)


def append_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Add one record as a line at the end of the JSON-lines file ``path`` (created if missing).

    For long runs that save games as they finish; the line goes out in one write, but unlike ``write_records``
    an interrupted append can leave a partial last line.
    """
    if not isinstance(record, dict):
        raise TypeError(f"a record is a dict; got {type(record).__name__}")
    line = json.dumps(record, allow_nan=False) + "\n"
    with open(path, "a+b") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                line = "\n" + line
        f.write(line.encode("utf-8"))


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records in ``path``: a single JSON object, a JSON array of objects, or JSON lines (one object a
    line, blank lines skipped). Malformed JSON raises ``RecordError`` naming the file and line; a file that
    cannot be opened raises ``OSError``."""
    name = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"not UTF-8 text (byte {e.start}); records are JSON", f"{name}, line {line}") from None
    if not text.strip():
        return []
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as e:
        if not e.msg.startswith("Extra data"):
            # Not a valid first value: the error is where the decoder stopped (a pretty-printed object or an
            # array is one value over many lines, so its line is the one to report).
            raise RecordError(f"invalid JSON: {e.msg} (column {e.colno})", f"{name}, line {e.lineno}") from None
        return _read_lines(name, text)
    if isinstance(whole, dict):
        return [whole]
    if isinstance(whole, list):
        for k, item in enumerate(whole, 1):
            if not isinstance(item, dict):
                raise RecordError(f"item {k} of the array is {_json_kind(item)}; a record is a JSON object", name)
        return whole
    raise RecordError(f"the file holds {_json_kind(whole)}; records are JSON objects (one, an array, or one a line)", name)


def _read_lines(name: str, text: str) -> list[dict[str, Any]]:
    records = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"invalid JSON: {e.msg} (column {e.colno})", f"{name}, line {lineno}") from None
        if not isinstance(value, dict):
            raise RecordError(f"the line holds {_json_kind(value)}; a record is a JSON object", f"{name}, line {lineno}")
        records.append(value)
    return records
