"""``ppo:PATH``: a policy trained with ``contack train``, playing from a ``contack-policy/1`` weight file.

The agent sees what every agent sees (``agents.view.public_view``) and builds from it exactly the input and
action mask the training environment gave (``contack_v0``'s vector, plus the per-action values of
``agents.features`` if the policy was trained with them, for Contack; the solitaire environments'
observation for the solitaires), then takes the policy's most likely legal action (``deterministic=True``,
the default: evaluation and play) or samples one.

CON-TAC-TIX (``make_agent("ppo:PATH", game="contactix")``): ``ContactixPPOAgent`` plays a policy trained with
``contack train --game contactix``. Its input is ``agents.features.contactix_input`` of the state it is given
(the planes the training environment showed), its mask the legal moves, and it plays only on the board size it
was trained on (``meta["board_size"]``) and without the swap rule, which it never learned.

The file holds weights only and is read with ``numpy.load(allow_pickle=False)``: loading it cannot run code
(``agents.policy_file``). A missing file, a file of another kind, a policy for another game or another board
size fails with a ``PolicyFileError`` (a ``ValueError``) that says so.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env.checks import is_whole_number
from contack_env.contactix.rules import ContactixState
from contack_env.contack.figure import Move
from contack_env.games import get_game
from contack_env.protocol import State
from .features import contactix_input, extra_size, policy_input
from .policy_file import PolicyFileError, PolicyNet, game_of

from .base import Agent


class PPOAgent(Agent[State, Move]):
    """Plays a trained policy file; ``game`` (if given) must be the game the file was trained for."""

    name = "ppo"

    def __init__(
        self, path: str, game: str | None = None, deterministic: bool = True, seed: int | np.random.Generator | None = None
    ) -> None:
        self.path = path
        self.net = PolicyNet.load(path, game=game)
        self.game = game_of(self.net.meta)
        spec = get_game(self.game)
        if not spec.observer:
            raise PolicyFileError(f"{path} is a policy for {self.game!r}; ppo agents of this kind play the games "
                                  "with a state observer (Contack and the solitaires)")
        self.observer = spec.make_observer()
        self.features = self.net.meta.get("features", "none")
        expected = self.observer.obs_size + extra_size(self.features)
        if self.net.obs_size != expected:
            raise PolicyFileError(
                f"{path}: its input has {self.net.obs_size} values, {spec.title}'s with features={self.features!r} "
                f"{expected}"
            )
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if state.game != self.game:
            raise PolicyFileError(f"{self.path} is a policy for {self.game!r}; it cannot play {state.game!r}")
        obs, mask, layout = self.observer.observe_state(state)
        move = layout.decode(self.net.act(policy_input(state, obs, self.features), mask, self.deterministic, self.rng))
        if move is None:  # cannot happen with a mask built from the legal moves; guards a wrong file
            raise RuntimeError(f"{self.path}: the policy chose an empty action")
        return move


class ContactixPPOAgent(Agent[ContactixState, int]):
    """``ppo:PATH`` for CON-TAC-TIX: a policy file written by ``contack train --game contactix``.

    ``act(state, legal)`` takes a ``ContactixState`` and its legal moves (ints) like the other CON-TAC-TIX bots
    and returns the policy's most likely legal move (``deterministic=True``) or a sample.
    """

    name = "ppo"

    def __init__(
        self,
        path: str,
        deterministic: bool = True,
        seed: int | np.random.Generator | np.random.SeedSequence | None = None,
    ) -> None:
        self.path = path
        self.net = PolicyNet.load(path, game="contactix")
        size = self.net.meta.get("board_size")
        if not is_whole_number(size):
            raise PolicyFileError(f"{path}: a contactix policy file must record its board_size; it has {size!r}")
        if self.net.obs_size != size * size * 4 or self.net.num_actions != size * size:
            raise PolicyFileError(
                f"{path}: a {size}x{size} policy takes {size * size * 4} inputs and has {size * size} actions; "
                f"its weights have {self.net.obs_size} and {self.net.num_actions}"
            )
        self.board_size = size
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def check_board(self, board_size: int, swap: bool = False) -> None:
        """Raise ``PolicyFileError`` unless this policy can play on ``board_size`` with the ``swap`` option."""
        if board_size != self.board_size:
            n = self.board_size
            raise PolicyFileError(
                f"{self.path} was trained on the {n}x{n} board; it cannot play {board_size}x{board_size} "
                f"(use --board-size {n}, or train a policy for that size)"
            )
        if swap:
            raise PolicyFileError(
                f"{self.path} was trained without the swap rule; it cannot play with it (drop --swap)"
            )

    def act(self, state: ContactixState, legal: Sequence[int]) -> int:
        if state.game != ContactixState.game:
            raise PolicyFileError(f"{self.path} is a CON-TAC-TIX policy; it cannot play {type(state).__name__}")
        self.check_board(state.size, state.swap_rule)
        if len(legal) == 1:
            return legal[0]
        mask = np.zeros(self.net.num_actions, dtype=bool)
        mask[list(legal)] = True
        return int(self.net.act(contactix_input(state), mask, self.deterministic, self.rng))
