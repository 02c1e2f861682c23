"""Replaying game records through the environments, as a check of the environments themselves.

``records.replay`` checks a record against the engine; ``replay_through_env`` plays it through the environment
an agent would use: every ``place`` becomes an action of the action encoding (``contack_env.envs.actions``), which
must be allowed by the environment's action mask, and after the last event the environment's own exported
record must agree with the input. So a record passes only if the environment can reproduce the game, event
for event, through its public interface.

``contack replay --check --through-env FILE...`` runs it over files (``records.check_paths``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from contack_env.contack.figure import Move
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES, tile_id

SOLITAIRES = ("solitaire1", "solitaire2")


def replay_through_env(record: dict[str, Any]) -> None:
    """Play ``record`` through its environment and check it; raise ``records.RecordError`` on the first problem.

    Multiplayer records go through ``contack_v0.raw_env``, reset with the record's decks and rules: every
    ``place`` event is encoded as an action (a move the encoding cannot express, or one the mask does not allow,
    fails, naming the hand and event); a ``legal`` list, when present, must be exactly the moves the mask
    allows; every other event must be one the environment produced at that point. At the end the environment's
    exported record (``raw_env.game_record()``) must have the record's decks, events (``legal`` aside), scores
    and winners. Solitaire records go to ``solitaire_v0.replay_solitaire_through_env``.
    """
    from contack_env.records.contack import FORMAT, RecordError

    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object; got {type(record).__name__}", "record")
    game = record.get("game")
    if game in SOLITAIRES:
        from contack_env.envs.solitaire_v0 import replay_solitaire_through_env

        replay_solitaire_through_env(record)
        return
    if record.get("format") != FORMAT:
        raise RecordError(f"unknown format {record.get('format')!r}; this reader knows {FORMAT!r}", "format")
    if game != "contack":
        raise RecordError(f"unknown game {game!r}; games are contack, {', '.join(SOLITAIRES)}", "game")
    _Walk(record).run()


class _Walk:
    """One multiplayer record played through ``contack_v0.raw_env``."""

    def __init__(self, record: dict[str, Any]) -> None:
        from contack_env.envs.contack_v0 import raw_env
        from contack_env.records.contack import RecordError

        self.record = record
        players = record.get("players")
        if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RecordError(f"Contack is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; got {players!r}", "players")
        rules = record.get("rules")
        if not isinstance(rules, dict):
            raise RecordError(f"rules is a JSON object with 'hands' and 'enclosed_end'; got {rules!r}", "rules")
        num_hands = rules.get("hands")
        if not _is_int(num_hands) or num_hands < 1:
            raise RecordError(f"a game has 1 or more hands; got {num_hands!r}", "rules.hands")
        enclosed_end = rules.get("enclosed_end")
        if enclosed_end not in ENCLOSED_END_OPTIONS:
            raise RecordError(
                f"unknown option {enclosed_end!r}; enclosed_end is one of {', '.join(map(repr, ENCLOSED_END_OPTIONS))}",
                "rules.enclosed_end",
            )
        hands = record.get("hands")
        if not isinstance(hands, list) or len(hands) != num_hands:
            raise RecordError(f"rules.hands is {num_hands}: the record needs that many hands; got {_count(hands)}", "hands")
        self.events: list[list[dict[str, Any]]] = []
        decks = []
        for h, hand in enumerate(hands):
            where = f"hand {h + 1}"
            if not isinstance(hand, dict):
                raise RecordError(f"a hand is a JSON object with 'deck' and 'events'; got {hand!r}", where)
            decks.append(_deck(hand.get("deck"), where))
            events = hand.get("events")
            if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                raise RecordError("events is a list of JSON objects", where)
            self.events.append(events)
        self.env = raw_env(num_players=players, num_hands=num_hands, enclosed_end=enclosed_end)
        self.env.reset(options={"decks": decks})
        self.decks = decks
        self.checked = (0, 0)  # record events before this (hand, event) position agree with the environment's

    def where(self, h: int, j: int) -> str:
        events = self.events[h] if h < len(self.events) else []
        kind = events[j].get("type") if j < len(events) else None
        return f"hand {h + 1}, event {j + 1} ({kind})" if kind is not None else f"hand {h + 1}, event {j + 1}"

    def run(self) -> None:
        for h, events in enumerate(self.events):
            for j, event in enumerate(events):
                if event.get("type") == "place":
                    self.compare_upto(h, j)
                    self.place(h, j, event)
        self.compare_upto(len(self.events), 0)
        self.compare_export()

    def compare_upto(self, stop_h: int, stop_j: int) -> None:
        """Check the record's events before ``(stop_h, stop_j)`` against the environment's log."""
        from contack_env.records.contack import RecordError

        log = self.env.game.hand_events
        h, j = self.checked
        while (h, j) < (stop_h, stop_j):
            mine = log[h] if h < len(log) else []
            if j == len(self.events[h]):  # the record's hand ends here; the environment's must too
                if j < len(mine):
                    raise RecordError(f"missing event: the environment goes on with {_words(mine[j])}", self.where(h, j))
                h, j = h + 1, 0
                continue
            if j >= len(mine):
                raise RecordError(
                    f"the environment has no such event here: {self.waiting()}; the record has {_words(self.events[h][j])}",
                    self.where(h, j),
                )
            why = _difference(mine[j], self.events[h][j])
            if why:
                raise RecordError(why, self.where(h, j))
            j += 1
        self.checked = (h, j)

    def waiting(self) -> str:
        game = self.env.game
        if game.done:
            return "the game is over"
        return f"it waits for seat {game.current_player} to place a tile"

    def place(self, h: int, j: int, event: dict[str, Any]) -> None:
        from contack_env.records.contack import RecordError

        env = self.env
        game = env.game
        where = self.where(h, j)
        log = game.hand_events
        if len(log) - 1 != h or len(log[h]) != j:
            here = log[h][j] if h < len(log) and j < len(log[h]) else None
            what = _words(here) if here is not None else "nothing (the game has moved on)"
            raise RecordError(f"the record places a tile where the environment has {what}", where)
        if game.done:
            raise RecordError("the game is over: no tile can be placed", where)
        seat = event.get("seat")
        if seat != game.current_player:
            raise RecordError(f"seat {seat!r} places a tile, but it is seat {game.current_player}'s turn", where)
        move = _move(event, where)
        layout = env.action_layout()
        mask = env.action_mask()
        legal = np.flatnonzero(mask)
        try:
            action = layout.encode(move)
        except KeyError:
            held = move.tile in [t for t in layout.slots if t is not None]
            why = "the cell is neither a free side of the last-played tile nor a hole" if held else f"seat {seat} does not hold {TILE_NAMES[move.tile]}"
            raise RecordError(f"{move} has no action: {why} ({len(legal)} legal action(s))", where) from None
        if not mask[action]:
            raise RecordError(f"{move} is action {action}, which the mask does not allow ({len(legal)} legal action(s))", where)
        if layout.decode(action) != move:
            raise RecordError(f"action {action} decodes to {layout.decode(action)}, not {move}", where)
        if "legal" in event:
            self.check_legal(event["legal"], {layout.decode(int(a)) for a in legal}, where)
        env.step(action)

    @staticmethod
    def check_legal(listed: Any, allowed: set[Move], where: str) -> None:
        from contack_env.records.contack import RecordError

        if not isinstance(listed, list):
            raise RecordError(f"'legal' is a list of [tile, x, y]; got {listed!r}", where)
        moves = set()
        for item in listed:
            if not isinstance(item, list) or len(item) != 3 or not all(_is_int(v) for v in item[1:]):
                raise RecordError(f"'legal' holds {item!r}, not [tile, x, y]", where)
            try:
                moves.add(Move(tile_id(item[0]), item[1], item[2]))
            except ValueError as e:
                raise RecordError(f"'legal': {e}", where) from None
        if moves != allowed:
            parts = []
            if allowed - moves:
                parts.append(f"lacks {', '.join(str(m) for m in sorted(allowed - moves))}")
            if moves - allowed:
                parts.append(f"holds {', '.join(str(m) for m in sorted(moves - allowed))}, which the mask does not allow")
            raise RecordError(f"the legal list {' and '.join(parts)} ({len(allowed)} action(s) in the mask)", where)

    def compare_export(self) -> None:
        """The environment's exported record against the input: decks, events (``legal`` aside), totals."""
        from contack_env.records.contack import RecordError

        env = self.env
        if not env.game.done:
            h = len(self.events) - 1
            raise RecordError(f"the record stops before the game ends: {self.waiting()}", self.where(h, len(self.events[h])))
        exported = env.game_record()
        for h, (hand, events) in enumerate(zip(exported["hands"], self.events)):
            if hand["deck"] != [TILE_NAMES[t] for t in self.decks[h]]:
                raise RecordError("the exported deck differs from the record's", f"hand {h + 1}, deck")
            if len(hand["events"]) != len(events):
                raise RecordError(
                    f"the exported record has {len(hand['events'])} events, the record {len(events)}", f"hand {h + 1}"
                )
            for j, (mine, theirs) in enumerate(zip(hand["events"], events)):
                why = _difference(mine, theirs)
                if why:
                    raise RecordError(f"exported record: {why}", self.where(h, j))
        for key in ("scores", "winners"):
            theirs = self.record.get(key)
            if not isinstance(theirs, list) or not _same(exported[key], sorted(theirs) if key == "winners" else theirs):
                raise RecordError(f"the game ends with {key} {exported[key]}, not {theirs!r}", key)


def _deck(deck: Any, where: str) -> list[int]:
    from contack_env.records.contack import RecordError

    if not isinstance(deck, list) or len(deck) != NUM_TILES:
        raise RecordError(f"a deck is a list of the {NUM_TILES} tile names; got {_count(deck)}", f"{where}, deck")
    try:
        ids = [tile_id(name) for name in deck]
    except ValueError as e:
        raise RecordError(str(e), f"{where}, deck") from None
    if len(set(ids)) != NUM_TILES:
        raise RecordError("a deck holds every tile exactly once", f"{where}, deck")
    return ids


def _move(event: dict[str, Any], where: str) -> Move:
    from contack_env.records.contack import RecordError

    try:
        tile = tile_id(event.get("tile"))  # type: ignore[arg-type]
    except ValueError as e:
        raise RecordError(str(e), where) from None
    cell = event.get("cell")
    if not isinstance(cell, list) or len(cell) != 2 or not all(_is_int(c) for c in cell):
        raise RecordError(f"'cell' is [x, y], two integers; got {cell!r}", where)
    return Move(tile, cell[0], cell[1])


def _difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """What differs between the environment's event and the record's (None if they agree; ``legal`` aside,
    and keys only the record has are ignored, as RECORDS.md lets readers do)."""
    for key, value in mine.items():
        if key == "legal":
            continue
        if key not in theirs:
            return f"missing key {key!r} (the environment has {_words(mine)})"
        if not _same(value, theirs[key]):
            if key == "type":
                return f"the environment has {_words(mine)}, the record {_words(theirs)}"
            return f"{key!r} is {theirs[key]!r}, the environment has {value!r} ({_words(mine)})"
    return None


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> str:
    return f"{len(value)} item(s)" if isinstance(value, list) else repr(value)


def _words(event: dict[str, Any]) -> str:
    kind = event.get("type")
    seat = f" by seat {event.get('seat')}" if "seat" in event else ""
    if kind in ("open", "place"):
        return f"a {kind} of {event.get('tile')} at {tuple(event.get('cell') or ())}{seat}"
    if kind == "draw":
        return f"a draw of {event.get('tile')}{seat}"
    if kind == "pass":
        return f"a pass{seat}"
    if kind == "end":
        return f"the end of the hand ({event.get('reason')})"
    return f"an event of type {kind!r}"
