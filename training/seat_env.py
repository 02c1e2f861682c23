"""One seat of a Contack game as a Gymnasium environment, for single-agent learners such as MaskablePPO.

``ContackSeatEnv(num_players, pool)``: each episode is one whole game (``num_hands`` hands) of
``contack_v0.raw_env``; the learner takes a seat drawn at random and the other seats are opponents drawn from
an ``OpponentPool`` (bots and snapshots of the learner). ``step`` plays the learner's action, then the
opponents' until the learner must choose again or the game ends, so every observation is a decision of the
learner's. Decisions with a single legal move are played for everyone (``auto_single_moves``); a game in
which the learner never has a choice (rare) is skipped at reset.

Observation: ``contack_v0``'s 787-float vector from the learner's seat, followed by the per-action values of
``features`` (``agents.features``: none by default, or ``"lookahead"``); action: ``Discrete(105)`` with
``action_masks()`` (what sb3-contrib's ``MaskablePPO`` asks a vectorized env for). It subclasses
``gymnasium.Env`` directly, so gymnasium 1.x's checks and sb3-contrib's ``ActionMasker`` both accept it.

Rewards (``reward``):

- ``"win"``: at the end only, as ``contack_v0``: with ``k`` winners among ``n``, a winner gets
  ``(n/k - 1)/(n - 1)``, everyone else ``-1/(n - 1)``.
- ``"margin"``: after every step, the change in the learner's score minus the mean score of the others,
  / 100 (points it scores count for it, points the others score count against it, penalties likewise); plus
  the ``"win"`` reward at the end. Dense, so it learns fast, and still zero-sum and aimed at winning.
- ``"score"``: the change in the learner's own score / 100 (``contack_v0``'s ``reward="score"``).

An illegal action raises ``ValueError`` (``illegal_action="raise"``, the default: a masked learner never
sends one, so one is a bug to see) or, with ``illegal_action="lose"``, ends the episode at once with reward
-1 and ``info["illegal_action"] = True``, as ``contack_v0`` does (what gymnasium's ``check_env`` needs, as it
steps with unmasked samples). An action that is no int (``2.7``, ``True``) always raises ``ValueError``.

``info`` carries ``"seat"``, ``"opponents"`` (names) and, at the end, ``"final_scores"`` and ``"won"``
(the learner's share of the win: 1, 1/k or 0).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from contack_env import contack_v0
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS
from contack_env.envs.contack_v0 import SCORE_REWARD_SCALE
from contack_env.envs.conventions import ILLEGAL_REWARD, action_index, check_illegal_action
from contack_env.envs.observation import NUM_ACTIONS, OBS_HIGH, OBS_LOW, OBS_SIZE

from agents.features import input_size, policy_input
from .opponents import Opponent, OpponentPool
from agents.policy_file import PolicyNet

REWARD_MODES = ("win", "margin", "score")
_SEED_BOUND = 2**63


class ContackSeatEnv(gymnasium.Env):
    """A Contack game seen from one seat; the others are played by opponents from ``pool``."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        num_players: int,
        pool: OpponentPool,
        reward: str = "margin",
        num_hands: int = DEFAULT_NUM_HANDS,
        enclosed_end: str = DEFAULT_ENCLOSED_END,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        features: str = "none",
    ) -> None:
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}; got {reward!r}")
        self.illegal_action = check_illegal_action(illegal_action)
        self.features = features
        size = input_size(features)  # checks the name
        self._illegal = False
        self.game_env = contack_v0.raw_env(
            num_players=num_players, num_hands=num_hands, enclosed_end=enclosed_end,
            auto_single_moves=True, render_mode=render_mode,
        )
        self.num_players = int(num_players)
        self.pool = pool
        self.reward_mode = reward
        self.render_mode = render_mode
        extra = size - OBS_SIZE  # features in [-1, 1] appended to the observation (agents.features)
        low = np.concatenate([OBS_LOW, -np.ones(extra, dtype=np.float32)])
        high = np.concatenate([OBS_HIGH, np.ones(extra, dtype=np.float32)])
        self.observation_space = spaces.Box(low, high, shape=(size,), dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = 0
        self.opponents: list[tuple[str, Opponent] | None] = []
        self._value = 0.0

    # -- gymnasium API ----------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.num_players
        while True:
            self.seat = int(rng.integers(n))
            drawn = iter(self.pool.draw(rng, n - 1))
            self.opponents = [None if s == self.seat else next(drawn) for s in range(n)]
            self.game_env.reset(seed=int(rng.integers(_SEED_BOUND)))
            self._illegal = False
            self._value = self._position_value()
            self._play_opponents()
            # A game can end without the learner ever having a choice (every move of its forced or single):
            # there is nothing to learn from it, and an episode must start at a decision. Deal again.
            if not self.game_env.game.done:
                return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        env = self.game_env
        if env.game.done or self._illegal:
            raise RuntimeError("step() after the game ended: call reset()")
        a = action_index(action, self.action_space.n)  # an int, else ValueError (True and 2.7 are no actions)
        if self.illegal_action == "lose" and not (0 <= a < self.action_space.n and self.action_masks()[a]):
            self._illegal = True
            info = self._info()
            info["illegal_action"] = True
            return np.zeros(self.observation_space.shape, dtype=np.float32), ILLEGAL_REWARD, True, False, info
        env.step(a)
        self._play_opponents()
        value = self._position_value()
        reward = value - self._value
        self._value = value
        done = env.game.done
        if done:
            reward += self._win_reward()
        return self._obs(), float(reward), done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (bool, ``Discrete(105)``); all False once the game is over."""
        if self.game_env.game.done or self._illegal:
            return np.zeros(NUM_ACTIONS, dtype=bool)
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
    def _play_opponents(self) -> None:
        env = self.game_env
        game = env.game
        rng = self.np_random
        while not game.done and game.current_player != self.seat:
            _, opponent = self.opponents[game.current_player]
            env.step(opponent.choose(env, rng))

    def _obs(self) -> np.ndarray:
        env = self.game_env
        if env.game.done:
            return np.zeros(self.observation_space.shape, dtype=np.float32)
        return policy_input(env.game, env.observe(env.agent_selection)["observation"], self.features)

    def _position_value(self) -> float:
        scores = self.game_env.game.scores
        own = scores[self.seat]
        if self.reward_mode == "score":
            return own / SCORE_REWARD_SCALE
        if self.reward_mode == "margin":
            others = (sum(scores) - own) / (self.num_players - 1)
            return (own - others) / SCORE_REWARD_SCALE
        return 0.0

    def _win_share(self) -> float:
        winners = self.game_env.game.winners
        return 1.0 / len(winners) if self.seat in winners else 0.0

    def _win_reward(self) -> float:
        if self.reward_mode == "score":
            return 0.0
        n = self.num_players
        winners = self.game_env.game.winners
        if self.seat in winners:
            return (n / len(winners) - 1) / (n - 1)
        return -1 / (n - 1)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "opponents": [o[0] for o in self.opponents if o is not None]}
        game = self.game_env.game
        if game.done:
            info["final_scores"] = list(game.scores)
            info["won"] = self._win_share()
        return info
