"""The PettingZoo ids of the multiplayer games, registered as Gymnasium's ids of the solitaires are.

``import contack_env`` calls ``register_pettingzoo_envs()``, so after it ``pettingzoo.make("aec",
"contack/contack-v0")`` and ``pettingzoo.make("aec", "contack/contactix-v0")`` make the environments exactly as
``contack_v0.env()`` and ``contactix_v0.env()`` do (keyword arguments are their options). PettingZoo has a
registry from 1.27; with an older PettingZoo nothing is registered and the modules' ``env()`` are the way in.
"""

from __future__ import annotations

import pettingzoo

PETTINGZOO_IDS = {
    "contack/contack-v0": "contack_env.envs.contack_v0:env",
    "contack/contactix-v0": "contack_env.envs.contactix_v0:env",
}
"""The AEC ids and the entry points they make."""


def register_pettingzoo_envs() -> bool:
    """Register ``PETTINGZOO_IDS`` in PettingZoo's AEC registry (idempotent); False if this PettingZoo has none."""
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:
        return False
    for env_id, entry_point in PETTINGZOO_IDS.items():
        if env_id not in registry:
            register("aec", env_id, entry_point=entry_point)
    return True
