"""Puts this folder on ``sys.path``: the tests run with ``--import-mode=importlib`` and have no ``__init__.py``,
so ``sb3_tutorial`` (the tutorial's pattern, shared by its test and its figures) is importable only so."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
