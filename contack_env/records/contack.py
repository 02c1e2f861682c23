"""Game records in the ``contack-record/1`` format (docs/records.md): make a record, and the format's codec.

A record carries every deal, so the codec rebuilds the game from the decks alone and the walker
(``contack_env.records.walker``) walks the record's events against what the engine does: every forced event
(open, draw, discard, pass, end) must be the one the engine generates, every ``place`` must be a legal move of
the seat to move with the points it really scores, and the final scores and winners must agree. Anything wrong
raises ``RecordError`` naming the hand and event (both 1-based) and what is wrong there.
"""

from __future__ import annotations

from typing import Any, Sequence

from contack_env.wording import plural
from contack_env.contack.figure import Move
from contack_env.contack.grid import cell_index
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES
from contack_env.records.errors import RecordError
# The one reader and writer of both formats, also reachable from here as before.
from contack_env.records.files import append_record, read_records, write_records
from contack_env.records.schema import check_structure
from contack_env.records.values import is_int, json_kind, plain, same_json, show
from contack_env.records.walker import Driver, Setup, Step, Through, Walk
from contack_env.seeds import check_seed

FORMAT = "contack-record/1"
EVENT_TYPES = ("open", "place", "draw", "discard", "pass", "end")

# Key order of the events a record writes; keys not listed keep their order after these. ``legal`` comes last
# because it is by far the longest.
_EVENT_KEY_ORDER = ("type", "seat", "tile", "cell", "blue", "points", "from", "stack", "reason", "penalties", "scores", "legal")
_SOURCES = {"pile": "the face-down pile", "discard": "the discard pile"}
# How many moves an error message lists before abridging.
_MAX_LISTED = 12

__all__ = [
    "CODEC",
    "EVENT_TYPES",
    "FORMAT",
    "ContackCodec",
    "RecordError",
    "append_record",
    "game_record",
    "read_records",
    "replay",
    "write_records",
]


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
        seed = check_seed(seed, "seed (the int the deals were drawn from, or None)")
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
    out = {k: plain(event[k]) for k in _EVENT_KEY_ORDER if k in event}
    out.update((k, plain(v)) for k, v in event.items() if k not in out)
    return out


# -- the codec -----------------------------------------------------------------------------------------------
def _where(path: Sequence[str | int], record: Any) -> str:
    """The place of a path into a record, as messages name it: ``players``, ``rules.hands``, ``hand 2, deck[4]``,
    ``hand 1, event 3 (place)``; ``record`` for the record itself."""
    if not path:
        return "record"
    if path[0] != "hands" or len(path) < 2:
        return ".".join(str(p) for p in path[:2] if isinstance(p, str)) or "record"
    h = path[1]
    text = f"hand {h + 1}"
    if len(path) == 2:
        return text
    if path[2] == "events" and len(path) >= 4:
        event = record["hands"][h]["events"][path[3]]
        return _event_where(h, path[3], event)
    if path[2] == "deck" and len(path) >= 4:
        return f"{text}, deck[{path[3]}]"
    return f"{text}, {path[2]}"


def _event_where(h: int, j: int, event: Any = None) -> str:
    text = f"hand {h + 1}, event {j + 1}"
    if isinstance(event, dict) and event.get("type") in EVENT_TYPES:
        text += f" ({event['type']})"
    return text


def _make_contack(record: dict[str, Any], decks: list[list[int]], trace: bool) -> GameState:
    rules = record["rules"]
    return ContackGame(decks, record["players"], rules["hands"], rules["enclosed_end"], trace=trace, log=True)


def _make_solitaire1(record: dict[str, Any], decks: list[list[int]], trace: bool) -> GameState:
    return Solitaire1(decks[0], trace=trace, log=True)


def _make_solitaire2(record: dict[str, Any], decks: list[list[int]], trace: bool) -> GameState:
    return Solitaire2(decks[0], record["hands"][0]["cut"], trace=trace, log=True)


def _to_do_contack(state: Any, seat: int, moves: str) -> str:
    if state.forced_tile is not None:
        return f"seat {seat} must place the drawn tile {TILE_NAMES[state.forced_tile]} ({moves})"
    return f"seat {seat} is to place a tile ({moves})"


def _to_do_solitaire1(state: Any, seat: int, moves: str) -> str:
    return f"{TILE_NAMES[state.forced_tile]} from {_SOURCES[state.source]} must be placed ({moves})"


def _to_do_solitaire2(state: Any, seat: int, moves: str) -> str:
    return f"seat {seat} is to place a tile ({moves})"


def _no_key_check(state: Any, got: dict[str, Any], tile: int) -> str | None:
    return None


def _from_check(state: Any, got: dict[str, Any], tile: int) -> str | None:
    source = got.get("from")
    if source != state.source:
        return f"'from' should be {show(state.source)} (the tile comes from {_SOURCES[state.source]}), not {show(source)}"
    return None


def _stack_check(state: Any, got: dict[str, Any], tile: int) -> str | None:
    stack = state.stack_of(tile)
    if not same_json(got.get("stack"), stack):
        return f"{TILE_NAMES[tile]} is the top of stack {stack}, not {show(got.get('stack'))}"
    return None


def _outcome_contack(state: Any) -> tuple[list[int], list[int]]:
    return list(state.scores), list(state.winners)


def _outcome_solitaire(state: Any) -> tuple[list[int], list[int]]:
    return [state.score], [0] if state.won else []


class _Game:
    """What differs between the games of the format: how the engine state is made, what a decision asks for,
    the key a place event of the game adds, and the outcome."""

    def __init__(self, title: str, make: Any, hands_text: str | None, to_do: Any, key_check: Any, outcome: Any,
                 forced: bool, passes: bool, place_key: str | None = None, cut: bool = False,
                 penalties: bool = False) -> None:
        self.title = title
        self.make = make
        self.hands_text = hands_text  # how the count of hands is stated (None: rules.hands says it)
        self.to_do = to_do
        self.key_check = key_check
        self.outcome = outcome
        self.forced = forced  # whether the engine can force a drawn tile (``forced_tile``)
        self.passes = passes  # whether a seat can pass
        self.place_key = place_key  # the key its place events add ("from", "stack"), if any
        self.cut = cut  # whether its hand records the cut of the opening tile
        self.penalties = penalties  # whether its hands end with penalties

    def foreign_key(self, event: dict[str, Any]) -> str | None:
        """Why ``event`` holds a key the format gives another of its games (refused, not passed over as a key no
        reader knows), or None."""
        if event.get("type") == "place":
            for key in ("from", "stack"):
                if key in event and key != self.place_key:
                    return f"{key!r} is {_GAME_KEYS[key]}; a place event of {self.title} has none"
        if event.get("type") == "end" and "penalties" in event and not self.penalties:
            return f"'penalties' is {_GAME_KEYS['penalties']}; the end of {self.title} has none"
        return None


_GAMES = {
    "contack": _Game("Contack", _make_contack, None, _to_do_contack, _no_key_check, _outcome_contack, forced=True,
                     passes=True, penalties=True),
    "solitaire1": _Game("Solitaire No. 1", _make_solitaire1, "a solitaire is one hand", _to_do_solitaire1, _from_check,
                        _outcome_solitaire, forced=True, passes=False, place_key="from"),
    "solitaire2": _Game("Solitaire No. 2", _make_solitaire2, "a solitaire is one hand", _to_do_solitaire2, _stack_check,
                        _outcome_solitaire, forced=False, passes=True, place_key="stack", cut=True),
}
_GAME_KEYS = {"from": "Solitaire No. 1's", "stack": "Solitaire No. 2's", "cut": "Solitaire No. 2's", "penalties": "Contack's"}
"""Keys that belong to one game of the format, and whose they are (for the message when another game's record
holds one)."""
_END_OF_LIST = object()  # the step after a hand's last event: the engine's hand must end there too


class ContackCodec:
    """The ``contack-record/1`` format (Contack for 2 to 7 players and both solitaires) for the walker."""

    format = FORMAT

    def setup(self, record: Any, trace_check: bool = True) -> Setup:
        """Everything but the events checked, and the engine state made from the decks. ``trace_check=False``
        skips comparing the records' optional ``legal`` lists with the true legal moves."""
        players = record.get("players") if isinstance(record, dict) else None
        check_structure(record, FORMAT, _where, {"seats": f" ({players})" if is_int(players) else ""})
        game = _GAMES[record["game"]]
        players = record["players"]
        agents = record.get("agents")
        if agents is not None and len(agents) != players:
            raise RecordError(f"agents is null or one name per seat ({players}); got {show(agents)}", "agents")
        hands = record["hands"]
        num_hands = record["rules"]["hands"] if game.hands_text is None else 1
        if len(hands) != num_hands:
            what = game.hands_text or f"rules.hands is {num_hands}"
            raise RecordError(f"{what} but the record has {plural(len(hands), 'hand')}", "hands")
        decks = [_deck(hand["deck"], f"hand {h}") for h, hand in enumerate(hands, 1)]
        for h, hand in enumerate(hands, 1):
            if "cut" in hand and not game.cut:  # another game's key: refused, not passed over as unknown
                raise RecordError(f"'cut' is {_GAME_KEYS['cut']} (the opening tile cut out of stack 6); a hand of "
                                  f"{game.title} has none", f"hand {h}")
        trace = any("legal" in e for hand in hands for e in hand["events"])
        steps = []
        for h, hand in enumerate(hands):
            events = hand["events"]
            steps.extend(Step(_event_where(h, j, e), e, (h, j)) for j, e in enumerate(events))
            steps.append(Step(_event_where(h, len(events)), _END_OF_LIST, (h, len(events))))
        state = game.make(record, decks, trace)
        return Setup(record["game"], state, steps, {"trace_check": trace_check, "game": game})

    def apply(self, setup: Setup, driver: Driver, step: Step) -> bool:
        state = driver.state
        log = state.hand_events
        h, j = step.index
        logged = log[h] if h < len(log) else []
        if step.event is _END_OF_LIST:
            if j < len(logged):
                raise RecordError(f"missing event: expected {_describe(logged[j])}", step.where)
            if not state.done and h == len(log) - 1:
                raise RecordError(f"missing event: {self._to_do(setup, driver)}", step.where)
            return False
        got = step.event
        if j < len(logged):  # an event the engine generated: the record must hold the same
            self._compare(setup.options["game"], logged[j], got, step.where)
            return False
        if logged and logged[-1]["type"] == "end":
            raise RecordError(f"extra event after the end of the hand: {_describe(got)}", step.where)
        if h != len(log) - 1 or j != len(logged):
            raise RuntimeError(f"replay out of step with the engine at {step.where}")  # a bug here, not in the record
        step.move = self._decision(setup, driver, got, step.where)
        driver.play(step.move)
        return True

    def finish(self, record: dict[str, Any], setup: Setup, driver: Driver) -> None:
        scores, winners = setup.options["game"].outcome(driver.state)
        if not same_json(record["scores"], scores):
            raise RecordError(f"the game ends with scores {show(scores)}, not {show(record['scores'])}", "scores")
        got = record["winners"]
        if len(got) != len(set(got)) or sorted(got) != winners:
            what = f"seats {show(winners)} win" if winners else "nobody wins (the solitaire is lost)"
            raise RecordError(f"{what}, not {show(got)}", "winners")

    @staticmethod
    def _compare(game: _Game, expected: dict[str, Any], got: dict[str, Any], where: str) -> None:
        if got["type"] != expected["type"]:
            raise RecordError(f"expected {_describe(expected)}, got {_describe(got)}", where)
        why = game.foreign_key(got)
        if why:
            raise RecordError(why, where)
        for key, value in expected.items():
            if key not in got:
                raise RecordError(f"missing key {key!r} (it should be {show(value)})", where)
            if same_json(got[key], value):
                continue
            if key in ("seat", "tile"):
                why = f"expected {_describe(expected)}, got {_describe(got)}"
            elif key == "reason":
                why = f"the hand ends {show(value)}, not {show(got[key])}"
            elif key == "penalties":
                why = f"the hand's penalties are {show(value)}, not {show(got[key])}"
            elif key == "scores":
                why = f"the running scores after the hand are {show(value)}, not {show(got[key])}"
            else:
                why = f"{key!r} should be {show(value)}, not {show(got[key])}"
            raise RecordError(why, where)

    @staticmethod
    def _to_do(setup: Setup, driver: Driver) -> str:
        state = driver.state
        moves = _count(len(driver.legal()), "legal move")
        return setup.options["game"].to_do(state, state.current_player, moves)

    def _decision(self, setup: Setup, driver: Driver, got: dict[str, Any], where: str) -> Move:
        """The engine waits for a placement by ``current_player``: ``got`` must be that placement."""
        game = setup.options["game"]
        state = driver.state
        seat = state.current_player
        legal = driver.legal()
        forced = state.forced_tile if game.forced else None
        kind = got["type"]
        if kind != "place":
            who = got.get("seat")
            if kind == "pass" and who == seat and game.passes:
                why = f"seat {seat} passed but could play {_count(len(legal), 'move')}"
                if forced is not None:
                    why += f" (the drawn tile {TILE_NAMES[forced]})"
            elif kind == "draw" and who == seat and forced is None:
                why = f"seat {seat} drew {_text(got.get('tile'))} but could play {_count(len(legal), 'move')}"
            else:
                why = f"got {_describe(got)}, but {self._to_do(setup, driver)}"
            raise RecordError(why, where)
        if got["seat"] != seat:
            raise RecordError(f"seat {got['seat']} placed but it is seat {seat}'s turn", where)
        tile = _ID_BY_NAME[got["tile"]]
        move = Move(tile, got["cell"][0], got["cell"][1])
        if move not in set(legal):
            listed = f"legal: {_moves_text(legal)}"
            refusal = driver.refusal(move)
            if refusal:
                listed = f"{refusal}; {listed}"
            why = f"{move} is not legal here; {listed}"
            if game.passes and forced is not None and tile != forced:  # Contack: the drawn tile or nothing
                why = f"{move} is not legal here: seat {seat} must place the drawn tile {TILE_NAMES[forced]}; {listed}"
            raise RecordError(why, where)
        points = state.figure.points_for(tile, cell_index(move.x, move.y))
        if not same_json(got["points"], points):
            raise RecordError(f"{move} scores {points} points, not {show(got['points'])}", where)
        why = game.foreign_key(got) or game.key_check(state, got, tile)
        if why:
            raise RecordError(why, where)
        if setup.options["trace_check"] and "legal" in got:
            _check_legal(got["legal"], legal, driver.legal_source, where)
        refusal = driver.refusal(move)
        if refusal:  # legal by the driver's own list, yet refused by it: the environment contradicts itself
            raise RecordError(f"{move} is in the legal moves, but {refusal}", where)
        return move


CODEC = ContackCodec()


def replay(record: dict[str, Any], *, trace_check: bool = True, through: Through | None = None) -> GameState:
    """Rebuild the game of ``record`` from its decks and check every event against the engine (or, with
    ``through``, against what an environment's driver plays; see ``contack_env.envs.replay``).

    Returns the finished engine state (it logs a ``legal`` list on every place if the record carries any).
    ``trace_check=False`` skips comparing the records' optional ``legal`` lists with the true legal moves.
    Raises ``RecordError`` on the first thing wrong: a structural problem (missing key, wrong type, unknown
    format, game or tile, a deck that is not a permutation of the 36 tiles, ...) or an event the engine does
    not reproduce, naming the hand and event (1-based) and what is wrong.
    """
    return Walk(record, CODEC, through, trace_check=trace_check).run()


def _deck(deck: list[str], where: str) -> list[int]:
    ids = [_ID_BY_NAME[name] for name in deck]  # the schema let only tile names through
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


def _check_legal(listed: list[list[Any]], legal: list[Move], source: str, where: str) -> None:
    seen: set[Move] = set()
    for item in listed:  # the schema made every item [tile name, int, int]
        move = Move(_ID_BY_NAME[item[0]], item[1], item[2])
        if move in seen:
            raise RecordError(f"the legal list holds {move} twice", where)
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
        raise RecordError(f"the legal list {' and '.join(parts)} ({_count(len(legal), 'legal move')} {source})", where)


def _text(value: Any) -> str:
    """A string as it is (tile names read better unquoted), anything else as JSON."""
    return value if isinstance(value, str) else show(value)


def _cell_text(cell: Any) -> str:
    if isinstance(cell, (list, tuple)) and len(cell) == 2:
        return f"({show(cell[0])}, {show(cell[1])})"
    return show(cell)


def _describe(event: Any) -> str:
    """An event in words, for messages (tolerant of malformed values)."""
    if not isinstance(event, dict):
        return json_kind(event)
    kind = event.get("type")
    seat = show(event.get("seat"))
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
        return f"the end of the hand ({show(event.get('reason'))})"
    return f"an event of unknown type {show(kind)}"


def _moves_text(moves: Sequence[Move]) -> str:
    shown = ", ".join(str(m) for m in moves[:_MAX_LISTED])
    if len(moves) > _MAX_LISTED:
        shown += f", ... ({len(moves)} in all)"
    return shown or "none"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
