"""What the browser app needs of a game (``WebGame``), and how it finds a game's adapter: through the registry.

Every game the app offers names its adapter in its ``GameSpec.web`` (``"module:attribute"``, loaded on use):
``web_contack`` for Contack and both solitaires, which share the tile view, and ``web_contactix``. Sessions,
replays and the options the page gets reach a game only through its adapter (``web_game(name)``), never through
a state's class or a game's name. Also here is what every adapter shares: a replay's ``Frame``, how seats are
named (``seat_names``) and the agents a record names (``record_agents``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from contack_env.checks import is_whole_number
from contack_env.games import GAMES, get_game, load_target

__all__ = ["Frame", "WebGame", "record_agents", "seat_names", "web_game", "web_games"]


@dataclass(frozen=True)
class Frame:
    """A position a replay shows: the state (whose ``WebGame.log`` tells the frame's events), its JSON as the
    page gets it, and a caption."""

    state: Any
    view: dict[str, Any]
    caption: str


class WebGame(Protocol):
    """One game as the browser app shows and plays it."""

    bots: tuple[str, ...]
    """The agent specs a page offers for a seat (your own registered agents are added after them)."""
    opening: str
    """The caption of a replay's first frame, the position before the first decision."""

    def state_json(self, state: Any) -> dict[str, Any]:
        """The JSON of ``state`` the page draws. It reads only what every player at the table sees, never a
        deck, so the pile's order cannot reach the page (a live game's state is also passed through
        ``public_view`` first, as a second guard)."""
        ...

    def seat_name(self, seat: int) -> str:
        """How the page names a seat, before its agent: ``seat 0``, ``black``."""
        ...

    def parse_move(self, state: Any, data: dict[str, Any]) -> Any:
        """The move a page sent (the request's JSON object) in the engine's terms, for ``state.play``; a
        ``ValueError`` whose message tells the person what is wrong if it is malformed (or illegal at a glance:
        the engine checks the rest)."""
        ...

    def log(self, state: Any, names: Sequence[str]) -> list[dict[str, Any]]:
        """The game so far in words, oldest first: ``{"hand": h, "text": t}`` (``h`` from 1), naming the seats
        ``names``."""
        ...

    def play_frames(self, state: Any, move: Any, names: Sequence[str]) -> list[Frame]:
        """Play ``move`` on ``state`` in a replay and return the frames it makes, in order: the position after
        it, after any the game shows on the way."""
        ...

    def summary(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record's line in a file's list of games, from its own fields (a malformed record is refused only
        when it is opened): ``title``, ``agents``, ``result``, ``seed`` and ``moves`` (a count, or None)."""
        ...


def web_game(name: str) -> WebGame:
    """The adapter of the game called ``name``; ``ValueError`` for a game not in the registry or without one."""
    spec = get_game(name)
    if not spec.web:
        raise ValueError(f"{spec.title} is not offered in the browser app (its GameSpec names no web adapter)")
    return load_target(spec.web)  # type: ignore[no-any-return]


def web_games() -> dict[str, WebGame]:
    """Every game the app offers, by name, in the registry's order: those whose ``GameSpec`` names an adapter."""
    return {name: web_game(name) for name, spec in GAMES.items() if spec.web}


def seat_names(web: WebGame, agents: Sequence[str | None]) -> list[str]:
    """How the page and the event texts name each seat: ``seat 0 (you)``, ``seat 1 (greedy)``, ``black (random)``.
    ``agents``: one spec per seat, None for a person."""
    people = sum(1 for a in agents if a is None)
    names = []
    for seat, agent in enumerate(agents):
        who = agent if agent is not None else ("you" if people == 1 else "person")
        names.append(f"{web.seat_name(seat)} ({who})")
    return names


def whole_number(value: Any) -> int | None:
    """``value`` if it is a whole number (not a bool), else None. A file's list of games shows a record's own
    fields before the game is opened and checked, so it shows only values of the kind it expects: never a NaN,
    nor a structure nested past what JSON can send back."""
    return value if is_whole_number(value) else None


def record_agents(record: dict[str, Any], seats: int) -> list[str]:
    """The agents a record names, one per seat, ``?`` where unknown."""
    # The names are for reading only (replay ignores them): a list that does not fit the seats is not used.
    agents = record.get("agents")
    if isinstance(agents, list) and len(agents) == seats and all(isinstance(a, str) or a is None for a in agents):
        return [a or "?" for a in agents]
    # A record's seat count is its own word, checked only when the game is opened: past any game's, no list.
    most = max(spec.max_players for spec in GAMES.values())
    return ["?"] * seats if 0 < seats <= most else []
