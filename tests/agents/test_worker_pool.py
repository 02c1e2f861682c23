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
        time.sleep(0.7)
    assert not _alive(first)


SCRIPT = """
import pool_tasks
from agents.worker_pool import WorkerPool
try:
    with WorkerPool(2) as pool:
        results = pool.map(pool_tasks.sleep_long, [5, 5])
        print("started", flush=True)
        next(results)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_a_ctrl_c_while_the_workers_start_is_the_main_process_s_alone():
    # The workers take a second to start (they import the agents package): a Ctrl-C then reached them before
    # any code of theirs could ignore it, and each printed a traceback, unless they were started ignoring it.
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests" / "support")])}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as at a terminal
    try:
        assert proc.stdout.readline() == "started\n"
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        for _ in range(20):  # the key, pressed again and again as they start, reaching the workers
            for child in children:
                try:
                    os.kill(int(child), signal.SIGINT)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGINT)  # and the main process
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert out == "interrupted\n"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_ctrl_c_while_work_is_handed_out_is_not_lost(monkeypatch):
    # Each round hands its work out with Ctrl-C held back from the workers as they start; a Ctrl-C in that
    # moment was once ignored, and a training run went on after it.
    from concurrent.futures import ProcessPoolExecutor

    hand_out = ProcessPoolExecutor.submit

    def ctrl_c_while_handing_out(executor, *args, **kwargs):
        future = hand_out(executor, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return future

    with WorkerPool(2) as pool:
        assert list(pool.map(pool_tasks.square, range(2))) == [0, 1]  # the workers are up
        monkeypatch.setattr(ProcessPoolExecutor, "submit", ctrl_c_while_handing_out)
        with _deadline(30), pytest.raises(KeyboardInterrupt):
            pool.map(pool_tasks.square, range(2))
            time.sleep(2)  # (a lost Ctrl-C: the block ends without one)


def test_work_left_unread_by_a_ctrl_c_is_ended_without_a_traceback_from_the_pools_thread(monkeypatch):
    # Executor.map's results, left unread, cancelled the work not started from the caller's thread; terminate()
    # then ended the workers, and the pool's thread, marking that work failed, met the cancelled futures and died
    # with a traceback (InvalidStateError, Python 3.11; 1 Ctrl-C of `evaluate --workers 2` in about 90). It did
    # when it had not dropped that work itself first: the work was still waiting behind a full queue, and the
    # pool's executor was collected before its thread saw the shutdown. That path, made certain here.
    import threading
    from concurrent.futures.process import _ExecutorManagerThread

    failures = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    monkeypatch.setattr(_ExecutorManagerThread, "flag_executor_shutting_down", lambda self: None)
    pool = WorkerPool(2)
    results = pool.map(pool_tasks.sleep_long, [0.05, 0.05] + [300] * 10)  # 2 at work, 3 queued for them, 5 waiting
    assert next(results) and next(results)  # the long tasks start
    thread = pool._executor._executor_manager_thread
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()  # a Ctrl-C while they run
    with pytest.raises(KeyboardInterrupt):
        next(results)
    pool.terminate()
    thread.join(timeout=30)
    assert not thread.is_alive() and failures == []


HELD_BACK = """
import multiprocessing
import signal

import pool_tasks
from agents.worker_pool import ctrl_c_held_back_from_new_processes

with ctrl_c_held_back_from_new_processes():
    child = multiprocessing.get_context("spawn").Process(target=pool_tasks.exit_0_if_sigint_blocked)
    child.start()
child.join()
print(child.exitcode, signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
"""


def test_the_first_process_spawned_while_ctrl_c_is_held_back_starts_with_it_blocked():
    # in a new interpreter: the first process spawned starts multiprocessing's resource tracker, which unblocked
    # SIGINT on its way, and the process then began open to a Ctrl-C (the block ends with SIGINT unblocked again)
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests" / "support")])}
    done = subprocess.run([sys.executable, "-c", HELD_BACK], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout == "0 False\n", done.stderr


HALF_SENT = """
from agents.worker_pool import WorkerPool
import pool_tasks

if __name__ == "__main__":
    pool = WorkerPool(2)
    results = pool.map(pool_tasks.large_result, [200] * 6)
    next(results)  # the next results are on their way through the pipe
    pool.terminate()
    print("terminated", flush=True)
"""


def test_workers_ended_while_sending_results_do_not_keep_the_process_from_exiting(tmp_path):
    # a worker ended halfway through a result left the pool's thread waiting for the rest, and the interpreter's
    # exit waiting for that thread: a Ctrl-C in az training with workers once hung the command so
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = tmp_path / "half_sent.py"  # a file: spawned workers import the main module by its path
    script.write_text(HALF_SENT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests" / "support")])}
    out, err = tmp_path / "out", tmp_path / "err"  # files, not pipes, which the left processes would hold open
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen([sys.executable, str(script)], stdout=stdout, stderr=stderr, env=env,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            pytest.fail("the process had not exited 60 s after ending its workers")
    assert (code, out.read_text()) == (0, "terminated\n"), err.read_text()
