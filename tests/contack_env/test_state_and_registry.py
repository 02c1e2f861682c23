"""``contack_v0``'s ``state()`` / ``state_space`` and the PettingZoo ids ``import contack_env`` registers."""

from __future__ import annotations

import warnings

import numpy as np
import pettingzoo
import pytest

import contack_env  # noqa: F401  (registers the ids)
from contack_env import contack_v0, contactix_v0
from contack_env.contack.tiles import tiles_in
from contack_env.envs.observation import HAND_COLUMNS, SCORE_SCALE, TILE_COLUMNS
from contack_env.envs.state import STATE_LAYOUT, STATE_SIZE


def _random_game(env, seed):
    """Every position of one random game through the AEC API (the env after each step, while it is on)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    yield env
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        if env.agents:
            yield env


# -- state() -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_state_is_the_public_position_with_seats_as_agents(players):
    env = contack_v0.env(num_players=players, reward="score")
    space = env.unwrapped.state_space
    assert space.shape == (STATE_SIZE,) and env.state_space is space  # the wrapper hands it on
    positions = 0
    for env in _random_game(env, seed=players):
        state = env.state()
        game = env.unwrapped.game
        assert state.dtype == np.float32 and state in space
        tiles = STATE_LAYOUT.view(state, "tiles")
        held = TILE_COLUMNS["held"]
        for seat in range(players):  # seat i's column is player_i's, whoever is to move
            assert np.flatnonzero(tiles[:, held + seat]).tolist() == tiles_in(game.hands[seat])
        assert np.allclose(STATE_LAYOUT.view(state, "scores")[:players], np.clip(np.array(game.scores) / SCORE_SCALE, -1, 1))
        to_move = STATE_LAYOUT.view(state, "to_move")
        hand = STATE_LAYOUT.view(state, "hand")
        if game.done:
            assert not to_move.any() and not hand.any()
            continue
        assert np.flatnonzero(to_move).tolist() == [game.current_player]
        # The mover's hand slots and per-action points: what its observation says, as its actions are numbered.
        mover = env.observe(env.agent_selection)
        assert int(hand[:, HAND_COLUMNS["present"]].sum()) == len(tiles_in(game.hands[game.current_player]))
        points = STATE_LAYOUT.view(state, "points")
        assert set(np.flatnonzero(points)) <= set(np.flatnonzero(mover["action_mask"]))
        assert env.state().tobytes() == state.tobytes()  # asking changes nothing
        positions += 1
    assert positions > 20


def test_the_state_does_not_depend_on_who_looks_or_on_the_pile_order():
    rng = np.random.default_rng(3)
    deck = rng.permutation(36).tolist()
    players = 3
    dealt = 5 * players
    other = deck[:dealt] + rng.permutation(deck[dealt:]).tolist()
    assert other != deck
    a, b = contack_v0.raw_env(num_players=players, num_hands=1), contack_v0.raw_env(num_players=players, num_hands=1)
    a.reset(options={"decks": [deck]})
    b.reset(options={"decks": [other]})
    moves = 0
    while not a.game.done and a.game.pile_pos == dealt and b.game.pile_pos == dealt:
        assert np.array_equal(a.state(), b.state())
        action = int(np.flatnonzero(a.action_mask())[0])
        a.step(action)
        b.step(action)
        moves += 1
    assert moves >= 1
    a.reset(options={"decks": [deck]})
    c = contack_v0.raw_env(num_players=players, num_hands=1)
    c.reset(options={"decks": [deck[dealt:] + deck[:dealt]]})  # other hands: another state
    assert not np.array_equal(a.state(), c.state())


def test_the_state_layout_is_the_observation_pieces_without_the_lead():
    names = [piece.name for piece in STATE_LAYOUT]
    assert "lead" not in names and names[:4] == ["tiles", "cells", "hand", "points"]
    assert STATE_SIZE == contack_v0.OBS_SIZE - 1


# -- the PettingZoo registry ---------------------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(pettingzoo, "make"), reason="this PettingZoo (before 1.27) has no registry")
@pytest.mark.parametrize("env_id,module", [("contack/contack-v0", contack_v0), ("contack/contactix-v0", contactix_v0)])
def test_import_registers_the_pettingzoo_ids(env_id, module):
    env = pettingzoo.make("aec", env_id, render_mode="ansi")
    plain = module.env(render_mode="ansi")
    assert type(env.unwrapped) is type(plain.unwrapped) and env.metadata["name"] == plain.metadata["name"]
    env.reset(seed=5)
    plain.reset(seed=5)
    assert env.render() == plain.render()  # the same game, made as env() makes it (illegal_action="lose")
    assert env.unwrapped.illegal_action == "lose"
    unversioned = pettingzoo.make("aec", env_id.removesuffix("-v0"))
    assert type(unversioned.unwrapped) is type(plain.unwrapped)


@pytest.mark.skipif(not hasattr(pettingzoo, "make"), reason="this PettingZoo (before 1.27) has no registry")
def test_registering_again_changes_nothing():
    from contack_env.envs.registration import PETTINGZOO_IDS, register_pettingzoo_envs

    before = {env_id: pettingzoo.aec_registry[env_id] for env_id in PETTINGZOO_IDS}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo warns when an id is registered over
        assert register_pettingzoo_envs() is True
    assert all(pettingzoo.aec_registry[env_id] is spec for env_id, spec in before.items())
    assert pettingzoo.make("aec", "contack/contack-v0", num_players=5).unwrapped.num_players == 5


def test_the_card_shows_the_state_table():
    assert STATE_LAYOUT.card_table() in contack_v0.__doc__, "the contack_v0 card's state table is out of date:\n" + STATE_LAYOUT.card_table()


# -- what importing the package brings in --------------------------------------------------------------------------
def _imported_after(code: str) -> set[str]:
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys; print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_importing_the_package_never_imports_the_learning_stack():
    loaded = _imported_after("import contack_env")
    assert {"gymnasium", "pettingzoo", "contack_env.envs.solitaire_v0"} <= loaded  # the ids are registered
    assert not loaded & {"torch", "stable_baselines3", "sb3_contrib", "contack_env.envs.contack_v0",
                         "contack_env.envs.contactix_v0"}


def test_the_engine_plays_without_gymnasium_or_pettingzoo():
    # A meta-path finder that refuses the RL libraries stands in for an install without them.
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('gymnasium', 'pettingzoo', 'torch'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import contack_env\n"
        "game = contack_env.new_game(2, seed=1)\n"
        "while not game.done:\n"
        "    game.play(game.legal_moves()[0])\n"
    )
    loaded = _imported_after(blocker)
    assert "contack_env.contack.multiplayer" in loaded and not loaded & {"gymnasium", "pettingzoo", "torch"}
