"""The Contack rules engine (docs/rules.md): pure Python + numpy, no RL machinery.

- ``tiles``: the 36 tiles, names, values, contacts.
- ``grid``: cells, sides, orientations, neighbours.
- ``figure``: the placed tiles and the fast legal-move generator (``Move``).
- ``state``: what every Contack game state shares (the decision, ``play``, the event log).
- ``multiplayer``: the 2-7 player game over N hands; ``solitaire``: Solitaires No. 1 and No. 2.
"""
