"""Contack: the rules engine (pure Python + numpy) and, on top of it, the RL environments.

The engine modules know nothing of observations or rewards:

- ``tiles``: the 36 tiles, names, values, contacts.
- ``grid``: cells, sides, orientations, neighbours.
- ``figure``: the placed tiles and the fast legal-move generator (``Move``).
- ``state``: what every game state shares (the decision, ``play``, the event log).
- ``multiplayer``: the 2-7 player game over N hands; ``solitaire``: Solitaires No. 1 and No. 2.
- ``records``: the ``contack-record/1`` format: write, read, replay and check.
- ``text``: a text view of a state.
"""

from .figure import Figure, Move
from .multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, ContackGame, new_game
from .solitaire import Solitaire1, Solitaire2, new_solitaire1, new_solitaire2
from .state import GameState, IllegalMoveError
from .tiles import NUM_TILES, TILE_NAMES, TILE_VALUES, tile_id, tile_name

__all__ = [
    "ContackGame",
    "ENCLOSED_END_OPTIONS",
    "Figure",
    "GameState",
    "IllegalMoveError",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Move",
    "NUM_TILES",
    "Solitaire1",
    "Solitaire2",
    "TILE_NAMES",
    "TILE_VALUES",
    "new_game",
    "new_solitaire1",
    "new_solitaire2",
    "tile_id",
    "tile_name",
]

# Gymnasium ids for the solitaires (contack/Solitaire1-v0, contack/Solitaire2-v0). Gymnasium 1.x has no plugin
# entry points, so importing the package registers them; the engine modules themselves never import gymnasium.
try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # the engine works without the RL stack
    pass
else:
    from .solitaire_v0 import register_envs as _register_envs

    _register_envs()
