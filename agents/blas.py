"""One BLAS thread for each worker process that numpy starts in: set before the workers are spawned.

The searches and the ``az`` network run small matrix products. In worker processes, one per core, more than
one BLAS thread each only contends for the cores: a batch of 64 ran ten times slower with the default threads on
a busy 2-core machine, and a batch of 16 three times slower.
"""

from __future__ import annotations

import os

VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_thread_for_workers() -> None:
    """Have worker processes spawned from now on start numpy with one BLAS thread (numpy reads these variables
    when a spawned worker imports it); a value the user set is kept."""
    for var in VARIABLES:
        os.environ.setdefault(var, "1")
