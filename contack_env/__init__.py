"""Contack: the rules engines (pure Python + numpy) and, on top of them, records, rendering and the RL environments.

The layers, bottom to top (docs/architecture.md; a test holds the imports to this order):

- ``contack_env.contack``: the Contack rules engine (tiles, grid, figure, game states for 2-7 players and the
  solitaires); ``contack_env.contactix``: the CON-TAC-TIX rules. They know nothing of observations or rewards.
- ``contack_env.records``: game records, written, read and replayed; ``contack_env.render``: text and pictures.
- ``contack_env.envs``: the PettingZoo and Gymnasium environments (``contack_v0``, ``solitaire_v0``,
  ``contactix_v0``), also reachable as ``from contack_env import contack_v0``.
- ``contack_env.cli``: the ``contack`` command line, the top layer (nothing imports it).
"""

from types import ModuleType

from contack_env.contack.figure import Figure, Move
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, ContackGame, new_game
from contack_env.contack.solitaire import Solitaire1, Solitaire2, new_solitaire1, new_solitaire2
from contack_env.contack.state import GameState, IllegalMoveError
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES, TILE_VALUES, tile_id, tile_name

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

# Gymnasium ids for the solitaires (contack/Solitaire1-v0, contack/Solitaire2-v0) and PettingZoo ids for the
# multiplayer games (contack/contack-v0, contack/contactix-v0). Neither library has plugin entry points, so
# importing the package registers them; the engine modules themselves never import gymnasium or pettingzoo.
try:
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # the engine works without the RL stack
    pass
else:
    from contack_env.envs.solitaire_v0 import register_envs as _register_envs

    _register_envs()
    try:
        import pettingzoo as _pettingzoo  # noqa: F401
    except ImportError:
        pass
    else:
        from contack_env.envs.registration import register_pettingzoo_envs as _register_pettingzoo_envs

        _register_pettingzoo_envs()

# The environments, PettingZoo style (``from contack_env import contack_v0``), loaded on first use so that the
# rules engine can be imported without the RL stack.
_ENV_MODULES = ("contack_v0", "solitaire_v0", "contactix_v0")


def __getattr__(name: str) -> ModuleType:
    if name in _ENV_MODULES:
        import importlib

        return importlib.import_module(f"contack_env.envs.{name}")
    raise AttributeError(f"module 'contack_env' has no attribute {name!r}")
