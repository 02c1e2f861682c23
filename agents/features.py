"""Extra per-action inputs a policy may be trained with, computed from the public state like the observation.

``features = "lookahead"`` appends to ``contack_v0``'s 787-value observation one value per action (105): for a
legal action, ``tanh(v / 50)`` where ``v`` is the ``lookahead`` bot's judgement of that placement
(``agents.lookahead.LookaheadAgent.move_value``: the points now, what one round of greedy replies hands the
others, whether the player can still play when the turn comes back, the tiles it keeps playable, the exact
result of a move that ends the hand); 0 for an illegal action. Like the observation's per-action points, it is
a derived feature any player could compute (every hand is face up; the pile is never looked at). A policy
trained with it starts from the bot's judgement and learns how much to trust it.

``features = "none"``: the observation alone. The policy file records which (``meta["features"]``), and
``policy_input`` builds the same input wherever the policy plays (training, its snapshots, ``ppo:PATH``).

CON-TAC-TIX policies take no features: their whole input is ``contactix_v0``'s observation planes, flattened
(``contack_env.envs.contactix_v0.flat_observation``).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .lookahead import LookaheadAgent, first_best
from contack_env.envs.actions import ActionLayout
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.state import GameState
from contack_env.contack.figure import split_code
from contack_env.envs.observation import NUM_ACTIONS, NUM_SLOTS, OBS_SIZE, hand_tiles

FEATURES = ("none", "lookahead")
LOOKAHEAD_SCALE = 50.0
"""A lookahead judgement ``v`` (in points) becomes the feature ``tanh(v / LOOKAHEAD_SCALE)``."""
_JUDGE = LookaheadAgent()


def extra_size(features: str) -> int:
    """How many values ``features`` appends to the observation."""
    check(features)
    return NUM_ACTIONS if features == "lookahead" else 0


def input_size(features: str) -> int:
    return OBS_SIZE + extra_size(features)


def check(features: str) -> None:
    if features not in FEATURES:
        raise ValueError(f"features must be one of {', '.join(FEATURES)}; got {features!r}")


def lookahead_values(game: ContackGame) -> np.ndarray:
    """The 105 per-action values of the module docstring for the seat to move (all 0 once the game is over)."""
    out = np.zeros(NUM_ACTIONS, dtype=np.float32)
    if game.done:
        return out
    layout = ActionLayout(NUM_SLOTS, hand_tiles(game.hands[game.current_player]), game.figure)
    for code in game.legal_codes():
        value = _JUDGE.move_value(game, *split_code(code))
        out[layout.encode_code(code)] = np.tanh(value / LOOKAHEAD_SCALE)
    return out


def policy_input(game: ContackGame, obs: np.ndarray, features: str) -> np.ndarray:
    """The policy's input at ``game`` (the seat to move), given that seat's ``contack_v0`` observation."""
    if features == "none":
        return obs
    check(features)
    return np.concatenate([obs, lookahead_values(game)])


AZ_FEATURES = ("none", "lookahead")
"""The extra inputs a search-guided network (``agents.az.encoding``) may take: ``lookahead`` appends two blocks
of one value per action (``judgement_blocks``); ``none`` appends nothing."""
AZ_BLOCKS = 2
"""The per-action blocks ``lookahead`` appends to a search-guided network's input."""


def check_az(features: str) -> None:
    if features not in AZ_FEATURES:
        raise ValueError(f"features must be one of {', '.join(AZ_FEATURES)}; got {features!r}")


def judgement_blocks(state: GameState, codes: Sequence[int], actions: Sequence[int], num_actions: int,
                     values: Sequence[float] | None = None) -> np.ndarray:
    """``lookahead``'s judgement of each legal move of ``state`` as ``2 * num_actions`` values: first, at each legal
    move's action ``actions[i]`` (``codes[i]``'s), ``tanh(v / 50)`` of the bot's value ``v``
    (``LookaheadAgent.value``); then 1 at the action of the move the bot plays (``first_best``: its highest value,
    ties to the first in ``codes``). Illegal actions read 0 in both blocks. In Contack ``v`` is in points; a
    solitaire's values (hundreds for every tile kept placeable) saturate the first block, and the second carries
    the bot's choice. ``values``: the bot's values of ``codes`` when the caller has them already.

    Like the observation, it reads only what the player sees: the bot never looks at the face-down order."""
    out = np.zeros(AZ_BLOCKS * num_actions, dtype=np.float32)
    if not codes:
        return out
    if values is None:
        values = _JUDGE.values(state, codes)
    for value, action in zip(values, actions, strict=True):
        out[action] = math.tanh(value / LOOKAHEAD_SCALE)
    out[num_actions + actions[first_best(values)]] = 1.0
    return out
