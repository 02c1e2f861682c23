"""``python -m contack_env.cli ...``: the ``contack`` command without the installed script."""

import sys

from contack_env.cli import main

sys.exit(main())
