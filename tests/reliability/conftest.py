"""The ``cli`` fixture: run ``contack ...`` in a fresh process, as a user does, and check how it ends.

Every bad input and fault these tests make must end with a message and an exit status, never a Python
traceback: ``Result.assert_clean_failure`` checks all three. The helpers live in ``reliability_helpers``
(importable from these tests: this file puts its folder on ``sys.path``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reliability_helpers import run_contack  # noqa: E402


@pytest.fixture
def cli():
    return run_contack
