"""What every environment of the project does alike (``contack_v0``, ``solitaire_v0``, ``contactix_v0``), defined
once; each env card states it.

- **Action masks** are int8 arrays (1 = legal), as PettingZoo's classic games give them.
- **Illegal actions**: the option ``illegal_action`` says what an action outside the mask (an integer outside the
  action space included) does, handled in the raw environment's ``step``: ``"raise"`` raises ``ValueError`` and
  changes nothing; ``"lose"`` ends the game at once, the offender gets ``ILLEGAL_REWARD`` (every other agent 0
  for that step), and the offender's info holds ``"illegal_action": True``. In the PettingZoo environments an
  action that is no integer at all raises ``ValueError`` whatever the option.
- **Reset options**: unknown keys are ignored with a warning (PettingZoo's API test passes made-up ones).
"""

from __future__ import annotations

import warnings
from typing import Any, Collection

import numpy as np

MASK_DTYPE = np.int8
"""The dtype of every action mask."""
ILLEGAL_ACTIONS = ("raise", "lose")
"""The values of the ``illegal_action`` option."""
ILLEGAL_REWARD = -1.0
"""What an illegal action costs its offender with ``illegal_action="lose"``."""


def check_illegal_action(value: Any) -> str:
    """``value`` if it is one of ``ILLEGAL_ACTIONS``; else ``ValueError`` saying what is allowed."""
    if not isinstance(value, str) or value not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action is one of {', '.join(map(repr, ILLEGAL_ACTIONS))}; got {value!r}")
    return value


def reset_options(options: Any, known: Collection[str]) -> dict[str, Any]:
    """The reset ``options`` as a dict (None is ``{}``); keys outside ``known`` are ignored with a warning."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options is a dict or None; got {type(options).__name__}")
    unknown = sorted(map(str, set(options) - set(known)))
    if unknown:
        allowed = ", ".join(map(repr, known)) if known else "none"
        warnings.warn(f"reset ignores the unknown option(s) {unknown}; the options are: {allowed}", stacklevel=3)
    return options
