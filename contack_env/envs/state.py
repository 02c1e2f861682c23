"""The global state of the multiplayer game (``contack_v0``'s ``state()``), one float32 vector the same for every
agent, as a centralised critic reads it.

Every hand is face up (docs/rules.md section 5.1), so the state is the public position: it holds no more than
an observation does, seen from no seat in particular. It reuses the observation's pieces (``observation.LAYOUT``)
by name, so every index comes from the layouts: the pieces seen from seat 0 (seat numbers are then the agents'
own, ``player_i`` is seat ``i``), the hand and the per-action points of the seat to move, and no ``lead`` (a
difference seen from one seat). The order of the pile is not in it: two games that differ only in the order of
the pile have the same state.
"""

from __future__ import annotations

import numpy as np

from contack_env.envs.layout import Column, Columns, ObservationLayout, Piece
from contack_env.envs.observation import HAND_COLUMNS, LAYOUT, NUM_SEATS, TILE_COLUMNS

_SEAT_PIECES = ("tiles", "cells", "pile", "hand_number", "hands_left", "last_hand", "scores", "hand_sizes", "passes",
                "to_move", "players", "enclosed_end")
"""The observation pieces taken from seat 0's observation, where a relative seat is the seat itself."""
_MOVER_PIECES = ("hand", "points")
"""The pieces taken from the observation of the seat to move (0 once the game is over)."""


def _state_piece(name: str) -> Piece:
    piece = LAYOUT[name]
    if name in _MOVER_PIECES:
        text = {"hand": "per hand slot of the seat to move (its tiles sorted by tile id, as the action encoding's slots):",
                "points": "per action of the seat to move: the points the placement scores / {scale:g} if it is "
                          "legal, else 0"}[name]
        return Piece(name, piece.shape, text, piece.scale, piece.low, HAND_COLUMNS if name == "hand" else None)
    text = piece.text.replace("relative seat", "seat")
    columns = piece.columns
    if name == "tiles":  # the held columns name seats, not seats relative to an observer
        columns = Columns(Column("held", "held by seat 0..6", NUM_SEATS), *TILE_COLUMNS.columns[1:])
    return Piece(name, piece.shape, text, piece.scale, piece.low, columns)


STATE_LAYOUT = ObservationLayout([_state_piece(p.name) for p in LAYOUT if p.name in _SEAT_PIECES + _MOVER_PIECES])
"""The pieces of the state vector (the order of the observation's, without ``lead``)."""
STATE_SIZE = STATE_LAYOUT.size
STATE_LOW = STATE_LAYOUT.low
STATE_HIGH = STATE_LAYOUT.high


def state_vector(seat0_observation: np.ndarray, mover_observation: np.ndarray | None) -> np.ndarray:
    """The state vector from the observation of seat 0 and that of the seat to move (None once the game is
    over): each piece copied by name from the observation it comes from."""
    state = np.zeros(STATE_SIZE, dtype=np.float32)
    for name in _SEAT_PIECES:
        state[STATE_LAYOUT.span(name)] = seat0_observation[LAYOUT.span(name)]
    if mover_observation is not None:
        for name in _MOVER_PIECES:
            state[STATE_LAYOUT.span(name)] = mover_observation[LAYOUT.span(name)]
    return state
