"""What the search-guided network sees at a state, and where each legal move sits among its outputs.

The network reads exactly what a player sees: Contack's ``contack_v0`` observation from the seat to move (787
values; every hand is face up, the pile's order is never in it), a solitaire's ``solitaire_v0`` observation,
CON-TAC-TIX's ``contactix_v0`` planes (``N * N * 4`` values). The legal moves map to the environments' action
indices, so the policy has one logit per action (105 for Contack, 21 and 147 for the solitaires, ``N * N`` for
CON-TAC-TIX) and a move's logit is the one at its action.

With ``features="lookahead"`` (``agents.features.judgement_blocks``) the input goes on with two values per action:
the ``lookahead`` bot's judgement of each legal move and its choice, so that the network starts from the bot's
judgement and learns how far to trust it. The network file says which (``meta["features"]``).

Values are per seat, relative to the seat to move: output ``r`` is the value of seat ``(mover + r) % n``. Contack
has up to 7 seats (a smaller table reads the first ``n``), CON-TAC-TIX two, a solitaire one.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.features import AZ_BLOCKS, check_az, judgement_blocks
from contack_env.games import GAMES as ALL_GAMES
from contack_env.games import RuleOptions, get_game
from contack_env.protocol import State


def search_games() -> tuple[str, ...]:
    """The games the search-guided learner plays: those whose registry entry names a state observer (asked
    now, so that a game registered after this import counts)."""
    return tuple(name for name, spec in ALL_GAMES.items() if spec.observer)


def game_of(state: State) -> str:
    """The game a state belongs to (one of ``search_games()``); ``TypeError`` for any other state."""
    game = getattr(state, "game", None)
    games = search_games()
    if game not in games:
        raise TypeError(f"the search-guided agent plays {', '.join(games)}, not {type(state).__name__}")
    return game


class Encoder:
    """Inputs and action indices of one game (``game``: one of ``search_games()``), from its state observer under
    the rule options ``options`` (None: the defaults; CON-TAC-TIX's board size shapes its input), with the extra
    inputs ``features`` names (``agents.features.AZ_FEATURES``)."""

    def __init__(self, game: str, features: str = "none", options: RuleOptions | None = None) -> None:
        games = search_games()
        if game not in games:
            raise ValueError(f"game must be one of {', '.join(games)}; got {game!r}")
        check_az(features)
        self.game = game
        self.features = features
        spec = get_game(game)
        self._observer = spec.make_observer(options)
        # Contack's observation lays out a row per action (hand slot x candidate cell): the network can score
        # every action from its own row (``contack_env.envs.observation.action_feature_index``); a solitaire's
        # cannot.
        self.factored = bool(self._observer.factored)
        self.observation_size = int(self._observer.obs_size)
        self.num_actions = int(self._observer.num_actions)
        self.blocks = AZ_BLOCKS if features == "lookahead" else 0
        self.obs_size = self.observation_size + self.blocks * self.num_actions
        self.seats = spec.max_players

    def encode(self, state: State, judgement: Sequence[float] | None = None) -> tuple[np.ndarray, list[int]]:
        """The input at ``state`` (a decision) and the action index of each of ``state.legal_codes()``.
        ``judgement``: the ``lookahead`` bot's values of those codes, when the caller has them already (they are
        computed here otherwise, and unused without features)."""
        obs, _, layout = self._observer.observe_state(state)
        codes = state.legal_codes()
        actions = [layout.encode_code(code) for code in codes]
        if self.blocks:
            blocks = judgement_blocks(state, codes, actions, self.num_actions, judgement)  # type: ignore[arg-type]
            obs = np.concatenate([obs, blocks])
        return obs, actions

    def extra_index(self) -> np.ndarray:
        """``(num_actions, blocks)`` input indices: row ``a`` holds action ``a``'s extra inputs (for a factored
        network's per-action rows); ``blocks`` is 0 without features."""
        start = self.observation_size
        return np.array([[start + b * self.num_actions + a for b in range(self.blocks)]
                         for a in range(self.num_actions)], dtype=np.int64).reshape(self.num_actions, self.blocks)


def relative_to_absolute(values: Sequence[float], mover: int, players: int) -> list[float]:
    """Per-seat values in table order from values relative to the seat to move (output ``r`` = seat ``mover + r``)."""
    return [float(values[(seat - mover) % players]) for seat in range(players)]
