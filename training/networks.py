"""The "factored" policy for Contack: every action scored by one shared network from what it places where.

A plain MLP policy maps the observation to 105 logits through 105 separate output weights, so what it learns
about one action (say, that scoring 20 is good) does not carry over to another. Here each action ``a``
(tile slot ``a // 21``, cell slot ``a % 21``) gets its own feature vector gathered from the observation, the
same for every action (``contack_env.envs.observation.action_feature_index``):

    the tile's 5 hand-slot values (present, blue, red, gold, forced), the cell's 9 cell-slot values
    (present, position, up, placed neighbours, the three facing values, beside the last tile), and the points
    the placement scores

and its logit is ``scorer([features_a, context]) + head(trunk)_a``: a small MLP shared by all actions, fed with a
projection of the trunk's output (the whole position), plus the usual per-action linear head. The value
network is the plain MLP trunk.

It plugs into sb3-contrib's ``MaskablePPO`` as ``policy=FactoredPolicy`` and exports to the numpy
``PolicyNet`` (``agents.policy_file``) like the plain MLP.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

from contack_env.envs.observation import NUM_ACTIONS, OBS_SIZE, action_feature_index

SCORER_WIDTH = 64


class _Extractor(nn.Module):
    """Policy latent = trunk output followed by the flattened per-action features; value latent = its trunk."""

    def __init__(self, obs_size: int, net_arch: list[int], activation: type[nn.Module], gather: np.ndarray) -> None:
        super().__init__()
        self.register_buffer("gather", torch.as_tensor(gather.reshape(-1)), persistent=False)
        self.num_actions, self.action_features = gather.shape
        self.policy_net = _mlp(obs_size, net_arch, activation)
        self.value_net = _mlp(obs_size, net_arch, activation)
        self.trunk_dim = net_arch[-1]
        self.latent_dim_pi = self.trunk_dim + gather.size
        self.latent_dim_vf = net_arch[-1]

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.policy_net(features), features.index_select(1, self.gather)], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features)


class ActionScorer(nn.Module):
    """Logits from the policy latent of ``_Extractor``: shared scorer over action features + linear head."""

    def __init__(self, trunk_dim: int, num_actions: int, action_features: int, activation: type[nn.Module]) -> None:
        super().__init__()
        self.trunk_dim, self.num_actions, self.action_features = trunk_dim, num_actions, action_features
        self.head = nn.Linear(trunk_dim, num_actions)
        self.context = nn.Linear(trunk_dim, SCORER_WIDTH)
        self.feature = nn.Linear(action_features, SCORER_WIDTH, bias=False)
        self.act = activation()
        self.out = nn.Linear(SCORER_WIDTH, 1)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        trunk = latent[:, : self.trunk_dim]
        per_action = latent[:, self.trunk_dim :].reshape(-1, self.num_actions, self.action_features)
        hidden = self.act(self.feature(per_action) + self.context(trunk).unsqueeze(1))
        return self.head(trunk) + self.out(hidden).squeeze(-1)


class FactoredPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with the factored action head (module docstring); ``net_arch`` is a list."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        net_arch = kwargs.get("net_arch") or [256, 256]
        if isinstance(net_arch, dict):
            net_arch = net_arch.get("pi", [256, 256])
        kwargs["net_arch"] = list(net_arch)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        extra = self.features_dim == OBS_SIZE + NUM_ACTIONS  # per-action features appended (agents.features)
        self.mlp_extractor = _Extractor(
            self.features_dim, list(self.net_arch), self.activation_fn, action_feature_index(extra)
        )

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        ex = self.mlp_extractor
        self.action_net = ActionScorer(ex.trunk_dim, ex.num_actions, ex.action_features, self.activation_fn)
        if self.ortho_init:  # as SB3 does for its heads: small output weights, so the first policy is near uniform
            head = self.action_net
            for module, gain in ((head.head, 0.01), (head.out, 0.01), (head.context, 1.0), (head.feature, 1.0)):
                _ortho(module, gain)
        # The optimizer made by the base class holds the replaced head's parameters: make it again.
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


def _mlp(size: int, widths: list[int], activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(size, width), activation()]
        size = width
    return nn.Sequential(*layers)


def _ortho(module: nn.Module, gain: float) -> None:
    if isinstance(module, nn.Linear):
        nn.init.orthogonal_(module.weight, gain=gain)
        if module.bias is not None:
            module.bias.data.fill_(0.0)
