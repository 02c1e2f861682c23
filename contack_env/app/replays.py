"""Records opened in the browser: a file's text read into records, and one record turned into frames to step
through.

A file is what ``contack simulate``, ``contack evaluate --records`` or the app's own download writes: one JSON
object, an array of them, or JSON lines; ``contack-record/1`` (Contack and both solitaires) and
``contactix-record/1`` records may be mixed. A record is walked through the engine by the records' walker
(``contack_env.records.walk``), every event checked, and a record that does not replay is refused whole, so a
page shows only games the rules allow.

Frames: the opening position, then the position after each decision (a placement, a CON-TAC-TIX move), with the
events that led to it (draws, passes, discards, the end of a hand) in words; the game's web adapter
(``contack_env.app.web_game``) adds any it shows on the way (Contack: a placement that ends a hand before the
last shows the finished hand, then the next hand's opening, as two frames).

Held files: the server keeps a file as its bytes (``HeldFile``), as parsed JSON takes many times their memory,
and reads it again when one of its games is opened; the records of the file opened last are kept
(``LastOpened``), so stepping through one file's games reads it once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from contack_env.games import GAMES, GameSpec
from contack_env.records import RecordError, codec_for, walk
from contack_env.records import parse_records as read_text
from contack_env.records.walker import EngineDriver, Setup

from .web_game import Frame, WebGame, record_agents, seat_names, web_game, whole_number

MAX_RECORDS = 5000


def parse_records(text: str) -> list[dict[str, Any]]:
    """The records in a file's text: one JSON object, an array of objects, or one object a line (read as
    ``contack_env.records.read_records`` reads a file). ``RecordError`` names the line and what is wrong."""
    if not text.strip():
        raise RecordError("the file is empty; a record file holds JSON objects")
    records = read_text(text, "the file")
    if not records:
        raise RecordError("the file holds no record")
    if len(records) > MAX_RECORDS:
        raise RecordError(f"the file holds {len(records)} records; this viewer opens at most {MAX_RECORDS}")
    for k, record in enumerate(records):
        try:
            codec_for(record)
        except RecordError as err:
            raise RecordError(err.why, f"record {k + 1}") from None
    return records


@dataclass(frozen=True)
class HeldFile:
    """A record file as the server keeps it between requests: its bytes (UTF-8 JSON, as uploaded) and how many
    records they hold. Parsed records take many times the memory of their text, and a server holds many files."""

    raw: bytes
    count: int


class LastOpened:
    """The records of the file whose game was opened last, so that stepping through one file's games reads it
    once. One file's records at a time, read by one thread at a time (parsing holds the interpreter anyway): the
    memory parsed records take is one file's, however many files are held or requests come at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: str | None = None
        self._records: list[dict[str, Any]] = []

    def records(self, key: str, held: HeldFile) -> list[dict[str, Any]]:
        """The records of the file held under ``key`` (read whole at its upload: no error now)."""
        with self._lock:
            if self._key != key:
                self._key, self._records = None, []  # the last file's records go before the next file's come
                self._records = parse_records(held.raw.decode("utf-8"))
                self._key = key
            return self._records


def summary(record: dict[str, Any], index: int) -> dict[str, Any]:
    """A line for the file's list of games, from the record's own fields (checked when the game is opened)."""
    spec = _game_of(record)
    if spec is not None and spec.web:
        return {"index": index, "game": spec.name, **web_game(spec.name).summary(record)}
    # Of no game this app shows: listed all the same; opening it says what is wrong.
    game = record.get("game") if spec is None else spec.name
    game = game if isinstance(game, str) else None
    title = spec.title if spec is not None else "a record of no game" if game is None else f"unknown game {game!r}"
    return {
        "index": index,
        "game": game,
        "title": title,
        "agents": record_agents(record, whole_number(record.get("players")) or 0),
        "result": "?",
        "seed": whole_number(record.get("seed")),
        "moves": None,
    }


def _game_of(record: dict[str, Any]) -> GameSpec | None:
    """The game of the registry a record is of, by its format (and its ``game`` where the format has several)."""
    games = [spec for spec in GAMES.values() if spec.record_format == record.get("format")]
    named = [spec for spec in games if spec.name == record.get("game")]
    if named:
        return named[0]
    return games[0] if len(games) == 1 else None


class NotOffered(ValueError):
    """A record of a game the app does not show (its ``GameSpec`` names no web adapter): it may well replay."""


def frames(record: dict[str, Any]) -> dict[str, Any]:
    """The game of ``record``, checked by replaying it, as frames (module docstring); ``RecordError`` if it does
    not replay, ``NotOffered`` if the app does not show its game."""
    spec = _game_of(record)
    if spec is not None and not spec.web:
        raise NotOffered(f"{spec.title} is not offered in the browser app (its GameSpec names no web adapter); "
                         "`contack replay --check` checks its records")
    replay = walk(record, _Camera)
    replay.run()  # raises RecordError naming where the record goes wrong
    camera = replay.driver
    assert isinstance(camera, _Camera)
    return {"game": camera.game, "names": camera.names, "frames": camera.frames}


class _Camera(EngineDriver):
    """The walker's driver for a replay: plays every decision on the engine, as ``EngineDriver`` does, through
    the game's web adapter, which makes the frames."""

    def __init__(self, record: dict[str, Any], setup: Setup) -> None:
        super().__init__(record, setup)
        self.game = setup.game
        self.web: WebGame = web_game(setup.game)
        self.names = seat_names(self.web, record_agents(record, self.state.num_players))
        self.told = 0  # the log's entries already told by a frame
        self.frames: list[dict[str, Any]] = []
        self.add(Frame(self.state, self.web.state_json(self.state), self.web.opening))

    def play(self, move: Any) -> None:
        for frame in self.web.play_frames(self.state, move, self.names):
            self.add(frame)

    def add(self, frame: Frame) -> None:
        log = self.web.log(frame.state, self.names)
        events = [entry["text"] for entry in log[self.told:]]
        self.told = len(log)
        self.frames.append({"state": frame.view, "events": events, "caption": frame.caption})
