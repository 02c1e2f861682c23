"""The settings of a training run: one flat dataclass, read from and written to TOML.

Every run writes its full configuration to ``<out>/config.toml``; ``contack train --config <out>/config.toml``
repeats it. The command line sets any field as ``--field-name VALUE`` (lists comma-separated), over the file's
value, over the default.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import tomllib
from dataclasses import dataclass, field, fields
from typing import Any

import tomli_w

from contack_env.atomic import write_text
from contack_env.checks import is_whole_number, whole_number_text
from contack_env.contactix.rules import MAX_SIZE, MIN_SIZE
from contack_env.contack.multiplayer import DEFAULT_ENCLOSED_END, DEFAULT_NUM_HANDS, ENCLOSED_END_OPTIONS, check_num_hands
from contack_env.games import RuleOptions, get_game
from agents.evaluate import MAX_WORKERS

from .games import TRAINING_GAME_NAMES, TRAINING_GAMES

ACTIVATIONS = ("tanh", "relu")
VEC_ENVS = ("dummy", "subproc")
POLICIES = ("auto", "factored", "mlp")
GAME_DEFAULTS: dict[str, dict[str, Any]] = {name: game.defaults for name, game in TRAINING_GAMES.items()}
"""Per game, the settings that replace the field defaults (Contack's) when a configuration leaves them out, so
that `contack train --game contactix` runs as it is (``training.games``)."""
CHANGEABLE_ON_RESUME = ("total_timesteps", "vec_env")
"""The settings a resumed run may take from an edited config.toml: how long it runs, and how its environments run
(which leaves the weights as they would have been); every other one stays the run's (``check_settings_kept``)."""


@dataclass
class TrainConfig:
    """What ``contack train`` does. The defaults train the shipped 2-player model (``models/README.md``)."""

    game: str = "contack"
    """contack, solitaire1, solitaire2 or contactix (CON-TAC-TIX: training.contactix_seat_env)."""
    players: int = 2
    """Seats at the table (Contack, 2..7; CON-TAC-TIX is heads-up, 2)."""
    hands: int = DEFAULT_NUM_HANDS
    """Hands per game."""
    enclosed_end: str = DEFAULT_ENCLOSED_END
    """When an enclosed figure ends a hand (docs/rules.md, section 5): 1939, next_player or never."""
    opponents: str = "greedy,lookahead,self"
    """Opponent pool: agent specs with optional weights ("greedy*2", "mcts:50*1"), "self" = snapshots of the learner."""
    snapshot_every: int = 100_000
    """Timesteps between snapshots of the learner added to the pool."""
    keep_snapshots: int = 5
    """Snapshots "self" draws from (the most recent)."""
    reward: str = "margin"
    """Contack: win, margin or score (training.seat_env); solitaires: win, tiles or points (solitaire_v0)."""
    total_timesteps: int = 1_500_000
    """Learner decisions to train for (rounded up to whole rollouts: a multiple of n_steps x n_envs)."""
    n_envs: int = 8
    """Environments stepped together (one batch of policy calls)."""
    vec_env: str = "dummy"
    """dummy (all envs in this process: fastest when a step is cheap) or subproc."""
    torch_threads: int = 1
    """torch threads per process (1 is much faster on small networks: see docs/training.md); part of the recipe: another count makes other weights."""
    features: str = "lookahead"
    """Per-action values appended to the observation (agents.features): lookahead (the lookahead bot's
    judgement of every placement) or none. Contack only."""
    policy: str = "auto"
    """factored (every action scored by one shared network: training.networks; Contack only), mlp, or auto
    (factored for Contack, mlp for the solitaires and CON-TAC-TIX)."""
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    """Hidden layers of the policy and of the value network (separate networks of this shape)."""
    activation: str = "tanh"
    """tanh or relu."""
    learning_rate: float = 3e-4
    n_steps: int = 512
    """Steps per environment between updates (rollout length)."""
    batch_size: int = 512
    """Samples per minibatch (PPO draws them from one rollout: at most n_steps x n_envs)."""
    n_epochs: int = 4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    seed: int = 0
    """Seeds the networks, the environments, the opponents and the evaluations."""
    eval_every: int = 100_000
    """Timesteps between evaluations against eval_opponents (0: none)."""
    eval_games: int = 100
    """Games per opponent at each evaluation (rounded up to a multiple of players: every seat rotation)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "greedy"])
    """Bots the learner is evaluated against (every other seat is that bot); in a solitaire, reference bots that
    play the same deals alone."""
    checkpoint_every: int = 50_000
    """Timesteps between checkpoints (written atomically; --resume continues from the last); part of the recipe: the random streams restart at each."""
    board_size: int = 5
    """CON-TAC-TIX only: the board is N x N holes, 3..19 (a policy plays the size it was trained on)."""

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raise ``ValueError`` naming the first bad field and what it allows: its type first (a whole number, a
        number, a string, a list of them, as the defaults are), then its range."""
        self._check_types()
        if self.game not in TRAINING_GAMES:
            raise ValueError(f"game must be one of {', '.join(TRAINING_GAME_NAMES)}; got {self.game!r}")
        try:
            get_game(self.game).check_players(self.players)
        except ValueError as err:
            hint = (f" ({self.game}'s default is {TRAINING_GAMES[self.game].defaults['players']}; in Python, "
                    f"TrainConfig.for_game({self.game!r}, ...) starts from the game's defaults)") if (
                TRAINING_GAMES[self.game].defaults.get("players")) else ""
            raise ValueError(f"players: {err}{hint}") from None
        self._check_unused()
        if not is_whole_number(self.board_size) or not MIN_SIZE <= self.board_size <= MAX_SIZE:
            raise ValueError(f"board_size: the CON-TAC-TIX board is N x N holes with N a whole number "
                             f"{MIN_SIZE}..{MAX_SIZE}; got {self.board_size!r}")
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}; got {self.activation!r}")
        if self.features not in ("none", "lookahead"):
            raise ValueError(f"features must be one of none, lookahead; got {self.features!r}")
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}; got {self.policy!r}")
        if self.policy == "factored" and not TRAINING_GAMES[self.game].factored:
            factored = ", ".join(name for name, game in TRAINING_GAMES.items() if game.factored)
            raise ValueError(f"policy 'factored' is for {factored}; use mlp (or auto) for {self.game}")
        if self.vec_env not in VEC_ENVS:
            raise ValueError(f"vec_env must be one of {', '.join(VEC_ENVS)}; got {self.vec_env!r}")
        for name in ("hands", "total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "torch_threads",
                     "snapshot_every", "keep_snapshots", "eval_games", "checkpoint_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1; got {getattr(self, name)}")
        most_envs = MAX_WORKERS if self.vec_env == "subproc" else MAX_ENVS
        if self.n_envs > most_envs:
            why = ("each is a process" if self.vec_env == "subproc"
                   else "they step one after another in this process, and each rollout plays n_steps in every one")
            raise ValueError(f"n_envs must be a whole number 1..{most_envs} with vec_env {self.vec_env!r} ({why}); "
                             f"got {self.n_envs}")
        if self.torch_threads > MAX_TORCH_THREADS:
            raise ValueError(f"torch_threads must be a whole number 1..{MAX_TORCH_THREADS}; got {self.torch_threads}")
        if self.eval_every < 0:
            raise ValueError(f"eval_every must be 0 (no evaluation) or more; got {self.eval_every}")
        check_eval_opponents(self)
        if not self.net_arch or any(w < 1 for w in self.net_arch):
            raise ValueError(f"net_arch is a list of layer widths >= 1; got {self.net_arch}")
        if self.enclosed_end not in ENCLOSED_END_OPTIONS:
            raise ValueError(f"enclosed_end must be one of {', '.join(ENCLOSED_END_OPTIONS)}; got {self.enclosed_end!r}")
        if self.batch_size < 2:  # PPO normalizes advantages over a minibatch: one sample has no spread
            raise ValueError(f"batch_size must be at least 2; got {self.batch_size}")
        if self.n_steps * self.n_envs % self.batch_size == 1:  # the rollout's last minibatch: the same
            raise ValueError(
                f"n_steps x n_envs ({self.n_steps * self.n_envs}) leaves a last minibatch of one sample with "
                f"batch_size {self.batch_size}, and one sample has no spread; choose a batch_size that divides it"
            )
        check_num_hands(self.hands, "hands: ")
        if not 0 <= self.seed <= PPO_MAX_SEED:
            # SB3 seeds numpy's legacy generator with seed + timesteps, which must stay below 2**32.
            raise ValueError(f"seed must be a whole number 0..{PPO_MAX_SEED}; got {self.seed}")
        steps = -(-self.total_timesteps // (self.n_steps * self.n_envs)) * self.n_steps * self.n_envs
        if self.seed + steps >= 2**32:  # the same generator, reseeded at each checkpoint
            raise ValueError(f"seed + total_timesteps (rounded up to whole rollouts: {steps}) must stay below 2**32 "
                             f"({2**32}), as PPO's random streams restart from it; got seed {self.seed}")
        for name, low, high, low_open in FLOAT_RANGES:
            value = getattr(self, name)
            if not (low < value if low_open else low <= value) or (high is not None and value > high):
                allowed = f"{'more than' if low_open else 'at least'} {low:g}" + (f" and at most {high:g}" if high is not None else "")
                raise ValueError(f"{name} must be {allowed}; got {value!r}")

    def _check_types(self) -> None:
        """Every field of the type its default has (``check_types``)."""
        check_types(self, _DEFAULT_VALUES)

    def _check_unused(self) -> None:
        """Refuse a setting the game's training never reads (a rule option it lacks, the lookahead inputs or the
        opponent pool of a game that has none) at a value other than the game's default: it would be written into
        config.toml and silently ignored. The game's defaults are ``GAME_DEFAULTS``, then the field defaults
        (a CON-TAC-TIX board of 5, not the rules' 11)."""
        defaults = {**_DEFAULT_VALUES, **GAME_DEFAULTS[self.game]}
        options = get_game(self.game).options
        foreign = [name for name in RULE_FIELDS if name not in options and getattr(self, name) != defaults[name]]
        if foreign:
            one = len(foreign) == 1
            raise ValueError(f"{' and '.join(foreign)}: not {'an option' if one else 'options'} of game "
                             f"{self.game!r} (its rule options: {', '.join(o for o in options if o in RULE_FIELDS) or 'none'}); "
                             f"leave {'it' if one else 'them'} out")
        for name in TRAINING_GAMES[self.game].unused:
            if getattr(self, name) != defaults[name]:
                # the constructor's field default (Contack's): a Python caller who meant the game's defaults
                hint = (f"; in Python, TrainConfig.for_game({self.game!r}, ...) starts from the game's defaults"
                        if getattr(self, name) == _DEFAULT_VALUES[name] else "")
                raise ValueError(f"{name}: {self.game}'s training does not use it ({UNUSED_WHY[name]}); leave it out "
                                 f"(its value for {self.game}: {_shown(defaults[name])}{hint})")

    # -- files ----------------------------------------------------------------------------------------------
    @property
    def policy_kind(self) -> str:
        """factored or mlp (what auto means for this game)."""
        if self.policy == "auto":
            return "factored" if TRAINING_GAMES[self.game].factored else "mlp"
        return self.policy

    def rule_options(self) -> RuleOptions:
        """The rule options of the games the run plays: its game's own (CON-TAC-TIX's board size; training plays
        without the swap rule), the others at their defaults."""
        values = {"hands": self.hands, "enclosed_end": self.enclosed_end, "board_size": self.board_size}
        return RuleOptions(**{name: value for name, value in values.items() if name in get_game(self.game).options})

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def save(self, path: str, backend: str = "sb3") -> None:
        """Write the configuration as TOML, atomically; its first line says how to repeat the run (``backend``:
        the trainer that made it, ``sb3`` or ``rllib``)."""
        option = " --backend rllib" if backend == "rllib" else ""
        text = f"# contack train configuration: repeat this run with `contack train{option} --config <this file> --out DIR`\n"
        text += tomli_w.dumps({"train": self.to_dict()})
        write_text(path, text)

    @classmethod
    def load(cls, path: str, **overrides: Any) -> TrainConfig:
        """Read a TOML file written by ``save`` (or by hand: a ``[train]`` table); ``overrides`` win."""
        table = read_settings(path)
        try:
            return cls.from_dict({**table, **overrides})
        except ValueError as err:
            try:
                cls.from_dict(table)
            except ValueError:
                raise ValueError(f"{path}: {err}") from None  # the file's own value is at fault
            raise  # an override is: its name says so, not the file's

    @classmethod
    def for_game(cls, game: str, **values: Any) -> TrainConfig:
        """A configuration for ``game`` that starts from that game's defaults (``GAME_DEFAULTS``, as the command
        line does); ``values`` set any field. ``TrainConfig(game=...)`` keeps the field defaults, which are
        Contack's."""
        return cls.from_dict({**values, "game": game})

    @classmethod
    def from_dict(cls, values: dict[str, Any], source: str = "the configuration") -> TrainConfig:
        """The configuration ``values`` gives; a field it leaves out takes the game's default (``GAME_DEFAULTS``),
        else the field's."""
        known = {f.name for f in fields(cls)}
        where = "" if source == "the configuration" else f"{source}: "
        if "algorithm" in values:  # a file may say which trainer it is for; --algorithm az reads az's files
            if values["algorithm"] == "az":
                raise ValueError(f"{where}algorithm is az: this is a configuration of --algorithm az, not of PPO")
            if values["algorithm"] != "ppo":
                raise ValueError(f"{where}algorithm must be ppo or az; got {values['algorithm']!r}")
            values = {k: v for k, v in values.items() if k != "algorithm"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"{where}unknown setting(s) {', '.join(unknown)}; settings are: {', '.join(sorted(known))}")
        game = values.get("game", "contack")
        game_defaults = copy.deepcopy(GAME_DEFAULTS.get(game, {}) if isinstance(game, str) else {})
        try:
            return cls(**{**game_defaults, **values})
        except ValueError as err:
            if source == "the configuration":
                raise
            raise ValueError(f"{source}: {err}") from None


RULE_FIELDS = ("hands", "enclosed_end", "board_size")
"""The fields that are rule options (``RuleOptions``): a game's training reads only those the game has."""
UNUSED_WHY = {"features": "the lookahead inputs are Contack's",
              "opponents": "a solitaire is played alone, with no opponent pool"}
"""Why a game's training leaves a setting unused (``TrainingGame.unused``), for the message that refuses it."""
MAX_TORCH_THREADS = MAX_WORKERS
"""The most torch threads a run takes, as many as the worker processes of ``contack evaluate`` (far more makes
torch hang or crash)."""
MAX_ENVS = 4096
"""The most environments of a ``dummy`` run (``subproc``: ``MAX_WORKERS``, a process each): 8 is the default, and
a count far past this is a slip of the keyboard that would spend minutes making games before one step."""


def _shown(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def check_types(config: Any, defaults: dict[str, Any]) -> None:
    """Every field of the dataclass instance ``config`` of the type its default in ``defaults`` has (an int is a
    float too; a float must be finite: no inf or nan), else ``ValueError`` naming the field and what it takes;
    what a TOML file or ``from_dict`` gives is checked here, before any value is used. Whole numbers (numpy's
    too) are kept as plain ints, numbers as floats: TOML, JSON, SB3 and torch take no others."""
    for f in fields(config):
        value = getattr(config, f.name)
        default = defaults[f.name]
        if isinstance(default, list):
            kind = "whole numbers" if default and isinstance(default[0], int) else "strings"
            item_ok = is_whole_number if kind == "whole numbers" else (lambda v: isinstance(v, str))
            if not isinstance(value, list) or not all(item_ok(v) for v in value):
                raise ValueError(f"{f.name} must be a list of {kind}; got {value!r}")
            if kind == "whole numbers":
                setattr(config, f.name, [int(v) for v in value])
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{f.name} must be true or false; got {value!r} ({type(value).__name__})")
        elif isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{f.name} must be a finite number; got {value!r} ({type(value).__name__})")
            setattr(config, f.name, float(value))
        elif isinstance(default, int):
            if not is_whole_number(value):
                raise ValueError(f"{f.name} must be a whole number; got {value!r} ({type(value).__name__})")
            setattr(config, f.name, int(value))
        elif not isinstance(value, str):
            raise ValueError(f"{f.name} must be a string; got {value!r} ({type(value).__name__})")


def check_eval_opponents(config: Any) -> None:
    """An empty ``eval_opponents`` with evaluations asked for (``eval_every`` above 0) is refused where the game has
    opponents (an evaluation there is the agent against each of them: none would be made); a solitaire's agent is
    evaluated alone on the deals, the bots there only for comparison."""
    if config.eval_every and not config.eval_opponents and get_game(config.game).report != "solitaire":
        raise ValueError(f"eval_opponents is empty, so the evaluations every {config.eval_every} would play no game; "
                         "name the bots to evaluate against, or give eval_every 0 for no evaluation")


PPO_MAX_SEED = 2**31 - 1
"""The largest seed of a PPO run (``TrainConfig.check`` says why); az runs take any seed the commands do
(``contack_env.seeds.MAX_SEED``)."""


MAX_CONFIG_BYTES = 1 << 20
"""The largest configuration file read (a run's config.toml is about 2 KB)."""


def read_settings(path: str) -> dict[str, Any]:
    """A configuration file's settings (its ``[train]`` table, or the whole file without one), or ``ValueError``
    saying why it cannot be read (missing, a folder, not readable, not UTF-8, not TOML, no table of settings)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)  # not all of it: a device such as /dev/zero never ends
        if len(raw) > MAX_CONFIG_BYTES:
            raise ValueError(f"{path} is larger than {MAX_CONFIG_BYTES >> 20} MiB; a configuration is a TOML file of "
                             "a few KB (a run's config.toml)")
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no configuration file at {path}") from None
    except IsADirectoryError:
        raise ValueError(f"{path} is a folder; --config names a TOML file (a run's config.toml)") from None
    except OSError as err:
        raise ValueError(f"cannot read the configuration {path}: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise ValueError(f"{path} is not a TOML file: it is not UTF-8 text ({err.reason} at byte {err.start})") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path} is not valid TOML: {err}") from None
    table = data.get("train", data)
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [train] is a table of settings; got {table!r}")
    beside = sorted(set(data) - {"train"}) if "train" in data else []
    if beside:  # they would be read by nothing: a setting put there by mistake would be lost without a word
        raise ValueError(f"{path}: the settings go in the [train] table; the file also holds {', '.join(beside)}")
    return table


FLOAT_RANGES = (
    # field, lowest, highest (None: no bound), whether the lowest itself is excluded
    ("learning_rate", 0.0, None, True),
    ("gamma", 0.0, 1.0, False),
    ("gae_lambda", 0.0, 1.0, False),
    ("clip_range", 0.0, None, True),
    ("ent_coef", 0.0, None, False),
    ("vf_coef", 0.0, None, False),
    ("max_grad_norm", 0.0, None, True),
)
_DEFAULT_VALUES = {f.name: f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
                   for f in fields(TrainConfig)}


def field_help(cls: type = TrainConfig) -> dict[str, str]:
    """Each field's documentation in the dataclass ``cls`` (the string literal under it), for ``--help``."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[node.target.id] = str(after.value.value)  # type: ignore[attr-defined]
    return docs


def option_value(name: str, text: str, default: Any) -> Any:
    """The value of the command-line option ``--name`` written as ``text``, of the type of its setting's
    ``default`` (a switch is each command's own): a list is comma-separated (``net_arch``'s items whole
    numbers); a whole number may be written ``2e6`` but not ``2.5``; a number is finite. ``ValueError`` says
    which option and what it takes."""
    option = f"--{name.replace('_', '-')}"
    try:
        if isinstance(default, list):
            if not str(text).strip():
                return []  # --eval-opponents '': none
            items = [s.strip() for s in str(text).split(",")]
            if not all(items):  # "16,,16": a slip of the keyboard, not a shorter list
                raise ValueError
            return [int(s) for s in items] if name == "net_arch" else items
        if is_whole_number(default):
            return whole_number_text(str(text))
        if isinstance(default, float):
            value = float(text)
            if not math.isfinite(value):
                raise ValueError
            return value
        return type(default)(text)
    except ValueError:
        what = ("list of whole numbers" if name == "net_arch" else "whole number" if isinstance(default, int)
                else "number" if isinstance(default, float) else type(default).__name__)
        raise ValueError(f"{option}: {text!r} is not a valid {what}") from None


def check_minibatch(cfg: TrainConfig) -> None:
    """``ValueError`` for a new run whose ``batch_size`` is larger than a rollout (``n_steps x n_envs``): a
    minibatch is drawn from one rollout, and SB3 (RLlib alike) would train on the whole rollout instead of the
    size asked for. Checked for new runs only: a run saved with such a setting resumes as it trained."""
    rollout = cfg.n_steps * cfg.n_envs
    if cfg.batch_size > rollout:
        raise ValueError(f"batch_size ({cfg.batch_size}) is larger than a rollout, n_steps x n_envs ({rollout}), "
                         f"from which each minibatch is drawn; give a batch_size of at most {rollout}, or a "
                         "longer rollout")
