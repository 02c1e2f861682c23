"""Record files, for both formats: read (one JSON object, a JSON array, or JSON lines), write (JSON lines,
replacing the file atomically) and append (one line at the end)."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable, Iterable

from contack_env.atomic import open_atomic
from contack_env.checks import lone_surrogate
from contack_env.records.errors import RecordError
from contack_env.records.values import json_kind as _json_kind
from contack_env.wording import plural

__all__ = ["append_record", "parse_records", "read_records", "write_records"]


def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` to ``path`` as JSON lines, one record a line, replacing the file atomically
    (``contack_env.atomic``): a reader never sees half a file, and a failed write (a record that is not a dict,
    an exception of the iterable's, Ctrl-C) leaves the old one. ``records`` is consumed as it is written, so a
    generator of games (``contack simulate``) is never held in memory whole; a stream (``/dev/stdout``, a pipe)
    is written in place, and gets the records before a failure. Returns the count."""
    path = os.fspath(path)
    count = 0
    with open_atomic(path) as f:
        for count, record in enumerate(records, 1):
            if not isinstance(record, dict):
                raise TypeError(f"record {count}: a record is a dict; got {type(record).__name__}")
            try:
                line = _record_line(record)
            except (TypeError, ValueError) as err:  # a numpy integer, a NaN, a lone surrogate: say which record
                raise type(err)(f"record {count}: {err}") from None
            f.write(line)
    return count


def append_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Add one record as a line at the end of the JSON-lines file ``path`` (created if missing).

    For long runs that save games as they finish; the line goes out in one write, but unlike ``write_records``
    an interrupted append can leave a partial last line (``read_records(..., on_torn=...)``, ``contack replay``
    and ``contack render`` report it and read the records before it). Appending after such a line would leave it
    in the middle of the file, where it makes the whole file unreadable: a file whose last line is not a whole
    record (torn, or a line of a file of another kind: a text file, a CSV) raises ``RecordError`` and is left as
    it is.
    """
    if not isinstance(record, dict):
        raise TypeError(f"a record is a dict; got {type(record).__name__}")
    line = _record_line(record)
    with open(path, "a+b") as f:
        if f.seek(0, os.SEEK_END) > 0:
            f.seek(-1, os.SEEK_END)
            ends_a_line = f.read(1) == b"\n"
            last = _last_written_line(f).removeprefix(b"\xef\xbb\xbf")  # the file's start may be the line's
            try:
                text = last.decode("utf-8")
                whole = not text.strip() or isinstance(_loads(text), dict)  # a blank tail is no torn record
            except _LoneSurrogate as err:  # a record, but one no reader takes: the file is to be mended first
                raise RecordError(f"its last line holds the string {err.text!r}, with a lone surrogate (no character: "
                                  "no reader of records takes that line); mend it before records are added",
                                  os.fspath(path)) from None
            except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
                whole = False
            if not whole and ends_a_line:  # a whole line, of something else: a file of another kind
                raise RecordError("its last line is not a JSON object, as a record is: records are added only to a "
                                  "JSON-lines file of records (or a new or empty one)", os.fspath(path))
            if not whole:
                raise RecordError("its last line is not a whole record (an interrupted write, or not a JSON-lines "
                                  "file): a line added after it would make the whole file unreadable; remove "
                                  "that line first (the records before it are intact)", os.fspath(path))
            if not ends_a_line:
                line = "\n" + line
        f.write(line.encode("utf-8"))


def _last_written_line(f: Any, block: int = 1 << 16) -> bytes:
    """The last line of the open file ``f`` that holds more than white space (read backwards, a block at a
    time), or its white space when it holds nothing else."""
    end = f.seek(0, os.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - block)
        f.seek(start)
        tail = f.read(end - start) + tail
        body = tail.rstrip()
        cut = body.rfind(b"\n")
        if body and cut >= 0:
            return body[cut + 1:]
        end = start
    return tail.rstrip() or tail


def _record_line(record: dict[str, Any]) -> str:
    """``record`` as one line of JSON, newline included; ``ValueError`` or ``TypeError`` for what no record holds,
    and so no reader here takes back (a NaN, a numpy number, a lone surrogate)."""
    try:
        line = json.dumps(record, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{err} (a record holds JSON values: plain ints, finite floats, strings, lists, dicts)") from None
    bad = lone_surrogate(record) if SURROGATE_ESCAPE.search(line) else None
    if bad is not None:
        raise ValueError(f"the string {bad!r} holds a lone surrogate, an escape that is half of a pair and no "
                         "character (no reader of records takes it back)")
    return line + "\n"


def read_records(
    path: str | os.PathLike[str], *, on_torn: Callable[[RecordError], None] | None = None
) -> list[dict[str, Any]]:
    """The records in ``path``: a single JSON object, a JSON array of objects, or JSON lines (one object a
    line, blank lines skipped). Malformed JSON raises ``RecordError`` naming the file and line (also a key that
    an object holds twice, a number of thousands of digits, or nesting too deep to read); a file that cannot
    be opened raises ``OSError``.

    ``on_torn``: what to do with a torn last line of a JSON-lines file (cut short, as an interrupted append
    leaves it): it is called with the ``RecordError`` for that line and the intact records are returned. By
    default a torn line raises like any other."""
    name = os.fspath(path)
    with open(path, "rb") as f:
        data = _read_lines_of_records(f, name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"not UTF-8 text (byte {e.start}); records are JSON", f"{name}, line {line}") from None
    return parse_records(text, name, on_torn=on_torn)


MAX_LINE_BYTES = 64 << 20
"""The longest line a records file is read to (a record of a seven-player game is a line of about 20 KB)."""
READ_CHUNK_BYTES = 1 << 20


def _read_lines_of_records(f: Any, name: str) -> bytes:
    """All of ``f``, read a chunk at a time, or ``RecordError`` once ``MAX_LINE_BYTES`` pass without a line break:
    no file of records is so (a device such as /dev/zero never ends, and a file of zeros is no text), and reading
    on would fill the memory."""
    chunks: list[bytes] = []
    since_break = 0  # bytes since the last line break
    lines = 1
    while chunk := f.read(READ_CHUNK_BYTES):
        chunks.append(chunk)
        breaks = chunk.count(b"\n")
        since_break = len(chunk) - chunk.rfind(b"\n") - 1 if breaks else since_break + len(chunk)
        lines += breaks
        if since_break > MAX_LINE_BYTES:
            raise RecordError(f"more than {MAX_LINE_BYTES >> 20} MiB without a line break; records are JSON, one "
                              "record a line of a few KB (or a JSON array of them, over many lines)", f"{name}, line {lines}")
    return b"".join(chunks)


def parse_records(
    text: str, name: str = "the text", *, on_torn: Callable[[RecordError], None] | None = None
) -> list[dict[str, Any]]:
    """The records in ``text``, read as ``read_records`` reads a file (``name`` is where errors say they are);
    an empty text holds none. A byte-order mark at the start, as some editors begin a UTF-8 file, is skipped."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return []
    try:
        whole = _loads(text)
    except json.JSONDecodeError as e:
        if not e.msg.startswith("Extra data"):
            # Not a valid first value: the error is where the decoder stopped (a pretty-printed object or an
            # array is one value over many lines, so its line is the one to report).
            raise RecordError(f"invalid JSON: {e.msg} (column {e.colno})", f"{name}, line {e.lineno}") from None
        return _read_lines(name, text, on_torn)
    except (ValueError, RecursionError) as e:  # read, but not to be believed: find its line if the file has lines
        if _first_line_reads(text):
            return _read_lines(name, text, on_torn)
        raise RecordError(_unreadable(e), name) from None
    if isinstance(whole, dict):
        return [whole]
    if isinstance(whole, list):
        for k, item in enumerate(whole, 1):
            if not isinstance(item, dict):
                raise RecordError(f"item {k} of the array is {_json_kind(item)}; a record is a JSON object", name)
        return whole
    raise RecordError(f"the file holds {_json_kind(whole)}; records are JSON objects (one, an array, or one a line)", name)


def _read_lines(name: str, text: str, on_torn: Callable[[RecordError], None] | None = None) -> list[dict[str, Any]]:
    records = []
    lines = text.splitlines()
    last = max((k for k, line in enumerate(lines, 1) if line.strip()), default=0)
    # An interrupted append leaves its line cut short, without the newline that ends every line written whole: a
    # bad last line that is followed by one (or by blank lines) is bad JSON, not a torn write.
    if lines and (last < len(lines) or text.endswith(("\n", "\r"))):
        last = 0
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = _loads(line)
        except json.JSONDecodeError as e:
            if lineno == last and on_torn is not None:
                on_torn(RecordError(f"torn last line, cut short as an interrupted write leaves it (invalid JSON: "
                                    f"{e.msg}, column {e.colno}); the {plural(len(records), 'record')} before it "
                                    f"{'is' if len(records) == 1 else 'are'} read",
                                    f"{name}, line {lineno}"))
                return records
            raise RecordError(f"invalid JSON: {e.msg} (column {e.colno})", f"{name}, line {lineno}") from None
        except (ValueError, RecursionError) as e:
            raise RecordError(_unreadable(e), f"{name}, line {lineno}") from None
        if not isinstance(value, dict):
            raise RecordError(f"the line holds {_json_kind(value)}; a record is a JSON object", f"{name}, line {lineno}")
        records.append(value)
    return records


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # JSON leaves an object with a key twice open to any reading (Python keeps the last): a record must not.
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


class _LoneSurrogate(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
"""How JSON text writes a surrogate (a pair of them is one character beyond the 65,536 first ones)."""


def _loads(text: str) -> Any:
    value = json.loads(text, object_pairs_hook=_no_duplicates)
    if SURROGATE_ESCAPE.search(text):  # only then can a string hold a lone one: the walk is for such text alone
        bad = lone_surrogate(value)
        if bad is not None:
            raise _LoneSurrogate(bad)
    return value


def _first_line_reads(text: str) -> bool:
    """Whether the file is JSON lines as far as its first line tells: that line is a whole JSON value (or
    fails for a reason other than syntax: then it is the line at fault)."""
    first = next(line for line in text.splitlines() if line.strip())
    try:
        _loads(first)
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):
        return True
    return True


def _unreadable(err: Exception) -> str:
    """Why JSON that the decoder could not take in is refused."""
    if isinstance(err, _DuplicateKey):
        return f"invalid record: an object holds the key {err.key!r} twice (each key once: which one counts?)"
    if isinstance(err, _LoneSurrogate):
        return (f"invalid record: the string {err.text!r} holds a lone surrogate, an escape that is half of a pair and "
                "no character (it cannot be printed or written as UTF-8)")
    if isinstance(err, RecursionError):
        return "invalid record: nested too deeply to read (a record nests a few levels)"
    if "digits" in str(err):
        return "invalid record: a number of more than 4300 digits (no value of a record is that long)"
    return f"invalid JSON: {err}"
