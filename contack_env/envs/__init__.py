"""The environments: ``contack_v0`` (PettingZoo AEC, 2-7 players), ``solitaire_v0`` (Gymnasium, both solitaires),
``contactix_v0`` (PettingZoo AEC, CON-TAC-TIX); ``observation`` and ``actions`` lay out what they exchange;
``replay`` walks a record through them."""
