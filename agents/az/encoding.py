"""What the search-guided network sees at a state, and where each legal move sits among its outputs.

The network reads exactly what a player sees: Contack's ``contack_v0`` observation from the seat to move (787
values; every hand is face up, the pile's order is never in it), a solitaire's ``solitaire_v0`` observation. The
legal moves map to the environments' action indices, so the policy has one logit per action (105 for Contack,
21 and 147 for the solitaires) and a move's logit is the one at its action.

Values are per seat, relative to the seat to move: output ``r`` is the value of seat ``(mover + r) % n``. Contack
has up to 7 seats (a smaller table reads the first ``n``); a solitaire has one.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env import MAX_PLAYERS, GameState
from contack_env.envs.actions import ActionLayout
from contack_env.envs.observation import NUM_ACTIONS, NUM_SLOTS, OBS_SIZE, ObservationBuilder, hand_tiles

GAMES = ("contack", "solitaire1", "solitaire2")


def game_of(state: GameState) -> str:
    """The game a state belongs to (``GAMES``); ``TypeError`` for any other state."""
    game = getattr(state, "game", None)
    if game not in GAMES:
        raise TypeError(f"the search-guided agent plays Contack and the solitaires, not {type(state).__name__}")
    return game


class Encoder:
    """Inputs and action indices of one game (``game``: one of ``GAMES``)."""

    def __init__(self, game: str) -> None:
        if game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}; got {game!r}")
        self.game = game
        # Contack's observation lays out a row per action (hand slot x candidate cell): the network can score
        # every action from its own row (``training.networks.action_feature_index``); a solitaire's cannot.
        self.factored = game == "contack"
        if game == "contack":
            self.obs_size, self.num_actions, self.seats = OBS_SIZE, NUM_ACTIONS, MAX_PLAYERS
            self._env = None
            # One builder per table size, re-attached to each state: making one builds its gather indices,
            # which cost more than the observation itself.
            self._builders: dict[int, ObservationBuilder] = {}
        else:
            from contack_env.envs.solitaire_v0 import Solitaire1Env, Solitaire2Env

            self._env = (Solitaire1Env if game == "solitaire1" else Solitaire2Env)()
            self.obs_size = int(self._env.observation_space.shape[0])
            self.num_actions = int(self._env.action_space.n)
            self.seats = 1

    def encode(self, state: GameState) -> tuple[np.ndarray, list[int]]:
        """The input at ``state`` (a decision) and the action index of each of ``state.legal_codes()``."""
        codes = state.legal_codes()
        if self._env is None:
            seat = state.current_player
            layout = ActionLayout(NUM_SLOTS, hand_tiles(state.hands[seat]), state.figure)  # type: ignore[attr-defined]
            builder = self._builders.get(state.num_players)  # type: ignore[attr-defined]
            if builder is None:
                builder = self._builders[state.num_players] = ObservationBuilder(state)  # type: ignore[arg-type]
            else:
                builder.attach(state)  # type: ignore[arg-type]
            obs, _ = builder.observe(seat, layout.cells, codes)
        else:
            obs, _, layout = self._env.observe_state(state)
        return obs, [layout.encode_code(code) for code in codes]


def relative_to_absolute(values: Sequence[float], mover: int, players: int) -> list[float]:
    """Per-seat values in table order from values relative to the seat to move (output ``r`` = seat ``mover + r``)."""
    return [float(values[(seat - mover) % players]) for seat in range(players)]
