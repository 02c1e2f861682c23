"""``State.public_key``: two states reached by the same moves are one public state exactly when their keys agree.

The search-guided agent's tree (``agents.az.search``) merges determinizations by this key, so a key that splits
states a player cannot tell apart wastes the search, and one that merges states a player can tell apart lets
the search act on what it cannot see.
"""

from __future__ import annotations

import numpy as np
import pytest

from contack_env.games import GAMES
from contack_env.protocol import State


def _walks(game: str, seed: int):
    """Pairs of states: two determinizations of one deal's public view, played by the same move choices."""
    spec = GAMES[game]
    players = min(3, spec.max_players)
    view = spec.new_state(seed, players).public_view()
    rng = np.random.default_rng(seed)
    a, b = view.determinize(np.random.default_rng([seed, 1])), view.determinize(np.random.default_rng([seed, 2]))
    while not a.done and not b.done:
        yield a, b
        codes = a.legal_codes()
        if list(codes) != list(b.legal_codes()):
            return
        code = codes[int(rng.integers(len(codes)))]
        a.play_code(code)
        b.play_code(code)
    yield a, b


@pytest.mark.parametrize("game", sorted(GAMES))
def test_equal_keys_mean_the_player_sees_the_same_position(game):
    equal = differ = 0
    for seed in range(12):
        for a, b in _walks(game, seed):
            assert isinstance(a, State)
            same_view = GAMES[game].text(a.public_view()) == GAMES[game].text(b.public_view())
            if a.public_key() == b.public_key():
                equal += 1
                assert same_view, f"{game}: equal keys, but the player sees two positions"
                assert list(a.legal_codes()) == list(b.legal_codes())
            else:
                differ += 1
                assert not same_view, f"{game}: different keys for one position the player sees"
    assert equal > 0
    if game != "contactix":  # nothing is hidden in CON-TAC-TIX: its determinizations never part
        assert differ > 0, f"{game}: the sampled hidden tiles never showed"
