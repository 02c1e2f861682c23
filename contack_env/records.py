"""Game records in the ``contack-record/1`` format (shared/RECORDS.md): make, write, read, replay and check.

A record carries every deal, so ``replay`` rebuilds the game from the decks alone and walks the record's events
against what the engine does: every forced event (open, draw, discard, pass, end) must be the one the engine
generates, every ``place`` must be a legal move of the seat to move with the points it really scores, and the
final scores and winners must agree. Anything wrong raises ``RecordError`` naming the hand and event (both
1-based) and what is wrong there.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterable, Sequence, TextIO

import numpy as np

from .atomic import open_atomic
from .figure import Move
from .grid import cell_index
from .multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, ContackGame
from .solitaire import STACK6_SIZE, Solitaire1, Solitaire2
from .state import GameState
from .tiles import NUM_TILES, TILE_NAMES

FORMAT = "contack-record/1"
GAMES = ("contack", "solitaire1", "solitaire2")
EVENT_TYPES = ("open", "place", "draw", "discard", "pass", "end")

# Key order of the events a record writes; keys not listed keep their order after these. ``legal`` comes last
# because it is by far the longest.
_EVENT_KEY_ORDER = ("type", "seat", "tile", "cell", "blue", "points", "from", "stack", "reason", "penalties", "scores", "legal")
_SOURCES = {"pile": "the face-down pile", "discard": "the discard pile"}
# How many moves an error message lists before abridging.
_MAX_LISTED = 12

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


class RecordError(ValueError):
    """A record that is malformed or does not replay. ``where`` says where (e.g. ``hand 2, event 14 (place)``,
    or a file and line), ``why`` what is wrong; ``str()`` is ``"where: why"``."""

    def __init__(self, why: str, where: str = "") -> None:
        self.where = where
        self.why = why
        super().__init__(f"{where}: {why}" if where else why)


# -- making a record -----------------------------------------------------------------------------------------
def game_record(state: GameState, *, seed: int | None = None, agents: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``contack-record/1`` record of a finished game (``ContackGame``, ``Solitaire1`` or ``Solitaire2``).

    ``seed`` (the int the deals came from) and ``agents`` (one name per seat) are written for the reader's
    information; replaying needs neither. The state must have been made with ``log=True`` from real deals (not
    ``from_position``, whose event log starts mid-hand).
    """
    if not isinstance(state, (ContackGame, Solitaire1, Solitaire2)):
        raise ValueError(f"a record is made of a ContackGame, Solitaire1 or Solitaire2; got {type(state).__name__}")
    if not state.done:
        raise ValueError("a record is made of a finished game; this one is still going (play it out first)")
    if not state.log:
        raise ValueError("this game was made with log=False and kept no events; make it with log=True to record it")
    expected_hands = state.num_hands if isinstance(state, ContackGame) else 1
    if len(state.hand_events) != expected_hands or any(not h or h[0].get("type") != "open" for h in state.hand_events):
        raise ValueError(
            "this game's event log does not start at a deal (it was set up with from_position?); "
            "only games played from their decks make records"
        )
    players = state.num_players if isinstance(state, ContackGame) else 1
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise ValueError(f"seed is the int the deals were drawn from, or None; got {seed!r}")
        seed = int(seed)
    if agents is not None:
        names = None if isinstance(agents, str) else list(agents)
        if names is None or not all(isinstance(a, str) for a in names) or len(names) != players:
            raise ValueError(f"agents is one name per seat ({players}), or None; got {agents!r}")
        agents = names

    record: dict[str, Any] = {"format": FORMAT, "game": state.game, "players": players}
    if isinstance(state, ContackGame):
        record["rules"] = {"hands": state.num_hands, "enclosed_end": state.enclosed_end}
    else:
        record["rules"] = {}
    record["seed"] = seed
    record["agents"] = agents
    if isinstance(state, ContackGame):
        record["hands"] = [
            {"deck": [TILE_NAMES[t] for t in deck], "events": [_tidy(e) for e in events]}
            for deck, events in zip(state.decks, state.hand_events)
        ]
        record["scores"] = list(state.scores)
        record["winners"] = list(state.winners)
    else:
        hand: dict[str, Any] = {"deck": [TILE_NAMES[t] for t in state.deck]}
        if isinstance(state, Solitaire2):
            hand["cut"] = state.cut
        hand["events"] = [_tidy(e) for e in state.hand_events[0]]
        record["hands"] = [hand]
        record["scores"] = [state.score]
        record["winners"] = [0] if state.won else []
    return record


def _tidy(event: dict[str, Any]) -> dict[str, Any]:
    # A fresh dict (and fresh lists) so the record never aliases the engine's log.
    out = {k: _plain(event[k]) for k in _EVENT_KEY_ORDER if k in event}
    out.update((k, _plain(v)) for k, v in event.items() if k not in out)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    return value


# -- files ---------------------------------------------------------------------------------------------------
def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` to ``path`` as JSON lines, one record a line, replacing the file atomically
    (``contack_env.atomic``): a reader never sees half a file, and a failed write leaves the old one. Returns
    the count."""
    path = os.fspath(path)
    lines = []
    for n, record in enumerate(records, 1):
        if not isinstance(record, dict):
            raise TypeError(f"record {n}: a record is a dict; got {type(record).__name__}")
        lines.append(json.dumps(record, allow_nan=False) + "\n")
    with open_atomic(path) as f:
        f.writelines(lines)
    return len(lines)


def append_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Add one record as a line at the end of the JSON-lines file ``path`` (created if missing).

    For long runs that save games as they finish; the line goes out in one write, but unlike ``write_records``
    an interrupted append can leave a partial last line (``read_records(..., on_torn=...)``, ``contack replay``
    and ``contack render`` report it and read the records before it).
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
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise RecordError(f"not UTF-8 text (byte {e.start}); records are JSON", f"{name}, line {line}") from None
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
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = _loads(line)
        except json.JSONDecodeError as e:
            if lineno == last and on_torn is not None:
                on_torn(RecordError(f"torn last line, cut short as an interrupted write leaves it (invalid JSON: "
                                    f"{e.msg}, column {e.colno}); the {len(records)} record(s) before it are read",
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


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_no_duplicates)


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
    if isinstance(err, RecursionError):
        return "invalid record: nested too deeply to read (a record nests a few levels)"
    if "digits" in str(err):
        return "invalid record: a number of more than 4300 digits (no value of a record is that long)"
    return f"invalid JSON: {err}"


def _json_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if value is None:
        return "null"
    return type(value).__name__


# -- replaying -----------------------------------------------------------------------------------------------
def replay(record: dict[str, Any], *, trace_check: bool = True) -> GameState:
    """Rebuild the game of ``record`` from its decks and check every event against the engine.

    Returns the finished engine state (it logs a ``legal`` list on every place if the record carries any).
    ``trace_check=False`` skips comparing the records' optional ``legal`` lists with the true legal moves.
    Raises ``RecordError`` on the first thing wrong: a structural problem (missing key, wrong type, unknown
    format, game or tile, a deck that is not a permutation of the 36 tiles, ...) or an event the engine does
    not reproduce, naming the hand and event (1-based) and what is wrong.
    """
    state, hands = _setup(record)
    _Walker(state, hands, trace_check).run()
    _check_totals(record, state)
    return state


def _setup(record: Any) -> tuple[GameState, list[list[Any]]]:
    """Validate everything but the events, and make the engine state from the decks."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object; got {_json_kind(record)}", "record")
    fmt = _need(record, "format", "record")
    if fmt != FORMAT:
        raise RecordError(f"unknown format {fmt!r}; this reader knows {FORMAT!r}", "format")
    game = _need(record, "game", "record")
    if game not in GAMES:
        raise RecordError(f"unknown game {game!r}; games are {', '.join(GAMES)}", "game")
    players = _need(record, "players", "record")
    rules = _need(record, "rules", "record")
    if not isinstance(rules, dict):
        raise RecordError(f"rules is a JSON object; got {_json_kind(rules)}", "rules")
    if game == "contack":
        if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RecordError(f"Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players!r}", "players")
        num_hands = _need(rules, "hands", "rules")
        if not _is_int(num_hands) or num_hands < 1:
            raise RecordError(f"a game has 1 or more hands; got {num_hands!r}", "rules.hands")
        enclosed_end = _need(rules, "enclosed_end", "rules")
        if enclosed_end not in ENCLOSED_END_OPTIONS:
            raise RecordError(
                f"unknown option {enclosed_end!r}; enclosed_end is one of {', '.join(map(repr, ENCLOSED_END_OPTIONS))}",
                "rules.enclosed_end",
            )
    else:
        if players != 1 or not _is_int(players):
            raise RecordError(f"a solitaire has 1 player; got {players!r}", "players")
        num_hands = 1
    if "seed" in record and record["seed"] is not None and not _is_int(record["seed"]):
        raise RecordError(f"seed is an integer or null; got {record['seed']!r}", "seed")
    agents = record.get("agents")
    if agents is not None and (
        not isinstance(agents, list) or len(agents) != players or not all(isinstance(a, str) for a in agents)
    ):
        raise RecordError(f"agents is null or one name per seat ({players}); got {agents!r}", "agents")
    for key in ("scores", "winners"):
        value = _need(record, key, "record")
        if not isinstance(value, list) or not all(_is_int(v) for v in value):
            raise RecordError(f"{key} is a list of integers; got {value!r}", key)

    hands = _need(record, "hands", "record")
    if not isinstance(hands, list):
        raise RecordError(f"hands is a list; got {_json_kind(hands)}", "hands")
    if len(hands) != num_hands:
        what = f"rules.hands is {num_hands}" if game == "contack" else "a solitaire is one hand"
        raise RecordError(f"{what} but the record has {len(hands)} hand(s)", "hands")
    decks = []
    events = []
    for h, hand in enumerate(hands, 1):
        where = f"hand {h}"
        if not isinstance(hand, dict):
            raise RecordError(f"a hand is a JSON object with 'deck' and 'events'; got {_json_kind(hand)}", where)
        decks.append(_deck(_need(hand, "deck", where), where))
        hand_events = _need(hand, "events", where)
        if not isinstance(hand_events, list):
            raise RecordError(f"events is a list; got {_json_kind(hand_events)}", where)
        events.append(hand_events)

    state: GameState
    if game == "contack":
        state = ContackGame(decks, players, num_hands, enclosed_end, trace=_has_legal(events), log=True)
    elif game == "solitaire1":
        state = Solitaire1(decks[0], trace=_has_legal(events), log=True)
    else:
        cut = _need(hands[0], "cut", "hand 1")
        if not _is_int(cut) or not 0 <= cut < STACK6_SIZE:
            raise RecordError(f"the cut is a position in stack 6, 0..{STACK6_SIZE - 1}; got {cut!r}", "hand 1, cut")
        state = Solitaire2(decks[0], cut, trace=_has_legal(events), log=True)
    return state, events


def _need(obj: dict[str, Any], key: str, where: str) -> Any:
    if key not in obj:
        raise RecordError(f"missing key {key!r}", where)
    return obj[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _deck(deck: Any, where: str) -> list[int]:
    if not isinstance(deck, list):
        raise RecordError(f"a deck is a list of the 36 tile names; got {_json_kind(deck)}", f"{where}, deck")
    ids = [_tile(name, f"{where}, deck[{k}]") for k, name in enumerate(deck)]
    if sorted(ids) != list(range(NUM_TILES)):
        counts = [0] * NUM_TILES
        for t in ids:
            counts[t] += 1
        twice = [TILE_NAMES[t] for t in range(NUM_TILES) if counts[t] > 1]
        missing = [TILE_NAMES[t] for t in range(NUM_TILES) if counts[t] == 0]
        detail = "; ".join(
            part
            for part in (
                f"{len(ids)} names" if len(ids) != NUM_TILES else "",
                f"more than once: {', '.join(twice)}" if twice else "",
                f"missing: {', '.join(missing)}" if missing else "",
            )
            if part
        )
        raise RecordError(f"not a permutation of the 36 tiles ({detail})", f"{where}, deck")
    return ids


_ID_BY_NAME = {name: t for t, name in enumerate(TILE_NAMES)}


def _tile(name: Any, where: str) -> int:
    t = _ID_BY_NAME.get(name) if isinstance(name, str) else None
    if t is None:
        raise RecordError(
            f"no tile is called {name!r}; a tile name is its blue-red-gold values, two digits each (e.g. '09-02-08')",
            where,
        )
    return t


def _has_legal(events: list[list[Any]]) -> bool:
    return any(isinstance(e, dict) and "legal" in e for hand in events for e in hand)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, lists and tuples alike, but never ``True == 1`` or ``1.0 == 1``."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _show(value: Any) -> str:
    try:
        return json.dumps(_plain(value))
    except (TypeError, ValueError):
        return repr(value)


def _text(value: Any) -> str:
    """A string as it is (tile names read better unquoted), anything else as JSON."""
    return value if isinstance(value, str) else _show(value)


def _cell_text(cell: Any) -> str:
    if isinstance(cell, (list, tuple)) and len(cell) == 2:
        return f"({_show(cell[0])}, {_show(cell[1])})"
    return _show(cell)


def _describe(event: Any) -> str:
    """An event in words, for messages (tolerant of malformed values)."""
    if not isinstance(event, dict):
        return _json_kind(event)
    kind = event.get("type")
    seat = _show(event.get("seat"))
    tile = _text(event.get("tile"))
    if kind == "open":
        return f"the opening of {tile} by seat {seat}"
    if kind == "place":
        return f"a place by seat {seat} of {tile} at {_cell_text(event.get('cell'))}"
    if kind == "draw":
        return f"a draw by seat {seat} of {tile}"
    if kind == "discard":
        return f"a discard by seat {seat} of {tile}"
    if kind == "pass":
        return f"a pass by seat {seat}"
    if kind == "end":
        return f"the end of the hand ({_show(event.get('reason'))})"
    return f"an event of unknown type {_show(kind)}"


def _moves_text(moves: Sequence[Move]) -> str:
    shown = ", ".join(str(m) for m in moves[:_MAX_LISTED])
    if len(moves) > _MAX_LISTED:
        shown += f", ... ({len(moves)} in all)"
    return shown or "none"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


class _Walker:
    """Walks a record's events alongside the engine. ``h`` and ``j`` (0-based) point at the next event of both:
    the engine logs every event the record should hold, so while they agree the two logs stay in step."""

    def __init__(self, state: GameState, hands: list[list[Any]], trace_check: bool) -> None:
        self.state = state
        self.hands = hands
        self.trace_check = trace_check
        self.h = 0
        self.j = 0

    def where(self, event: Any = None) -> str:
        text = f"hand {self.h + 1}, event {self.j + 1}"
        if isinstance(event, dict) and event.get("type") in EVENT_TYPES:
            text += f" ({event['type']})"
        return text

    def fail(self, why: str, event: Any = None) -> RecordError:
        return RecordError(why, self.where(event))

    def record_event(self) -> Any:
        """The record's event at the cursor, or None past the end of the hand's list."""
        events = self.hands[self.h]
        if self.j >= len(events):
            return None
        event = events[self.j]
        if not isinstance(event, dict):
            raise self.fail(f"an event is a JSON object; got {_json_kind(event)}")
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            raise self.fail(f"unknown event type {_show(kind)}; types are {', '.join(EVENT_TYPES)}", event)
        return event

    def run(self) -> None:
        state = self.state
        while True:
            self.forced_events()
            if state.done:
                return
            self.decision()

    # Everything the engine generated since the last decision: each must be the record's next event.
    def forced_events(self) -> None:
        logged = self.state.hand_events
        while self.h < len(logged) and self.j < len(logged[self.h]):
            expected = logged[self.h][self.j]
            got = self.record_event()
            if got is None:
                raise self.fail(f"missing event: expected {_describe(expected)}")
            self.compare(expected, got)
            self.j += 1
            if expected["type"] == "end":
                events = self.hands[self.h]
                if self.j < len(events):
                    extra = self.record_event()
                    raise self.fail(f"extra event after the end of the hand: {_describe(extra)}", extra)
                self.h += 1
                self.j = 0

    def compare(self, expected: dict[str, Any], got: dict[str, Any]) -> None:
        if got["type"] != expected["type"]:
            raise self.fail(f"expected {_describe(expected)}, got {_describe(got)}", got)
        for key, value in expected.items():
            if key not in got:
                raise self.fail(f"missing key {key!r} (it should be {_show(value)})", got)
            if _same(got[key], value):
                continue
            if key in ("seat", "tile"):
                raise self.fail(f"expected {_describe(expected)}, got {_describe(got)}", got)
            if key == "reason":
                raise self.fail(f"the hand ends {_show(value)}, not {_show(got[key])}", got)
            if key == "penalties":
                raise self.fail(f"the hand's penalties are {_show(value)}, not {_show(got[key])}", got)
            if key == "scores":
                raise self.fail(f"the running scores after the hand are {_show(value)}, not {_show(got[key])}", got)
            raise self.fail(f"{key!r} should be {_show(value)}, not {_show(got[key])}", got)

    # The engine waits for a placement by ``current_player``: the record's next event must be that placement.
    def decision(self) -> None:
        state = self.state
        seat = state.current_player
        legal = state.legal_moves()
        if self.h >= len(state.hand_events) or self.j != len(state.hand_events[self.h]):
            raise RuntimeError(f"replay out of step with the engine at hand {self.h + 1}, event {self.j + 1}")  # a bug here
        forced = state.forced_tile if isinstance(state, (ContackGame, Solitaire1)) else None
        moves = _count(len(legal), "legal move")
        if isinstance(state, Solitaire1):
            to_do = f"{TILE_NAMES[forced]} from {_SOURCES[state.source]} must be placed ({moves})"
        elif forced is not None:
            to_do = f"seat {seat} must place the drawn tile {TILE_NAMES[forced]} ({moves})"
        else:
            to_do = f"seat {seat} is to place a tile ({moves})"
        got = self.record_event()
        if got is None:
            raise self.fail(f"missing event: {to_do}")
        kind = got["type"]
        if kind != "place":
            who = got.get("seat")
            if kind == "pass" and who == seat and not isinstance(state, Solitaire1):
                why = f"seat {seat} passed but could play {_count(len(legal), 'move')}"
                if forced is not None:
                    why += f" (the drawn tile {TILE_NAMES[forced]})"
            elif kind == "draw" and who == seat and forced is None:
                why = f"seat {seat} drew {_text(got.get('tile'))} but could play {_count(len(legal), 'move')}"
            else:
                why = f"got {_describe(got)}, but {to_do}"
            raise self.fail(why, got)
        move = self.check_place(got, seat, legal, forced)
        state.play(move)
        self.j += 1  # the engine has logged the same place event

    def check_place(self, got: dict[str, Any], seat: int, legal: list[Move], forced: int | None) -> Move:
        state = self.state
        for key in ("seat", "tile", "cell", "blue", "points"):
            if key not in got:
                raise self.fail(f"missing key {key!r}", got)
        if not _is_int(got["seat"]):
            raise self.fail(f"'seat' is a seat number; got {_show(got['seat'])}", got)
        if got["seat"] != seat:
            raise self.fail(f"seat {got['seat']} placed but it is seat {seat}'s turn", got)
        tile = _tile(got["tile"], self.where(got))
        cell = got["cell"]
        if not isinstance(cell, (list, tuple)) or len(cell) != 2 or not all(_is_int(c) for c in cell):
            raise self.fail(f"'cell' is [x, y], two integers; got {_show(cell)}", got)
        if got["blue"] != "B":
            raise self.fail(f"'blue' is 'B' (every tile is placed with blue on B, RULES.md 2); got {_show(got['blue'])}", got)
        move = Move(tile, int(cell[0]), int(cell[1]))
        if move not in set(legal):
            why = f"{move} is not legal here; legal: {_moves_text(legal)}"
            if isinstance(state, ContackGame) and forced is not None and tile != forced:
                why = f"{move} is not legal here: seat {seat} must place the drawn tile {TILE_NAMES[forced]}; legal: {_moves_text(legal)}"
            raise self.fail(why, got)
        points = state.figure.points_for(tile, cell_index(move.x, move.y))
        if not _same(got["points"], points):
            raise self.fail(f"{move} scores {points} points, not {_show(got['points'])}", got)
        if isinstance(state, Solitaire1):
            source = got.get("from")
            if source != state.source:
                raise self.fail(f"'from' should be {_show(state.source)} (the tile comes from {_SOURCES[state.source]}), not {_show(source)}", got)
        elif isinstance(state, Solitaire2):
            stack = state.stack_of(tile)
            if not _same(got.get("stack"), stack):
                raise self.fail(f"{TILE_NAMES[tile]} is the top of stack {stack}, not {_show(got.get('stack'))}", got)
        if self.trace_check and "legal" in got:
            self.check_legal(got, legal)
        return move

    def check_legal(self, got: dict[str, Any], legal: list[Move]) -> None:
        listed = got["legal"]
        if not isinstance(listed, list):
            raise self.fail(f"'legal' is a list of [tile, x, y]; got {_json_kind(listed)}", got)
        seen: set[Move] = set()
        for k, item in enumerate(listed):
            if (
                not isinstance(item, (list, tuple))
                or len(item) != 3
                or not _is_int(item[1])
                or not _is_int(item[2])
            ):
                raise self.fail(f"'legal' item {k + 1} is not [tile, x, y]: {_show(item)}", got)
            move = Move(_tile(item[0], self.where(got)), item[1], item[2])
            if move in seen:
                raise self.fail(f"the legal list holds {move} twice", got)
            seen.add(move)
        true = set(legal)
        missing = sorted(true - seen)
        extra = sorted(seen - true)
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"lacks {_moves_text(missing)}")
            if extra:
                parts.append(f"holds {_moves_text(extra)}, not legal")
            raise self.fail(f"the legal list {' and '.join(parts)} ({_count(len(legal), 'legal move')} in truth)", got)


def _check_totals(record: dict[str, Any], state: GameState) -> None:
    if isinstance(state, ContackGame):
        scores, winners = list(state.scores), list(state.winners)
    else:
        scores, winners = [state.score], [0] if state.won else []  # type: ignore[attr-defined]
    if not _same(record["scores"], scores):
        raise RecordError(f"the game ends with scores {_show(scores)}, not {_show(record['scores'])}", "scores")
    got = record["winners"]
    if len(got) != len(set(got)) or sorted(got) != winners:
        what = f"seats {_show(winners)} win" if winners else "nobody wins (the solitaire is lost)"
        raise RecordError(f"{what}, not {_show(got)}", "winners")


# -- checking files ------------------------------------------------------------------------------------------
def check_paths(
    paths: Iterable[str | os.PathLike[str]],
    out: TextIO = sys.stdout,
    replayer: Callable[[dict[str, Any]], Any] = replay,
) -> tuple[int, int]:
    """Replay every record of every file, printing one line per record, ``OK`` or ``FAIL <where>: <why>``, then
    ``N passed, M failed``. ``<where>`` is ``<file>:<n>`` (n counts records from 1 in its file) followed by the
    place in the record (e.g. ``games.jsonl:2 hand 1, event 3 (place)``); the first ``": "`` of a FAIL line ends
    it. A file that cannot be read, or holds no record, counts as one failure (``FAIL <file>: <why>``, or
    ``FAIL <file>, line <k>: <why>`` for malformed JSON); so does a torn last line of JSON lines, after which
    the records before it are checked. ``replayer`` replays one record and raises
    ``RecordError`` (or another ``ValueError``) when it is wrong. Returns (passed, failed)."""
    passed = failed = 0
    torn: list[RecordError] = []
    for path in paths:
        name = os.fspath(path)
        torn.clear()
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
                replayer(record)
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
                print("OK", file=out)
                passed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed
