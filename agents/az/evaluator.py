"""Batched network evaluation for the search (``agents.az.search``): states in, ``(logits, values)`` out."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from contack_env import GameState

from agents.policy_file import PolicyFileError, trained_options

from .encoding import Encoder, relative_to_absolute
from .network import AZNet
from .search import Evaluation, num_seats


class NetEvaluator:
    """Evaluates states of ``net``'s game with ``net``: one forward pass per batch. Its inputs are those of the
    rule options the network was trained under (``agents.policy_file.trained_options``)."""

    def __init__(self, net: AZNet, source: str = "the network") -> None:
        self.net = net
        self.source = source
        """What messages call the network (its file's path)."""
        self.options = trained_options(net.meta, source)
        """The rule options the network was trained under, which its inputs follow."""
        self.encoder = Encoder(net.game, net.features, self.options)
        if net.obs_size != self.encoder.obs_size:
            raise PolicyFileError(f"{source} reads {net.obs_size} inputs, but {net.game} with features "
                                  f"{net.features!r} gives {self.encoder.obs_size}")

    def __call__(self, states: Sequence[GameState]) -> list[Evaluation]:
        try:
            encoded = [self.encoder.encode(s) for s in states]
        except ValueError as err:  # a state of rule options other than the network's (a board of another size)
            raise PolicyFileError(f"{self.source}: {err}") from None
        logits, values = self.net.forward(np.stack([obs for obs, _ in encoded]), [actions for _, actions in encoded])
        out = []
        for b, (state, (_, actions)) in enumerate(zip(states, encoded)):
            seats = num_seats(state)
            out.append((logits[b, actions].astype(np.float64),
                        relative_to_absolute(values[b, :seats], state.current_player, seats)))
        return out
