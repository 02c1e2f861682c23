"""The PettingZoo AEC environment contactix_v0: PettingZoo's own checks for several sizes, the observation planes
and masks against the rules state, rewards, illegal actions, the swap, records and rendering."""

from __future__ import annotations

import warnings
from collections import defaultdict

import numpy as np
import pytest

from contack_env import contactix_v0
from contack_env.contactix.rules import ContactixState, cell_index
from contack_env.records.contactix import replay

with warnings.catch_warnings():
    # pettingzoo.test imports connect_four_v3 through PettingZoo's deprecated path (when pygame is installed).
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, render_test, seed_test


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo's checks warn about things classic envs do on purpose (dict observations).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _play(env, rng, on_step=None):
    """Uniform random play of one episode through the AEC API; the rewards collected per agent."""
    collected = defaultdict(float)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        collected[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        if on_step is not None:
            on_step(agent, observation, action)
        env.step(action)
    return collected


def _step_all(env, moves, n):
    for move in moves:
        env.step(cell_index(*move, n) if isinstance(move, tuple) else move)


# -- PettingZoo's checks -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [3, 4, 7, 11])
@pytest.mark.parametrize("swap", [False, True])
def test_pettingzoo_api(size, swap):
    api_test(contactix_v0.env(board_size=size, swap=swap, channels_first=size == 4), num_cycles=200)


@pytest.mark.parametrize("size", [3, 7, 11])
def test_pettingzoo_seed(size):
    seed_test(lambda: contactix_v0.env(board_size=size, swap=size == 7), num_cycles=200)


@pytest.mark.parametrize("size", [3, 11])
def test_pettingzoo_render(size):
    def make(render_mode=None):
        return contactix_v0.env(board_size=size, render_mode=render_mode)

    render_test(make)


# -- spaces and options --------------------------------------------------------------------------------------------
def test_spaces_and_agents():
    env = contactix_v0.env(board_size=7)
    env.reset()
    assert env.agents == ["black", "white"] and env.agent_selection == "black"
    assert env.action_space("white").n == 49
    assert env.observation_space("black")["observation"].shape == (7, 7, 4)
    assert env.observation_space("black")["action_mask"].shape == (49,)
    first = contactix_v0.env(board_size=5, channels_first=True)
    first.reset()
    assert first.observe("black")["observation"].shape == (4, 5, 5)


@pytest.mark.parametrize(
    "options,message",
    [
        ({"board_size": 2}, r"board_size is a whole number 3\.\.19; got 2"),
        ({"board_size": 20}, r"board_size is a whole number 3\.\.19"),
        ({"swap": "yes"}, "swap is True or False"),
        ({"channels_first": 1}, "channels_first is True or False"),
        ({"render_mode": "pixels"}, r"render_mode must be None or one of 'human', 'ansi', 'rgb_array'"),
    ],
)
def test_bad_options_say_what_is_allowed(options, message):
    with pytest.raises(ValueError, match=message):
        contactix_v0.raw_env(**options)


# -- observations and masks ----------------------------------------------------------------------------------------
def test_planes_are_from_the_observers_point_of_view_and_not_transposed():
    n = 5
    env = contactix_v0.env(board_size=n)
    env.reset()
    _step_all(env, [(1, 3), (4, 0)], n)  # black (1, 3), white (4, 0); black to move
    black, white = env.observe("black"), env.observe("white")
    for obs, mine, theirs, colour in [(black, (1, 3), (4, 0), 0.0), (white, (4, 0), (1, 3), 1.0)]:
        planes = obs["observation"]
        assert planes.dtype == np.float32
        assert np.argwhere(planes[:, :, 0]).tolist() == [list(mine)]
        assert np.argwhere(planes[:, :, 1]).tolist() == [list(theirs)]
        assert planes[:, :, 2].sum() == n * n - 2 and planes[mine][2] == 0 and planes[theirs][2] == 0
        assert np.all(planes[:, :, 3] == colour)
    # The mover's mask is the empty holes, action r * N + c being hole (r, c); the other agent's is all zeros.
    expected = np.ones(n * n, dtype=np.int8)
    expected[[cell_index(1, 3, n), cell_index(4, 0, n)]] = 0
    assert black["action_mask"].dtype == np.int8 and np.array_equal(black["action_mask"], expected)
    assert not white["action_mask"].any()
    assert np.array_equal(env.unwrapped.action_mask(), expected)


def test_channels_first_holds_the_same_planes():
    a = contactix_v0.env(board_size=4)
    b = contactix_v0.env(board_size=4, channels_first=True)
    for env in (a, b):
        env.reset()
        _step_all(env, [(0, 1), (2, 2), (3, 0)], 4)
    for agent in ("black", "white"):
        assert np.array_equal(a.observe(agent)["observation"].transpose(2, 0, 1), b.observe(agent)["observation"])


def test_the_state_is_the_board_by_colour_and_who_moves_the_same_for_both_agents():
    n = 5
    for channels_first in (False, True):
        env = contactix_v0.env(board_size=n, swap=True, channels_first=channels_first)
        env.reset()
        raw = env.unwrapped
        to_last = (lambda s: s.transpose(1, 2, 0)) if channels_first else (lambda s: s)
        assert raw.state_space.shape == env.observation_space("black")["observation"].shape
        start = to_last(raw.state())
        assert not start[:, :, :2].any() and start[:, :, 2].all() and not start[:, :, 3].any()  # black to move
        _step_all(env, [(1, 3)], n)
        state = to_last(raw.state())
        assert raw.state_space.contains(raw.state())
        assert np.argwhere(state[:, :, 0]).tolist() == [[1, 3]] and not state[:, :, 1].any()
        assert state[:, :, 2].sum() == n * n - 1 and np.all(state[:, :, 3] == 1)  # white to move
        env.step(cell_index(1, 3, n))  # white swaps: a white peg on the mirror hole, black to move
        state = to_last(raw.state())
        assert not state[:, :, 0].any() and np.argwhere(state[:, :, 1]).tolist() == [[3, 1]]
        assert not state[:, :, 3].any()
        # Black's planes 0 to 2 are the state's; white's has the colours the other way round.
        assert np.array_equal(to_last(env.observe("black")["observation"])[:, :, :3], state[:, :, :3])
        assert np.array_equal(to_last(env.observe("white")["observation"])[:, :, 0], state[:, :, 1])


def test_the_state_says_no_one_moves_once_the_game_is_over():
    env = contactix_v0.env(board_size=3)
    env.reset()
    _step_all(env, [(0, 1), (0, 0), (1, 1), (1, 0)], 3)
    assert np.all(env.unwrapped.state()[:, :, 3] == 0)  # black to move
    env.step(cell_index(2, 1, 3))  # black's chain (0, 1), (1, 1), (2, 1) joins rows 0 and 2
    assert env.unwrapped.game.done and env.agent_selection == "white"
    state = env.unwrapped.state()
    assert state[:, :, 0].sum() == 3 and state[:, :, 1].sum() == 2 and not state[:, :, 3].any()


def test_masks_and_planes_follow_the_rules_state_through_random_games():
    rng = np.random.default_rng(0)
    for size, swap in [(3, True), (6, False), (9, True)]:
        env = contactix_v0.env(board_size=size, swap=swap)
        env.reset()
        game = env.unwrapped.game

        def check(agent, observation, action):
            assert agent == ["black", "white"][game.current_player]
            assert np.flatnonzero(observation["action_mask"]).tolist() == game.legal_moves()
            board = np.asarray(game.board).reshape(size, size)
            colour = game.current_player
            assert np.array_equal(observation["observation"][:, :, 0], board == colour + 1)
            assert np.array_equal(observation["observation"][:, :, 1], board == 2 - colour)

        for _ in range(5):
            env.reset()
            game = env.unwrapped.game
            _play(env, rng, check)


# -- rewards and the end -------------------------------------------------------------------------------------------
def test_the_winner_gets_plus_one_the_loser_minus_one_and_both_are_done():
    env = contactix_v0.env(board_size=3)
    env.reset()
    _step_all(env, [(0, 1), (0, 0), (1, 1), (1, 0)], 3)
    assert env.rewards == {"black": 0.0, "white": 0.0} and not any(env.terminations.values())
    env.step(cell_index(2, 1, 3))  # black completes column 1: rows 0 to 2
    assert env.rewards == {"black": 1.0, "white": -1.0}
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos == {"black": {"winner": "black"}, "white": {"winner": "black"}}
    assert not env.unwrapped.action_mask().any() and not env.observe("black")["action_mask"].any()
    collected = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        collected[agent] = reward
        env.step(None)
    assert list(collected.items()) == [("white", -1.0), ("black", 1.0)] and env.agents == []  # the loser first


def test_random_games_are_zero_sum_with_one_winner():
    rng = np.random.default_rng(1)
    env = contactix_v0.env(board_size=7, swap=True)
    for _ in range(10):
        env.reset()
        collected = _play(env, rng)
        assert sorted(collected.values()) == [-1.0, 1.0]
        winner = max(collected, key=collected.get)
        assert replay(env.unwrapped.game_record()).winner == ["black", "white"].index(winner)


# -- illegal actions -----------------------------------------------------------------------------------------------
def test_raw_env_refuses_an_illegal_action_and_says_why():
    env = contactix_v0.raw_env(board_size=3)
    env.reset()
    env.step(4)
    with pytest.raises(ValueError, match=r"action 4 is illegal for white: hole \(1, 1\) already holds a black peg; 8 actions are legal"):
        env.step(4)
    with pytest.raises(ValueError, match=r"action 9 is illegal for white: outside Discrete\(9\)"):
        env.step(9)
    with pytest.raises(ValueError, match="an action is an int"):
        env.step("a")
    assert env.game.moves == [4]


def test_wrapped_env_ends_the_game_on_an_illegal_action():
    env = contactix_v0.env(board_size=3)
    env.reset()
    env.step(4)
    env.step(4)  # white plays into black's hole
    assert env.rewards["white"] == -1 and env.rewards["black"] == 0
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["white"] == {"illegal_action": True} and env.infos["black"] == {}
    assert env.unwrapped.game.moves == [4]  # the illegal peg was not placed
    selected = []
    for agent in env.agent_iter():
        selected.append(agent)
        env.step(None)
    assert selected == ["white", "black"]  # the offender first
    # An int outside the action space is an illegal action like any other.
    env.reset()
    env.step(9)
    assert env.rewards == {"black": -1, "white": 0} and all(env.terminations.values())
    assert env.observe("white")["action_mask"].sum() == 0


# -- the swap ------------------------------------------------------------------------------------------------------
def test_swap_through_the_env():
    n = 5
    env = contactix_v0.env(board_size=n, swap=True)
    env.reset()
    raw = env.unwrapped
    env.step(cell_index(1, 3, n))
    mask = env.observe("white")["action_mask"]
    assert mask.sum() == n * n and mask[cell_index(1, 3, n)] == 1  # every hole, and black's peg: the swap
    assert raw.decode_action(cell_index(1, 3, n)) == "swap" and raw.encode_move("swap") == cell_index(1, 3, n)
    assert raw.decode_action(cell_index(3, 1, n)) == (3, 1) and raw.encode_move((3, 1)) == cell_index(3, 1, n)
    # A bot's move is a hole index (the swap: the hole of Black's first peg), and is its own action.
    bot_moves = raw.game.legal_moves()
    assert [raw.encode_move(m) for m in bot_moves] == list(bot_moves)
    with pytest.raises(ValueError, match="a hole index is 0..24"):
        raw.encode_move(n * n)
    env.step(cell_index(1, 3, n))
    assert env.agent_selection == "black"
    planes = env.observe("black")["observation"]
    assert np.argwhere(planes[:, :, 1]).tolist() == [[3, 1]] and not planes[:, :, 0].any()
    assert env.observe("black")["action_mask"].sum() == n * n - 1
    with pytest.raises(ValueError, match="no swap now"):
        raw.encode_move("swap")
    assert raw.game_record()["moves"] == [[1, 3], "swap"]


def test_without_the_swap_rule_blacks_first_hole_is_not_legal():
    env = contactix_v0.env(board_size=5)
    env.reset()
    env.step(8)
    assert env.observe("white")["action_mask"][8] == 0


# -- records and rendering -----------------------------------------------------------------------------------------
def test_an_episode_record_replays_to_the_same_board():
    rng = np.random.default_rng(5)
    env = contactix_v0.env(board_size=6)
    env.reset()
    _play(env, rng)
    record = env.unwrapped.game_record(agents=["random", "random"])
    state = replay(record)
    assert state.board == env.unwrapped.game.board and record["agents"] == ["random", "random"]


def test_render_returns_the_text_and_the_image():
    from contack_env.render.contactix import render_rgb, render_text

    text_env = contactix_v0.env(board_size=5, render_mode="ansi")
    text_env.reset()
    text_env.step(12)
    assert text_env.render() == render_text(text_env.unwrapped.game)
    image_env = contactix_v0.env(board_size=5, render_mode="rgb_array")
    image_env.reset()
    image = image_env.render()
    assert image.dtype == np.uint8 and image.shape == render_rgb(ContactixState(5)).shape
    quiet = contactix_v0.env(board_size=5)
    quiet.reset()
    assert quiet.render() is None


def test_reset_starts_afresh_whatever_the_seed():
    env = contactix_v0.env(board_size=4)
    env.reset(seed=3)
    env.step(5)
    with pytest.warns(UserWarning, match=r"reset ignores the unknown option \['anything'\]"):
        env.reset(seed=9, options={"anything": 1})
    assert env.unwrapped.game.moves == [] and env.agent_selection == "black"
    assert env.observe("black")["action_mask"].sum() == 16


def test_changing_an_observation_handed_out_changes_nothing_the_environment_keeps():
    env = contactix_v0.env(board_size=5)
    env.reset(seed=1)
    obs, *_ = env.last()
    mask = obs["action_mask"].copy()
    obs["action_mask"][:] = 0
    np.testing.assert_array_equal(env.last()[0]["action_mask"], mask)
    env.action_mask()[:] = 0
    np.testing.assert_array_equal(env.action_mask(), mask)
