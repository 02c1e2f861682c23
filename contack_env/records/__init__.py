"""Game records (docs/records.md), both formats: ``contack-record/1`` (Contack and the solitaires,
``contack_env.records.contack``) and ``contactix-record/1`` (``contack_env.records.contactix``).

One reader and writer (``files``), one walker (``walker``) that replays any record event by event through the
engine or an environment, each format a codec, and the formats' JSON Schema files (``schemas/``) for the
structure checks. ``replay`` and ``check_paths`` take a record of either format, by its ``format``.
"""

from contack_env.records.errors import RecordError
from contack_env.records.files import append_record, parse_records, read_records, write_records
from contack_env.records.formats import CODECS, check_paths, codec_for, replay, walk

__all__ = [
    "CODECS",
    "RecordError",
    "append_record",
    "check_paths",
    "codec_for",
    "parse_records",
    "read_records",
    "replay",
    "walk",
    "write_records",
]
