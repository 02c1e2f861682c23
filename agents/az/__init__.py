"""What the ``az:PATH[:SIMS[:ENDGAME]]`` agent plays with: the network's numpy forward pass and file
(``network``), its input (``encoding``), batched evaluation (``evaluator``), the search (``search``) and the
exact search of a solitaire's last moves (``endgame``). Training them is ``training.az``."""
