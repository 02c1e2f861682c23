"""``ppo:PATH``: a policy trained with ``contack train``, playing from a ``contack-policy/1`` weight file.

The agent sees what every agent sees (``agents.view.public_view``) and builds from it exactly the input and
action mask the training environment gave (``contack_v0``'s vector, plus the per-action values of
``agents.features`` if the policy was trained with them, for Contack; the solitaire environments'
observation for the solitaires), then takes the policy's most likely legal action (``deterministic=True``,
the default: evaluation and play) or samples one.

A CON-TAC-TIX policy (``contack train --game contactix``) reads ``contactix_v0``'s observation planes the same
way (``contack_env.envs.contactix_v0.ContactixObserver``). It is bound to the board size and swap rule it was
trained with (the game's ``bound_options``, which the file records): ``check_options`` refuses others up front,
and the observer refuses a state of another board.

The file holds weights only and is read with ``numpy.load(allow_pickle=False)``: loading it cannot run code
(``agents.policy_file``). A missing file, a file of another kind, a policy for another game or another board
size fails with a ``PolicyFileError`` (a ``ValueError``) that says so.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from contack_env.games import RuleOptions, get_game
from contack_env.protocol import State
from .features import extra_size, policy_input
from .policy_file import PolicyFileError, PolicyNet, check_bound_options, game_of, trained_options

from .base import Agent


class PPOAgent(Agent[State, Any]):
    """Plays a trained policy file; ``game`` (if given) must be the game the file was trained for."""

    name = "ppo"

    def __init__(
        self, path: str, game: str | None = None, deterministic: bool = True, seed: int | np.random.Generator | None = None
    ) -> None:
        if not isinstance(deterministic, (bool, np.bool_)):  # "no" is true to Python
            raise ValueError(f"deterministic is True (the most likely action) or False (sampled); got {deterministic!r}")
        self.path = path
        self.net = PolicyNet.load(path, game=game)
        self.game = game_of(self.net.meta)
        spec = get_game(self.game)
        if not spec.observer:
            raise PolicyFileError(f"{path} is a policy for {self.game!r}, a game without a state observer")
        self.options = trained_options(self.net.meta, path)
        """The rule options it was trained under (those of the game's ``bound_options`` matter)."""
        self.observer = spec.make_observer(self.options)
        self.features = self.net.meta.get("features", "none")
        expected = self.observer.obs_size + extra_size(self.features)
        if self.net.obs_size != expected:
            raise PolicyFileError(
                f"{path}: its input has {self.net.obs_size} values, {spec.title}'s with features={self.features!r} "
                f"{expected}"
            )
        if self.net.num_actions != self.observer.num_actions:
            raise PolicyFileError(f"{path}: it has {self.net.num_actions} actions, {spec.title}'s environment "
                                  f"{self.observer.num_actions}")
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def check_options(self, options: RuleOptions) -> None:
        """``PolicyFileError`` unless this policy can play its game under ``options`` (its board size, ...)."""
        check_bound_options(self.path, self.options, options, self.game)

    def act(self, state: State, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if state.game != self.game:
            raise PolicyFileError(f"{self.path} is a policy for {self.game!r}; it cannot play {state.game!r}")
        try:
            obs, mask, layout = self.observer.observe_state(state)
        except ValueError as err:  # a state of rule options other than the policy's (a board of another size)
            raise PolicyFileError(f"{self.path}: {err}") from None
        move = layout.decode(self.net.act(policy_input(state, obs, self.features), mask, self.deterministic, self.rng))
        if move is None:  # cannot happen with a mask built from the legal moves; guards a wrong file
            raise RuntimeError(f"{self.path}: the policy chose an empty action")
        return move
