"""Records opened in the browser: a file's text read into records, and one record turned into frames to step
through.

A file is what ``contack simulate``, ``contack evaluate --records`` or the app's own download writes: one JSON
object, an array of them, or JSON lines; ``contack-record/1`` (Contack and both solitaires) and
``contactix-record/1`` records may be mixed. A record is replayed through the engine, every event checked,
before any frame is made of it, so a page shows only games the rules allow.

Frames: the position after each hand's opening and after each placement (CON-TAC-TIX: after each move), with
the events that led to it (draws, passes, discards, the end of a hand) in words. A placement that ends a hand
before the last shows the finished hand, then the next hand's opening, as two frames.
"""

from __future__ import annotations

from typing import Any

from contack_env import ContackGame, GameState, Move, Solitaire1, Solitaire2, tile_id
from contack_env.contactix.rules import ContactixState
from contack_env.records.contactix import FORMAT as CONTACTIX_FORMAT
from contack_env.records.contactix import replay as replay_contactix
from contack_env.records import RecordError, codec_for, replay
from contack_env.records import parse_records as read_text

from contack_env.render.events import event_text

from .views import contactix_move_text, seat_names, state_json

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


def summary(record: dict[str, Any], index: int) -> dict[str, Any]:
    """A line for the file's list of games, from the record's own fields (checked when the game is opened)."""
    if record.get("format") == CONTACTIX_FORMAT:
        moves = record.get("moves")
        return {
            "index": index,
            "game": "contactix",
            "title": f"CON-TAC-TIX {record.get('size')}x{record.get('size')}",
            "agents": _agents(record, 2),
            "result": f"{record.get('winner')} won" if record.get("winner") else "unfinished",
            "seed": record.get("seed"),
            "moves": len(moves) if isinstance(moves, list) else None,
        }
    game = record.get("game")
    players = record.get("players")
    title = {"solitaire1": "Solitaire No. 1", "solitaire2": "Solitaire No. 2"}.get(str(game), f"Contack, {players} players")
    scores = record.get("scores")
    return {
        "index": index,
        "game": game,
        "title": title,
        "agents": _agents(record, players if isinstance(players, int) else 0),
        "result": f"scores {scores}" if game == "contack" else ("won" if record.get("winners") else "lost"),
        "seed": record.get("seed"),
        "moves": None,
    }


def _agents(record: dict[str, Any], seats: int) -> list[str]:
    # The names are for reading only (replay ignores them): a list that does not fit the seats is not used.
    agents = record.get("agents")
    if isinstance(agents, list) and len(agents) == seats and all(isinstance(a, str) or a is None for a in agents):
        return [a or "?" for a in agents]
    return ["?"] * max(seats, 0)


def frames(record: dict[str, Any]) -> dict[str, Any]:
    """The game of ``record``, checked by replaying it, as frames (module docstring); ``RecordError`` if it does
    not replay."""
    if record.get("format") == CONTACTIX_FORMAT:
        return _contactix_frames(record)
    replay(record)  # raises RecordError naming the hand and event
    return _contack_frames(record)


def _contactix_frames(record: dict[str, Any]) -> dict[str, Any]:
    final = replay_contactix(record)
    names = seat_names("contactix", _agents(record, 2))
    state = ContactixState(final.size, final.swap_rule)
    out = [{"state": state_json(state), "events": [], "caption": "the empty board"}]
    for move in final.moves:
        text = contactix_move_text(state, move, names[state.current_player])
        state.play(move)
        out.append({"state": state_json(state), "events": [text], "caption": text})
    return {"game": "contactix", "names": names, "frames": out}


def _contack_frames(record: dict[str, Any]) -> dict[str, Any]:
    game = record["game"]
    hands = record["hands"]
    decks = [[tile_id(name) for name in hand["deck"]] for hand in hands]
    state: GameState
    if game == "contack":
        rules = record["rules"]
        state = ContackGame(decks, record["players"], rules["hands"], rules["enclosed_end"])
    elif game == "solitaire1":
        state = Solitaire1(decks[0])
    else:
        state = Solitaire2(decks[0], hands[0]["cut"])
    names = seat_names(game, _agents(record, record["players"]))
    seen = [0]  # events of each hand already told
    last_placer: list[int | None] = [None]

    def news(s: GameState) -> list[str]:
        texts = []
        for h, events in enumerate(s.hand_events):
            if h >= len(seen):
                seen.append(0)
            for event in events[seen[h]:]:
                if event.get("type") == "place":
                    last_placer[0] = event.get("seat")
                texts.append(event_text(event, names, went_out=last_placer[0]))
            seen[h] = len(events)
        return texts

    def frame(s: GameState, caption: str, hand_over: bool = False) -> dict[str, Any]:
        view = state_json(s)
        if hand_over:  # the probe of a finished hand believes the game is over; it is not
            view.update(legal=[], to_move=None, done=False, winners=[], hand_over=True)
        return {"state": view, "events": news(s), "caption": caption}

    out = [frame(state, "the opening")]
    for h, hand in enumerate(hands):
        for event in hand["events"]:
            if event["type"] != "place":
                continue
            move = Move(tile_id(event["tile"]), *event["cell"])
            if isinstance(state, ContackGame) and state.hand_number + 1 < state.num_hands:
                # The engine deals the next hand inside play(); to show the finished hand, play the move on a copy
                # that believes this hand is the last.
                probe = state.clone()
                probe.num_hands = probe.hand_number + 1
                probe.play(move)
                if probe.done:
                    out.append(frame(probe, f"hand {h + 1} is over", hand_over=True))
                    state.play(move)
                    seen[h] = len(state.hand_events[h])
                    out.append(frame(state, f"hand {h + 2}: the opening"))
                    continue
            state.play(move)
            out.append(frame(state, f"{names[event['seat']]} placed {event['tile']}"))
    return {"game": game, "names": names, "frames": out}
