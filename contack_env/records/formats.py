"""The record formats by name, and what works on any record: replay it, walk it, check files of them."""

from __future__ import annotations

import os
import sys
from typing import Any, Iterable, TextIO

from contack_env.records import contack, contactix
from contack_env.records.errors import RecordError
from contack_env.records.files import read_records
from contack_env.records.values import json_kind, show
from contack_env.records.walker import Codec, Through, Walk

__all__ = ["CODECS", "check_paths", "codec_for", "replay", "walk"]

CODECS: dict[str, Codec] = {codec.format: codec for codec in (contack.CODEC, contactix.CODEC)}
"""Every record format's codec, by its ``format`` string."""


STATISTICS_NOT_RECORDS = (": it is the statistics of a command (`contack evaluate --json`, `ratings --json`, `solve "
                          "--json`), not a game's record (`simulate --out`, `evaluate --records`)")


def codec_for(record: Any) -> Codec:
    """The codec of ``record``'s ``format``; ``RecordError`` if it is no record or of no known format."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object; got {json_kind(record)}", "record")
    fmt = record.get("format")
    codec = CODECS.get(fmt) if isinstance(fmt, str) else None
    if codec is None:
        if "format" not in record:
            # the commands' statistics begin as records do (with "game"), and are the likeliest slip of a name
            statistics = "entries" in record or "share_winnable" in record
            raise RecordError("missing key 'format'" + (STATISTICS_NOT_RECORDS if statistics else ""), "record")
        raise RecordError(f"unknown format {show(fmt)}; formats are {', '.join(map(show, CODECS))}", "format")
    return codec


def walk(record: Any, through: Through | None = None) -> Walk:
    """A ``Walk`` of ``record`` with the codec of its format, on the engine or on the driver ``through``
    makes."""
    return Walk(record, codec_for(record), through)


def replay(record: Any, through: Through | None = None) -> Any:
    """Replay ``record`` (any format) and check it; the final engine state, or ``RecordError``."""
    return walk(record, through).run()


def check_paths(
    paths: Iterable[str | os.PathLike[str]],
    out: TextIO | None = sys.stdout,
    through: Through | None = None,
) -> tuple[int, int]:
    """Replay every record of every file (any format, by its ``format``), printing one line per record, ``OK``
    or ``FAIL <where>: <why>``, then ``N passed, M failed``. ``<where>`` is ``<file>:<n>`` (n counts records
    from 1 in its file) followed by the place in the record (e.g. ``games.jsonl:2 hand 1, event 3 (place)``);
    the first ``": "`` of a FAIL line ends it, unless the file's name or a value the place echoes from the record
    (a move, ``move 2 ("x: y")``) holds one. A file that cannot be read, or holds no record, counts as one
    failure (``FAIL <file>: <why>``, or ``FAIL <file>, line <k>: <why>`` for malformed JSON). ``through``
    replays through an environment (``contack_env.envs.replay.through_env``) instead of the engine alone.
    Returns (passed, failed)."""
    if isinstance(paths, (str, bytes, os.PathLike)):  # one file, not the characters of its name
        paths = [paths]  # type: ignore[list-item]
    passed = failed = 0
    for path in paths:
        name = os.fspath(path)
        torn: list[RecordError] = []
        try:
            records = read_records(path, on_torn=torn.append)
        except RecordError as e:
            print(f"FAIL {e.where or name}: {e.why}", file=out)
            failed += 1
            continue
        except OSError as e:
            reason = e.strerror or str(e)
            print(f"FAIL {name}: cannot read: {reason}", file=out)
            failed += 1
            continue
        for e in torn:  # a torn last line fails; the intact records before it are checked all the same
            print(f"FAIL {e.where}: {e.why}", file=out)
            failed += 1
        if not records:
            if not torn:
                print(f"FAIL {name}: no records in the file", file=out)
                failed += 1
            continue
        for n, record in enumerate(records, 1):
            try:
                replay(record, through)
            except RecordError as e:
                where = f"{name}:{n} {e.where}" if e.where else f"{name}:{n}"
                print(f"FAIL {where}: {e.why}", file=out)
                failed += 1
            except ValueError as e:
                print(f"FAIL {name}:{n}: {e}", file=out)
                failed += 1
            except RecursionError:
                print(f"FAIL {name}:{n}: nested too deeply to check (a record nests a few levels)", file=out)
                failed += 1
            else:
                print(f"OK {name}:{n}", file=out)  # which record passed, as a FAIL line says which failed
                passed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed
