"""What happens while ``contack train`` trains: progress bar, self-play snapshots, evaluation, checkpoints.

``TrainingMonitor`` is the Stable-Baselines3 callback that does it all by timestep; it evaluates through
``training.evaluations`` (``eval.csv``, its curve, its TensorBoard scalars). (A module of its own so that
importing ``training.train``, as the ``contack`` command line does, does not import torch.)
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger

from agents.progress import reporter
from contack_env.atomic import atomic_path

from .config import TrainConfig
from .evaluations import (draw_learning_curve, evaluate_policy_file, evaluation_scalars, next_due, next_evaluation,
                          read_csv)
from .games import TRAINING_GAMES
from .learner import export_policy, restart_streams
from .run_folder import Run


class TrainingMonitor(BaseCallback):
    """Progress bar, self-play snapshots, atomic checkpoints and periodic evaluation, by timestep."""

    def __init__(self, cfg: TrainConfig, run: Run, state: dict[str, Any], progress: bool | None,
                 final_timesteps: int | None = None) -> None:
        super().__init__(verbose=0)
        self.cfg = cfg
        self.run = run
        self.state = state
        self.progress = progress
        # What training will actually reach: PPO trains in whole rollouts, so total_timesteps rounded up.
        self.final = cfg.total_timesteps if final_timesteps is None else final_timesteps
        self.bar = None
        self.started = time.time()
        self.wall_before = float(state.get("wall_s", 0.0))
        # The state of the checkpoint on disk (None: none yet), which each new state.json holds as "previous"
        self.checkpointed = _copy(state) if "timesteps" in state else None

    def _on_training_start(self) -> None:
        t = self.num_timesteps
        self.shown = min(t, self.final)
        self.bar = reporter(self.final, self.progress, sys.stderr, "train", "step", initial=self.shown)
        self.next_snapshot = next_due(t, self.cfg.snapshot_every)
        self.next_checkpoint = next_due(t, self.cfg.checkpoint_every)
        self.next_eval = next_evaluation(t, self.cfg)
        if TRAINING_GAMES[self.cfg.game].self_play and not self.state["snapshots"]:
            self._snapshot()  # "self" plays the initial policy until the first snapshot is due
        if t == 0 and self.cfg.eval_every:
            self._evaluate()

    def _on_step(self) -> bool:
        t = self.num_timesteps
        self.bar.update(min(t, self.final) - self.shown)
        self.shown = min(t, self.final)
        return True

    def _on_rollout_start(self) -> None:
        # Snapshots, evaluations and checkpoints are taken between rollouts, after the update, so that each is of
        # the policy trained on the steps its timesteps count (a rollout's last step comes before its update).
        # The evaluation comes before the checkpoint: a kill between them repeats it on resume, never loses it.
        # At a checkpoint nothing of the run is held only in memory but the games in progress, and those are
        # restarted (with every random stream) exactly as a resumed run starts them, so a kill at any moment
        # costs time, never a difference in the run.
        t = self.num_timesteps
        if TRAINING_GAMES[self.cfg.game].self_play and t >= self.next_snapshot:
            self._snapshot()
            self.next_snapshot = next_due(t, self.cfg.snapshot_every)
        if self.next_eval is not None and t >= self.next_eval:
            self._evaluate()
            self.next_eval = next_evaluation(t, self.cfg)
        if t >= self.next_checkpoint:
            self._checkpoint()
            self.next_checkpoint = next_due(t, self.cfg.checkpoint_every)
            restart_streams(self.model, self.cfg, t)
            self.model._last_obs = self.training_env.reset()
            self.model._last_episode_starts = np.ones((self.training_env.num_envs,), dtype=bool)

    def finish(self, model: Any) -> None:
        """The final snapshot, policy, evaluation and checkpoint (once training reached total_timesteps), as at a
        rollout's start: a run extended with ``--resume --total-timesteps`` then goes on as an uninterrupted one."""
        self.model = model
        t = model.num_timesteps
        if TRAINING_GAMES[self.cfg.game].self_play and t >= getattr(self, "next_snapshot", t + 1):
            self._snapshot()
        done = [row for row in read_csv(self.run.eval_csv) if int(row["timesteps"]) == t]
        if self.cfg.eval_every and not done:
            self._evaluate()
        try:
            logger = model.logger
        except AttributeError:  # a finished run resumed: nothing was trained
            pass
        else:  # the last update's values: SB3's loop writes an update's values only before the next one
            logger.dump(step=int(t))
        self._checkpoint()
        if self.bar is not None:
            self.bar.close()

    def _snapshot(self) -> None:
        name = f"snap_{self.model.num_timesteps:010d}.npz"
        net = export_policy(self.model, self.cfg, os.path.join(self.run.snapshots, name))
        self.training_env.env_method("add_snapshot", net)
        self.state["snapshots"] = (self.state["snapshots"] + [name])[-self.cfg.keep_snapshots :]

    def _checkpoint(self) -> None:
        # Order matters for a kill at any moment. The snapshots are on disk already, so the state never names one
        # that is not. The state comes before the model (each replaced atomically) and holds the state of the
        # checkpoint still on disk as well: killed between the two, the run resumes from that checkpoint with its
        # own state (Run.state_at), never with a state of other timesteps.
        export_policy(self.model, self.cfg, self.run.policy)
        # The model's count, not the callback's: finish() can run without a step (a finished run resumed).
        self.state["timesteps"] = int(self.model.num_timesteps)
        self.state["wall_s"] = round(self.wall_before + time.time() - self.started, 1)  # all sessions of the run
        self.run.write_state({**self.state, "previous": self.checkpointed} if self.checkpointed else self.state)
        with atomic_path(self.run.checkpoint) as tmp:
            self.model.save(tmp)
        self.checkpointed = _copy(self.state)

    def _evaluate(self) -> None:
        path = os.path.join(self.run.out, "eval_policy.npz")
        export_policy(self.model, self.cfg, path)
        rows = evaluate_policy_file(path, int(self.model.num_timesteps), self.cfg, self.run.eval_csv)
        self._log_evaluation(rows)
        draw_learning_curve(self.run.eval_csv, self.run.curve, self.cfg)

    def _log_evaluation(self, rows: list[dict[str, Any]]) -> None:
        """The evaluation in TensorBoard at the timesteps eval.csv gives it. Written at once (left to SB3's dump
        at the end of the rollout it would land at a later step, and after the last rollout not at all), by a
        logger of its own on the run's writers: SB3's logger holds the values of the update just made, which SB3
        writes with the next rollout's statistics."""
        try:
            run_logger = self.model.logger
        except AttributeError:  # a finished run resumed: nothing was trained, so SB3 set up no logger
            return
        logger = Logger(run_logger.dir, run_logger.output_formats)
        for tag, value in evaluation_scalars(rows).items():
            logger.record(tag, value)
        logger.dump(step=int(self.model.num_timesteps))


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    """A run's state as a checkpoint keeps it: its own lists, and no state of a checkpoint before it."""
    return {key: list(value) if isinstance(value, list) else value for key, value in state.items() if key != "previous"}
