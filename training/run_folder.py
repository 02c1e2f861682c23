"""Which folders ``contack train`` may write in, which files in them it may remove, and the files of one run
(``Run``).

A run proves a folder is its own with a marker, ``.contack-run``: a small JSON object written atomically
before anything else of the run::

    {"format": "contack-run/1", "run_id": "3f2a...", "started": "2026-11-23T16:02:11Z"}

The run id is also written into the run's ``state.json``. The rules that follow from it:

- A new run starts only in a folder that does not exist, is empty, or holds a run of ours that was killed
  before its first checkpoint (a marker and no checkpoint, ``checkpoint.zip`` or ``--algorithm az``'s
  ``checkpoint.pt``: that run's own files are removed first). A
  folder that holds anything else is refused before any work, so no file a user owns is overwritten or
  removed; so is a folder that already holds a checkpoint (``--resume`` continues it) and a path that is a
  file.
- ``--resume`` continues a folder with a marker and a checkpoint, after checking that ``state.json`` belongs to
  the marker's run. A run folder made before markers existed (``config.toml`` and a ``checkpoint.zip`` of our
  format, no marker) is taken over: the resume writes its marker.
- Files are removed only in a folder with a marker, and only the names a run of either trainer writes
  (``Run.own_files`` and ``RUN_FILES``, the snapshots ``snapshots/snap_<steps>.npz``, TensorBoard's
  ``tb/ppo_<n>/events.out.tfevents.*`` and ``tb/events.out.tfevents.*``, and the temporary files of
  interrupted writes of those).
- A ``--backend rllib`` run's checkpoint is a folder, ``rllib_checkpoint_<timesteps>`` (``RLLIB_CHECKPOINT``),
  the first written at 0, before the run's first ``progress.csv`` row: a marked folder holding one holds a run.
  A marked folder holding a ``progress.csv`` and no checkpoint is an rllib run made before such runs kept
  checkpoints (its ``policy.npz`` after every iteration is what it made): refused too, never cleared.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import time
import uuid
import zipfile
from contextlib import contextmanager
from typing import Any, Callable, Iterator

try:
    import fcntl
except ImportError:  # Windows: runs go on without a lock on their folder
    fcntl = None  # type: ignore[assignment]

from agents.policy_file import ARCHIVE_READ_ERRORS
from contack_env.atomic import TEMPORARY_PREFIX, open_atomic
from contack_env.checks import is_whole_number

MARKER = ".contack-run"
CHECKPOINTS = ("checkpoint.zip", "checkpoint.pt")
"""The checkpoints of the two trainers (MaskablePPO's, ``--algorithm az``'s): a folder holding either holds a run."""
RUN_FILES = ("config.toml", "policy.npz", "eval_policy.npz", "state.json", "eval.csv", "learning_curve.png",
             "progress.csv", "buffer.npz", "buffer_previous.npz")
"""What a run of any trainer here writes directly in its folder, besides a checkpoint: what a new run clears from
a marked folder whose run was killed before its first checkpoint, whichever trainer that run was."""
FORMAT = "contack-run/1"
SNAPSHOT_NAME = re.compile(r"snap_\d{10}\.npz")
RLLIB_CHECKPOINT = re.compile(r"rllib_checkpoint_\d{10}")
"""The checkpoint folders of ``--backend rllib`` runs (``training.rllib.train``), named by their timesteps."""
RLLIB_TEMPORARY = re.compile(re.escape(TEMPORARY_PREFIX) + r"[0-9a-f]{8}rllib_checkpoint_\d{10}")
"""Where an rllib checkpoint is written before it is renamed to its name (what a kill mid-write leaves)."""
TENSORBOARD_RUN = re.compile(r"ppo_\d+")
TENSORBOARD_FILE = "events.out.tfevents."

__all__ = ["CHECKPOINTS", "FORMAT", "MARKER", "RLLIB_CHECKPOINT", "RLLIB_TEMPORARY", "RUN_FILES", "STATE_FIELDS",
           "TENSORBOARD_FLUSH_SECONDS", "Run", "RunFolderError", "TrainingError", "cannot_read",
           "check_new_run_folder", "check_resumable", "check_settings_kept", "claim_folder", "folder_held",
           "marker_path", "new_run_id", "not_a_folder", "read_marker", "read_state_file", "remove_run_files",
           "tensorboard_writer", "write_marker"]


TENSORBOARD_FLUSH_SECONDS = 2
"""How often a run's TensorBoard writer writes what it holds to disk (torch's default is 120 s). It also bounds how
long closing the writer can wait after a Ctrl-C: a Ctrl-C that lands while the writer is being handed an event can
cost the writer's thread its wake-up, and it then sleeps until its next flush (a run once took two minutes to end
on Ctrl-C)."""


def tensorboard_writer(folder: str) -> Any:
    """A ``torch.utils.tensorboard.SummaryWriter`` logging into ``folder``, flushed every
    ``TENSORBOARD_FLUSH_SECONDS``."""
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(folder, flush_secs=TENSORBOARD_FLUSH_SECONDS)


class TrainingError(RuntimeError):
    """A run that cannot start or resume, with what to do about it."""


class RunFolderError(TrainingError):
    """A ``--out`` folder a run may not use (not a run of ours, a file, a run already there)."""


def marker_path(folder: str) -> str:
    return os.path.join(folder, MARKER)


def new_run_id() -> str:
    """A fresh run id (random: two runs never share one)."""
    return uuid.uuid4().hex


def write_marker(folder: str, run_id: str) -> None:
    """Claim ``folder`` for the run ``run_id`` (atomically: a kill leaves the old marker or the new one)."""
    data = {"format": FORMAT, "run_id": run_id, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    with open_atomic(marker_path(folder)) as f:
        json.dump(data, f)
        f.write("\n")


def read_marker(folder: str) -> str | None:
    """The run id in ``folder``'s marker; None without a marker. A marker that is not ours raises."""
    path = marker_path(folder)
    data = _read_json(path, f"it marks {folder} as a run folder of `contack train`: remove it only if you know "
                            "the folder's files are the run's", RunFolderError)
    if data is _MISSING:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("run_id"), str):
        raise RunFolderError(f"{path} is not a run marker of `contack train` (format {FORMAT!r}); "
                             f"choose another --out")
    return data["run_id"]


_MISSING = object()


def _read_json(path: str, advice: str, kind: type[TrainingError] = TrainingError) -> Any:
    """The JSON a run wrote at ``path``, ``_MISSING`` if there is none; a file that cannot be read or is not
    JSON raises ``kind`` saying so (a damaged one with ``advice``: what to do about it)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return _MISSING
    except IsADirectoryError:
        raise kind(f"{path} is a folder where a run writes a file; {advice}") from None
    except OSError as err:
        raise cannot_read(path, err, kind) from None
    except (ValueError, RecursionError) as err:  # not JSON, not UTF-8 (UnicodeDecodeError is a ValueError)
        raise kind(f"{path} is damaged ({err}); {advice}") from None


def cannot_read(path: str, err: OSError, kind: type[TrainingError] = TrainingError) -> TrainingError:
    """The error for a run's file that exists but cannot be read (``err``: permission denied): the file may well
    be whole, so the message says to make it readable, never to remove it."""
    return kind(f"{path} cannot be read ({err.strerror or err}); the file is left as it is: make it readable "
                "(its permissions, or run as its owner) and run the same command again")


STATE_FIELDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "snapshots": ("a list of file names", lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v)),
    "run_id": ("a string", lambda v: isinstance(v, str)),
    "timesteps": ("a count of 0 or more", lambda v: is_whole_number(v) and v >= 0),
    "iteration": ("a count of 0 or more", lambda v: is_whole_number(v) and v >= 0),
    "games": ("a count of 0 or more", lambda v: is_whole_number(v) and v >= 0),
    "wall_s": ("a number of seconds", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
               and math.isfinite(v)),
    "config": ("a JSON object (the settings the run started with)", lambda v: isinstance(v, dict)),
}
"""What each field of a run's state.json holds (a field left out takes its default)."""


def read_state_file(path: str, missing: dict[str, Any], advice: str) -> dict[str, Any]:
    """The state a run wrote at ``path`` (``missing`` if there is none), or ``TrainingError``: it cannot be read,
    or it is damaged (not JSON, not an object, a field of the wrong type: ``STATE_FIELDS``; the same of the state of
    the checkpoint before, ``previous``, which a PPO run's state holds), with ``advice``."""
    data = _read_json(path, advice)
    if data is _MISSING:
        return missing
    _check_state(data, path, advice)
    if data.get("previous") is not None:
        _check_state(data["previous"], path, advice, "previous: ")
    return data


def _check_state(data: Any, path: str, advice: str, where: str = "") -> None:
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}.get(type(data), "a number")
        raise TrainingError(f"{path} is damaged ({where}it holds {kind}, not a JSON object); {advice}")
    for name, (what, ok) in STATE_FIELDS.items():
        if name in data and not ok(data[name]):
            raise TrainingError(f"{path} is damaged ({where}{name} is {data[name]!r}, not {what}); {advice}")


def check_settings_kept(config: str, recorded: Any, settings: dict[str, Any], free: tuple[str, ...]) -> None:
    """Raise ``TrainingError`` if ``settings`` (the run's ``config`` file, as ``--resume`` read it) differ from
    ``recorded``, the settings its state kept at the checkpoint, in any but the ``free`` ones (those a resume may
    change: the length of the run, where its work runs). A resumed run is the same run as an uninterrupted one,
    and what it exports says how it was made, so a hand-edited setting is refused rather than trained with.
    ``recorded`` None (a run from before states kept the settings) checks nothing; a setting only one side
    knows (one a later version of the suite added or dropped) is not compared."""
    if not isinstance(recorded, dict):
        return
    changed = [name for name in settings
               if name in recorded and name not in free and not _same_setting(recorded[name], settings[name])]
    if not changed:
        return
    told = "; ".join(f"{name} is {_shown(settings[name])} there, the run's is {_shown(recorded[name])}"
                     for name in changed)
    may = " and ".join(free)
    raise TrainingError(f"{config} was changed since the run started ({told}); a resumed run keeps the settings it "
                        f"started with (only {may} may change): put them back to resume, or start a new run with "
                        f"them (`contack train --config {config} --out NEW`)")


def _same_setting(recorded: Any, now: Any) -> bool:
    # JSON and TOML give lists for tuples, and a whole number where a float was written as 0
    if isinstance(recorded, list) and isinstance(now, (list, tuple)):
        return len(recorded) == len(now) and all(_same_setting(a, b) for a, b in zip(recorded, now))
    if isinstance(recorded, bool) or isinstance(now, bool):
        return recorded is now
    return bool(recorded == now)


def _shown(value: Any) -> str:
    return "not set" if value is None else json.dumps(value)  # as TOML writes it, which leaves out what is not set


def not_a_folder(out: str) -> str | None:
    """What is wrong with ``out`` as a new run's folder if it is a file or lies under one (a path that can never
    be a folder: the command line's usage error), else None."""
    where = os.path.abspath(out)
    here = where
    while not os.path.exists(here):  # a path under a file can never become a folder
        here = os.path.dirname(here)
    if os.path.isdir(here):
        return None
    if here == where:
        return f"--out {out} is a file, not a folder: name a folder for the run's files (a new one is made)"
    return f"--out {out} lies under the file {here}: name a folder for the run's files"


def check_new_run_folder(out: str) -> None:
    """Raise ``RunFolderError`` unless a new run may start in ``out`` (module docstring); touches nothing."""
    problem = not_a_folder(out)
    if problem:
        raise RunFolderError(problem)
    if not os.path.exists(out):
        return  # a folder still to be made
    names = [name for name in os.listdir(out) if not _is_marker_temporary(name)]
    if not names:
        return  # empty, or holding only what a kill while the marker was written left
    checkpoint = next((name for name in CHECKPOINTS if name in names), None)
    if MARKER in names:
        read_marker(out)  # a marker that is not ours stops here
        if checkpoint is not None:
            raise RunFolderError(f"{out} already holds a run ({checkpoint}); continue it with --resume or "
                                 "choose another --out")
        rllib = sorted(name for name in names if RLLIB_CHECKPOINT.fullmatch(name))
        if rllib:
            raise RunFolderError(f"{out} already holds a --backend rllib run ({rllib[-1]}); continue it with "
                                 "--backend rllib --resume or choose another --out")
        if "progress.csv" in names:  # an rllib run with no checkpoint: its policy.npz is its result
            raise RunFolderError(f"{out} already holds a --backend rllib run with no checkpoint (made before such "
                                 "runs kept checkpoints), which cannot be continued: choose another --out")
        return  # a run of ours killed before its first checkpoint: its files are replaced
    if checkpoint is not None and "config.toml" in names:
        raise RunFolderError(f"{out} holds a run of `contack train` made before run folders were marked; "
                             "continue it with --resume (which marks it) or choose another --out")
    shown = ", ".join(sorted(names)[:5]) + (f", ... ({len(names)} entries)" if len(names) > 5 else "")
    raise RunFolderError(f"{out} is not empty and is not a run folder of `contack train` (it holds {shown}, and "
                         f"no {MARKER} marker): a run there could overwrite those files. Choose a new or empty "
                         "folder for --out")


def _is_marker_temporary(name: str) -> bool:
    # What ``atomic_path`` leaves of the marker when a kill comes mid-write: a new run may remove it.
    return name.startswith(TEMPORARY_PREFIX) and name.endswith(MARKER)


@contextmanager
def folder_held(folder: str) -> Iterator[None]:
    """Hold ``folder`` (made if need be) for this process's run while the block runs: ``RunFolderError`` if a run
    going on now holds it. Without that, a second run given the same ``--out`` took a live run's folder for one
    killed before its first checkpoint, and removed its files. The hold is a lock on the folder (``flock``), which
    the system releases when the process ends, however it ends (a kill, out of memory); where the file system
    has no locks, the run goes on without one."""
    os.makedirs(folder, exist_ok=True)
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        fd = None
    try:
        if fd is not None and fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RunFolderError(f"{folder} is in use: a `contack train` run is going on there now; wait for it "
                                     "to end (then --resume continues it), or choose another --out") from None
            except OSError:
                pass  # no locks on this file system
        yield
    finally:
        if fd is not None:
            os.close(fd)


def claim_folder(folder: str, run_id: str) -> None:
    """Make ``folder`` (a new run's, ``check_new_run_folder`` passed) and mark it for ``run_id``, removing what
    an earlier kill while writing a marker left."""
    try:
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if _is_marker_temporary(name):
                _remove(os.path.join(folder, name))
        write_marker(folder, run_id)
    except OSError as err:  # the first file of the run: nothing of it is there, and the marker's name is no news
        raise RunFolderError(f"cannot write in {folder}: {err.strerror or err}; nothing was written: name a folder "
                             "you can write in") from None


def remove_run_files(folder: str, own_files: tuple[str, ...]) -> None:
    """Remove what a run wrote in ``folder`` (``own_files``, its snapshots and TensorBoard logs, and the
    temporary files and rllib checkpoint folders of interrupted writes of them) and nothing else. Only in a
    folder with our marker."""
    if read_marker(folder) is None:
        return
    for path in (*own_files, *(os.path.join(folder, name) for name in RUN_FILES)):
        _remove(path)
    snapshots = os.path.join(folder, "snapshots")
    for name in _listdir(snapshots):
        if SNAPSHOT_NAME.fullmatch(name):
            _remove(os.path.join(snapshots, name))
    tensorboard = os.path.join(folder, "tb")
    for sub in _listdir(tensorboard):
        logs = os.path.join(tensorboard, sub)
        if sub.startswith(TENSORBOARD_FILE):  # an --algorithm az run writes its events in tb/ itself
            _remove(logs)
        elif TENSORBOARD_RUN.fullmatch(sub) and os.path.isdir(logs):
            for name in _listdir(logs):
                if name.startswith(TENSORBOARD_FILE):
                    _remove(os.path.join(logs, name))
            _rmdir_if_empty(logs)
    for sub in (snapshots, tensorboard):
        _rmdir_if_empty(sub)
    for name in _listdir(folder):  # an rllib checkpoint a kill left half-written (a whole one is never cleared)
        if RLLIB_TEMPORARY.fullmatch(name):
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)


def check_resumable(out: str, checkpoint: str, config: str, state: str,
                    read_state: Callable[[], dict[str, Any]]) -> str | None:
    """Raise ``TrainingError`` unless ``--resume`` can continue the run in ``out`` (its ``checkpoint``, its
    ``config`` and its ``state`` file, read by ``read_state``); return its run id (None for a run made before run
    markers, which the resume then marks)."""
    name = os.path.basename(checkpoint)
    if not os.path.isdir(out):
        if os.path.exists(out):
            raise RunFolderError(f"--out {out} is a file, not a run folder")
        raise TrainingError(f"nothing to resume in {out}: no such folder (start the run without --resume)")
    run_id = read_marker(out)  # a marker that is not ours stops here
    if not os.path.exists(checkpoint):
        rllib = sorted(n for n in _listdir(out) if RLLIB_CHECKPOINT.fullmatch(n))
        if rllib and not RLLIB_CHECKPOINT.fullmatch(name):
            raise TrainingError(f"nothing to resume in {out} for this trainer: no {name}; it holds a --backend "
                                f"rllib run ({rllib[-1]}): continue it with --backend rllib --resume")
        other_trainer = {"checkpoint.zip": ("checkpoint.pt", "--algorithm az"),
                         "checkpoint.pt": ("checkpoint.zip", "--algorithm ppo")}.get(name)
        if other_trainer is not None and os.path.exists(os.path.join(out, other_trainer[0])):
            raise TrainingError(f"nothing to resume in {out} for this trainer: no {name}; it holds an "
                                f"{other_trainer[1]} run ({other_trainer[0]}): continue it with "
                                f"{other_trainer[1]} --resume")
        if run_id is None and [n for n in _listdir(out) if not _is_marker_temporary(n)]:
            raise RunFolderError(f"nothing to resume in {out}: it is not a run folder of `contack train` (no {MARKER} "
                                 f"marker, no {name}); --out names the folder of the run to continue")
        raise TrainingError(f"nothing to resume in {out}: no {name} (start the run without --resume)")
    if run_id is None and not os.path.exists(config):
        raise RunFolderError(f"{out} is not a run folder of `contack train`: it has a {name} but "
                             f"neither a {MARKER} marker nor a config.toml")
    if run_id is not None:
        other = read_state().get("run_id")
        if other is not None and other != run_id:
            raise RunFolderError(f"{state} belongs to another run (run id {other}, the folder's marker says "
                                 f"{run_id}); the folder mixes two runs' files and cannot be resumed")
    return run_id


def cannot_write(out: str, err: OSError, checkpoint: str) -> str:
    """What ``contack train`` says when the run could not write in ``out`` (``err``), and how to go on: with
    ``--resume`` where the run's ``checkpoint`` (a file name) was written, else by the same command again (a
    marked folder without a checkpoint is a run's to start over)."""
    if os.path.exists(os.path.join(out, checkpoint)):
        then = f"continue with `contack train --resume --out {out}` once it can be written"
    else:
        then = "no checkpoint was written yet: run the same command again once it can be written"
    filename = getattr(err, "filename", None)
    where = f" ({filename})" if filename else ""
    if filename and not _inside(os.fspath(filename), out):  # a file of its own, not the run's: no write failed
        return (f"stopped by a file outside the run: {err.strerror or err}{where}; the run's files are whole (each "
                f"is replaced atomically); {then.replace('once it can be written', 'once that is mended')}")
    return (f"cannot write the run in {out}: {err.strerror or err}{where}; the files written are whole (each is "
            f"replaced atomically); {then}")


def _inside(path: str | bytes, folder: str) -> bool:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _listdir(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _rmdir_if_empty(folder: str) -> None:
    try:
        os.rmdir(folder)
    except OSError:  # missing, or holds something that is not the run's
        pass


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
        return read_state_file(self.state, {"snapshots": []}, "remove it to resume without the snapshots")

    def write_state(self, state: dict[str, Any]) -> None:
        with open_atomic(self.state) as f:
            json.dump(state, f, indent=1)

    def state_at(self, timesteps: int) -> dict[str, Any]:
        """The state of the checkpoint at ``timesteps``: ``state.json``'s own, or the ``previous`` one it holds
        when a kill came after the state of a new checkpoint was written and before the checkpoint was (a
        state of a run from before states held their previous one is taken as it is)."""
        state = self.read_state()
        previous = state.pop("previous", None)
        if state.get("timesteps", timesteps) != timesteps and previous and previous.get("timesteps") == timesteps:
            return previous
        return state

    def checkpoint_progress(self) -> tuple[int, int]:
        """The checkpoint's timesteps and PPO updates, read from its JSON member (no unpickling)."""
        try:
            with zipfile.ZipFile(self.checkpoint) as archive:
                data = json.loads(archive.read("data"))
            steps, updates = data["num_timesteps"], data.get("_n_updates", 0)
            for name, value in (("num_timesteps", steps), ("_n_updates", updates)):
                if not is_whole_number(value) or value < 0:
                    raise ValueError(f"{name} is {value!r}, not a count of 0 or more")
            return steps, updates
        except PermissionError as err:
            raise cannot_read(self.checkpoint, err) from None
        except (OSError, KeyError, ValueError, TypeError, RecursionError, *ARCHIVE_READ_ERRORS) as err:
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
        """``check_resumable`` for this run's folder."""
        return check_resumable(self.out, self.checkpoint, self.config, self.state, self.read_state)

    def remove_temporaries(self) -> None:
        """Remove the temporary files of writes a kill interrupted: ``atomic_path``'s ``.tmp-<random><name>``
        for the files a run of either trainer writes in its folder, and for snapshots, only."""
        names = tuple({os.path.basename(path) for path in self.own_files} | set(RUN_FILES) | set(CHECKPOINTS))
        if read_marker(self.out) is None:
            return  # not a folder of ours: its files are someone else's
        for folder, ends in ((self.out, names), (self.snapshots, (".npz",))):
            if os.path.isdir(folder):
                for name in os.listdir(folder):
                    if name.startswith(TEMPORARY_PREFIX) and name.endswith(ends):
                        os.remove(os.path.join(folder, name))
