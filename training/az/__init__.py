"""Search-guided (AlphaZero-style) learning for Contack, the solitaires and CON-TAC-TIX (every game of the registry
with a state observer): ``contack train --algorithm az``.

What plays lives in ``agents.az`` (the ``az:`` agent uses it too): ``encoding`` (what the network sees at a state
and where each legal move sits among its outputs), ``network`` (the numpy network and its ``contack-az/1`` weight
file), ``search`` (the tree search over the engine that the network guides), ``evaluator`` (batched network
evaluation), ``endgame`` and ``horizon``. What trains lives here:

- ``model``: the same network in torch, for training, and its export;
- ``selfplay``: many games at once, over worker processes, producing training samples;
- ``pretrain``: samples from the games of a bot (``--pretrain-games``);
- ``config``, ``train`` and ``command``: the training run and its command line; ``report``: its evaluations;
- ``value_ceiling`` and ``leaf_oracle``: measures of how much of a position's value a network knows, and what a
  better one would give the search (``python -m training.az.value_ceiling``, ``python -m training.az.leaf_oracle``).
"""
