"""Worker processes start numpy with one BLAS thread; the caller's environment is left as it was."""

import multiprocessing
import os

from agents.blas import VARIABLES, one_thread_for_workers


def _threads_seen() -> dict:
    return {var: os.environ.get(var) for var in VARIABLES}


def test_spawned_workers_get_one_thread_and_the_callers_environment_is_restored(monkeypatch):
    for var in VARIABLES:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")  # the user's own setting is kept, for the workers and after
    with one_thread_for_workers():
        pool = multiprocessing.get_context("spawn").Pool(1)
    with pool:
        seen = pool.apply(_threads_seen)
    assert seen == {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "3"}
    assert _threads_seen() == {"OMP_NUM_THREADS": None, "OPENBLAS_NUM_THREADS": None, "MKL_NUM_THREADS": "3"}
