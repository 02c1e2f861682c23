"""The browser app's adapters (``contack_env.app.web_game.WebGame``) of Contack and both solitaires: ``CONTACK``,
``SOLITAIRE1`` and ``SOLITAIRE2``.

The three share the tile view: the figure, its last tile, the cells around it and the legal placements with
their points, and a move is ``{tile, x, y}``. Each adds what its table shows besides: Contack every seat's hand
(face up by the rules), the hand and the running scores; Solitaire No. 1 its discard pile and where the tile to
place comes from; Solitaire No. 2 its stacks' tops and heights. None reads a deck, so the pile's order cannot
reach the page. Events are told in words by ``contack_env.render.events``.
"""

from __future__ import annotations

from typing import Any, Sequence

from contack_env.checks import is_whole_number
from contack_env.contack.figure import Move
from contack_env.contack.grid import cell_index, cell_xy
from contack_env.contack.tiles import TILE_NAMES, tile_id, tiles_in
from contack_env.render.events import hand_texts

from .web_game import Frame, record_agents, whole_number

__all__ = [
    "CONTACK", "SOLITAIRE1", "SOLITAIRE2", "ContackWeb", "Solitaire1Web", "Solitaire2Web", "TileGame", "tile_of",
]

BOTS = ("random", "greedy", "lookahead", "mcts:50", "mcts:200", "mcts:1000")


class TileGame:
    """What Contack and the solitaires show and play alike; each game's own part is a subclass."""

    bots = BOTS
    opening = "the opening"

    def state_json(self, state: Any) -> dict[str, Any]:
        fig = state.figure
        out: dict[str, Any] = {
            "game": state.game,
            "done": state.done,
            "figure": [{"tile": t, "x": x, "y": y} for t, (x, y) in ((t, cell_xy(c)) for c, t in fig.placed.items())],
            "last": list(cell_xy(fig.last)) if fig.last is not None else None,
            # Every empty cell touching the figure: drawn faintly, so a click on one the rules forbid reaches the
            # server and is refused there, with the reason.
            "frontier": sorted(list(cell_xy(c)) for c in fig.frontier),
            "to_move": None if state.done else state.current_player,
            "legal": [
                {"tile": m.tile, "x": m.x, "y": m.y, "points": fig.points_for(m.tile, cell_index(m.x, m.y))}
                for m in state.legal_moves()
            ],
        }
        out.update(self.table_json(state))
        return out

    def table_json(self, state: Any) -> dict[str, Any]:
        """What this game's table shows besides the figure (the module docstring)."""
        raise NotImplementedError

    def seat_name(self, seat: int) -> str:
        return f"seat {seat}"

    def parse_move(self, state: Any, data: dict[str, Any]) -> Move:
        tile = tile_of(data.get("tile"))
        x, y = data.get("x"), data.get("y")
        if any(not is_whole_number(v) for v in (x, y)):
            raise ValueError(f"a cell is two whole numbers x, y; got {x!r}, {y!r}")
        return Move(tile, x, y)

    def log(self, state: Any, names: Sequence[str]) -> list[dict[str, Any]]:
        return [
            {"hand": h + 1, "text": text}
            for h, events in enumerate(state.hand_events)
            for text in hand_texts(events, names)
        ]

    def play_frames(self, state: Any, move: Move, names: Sequence[str]) -> list[Frame]:
        caption = f"{names[state.current_player]} placed {TILE_NAMES[move.tile]}"
        state.play(move)
        return [Frame(state, self.state_json(state), caption)]

    def summary(self, record: dict[str, Any]) -> dict[str, Any]:
        return {
            "title": self.title(record),
            "agents": record_agents(record, whole_number(record.get("players")) or 0),
            "result": self.result(record),
            "seed": whole_number(record.get("seed")),
            "moves": None,
        }

    def title(self, record: dict[str, Any]) -> str:
        """The game's name in a file's list of games."""
        raise NotImplementedError

    def result(self, record: dict[str, Any]) -> str:
        """How the game ended, as the record says, in a file's list of games."""
        return "won" if record.get("winners") else "lost"


class ContackWeb(TileGame):
    """Contack for 2 to 7 players."""

    def table_json(self, state: Any) -> dict[str, Any]:
        return {
            "players": state.num_players,
            "hand": state.hand_number + 1,
            "hands": state.num_hands,
            "enclosed_end": state.enclosed_end,
            "pile": state.pile_size,
            "scores": list(state.scores),
            "held": [tiles_in(h) for h in state.hands],
            "forced_tile": None if state.done else state.forced_tile,
            "winners": list(state.winners) if state.done else [],
        }

    def play_frames(self, state: Any, move: Move, names: Sequence[str]) -> list[Frame]:
        h = state.hand_number
        if h + 1 < state.num_hands:
            # The engine deals the next hand inside play(); to show the finished hand, play the move on a copy
            # that believes this hand is the last.
            probe = state.clone()
            probe.num_hands = h + 1
            probe.play(move)
            if probe.done:
                view = self.state_json(probe)
                # The probe believes the game is over; it is not.
                view.update(legal=[], to_move=None, done=False, winners=[], hand_over=True)
                state.play(move)
                return [
                    Frame(probe, view, f"hand {h + 1} is over"),
                    Frame(state, self.state_json(state), f"hand {h + 2}: the opening"),
                ]
        return super().play_frames(state, move, names)

    def title(self, record: dict[str, Any]) -> str:
        return f"Contack, {whole_number(record.get('players')) or '?'} players"

    def result(self, record: dict[str, Any]) -> str:
        scores = record.get("scores")
        if not isinstance(scores, list) or any(whole_number(x) is None for x in scores):
            return "scores ?"
        return f"scores {scores}"


class Solitaire1Web(TileGame):
    """Solitaire No. 1: one pile, a discard pile."""

    def table_json(self, state: Any) -> dict[str, Any]:
        return {
            "players": 1,
            "pile": state.pile_size,
            "discard": list(state.discard),
            "source": None if state.done else state.source,
            "forced_tile": state.forced_tile,
            "scores": [state.score],
            "won": state.won,
            "winners": [0] if state.won else [],
        }

    def title(self, record: dict[str, Any]) -> str:
        return "Solitaire No. 1"


class Solitaire2Web(TileGame):
    """Solitaire No. 2: the tiles in stacks, every top playable."""

    def table_json(self, state: Any) -> dict[str, Any]:
        return {
            "players": 1,
            "stacks": [{"top": s[-1] if s else None, "height": len(s)} for s in state.stacks],
            "scores": [state.score],
            "won": state.won,
            "winners": [0] if state.won else [],
        }

    def title(self, record: dict[str, Any]) -> str:
        return "Solitaire No. 2"


CONTACK = ContackWeb()
SOLITAIRE1 = Solitaire1Web()
SOLITAIRE2 = Solitaire2Web()


def tile_of(value: Any) -> int:
    """A tile from JSON: an id 0..35 or a name ("09-02-08"); ``ValueError`` otherwise."""
    if isinstance(value, str):
        return tile_id(value)
    if is_whole_number(value) and 0 <= value < len(TILE_NAMES):
        return value
    raise ValueError(f"a tile is an id 0..{len(TILE_NAMES) - 1} or a name like '09-02-08'; got {value!r}")
