"""Train a policy with sb3-contrib's MaskablePPO: ``contack train``, ``python -m training.train`` or
``python training/train.py`` (the same options).

    contack train [--config FILE] [--out DIR] [--resume] [--FIELD VALUE ...]
    contack train --algorithm az [--config FILE] [--out DIR] [--resume] [--FIELD VALUE ...]   (training.az.train)

Contack: the learner takes a random seat each game; the other seats are opponents drawn from a pool of bots
and snapshots of the learner (``training.seat_env``, ``training.opponents``). Solitaires: the Gymnasium
environments of ``contack_env.envs.solitaire_v0``. CON-TAC-TIX (``--game contactix --board-size N``): the learner
plays Black or White, drawn each game, against the same kind of pool (``training.contactix_seat_env``), with an
MLP policy. Every field of ``training.config.TrainConfig`` is an option.

What a run writes in ``--out`` (default ``runs/train``):

    .contack-run         the run marker (its run id): written first, it proves the folder is this run's
    config.toml          the whole configuration (``--config`` it to repeat the run)
    policy.npz           the latest policy, weights only (``ppo:DIR/policy.npz``; agents.policy_file)
    checkpoint.zip       the SB3 model with its optimizer, written atomically (what --resume loads)
    state.json           timesteps, wall-clock seconds so far, the self-play snapshots in use and the run
                         id, written after each checkpoint
    snapshots/*.npz      the learner's snapshots (self-play opponents)
    eval.csv             the periodic evaluations against the bots, over whole three-hand games
    learning_curve.png   eval.csv drawn
    tb/                  TensorBoard logs (``tensorboard --logdir DIR/tb``): SB3's training scalars with the
                         episode statistics (rollout/ep_rew_mean, rollout/ep_len_mean: the learner's reward
                         and decisions per game), and eval/ at the same timesteps as eval.csv

PPO trains in whole rollouts of ``n_steps`` steps in each of the ``n_envs`` environments, so a run trains
``total_timesteps`` rounded up to a whole rollout (``--total-timesteps 20000`` with 8 x 512-step rollouts:
20480); the progress bar counts to that number. Evaluations fall every ``eval_every`` timesteps below
``total_timesteps``, and once more at the end, at the timesteps actually trained.

``--resume`` continues a run that stopped (killed, or finished and given a larger ``--total-timesteps``)
from its last checkpoint, with the configuration it was started with (every option but
``--total-timesteps`` is then ignored). It builds the model from config.toml as a new run does and then loads
only the checkpoint's tensors (weights and optimizer state, ``torch.load(weights_only=True)`` through SB3's
``set_parameters``) and its timestep count (JSON): nothing in the zip is unpickled. The evaluations that the
killed session made after its last checkpoint are dropped from eval.csv (the resumed run makes them again).
Checkpoints are taken between rollouts, and at each one the run restarts its games and random streams from
``seed + timesteps`` exactly as a resumed run starts (``restart_streams``): a killed run, resumed, is the same
run as an uninterrupted one, update for update and evaluation for evaluation.

A run writes only in a folder it can prove is its own (``training.run_folder``): a new run needs a new or
empty folder, or one that a run of ours killed before its first checkpoint left (whose files it then removes);
a folder holding anything else, or a run already (continue that with ``--resume``), is refused before any
work. ``--resume --total-timesteps`` below the steps the run has done is refused.
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
import sys
import zipfile
from dataclasses import fields
from typing import Any, Sequence

from contack_env.atomic import TEMPORARY_PREFIX, open_atomic

from .config import TrainConfig, field_help
from agents.policy_file import PolicyNet
from .run_folder import (MARKER, RunFolderError, TrainingError, check_new_run_folder, claim_folder, new_run_id,
                         read_marker, remove_run_files, write_marker)

SOLITAIRE_REWARDS = ("win", "tiles", "points")
SELF_PLAY_GAMES = ("contack", "contactix")
"""The games whose opponent pool can hold snapshots of the learner ("self")."""


# -- environments -------------------------------------------------------------------------------------------
def make_env(cfg: TrainConfig, rank: int) -> Any:
    """Environment ``rank`` of the vectorized set (module level, so SubprocVecEnv can pickle it)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        # A SubprocVecEnv worker: Ctrl-C is the main process's to handle (it closes the workers), not a
        # traceback from every worker.
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
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
    from contack_env.envs.solitaire_v0 import Solitaire1Env, Solitaire2Env

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
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    factories = [functools.partial(make_env, cfg, rank) for rank in range(cfg.n_envs)]
    venv = SubprocVecEnv(factories) if cfg.vec_env == "subproc" else DummyVecEnv(factories)
    # Episode returns and lengths for SB3's rollout/ep_rew_mean and rollout/ep_len_mean in TensorBoard (SB3 adds
    # its Monitor only to environments it builds itself, not to a VecEnv it is given).
    return VecMonitor(venv)


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
        with open_atomic(self.state) as f:
            json.dump(state, f, indent=1)

    def checkpoint_progress(self) -> tuple[int, int]:
        """The checkpoint's timesteps and PPO updates, read from its JSON member (no unpickling)."""
        try:
            with zipfile.ZipFile(self.checkpoint) as archive:
                data = json.loads(archive.read("data"))
            steps, updates = data["num_timesteps"], data.get("_n_updates", 0)
            for name, value in (("num_timesteps", steps), ("_n_updates", updates)):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise ValueError(f"{name} is {value!r}, not a count of 0 or more")
            return steps, updates
        except (OSError, KeyError, ValueError, TypeError, RecursionError, zipfile.BadZipFile) as err:
            raise TrainingError(f"{self.checkpoint} is damaged or not a checkpoint of `contack train` ({err}); "
                                "remove the folder's checkpoint.zip to start the run again") from None

    @property
    def own_files(self) -> tuple[str, ...]:
        """The files a run writes directly in its folder (``eval_policy.npz``: the policy being evaluated)."""
        return (self.config, self.policy, self.checkpoint, self.state, self.eval_csv, self.curve,
                os.path.join(self.out, "eval_policy.npz"))

    def remove_leftovers(self) -> None:
        """Remove what a run killed before its first checkpoint left: only in a folder with our marker, and only
        the names a run writes (``training.run_folder.remove_run_files``)."""
        remove_run_files(self.out, self.own_files)
        self.remove_temporaries()

    def check_resumable(self) -> str | None:
        """Raise ``TrainingError`` unless ``--resume`` can continue this folder; return its run id (None for a
        run made before run markers, which the resume then marks)."""
        if not os.path.isdir(self.out):
            if os.path.exists(self.out):
                raise RunFolderError(f"--out {self.out} is a file, not a run folder")
            raise TrainingError(f"nothing to resume in {self.out}: no such folder (start the run without --resume)")
        run_id = read_marker(self.out)
        if not os.path.exists(self.checkpoint):
            raise TrainingError(f"nothing to resume in {self.out}: no checkpoint.zip (start the run without --resume)")
        if run_id is None and not os.path.exists(self.config):
            raise RunFolderError(f"{self.out} is not a run folder of `contack train`: it has a checkpoint.zip but "
                                 f"neither a {MARKER} marker nor a config.toml")
        if run_id is not None:
            other = self.read_state().get("run_id")
            if other is not None and other != run_id:
                raise RunFolderError(f"{self.state} belongs to another run (run id {other}, the folder's marker says "
                                     f"{run_id}); the folder mixes two runs' files and cannot be resumed")
        return run_id

    def remove_temporaries(self) -> None:
        """Remove the temporary files of writes a kill interrupted: ``atomic_path``'s ``.tmp-<random><name>``
        for this run's own files and snapshots only."""
        names = tuple(os.path.basename(path) for path in self.own_files)
        if read_marker(self.out) is None:
            return  # not a folder of ours: its files are someone else's
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
        run_id = run.check_resumable()
        cfg = TrainConfig.load(run.config)
        steps, updates = run.checkpoint_progress()  # a damaged checkpoint stops here, the folder untouched
        if total_timesteps is not None:
            if total_timesteps < steps:
                raise TrainingError(f"--total-timesteps {total_timesteps} is below the {steps} timesteps this run has "
                                    f"done; give {steps} or more (the run's total is {cfg.total_timesteps})")
            if total_timesteps != cfg.total_timesteps:
                print(f"contack train: the run's total_timesteps changes from {cfg.total_timesteps} to {total_timesteps} "
                      "(config.toml)", file=sys.stderr)
            cfg.total_timesteps = total_timesteps
            cfg.check()
    elif cfg is None:
        raise TrainingError("a new run needs a configuration")
    else:
        check_new_run_folder(out)
    check_config(cfg)
    torch.set_num_threads(cfg.torch_threads)
    if not resume:
        run.remove_leftovers()
        run_id = new_run_id()
        claim_folder(out, run_id)  # the marker, before any other file of the run

    venv = _vec_env(cfg)
    model = new_model(cfg, venv, run.tensorboard)
    if resume:
        from .monitor import trim_evaluations

        try:
            model.set_parameters(run.checkpoint, exact_match=True, device="cpu")
        except (RuntimeError, ValueError, KeyError) as err:
            venv.close()
            raise TrainingError(f"{run.checkpoint} does not fit the network of {run.config} ({err})") from None
        if run_id is None:  # a run from before markers: its config.toml and checkpoint are ours; mark it
            run_id = new_run_id()
            write_marker(out, run_id)
        run.remove_temporaries()
        model.num_timesteps, model._n_updates = steps, updates
        restart_streams(model, cfg, steps)  # then learn() resets the environments, as at every checkpoint
        state = run.read_state()
        if cfg.game in SELF_PLAY_GAMES:
            for name in state.get("snapshots", []):
                venv.env_method("add_snapshot", PolicyNet.load(os.path.join(run.snapshots, name)))
        trim_evaluations(run, steps, cfg)
    else:
        state = {"snapshots": []}
    state["run_id"] = run_id
    cfg.save(run.config)  # after the checkpoint loaded: a resume that fails leaves config.toml as it was
    os.makedirs(run.snapshots, exist_ok=True)
    from .monitor import TrainingMonitor

    remaining = cfg.total_timesteps - model.num_timesteps
    monitor = TrainingMonitor(cfg, run, state, progress, final_timesteps(model.num_timesteps, cfg))
    try:
        if remaining > 0:
            model.learn(remaining, callback=monitor, reset_num_timesteps=not resume, tb_log_name="ppo")
        monitor.finish(model)
    finally:
        venv.close()
    return run.policy


def final_timesteps(start: int, cfg: TrainConfig) -> int:
    """The timesteps a run from ``start`` ends at: PPO collects whole rollouts of ``n_steps`` steps in each of
    ``n_envs`` environments, so ``total_timesteps`` is rounded up to the next whole rollout."""
    remaining = cfg.total_timesteps - start
    if remaining <= 0:
        return start
    rollout = cfg.n_steps * cfg.n_envs
    return start + -(-remaining // rollout) * rollout


def restart_streams(model: Any, cfg: TrainConfig, timesteps: int) -> None:
    """Reseed everything random in training from ``seed + timesteps``: torch, numpy and Python (SB3's
    ``set_random_seed``), the environments' next reset, and the opponents' bots. A run does it at each
    checkpoint (just after the checkpoint is written, with fresh games), and a resumed run does it where it
    starts: so a run killed and resumed continues exactly as the uninterrupted run did."""
    model.set_random_seed(cfg.seed + timesteps)
    if cfg.game in SELF_PLAY_GAMES:
        model.get_env().env_method("reseed_opponents", timesteps)


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


def _kept(out: str) -> str:
    """What an interrupted run left in ``out``, and how to go on."""
    run = Run(out)
    try:
        steps = run.checkpoint_progress()[0] if os.path.exists(run.checkpoint) else None
    except TrainingError:
        steps = None
    if steps is None:
        return (f"no checkpoint was written yet, so there is nothing to resume: the same command starts the run "
                f"again in {out}")
    return (f"{out} keeps the run up to its last checkpoint, {steps} timesteps; continue it with "
            f"`contack train --resume --out {out}`")


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
    try:  # the folder first: a run that cannot write there is refused before anything else is done
        if args.resume:
            Run(args.out).check_resumable()
        else:
            check_new_run_folder(args.out)
    except TrainingError as err:
        print(f"contack train: {err}", file=sys.stderr)
        return 1
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
    except OSError as err:
        print(f"contack train: cannot write the run in {args.out}: {err}; the files written are whole (each is "
              f"replaced atomically): continue with `contack train --resume --out {args.out}` once it can be "
              "written", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\ncontack train: interrupted; {_kept(args.out)}", file=sys.stderr)
        return 130
    print(f"wrote {path}")
    from contack_env.wording import plural

    from .monitor import read_csv

    rows = read_csv(Run(args.out).eval_csv)
    if rows:
        last = int(rows[-1]["timesteps"])
        for row in (r for r in rows if int(r["timesteps"]) == last):
            rate = f"win rate {float(row['win_rate']):.3f} [{float(row['ci_low']):.3f}, {float(row['ci_high']):.3f}]"
            if row["opponent"] == "-":  # a solitaire: the policy and the reference bots on the same deals
                tiles = f", {float(row['mean_tiles']):.2f} tiles placed on average" if row.get("mean_tiles") else ""
                print(f"timesteps={last} {row['agent']}: {rate}{tiles}, over {plural(int(row['games']), 'deal')}")
            else:
                print(f"timesteps={last} vs {row['opponent']}: {rate} over {plural(int(row['games']), 'game')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
