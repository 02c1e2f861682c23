"""CON-TAC-TIX game records, format ``contactix-record/1``: make, write, read, replay.

A record is one JSON object::

    {"format": "contactix-record/1", "size": 7, "swap": false,
     "moves": [[3, 3], [2, 4], "swap", ...], "winner": "black",
     "agents": ["two_distance", "random"], "seed": 12}

- ``format``: ``"contactix-record/1"``.
- ``size``: the board's ``N`` (3..19); ``swap``: whether the swap (pie) rule was on.
- ``moves``: every move in order, Black's first; a move is ``[r, c]`` (the hole it fills) or ``"swap"`` (only
  as the second move, with ``swap`` true; see ``contack_env.contactix.rules``).
- ``winner``: ``"black"``, ``"white"``, or null for a game not played to its end.
- optional: ``agents`` (``[black's, white's]``, strings or null) and ``seed`` (an int or null) that the game
  was played from; replay ignores them.

``replay`` plays the moves on a fresh board and checks everything; anything wrong raises ``RecordError`` (from
``contack_env.records.contack``) naming the move (1-based) and what is wrong, e.g. ``move 5 ([3, 4]): hole (3, 4)
already holds a white peg``. Files are written and read as ``contack_env.records.contack`` does: JSON lines, or one
object, or an array.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Sequence

from contack_env.contactix.rules import COLOUR_NAMES, MAX_SIZE, MIN_SIZE, ContactixState, IllegalMoveError, cell_rc
from contack_env.records.contack import RecordError, read_records as _read_records, write_records as _write_records

FORMAT = "contactix-record/1"
SWAP = "swap"
_KEYS = ("format", "size", "swap", "moves", "winner")
_OPTIONAL = ("agents", "seed")

__all__ = ["FORMAT", "RecordError", "SWAP", "game_record", "move_text", "read_records", "replay", "write_records"]


def move_text(state: ContactixState, index: int) -> list[int] | str:
    """Move ``index`` of ``state.moves`` as a record writes it: ``[r, c]`` or ``"swap"``."""
    if index == 1 and state.swapped:
        return SWAP
    r, c = cell_rc(state.moves[index], state.size)
    return [r, c]


def game_record(
    state: ContactixState, *, agents: Sequence[str | None] | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The record of the game ``state`` reached from an empty board (``agents``: Black's and White's names)."""
    if not isinstance(state, ContactixState):
        raise TypeError(f"a contactix record is made from a ContactixState; got {type(state).__name__}")
    pegs = len(state.board) - state.empty_count
    if pegs != len(state.moves) - (1 if state.swapped else 0):
        raise ValueError("this state was built directly (ContactixState.from_position): it has no move history to record")
    record: dict[str, Any] = {
        "format": FORMAT,
        "size": state.size,
        "swap": state.swap_rule,
        "moves": [move_text(state, i) for i in range(len(state.moves))],
        "winner": None if state.winner is None else COLOUR_NAMES[state.winner],
    }
    if agents is not None:
        if len(agents) != 2:
            raise ValueError(f"agents names Black's and White's agent, 2 names; got {len(agents)}")
        record["agents"] = [None if a is None else str(a) for a in agents]
    if seed is not None:
        record["seed"] = int(seed)
    return record


def write_records(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Write ``records`` as JSON lines (atomically, as ``contack_env.records.contack.write_records``); the count."""
    return _write_records(path, records)


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records in ``path`` (one JSON object, an array, or JSON lines); malformed JSON raises ``RecordError``."""
    return _read_records(path)


def replay(record: Any) -> ContactixState:
    """The final state of ``record``, every move checked; ``RecordError`` says what is wrong and where."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object; got {type(record).__name__}")
    missing = [k for k in _KEYS if k not in record]
    if missing:
        raise RecordError(f"missing key(s) {', '.join(map(repr, missing))}; a record has {', '.join(_KEYS)}")
    unknown = sorted(set(record) - set(_KEYS) - set(_OPTIONAL))
    if unknown:
        raise RecordError(f"unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(_KEYS + _OPTIONAL)}")
    if record["format"] != FORMAT:
        raise RecordError(f"format is {FORMAT!r}; got {record['format']!r}")
    size = record["size"]
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise RecordError(f"size is a whole number {MIN_SIZE}..{MAX_SIZE}; got {size!r}")
    if not isinstance(record["swap"], bool):
        raise RecordError(f"swap is true or false; got {record['swap']!r}")
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError(f"moves is a list of [r, c] pairs (and \"swap\"); got {type(moves).__name__}")
    winner = record["winner"]
    if winner not in (*COLOUR_NAMES, None):
        raise RecordError(f"winner is \"black\", \"white\" or null; got {winner!r}")
    _check_optional(record)

    state = ContactixState(size, record["swap"])
    for k, move in enumerate(moves, 1):
        where = f"move {k} ({_show(move)})"
        if state.done:
            raise RecordError(
                f"the game ended at move {k - 1} ({COLOUR_NAMES[state.winner]} joined their sides); "
                f"the record has {len(moves) - k + 1} more",
                where,
            )
        state_move = _decode(move, state, where)
        try:
            state.play(state_move)
        except IllegalMoveError as err:
            raise RecordError(str(err), where) from None
    found = None if state.winner is None else COLOUR_NAMES[state.winner]
    if found != winner:
        said = "no winner (null)" if winner is None else f"{winner} won"
        real = "nobody has won yet" if found is None else f"{found} won on the last move"
        raise RecordError(f"the record says {said}, but after its {len(moves)} moves {real}", "winner")
    return state


def _check_optional(record: dict[str, Any]) -> None:
    agents = record.get("agents")
    if agents is not None and (
        not isinstance(agents, list) or len(agents) != 2 or not all(a is None or isinstance(a, str) for a in agents)
    ):
        raise RecordError(f"agents is [black's, white's], two strings (or nulls); got {agents!r}")
    seed = record.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"seed is a whole number or null; got {seed!r}")


def _decode(move: Any, state: ContactixState, where: str) -> int:
    n = state.size
    if move == SWAP:
        if not state.swap_rule:
            raise RecordError("\"swap\" is a move only when the record's swap rule is on (\"swap\": true)", where)
        if not state.can_swap:
            raise RecordError("\"swap\" is only legal as White's first move (move 2)", where)
        return state.moves[0]
    if (
        not isinstance(move, list)
        or len(move) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in move)
    ):
        raise RecordError(f"a move is [r, c] (two whole numbers) or \"swap\"; got {_show(move)}", where)
    r, c = move
    if not (0 <= r < n and 0 <= c < n):
        raise RecordError(f"hole ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1}", where)
    cell = r * n + c
    if state.is_swap(cell):
        # The swap has its own spelling, so that a record never reads as a peg put into a full hole.
        raise RecordError(f"hole ({r}, {c}) holds Black's first peg; White takes it over by writing \"swap\"", where)
    return cell


def _show(value: Any) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
