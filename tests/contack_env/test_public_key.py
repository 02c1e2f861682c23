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


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_move_is_a_chance_node_exactly_when_it_turns_tiles_face_up(game):
    """``State.face_down``: where it stays the same, the move's outcome is one public state whatever the hidden
    order; where it falls, the outcome depends on that order (the expectimax search samples exactly there)."""
    spec = GAMES[game]
    players = min(3, spec.max_players)
    fell = parted = 0
    for seed in range(10):
        state = spec.new_state(seed, players)
        rng = np.random.default_rng(seed)
        while not state.done:
            view = state.public_view()
            before = view.face_down()
            assert before == state.face_down()  # what is face down is seen by everyone alike
            for code in view.legal_codes():
                outcomes = []
                for k in range(6):
                    child = view.determinize(np.random.default_rng([seed, k]))
                    child.play_code(code)
                    outcomes.append(child)
                drops = {before - child.face_down() for child in outcomes}
                keys = {child.public_key() for child in outcomes}
                assert min(drops) >= 0, f"{game}: a move put tiles face down"
                if drops == {0}:
                    assert len(keys) == 1, f"{game}: nothing turned up, yet the outcome depends on the hidden order"
                else:
                    assert 0 not in drops, f"{game}: one order turned tiles up after the move, another none"
                    fell += 1
                    parted += len(keys) > 1
            codes = state.legal_codes()
            state.play_code(codes[int(rng.integers(len(codes)))])
    if game != "contactix":
        assert fell > 0 and parted > 0, f"{game}: no move turned a tile up"
