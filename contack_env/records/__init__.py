"""Game records (docs/records.md): ``contack`` for ``contack-record/1`` (Contack and the solitaires), ``contactix``
for ``contactix-record/1``."""

from contack_env.records.contack import (
    FORMAT,
    GAMES,
    RecordError,
    append_record,
    check_paths,
    game_record,
    read_records,
    replay,
    write_records,
)

__all__ = [
    "FORMAT",
    "GAMES",
    "RecordError",
    "append_record",
    "check_paths",
    "game_record",
    "read_records",
    "replay",
    "write_records",
]
