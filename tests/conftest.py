"""Settings for the whole test session.

Stable-Baselines3 makes a folder ``SB3-<date-time>`` in the system's temporary folder for every learner built
without a log folder, even one that logs nothing, as the SB3 recipes these tests follow build them
(``docs/clients.md``). Here they log into the session's own temporary folder, which pytest cleans up.

``support/`` is on ``sys.path`` (the tests run with ``--import-mode=importlib``), for the helpers every part of the
suite shares: ``nim_game``, a game the suite has never seen. (Not this folder itself: its ``ray/`` would then
stand in for the Ray package where that is not installed.)

The suite runs in one worker process per core (pytest-xdist, ``-n auto`` in ``pyproject.toml``; ``-n 0`` runs it in
this process alone). Each worker, and every process its tests start, uses one BLAS and OpenMP thread: two workers
with torch's default of one thread per core would contend for the cores, and a short MaskablePPO run then took
twenty times as long. A value the user set is kept.
"""

from __future__ import annotations

import os
import sys
from typing import Iterator

import pytest

# agents.blas.VARIABLES, not imported: importing agents loads numpy, which must find these already set
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, "1")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_in_the_session_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    patch = pytest.MonkeyPatch()
    patch.setenv("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3_logs")))
    yield
    patch.undo()
