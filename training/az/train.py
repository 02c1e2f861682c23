"""The search-guided training run: ``contack train --algorithm az [--config FILE] [--out DIR] [--resume] ...``.

A run with ``pretrain_games`` first trains the network on that many games of a bot (``pretrain_teacher``)
(``training.az.pretrain``) and checkpoints it as iteration 0. Each iteration plays ``games_per_iteration``
self-play games (``training.az.selfplay``, over ``workers`` processes or, with ``ray``, Ray tasks,
``parallel_games`` at a time in each, every seat searched with ``sims`` simulations), adds their samples to a
buffer of the latest ``buffer_size``, and trains the torch network on batches drawn from it (``sample_reuse``
draws per new sample on average; AdamW with ``weight_decay``, policy cross-entropy plus ``value_weight`` times
the value loss). The next iteration plays with the new weights.

What a run writes in ``--out`` (default ``runs/train``, as for PPO), in a folder that is new, empty or a run's
(``training.run_folder``: a folder holding anything else is refused before any work, and a run removes only what
a run of ours wrote):

    .contack-run         the run marker (its run id), written first
    config.toml          the whole configuration (``--config`` it to repeat the run)
    policy.npz           the latest network, weights only (``az:DIR/policy.npz``; agents.az.network)
    checkpoint.pt        the torch network and optimizer state with the iteration, written atomically (what
                         --resume loads, with ``torch.load(weights_only=True)``: no pickled objects)
    buffer.npz           the sample buffer at that checkpoint (compressed arrays, read without pickle);
                         while a checkpoint is written, the last one's is kept as buffer_previous.npz
    state.json           iterations, self-play games and wall-clock seconds so far, after each checkpoint, the
                         run id and the settings (what --resume holds config.toml to)
    eval.csv             the periodic evaluations (training.az.report)
    eval_policy.npz      the network of the latest evaluation, as its games played it
    learning_curve.png   eval.csv drawn
    tb/                  TensorBoard logs (``tensorboard --logdir DIR/tb``)

``--resume`` continues from the last checkpoint with the run's own config.toml (only ``--iterations`` is read,
to extend a finished run; a setting edited by hand in config.toml since the run started is refused, but for
``iterations`` and ``ray``: ``training.run_folder.check_settings_kept``). Every random stream restarts from the seed and the iteration, and the sample buffer
comes back from ``buffer.npz``, so a resumed run trains exactly the network the uninterrupted run would have. A
checkpoint without its buffer (a file removed to save space) still resumes: the buffer then refills from fresh
self-play, reproducibly but not identically, and the run says so. A new run refuses a folder holding a
checkpoint.
"""

from __future__ import annotations

import math
import os
import pickle
import sys
import time
from contextlib import ExitStack
from typing import Any

import numpy as np

from contack_env.atomic import open_atomic
from contack_env.games import get_game
from ..run_folder import (Run, TrainingError, cannot_read, check_new_run_folder, check_settings_kept, claim_folder,
                          folder_held, new_run_id, read_marker, read_state_file, tensorboard_writer, write_marker)
from ..evaluations import EVAL_SEED_OFFSET
from . import report
from .config import CHANGEABLE_ON_RESUME, AZConfig
from agents.az.encoding import Encoder
from agents.policy_file import ARCHIVE_READ_ERRORS
from agents.progress import reporter
from .selfplay import SAMPLE_FIELDS, GameSetup, Samples, SelfPlay


class AZTrainingError(TrainingError):
    """A run that cannot start or resume, with what to do about it."""


class AZRun(Run):
    """The files of one ``--algorithm az`` run folder: ``Run``'s, with a torch checkpoint and the sample buffer
    (and no snapshots)."""

    def __init__(self, out: str) -> None:
        super().__init__(out)
        self.eval_policy = os.path.join(out, "eval_policy.npz")
        self.checkpoint = os.path.join(out, "checkpoint.pt")
        self.buffer = os.path.join(out, "buffer.npz")
        self.previous_buffer = os.path.join(out, "buffer_previous.npz")

    @property
    def own_files(self) -> tuple[str, ...]:
        return (*super().own_files, self.buffer, self.previous_buffer)

    def restore_buffer(self, learner: "Learner", iteration: int) -> str | None:
        """Load the buffer of the checkpoint at ``iteration`` into ``learner``: ``buffer.npz``, or the one kept
        aside while a later checkpoint was being written, which a kill then left (``_checkpoint``). The file it
        came from; None if neither is that iteration's."""
        return next((path for path in (self.buffer, self.previous_buffer) if learner.load_buffer(path, iteration)),
                    None)

    def settle_buffers(self, restored: str | None) -> None:
        """After a resume has loaded (the buffer from ``restored``): the checkpoint's buffer under its own name, and
        no other (a buffer of a later iteration, written before a kill, belongs to no checkpoint)."""
        if restored == self.previous_buffer:
            os.replace(self.previous_buffer, self.buffer)
        elif os.path.exists(self.previous_buffer):
            os.remove(self.previous_buffer)

    def read_state(self) -> dict[str, Any]:
        return read_state_file(self.state, {}, "remove it to resume")

    def write_state(self, state: dict[str, Any]) -> None:
        # whose state it is: --resume checks it with the marker
        super().write_state({**state, "run_id": read_marker(self.out)})

    def checkpoint_iteration(self) -> int | None:
        """The iteration of the last checkpoint, which ``--resume`` continues from (None: no checkpoint yet).
        Read from the checkpoint, not from state.json: a run stopped between the two has the later one here."""
        if not os.path.exists(self.checkpoint):
            return None
        import torch

        return int(torch.load(self.checkpoint, weights_only=True, map_location="cpu")["iteration"])


class Learner:
    """The torch network, its optimizer and the sample buffer."""

    def __init__(self, cfg: AZConfig) -> None:
        import torch

        from .model import AZModel

        torch.manual_seed(cfg.seed)
        self.cfg = cfg
        self.encoder = enc = Encoder(cfg.game, cfg.features, cfg.rule_options())
        gather = None
        if enc.factored:
            from contack_env.envs.observation import action_feature_index

            # Each action's row: what it places where, then its extra inputs (the lookahead judgement).
            gather = np.concatenate([action_feature_index(), enc.extra_index()], axis=1)
        self.model = AZModel(enc.obs_size, enc.num_actions, enc.seats, list(cfg.net_arch), cfg.activation, gather)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
        self.buffer: Samples | None = None

    def add(self, samples: Samples) -> None:
        merged = samples if self.buffer is None else Samples.concat([self.buffer, samples])
        keep = self.cfg.buffer_size
        if len(merged) > keep:
            merged = Samples(*(getattr(merged, k)[-keep:] for k in SAMPLE_FIELDS))
        self.buffer = merged

    def train(self, new_samples: int, rng: np.random.Generator) -> dict[str, float]:
        """Batches drawn from the buffer, ``sample_reuse`` draws per new sample on average; mean losses."""
        buf = self.buffer
        if buf is None or not len(buf):
            return {}
        steps = max(1, math.ceil(new_samples * self.cfg.sample_reuse / self.cfg.batch_size))
        size = min(self.cfg.batch_size, len(buf))
        totals = self._steps(buf, (rng.integers(len(buf), size=size) for _ in range(steps)))
        return {"loss/policy": float(totals[0]), "loss/value": float(totals[1]), "train/steps": float(steps)}

    def set_learning_rate(self, rate: float) -> None:
        for group in self.optimizer.param_groups:
            group["lr"] = rate

    def fit(self, samples: Samples, epochs: int, rng: np.random.Generator, progress: Any = None) -> list[np.ndarray]:
        """``epochs`` passes over ``samples``, each in a new shuffled order, in batches of ``batch_size``
        (pretraining, ``training.az.pretrain``); each pass's mean policy and value losses. ``progress`` (an
        ``agents.progress.reporter``) is advanced once a batch."""
        size = self.cfg.batch_size
        out = []
        for _ in range(epochs):
            order = rng.permutation(len(samples))
            batches = (np.sort(order[i : i + size]) for i in range(0, len(order), size))
            out.append(self._steps(samples, batches, progress))
        return out

    def _steps(self, source: Samples, batches: Any, progress: Any = None) -> np.ndarray:
        """One optimizer step per batch of ``source``'s row indices; the mean policy and value losses."""
        import torch

        from .model import loss

        self.model.train()
        totals, steps = np.zeros(2), 0
        for idx in batches:
            batch = [torch.as_tensor(getattr(source, k)[idx]) for k in SAMPLE_FIELDS]
            policy_loss, value_loss = loss(self.model, *batch)
            total = policy_loss + self.cfg.value_weight * value_loss
            self.optimizer.zero_grad()
            total.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
            self.optimizer.step()
            totals += [policy_loss.item(), value_loss.item()]
            steps += 1
            if progress is not None:
                progress.update(1)
        return totals / max(1, steps)

    def export(self, meta: dict[str, Any]) -> Any:
        """The numpy network; its file says the game, inputs and horizon it was built for, and ``meta``."""
        self.model.eval()
        cfg = self.cfg
        return self.model.export({"game": cfg.game, "features": cfg.features, "horizon": cfg.horizon,
                                  "rollout": cfg.play_rollout, "leaf_moves": cfg.play_leaf_moves, **meta})

    def save(self, path: str, iteration: int, games: int) -> None:
        import torch

        # Through a file object: torch names the archive inside after a path, and the temporary one is random
        with open_atomic(path, "wb") as f:
            torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                        "iteration": iteration, "games": games}, f)

    def save_buffer(self, path: str, iteration: int) -> None:
        """The sample buffer, compressed (the observations are mostly zeros), with the iteration it belongs to."""
        buf = self.buffer
        arrays = {k: getattr(buf, k) for k in SAMPLE_FIELDS} if buf is not None else {}
        with open_atomic(path, "wb") as f:
            np.savez_compressed(f, iteration=np.int64(iteration), **arrays)

    def load_buffer(self, path: str, iteration: int) -> bool:
        """Restore the buffer ``save_buffer`` wrote at ``iteration``; False (buffer left empty) if there is none,
        or it belongs to another iteration."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["iteration"]) != iteration:
                    return False
                if SAMPLE_FIELDS[0] in data.files:
                    self.buffer = Samples(*(data[k] for k in SAMPLE_FIELDS))
                return True
        except FileNotFoundError:
            return False
        except PermissionError as err:
            raise cannot_read(path, err, AZTrainingError) from None
        except (OSError, KeyError, ValueError, TypeError, *ARCHIVE_READ_ERRORS) as err:
            raise AZTrainingError(f"{path} is damaged ({err}); remove it to resume with a refilled buffer") from None

    def load(self, path: str) -> tuple[int, int]:
        import torch

        try:
            data = torch.load(path, weights_only=True, map_location="cpu")
        except PermissionError as err:
            raise cannot_read(path, err, AZTrainingError) from None
        except (pickle.UnpicklingError, RuntimeError, ValueError, TypeError, EOFError, OSError) as err:
            # weights_only refused what is not a checkpoint's tensors: never retried without it (that would run
            # whatever the file holds), and torch's advice to do so is not repeated
            why = ("not a file of tensors: torch.load(weights_only=True) refused it"
                   if isinstance(err, pickle.UnpicklingError) else err)
            raise AZTrainingError(f"{path} is damaged or not a checkpoint of `contack train --algorithm az` ({why}); "
                                  "remove it to start the run again") from None
        try:
            self.model.load_state_dict(data["model"])
            self.optimizer.load_state_dict(data["optimizer"])
            return int(data["iteration"]), int(data["games"])
        except (RuntimeError, KeyError, ValueError, TypeError, IndexError) as err:
            raise AZTrainingError(f"{path} is damaged or does not fit the network of the run's config.toml ({err}); "
                                  "remove it to start the run again") from None


def check_config(cfg: AZConfig) -> None:
    """What ``AZConfig.check`` cannot know: the evaluation opponents must be agents of the game, able to play
    under the run's rule options (a trained opponent plays only its own board size)."""
    from agents.registry import check_spec

    for spec in cfg.eval_opponents:
        try:
            check_spec(spec, cfg.game, cfg.rule_options())
        except ValueError as err:
            raise ValueError(f"eval_opponents: {err}") from None


def train(cfg: AZConfig | None, out: str, resume: bool = False, progress: bool | None = None,
          iterations: int | None = None) -> str:
    """Train as ``cfg`` says into ``out`` (or continue the run there: ``resume``); the final network's path."""
    with ExitStack() as held:  # the run folder, once the run may use it (training.run_folder.folder_held)
        return _train(cfg, out, resume, progress, iterations, held)


def _train(cfg: AZConfig | None, out: str, resume: bool, progress: bool | None, iterations: int | None,
           held: ExitStack) -> str:
    import torch

    run = AZRun(out)
    if resume:
        run_id = run.check_resumable()
        held.enter_context(folder_held(out))  # before anything is read: no other run changes the folder meanwhile
        cfg = AZConfig.load(run.config, written_by_a_run=True)
        before = cfg.iterations
        if iterations is not None:
            cfg.iterations = iterations
            cfg.check()
    elif cfg is None:
        raise AZTrainingError("a new run needs a configuration")
    else:
        check_new_run_folder(out)  # before any work: a folder holding anything but a run of ours is refused
    check_config(cfg)
    torch.set_num_threads(cfg.torch_threads)
    learner = Learner(cfg)
    if resume:
        start, games = learner.load(run.checkpoint)
        if cfg.iterations < start:
            raise AZTrainingError(f"--iterations {cfg.iterations} is below the {start} iterations this run has done; "
                                  f"give {start} or more (the run's total is {before})")
        restored = run.restore_buffer(learner, start)
        rows = report.read_rows(run.eval_csv)  # a damaged eval.csv stops here, before the training it would fail
        state = run.read_state()
        check_settings_kept(run.config, state.get("config"), cfg.to_dict(), CHANGEABLE_ON_RESUME)
        # said once every file has loaded: a resume that fails changes nothing, and says of no change
        if cfg.iterations != before:
            print(f"contack train: the run's iterations change from {before} to {cfg.iterations} (config.toml)",
                  file=sys.stderr)
        if restored is None:
            print(f"contack train: {out} holds no sample buffer of iteration {start}; it refills from fresh self-play "
                  "(the run goes on reproducibly, but not exactly as an uninterrupted run)", file=sys.stderr)
        if run_id is None:  # a run from before markers (or whose marker was lost): its files are ours; mark it,
            write_marker(out, state.get("run_id") or new_run_id())  # with its own id when its state has one
        run.remove_temporaries()
        run.settle_buffers(restored)
        kept = [r for r in rows if int(r["iteration"]) <= start]
        if len(kept) != len(rows):  # evaluations the killed session made after its last checkpoint
            report.write_rows(run.eval_csv, kept)
    else:
        held.enter_context(folder_held(out))  # before any file of the folder changes
        check_new_run_folder(out)  # again, held: a run that ended meanwhile may have left its checkpoint there
        run.remove_leftovers()
        claim_folder(out, new_run_id())  # the marker, before any other file of the run
        start, games, state = 0, 0, {}
    cfg.save(run.config)
    return _loop(cfg, run, learner, start, games, float(state.get("wall_s", 0.0)), progress, fresh=not resume)


def _loop(cfg: AZConfig, run: AZRun, learner: Learner, start: int, games: int, wall_before: float,
          progress: bool | None, fresh: bool = False) -> str:
    setup = game_setup(cfg)
    started = time.time()
    writer = tensorboard_writer(run.tensorboard)
    selfplay = SelfPlay(cfg.workers, cfg.parallel_games, cfg.ray)
    bar = reporter(cfg.iterations, progress, sys.stderr, "train az", "iteration", initial=start)
    try:
        if fresh and cfg.pretrain_games:
            _pretrain(cfg, learner, selfplay, writer, progress)
            _checkpoint(cfg, run, learner, 0, 0, time.time() - started)
        # (resumed from the checkpoint of the pretrained network, the evaluation at 0 may have been made)
        if start == 0 and cfg.eval_every and not any(int(r["iteration"]) == 0 for r in report.read_rows(run.eval_csv)):
            _evaluate(cfg, run, learner, 0, games, writer)
        it = start
        while it < cfg.iterations:
            seed = np.random.SeedSequence([cfg.seed, it])
            net = learner.export(_meta(cfg, it, games))
            samples = selfplay.round(net, setup, cfg.games_per_iteration, seed)
            games += len(samples.results)
            learner.add(samples)
            stats = learner.train(len(samples), np.random.default_rng(seed.spawn(1)[0]))
            it += 1
            stats.update(_selfplay_stats(cfg, samples))
            for key, value in stats.items():
                writer.add_scalar(key, value, it)
            bar.update(1)
            bar.set_postfix(games=games, policy=f"{stats.get('loss/policy', 0):.3f}", value=f"{stats.get('loss/value', 0):.3f}")
            if cfg.eval_every and (it % cfg.eval_every == 0 or it == cfg.iterations):
                _evaluate(cfg, run, learner, it, games, writer)
            if it % cfg.checkpoint_every == 0 or it == cfg.iterations:
                _checkpoint(cfg, run, learner, it, games, wall_before + time.time() - started)
        if start == cfg.iterations:  # a finished run resumed with nothing to do: its files stand
            _checkpoint(cfg, run, learner, it, games, wall_before)
    except BaseException:
        selfplay.terminate()  # a failure or Ctrl-C: the workers' games in play are of no use
        raise
    else:
        selfplay.close()
    finally:
        bar.close()
        writer.close()
    return run.policy


def _pretrain(cfg: AZConfig, learner: Learner, selfplay: SelfPlay, writer: Any, progress: bool | None) -> None:
    """Train the network on the teacher bot's games (``training.az.pretrain``); the buffer starts with the
    latest ``buffer_size`` of their samples, so the first rounds of self-play do not train on a few games alone."""
    from .pretrain import PRETRAIN_STREAM, BotGames, pretraining_samples

    t = time.time()
    print(f"contack train: pretraining on {cfg.pretrain_games} games of the {cfg.pretrain_teacher} bot", file=sys.stderr)
    plan = BotGames(game_setup(cfg), cfg.features, cfg.pretrain_temperature, cfg.pretrain_explore,
                    cfg.pretrain_teacher)
    games = reporter(cfg.pretrain_games, progress, sys.stderr, "bot games", "game")
    try:
        samples = pretraining_samples(plan, cfg.pretrain_games, cfg.seed, selfplay.map, games.update)
    finally:
        games.close()
    batches = cfg.pretrain_epochs * math.ceil(len(samples) / cfg.batch_size)
    print(f"contack train: {len(samples)} samples in {time.time() - t:.0f} s; {cfg.pretrain_epochs} passes over them",
          file=sys.stderr)
    bar = reporter(batches, progress, sys.stderr, "pretrain az", "batch")
    rng = np.random.default_rng(np.random.SeedSequence([cfg.seed, PRETRAIN_STREAM, 1]))
    learner.set_learning_rate(cfg.pretrain_learning_rate)
    try:
        losses = learner.fit(samples, cfg.pretrain_epochs, rng, bar)
    finally:
        bar.close()
    learner.set_learning_rate(cfg.learning_rate)
    for epoch, (policy_loss, value_loss) in enumerate(losses, 1):
        writer.add_scalar("pretrain/loss_policy", policy_loss, epoch)
        writer.add_scalar("pretrain/loss_value", value_loss, epoch)
    keep = cfg.buffer_size  # copied: a view would keep every pretraining sample in memory through the run
    learner.add(Samples(*(getattr(samples, k)[-keep:].copy() for k in SAMPLE_FIELDS)))
    print(f"contack train: pretrained in {time.time() - t:.0f} s (value loss {losses[-1][1]:.4f} in the last pass)",
          file=sys.stderr)


def game_setup(cfg: AZConfig) -> GameSetup:
    """The self-play part of ``cfg``: the games a run plays and how it searches them."""
    return GameSetup(cfg.game, cfg.players, cfg.rule_options(), cfg.sims, cfg.mode, cfg.max_considered,
                     cfg.horizon, cfg.rollout, cfg.value_from_search, cfg.value_playouts, cfg.leaf_moves)


def _meta(cfg: AZConfig, iteration: int, games: int) -> dict[str, Any]:
    return {"game": cfg.game, "players": cfg.players, "features": cfg.features, "horizon": cfg.horizon,
            "stakes": cfg.play_stakes, "rollout": cfg.play_rollout, "leaf_moves": cfg.play_leaf_moves,
            "sims": cfg.play_sims, "mode": cfg.mode, "search": cfg.play_search,
            "max_considered": cfg.max_considered,
            # the rule options a network is bound to (CON-TAC-TIX's board size), as agents.policy_file reads them
            **{name: getattr(cfg, name) for name in get_game(cfg.game).bound_options},
            "iterations": iteration, "selfplay_games": games, "config": cfg.to_dict()}


def _checkpoint(cfg: AZConfig, run: AZRun, learner: Learner, it: int, games: int, wall_s: float) -> None:
    # The buffer, the policy file and the checkpoint (each replaced atomically), then the state. The buffer of the
    # checkpoint on disk is kept aside until the new checkpoint is whole: a session killed between the new buffer
    # and the new checkpoint leaves both, and --resume takes the one of the checkpoint's iteration.
    net = learner.export(_meta(cfg, it, games))
    if os.path.exists(run.buffer):
        os.replace(run.buffer, run.previous_buffer)
    learner.save_buffer(run.buffer, it)
    net.save(run.policy)
    learner.save(run.checkpoint, it, games)
    run.write_state({"iteration": it, "games": games, "wall_s": round(wall_s, 1), "config": cfg.to_dict()})
    if os.path.exists(run.previous_buffer):
        os.remove(run.previous_buffer)


def _alone(cfg: AZConfig) -> bool:
    """Whether ``cfg.game`` is a solitaire: its agents play the deals alone, won or lost, and no seat shares them."""
    return get_game(cfg.game).report == "solitaire"


def _selfplay_stats(cfg: AZConfig, samples: Samples) -> dict[str, float]:
    out = {"selfplay/samples": float(len(samples)),
           "selfplay/decisions_per_game": len(samples) / max(1, len(samples.results))}
    if _alone(cfg):
        out["selfplay/win_rate"] = float(np.mean(samples.won))
        out["selfplay/tiles"] = float(np.mean([r[0] for r in samples.results])) * 36
    else:
        out["selfplay/value_seat0"] = float(np.mean([r[0] for r in samples.results]))
    return out


def _evaluate(cfg: AZConfig, run: AZRun, learner: Learner, it: int, games: int, writer: Any) -> None:
    """The search agent (``play_sims``) against each bot, and the network alone against the first; for a
    solitaire both on the same deals, with the reference bots measured once (their deals never change). They run
    in ``workers`` processes on this machine even with ``ray``: the agents read the network from the run folder,
    which another machine of a cluster does not have."""
    from agents.evaluate import evaluate

    net = learner.export(_meta(cfg, it, games))
    net.save(run.eval_policy)
    search, alone = f"az:{run.eval_policy}:{cfg.play_sims}", f"az:{run.eval_policy}:0"
    seed = cfg.seed + EVAL_SEED_OFFSET
    rows = report.read_rows(run.eval_csv)
    new: list[dict[str, Any]] = []
    t = time.time()
    if not _alone(cfg):
        count = -(-cfg.eval_games // cfg.players) * cfg.players
        for i, opponent in enumerate(cfg.eval_opponents):
            for name, spec in [("az", search)] + ([("az:0", alone)] if i == 0 else []):
                ev = evaluate([spec] + [opponent] * (cfg.players - 1), count, seed, game=cfg.game,
                              players=cfg.players, hands=cfg.hands, enclosed_end=cfg.enclosed_end,
                              board_size=cfg.board_size, swap=cfg.swap, workers=cfg.workers)
                new.append(report.row(it, games, name, opponent, ev.entries[0], time.time() - t))
    else:
        measured = {r["agent"] for r in rows}
        bots = [b for b in cfg.eval_opponents if b not in measured]
        ev = evaluate([search, alone, *bots], cfg.eval_games, seed, game=cfg.game, workers=cfg.workers)
        for name, entry in zip(["az", "az:0", *bots], ev.entries):
            new.append(report.row(it, games, name, "-", entry, time.time() - t))
    for r in new:
        if r["agent"].startswith("az"):
            writer.add_scalar(f"eval/{r['agent']}_vs_{r['opponent']}".replace(":", "_"), r["win_rate"], it)
    report.write_rows(run.eval_csv, rows + new)
    alone = _alone(cfg)
    what = cfg.game if alone else f"{get_game(cfg.game).title}, {cfg.players} players"
    fair = None if alone else 1 / cfg.players
    searched = cfg.mode if cfg.play_search == "tree" else f"{cfg.mode}, {cfg.play_search} play"
    report.draw_curve(run.eval_csv, run.curve, f"search-guided ({searched}) on {what}: {cfg.eval_games} "
                      f"{'deals' if alone else 'games'} an evaluation", fair)
