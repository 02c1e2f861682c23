"""How ``contack train`` (every trainer) reports a run that stopped: one line on standard error, saying why and
what the run kept, and the exit status (1, or 130 for Ctrl-C)."""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

from agents.worker_pool import WorkerLost
from contack_env.cli_support import quiet_exit_after_interrupt

from .run_folder import TrainingError

_RESUMED = "smaller ones need less (a run being resumed has them in its config.toml)"
PPO_MEMORY = f"A PPO run holds in memory its network (--net-arch) and its rollout (--n-steps x --n-envs): {_RESUMED}"
AZ_MEMORY = (f"An az run holds in memory its network (--net-arch), its replay buffer (--buffer-size) and the games "
             f"it plays at once (--parallel-games): {_RESUMED}")

STOPS = (TrainingError, ValueError, OSError, WorkerLost, KeyboardInterrupt, MemoryError)
"""What a run can stop with and ``report_stop`` reports (anything else is a bug: its traceback shows)."""


def report_stop(err: BaseException, out: str, kept: Callable[[str], str], cannot_write: Callable[[OSError], str],
                memory_hint: str) -> int:
    """Say why the run in ``out`` stopped with ``err`` (one of ``STOPS``); ``kept(out)``: what the run kept and
    how to go on; ``cannot_write(err)``: the line for a file that could not be written; ``memory_hint``: which of
    the trainer's settings take memory (``PPO_MEMORY``, ``AZ_MEMORY``). The exit status."""
    if isinstance(err, KeyboardInterrupt):
        quiet_exit_after_interrupt()
        print(f"\ncontack train: interrupted; {kept(out)}", file=sys.stderr)
        return 130
    if isinstance(err, WorkerLost):
        line = f"{err}; {kept(out)}"
    elif isinstance(err, MemoryError):
        line = f"not enough memory: {str(err) or 'an allocation failed'}; {kept(out)}. {memory_hint}"
    elif isinstance(err, OSError):
        line = cannot_write(err)
    else:  # a run refused or a setting it cannot use (TrainingError, ValueError): the error says why
        line = str(err)
    print(f"contack train: {line}", file=sys.stderr)
    return 1


@contextmanager
def allocation_failures_as_memory_errors() -> Iterator[None]:
    """Turn torch's failed allocation (a ``RuntimeError`` naming its allocator) into the ``MemoryError`` numpy
    raises for the same cause, so that a too-large setting stops the run with one line, not a traceback."""
    try:
        yield
    except RuntimeError as err:
        asked = re.search(r"can't allocate memory: you tried to allocate (\d+) bytes", str(err))
        if asked is None:
            raise
        raise MemoryError(f"Unable to allocate {size_in_words(int(asked.group(1)))}") from None


def size_in_words(size: int) -> str:
    """``size`` bytes in the largest binary unit that leaves at least 1 once rounded to a tenth (``3.5 PiB``, not
    ``3653632.0 GiB``; ``1.0 MiB``, not ``1024.0 KiB``)."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
    power = 0
    while power < len(units) - 1 and round(size / 1024 ** (power + 1), 1) >= 1:
        power += 1
    return f"{size} bytes" if power == 0 else f"{size / 1024 ** power:.1f} {units[power]}"
