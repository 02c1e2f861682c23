"""What happens while ``contack train`` trains: progress bar, self-play snapshots, evaluation, checkpoints.

``TrainingMonitor`` is the Stable-Baselines3 callback that does it all by timestep; ``evaluate_policy`` plays
the current policy against the bots over whole games (``agents.evaluate``) and appends to ``eval.csv``;
``draw_learning_curve`` draws that file. (A module of its own so that importing ``training.train``, as the
``contack`` command line does, does not import torch.)

``eval.csv`` has one row per evaluation and measured agent, with the columns ``CSV_FIELDS``:
``timesteps`` (learner decisions so far), ``opponent`` (the bot in every other seat; ``-`` in a solitaire),
``games``, ``win_rate`` with its 95% interval ``ci_low``..``ci_high``, ``mean_score``, ``mean_margin``
(Contack), ``wall_s`` (seconds the evaluation took), ``agent`` (``policy``: the learner; for a solitaire also
each bot of ``eval_opponents``, played alone on the same deals as the policy, for reference) and ``mean_tiles``
(solitaires: tiles placed, out of 36; what a solitaire policy is trained on by default).
"""

from __future__ import annotations

import csv
import os
import sys
import time
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger

from agents.progress import reporter
from contack_env.atomic import atomic_path, open_atomic

from .config import TrainConfig
from .games import ALONE, COLOURS, TRAINING_GAMES
from .learner import export_policy, restart_streams
from .run_folder import Run

CSV_FIELDS = ("timesteps", "opponent", "games", "win_rate", "ci_low", "ci_high", "mean_score", "mean_margin", "wall_s",
              "agent", "mean_tiles")  # the last two came later: at the end, so reading by position still works
POLICY = "policy"
"""The ``agent`` of the rows that measure the learner."""
EVAL_SEED_OFFSET = 1_000_000  # evaluation deals never coincide with the training seed's first deals


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

    def _on_training_start(self) -> None:
        t = self.num_timesteps
        self.shown = min(t, self.final)
        self.bar = reporter(self.final, self.progress, sys.stderr, "train", "step", initial=self.shown)
        self.next_snapshot = _next(t, self.cfg.snapshot_every)
        self.next_checkpoint = _next(t, self.cfg.checkpoint_every)
        self.next_eval = self._next_eval(t)
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
            self.next_snapshot = _next(t, self.cfg.snapshot_every)
        if self.next_eval is not None and t >= self.next_eval:
            self._evaluate()
            self.next_eval = self._next_eval(t)
        if t >= self.next_checkpoint:
            self._checkpoint()
            self.next_checkpoint = _next(t, self.cfg.checkpoint_every)
            restart_streams(self.model, self.cfg, t)
            self.model._last_obs = self.training_env.reset()
            self.model._last_episode_starts = np.ones((self.training_env.num_envs,), dtype=bool)

    def _next_eval(self, t: int) -> int | None:
        """The next periodic evaluation after ``t``; None when it would fall at or past total_timesteps, where
        the final evaluation (at the steps actually trained) takes its place: one evaluation per point."""
        if not self.cfg.eval_every:
            return None
        due = _next(t, self.cfg.eval_every)
        return due if due < self.cfg.total_timesteps else None

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
        # Order matters for a kill at any moment: the policy and the model first (each replaced atomically),
        # the state last, so the state never names a snapshot that is not on disk.
        export_policy(self.model, self.cfg, self.run.policy)
        with atomic_path(self.run.checkpoint) as tmp:
            self.model.save(tmp)
        # The model's count, not the callback's: finish() can run without a step (a finished run resumed).
        self.state["timesteps"] = int(self.model.num_timesteps)
        self.state["wall_s"] = round(self.wall_before + time.time() - self.started, 1)  # all sessions of the run
        self.run.write_state(self.state)

    def _evaluate(self) -> None:
        rows = evaluate_policy(self.model, self.cfg, self.run)
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
        for row in rows:
            if row["agent"] != POLICY:
                continue
            if row["opponent"] == "-":  # a solitaire
                logger.record("eval/win_rate", row["win_rate"])
                logger.record("eval/mean_tiles", row["mean_tiles"])
            else:
                logger.record(f"eval/win_rate_vs_{row['opponent']}", row["win_rate"])
        logger.dump(step=int(self.model.num_timesteps))


def _thousands(x: float, _: Any = None) -> str:
    """Axis labels that stay short: 150k, 1.5M (and 64, 192 for a short run)."""
    if abs(x) >= 1e6:
        return f"{x / 1e6:g}M"
    return f"{x / 1e3:g}k" if abs(x) >= 1e3 else f"{x:g}"


def _draw_solitaire(wins: Any, tiles: Any, rows: list[dict[str, str]]) -> None:
    """The policy's win rate and tiles placed, and each reference bot's on the same deals (dashed); one colour per
    agent in both panels. Rows from before the tiles column (an older run, resumed) are left out of that panel."""
    for i, agent in enumerate(dict.fromkeys(r["agent"] for r in rows)):
        mine = [r for r in rows if r["agent"] == agent]
        xs = [int(r["timesteps"]) for r in mine]
        style = dict(marker="o", markersize=3) if agent == POLICY else dict(linestyle="--", linewidth=1)
        style["color"] = f"C{i}"
        label = "trained policy" if agent == POLICY else agent
        wins.plot(xs, [float(r["win_rate"]) for r in mine], label=label, **style)
        if agent == POLICY:
            wins.fill_between(xs, [float(r["ci_low"]) for r in mine], [float(r["ci_high"]) for r in mine], alpha=0.2,
                              color=style["color"])
        placed = [(x, float(r["mean_tiles"])) for x, r in zip(xs, mine) if r.get("mean_tiles")]
        if placed:
            tiles.plot(*zip(*placed), label=label, **style)
    wins.set_ylim(bottom=0)
    tiles.set_ylim(0, 36)
    tiles.set_ylabel("tiles placed (of 36), mean")


def _next(t: int, every: int) -> int:
    return (t // every + 1) * every


# -- evaluation during training --------------------------------------------------------------------------------
def evaluate_policy(model: Any, cfg: TrainConfig, run: Run) -> list[dict[str, Any]]:
    """Evaluate the current policy over whole games (``agents.evaluate``), append the rows to eval.csv."""
    from agents.evaluate import evaluate

    path = os.path.join(run.out, "eval_policy.npz")
    export_policy(model, cfg, path)
    spec = f"ppo:{path}"
    started = time.time()
    rows = []
    seed = cfg.seed + EVAL_SEED_OFFSET
    kind = TRAINING_GAMES[cfg.game].evaluation
    if kind == COLOURS:
        games = max(2, cfg.eval_games + cfg.eval_games % 2)  # each deal is played twice, the colours swapped
        for opponent in cfg.eval_opponents:
            ev = evaluate([spec, opponent], games, seed, game=cfg.game, board_size=cfg.board_size)
            rows.append(_row(model, opponent, ev.entries[0], started))
    elif kind == ALONE:
        # A solitaire has no opponent: the reference bots play the same deals alone, and their rows say how the
        # policy compares (random and greedy placement by default).
        ev = evaluate([spec, *cfg.eval_opponents], cfg.eval_games, seed, game=cfg.game)
        for name, entry in zip([POLICY, *cfg.eval_opponents], ev.entries):
            rows.append(_row(model, "-", entry, started, agent=name))
    else:  # SEATS: the policy in one seat, the bot in all the others, over every seat rotation
        for opponent in cfg.eval_opponents:
            agents = [spec] + [opponent] * (cfg.players - 1)
            games = -(-cfg.eval_games // cfg.players) * cfg.players
            ev = evaluate(agents, games, seed, game=cfg.game, players=cfg.players, hands=cfg.hands,
                          enclosed_end=cfg.enclosed_end)
            rows.append(_row(model, opponent, ev.entries[0], started))
    write_rows(run.eval_csv, read_csv(run.eval_csv) + rows)
    return rows


def write_rows(path: str, rows: list[dict[str, Any]]) -> None:
    """eval.csv with ``rows`` (``read_csv``'s or ``_row``'s), replaced atomically; a column missing from rows of
    an older file is written empty."""
    with open_atomic(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def _row(model: Any, opponent: str, entry: Any, started: float, agent: str = POLICY) -> dict[str, Any]:
    return {
        "timesteps": int(model.num_timesteps),
        "agent": agent,
        "opponent": opponent,
        "games": entry.games,
        "win_rate": round(entry.win_rate, 4),
        "ci_low": round(entry.win_rate_ci95[0], 4),
        "ci_high": round(entry.win_rate_ci95[1], 4),
        "mean_score": round(entry.mean_score, 2),
        "mean_margin": "" if entry.mean_margin is None else round(entry.mean_margin, 2),
        "mean_tiles": "" if entry.mean_tiles_placed is None else round(entry.mean_tiles_placed, 2),
        "wall_s": round(time.time() - started, 1),
    }


def trim_evaluations(run: Run, timesteps: int, cfg: TrainConfig) -> None:
    """Drop the eval.csv rows after ``timesteps`` (a killed session evaluated past its last checkpoint; the
    resumed run evaluates those timesteps again) and redraw the curve."""
    rows = read_csv(run.eval_csv)
    kept = [row for row in rows if int(row["timesteps"]) <= timesteps]
    if len(kept) == len(rows):
        return
    write_rows(run.eval_csv, kept)
    draw_learning_curve(run.eval_csv, run.curve, cfg)


def read_csv(path: str) -> list[dict[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return [{**row, "agent": row.get("agent") or POLICY} for row in csv.DictReader(f)]
    except FileNotFoundError:
        return []


def draw_learning_curve(csv_path: str, png_path: str, cfg: TrainConfig) -> None:
    """eval.csv as a PNG: the policy's win rate (with its 95% interval) against timesteps, one line per opponent;
    for a solitaire, also the tiles placed, with the reference bots' results on the same deals as dashed lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_csv(csv_path)
    game = TRAINING_GAMES[cfg.game]
    what = game.title(cfg)
    solitaire = game.evaluation == ALONE
    fig, axes = plt.subplots(1, 2 if solitaire else 1, figsize=(10.4 if solitaire else 6.4, 3.8), squeeze=False)
    ax = axes[0][0]
    if solitaire:
        _draw_solitaire(ax, axes[0][1], rows)
    else:
        for opponent in dict.fromkeys(r["opponent"] for r in rows):
            mine = [r for r in rows if r["opponent"] == opponent]
            xs = [int(r["timesteps"]) for r in mine]
            ax.plot(xs, [float(r["win_rate"]) for r in mine], marker="o", markersize=3, label=f"vs {opponent}")
            ax.fill_between(xs, [float(r["ci_low"]) for r in mine], [float(r["ci_high"]) for r in mine], alpha=0.2)
        ax.axhline(1 / cfg.players, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{cfg.players}")
        ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    fig.suptitle(f"MaskablePPO on {what}: evaluation over {cfg.eval_games} {'deals' if solitaire else 'games'}",
                 fontsize=10)
    for a in axes[0]:
        a.xaxis.set_major_formatter(_thousands)
        a.set_xlabel("timesteps (learner decisions)")
        a.grid(alpha=0.3)
        a.legend(fontsize=8, loc="best" if solitaire else "lower right")
    fig.tight_layout()
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)
