"""The environments: ``contack_v0`` (PettingZoo AEC, 2-7 players), ``solitaire_v0`` (Gymnasium, both solitaires),
``contactix_v0`` (PettingZoo AEC, CON-TAC-TIX). ``conventions`` holds what they do alike (masks, illegal actions,
reset options); ``layout`` declares observation vectors piece by piece, ``figure_features`` the pieces every
Contack observation shares, ``observation`` the multiplayer one; ``actions`` is the action encoding; ``replay``
walks a record through them."""
