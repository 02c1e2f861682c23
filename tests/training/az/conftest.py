"""The search-guided learner's tests. ``hidden_order`` and ``public_play`` are importable from them because this
file puts its folder on ``sys.path`` (the tests run with ``--import-mode=importlib``); ``az_nets`` comes from the folder above
(``tests/training/conftest.py``)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
