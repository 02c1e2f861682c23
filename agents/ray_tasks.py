"""Running batches of work on a Ray cluster (``--ray``): the optional ``[rllib]`` extra.

``connect()`` joins the cluster ``RAY_ADDRESS`` names (``ray start --head`` prints it), else starts a local one
on this machine's cores and ends it when done; a Ray session already open in the process (``ray.init`` in a
notebook or a test) is used as it is and left open. ``ordered_map`` runs a function over items as Ray tasks, a
bounded number at once, and yields the results in the items' order, so whatever is computed from them does
not depend on which machine ran what. Every random choice of the work comes from its items, never from the
worker that ran it, so the results are those of a local run.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, TypeVar

from .worker_pool import LOST, WorkerLost

INSTALL_HINT = "pip install -c constraints-rllib.txt -e '.[rllib]'"

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class RayUnavailable(RuntimeError):
    """Ray is not installed (it is an optional extra); the message says how to install it."""


def require_ray() -> Any:
    """The ``ray`` module, or ``RayUnavailable`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"--ray needs Ray, an optional extra: {INSTALL_HINT}") from None
    return ray


@contextmanager
def connect() -> Iterator[Any]:
    """The ``ray`` module, connected (see the module docstring)."""
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    # No dashboard, no worker output copied to this terminal, no start-up banner: the command's own output only.
    ray.init(address=os.environ.get("RAY_ADDRESS") or None, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR, configure_logging=True)
    try:
        yield ray
    finally:
        ray.shutdown()


def cluster_cpus(ray: Any) -> int:
    """The CPUs of the cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ordered_map(ray: Any, function: Callable[[S, T], R], shared: S, items: Iterable[T], window: int) -> Iterator[R]:
    """``function(shared, item)`` for every item, run as Ray tasks at most ``window`` at once, yielded in order.
    ``shared`` (a configuration, a network's weights) goes to the cluster's object store once, not once a task.

    Closing the iterator early (an error, Ctrl-C) cancels the tasks still running."""
    remote = ray.remote(num_cpus=1, max_retries=0)(function)
    shared_ref = ray.put(shared)
    pending: deque[Any] = deque()

    def result() -> R:
        try:
            return ray.get(pending.popleft())
        except ray.exceptions.WorkerCrashedError:  # killed from outside, as a worker process can be
            raise WorkerLost(LOST) from None

    try:
        for item in items:
            if len(pending) >= window:
                yield result()
            pending.append(remote.remote(shared_ref, item))
        while pending:
            yield result()
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
