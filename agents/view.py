"""What a player sees: a copy of the game state with the hidden order redacted, and determinizations of it.

Agents receive ``public_view(state)``, never the real state. Everything face up is kept (the figure, every hand
in the multiplayer game, Solitaire No. 1's discard pile, Solitaire No. 2's stack tops and heights); what is face
down is replaced by a canonical order that carries no information: the pile of the current hand in ascending
tile id, the deals of later hands in tile-id order, Solitaire No. 2's hidden stack contents in ascending order.
A search agent then samples the hidden part with ``determinize`` (any order consistent with what is seen).
"""

from __future__ import annotations

import numpy as np

from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.state import GameState
from contack_env.contack.tiles import NUM_TILES


def public_view(state: GameState) -> GameState:
    """A clone of ``state`` whose face-down tiles are in a canonical order (no event log is kept)."""
    return _rearranged(state, None)


def determinize(view: GameState, rng: np.random.Generator) -> GameState:
    """A clone of ``view`` with its face-down tiles in a random order drawn from ``rng``."""
    return _rearranged(view, rng)


def _order(tiles: list[int], rng: np.random.Generator | None) -> list[int]:
    if rng is None:
        return sorted(tiles)
    return [tiles[i] for i in rng.permutation(len(tiles))]


def _rearranged(state: GameState, rng: np.random.Generator | None) -> GameState:
    view = state.clone()
    view.log = False
    view.hand_events = []
    if isinstance(view, ContackGame):
        h = view.hand_number
        deck = list(view.decks[h])
        deck[view.pile_pos :] = _order(deck[view.pile_pos :], rng)
        later = [_order(list(range(NUM_TILES)), rng) for _ in range(h + 1, view.num_hands)]
        view.decks = view.decks[:h] + [deck] + later
    elif isinstance(view, Solitaire1):
        deck = list(view.deck)
        deck[view.pile_pos :] = _order(deck[view.pile_pos :], rng)
        view.deck = deck
    elif isinstance(view, Solitaire2):
        hidden = _order([t for s in view.stacks for t in s[:-1]], rng)
        stacks = []
        for s in view.stacks:
            k = max(len(s) - 1, 0)
            stacks.append(hidden[:k] + s[-1:])
            hidden = hidden[k:]
        view.stacks = stacks
        view.deck = []  # the deal is not seen; a view keeps only the stacks
    else:
        raise TypeError(f"no public view for {type(state).__name__}")
    return view
