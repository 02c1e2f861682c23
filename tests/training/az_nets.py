"""Networks for the search-guided tests: untrained, written as ``contack-az/1`` files."""

import numpy as np
import torch

from agents.az.encoding import Encoder
from training.az.model import AZModel
from agents.az.network import AZNet


def random_net(game: str = "contack", seed: int = 0, features: str = "none", **meta) -> AZNet:
    """A freshly initialised network (random trunk and value head: non-uniform values, near-uniform policy) that
    reads ``features``; ``meta`` goes into its file (``horizon="hand"``, ``sims``, ...)."""
    return random_model(game, seed, features).export({"game": game, "features": features, **meta})


def random_model(game: str = "contack", seed: int = 0, features: str = "none",
                 arch: tuple[int, ...] = (32, 32)) -> AZModel:
    """The torch model behind ``random_net`` (its trunk ``arch``), before export."""
    torch.manual_seed(seed)
    enc = Encoder(game, features)
    gather = None
    if enc.factored:
        from contack_env.envs.observation import action_feature_index

        gather = np.concatenate([action_feature_index(), enc.extra_index()], axis=1)
    model = AZModel(enc.obs_size, enc.num_actions, enc.seats, list(arch), gather=gather)
    with torch.no_grad():  # a policy that prefers some moves, so that the tests see it matter
        model.head.weight.normal_(0, 0.5)
    return model


def uniform_net(game: str = "contack") -> AZNet:
    """Every move equally likely and every seat's value 0.5 everywhere: the search alone decides."""
    enc = Encoder(game)
    w = 8
    return AZNet([(np.zeros((enc.obs_size, w), np.float32), np.zeros(w, np.float32))],
                 (np.zeros((w, enc.num_actions), np.float32), np.zeros(enc.num_actions, np.float32)),
                 [(np.zeros((w, 4), np.float32), np.zeros(4, np.float32)),
                  (np.zeros((4, enc.seats), np.float32), np.zeros(enc.seats, np.float32))],
                 meta={"game": game})
