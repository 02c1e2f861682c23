"""Worker processes that play games in parallel (`evaluate --workers`, az self-play), failing rather than
hanging when one of them dies.

``multiprocessing.Pool`` replaces a worker that something killed (the out-of-memory killer, ``kill -9``) but not
the work that worker held, so whoever waits for that work waits forever. ``concurrent.futures``' process pool
marks itself broken instead, and every wait raises: ``WorkerPool`` turns that into ``WorkerLost``, a sentence
(``agents.ray_tasks`` raises the same for a Ray worker killed in the middle of a task).

The workers are spawned (no copy of the caller's threads or open files), with one BLAS thread each
(``agents.blas``), and leave Ctrl-C to the main process. Leaving a ``with WorkerPool(...)`` block by an exception
(Ctrl-C included) ends the workers at once rather than waiting for the games they are playing.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import resource_tracker
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator

from .blas import one_thread_for_workers


class WorkerLost(RuntimeError):
    """A worker process ended in the middle of its work."""


LOST = "a worker process ended in the middle of its work (ended from outside, e.g. by the system when memory ran out)"


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the main process ends the workers, and a worker that
    # took it too would print a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerPool:
    """``workers`` spawned processes; ``map`` hands them work, ``close`` waits for them, ``terminate`` ends them.
    Use it in a ``with`` block or end it with one of the two: a pool left open with work in hand keeps the
    interpreter from exiting until that work is done."""

    def __init__(self, workers: int) -> None:
        self._executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_interrupts)

    def map(self, function: Callable[[Any], Any], items: Iterable[Any], chunksize: int = 1) -> Iterator[Any]:
        """``function(item)`` for every item, in the items' order; ``function`` is a module-level function (a
        worker imports it). ``WorkerLost`` if a worker dies before the last result is in."""
        with one_thread_for_workers(), ctrl_c_held_back_from_new_processes():  # spawned as the work is handed out
            try:
                # Not ProcessPoolExecutor.map, whose results, left unread (a Ctrl-C), cancel the work not started
                # from this thread: terminate() then ending the workers could find those futures cancelled under
                # it, and the pool's thread failed with a traceback (InvalidStateError, Python 3.11). Work not
                # started is cancelled by terminate(), from the pool's own thread.
                futures = [self._executor.submit(_apply, function, chunk) for chunk in _chunks(items, chunksize)]
            except BrokenProcessPool:
                raise WorkerLost(LOST) from None
        return _results(futures)

    def close(self) -> None:
        """Wait for the work handed out, then end the workers."""
        self._executor.shutdown(wait=True)

    def terminate(self) -> None:
        """End the workers now; work not done is dropped."""
        # ProcessPoolExecutor has no public way to stop a worker in the middle of a task before Python 3.14
        # (terminate_workers), and a game of a search agent can take minutes: end the processes it holds.
        processes = list(getattr(self._executor, "_processes", {}).values())
        results = getattr(self._executor, "_result_queue", None)
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=10)
        # A worker ended while sending a result leaves half a message in the results pipe, and the pool's thread
        # waits for the rest; the pipe stays open because this process holds its writing end too, so the thread,
        # and with it the interpreter's exit, waited for ever. With the workers gone, nothing writes: closing
        # that end gives the thread the pipe's end and it finishes.
        writer = getattr(results, "_writer", None)
        if writer is not None and not any(process.is_alive() for process in processes):
            writer.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:
            self.terminate()


@contextmanager
def ctrl_c_held_back_from_new_processes() -> Iterator[None]:
    """Within the block, SIGINT is blocked in the main thread, so that processes started from it (and threads
    started in it) begin with it blocked: a signal mask is inherited and stays across exec, and a worker that took
    Ctrl-C while still starting, before it could ignore it, printed its traceback. The processes must be started
    by this thread (``spawn`` or ``fork``): a ``forkserver`` child has its server's mask. A Ctrl-C in the block is
    not lost: it waits, and reaches the main process when the block ends, or at once through a thread that does
    not block it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # The first process spawned starts multiprocessing's resource tracker, and starting it unblocks SIGINT in
    # this thread (resource_tracker.ensure_running): started beforehand, it leaves the block whole
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    if size < 1:
        raise ValueError(f"chunksize is at least 1; got {size}")
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _apply(function: Callable[[Any], Any], chunk: list[Any]) -> list[Any]:
    return [function(item) for item in chunk]


def _results(futures: list[Future[list[Any]]]) -> Iterator[Any]:
    try:
        for future in futures:
            yield from future.result()
    except BrokenProcessPool:
        raise WorkerLost(LOST) from None
