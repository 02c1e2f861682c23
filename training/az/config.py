"""The settings of a search-guided training run (``contack train --algorithm az``): one flat dataclass, read
from and written to TOML like ``training.config.TrainConfig`` (``[train]`` table, ``algorithm = "az"``)."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any

import tomli_w

from agents.az.encoding import search_games
from agents.az.expectimax import SEARCHES
from agents.az.horizon import HORIZONS, STAKES
from agents.evaluate import MAX_WORKERS
from agents.features import AZ_FEATURES
from agents.lookahead import GAMES as LOOKAHEAD_GAMES
from agents.playout import is_share
from agents.az.search import MAX_SIMS, MODES
from contack_env import ENCLOSED_END_OPTIONS
from contack_env.checks import is_whole_number
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, check_num_hands
from contack_env.atomic import write_text
from contack_env.contactix.rules import DEFAULT_SIZE
from contack_env.games import RuleOptions, get_game
from contack_env.seeds import MAX_SEED, largest_first_seed
from contack_env.wording import plural

from ..config import MAX_TORCH_THREADS, check_eval_opponents, check_types, read_settings
from ..evaluations import EVAL_SEED_OFFSET
from .pretrain import check_teacher

SOLITAIRE_DEFAULTS: dict[str, Any] = {"players": 1, "eval_opponents": ["greedy", "mcts:200"], "features": "none",
                                      "horizon": "game", "rollout": 0.5}
"""The settings a solitaire (a game of one player) takes when its configuration leaves them out: no lookahead
inputs (the bot wins 0.015 of Solitaire No. 2's deals, docs/baselines.md: its judgement is little to start from),
the game as the horizon (a solitaire is one hand), and half of each leaf's value from a playout (a new stack top
or drawn tile makes nearly every leaf a new node, so the playout is the search's one look further:
docs/training.md)."""


LATER_SETTINGS: dict[str, Any] = {"features": "none", "horizon": "game", "rollout": 0.0, "value_from_search": 0.0,
                                  "value_playouts": 0, "pretrain_games": 0, "play_stakes": "margin",
                                  "leaf_moves": 0, "pretrain_teacher": "lookahead", "play_search": "tree"}
"""Settings added after the first runs, with the value that repeats a run whose configuration predates them (a
run folder's ``config.toml`` without them resumes as it began)."""


OTHER_GAME_DEFAULTS: dict[str, Any] = {"features": "none", "rollout": 0.0, "horizon": "game",
                                       "eval_opponents": ["random", "mcts:200"]}
"""The settings any other game of the registry (one the ``lookahead`` bot does not play) takes when its
configuration leaves them out: no lookahead inputs, no greedy playouts (both read Contack's figure), the game's
end as the horizon (hands are Contack's), and the bots every game has as the evaluations' opponents."""

CONTACK_ONLY = ("features", "rollout", "play_rollout", "leaf_moves", "play_leaf_moves", "value_playouts",
                "pretrain_games")
"""Settings whose aids exist only for the games the ``lookahead`` bot plays: its judgement as inputs, its games
for pretraining, and the greedy playout (and greedy leaf moves) that scores tiles on a figure."""

CHANGEABLE_ON_RESUME = ("iterations", "ray")
"""The settings a resumed run may take from an edited config.toml: how long it runs, and whether its self-play
runs on Ray (which gives the same games as local workers); every other one stays the run's
(``training.run_folder.check_settings_kept``)."""


_DEFAULT_VALUES: dict[str, Any] = {}
"""Each field's default, for the type checks (``training.config.check_types``): the settings whose default
follows another's (None in the class) take that one's type. Filled below the class."""


def game_defaults(game: Any) -> dict[str, Any]:
    """The defaults that replace the field defaults (the heads-up Contack run's) for ``game``."""
    try:
        solitaire = get_game(game).report == "solitaire"
    except ValueError:
        return {}  # AZConfig.check names the games
    defaults = copy.deepcopy(SOLITAIRE_DEFAULTS) if solitaire else {}
    if game not in LOOKAHEAD_GAMES:
        defaults.update(copy.deepcopy(OTHER_GAME_DEFAULTS))
    return defaults


@dataclass
class AZConfig:
    """What ``contack train --algorithm az`` does (``docs/training.md``). The shipped models' commands and
    configurations are in ``models/README.md``."""

    algorithm: str = "az"
    """az (this configuration; ppo is training.config)."""
    game: str = "contack"
    """contack, solitaire1, solitaire2 or contactix (any game of the registry with a state observer)."""
    players: int = 2
    """Seats at the table (Contack, 2..7; a solitaire 1)."""
    hands: int = DEFAULT_NUM_HANDS
    """Hands per game."""
    enclosed_end: str = DEFAULT_ENCLOSED_END
    """1939, next_player or never (docs/rules.md)."""
    board_size: int = DEFAULT_SIZE
    """CON-TAC-TIX: the board is N x N holes (the network plays only the size it was trained on)."""
    swap: bool = False
    """CON-TAC-TIX: the swap rule (the network plays only with the rule it was trained with)."""
    iterations: int = 80
    """Rounds of self-play and training."""
    games_per_iteration: int = 32
    """Self-play games per round."""
    sims: int = 16
    """Simulations per self-play decision."""
    play_sims: int = 40
    """The simulations the policy file's agent uses by default (az:PATH) and the evaluations use."""
    mode: str = "gumbel"
    """gumbel (sequential halving at the root, improved-policy targets) or visits (PUCT, visit-count targets)."""
    max_considered: int = 8
    """gumbel: the root moves sampled for sequential halving."""
    horizon: str = "hand"
    """What the values are: game (each seat's result at the end of the game) or hand (its result over the rest of the current hand, as mcts plays for; the search stops at the hand's end)."""
    play_search: str = "tree"
    """The search the policy file's agent (az:PATH) and the evaluations play with: tree (self-play's, in mode) or expectimax (every move to a depth, the draws sampled, network values at the leaves: agents/az/expectimax.py; play_sims is then its network evaluations a decision); self-play searches with the tree."""
    play_stakes: str = "margin"
    """What the policy file's search plays for with the hand horizon (agents/az/horizon.py): margin (the hand's margin) or win (the game: the hand's margin added to the lead, as a chance of winning); the evaluations play with it, self-play does not."""
    workers: int = 2
    """Self-play processes (1: in this process); with ray, Ray tasks a round; part of the recipe: a round's random streams are split among them."""
    ray: bool = False
    """Self-play on a Ray cluster: RAY_ADDRESS's, else a local one (the [rllib] extra); the same results as worker processes (the evaluations stay in local ones)."""
    parallel_games: int = 16
    """Games each worker plays side by side, their network evaluations batched; part of the recipe: the games share their worker's random stream."""
    rollout: float = 0.0
    """The share of a leaf's value that one greedy playout to the horizon gives, the network's the rest (0: the network alone; AlphaGo's lambda; a solitaire's default 0.5)."""
    play_rollout: float | None = None
    """The rollout share the policy file's search (az:PATH) and the evaluations play with; self-play searches with rollout (default: rollout's value)."""
    leaf_moves: int = 0
    """Greedy moves self-play's search plays on from a new leaf before the network values it (0: the leaf itself; needs rollout below 1)."""
    play_leaf_moves: int | None = None
    """The leaf moves the policy file's search (az:PATH) and the evaluations play with; self-play searches with leaf_moves (default: leaf_moves's value)."""
    value_from_search: float = 0.0
    """The share of each value target that is the search's value of the move played, the result reached the rest (0: the result alone)."""
    value_playouts: int = 0
    """Greedy playouts to the horizon from each self-play decision; their mean result replaces the result the game reached in the value target (0: the game's result)."""
    pretrain_games: int = 0
    """Games of the pretrain_teacher bot (every seat) whose decisions train the network before self-play begins: the results as value targets, the bot's view of the moves as policy targets (training/az/pretrain.py; Contack only; 0: none)."""
    pretrain_epochs: int = 4
    """Passes over the pretraining samples."""
    pretrain_learning_rate: float = 1e-3
    """The learning rate of the pretraining passes (learning_rate is self-play's)."""
    pretrain_temperature: float = 10.0
    """Points of the lookahead bot's judgement that make a move e times likelier in its pretraining policy targets
    (an mcts teacher teaches its visit shares)."""
    pretrain_explore: float = 0.15
    """The share of the pretraining games' decisions played at random instead of by the bot."""
    pretrain_teacher: str = "lookahead"
    """The bot whose games pretrain the network: lookahead (its softened judgement as policy targets) or mcts:N (its root visit shares; slower, stronger)."""
    features: str = "lookahead"
    """Extra network inputs: none, or lookahead (the lookahead bot's judgement of every legal move and its choice)."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Trunk layer widths."""
    activation: str = "relu"
    """relu or tanh."""
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch_size: int = 256
    sample_reuse: float = 4.0
    """How many times, on average, each new sample is drawn into a training batch."""
    buffer_size: int = 50_000
    """The most recent samples trained on."""
    value_weight: float = 1.0
    """Weight of the value loss beside the policy loss."""
    seed: int = 0
    """Seeds the network, self-play and the evaluations."""
    eval_every: int = 10
    """Iterations between evaluations (0: none)."""
    eval_games: int = 40
    """Games (or deals) per opponent at each evaluation (Contack: rounded up to every seat rotation)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["lookahead", "mcts:200"])
    """Bots the agent is evaluated against (every other seat); in a solitaire, reference bots on the same deals."""
    checkpoint_every: int = 5
    """Iterations between checkpoints (written atomically; --resume continues from the last)."""
    torch_threads: int = 1
    """torch threads of the learner."""

    def __post_init__(self) -> None:
        if self.play_rollout is None:  # play as self-play searched (and as runs before the setting did)
            self.play_rollout = self.rollout
        if self.play_leaf_moves is None:
            self.play_leaf_moves = self.leaf_moves
        self.check()

    def check(self) -> None:
        """Raise ``ValueError`` naming the first bad field and what it allows."""
        if self.algorithm != "az":
            raise ValueError(f"algorithm: this configuration is az's; got {self.algorithm!r}")
        check_types(self, _DEFAULT_VALUES)
        games = search_games()
        if self.game not in games:
            raise ValueError(f"game must be one of {', '.join(games)} for --algorithm az; got {self.game!r}")
        try:
            get_game(self.game).check_players(self.players)
        except ValueError as err:
            raise ValueError(f"players: {err}") from None
        if self.enclosed_end not in ENCLOSED_END_OPTIONS:
            raise ValueError(f"enclosed_end must be one of {', '.join(ENCLOSED_END_OPTIONS)}; got {self.enclosed_end!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}; got {self.mode!r}")
        if not isinstance(self.ray, bool):
            raise ValueError(f"ray must be true or false; got {self.ray!r}")
        if self.horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}; got {self.horizon!r}")
        if self.play_stakes not in STAKES:
            raise ValueError(f"play_stakes must be one of {', '.join(STAKES)}; got {self.play_stakes!r}")
        if self.play_search not in SEARCHES:
            raise ValueError(f"play_search must be one of {', '.join(SEARCHES)}; got {self.play_search!r}")
        if self.features not in AZ_FEATURES:
            raise ValueError(f"features must be one of {', '.join(AZ_FEATURES)}; got {self.features!r}")
        if self.activation not in ("relu", "tanh"):
            raise ValueError(f"activation must be relu or tanh; got {self.activation!r}")
        for name in ("hands", "iterations", "games_per_iteration", "sims", "max_considered", "workers",
                     "parallel_games", "batch_size", "buffer_size", "checkpoint_every", "torch_threads", "eval_games",
                     "pretrain_epochs"):
            value = getattr(self, name)
            if not is_whole_number(value) or value < 1:
                raise ValueError(f"{name} must be a whole number, at least 1; got {value!r}")
        for name, most in (("workers", MAX_WORKERS), ("torch_threads", MAX_TORCH_THREADS)):
            if getattr(self, name) > most:  # the evaluations' workers are processes on this machine even with ray
                raise ValueError(f"{name} must be a whole number 1..{most}; got {getattr(self, name)}")
        check_num_hands(self.hands, "hands: ")
        # each message names its option (board_size, swap; an option the game lacks: "not an option of game ...")
        get_game(self.game).check_options(self.rule_options())
        for name in ("play_sims", "value_playouts", "pretrain_games", "leaf_moves", "play_leaf_moves"):
            value = getattr(self, name)
            if not is_whole_number(value) or value < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more; got {value!r}")
        # the searches of self-play and of play take what an az:PATH:SIMS spec does (the file's default is play_sims)
        for name in ("sims", "play_sims"):
            if getattr(self, name) > MAX_SIMS:
                raise ValueError(f"{name} must be at most {MAX_SIMS:,} simulations a decision; got {getattr(self, name)}")
        if self.eval_every < 0:
            raise ValueError(f"eval_every must be 0 (no evaluation) or more; got {self.eval_every}")
        check_eval_opponents(self)
        for name in ("learning_rate", "sample_reuse", "value_weight", "pretrain_learning_rate", "pretrain_temperature"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0; got {getattr(self, name)}")
        if self.game not in LOOKAHEAD_GAMES:
            if self.horizon != "game":
                raise ValueError(f"horizon: the hand horizon is Contack's (a game of hands); {self.game} takes game; "
                                 f"got {self.horizon!r}")
            for name in CONTACK_ONLY:
                if getattr(self, name) not in (0, 0.0, "none", None):
                    raise ValueError(f"{name}: the lookahead inputs, its pretraining games and the greedy playouts "
                                     f"are made for {', '.join(LOOKAHEAD_GAMES)}; {self.game} takes "
                                     f"{'none' if name == 'features' else 0}; got {getattr(self, name)!r}")
        if self.pretrain_games and get_game(self.game).report == "solitaire":
            raise ValueError(f"pretrain_games: the pretraining games are a bot's at a Contack table; "
                             f"{self.game} takes 0")
        try:
            check_teacher(self.pretrain_teacher)
        except ValueError as err:
            raise ValueError(f"pretrain_teacher: {err}") from None
        for name in ("rollout", "play_rollout", "value_from_search", "pretrain_explore"):
            if not is_share(getattr(self, name)):
                raise ValueError(f"{name} must be a share from 0 to 1; got {getattr(self, name)!r}")
        if self.play_search == "expectimax" and self.play_leaf_moves:
            raise ValueError(f"play_leaf_moves: the expectimax search plays no leaf moves (they are the tree search's); "
                             f"with play_search expectimax it takes 0; got {self.play_leaf_moves}")
        for moves, rollout in (("leaf_moves", "rollout"), ("play_leaf_moves", "play_rollout")):
            if getattr(self, moves) and getattr(self, rollout) == 1.0:
                raise ValueError(f"{moves} needs {rollout} below 1: with {rollout} 1 every new leaf is played out "
                                 f"to the end already")
        if not is_whole_number(self.seed) or not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be a whole number 0..{MAX_SEED}; got {self.seed!r}")
        if self.seed > self.max_seed:
            raise ValueError(f"seed must be a whole number 0..{self.max_seed} with evaluations: they play "
                             f"{plural(self.eval_deals, 'deal')} from seed + {EVAL_SEED_OFFSET}, and every seed is at "
                             f"most {MAX_SEED}; got {self.seed} (or give eval_every 0)")
        if self.weight_decay < 0:
            raise ValueError(f"weight_decay must be 0 or more; got {self.weight_decay}")
        if not self.net_arch or any(w < 1 for w in self.net_arch):
            raise ValueError(f"net_arch is a list of layer widths >= 1; got {self.net_arch}")
        # numpy's integers pass the checks as whole numbers: kept as plain ints, which TOML, JSON and torch take
        for f in fields(self):
            value = getattr(self, f.name)
            if is_whole_number(value):
                setattr(self, f.name, int(value))
            elif isinstance(value, list):
                setattr(self, f.name, [int(v) if is_whole_number(v) else v for v in value])

    @property
    def eval_deals(self) -> int:
        """The deals of one evaluation: ``eval_games`` in a solitaire, else the games over every seat rotation."""
        if get_game(self.game).report == "solitaire":
            return self.eval_games
        return -(-self.eval_games // self.players)

    @property
    def max_seed(self) -> int:
        """The largest seed of this run: every seed it derives must be one the suite takes (``MAX_SEED``), and the
        evaluations play deal ``i`` from ``seed + EVAL_SEED_OFFSET + i``."""
        if not self.eval_every:
            return MAX_SEED
        return largest_first_seed(self.eval_deals) - EVAL_SEED_OFFSET

    def rule_options(self) -> RuleOptions:
        """The rule options of the games the run plays."""
        return RuleOptions(hands=self.hands, enclosed_end=self.enclosed_end, board_size=self.board_size, swap=self.swap)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def save(self, path: str) -> None:
        """Write the configuration as TOML, atomically."""
        text = "# contack train configuration: repeat this run with `contack train --config <this file> --out DIR`\n"
        text += tomli_w.dumps({"train": self.to_dict()})
        write_text(path, text)

    @classmethod
    def load(cls, path: str, written_by_a_run: bool = False, **overrides: Any) -> AZConfig:
        """Read a TOML configuration. ``written_by_a_run``: a run folder's own ``config.toml``, where a setting
        missing means a version that did not have it wrote the file (``LATER_SETTINGS`` gives what it did)."""
        values = read_settings(path)
        if written_by_a_run:
            values = {**LATER_SETTINGS, **values}
        try:
            return cls.from_dict({**values, **overrides}, source=path)
        except ValueError as err:
            if str(err).startswith(f"{path}: ") or not overrides:
                raise ValueError(str(err) if str(err).startswith(f"{path}: ") else f"{path}: {err}") from None
            try:
                cls.from_dict(values, source=path)
            except ValueError:
                raise ValueError(f"{path}: {err}") from None  # the file's own value is at fault
            raise  # an override is: its name says so, not the file's

    @classmethod
    def from_dict(cls, values: dict[str, Any], source: str = "the configuration") -> AZConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"{source}: unknown setting(s) for --algorithm az: {', '.join(unknown)}; settings are: "
                             f"{', '.join(sorted(known))}")
        defaults = game_defaults(values.get("game", "contack"))
        return cls(**{**defaults, **values})


_DEFAULT_VALUES.update({f.name: f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
                        for f in fields(AZConfig)})
_DEFAULT_VALUES.update(play_rollout=_DEFAULT_VALUES["rollout"], play_leaf_moves=_DEFAULT_VALUES["leaf_moves"])
