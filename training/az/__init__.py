"""Search-guided (AlphaZero-style) learning for Contack and the solitaires: ``contack train --algorithm az``.

- ``encoding``: what the network sees at a state and where each legal move sits among its outputs;
- ``network``: the numpy policy-and-value network and its ``contack-az/1`` weight file;
- ``search``: the tree search over the engine that the network guides;
- ``evaluator``: batched network evaluation of the states a search asks about;
- ``model``: the same network in torch, for training, and its export;
- ``selfplay``: many games at once, over worker processes, producing training samples;
- ``config`` and ``train``: the training run.
"""
