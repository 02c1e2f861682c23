"""Replaying game records through the environments, as a check of the environments themselves.

``contack_env.records`` walks a record on the rules engine; here the same walk (the same codec, the same
structure checks and messages) plays every decision through the environment an agent would use: Contack
through ``contack_v0``, the solitaires through ``solitaire_v0``, CON-TAC-TIX through ``contactix_v0``. A decision
must be an action of the environment's action encoding that its action mask allows and that decodes back to the
same move; the legal moves a record lists must be exactly what the mask allows; forced events are compared with
what the environment's own game logged; and at the end the environment's exported record must agree with the
input. So a record passes only if the environment reproduces the game through its public interface.

``contack replay --check --through-env FILE...`` runs it over files (``contack_env.records.check_paths`` with
``through=through_env``).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from contack_env.contack.tiles import TILE_NAMES
from contack_env.records import RecordError, replay
from contack_env.records.values import same_json
from contack_env.records.walker import Driver, Setup

__all__ = ["ContackEnvDriver", "ContactixEnvDriver", "SolitaireEnvDriver", "replay_through_env", "through_env"]

_BY_MASK = "by the action mask"


def through_env(record: dict[str, Any], setup: Setup) -> Driver:
    """The environment driver for ``record``'s game (a driver maker for ``contack_env.records.walker.Walk``)."""
    if setup.game not in _DRIVERS:  # a game added to the registry without an environment
        raise RecordError(f"{setup.game} has no environment to replay through; environments replay "
                          f"{', '.join(_DRIVERS)}", "format")
    return _DRIVERS[setup.game](record, setup)


def replay_through_env(record: Any) -> Any:
    """Play ``record`` (either format) through its environment and check it; raise ``RecordError`` naming where
    on the first problem. Returns the environment's final engine state."""
    return replay(record, through_env)


class ContackEnvDriver:
    """A Contack record played through ``contack_v0.raw_env``, reset with the record's decks and rules."""

    legal_source = _BY_MASK

    def __init__(self, record: dict[str, Any], setup: Setup) -> None:
        from contack_env.envs.contack_v0 import raw_env

        game = setup.state  # the engine state the codec made from the record: the rules and the deals
        self.env = raw_env(num_players=game.num_players, num_hands=game.num_hands, enclosed_end=game.enclosed_end)
        self.env.reset(options={"decks": [list(deck) for deck in game.decks]})
        self.state = self.env.game

    def legal(self) -> list[Any]:
        layout = self.env.action_layout()
        return [layout.decode(int(a)) for a in np.flatnonzero(self.env.action_mask())]

    def refusal(self, move: Any) -> str | None:
        layout = self.env.action_layout()
        try:
            action = layout.encode(move)
        except KeyError:
            held = move.tile in [t for t in layout.slots if t is not None]
            seat = self.state.current_player
            why = "the cell is neither a free side of the last-played tile nor a hole" if held else f"seat {seat} does not hold {TILE_NAMES[move.tile]}"
            return f"it has no action: {why}"
        if not self.env.action_mask()[action]:
            return f"it is action {action}, which the mask does not allow"
        if layout.decode(action) != move:
            return f"its action {action} decodes to {layout.decode(action)}"
        return None

    def play(self, move: Any) -> None:
        self.env.step(self.env.action_layout().encode(move))

    def finish(self, record: dict[str, Any]) -> None:
        _compare_export(self.env.game_record(), record)


class SolitaireEnvDriver:
    """A solitaire record played through ``Solitaire1Env`` or ``Solitaire2Env``, reset with the record's deal."""

    legal_source = _BY_MASK

    def __init__(self, record: dict[str, Any], setup: Setup) -> None:
        env_class, options = _SOLITAIRES[setup.game]
        self.env = env_class()(illegal_action="raise")
        self.env.reset(options=options(setup.state))
        self.state = self.env.state

    def legal(self) -> list[Any]:
        return [self.env.decode_action(int(a)) for a in np.flatnonzero(self.env.action_masks())]

    def refusal(self, move: Any) -> str | None:
        try:
            action = self.env.encode_move(move)
        except ValueError as err:
            return f"the environment has no action for it ({err})"
        if self.env.decode_action(action) != move:
            return f"its action {action} decodes to {self.env.decode_action(action)}"
        return None

    def play(self, move: Any) -> None:
        self.env.step(self.env.encode_move(move))
        self.state = self.env.state

    def finish(self, record: dict[str, Any]) -> None:
        _compare_export(self.env.game_record(), record)


class ContactixEnvDriver:
    """A CON-TAC-TIX record played through ``contactix_v0.raw_env``: an action is the cell a move fills (the
    swap: Black's first peg's)."""

    legal_source = _BY_MASK

    def __init__(self, record: dict[str, Any], setup: Setup) -> None:
        from contack_env.envs.contactix_v0 import raw_env

        state = setup.state
        self.env = raw_env(board_size=state.size, swap=state.swap_rule)
        self.env.reset()
        self.state = self.env.game

    def legal(self) -> list[Any]:
        return [int(a) for a in np.flatnonzero(self.env.action_mask())]

    def refusal(self, move: Any) -> str | None:
        if not self.env.action_mask()[move]:
            return f"action {move} is one the mask does not allow"
        return None

    def play(self, move: Any) -> None:
        self.env.step(move)

    def finish(self, record: dict[str, Any]) -> None:
        exported = self.env.game_record()
        for key in ("moves", "winner"):
            if not same_json(exported[key], record[key]):
                raise RecordError(f"the environment's exported record has {key} {exported[key]!r}, not {record[key]!r}", key)


def _solitaire1() -> Any:
    from contack_env.envs.solitaire_v0 import Solitaire1Env

    return Solitaire1Env


def _solitaire2() -> Any:
    from contack_env.envs.solitaire_v0 import Solitaire2Env

    return Solitaire2Env


# Each solitaire's environment class (imported on first use, as the RL stack is heavy) and its reset options.
_SOLITAIRES: dict[str, tuple[Callable[[], Any], Callable[[Any], dict[str, Any]]]] = {
    "solitaire1": (_solitaire1, lambda state: {"deck": list(state.deck)}),
    "solitaire2": (_solitaire2, lambda state: {"deck": list(state.deck), "cut": state.cut}),
}

_DRIVERS: dict[str, Callable[[dict[str, Any], Setup], Driver]] = {
    "contack": ContackEnvDriver,
    "solitaire1": SolitaireEnvDriver,
    "solitaire2": SolitaireEnvDriver,
    "contactix": ContactixEnvDriver,
}


def _compare_export(exported: dict[str, Any], record: dict[str, Any]) -> None:
    """The environment's exported ``contack-record/1`` record against the input: decks (and cut), events
    (``legal`` aside: it is optional), scores and winners."""
    for h, (mine, theirs) in enumerate(zip(exported["hands"], record["hands"])):
        for key in ("deck", "cut"):
            if key in mine and not same_json(mine[key], theirs.get(key)):
                raise RecordError(f"the environment's exported record has another {key}", f"hand {h + 1}, {key}")
        if len(mine["events"]) != len(theirs["events"]):
            raise RecordError(
                f"the environment's exported record has {len(mine['events'])} events, the record {len(theirs['events'])}",
                f"hand {h + 1}",
            )
        for j, (a, b) in enumerate(zip(mine["events"], theirs["events"])):
            for key, value in a.items():
                if key != "legal" and not same_json(b.get(key), value):
                    raise RecordError(
                        f"the environment's exported record has {key!r} {value!r}, the record {b.get(key)!r}",
                        f"hand {h + 1}, event {j + 1} ({a['type']})",
                    )
    for key in ("scores", "winners"):
        theirs = sorted(record[key]) if key == "winners" else record[key]
        if not same_json(exported[key], theirs):
            raise RecordError(f"the game ends with {key} {exported[key]}, not {record[key]!r}", key)

