"""Settings for the whole test session.

Stable-Baselines3 makes a folder ``SB3-<date-time>`` in the system's temporary folder for every learner built
without a log folder, even one that logs nothing, as the SB3 recipes these tests follow build them
(``docs/clients.md``). Here they log into the session's own temporary folder, which pytest cleans up.
"""

from __future__ import annotations

from typing import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def sb3_logs_in_the_session_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    patch = pytest.MonkeyPatch()
    patch.setenv("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3_logs")))
    yield
    patch.undo()
