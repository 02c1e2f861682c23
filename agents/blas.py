"""One BLAS thread for each worker process that numpy starts in: the environment while the workers are spawned.

The searches and the ``az`` network run small matrix products. In worker processes, one per core, more than
one BLAS thread each only contends for the cores: a batch of 64 ran ten times slower with the default threads on
a busy 2-core machine, and a batch of 16 three times slower.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def one_thread_for_workers() -> Iterator[None]:
    """Within the block, worker processes spawned start numpy with one BLAS thread (numpy reads these variables
    when a spawned worker imports it); a value the user set is kept. The caller's environment is restored after,
    so processes started later (Ray's, torch's threads) are not held to one thread."""
    added = [var for var in VARIABLES if var not in os.environ]
    for var in added:
        os.environ[var] = "1"
    try:
        yield
    finally:
        for var in added:
            os.environ.pop(var, None)
