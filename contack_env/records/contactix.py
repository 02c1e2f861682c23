"""CON-TAC-TIX game records, format ``contactix-record/1``: make a record, and the format's codec.

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

``replay`` plays the moves on a fresh board and checks everything; anything wrong raises ``RecordError`` naming
the move (1-based) and what is wrong, e.g. ``move 5 ([3, 4]): hole (3, 4) already holds a white peg``. Files are
read and written by ``contack_env.records.files``, as for every format.
"""

from __future__ import annotations

from typing import Any, Sequence

from contack_env.contactix.rules import COLOUR_NAMES, ContactixState, IllegalMoveError, cell_rc
from contack_env.records.errors import RecordError
from contack_env.seeds import check_seed
# The one reader and writer of both formats, also reachable from here as before.
from contack_env.records.files import read_records, write_records
from contack_env.records.schema import check_structure
from contack_env.records.values import show
from contack_env.records.walker import Driver, Setup, Step, Through, Walk

FORMAT = "contactix-record/1"
SWAP = "swap"

__all__ = [
    "CODEC", "FORMAT", "SWAP", "ContactixCodec", "RecordError", "game_record", "move_text", "read_records", "replay", "write_records",
]


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
        names = None if isinstance(agents, str) else list(agents)  # ("ab" would be two names, a and b)
        if names is None or len(names) != 2 or not all(a is None or isinstance(a, str) for a in names):
            raise ValueError(f"agents names Black's and White's agent, 2 names (a name is a string, or None); "
                             f"got {agents!r}")
        record["agents"] = names
    if seed is not None:
        record["seed"] = check_seed(seed)
    return record


def _where(path: Sequence[str | int], record: Any) -> str:
    """The place of a path into a record: ``move 3 ([1, 2])`` for a move, else the key (``size``)."""
    if len(path) >= 2 and path[0] == "moves":
        k = int(path[1])
        return _move_where(k + 1, record["moves"][k])
    return str(path[0]) if path else ""


def _move_where(k: int, move: Any) -> str:
    return f"move {k} ({show(move, 40)})"


class ContactixCodec:
    """The ``contactix-record/1`` format for the walker: one step per move, every move a decision."""

    format = FORMAT

    def setup(self, record: Any) -> Setup:
        check_structure(record, FORMAT, _where)
        state = ContactixState(record["size"], record["swap"])
        steps = [Step(_move_where(k, move), move, (k,)) for k, move in enumerate(record["moves"], 1)]
        return Setup("contactix", state, steps)

    def apply(self, setup: Setup, driver: Driver, step: Step) -> bool:
        state = driver.state
        (k,) = step.index
        if state.done:
            left = len(setup.steps) - k + 1
            raise RecordError(
                f"the game ended at move {k - 1} ({COLOUR_NAMES[state.winner]} joined their sides); the record has {left} more",
                step.where,
            )
        cell = _decode(step.event, state, step.where)
        if cell not in set(driver.legal()):
            raise RecordError(_why_illegal(state, cell, driver), step.where)
        refusal = driver.refusal(cell)
        if refusal:
            raise RecordError(f"the move is legal, but {refusal}", step.where)
        step.move = cell
        driver.play(cell)
        return True

    def finish(self, record: dict[str, Any], setup: Setup, driver: Driver) -> None:
        state = driver.state
        found = None if state.winner is None else COLOUR_NAMES[state.winner]
        winner = record["winner"]
        if found != winner:
            said = "no winner (null)" if winner is None else f"{winner} won"
            real = "nobody has won yet" if found is None else f"{found} won on the last move"
            raise RecordError(f"the record says {said}, but after its {len(record['moves'])} moves {real}", "winner")


CODEC = ContactixCodec()


def replay(record: Any, *, through: Through | None = None) -> ContactixState:
    """The final state of ``record``, every move checked (on the rules engine, or with ``through`` on an
    environment's driver); ``RecordError`` says what is wrong and where."""
    return Walk(record, CODEC, through).run()


def _decode(move: Any, state: ContactixState, where: str) -> int:
    """The cell a move fills (the swap: Black's first peg's), or ``RecordError``."""
    n = state.size
    if move == SWAP:
        if not state.swap_rule:
            raise RecordError("\"swap\" is a move only when the record's swap rule is on (\"swap\": true)", where)
        if not state.can_swap:
            raise RecordError("\"swap\" is only legal as White's first move (move 2)", where)
        return state.moves[0]
    r, c = move  # the schema made it [r, c], two integers
    if not (0 <= r < n and 0 <= c < n):
        raise RecordError(f"hole ({r}, {c}) is off the {n}x{n} board: rows and columns are 0..{n - 1}", where)
    cell = r * n + c
    if state.is_swap(cell):
        # The swap has its own spelling, so that a record never reads as a peg put into a full hole.
        raise RecordError(f"hole ({r}, {c}) holds Black's first peg; White takes it over by writing \"swap\"", where)
    return cell


def _why_illegal(state: ContactixState, cell: int, driver: Driver) -> str:
    """Why ``cell`` is not among the driver's legal moves: the rules' reason, or the driver's own."""
    try:
        state.clone().play(cell)
    except IllegalMoveError as err:
        return str(err)
    return driver.refusal(cell) or f"the move is not among the {len(driver.legal())} legal moves {driver.legal_source}"
