"""What the browser is sent: a game state as plain JSON, built from what every player at the table sees.

``state_json`` reads only public attributes: the figure, every hand (Contack's hands are face up), scores, the
pile's size, Solitaire No. 1's discard pile, Solitaire No. 2's stack tops and heights, a CON-TAC-TIX board. It
never reads a deck, so the pile's order cannot reach the page; the server also passes it
``agents.view.public_view`` of a live game, whose face-down tiles are in a canonical order, as a second guard.

Events are told in words by ``contack_env.render.events``.
"""

from __future__ import annotations

from typing import Any, Sequence

from contack_env import TILE_NAMES, ContackGame, GameState, Solitaire1, Solitaire2, tile_id
from contack_env.contactix.rules import COLOUR_NAMES, ContactixState
from contack_env.records.contactix import move_text
from contack_env.contack.grid import cell_index, cell_xy
from contack_env.contack.tiles import tiles_in

def state_json(state: GameState | ContactixState) -> dict[str, Any]:
    """The public JSON of a Contack game, a solitaire or a CON-TAC-TIX position (module docstring)."""
    if isinstance(state, ContactixState):
        return _contactix(state)
    if not isinstance(state, (ContackGame, Solitaire1, Solitaire2)):
        raise TypeError(f"no JSON view for {type(state).__name__}")
    fig = state.figure
    out: dict[str, Any] = {
        "game": state.game,
        "done": state.done,
        "figure": [{"tile": t, "x": xy[0], "y": xy[1]} for t, xy in ((t, cell_xy(c)) for c, t in fig.placed.items())],
        "last": list(cell_xy(fig.last)) if fig.last is not None else None,
        # Every empty cell touching the figure: drawn faintly, so a click on one the rules forbid reaches the server
        # and is refused there, with the reason.
        "frontier": sorted(list(cell_xy(c)) for c in fig.frontier),
        "to_move": None if state.done else state.current_player,
        "legal": [
            {"tile": m.tile, "x": m.x, "y": m.y, "points": fig.points_for(m.tile, cell_index(m.x, m.y))}
            for m in state.legal_moves()
        ],
    }
    if isinstance(state, ContackGame):
        out.update(
            players=state.num_players,
            hand=state.hand_number + 1,
            hands=state.num_hands,
            enclosed_end=state.enclosed_end,
            pile=state.pile_size,
            scores=list(state.scores),
            held=[tiles_in(h) for h in state.hands],
            forced_tile=None if state.done else state.forced_tile,
            winners=list(state.winners) if state.done else [],
        )
    elif isinstance(state, Solitaire1):
        out.update(
            players=1,
            pile=state.pile_size,
            discard=list(state.discard),
            source=None if state.done else state.source,
            forced_tile=state.forced_tile,
            scores=[state.score],
            won=state.won,
            winners=[0] if state.won else [],
        )
    else:
        out.update(
            players=1,
            stacks=[{"top": s[-1] if s else None, "height": len(s)} for s in state.stacks],
            scores=[state.score],
            won=state.won,
            winners=[0] if state.won else [],
        )
    return out


def _contactix(state: ContactixState) -> dict[str, Any]:
    n = state.size
    last = None
    if state.moves:
        last_cell = state.moves[-1]
        if state.swapped and len(state.moves) == 2:
            r, c = divmod(state.moves[0], n)
            last_cell = c * n + r  # the swap put White's peg on the mirror hole
        last = list(divmod(last_cell, n))
    return {
        "game": "contactix",
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


def seat_names(game: str, specs: Sequence[str | None]) -> list[str]:
    """How the page and the event texts name each seat: ``seat 0 (you)``, ``seat 1 (greedy)``, ``black (random)``."""
    people = sum(1 for s in specs if s is None)
    names = []
    for seat, spec in enumerate(specs):
        who = spec if spec is not None else ("you" if people == 1 else "person")
        where = COLOUR_NAMES[seat] if game == "contactix" else f"seat {seat}"
        names.append(f"{where} ({who})")
    return names


def contactix_move_text(state: ContactixState, move: int, name: str) -> str:
    """The move ``move`` (about to be played in ``state``) in words."""
    n = state.size
    if state.is_swap(move):
        r, c = divmod(move, n)
        return f"{name} swaps: black's peg on ({r}, {c}) becomes a white peg on ({c}, {r})"
    return "{} plays ({}, {})".format(name, *divmod(move, n))


def tile_of(value: Any) -> int:
    """A tile from JSON: an id 0..35 or a name ("09-02-08"); ``ValueError`` otherwise."""
    if isinstance(value, str):
        return tile_id(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(TILE_NAMES):
        return value
    raise ValueError(f"a tile is an id 0..{len(TILE_NAMES) - 1} or a name like '09-02-08'; got {value!r}")
