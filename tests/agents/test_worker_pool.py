"""agents.worker_pool: results in order, a worker killed mid-work is an error rather than a wait without end,
and an exception ends the workers at once."""

from __future__ import annotations

import os
import signal
import time
from contextlib import contextmanager

import pool_tasks
import pytest

from agents.worker_pool import WorkerLost, WorkerPool


@contextmanager
def _deadline(seconds: int):
    """Fail, rather than hang the suite, if the block takes longer (multiprocessing.Pool waits forever here)."""
    def expired(*_):
        raise AssertionError(f"still waiting after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("chunksize", [1, 3])
def test_results_come_in_the_order_of_the_items(chunksize):
    with WorkerPool(2) as pool:
        assert list(pool.map(pool_tasks.square, range(20), chunksize=chunksize)) == [x * x for x in range(20)]


def test_workers_leave_ctrl_c_to_the_main_process():
    with WorkerPool(2) as pool:
        seen = list(pool.map(pool_tasks.pid_and_sigint, range(6)))
    assert all(ignored for _, ignored in seen)
    assert all(pid != os.getpid() for pid, _ in seen)


def test_a_worker_killed_mid_work_raises_worker_lost():
    with _deadline(60), pytest.raises(WorkerLost, match="a worker process ended in the middle of its work"):
        with WorkerPool(2) as pool:
            list(pool.map(pool_tasks.die_at, range(8)))


def test_an_exception_ends_the_workers_without_waiting_for_their_work():
    started = time.time()
    with _deadline(60), pytest.raises(KeyError):
        with WorkerPool(2) as pool:
            pids = pool.map(pool_tasks.sleep_long, [0.1, 0.1, 300, 300])
            first = next(pids)
            raise KeyError("stop")
    assert time.time() - started < 30  # the 300-second tasks were not waited for
    deadline = time.time() + 10
    while _alive(first) and time.time() < deadline:
        time.sleep(0.1)
    assert not _alive(first)
