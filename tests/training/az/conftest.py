"""The search-guided learner's tests. ``az_nets`` (untrained networks) is importable from them because this file
puts its folder on ``sys.path`` (the tests run with ``--import-mode=importlib``)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
