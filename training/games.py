"""What PPO training needs of each game, in one table: ``TRAINING_GAMES[name]`` (a ``TrainingGame``).

The rules side of a game (players, options, dealing) is ``contack_env.games``; this is the training side: the
environment the learner trains in, the rewards it offers, the defaults a configuration starts from, whether the
learner plays against an opponent pool with snapshots of itself, how it is evaluated while it trains, and what its
policy file records. ``training.config``, ``training.train`` and ``training.monitor`` read these facts from here
and never branch on a game's name; training a new game is one entry below (and its environment).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from contack_env.envs.solitaire_v0 import REWARDS as SOLITAIRE_REWARDS
from contack_env.games import get_game

from .contactix_seat_env import REWARD_MODES as CONTACTIX_REWARDS
from .seat_env import REWARD_MODES as CONTACK_REWARDS

if TYPE_CHECKING:
    from .config import TrainConfig


def _contack_env(cfg: TrainConfig, rank: int) -> Any:
    from .opponents import OpponentPool, parse_weights
    from .seat_env import ContackSeatEnv

    pool = OpponentPool(parse_weights(cfg.opponents), keep=cfg.keep_snapshots, seed=cfg.seed * 1000 + rank)
    return ContackSeatEnv(cfg.players, pool, reward=cfg.reward, num_hands=cfg.hands, enclosed_end=cfg.enclosed_end,
                          features=cfg.features)


def _contactix_env(cfg: TrainConfig, rank: int) -> Any:
    from .contactix_seat_env import ContactixSeatEnv
    from .opponents import OpponentPool, parse_weights

    pool = OpponentPool(parse_weights(cfg.opponents), keep=cfg.keep_snapshots, seed=cfg.seed * 1000 + rank,
                        game="contactix", fresh_bots=True, options=cfg.rule_options())
    return ContactixSeatEnv(cfg.board_size, pool)


def _solitaire_env(cfg: TrainConfig, rank: int) -> Any:
    # The Gymnasium environment the registry names for the game, with every single-move turn played for the
    # learner (it has no choice there).
    return get_game(cfg.game).environment()(reward=cfg.reward, auto_single_moves=True)


def _contack_title(cfg: TrainConfig) -> str:
    return f"contack, {cfg.players} players"


def _contactix_title(cfg: TrainConfig) -> str:
    return f"CON-TAC-TIX {cfg.board_size}x{cfg.board_size}"


def _solitaire_title(cfg: TrainConfig) -> str:
    return cfg.game


def _contack_meta(cfg: TrainConfig) -> dict[str, Any]:
    return {"features": cfg.features}


def _contactix_meta(cfg: TrainConfig) -> dict[str, Any]:
    # What ppo:PATH checks before it plays: the policy's input and actions are those of this board size, and it
    # never learned the swap rule (training plays without it).
    return {"features": "none", "board_size": cfg.board_size, "swap": False}


def _solitaire_meta(cfg: TrainConfig) -> dict[str, Any]:
    return {"features": "none"}


@dataclass(frozen=True)
class TrainingGame:
    """How ``contack train`` (PPO) trains one game (see the module docstring)."""

    name: str
    rewards: tuple[str, ...]
    """The values of ``reward``; ``reward_note`` says what they lack, if anything, for the error message."""
    environment: Callable[["TrainConfig", int], Any]
    """Environment ``rank`` of the vectorized set (module level, so SubprocVecEnv can pickle its factory)."""
    title: Callable[["TrainConfig"], str]
    """The game as the learning curve's title names it."""
    policy_meta: Callable[["TrainConfig"], dict[str, Any]]
    """What the policy file records beyond the game and players (its input features, a board size)."""
    defaults: dict[str, Any] = field(default_factory=dict)
    """Settings that replace the field defaults (Contack's) when a configuration leaves them out."""
    pool: str | None = None
    """The game whose bots fill the opponent pool (``training.opponents``), with snapshots of the learner;
    None: no opponents (a solitaire)."""
    factored: bool = False
    """The factored policy (``training.networks``) applies, and ``policy = "auto"`` picks it."""
    reward_note: str = ""
    unused: tuple[str, ...] = ()
    """Settings this game's training never reads (the lookahead inputs, the opponent pool): a value other than
    its default is refused, not written into config.toml for nothing."""

    @property
    def self_play(self) -> bool:
        """The learner plays against a pool that can hold its own snapshots."""
        return self.pool is not None


TRAINING_GAMES: dict[str, TrainingGame] = {
    spec.name: spec
    for spec in (
        TrainingGame("contack", CONTACK_REWARDS, _contack_env, _contack_title, _contack_meta,
                     pool="contack", factored=True),
        # A solitaire has one player, and placing more tiles is the signal that teaches it (a won deal is rare).
        TrainingGame("solitaire1", SOLITAIRE_REWARDS, _solitaire_env, _solitaire_title, _solitaire_meta,
                     defaults={"players": 1, "reward": "tiles", "features": "none"}, unused=("features", "opponents")),
        TrainingGame("solitaire2", SOLITAIRE_REWARDS, _solitaire_env, _solitaire_title, _solitaire_meta,
                     defaults={"players": 1, "reward": "tiles", "features": "none"}, unused=("features", "opponents")),
        TrainingGame("contactix", CONTACTIX_REWARDS, _contactix_env, _contactix_title,
                     _contactix_meta, pool="contactix", reward_note=" (+1/-1 at the end: the game has no score)",
                     defaults={"reward": "win", "opponents": "random,two_distance,self",
                               "eval_opponents": ["random", "two_distance"], "features": "none"},
                     unused=("features",)),
    )
}
"""Every game ``contack train`` trains, by name."""

TRAINING_GAME_NAMES = tuple(TRAINING_GAMES)
