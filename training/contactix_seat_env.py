"""One colour of a CON-TAC-TIX game as a Gymnasium environment, for MaskablePPO (``contack train --game contactix``).

``ContactixSeatEnv(board_size, pool)``: each episode is one game of ``contactix_v0.raw_env`` on an ``N x N`` board
(without the swap rule, like the 1942 rules). The learner plays Black or White, drawn each episode from the
environment's seeded ``np_random``; the other colour is an opponent drawn from an ``OpponentPool`` made with
``game="contactix"`` (``random``, ``two_distance``, ``mcts[:N]`` and ``self``, the learner's snapshots:
``training.opponents``). ``step`` puts the learner's peg, then lets the opponent move, so every observation is a
decision of the learner's. It subclasses ``gymnasium.Env`` directly, so gymnasium's and Stable-Baselines3's
``check_env`` and sb3-contrib's ``ActionMasker`` accept it.

- Observation: ``contactix_v0.flat_observation``, ``contactix_v0``'s planes from the learner's point of
  view (its pegs, the opponent's, the empty holes, 1s if it is White), ``(N, N, 4)`` flattened: float32
  ``[N * N * 4]``, values 0 or 1.
- Action: ``Discrete(N * N)``, action ``r * N + c`` puts a peg into hole ``(r, c)``; ``action_masks()`` marks the
  empty holes (what ``MaskablePPO`` asks a vectorized environment for).
- Reward (``reward="win"``, the only one: the game has no score): +1 when the learner completes its chain,
  -1 when the opponent does, on the step that ends the game; 0 on every other step. There is no truncation:
  a game fills at most ``N * N`` holes.

An illegal action raises ``ValueError`` (``illegal_action="raise"``, the default: a masked learner never sends
one) or, with ``illegal_action="lose"``, ends the episode with reward -1 and ``info["illegal_action"] = True``, as
``contactix_v0`` does (what the environment checkers need, as they step with unmasked samples). An action that
is no int (``2.7``, ``True``) always raises ``ValueError``.

``info`` carries ``"colour"`` (``"black"`` or ``"white"``) and ``"opponent"`` (its name in the pool); at the end
also ``"winner"`` (a colour) and ``"won"`` (1 or 0).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from contack_env import contactix_v0
from contack_env.contactix.rules import COLOUR_NAMES, ContactixState, check_size
from contack_env.envs.contactix_v0 import flat_observation
from contack_env.envs.conventions import ILLEGAL_REWARD, action_index, check_illegal_action

from .opponents import Opponent, OpponentPool
from agents.policy_file import PolicyNet

REWARD_MODES = ("win",)
NUM_PLANES = contactix_v0.NUM_PLANES


class ContactixSeatEnv(gymnasium.Env):
    """A CON-TAC-TIX game seen by one colour; the other is played by an opponent from ``pool``."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        board_size: int,
        pool: OpponentPool,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        n = check_size(board_size)
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)} (the game has no score); got {reward!r}")
        if pool.game != ContactixState.game:
            raise ValueError(f"the opponent pool holds {pool.game} bots; make it with OpponentPool(..., game='contactix')")
        self.board_size = n
        self.pool = pool
        self.reward_mode = reward
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action(illegal_action)
        self.game_env = contactix_v0.raw_env(board_size=n, render_mode=render_mode)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(n * n * NUM_PLANES,), dtype=np.float32)
        self.action_space = spaces.Discrete(n * n)
        self.colour = 0
        self.opponent: tuple[str, Opponent] | None = None
        self._illegal = False

    # -- gymnasium API ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        self.colour = int(rng.integers(2))
        self.opponent = self.pool.draw(rng, 1)[0]
        self.game_env.reset()
        self._illegal = False
        # Black moves first: a learner playing White sees the board after the opponent's first peg. No game
        # ends within one move (a chain needs at least 3 pegs), so the episode starts at a decision.
        self._play_opponent()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        game = self.game_env.game
        if game.done or self._illegal:
            raise RuntimeError("step() after the game ended: call reset()")
        a = action_index(action, self.action_space.n)  # an int, else ValueError (True and 2.7 are no actions)
        if self.illegal_action == "lose" and not (0 <= a < self.action_space.n and self.action_masks()[a]):
            self._illegal = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), ILLEGAL_REWARD, True, False, info
        self.game_env.step(a)
        self._play_opponent()
        done = game.done
        reward = (1.0 if game.winner == self.colour else -1.0) if done else 0.0
        return self._obs(), reward, done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool, ``Discrete(N * N)``); all False once the game is over."""
        if self.game_env.game.done or self._illegal:
            return np.zeros(self.action_space.n, dtype=bool)
        return self.game_env.action_mask().astype(bool)

    def add_snapshot(self, net: PolicyNet) -> None:
        """Add a frozen copy of the learner to this environment's pool (``VecEnv.env_method`` calls it)."""
        self.pool.add_snapshot(net)

    def reseed_opponents(self, salt: int) -> None:
        """Fresh generators for the pool's bots (``OpponentPool.reseed``; ``VecEnv.env_method`` calls it)."""
        self.pool.reseed(salt)

    def render(self) -> str | np.ndarray | None:
        return self.game_env.render()

    # -- internals ---------------------------------------------------------------------------------------------
    def _play_opponent(self) -> None:
        env = self.game_env
        game = env.game
        _, opponent = self.opponent
        while not game.done and game.current_player != self.colour:
            env.step(opponent.choose(env, self.np_random))

    def _obs(self) -> np.ndarray:
        # From the learner's point of view even after the end (the final position, which no update bootstraps from).
        return flat_observation(self.game_env.game, self.colour)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"colour": COLOUR_NAMES[self.colour], "opponent": self.opponent[0]}
        game = self.game_env.game
        if game.done:
            info["winner"] = COLOUR_NAMES[game.winner]
            info["won"] = int(game.winner == self.colour)
        return info
