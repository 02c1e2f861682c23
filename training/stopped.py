"""How ``contack train`` (every trainer) reports a run that stopped: one line on standard error, saying why and
what the run kept, and the exit status (1, or 130 for Ctrl-C)."""

from __future__ import annotations

import sys
from typing import Callable

from agents.worker_pool import WorkerLost
from contack_env.cli_support import quiet_exit_after_interrupt

from .run_folder import TrainingError

STOPS = (TrainingError, ValueError, OSError, WorkerLost, KeyboardInterrupt)
"""What a run can stop with and ``report_stop`` reports (anything else is a bug: its traceback shows)."""


def report_stop(err: BaseException, out: str, kept: Callable[[str], str], cannot_write: Callable[[OSError], str]) -> int:
    """Say why the run in ``out`` stopped with ``err`` (one of ``STOPS``); ``kept(out)``: what the run kept and
    how to go on; ``cannot_write(err)``: the line for a file that could not be written. The exit status."""
    if isinstance(err, KeyboardInterrupt):
        quiet_exit_after_interrupt()
        print(f"\ncontack train: interrupted; {kept(out)}", file=sys.stderr)
        return 130
    if isinstance(err, WorkerLost):
        line = f"{err}; {kept(out)}"
    elif isinstance(err, OSError):
        line = cannot_write(err)
    else:  # a run refused or a setting it cannot use (TrainingError, ValueError): the error says why
        line = str(err)
    print(f"contack train: {line}", file=sys.stderr)
    return 1
