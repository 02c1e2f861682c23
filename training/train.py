"""Train a policy with sb3-contrib's MaskablePPO: ``contack train``, ``python -m training.train`` or
``python training/train.py`` (the same options).

    contack train [--config FILE] [--out DIR] [--resume] [--FIELD VALUE ...]
    contack train --algorithm az [--config FILE] [--out DIR] [--resume] [--FIELD VALUE ...]   (training.az.train)

Contack: the learner takes a random seat each game; the other seats are opponents drawn from a pool of bots
and snapshots of the learner (``training.seat_env``, ``training.opponents``). Solitaires: the Gymnasium
environments of ``contack_env.solitaire_v0``. CON-TAC-TIX (``--game contactix --board-size N``): the learner
plays Black or White, drawn each game, against the same kind of pool (``training.contactix_seat_env``), with an
MLP policy. Every field of ``training.config.TrainConfig`` is an option.

What a run writes in ``--out`` (default ``runs/train``):

    config.toml          the whole configuration (``--config`` it to repeat the run)
    policy.npz           the latest policy, weights only (``ppo:DIR/policy.npz``; training.policy_file)
    checkpoint.zip       the SB3 model with its optimizer, written atomically (what --resume loads)
    state.json           timesteps, wall-clock seconds so far and the self-play snapshots in use, written
                         after each checkpoint
    snapshots/*.npz      the learner's snapshots (self-play opponents)
    eval.csv             the periodic evaluations against the bots, over whole three-hand games
    learning_curve.png   eval.csv drawn
    tb/                  TensorBoard logs (``tensorboard --logdir DIR/tb``)

``--resume`` continues a run that stopped (killed, or finished and given a larger ``--total-timesteps``)
from its last checkpoint, with the configuration it was started with (every option but
``--total-timesteps`` is then ignored). It builds the model from config.toml as a new run does and then loads
only the checkpoint's tensors (weights and optimizer state, ``torch.load(weights_only=True)`` through SB3's
``set_parameters``) and its timestep count (JSON): nothing in the zip is unpickled. The evaluations that the
killed session made after its last checkpoint are dropped from eval.csv (the resumed run makes them again). A
resumed run does not replay the exact random stream of an uninterrupted one (the generators restart from
``seed + timesteps``), so it is reproducible, not identical.

A new run refuses a folder that already holds a checkpoint, so a run is never overwritten by accident; in a
folder with a config.toml but no checkpoint (a run killed before its first checkpoint) it first removes that
run's files (the names above), so nothing stale mixes into the new run's results. A folder without either is
left as it is.
"""

from __future__ import annotations

if __name__ == "__main__" and not __package__:
    # `python training/train.py`: run this file as the package module it is (its relative imports need that),
    # with the repository root, not training/, first on the path.
    import os as _os
    import runpy as _runpy
    import sys as _sys

    _sys.path[0] = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    _runpy.run_module("training.train", run_name="__main__", alter_sys=True)
    raise SystemExit(0)

import argparse
import functools
import json
import os
import shutil
import sys
import zipfile
from dataclasses import fields
from typing import Any, Sequence

from .config import TrainConfig, field_help
from .policy_file import TEMPORARY_PREFIX, PolicyNet, atomic_path

SOLITAIRE_REWARDS = ("win", "tiles", "points")
SELF_PLAY_GAMES = ("contack", "contactix")
"""The games whose opponent pool can hold snapshots of the learner ("self")."""


class TrainingError(RuntimeError):
    """A run that cannot start or resume, with what to do about it."""


# -- environments -------------------------------------------------------------------------------------------
def make_env(cfg: TrainConfig, rank: int) -> Any:
    """Environment ``rank`` of the vectorized set (module level, so SubprocVecEnv can pickle it)."""
    if cfg.game == "contack":
        from .opponents import OpponentPool, parse_weights
        from .seat_env import ContackSeatEnv

        pool = OpponentPool(parse_weights(cfg.opponents), keep=cfg.keep_snapshots, seed=cfg.seed * 1000 + rank)
        return ContackSeatEnv(cfg.players, pool, reward=cfg.reward, num_hands=cfg.hands, enclosed_end=cfg.enclosed_end,
                              features=cfg.features)
    if cfg.game == "contactix":
        from .contactix_seat_env import ContactixSeatEnv
        from .opponents import OpponentPool, parse_weights

        pool = OpponentPool(parse_weights(cfg.opponents), keep=cfg.keep_snapshots, seed=cfg.seed * 1000 + rank,
                            game="contactix")
        return ContactixSeatEnv(cfg.board_size, pool)
    from contack_env.solitaire_v0 import Solitaire1Env, Solitaire2Env

    cls = Solitaire1Env if cfg.game == "solitaire1" else Solitaire2Env
    return cls(reward=cfg.reward, auto_single_moves=True)


_FOR_GAME = " (TrainConfig.for_game({game!r}, ...) starts from the game's defaults)"


def check_config(cfg: TrainConfig) -> None:
    """What ``TrainConfig.check`` cannot know: rewards per game and the opponent specs."""
    if cfg.game == "contack":
        from .opponents import OpponentPool, parse_weights
        from .seat_env import REWARD_MODES

        if cfg.reward not in REWARD_MODES:
            raise ValueError(f"reward for contack must be one of {', '.join(REWARD_MODES)}; got {cfg.reward!r}")
        OpponentPool(parse_weights(cfg.opponents))
        from agents.registry import check_spec

        for spec in cfg.eval_opponents:
            check_spec(spec)
    elif cfg.game == "contactix":
        from agents.registry import check_spec

        from .contactix_seat_env import REWARD_MODES as CONTACTIX_REWARDS
        from .opponents import OpponentPool, parse_weights

        if cfg.reward not in CONTACTIX_REWARDS:
            raise ValueError(f"reward for contactix must be one of {', '.join(CONTACTIX_REWARDS)} (+1/-1 at the end: "
                             f"the game has no score); got {cfg.reward!r}{_FOR_GAME.format(game='contactix')}")
        try:
            OpponentPool(parse_weights(cfg.opponents), game="contactix")
        except ValueError as err:
            raise ValueError(f"{err}{_FOR_GAME.format(game='contactix')}") from None
        for spec in cfg.eval_opponents:
            try:
                check_spec(spec, "contactix")
            except ValueError as err:
                raise ValueError(f"eval_opponents: {err}") from None
    else:
        if cfg.reward not in SOLITAIRE_REWARDS:
            raise ValueError(f"reward for {cfg.game} must be one of {', '.join(SOLITAIRE_REWARDS)}; got {cfg.reward!r}"
                             f"{_FOR_GAME.format(game=cfg.game)}")
        from agents.registry import check_spec

        for spec in cfg.eval_opponents:
            try:
                check_spec(spec, cfg.game)
            except ValueError as err:
                raise ValueError(f"eval_opponents: {err}") from None


def _vec_env(cfg: TrainConfig) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    factories = [functools.partial(make_env, cfg, rank) for rank in range(cfg.n_envs)]
    if cfg.vec_env == "subproc":
        return SubprocVecEnv(factories)
    return DummyVecEnv(factories)


# -- the run ------------------------------------------------------------------------------------------------
class Run:
    """The files of one run folder."""

    def __init__(self, out: str) -> None:
        self.out = out
        self.config = os.path.join(out, "config.toml")
        self.policy = os.path.join(out, "policy.npz")
        self.checkpoint = os.path.join(out, "checkpoint.zip")
        self.state = os.path.join(out, "state.json")
        self.snapshots = os.path.join(out, "snapshots")
        self.eval_csv = os.path.join(out, "eval.csv")
        self.curve = os.path.join(out, "learning_curve.png")
        self.tensorboard = os.path.join(out, "tb")

    def read_state(self) -> dict[str, Any]:
        try:
            with open(self.state, encoding="utf-8") as f:
                return json.load(f)
        except FileNotFoundError:
            return {"snapshots": []}
        except json.JSONDecodeError as err:
            raise TrainingError(f"{self.state} is damaged ({err}); remove it to resume without the snapshots") from None

    def write_state(self, state: dict[str, Any]) -> None:
        with atomic_path(self.state) as tmp:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(state, f, indent=1)

    def checkpoint_progress(self) -> tuple[int, int]:
        """The checkpoint's timesteps and PPO updates, read from its JSON member (no unpickling)."""
        try:
            with zipfile.ZipFile(self.checkpoint) as archive:
                data = json.loads(archive.read("data"))
            return int(data["num_timesteps"]), int(data.get("_n_updates", 0))
        except (OSError, KeyError, ValueError, TypeError, zipfile.BadZipFile) as err:
            raise TrainingError(f"{self.checkpoint} is damaged or not a checkpoint of `contack train` ({err}); "
                                "remove the folder's checkpoint.zip to start the run again") from None

    @property
    def own_files(self) -> tuple[str, ...]:
        """The files a run writes directly in its folder (``eval_policy.npz``: the policy being evaluated)."""
        return (self.config, self.policy, self.checkpoint, self.state, self.eval_csv, self.curve,
                os.path.join(self.out, "eval_policy.npz"))

    def remove_leftovers(self) -> None:
        """Remove what a run killed before its first checkpoint left. Only in a folder that such a run made (its
        config.toml is written before anything else of it): a new run into a folder of other things, such as
        ``--out .``, touches nothing there."""
        if not os.path.exists(self.config):
            return
        for path in self.own_files:
            if os.path.exists(path):
                os.remove(path)
        for folder in (self.snapshots, self.tensorboard):
            shutil.rmtree(folder, ignore_errors=True)
        self.remove_temporaries()

    def remove_temporaries(self) -> None:
        """Remove the temporary files of writes a kill interrupted: ``atomic_path``'s ``.tmp-<random><name>``
        for this run's own files and snapshots only."""
        names = tuple(os.path.basename(path) for path in self.own_files)
        for folder, ends in ((self.out, names), (self.snapshots, (".npz",))):
            if os.path.isdir(folder):
                for name in os.listdir(folder):
                    if name.startswith(TEMPORARY_PREFIX) and name.endswith(ends):
                        os.remove(os.path.join(folder, name))


def train(
    cfg: TrainConfig | None, out: str, resume: bool = False, progress: bool | None = None, total_timesteps: int | None = None
) -> str:
    """Train as ``cfg`` says, writing the run to ``out``; return the path of the final policy file.

    ``resume=True`` continues the run in ``out`` from its last checkpoint with the run's own config.toml
    (``cfg`` is ignored), up to its ``total_timesteps`` or to ``total_timesteps`` if given (to extend a
    finished run). ``progress``: a progress bar on standard error (None: only on a terminal).
    """
    import torch

    run = Run(out)
    if resume:
        if not os.path.exists(run.checkpoint):
            raise TrainingError(f"nothing to resume in {out}: no checkpoint.zip (start the run without --resume)")
        cfg = TrainConfig.load(run.config)
        if total_timesteps is not None:
            cfg.total_timesteps = total_timesteps
            cfg.check()
    elif cfg is None:
        raise TrainingError("a new run needs a configuration")
    elif os.path.exists(run.checkpoint):
        raise TrainingError(f"{out} already holds a run (checkpoint.zip); continue it with --resume or choose another --out")
    check_config(cfg)
    torch.set_num_threads(cfg.torch_threads)
    if resume:
        steps, updates = run.checkpoint_progress()  # first: a damaged checkpoint stops here, the folder untouched
    else:
        run.remove_leftovers()

    venv = _vec_env(cfg)
    model = new_model(cfg, venv, run.tensorboard)
    if resume:
        from .monitor import trim_evaluations

        try:
            model.set_parameters(run.checkpoint, exact_match=True, device="cpu")
        except (RuntimeError, ValueError, KeyError) as err:
            venv.close()
            raise TrainingError(f"{run.checkpoint} does not fit the network of {run.config} ({err})") from None
        run.remove_temporaries()
        model.num_timesteps, model._n_updates = steps, updates
        model.set_random_seed(cfg.seed + steps)
        state = run.read_state()
        if cfg.game in SELF_PLAY_GAMES:
            for name in state.get("snapshots", []):
                venv.env_method("add_snapshot", PolicyNet.load(os.path.join(run.snapshots, name)))
        trim_evaluations(run, steps, cfg)
    else:
        state = {"snapshots": []}
    cfg.save(run.config)  # after the checkpoint loaded: a resume that fails leaves config.toml as it was
    os.makedirs(run.snapshots, exist_ok=True)
    from .monitor import TrainingMonitor

    monitor = TrainingMonitor(cfg, run, state, progress)
    remaining = cfg.total_timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(remaining, callback=monitor, reset_num_timesteps=not resume, tb_log_name="ppo")
    monitor.finish(model)
    venv.close()
    return run.policy


def new_model(cfg: TrainConfig, venv: Any, tensorboard_log: str | None) -> Any:
    """The untrained MaskablePPO learner ``cfg`` describes, on ``venv`` (seeded with ``cfg.seed``)."""
    import torch
    from sb3_contrib import MaskablePPO

    from .networks import FactoredPolicy

    return MaskablePPO(
        FactoredPolicy if cfg.policy_kind == "factored" else "MlpPolicy",
        venv,
        learning_rate=cfg.learning_rate,
        n_steps=cfg.n_steps,
        batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs,
        gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm,
        policy_kwargs={
            "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)},
            "activation_fn": torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU,
        },
        tensorboard_log=tensorboard_log,
        seed=cfg.seed,
        device="cpu",
        verbose=0,
    )


def export_policy(model: Any, cfg: TrainConfig, path: str) -> PolicyNet:
    """Write the model's actor as a weights-only policy file."""
    meta = {"game": cfg.game, "players": cfg.players, "features": cfg.features if cfg.game == "contack" else "none",
            "trained_steps": int(model.num_timesteps), "config": cfg.to_dict()}
    if cfg.game == "contactix":
        # What ppo:PATH checks before it plays: the policy's input and actions are those of this board size,
        # and it never learned the swap rule (training plays without it).
        meta.update(board_size=cfg.board_size, swap=False)
    net = PolicyNet.from_sb3(model.policy, meta)
    net.save(path)
    return net


# -- command line --------------------------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``contack train``'s options: --config, --out, --resume and one option per configuration field."""
    parser.add_argument("--config", metavar="FILE", help="a TOML configuration (e.g. a run's config.toml); options override it")
    parser.add_argument("--out", default=os.path.join("runs", "train"), help="the run folder (default runs/train)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    parser.add_argument("--progress", choices=("auto", "on", "off"), default="auto", help="progress bar (auto: on a terminal)")
    docs = field_help()
    defaults = TrainConfig()
    for f in fields(TrainConfig):
        default = getattr(defaults, f.name)
        kind = type(default)
        text = docs.get(f.name, "")
        shown = ",".join(map(str, default)) if isinstance(default, list) else default
        parser.add_argument(f"--{f.name.replace('_', '-')}", dest=f.name, default=None, metavar=kind.__name__.upper()
                            if kind is not list else "A,B", help=f"{text} (default {shown})".strip())
    from .az.command import add_arguments as add_az_arguments  # --algorithm az: training.az

    add_az_arguments(parser, {f.name for f in fields(TrainConfig)})


def parse_option(name: str, text: str) -> Any:
    """The value of option ``--name`` written as ``text``, of its field's type (``2e6`` is a whole number)."""
    default = getattr(TrainConfig(), name)
    try:
        if isinstance(default, list):
            items = [s.strip() for s in str(text).split(",") if s.strip()]
            return [int(s) for s in items] if name == "net_arch" else items
        if isinstance(default, bool):
            return str(text).lower() in ("1", "true", "yes")
        return type(default)(float(text) if isinstance(default, int) and "e" in str(text).lower() else text)
    except ValueError:
        raise ValueError(f"--{name.replace('_', '-')}: {text!r} is not a valid {type(default).__name__}") from None


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """The configuration the options describe: defaults, then --config, then each option given."""
    overrides = {f.name: parse_option(f.name, getattr(args, f.name)) for f in fields(TrainConfig)
                 if getattr(args, f.name, None) is not None}
    if args.config:
        return TrainConfig.load(args.config, **overrides)
    return TrainConfig.from_dict(overrides)  # what is not given takes the game's default, then the field's


def main(argv: Sequence[str] | None = None, prog: str = "python -m training.train") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run_from_args(parser, args)


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .az import command as az_command
    from .az.config import AZConfig

    az_only = {f.name for f in fields(AZConfig)} - {f.name for f in fields(TrainConfig)} - {"algorithm"}
    if az_command.algorithm_of(args) == "az":
        return az_command.run_from_args(parser, args, {f.name for f in fields(TrainConfig)} - {f.name for f in fields(AZConfig)})
    cfg: TrainConfig | None = None
    total: int | None = None
    wrong = az_command.given(args, az_only)
    if wrong:
        parser.error(f"{', '.join(wrong)}: setting(s) of --algorithm az, not used by PPO")
    try:
        if args.resume:  # the run's own config.toml decides; only --total-timesteps is read (and checked)
            if args.total_timesteps is not None:
                total = parse_option("total_timesteps", args.total_timesteps)
        else:
            cfg = config_from_args(args)
            check_config(cfg)
    except ValueError as err:
        parser.error(str(err))
    progress = {"auto": None, "on": True, "off": False}[args.progress]
    if args.resume:
        ignored = [f"--{f.name.replace('_', '-')}" for f in fields(TrainConfig)
                   if f.name != "total_timesteps" and getattr(args, f.name, None) is not None]
        ignored += ["--config"] if args.config else []
        if ignored:
            print(f"contack train: --resume continues with the run's own config.toml; ignoring {', '.join(ignored)} "
                  "(only --total-timesteps applies)", file=sys.stderr)
    try:
        path = train(cfg, args.out, resume=args.resume, progress=progress, total_timesteps=total)
    except (TrainingError, ValueError) as err:
        print(f"contack train: {err}", file=sys.stderr)
        return 1
    print(f"wrote {path}")
    from .monitor import read_csv

    rows = read_csv(Run(args.out).eval_csv)
    if rows:
        last = int(rows[-1]["timesteps"])
        for row in (r for r in rows if int(r["timesteps"]) == last):
            rate = f"win rate {float(row['win_rate']):.3f} [{float(row['ci_low']):.3f}, {float(row['ci_high']):.3f}]"
            if row["opponent"] == "-":  # a solitaire: the policy and the reference bots on the same deals
                tiles = f", {float(row['mean_tiles']):.2f} tiles placed on average" if row.get("mean_tiles") else ""
                print(f"timesteps={last} {row['agent']}: {rate}{tiles}, over {row['games']} deals")
            else:
                print(f"timesteps={last} vs {row['opponent']}: {rate} over {row['games']} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
