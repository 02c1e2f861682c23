"""What a player sees: ``public_view(state)`` and determinizations of it (``contack_env.protocol.State``).

Agents receive ``public_view(state)``, never the real state. Everything face up is kept (the figure, every hand
in the multiplayer game, Solitaire No. 1's discard pile, Solitaire No. 2's stack tops and heights); what is face
down is replaced by a canonical order that carries no information: the pile of the current hand in ascending
tile id, the deals of later hands in tile-id order, Solitaire No. 2's hidden stack contents in ascending order.
A search agent then samples the hidden part with ``determinize`` (any order consistent with what is seen). Each
game implements both as methods of its state; these functions name them for the agents.
"""

from __future__ import annotations

import numpy as np

from contack_env.protocol import State


def public_view(state: State) -> State:
    """A copy of ``state`` whose face-down tiles are in a canonical order (no event log is kept)."""
    return state.public_view()


def determinize(view: State, rng: np.random.Generator) -> State:
    """A copy of ``view`` with its face-down tiles in a random order drawn from ``rng``."""
    return view.determinize(rng)
