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
    state.json           timesteps, wall-clock seconds so far, the self-play snapshots in use, the run id and
                         the settings (what --resume holds config.toml to), written with each checkpoint (just
                         before it, holding the one of the checkpoint before as well)
    snapshots/*.npz      the learner's snapshots (self-play opponents)
    eval.csv             the periodic evaluations against the bots, over whole three-hand games
    eval_policy.npz      the policy of the latest evaluation, as its games played it
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
``--total-timesteps`` is then ignored; config.toml is held to the settings state.json kept, and one edited by hand
is refused: ``training.run_folder.check_settings_kept``). It builds the model from config.toml as a new run does and then loads
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
import os
import sys
from contextlib import ExitStack
from dataclasses import fields
from typing import Any, Sequence

from agents.policy_file import PolicyFileError, PolicyNet
from agents.worker_pool import LOST, WorkerLost, ctrl_c_held_back_from_new_processes

from .config import CHANGEABLE_ON_RESUME, TrainConfig, check_minibatch, field_help, option_value
from .evaluations import read_csv
from .games import TRAINING_GAMES
from .learner import final_timesteps, new_model, restart_streams
from .run_folder import (Run, TrainingError, cannot_write, check_new_run_folder, check_settings_kept, claim_folder,
                         folder_held, new_run_id, not_a_folder, write_marker)
from .stopped import PPO_MEMORY, STOPS, allocation_failures_as_memory_errors, report_stop


# -- environments -------------------------------------------------------------------------------------------
def make_env(cfg: TrainConfig, rank: int) -> Any:
    """Environment ``rank`` of the vectorized set (module level, so SubprocVecEnv can pickle it)."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        # A SubprocVecEnv worker: Ctrl-C is the main process's to handle (it closes the workers), not a
        # traceback from every worker.
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return TRAINING_GAMES[cfg.game].environment(cfg, rank)


_FOR_GAME = " (in Python, TrainConfig.for_game({game!r}, ...) starts from the game's defaults)"


def check_config(cfg: TrainConfig) -> None:
    """What ``TrainConfig.check`` cannot know: the game's rewards, the opponent pool and the bots' specs."""
    from agents.registry import check_spec

    from .opponents import OpponentPool, parse_weights

    game = TRAINING_GAMES[cfg.game]
    hint = _FOR_GAME.format(game=cfg.game) if game.defaults else ""
    if cfg.reward not in game.rewards:
        raise ValueError(f"reward for {cfg.game} must be one of {', '.join(game.rewards)}{game.reward_note}; "
                         f"got {cfg.reward!r}{hint}")
    if game.pool is not None:
        try:
            OpponentPool(parse_weights(cfg.opponents), game=game.pool, options=cfg.rule_options())
        except ValueError as err:
            raise ValueError(f"{err}{hint}") from None
    for spec in cfg.eval_opponents:
        try:
            check_spec(spec, cfg.game, cfg.rule_options())
        except ValueError as err:
            raise ValueError(f"eval_opponents: {err}") from None


def _vec_env(cfg: TrainConfig) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    factories = [functools.partial(make_env, cfg, rank) for rank in range(cfg.n_envs)]
    if cfg.vec_env == "subproc":
        # A Ctrl-C while the workers start waits until they can ignore it (make_env), then reaches this process
        # alone; spawned, so that they start with this thread's signal mask (SB3's default forkserver would
        # give them its server's)
        with ctrl_c_held_back_from_new_processes():
            venv = SubprocVecEnv(factories, start_method="spawn")
    else:
        venv = DummyVecEnv(factories)
    # Episode returns and lengths for SB3's rollout/ep_rew_mean and rollout/ep_len_mean in TensorBoard (SB3 adds
    # its Monitor only to environments it builds itself, not to a VecEnv it is given).
    return VecMonitor(venv)


# -- the run ------------------------------------------------------------------------------------------------
def extend_total(cfg: TrainConfig, steps: int, total_timesteps: int | None) -> str | None:
    """``--resume --total-timesteps T`` of a run at ``steps``: ``cfg`` (the run's) gets the total ``T``; a ``T``
    below ``steps`` raises ``TrainingError``. None leaves ``cfg`` as is. Returns the line that says the change
    (None if the total stays): the caller prints it once the checkpoint has loaded, as config.toml changes only
    then, so that a resume that fails says nothing of a change it did not make."""
    if total_timesteps is None:
        return None
    if total_timesteps < steps:
        raise TrainingError(f"--total-timesteps {total_timesteps} is below the {steps} timesteps this run has "
                            f"done; give {steps} or more (the run's total is {cfg.total_timesteps})")
    said = None
    if total_timesteps != cfg.total_timesteps:
        said = (f"contack train: the run's total_timesteps changes from {cfg.total_timesteps} to {total_timesteps} "
                "(config.toml)")
    cfg.total_timesteps = total_timesteps
    cfg.check()
    return said


def train(
    cfg: TrainConfig | None, out: str, resume: bool = False, progress: bool | None = None, total_timesteps: int | None = None
) -> str:
    """Train as ``cfg`` says, writing the run to ``out``; return the path of the final policy file.

    ``resume=True`` continues the run in ``out`` from its last checkpoint with the run's own config.toml
    (``cfg`` is ignored), up to its ``total_timesteps`` or to ``total_timesteps`` if given (to extend a
    finished run). ``progress``: on standard error, as ``agents.progress`` says (True: on, False: off; None: auto,
    a bar on a terminal and a plain line every 30 s elsewhere).
    """
    with ExitStack() as held:  # the run folder, once the run may use it (training.run_folder.folder_held)
        return _train(cfg, out, resume, progress, total_timesteps, held)


def _train(cfg: TrainConfig | None, out: str, resume: bool, progress: bool | None, total_timesteps: int | None,
           held: ExitStack) -> str:
    import torch

    run = Run(out)
    if resume:
        run_id = run.check_resumable()
        held.enter_context(folder_held(out))  # before anything is read: no other run changes the folder meanwhile
        cfg = TrainConfig.load(run.config)
        steps, updates = run.checkpoint_progress()  # a damaged checkpoint stops here, the folder untouched
        read_csv(run.eval_csv)  # and so does a damaged eval.csv, before the training it would have failed
        extended = extend_total(cfg, steps, total_timesteps)
        check_settings_kept(run.config, run.state_at(steps).get("config"), cfg.to_dict(), CHANGEABLE_ON_RESUME)
    elif cfg is None:
        raise TrainingError("a new run needs a configuration")
    else:
        check_new_run_folder(out)
        check_minibatch(cfg)
        extended = None
    check_config(cfg)
    torch.set_num_threads(cfg.torch_threads)
    if not resume:
        held.enter_context(folder_held(out))  # before any file of the folder changes
        check_new_run_folder(out)  # again, held: a run that ended meanwhile may have left its checkpoint there
        run.remove_leftovers()
        run_id = new_run_id()
        claim_folder(out, run_id)  # the marker, before any other file of the run

    venv = _vec_env(cfg)
    model = new_model(cfg, venv, run.tensorboard)
    if resume:
        from .evaluations import trim_evaluations

        try:
            model.set_parameters(run.checkpoint, exact_match=True, device="cpu")
        except (RuntimeError, ValueError, KeyError) as err:
            venv.close()
            raise TrainingError(f"{run.checkpoint} does not fit the network of {run.config} ({err})") from None
        if run_id is None:  # a run from before markers (or whose marker was lost): its files are ours; mark it,
            run_id = run.read_state().get("run_id") or new_run_id()  # with its own id when its state has one
            write_marker(out, run_id)
        run.remove_temporaries()
        model.num_timesteps, model._n_updates = steps, updates
        restart_streams(model, cfg, steps)  # then learn() resets the environments, as at every checkpoint
        state = run.state_at(steps)
        if TRAINING_GAMES[cfg.game].self_play and not os.path.exists(run.state):
            print(f"contack train: {run.state} is missing, so the run resumes without the self-play snapshots it "
                  "named (it then goes on otherwise than it would have)", file=sys.stderr)
        if TRAINING_GAMES[cfg.game].self_play:
            for name in state.get("snapshots", []):
                try:
                    snapshot = PolicyNet.load(os.path.join(run.snapshots, name))
                except PolicyFileError as err:
                    venv.close()
                    raise TrainingError(f"{run.state} names the self-play snapshot {name}, which cannot be played: "
                                        f"{err}; put it back, or remove {run.state} to resume without the snapshots "
                                        "(the run then goes on otherwise than it would have)") from None
                venv.env_method("add_snapshot", snapshot)
        trim_evaluations(run, steps, cfg)
    else:
        state = {"snapshots": []}
    state["run_id"] = run_id
    state["config"] = cfg.to_dict()  # what --resume holds config.toml to (a total it extended included)
    cfg.save(run.config)  # after the checkpoint loaded: a resume that fails leaves config.toml as it was
    if extended:
        print(extended, file=sys.stderr)
    os.makedirs(run.snapshots, exist_ok=True)
    from .monitor import TrainingMonitor

    remaining = cfg.total_timesteps - model.num_timesteps
    monitor = TrainingMonitor(cfg, run, state, progress, final_timesteps(model.num_timesteps, cfg))
    try:
        if remaining > 0:
            model.learn(remaining, callback=monitor, reset_num_timesteps=not resume, tb_log_name="ppo")
        monitor.finish(model)
    except BaseException as err:
        # A pipe to a worker that broke: the worker's end, not a file of the run
        ended = _ended_worker(venv) if isinstance(err, (EOFError, BrokenPipeError, ConnectionResetError)) else None
        _close_after_failure(venv)
        # A masked policy that chose an illegal move, or whose logits were NaN (in a subprocess environment, a
        # worker that failed on it): training diverged?
        if isinstance(err, (ValueError, EOFError, BrokenPipeError, ConnectionResetError)):
            largest = _largest_weight(model)
            if not largest < DIVERGED:
                raise TrainingError(diverged(cfg, int(model.num_timesteps), largest)) from err
        if ended is not None:
            raise WorkerLost(LOST if ended < 0 else FAILED) from err
        raise
    venv.close()
    return run.policy


FAILED = "a worker process stopped with an error (shown above)"


def _ended_worker(venv: Any) -> int | None:
    """The exit status of a subprocess environment's worker that has ended (they end only when closed:
    negative, the signal that killed it from outside; positive, an error of its own), or None."""
    from multiprocessing.connection import wait

    processes = getattr(getattr(venv, "unwrapped", venv), "processes", None) or []
    sentinels = {process.sentinel: process for process in processes}
    # A worker's end shows on its sentinel a moment after the pipe broke; its exit status a moment after that
    # (join waits for it: exitcode alone asks without waiting, and may find the process not yet reaped)
    ended = [sentinels[s] for s in wait(list(sentinels), timeout=2)] if sentinels else []
    for process in ended:
        process.join(timeout=2)
    codes = [process.exitcode for process in ended if process.exitcode]
    return min(codes) if codes else None


DIVERGED = 1e4
"""A policy weight this large (a trained one's are a few units) means training diverged: the logits then pass the
action mask's -1e8, and the masked policy chooses illegal moves."""


def _largest_weight(model: Any) -> float:
    """The largest magnitude of ``model``'s policy weights (NaN if one is NaN)."""
    import torch

    largest = 0.0
    for p in model.policy.parameters():
        if not bool(torch.isfinite(p).all()):
            return float("nan") if bool(torch.isnan(p).any()) else float("inf")
        largest = max(largest, float(p.detach().abs().max()))
    return largest


def diverged(cfg: TrainConfig, steps: int, largest: float) -> str:
    """What ``contack train`` says when training diverged: a policy whose weights blew up chooses anything, and
    the failure it meets (an illegal action, a distribution of NaN logits) says nothing of why."""
    return (f"the training diverged: after {steps} timesteps the network's weights reach {largest:.3g}, and its "
            f"choices are no longer moves it may make; start a new run with a smaller learning_rate (this one's is "
            f"{cfg.learning_rate:g}) or max_grad_norm ({cfg.max_grad_norm:g}); a run keeps its settings when resumed")


def _close_after_failure(venv: Any) -> None:
    """Close the environments after training failed or was interrupted, without hiding why. Subprocess workers
    are ended rather than asked to close: a Ctrl-C that came while a worker's message was half read leaves the
    pipe out of step, and SB3's close would read garbage from it (EOFError) in place of the interruption."""
    inner = getattr(venv, "unwrapped", venv)
    processes = getattr(inner, "processes", None)
    if not processes:
        venv.close()
        return
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)
    inner.closed = True


# -- command line --------------------------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``contack train``'s options: --config, --out, --resume and one option per configuration field."""
    parser.add_argument("--config", metavar="FILE", help="a TOML configuration (e.g. a run's config.toml); options override it")
    parser.add_argument("--out", default=os.path.join("runs", "train"), help="the run folder (default runs/train)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out from its last checkpoint")
    parser.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                        help="progress on standard error: a bar on a terminal, elsewhere a plain line every 30 s "
                        "(auto); on: also a line at the start and at the end off a terminal; off: none")
    from .az.command import add_arguments as add_az_arguments  # --algorithm az: training.az
    from .az.config import AZConfig

    docs = field_help()
    defaults = TrainConfig()
    az_defaults = AZConfig()
    for f in fields(TrainConfig):
        default = getattr(defaults, f.name)
        kind = type(default)
        text = docs.get(f.name, "")
        shown = _shown(default)
        # a setting az has too, with a default of its own (its learning rate, CON-TAC-TIX's board size 11)
        az_default = getattr(az_defaults, f.name, default)
        if az_default != default:
            shown = f"{shown}; with --algorithm az {_shown(az_default)}"
        parser.add_argument(f"--{f.name.replace('_', '-')}", dest=f.name, default=None, metavar=kind.__name__.upper()
                            if kind is not list else "A,B", help=f"{text} (default {shown})".strip())

    add_az_arguments(parser, {f.name for f in fields(TrainConfig)})


def _shown(default: Any) -> str:
    return ",".join(map(str, default)) if isinstance(default, list) else str(default)


def parse_option(name: str, text: str) -> Any:
    """The value of option ``--name`` written as ``text``, of its setting's type (``training.config.option_value``)."""
    default = getattr(TrainConfig(), name)
    if isinstance(default, bool):
        return str(text).lower() in ("1", "true", "yes")
    return option_value(name, text, default)


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """The configuration the options describe: defaults, then --config, then each option given."""
    overrides = {f.name: parse_option(f.name, getattr(args, f.name)) for f in fields(TrainConfig)
                 if getattr(args, f.name, None) is not None}
    if args.config:
        return TrainConfig.load(args.config, **overrides)
    return TrainConfig.from_dict(overrides)  # what is not given takes the game's default, then the field's


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n\n")[0])
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


def config_or_total(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[TrainConfig | None, int | None]:
    """A new run's configuration, checked, or for ``--resume`` the ``--total-timesteps`` given (the run's own
    config.toml decides the rest); a bad value is a usage error."""
    try:
        if args.resume:
            total = args.total_timesteps
            return None, None if total is None else parse_option("total_timesteps", total)
        cfg = config_from_args(args)
        check_minibatch(cfg)
        check_config(cfg)
        return cfg, None
    except ValueError as err:
        parser.error(str(err))
        raise  # parser.error exits


def ignored_on_resume(args: argparse.Namespace) -> None:
    """Say on standard error which options given with ``--resume`` are ignored (all but --total-timesteps)."""
    ignored = [f"--{f.name.replace('_', '-')}" for f in fields(TrainConfig)
               if f.name != "total_timesteps" and getattr(args, f.name, None) is not None]
    ignored += ["--config"] if args.config else []
    if ignored:
        print(f"contack train: --resume continues with the run's own config.toml; ignoring {', '.join(ignored)} "
              "(only --total-timesteps applies)", file=sys.stderr)


def refuse_az_settings(parser: argparse.ArgumentParser, args: argparse.Namespace, trainer: str,
                       instead: tuple[frozenset[str], str] | None = None) -> None:
    """A usage error naming each setting of ``--algorithm az`` that ``args`` gives, which ``trainer`` (a PPO
    trainer) would otherwise ignore; ``instead``: options of the az trainer and what ``trainer`` takes in their
    place, said when any of them is given."""
    from .az import command as az_command
    from .az.config import AZConfig

    az_only = {f.name for f in fields(AZConfig)} - {f.name for f in fields(TrainConfig)} - {"algorithm"}
    wrong = az_command.given(args, az_only)
    if wrong:
        hint = f" ({instead[1]})" if instead and instead[0] & set(wrong) else ""
        parser.error(f"{', '.join(wrong)}: setting(s) of --algorithm az, not used by {trainer}{hint}")


def refuse_an_impossible_out(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error for an ``--out`` that can never be a run folder, as every command's ``--out`` has: empty, or
    (for a new run) a file or a path under one. A folder a run may not use is the trainer's to refuse."""
    if not args.out:  # "" is no path: no folder can be made or read there
        parser.error("--out is empty: name the run folder (default runs/train)")
    problem = None if args.resume else not_a_folder(args.out)
    if problem:
        parser.error(problem)


def run_from_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from .az import command as az_command
    from .az.config import AZConfig

    refuse_an_impossible_out(parser, args)
    if az_command.algorithm_of(args) == "az":
        return az_command.run_from_args(parser, args, {f.name for f in fields(TrainConfig)} - {f.name for f in fields(AZConfig)})
    refuse_az_settings(parser, args, "PPO")
    try:  # the folder first: a run that cannot write there is refused before anything else is done
        if args.resume:
            Run(args.out).check_resumable()
        else:
            check_new_run_folder(args.out)
    except TrainingError as err:
        print(f"contack train: {err}", file=sys.stderr)
        return 1
    cfg, total = config_or_total(parser, args)
    progress = {"auto": None, "on": True, "off": False}[args.progress]
    if args.resume:
        ignored_on_resume(args)
    try:
        with allocation_failures_as_memory_errors():
            path = train(cfg, args.out, resume=args.resume, progress=progress, total_timesteps=total)
    except STOPS as err:
        return report_stop(err, args.out, _kept, lambda e: cannot_write(args.out, e, "checkpoint.zip"), PPO_MEMORY)
    print(f"wrote {path}")
    from .evaluations import print_last_evaluation

    print_last_evaluation(Run(args.out).eval_csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
