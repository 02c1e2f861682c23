"""The training loop of ``contack train --backend rllib [--resume]`` (``training.rllib.module`` has the PPO settings).

What a run writes in ``--out``:

    .contack-run              the run marker (``training.run_folder``), written first
    config.toml               the whole configuration (repeat with ``contack train --backend rllib --config FILE``)
    policy.npz                the learner's actor after the latest iteration, weights only (``ppo:DIR/policy.npz``)
    progress.csv              per iteration: timesteps, seconds, steps_per_s, episode_return_mean
    rllib_checkpoint_<T>/     RLlib's checkpoint after T timesteps (its learner, optimizer and env runners), with
                              ``contack_state.json`` (timesteps, snapshots, seconds so far, the run id, the
                              settings config.toml is held to): what ``--resume`` loads; only the latest is kept
    snapshots/snap_<T>.npz    the self-play snapshots, policy files
    eval.csv                  the evaluations against ``eval_opponents``: at 0, after the iteration that reaches
                              each multiple of ``eval_every``, and at the end (``training.evaluations``, as for
                              sb3 runs)
    eval_policy.npz           the policy of the latest evaluation
    learning_curve.png        eval.csv drawn
    tb/                       TensorBoard logs (``tensorboard --logdir DIR/tb``): per iteration the episode return,
                              steps per second and the learner's losses; the evaluations' win rates

RLlib trains in iterations of ``n_steps x n_envs`` env steps (each one a decision of the learner), so a run
trains ``total_timesteps`` rounded up to whole iterations (RLlib's env runners may sample a few steps more
than an iteration asks, at episode ends). Self-play as in sb3 runs: the pool's "self" plays the learner's
snapshots, the first at 0, then one every ``snapshot_every`` timesteps (the latest ``keep_snapshots``), which the
trainer sends to every environment of every env runner. Between iterations come, in this order, the snapshot,
the evaluation and the checkpoint that are due: a checkpoint at 0 (before the first iteration, so that a run
killed at any moment later can be resumed), one every ``checkpoint_every`` timesteps, and one at the end.

A checkpoint is written whole under a temporary name, flushed to disk, then renamed (a kill leaves the previous
checkpoint or the new one); the older one is removed after. ``--resume`` continues from the latest: the weights,
the optimizer and RLlib's counters come back, and so do the snapshots its state names; eval.csv and progress.csv
lose the rows after it. Its games and random streams start afresh from ``seed + timesteps``, so unlike an sb3
run a resumed rllib run is not the uninterrupted run update for update. RLlib's checkpoint holds pickled Python
objects: resume only runs you made. ``RAY_ADDRESS`` makes ``ray.init`` join a running cluster, where
``--env-runners K`` spreads the env runners.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
import time
import uuid
from contextlib import ExitStack
from typing import Any

from agents.policy_file import PolicyNet
from agents.progress import reporter
from contack_env.atomic import TEMPORARY_PREFIX, flush_tree, fsync_directory, write_text
from contack_env.checks import is_whole_number

from ..config import CHANGEABLE_ON_RESUME, TrainConfig, check_minibatch
from ..evaluations import (draw_learning_curve, evaluate_policy_file, evaluation_scalars, next_due, next_evaluation,
                           read_csv, trim_evaluations)
from ..run_folder import (CHECKPOINTS, RLLIB_CHECKPOINT, RLLIB_TEMPORARY, Run, TrainingError, check_new_run_folder,
                          check_resumable, check_settings_kept, claim_folder, folder_held, new_run_id, read_marker,
                          tensorboard_writer, write_marker)
from .env import LEARNER
from .export import policy_net
from .module import check_rllib_config, ppo_config

PROGRESS_HEADER = "timesteps,seconds,steps_per_s,episode_return_mean\n"
TRAINER = "RLlib PPO"
"""The trainer the learning curve's title names."""
LEARNER_SCALARS = ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var", "total_loss")
"""The learner's statistics of an iteration that go to TensorBoard, as ``train/<name>``."""
STATE = "contack_state.json"
"""The run's state at a checkpoint, inside the checkpoint folder (so the two are never out of step)."""


class RLlibRun(Run):
    """The files of one ``--backend rllib`` run folder (``Run``'s, and the checkpoint folders)."""

    def __init__(self, out: str) -> None:
        super().__init__(out)
        self.progress = os.path.join(out, "progress.csv")

    @property
    def own_files(self) -> tuple[str, ...]:
        return (*super().own_files, self.progress)

    def checkpoints(self) -> list[str]:
        """The checkpoint folders, oldest first (a kill before the older one was removed leaves two)."""
        try:
            names = os.listdir(self.out)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return sorted(name for name in names if RLLIB_CHECKPOINT.fullmatch(name))

    def latest(self) -> str:
        """The path of the latest checkpoint folder (a name that does not exist when there is none)."""
        names = self.checkpoints()
        return os.path.join(self.out, names[-1] if names else "rllib_checkpoint_<timesteps>")

    def read_state(self) -> dict[str, Any]:
        """The latest checkpoint's state; a damaged one raises ``TrainingError``."""
        path = os.path.join(self.latest(), STATE)
        try:
            with open(path, encoding="utf-8") as f:
                state = json.load(f)
            steps, snapshots = state["timesteps"], state["snapshots"]
            if not is_whole_number(steps) or steps < 0 or not isinstance(snapshots, list):
                raise ValueError("timesteps or snapshots of the wrong kind")
            return state
        except (OSError, KeyError, TypeError, ValueError) as err:
            raise TrainingError(f"{path} is damaged or missing ({err}): the checkpoint cannot be resumed") from None

    def check_resumable(self) -> str | None:
        """``check_resumable`` for this run's folder: its marker, its latest checkpoint and that checkpoint's
        state; returns the run id. A folder of the other trainers, or an rllib run made before such runs kept
        checkpoints, is refused saying so."""
        marked = os.path.isdir(self.out) and read_marker(self.out) is not None  # a marker not ours stops here
        names = set(os.listdir(self.out)) if marked and not self.checkpoints() else set()
        other = next((name for name in CHECKPOINTS if name in names), None)
        if other is not None:
            trainer = "--algorithm az" if other == "checkpoint.pt" else "the default (sb3) backend"
            raise TrainingError(f"nothing to resume in {self.out} for --backend rllib: it holds a run of {trainer} "
                                f"({other}): continue it without --backend rllib")
        if "progress.csv" in names:
            raise TrainingError(f"{self.out} holds a --backend rllib run with no checkpoint (made before such runs "
                                "kept checkpoints), which cannot be continued: its policy.npz is what it made")
        return check_resumable(self.out, self.latest(), self.config, os.path.join(self.latest(), STATE),
                               self.read_state)

    def remove_stale(self, keep: str) -> None:
        """The checkpoint folders other than ``keep`` and those a kill left half-written: only in a folder
        marked as a run's, and only names a run writes."""
        if read_marker(self.out) is None:
            return
        for name in os.listdir(self.out):
            if (RLLIB_CHECKPOINT.fullmatch(name) and name != keep) or RLLIB_TEMPORARY.fullmatch(name):
                shutil.rmtree(os.path.join(self.out, name), ignore_errors=True)


def export_policy(algo: Any, cfg: TrainConfig, timesteps: int) -> PolicyNet:
    """The learning module's actor as a ``PolicyNet`` with the run's metadata."""
    meta = {"game": cfg.game, "players": cfg.players, "features": cfg.features, "trained_steps": int(timesteps),
            "backend": "rllib", "config": cfg.to_dict()}
    return policy_net(algo.get_module(LEARNER), meta)


def send_to_envs(algo: Any, method: str, net: PolicyNet) -> None:
    """Call ``method(net)`` on every environment of every env runner (the local one too)."""
    def call(runner: Any) -> None:
        vector = getattr(runner, "env", None)
        for env in getattr(vector, "envs", None) or []:
            getattr(env.unwrapped, method)(net)

    algo.env_runner_group.foreach_env_runner(call)


def env_steps(result: dict[str, Any], before: int) -> int:
    """The env steps sampled so far (``before`` when an iteration reports none: its env runners returned no
    samples within RLlib's ``sample_timeout_s`` on a loaded machine)."""
    return int(result.get("num_env_steps_sampled_lifetime", before))


def iteration_scalars(result: dict[str, Any], rate: float) -> dict[str, float]:
    """An iteration's TensorBoard scalars from RLlib's result (those it reports)."""
    scalars = {"time/steps_per_s": rate}
    ret = result.get("env_runners", {}).get("episode_return_mean")
    if ret is not None:
        scalars["rollout/episode_return_mean"] = float(ret)
    stats = result.get("learners", {}).get(LEARNER, {})
    for name in LEARNER_SCALARS:
        if isinstance(stats.get(name), (int, float)):
            scalars[f"train/{name}"] = float(stats[name])
    return scalars


def log_scalars(writer: Any, scalars: dict[str, float], steps: int) -> None:
    for tag, value in scalars.items():
        writer.add_scalar(tag, value, steps)
    writer.flush()


def trim_progress(run: RLlibRun, steps: int) -> str:
    """progress.csv without the rows after ``steps`` (a killed session's, made again), as text."""
    try:
        with open(run.progress, newline="", encoding="utf-8") as f:
            rows = [row for row in csv.DictReader(f) if int(row["timesteps"]) <= steps]
    except FileNotFoundError:
        rows = []
    except (ValueError, KeyError, TypeError):
        raise TrainingError(f"{run.progress} is damaged; remove it to resume (the run's other files hold "
                            "its results)") from None
    text = PROGRESS_HEADER + "".join(f"{r['timesteps']},{r['seconds']},{r['steps_per_s']},"
                                     f"{r['episode_return_mean']}\n" for r in rows)
    write_text(run.progress, text)
    return text


class _Session:
    """One session of a run: the algorithm, its writers and what the loop takes between iterations."""

    def __init__(self, cfg: TrainConfig, run: RLlibRun, algo: Any, writer: Any, state: dict[str, Any],
                 progress_rows: str) -> None:
        self.cfg, self.run, self.algo, self.writer, self.state = cfg, run, algo, writer, state
        self.rows = progress_rows
        self.started = time.perf_counter()
        self.wall_before = float(state.get("wall_s", 0.0))

    @property
    def wall_s(self) -> float:
        return self.wall_before + time.perf_counter() - self.started

    def snapshot(self, net: PolicyNet) -> None:
        name = f"snap_{int(net.meta['trained_steps']):010d}.npz"
        net.save(os.path.join(self.run.snapshots, name))
        send_to_envs(self.algo, "add_snapshot", net)
        self.state["snapshots"] = (self.state["snapshots"] + [name])[-self.cfg.keep_snapshots:]

    def evaluate(self, net: PolicyNet) -> None:
        """Evaluate ``net`` as an sb3 run does: eval.csv, the curve, TensorBoard."""
        steps = int(net.meta["trained_steps"])
        path = os.path.join(self.run.out, "eval_policy.npz")
        net.save(path)
        rows = evaluate_policy_file(path, steps, self.cfg, self.run.eval_csv)
        draw_learning_curve(self.run.eval_csv, self.run.curve, self.cfg, trainer=TRAINER)
        log_scalars(self.writer, evaluation_scalars(rows), steps)

    def checkpoint(self, steps: int) -> None:
        """Write ``rllib_checkpoint_<steps>`` whole under a temporary name, flushed, then rename it; then remove
        the older one. The state inside names only snapshots already on disk."""
        name = f"rllib_checkpoint_{steps:010d}"
        if name in self.run.checkpoints():
            return  # a finished run resumed: nothing trained since
        tmp = os.path.join(self.run.out, f"{TEMPORARY_PREFIX}{uuid.uuid4().hex[:8]}{name}")
        self.algo.save_to_path(os.path.abspath(tmp))
        self.state.update(timesteps=steps, wall_s=round(self.wall_s, 1), run_id=read_marker(self.run.out))
        write_text(os.path.join(tmp, STATE), json.dumps(self.state, indent=1))
        flush_tree(tmp)
        os.rename(tmp, os.path.join(self.run.out, name))
        fsync_directory(self.run.out)
        self.run.remove_stale(keep=name)

    def iteration(self, steps: int, bar: Any) -> tuple[int, PolicyNet]:
        """Train one iteration from ``steps``; write the policy, progress.csv's row and TensorBoard's; return
        the steps now done and the policy."""
        tick = time.perf_counter()
        result = self.algo.train()
        done = env_steps(result, steps)
        rate = (done - steps) / max(time.perf_counter() - tick, 1e-9)
        net = export_policy(self.algo, self.cfg, done)
        net.save(self.run.policy)
        ret = result.get("env_runners", {}).get("episode_return_mean", float("nan"))
        self.rows += f"{done},{self.wall_s:.1f},{rate:.1f},{ret:.4f}\n"
        write_text(self.run.progress, self.rows)
        log_scalars(self.writer, iteration_scalars(result, rate), done)
        bar.set_postfix(steps_per_s=f"{rate:.0f}", episode_return_mean=f"{ret:.3f}")
        total = self.cfg.total_timesteps
        bar.update(min(done, total) - min(steps, total))
        return done, net


def train(cfg: TrainConfig | None, out: str, env_runners: int = 0, progress: bool | None = None, resume: bool = False,
          total_timesteps: int | None = None) -> str:
    """Train as ``cfg`` says, or with ``resume`` continue the run in ``out`` from its latest checkpoint with the
    run's own config.toml (to ``total_timesteps`` if given); return the path of the policy file written."""
    with ExitStack() as held:  # the run folder, once the run may use it (training.run_folder.folder_held)
        return _train(cfg, out, env_runners, progress, resume, total_timesteps, held)


def _train(cfg: TrainConfig | None, out: str, env_runners: int, progress: bool | None, resume: bool,
           total_timesteps: int | None, held: ExitStack) -> str:
    import ray
    import torch
    from ray.exceptions import RayError

    from ..train import extend_total

    run = RLlibRun(out)
    if resume:
        run_id = run.check_resumable()
        held.enter_context(folder_held(out))  # before anything is read: no other run changes the folder meanwhile
        checkpoint = run.latest()
        state = run.read_state()
        cfg = TrainConfig.load(run.config)
        read_csv(run.eval_csv)  # a damaged eval.csv stops here, before the training it would have failed
        extended = extend_total(cfg, state["timesteps"], total_timesteps)
        check_settings_kept(run.config, state.get("config"), cfg.to_dict(), CHANGEABLE_ON_RESUME)
    elif cfg is None:
        raise TrainingError("a new run needs a configuration")
    else:
        check_new_run_folder(out)  # a run of this backend (a checkpoint, or an older run's progress.csv) too
        check_minibatch(cfg)
        state = {"timesteps": 0, "snapshots": []}
        extended = None
    check_rllib_config(cfg)
    state["config"] = cfg.to_dict()  # what --resume holds config.toml to (a total it extended included)
    steps = int(state["timesteps"])
    if not resume:
        held.enter_context(folder_held(out))  # before any file of the folder changes
        check_new_run_folder(out)  # again, held: a run that ended meanwhile may have left its checkpoint there
        run.remove_leftovers()
        claim_folder(out, new_run_id())
        cfg.save(run.config, backend="rllib")
    os.makedirs(run.snapshots, exist_ok=True)
    torch.set_num_threads(cfg.torch_threads)  # the learner's (and the local env runner's) process
    started_ray = not ray.is_initialized()
    if started_ray:  # RAY_ADDRESS, when set, joins that cluster
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                 configure_logging=False)
    # A resumed session plays new games: its env runners and bots are seeded from seed + timesteps.
    try:
        algo = ppo_config(cfg, env_runners, seed=cfg.seed + steps).build_algo()
    except BaseException:  # the Ray this run started goes with it, as after the run below
        if started_ray:
            ray.shutdown()
        raise
    writer = None
    try:
        rows = PROGRESS_HEADER
        if resume:
            try:
                algo.restore_from_path(os.path.abspath(checkpoint))
            except (MemoryError, RayError):
                raise  # the machine or Ray failed, not the checkpoint
            except Exception as err:  # RLlib unpickles its state: a damaged file can raise anything
                raise TrainingError(f"{checkpoint} cannot be restored into the run of {run.config} "
                                    f"({type(err).__name__}: {err}); the run's files are as they were") from err
            # Only now, the checkpoint loaded, are the run's files changed: a resume that fails leaves them.
            run.remove_temporaries()
            if run_id is None:  # the marker was lost (a folder copied without its dot-files): the run's own id
                write_marker(out, state.get("run_id") or new_run_id())
            run.remove_stale(keep=os.path.basename(checkpoint))
            trim_evaluations(run, steps, cfg, trainer=TRAINER)
            rows = trim_progress(run, steps)
            for name in state["snapshots"]:
                send_to_envs(algo, "add_snapshot", PolicyNet.load(os.path.join(run.snapshots, name)))
            cfg.save(run.config, backend="rllib")
            if extended:
                print(extended, file=sys.stderr)
        writer = tensorboard_writer(run.tensorboard)
        session = _Session(cfg, run, algo, writer, state, rows)
        net = export_policy(algo, cfg, steps)
        if not resume:
            net.save(run.policy)
            session.snapshot(net)  # "self" plays the initial policy until the first snapshot is due
            if cfg.eval_every:
                session.evaluate(net)
            # A checkpoint before the first iteration: a run killed at any moment after it has one to resume
            # (and a folder holding an rllib run's progress.csv but no checkpoint is one made before checkpoints).
            session.checkpoint(0)
        # As an sb3 run shows it: a bar on a terminal, elsewhere a line every 30 seconds (agents.progress).
        bar = reporter(cfg.total_timesteps, progress, sys.stderr, "train", "step",
                       initial=min(steps, cfg.total_timesteps))
        next_snapshot, next_checkpoint = next_due(steps, cfg.snapshot_every), next_due(steps, cfg.checkpoint_every)
        next_eval = next_evaluation(steps, cfg)
        while steps < cfg.total_timesteps:
            steps, net = session.iteration(steps, bar)
            if steps >= cfg.total_timesteps:
                break  # the end's snapshot, evaluation and checkpoint come below
            if steps >= next_snapshot:
                session.snapshot(net)
                next_snapshot = next_due(steps, cfg.snapshot_every)
            if next_eval is not None and steps >= next_eval:
                session.evaluate(net)
                next_eval = next_evaluation(steps, cfg)
            if steps >= next_checkpoint:
                session.checkpoint(steps)
                next_checkpoint = next_due(steps, cfg.checkpoint_every)
        # The end, as between iterations: a run extended with --resume --total-timesteps goes on from here.
        if steps >= next_snapshot:
            session.snapshot(net)
        if cfg.eval_every and not any(int(r["timesteps"]) == steps for r in read_csv(run.eval_csv)):
            session.evaluate(net)
        session.checkpoint(steps)
        bar.close()
    finally:
        if writer is not None:
            writer.close()
        algo.stop()
        if started_ray:
            ray.shutdown()
    return run.policy

