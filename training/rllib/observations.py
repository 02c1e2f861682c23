"""The observation RLlib's action-masking module reads: ``{"observations": ..., "action_mask": ...}``.

RLlib's ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) takes a
dict observation with the keys ``observations`` and ``action_mask``; PettingZoo's classic games, ``contack_v0``
among them, call the first ``observation``. ``RLlibObservations`` renames it (and gives the mask as float32, what
the module takes the logarithm of), so a user's RLlib script runs ``contack_v0`` with
``PettingZooEnv(RLlibObservations(contack_v0.env()))`` and no glue of its own. Needs no ray.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"


def masked_space(observation: spaces.Box, num_actions: int) -> spaces.Dict:
    """The dict space of ``masked_observation``."""
    return spaces.Dict({OBSERVATIONS: observation,
                        ACTION_MASK: spaces.Box(0.0, 1.0, shape=(num_actions,), dtype=np.float32)})


def masked_observation(observation: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """One observation as the masking module reads it."""
    return {OBSERVATIONS: np.asarray(observation, dtype=np.float32),
            ACTION_MASK: np.asarray(mask, dtype=np.float32)}


class RLlibObservations(BaseWrapper):
    """A PettingZoo AEC environment with dict observations ``{"observation", "action_mask"}`` (contack_v0,
    contactix_v0, connect_four_v3, ...), observed as ``{"observations", "action_mask"}``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces: dict[str, spaces.Dict] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        if agent not in self._spaces:
            inner = self.env.observation_space(agent)
            if not isinstance(inner, spaces.Dict) or set(inner.spaces) != {"observation", ACTION_MASK}:
                raise ValueError(f"RLlibObservations wraps environments observed as dicts with the keys observation "
                                 f"and action_mask; agent {agent!r} is observed as {inner}")
            self._spaces[agent] = masked_space(inner["observation"], int(self.env.action_space(agent).n))
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.env.observe(agent)
        return masked_observation(obs["observation"], obs[ACTION_MASK])
