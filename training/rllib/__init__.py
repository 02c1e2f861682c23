"""``contack train --backend rllib``: RLlib's PPO (new API stack) on ``contack_v0``, as an optional extra.

``pip install -c constraints-rllib.txt -e '.[rllib]'`` installs Ray's RLlib. The modules here:

- ``command``: the ``--backend`` and ``--env-runners`` options and the run (imports ray only when it runs).
- ``env``: ``contack_v0`` as an RLlib ``MultiAgentEnv`` whose observations are what RLlib's action-masking
  module reads (``{"action_mask", "observations"}``); the seats that do not learn are played by the opponent pool.
- ``module``: the PPO configuration: one learning module with action masking, shaped as a policy file's actor.
- ``export``: the learning module's actor as a ``contack-policy/1`` file (``agents.policy_file``).
- ``train``: the training loop (self-play snapshots, progress, the run folder's files).
"""
