"""What the ``az:PATH[:SIMS]`` agent plays with: the network's numpy forward pass and file (``network``), its input
(``encoding``), batched evaluation (``evaluator``) and the search (``search``). Training them is ``training.az``."""
