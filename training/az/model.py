"""The policy-and-value network in torch (training) and its export to the numpy ``AZNet`` (play)."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from agents.az.network import AZNet

SCORER_WIDTH = 64
VALUE_WIDTH = 64


class AZModel(nn.Module):
    """Trunk, policy head (with the factored scorer when ``gather`` is given) and per-seat value head."""

    def __init__(self, obs_size: int, num_actions: int, seats: int, widths: list[int], activation: str = "relu",
                 gather: np.ndarray | None = None) -> None:
        super().__init__()
        self.activation = activation
        act = nn.ReLU if activation == "relu" else nn.Tanh
        layers: list[nn.Module] = []
        size = obs_size
        for width in widths:
            layers += [nn.Linear(size, width), act()]
            size = width
        self.trunk = nn.Sequential(*layers)
        self.head = nn.Linear(size, num_actions)
        self.value_hidden = nn.Linear(size, VALUE_WIDTH)
        self.value_out = nn.Linear(VALUE_WIDTH, seats)
        self.act = act()
        self.register_buffer("gather", None if gather is None else torch.as_tensor(gather, dtype=torch.long),
                             persistent=False)
        if gather is not None:
            self.feature = nn.Linear(gather.shape[1], SCORER_WIDTH, bias=False)
            self.context = nn.Linear(size, SCORER_WIDTH)
            self.out = nn.Linear(SCORER_WIDTH, 1)
            nn.init.zeros_(self.out.weight)  # the first policy is the plain head's: near uniform
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits ``(n, actions)`` and value logits ``(n, seats)`` (a sigmoid gives the values)."""
        x = self.trunk(obs)
        logits = self.head(x)
        if self.gather is not None:
            per_action = obs[:, self.gather]  # (n, actions, features)
            hidden = self.act(self.feature(per_action) + self.context(x).unsqueeze(1))
            logits = logits + self.out(hidden).squeeze(-1)
        return logits, self.value_out(self.act(self.value_hidden(x)))

    def export(self, meta: dict[str, Any]) -> AZNet:
        """The numpy network with the same weights (``meta`` goes into its file)."""
        trunk = [_linear(m) for m in self.trunk if isinstance(m, nn.Linear)]
        scorer = None
        if self.gather is not None:
            wc, bc = _linear(self.context)
            wo, bo = _linear(self.out)
            scorer = {"gather": self.gather.cpu().numpy().astype(np.int64),
                      "wf": self.feature.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
                      "wc": wc, "bc": bc, "wo": wo, "bo": bo}
        return AZNet(trunk, _linear(self.head), [_linear(self.value_hidden), _linear(self.value_out)],
                     self.activation, dict(meta), scorer)


def loss(model: AZModel, obs: torch.Tensor, mask: torch.Tensor, policy: torch.Tensor, value: torch.Tensor,
         seats: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Policy cross-entropy against the search's targets over the legal actions (``mask``), and the value's
    binary cross-entropy against the results of the seats at the table (``seats``: 1 where a seat exists)."""
    logits, value_logits = model(obs)
    logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
    policy_loss = -(policy * logp).sum(1).mean()
    bce = nn.functional.binary_cross_entropy_with_logits(value_logits, value, reduction="none")
    value_loss = (bce * seats).sum() / seats.sum()
    return policy_loss, value_loss


def _linear(module: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
    return (module.weight.detach().cpu().numpy().T.astype(np.float32).copy(),
            module.bias.detach().cpu().numpy().astype(np.float32).copy())
