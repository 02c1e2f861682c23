"""Contack's logged events (``contack-record/1`` vocabulary, docs/records.md) in words, naming the seats: what
the browser app's log and ``contack play``'s narration show."""

from __future__ import annotations

from typing import Any, Sequence

END_REASONS = {
    "out": "went out",
    "enclosed": "the figure is enclosed",
    "blocked": "nobody can play",
    "won": "all 36 tiles are placed",
    "lost": "no tile can be placed",
}


def event_text(event: dict[str, Any], names: Sequence[str], went_out: int | None = None) -> str:
    """One logged event in words. ``went_out``: the seat whose placement emptied its hand (for an ``end`` event
    whose reason is ``out``)."""
    kind = event.get("type")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if kind == "open":
        return f"{who} opens with {event['tile']}"
    if kind == "place":
        x, y = event["cell"]
        points = event.get("points", 0)
        scored = f", scoring {points}" if points else ""
        source = {"discard": " from the discard pile"}.get(event.get("from", ""), "")
        if "stack" in event:
            source = f" from stack {event['stack']}"
        return f"{who} places {event['tile']}{source} at ({x}, {y}){scored}"
    if kind == "draw":
        return f"{who} draws {event['tile']}"
    if kind == "discard":
        return f"{who} discards {event['tile']} (it fits nowhere)"
    if kind == "pass":
        return f"{who} passes"
    if kind == "end":
        reason = event.get("reason", "")
        if reason == "out" and went_out is not None and 0 <= went_out < len(names):
            text = f"The hand ends: {names[went_out]} went out"
        else:
            text = f"The hand ends: {END_REASONS.get(reason, reason)}"
        if "penalties" in event:
            text += f"; penalties {event['penalties']}, scores {event['scores']}"
        return text
    return str(kind)


def hand_texts(events: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """The texts of one hand's events, in order (an ``end`` by going out names who went out)."""
    texts = []
    last_placer: int | None = None
    for event in events:
        if event.get("type") == "place":
            last_placer = event.get("seat")
        texts.append(event_text(event, names, went_out=last_placer))
    return texts
