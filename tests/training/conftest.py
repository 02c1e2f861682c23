"""The training tests. ``az_nets`` (untrained search-guided networks) is importable from every test under this
folder because this file puts the folder on ``sys.path`` (the tests run with ``--import-mode=importlib``)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
