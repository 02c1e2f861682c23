"""The learning module's actor as a ``contack-policy/1`` file (``agents.policy_file``).

RLlib's PPO module with separate actor and critic (``vf_share_layers=False``) and no hidden head layers is the
policy file's network: the actor encoder's Linear layers with one activation, then the ``pi`` head's single
Linear layer giving the logits, which the action mask then restricts. ``ppo:DIR/policy.npz`` plays it with
numpy alone.
"""

from __future__ import annotations

from typing import Any

import torch

from agents.policy_file import PolicyFileError, PolicyNet


def _linear(module: torch.nn.Linear) -> tuple[Any, Any]:
    w = module.weight.detach().cpu().numpy().T.astype("float32").copy()
    b = module.bias.detach().cpu().numpy().astype("float32").copy()
    return w, b


def policy_net(module: Any, meta: dict[str, Any]) -> PolicyNet:
    """The actor of ``module`` (an ``ActionMaskingTorchRLModule`` or a ``DefaultPPOTorchRLModule``) as a
    ``PolicyNet``; refuses a module of any other shape rather than export a network that plays differently."""
    actor = module.encoder.actor_encoder.net.mlp
    head = list(module.pi.net.mlp)
    layers = []
    activations = set()
    for part in actor:
        if isinstance(part, torch.nn.Linear):
            layers.append(_linear(part))
        elif isinstance(part, torch.nn.Tanh):
            activations.add("tanh")
        elif isinstance(part, torch.nn.ReLU):
            activations.add("relu")
        else:
            raise PolicyFileError(f"cannot export an RLlib actor with a {type(part).__name__} layer")
    if len(head) != 1 or not isinstance(head[0], torch.nn.Linear):
        raise PolicyFileError("cannot export an RLlib policy head with hidden layers (head_fcnet_hiddens must be [])")
    if len(activations) > 1:
        raise PolicyFileError(f"cannot export an RLlib actor mixing activations {sorted(activations)}")
    return PolicyNet(layers, _linear(head[0]), activations.pop() if activations else "tanh", dict(meta))
