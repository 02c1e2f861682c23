"""The browser app's adapter (``contack_env.app.web_game.WebGame``) of CON-TAC-TIX: ``CONTACTIX``.

The page gets the board (one value a hole: empty, black, white), the moves as a record writes them, the last
peg, whether White may swap and the winning chain. A move is ``{cell: [row, column]}``, or ``{swap: true}`` for
White's first move under the swap rule; the log tells every move, and a replay shows one frame a move.
CON-TAC-TIX hides nothing.
"""

from __future__ import annotations

from typing import Any, Sequence

from contack_env.checks import is_whole_number
from contack_env.contactix.rules import COLOUR_NAMES, ContactixState
from contack_env.records.contactix import move_text

from .web_game import Frame, record_agents, whole_number

__all__ = ["CONTACTIX", "ContactixWeb"]


class ContactixWeb:
    """CON-TAC-TIX in the browser (the module docstring)."""

    bots = ("random", "two_distance", "mcts:200", "mcts:1000")
    opening = "the empty board"

    def state_json(self, state: ContactixState) -> dict[str, Any]:
        n = state.size
        last = None if state.last_peg is None else list(divmod(state.last_peg, n))
        return {
            "game": state.game,
            "done": state.done,
            "players": 2,
            "size": n,
            "swap": state.swap_rule,
            "board": list(state.board),
            "moves": [move_text(state, i) for i in range(len(state.moves))],
            "last": last,
            "to_move": None if state.done else state.current_player,
            "can_swap": state.can_swap,
            "swap_cell": list(divmod(state.moves[0], n)) if state.can_swap else None,
            "winner": state.winner,
            "winners": [] if state.winner is None else [state.winner],
            "chain": [list(divmod(c, n)) for c in state.winning_chain()],
        }

    def seat_name(self, seat: int) -> str:
        return COLOUR_NAMES[seat]

    def parse_move(self, state: ContactixState, data: dict[str, Any]) -> int:
        n = state.size
        if data.get("swap") is True:
            if not state.can_swap:
                raise ValueError("illegal move: no swap now (the swap rule is off, or it is not White's first move)")
            return state.moves[0]
        cell = data.get("cell")
        if (
            not isinstance(cell, list)
            or len(cell) != 2
            or any(not is_whole_number(v) for v in cell)
        ):
            raise ValueError(f"a move is a hole [row, column] or swap: true; got {cell!r}")
        r, c = cell
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"illegal move: hole ({r}, {c}) is off the {n}x{n} board")
        move = r * n + c
        if state.is_swap(move):
            raise ValueError("illegal move: that hole holds black's first peg; send swap: true to take it over")
        return move

    def log(self, state: ContactixState, names: Sequence[str]) -> list[dict[str, Any]]:
        return [{"hand": 1, "text": _move_text(state, k, names)} for k in range(len(state.moves))]

    def play_frames(self, state: ContactixState, move: int, names: Sequence[str]) -> list[Frame]:
        state.play(move)
        return [Frame(state, self.state_json(state), _move_text(state, len(state.moves) - 1, names))]

    def summary(self, record: dict[str, Any]) -> dict[str, Any]:
        moves, size, winner = record.get("moves"), whole_number(record.get("size")), record.get("winner")
        return {
            "title": f"CON-TAC-TIX {size}x{size}" if size is not None else "CON-TAC-TIX",
            "agents": record_agents(record, 2),
            "result": f"{winner} won" if isinstance(winner, str) and winner else "unfinished",
            "seed": whole_number(record.get("seed")),
            "moves": len(moves) if isinstance(moves, list) else None,
        }


def _move_text(state: ContactixState, k: int, names: Sequence[str]) -> str:
    """Move ``k`` of ``state.moves`` in words. Black moves first and the colours alternate, the swap included."""
    r, c = divmod(state.moves[k], state.size)
    name = names[k % 2]
    if k == 1 and state.swapped:  # the swap is written as the hole of Black's first peg
        return f"{name} swaps: black's peg on ({r}, {c}) becomes a white peg on ({c}, {r})"
    return f"{name} plays ({r}, {c})"


CONTACTIX = ContactixWeb()
