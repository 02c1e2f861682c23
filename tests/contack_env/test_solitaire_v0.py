"""The Gymnasium solitaire environments (contack_env/envs/solitaire_v0.py): API conformance, the action mask against
the engine's legal moves, rewards, seeding, hidden information, records, and a short MaskablePPO run."""

from __future__ import annotations

import copy
import warnings

import gymnasium
import numpy as np
import pytest

import contack_env  # noqa: F401  (registers the ids)
from contack_env import solitaire_v0 as sv
from contack_env.envs.actions import NUM_CELL_SLOTS
from contack_env.contack.figure import code_to_move
from contack_env.records.contack import RecordError, replay
from contack_env.contack.solitaire import Solitaire1, new_solitaire1, new_solitaire2
from contack_env.envs.replay import replay_through_env
from contack_env.envs.solitaire_v0 import Solitaire1Env, Solitaire2Env
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES

ENVS = [Solitaire1Env, Solitaire2Env]
IDS = {Solitaire1Env: "contack/Solitaire1-v0", Solitaire2Env: "contack/Solitaire2-v0"}


def random_episode(env, seed: int, policy_seed: int, options=None):
    """Play one episode with uniformly random legal actions; returns (observations, rewards, infos, actions)."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed, options=options)
    observations, rewards, infos, actions = [obs], [], [info], []
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        done = terminated
        observations.append(obs)
        rewards.append(reward)
        infos.append(info)
        actions.append(action)
    return observations, rewards, infos, actions


def find_episode(env_cls, wanted, tries: int = 2000, **kwargs):
    """(seed, result) of the first random episode (seed, policy seed = seed) for which ``wanted(env, result)``."""
    env = env_cls(**kwargs)
    for seed in range(tries):
        result = random_episode(env, seed, seed)
        if wanted(env, result):
            return seed, env, result
    raise AssertionError("no seed gives the episode this test needs; widen the search")


# -- API conformance -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_cls", ENVS)
@pytest.mark.parametrize("kwargs", [{}, {"reward": "tiles", "auto_single_moves": True}, {"reward": "points"}])
def test_gymnasium_check_env_passes(env_cls, kwargs):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure too
        check_env(gymnasium.make(IDS[env_cls], **kwargs).unwrapped)


@pytest.mark.parametrize("env_cls", ENVS)
def test_stable_baselines3_check_env_passes(env_cls):
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env_cls(), warn=True)


@pytest.mark.parametrize("env_cls", ENVS)
def test_registered_ids_make_the_environments(env_cls):
    env = gymnasium.make(IDS[env_cls], reward="tiles")
    assert isinstance(env.unwrapped, env_cls)
    assert env.unwrapped.reward_mode == "tiles"
    # MaskablePPO reaches the mask through Gymnasium's wrappers.
    env.reset(seed=3)
    assert env.get_wrapper_attr("action_masks")().dtype == np.int8


def test_spaces_follow_the_action_encoding():
    assert Solitaire1Env().action_space == gymnasium.spaces.Discrete(NUM_CELL_SLOTS)
    assert Solitaire2Env().action_space == gymnasium.spaces.Discrete(7 * NUM_CELL_SLOTS)
    assert Solitaire1Env().observation_space.shape == (565,)
    assert Solitaire2Env().observation_space.shape == (953,)


def test_the_card_shows_each_layouts_table():
    for name, lay in (("No. 1", sv.S1_LAYOUT), ("No. 2", sv.S2_LAYOUT)):
        assert f"Solitaire {name}, ``n = {lay.size}``" in sv.__doc__
        assert lay.card_table() in sv.__doc__, f"the table of Solitaire {name} is out of date:\n{lay.card_table()}"


def test_the_layouts_are_the_ones_the_shipped_policies_were_trained_on():
    # Where each piece starts: moving one would feed every trained policy the wrong inputs.
    starts = {p.name: sv.S1_LAYOUT.start(p.name) for p in sv.S1_LAYOUT}
    assert starts == {
        "tiles": 0, "cells": 324, "slots": 513, "legal": 517, "points": 538, "placed": 559, "pile": 560,
        "discard": 561, "from_discard": 562, "holes": 563, "decision": 564,
    }
    starts = {p.name: sv.S2_LAYOUT.start(p.name) for p in sv.S2_LAYOUT}
    assert starts == {
        "tiles": 0, "cells": 432, "slots": 621, "legal": 649, "points": 796, "placed": 943, "heights": 944,
        "holes": 951, "decision": 952,
    }
    assert [sv.S1_TILES[c] for c in ("figure", "to_place", "discard_top", "in_discard", "discard_depth", "unseen", "x", "y", "last")] == list(range(9))
    assert [sv.S2_TILES[c] for c in ("figure", "top", "unseen", "x", "y", "last")] == [0, 1, 8, 9, 10, 11]


# -- the mask against the engine -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_cls", ENVS)
@pytest.mark.parametrize("auto", [False, True])
def test_mask_is_exactly_the_engine_legal_moves(env_cls, auto):
    env = env_cls(auto_single_moves=auto)
    rng = np.random.default_rng(11)
    steps = 0
    seed = 0
    while steps < 1500:
        obs, info = env.reset(seed=seed)
        seed += 1
        while True:
            mask = env.action_masks()
            assert np.array_equal(mask, info["action_mask"])
            state = env.state
            if not info["decision"]:
                assert state.done and np.flatnonzero(mask).tolist() == [0]
                obs, reward, terminated, _, info = env.step(int(rng.integers(env.action_space.n)))
                assert terminated
                break
            if auto:
                assert len(state.legal_codes()) >= 2
            legal = set(state.legal_moves())
            decoded = {env.decode_action(a) for a in np.flatnonzero(mask)}
            assert decoded == legal and len(decoded) == mask.sum()
            for a in np.flatnonzero(mask == 0):
                assert env.decode_action(int(a)) is None
                code = env.layout.decode_code(int(a))
                assert code is None or code_to_move(code) not in legal
            # Every legal move's action is in the mask and decodes back to the move.
            for move in legal:
                action = env.encode_move(move)
                assert mask[action] and env.decode_action(action) == move
            # The tile slots are the tiles the player may place.
            if env_cls is Solitaire1Env:
                assert env.layout.slots == [state.forced_tile]
            else:
                assert env.layout.slots == state.tops
            action = int(rng.choice(np.flatnonzero(mask)))
            move = env.decode_action(action)
            before = len(state.figure)
            obs, reward, terminated, _, info = env.step(action)
            steps += 1
            assert state.figure.tile_at(move.x, move.y) == move.tile
            assert len(state.figure) == before + 1 + info["auto_moves"]
            assert obs in env.observation_space
            if terminated:
                assert state.done and np.flatnonzero(env.action_masks()).tolist() == [0]  # never all zeros
                break


@pytest.mark.parametrize("env_cls", ENVS)
def test_encode_move_rejects_a_move_that_is_not_legal(env_cls):
    env = env_cls()
    env.reset(seed=5)
    legal = env.state.legal_moves()
    tile_on_figure = next(iter(env.state.figure.placed.values()))
    with pytest.raises(ValueError, match="legal move"):
        env.encode_move((tile_on_figure, legal[0].x, legal[0].y))
    with pytest.raises(ValueError, match="legal move"):
        env.encode_move((legal[0].tile, 30, 10))


# -- rewards ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_cls", ENVS)
@pytest.mark.parametrize("auto", [False, True])
def test_rewards_sum_as_documented(env_cls, auto):
    results = {}
    for reward in sv.REWARDS:
        env = env_cls(reward=reward, auto_single_moves=auto)
        for seed in range(25):
            _, rewards, infos, _ = random_episode(env, seed, 100 + seed)
            state = env.state
            results.setdefault(seed, []).append((reward, sum(rewards), len(state.figure), state.score, state.won))
            assert infos[-1]["is_success"] == state.won
            assert infos[-1]["tiles_placed"] == len(state.figure) and infos[-1]["score"] == state.score
    for seed, runs in results.items():
        for reward, total, placed, score, won in runs:
            expected = {"win": 1.0 if won else 0.0, "tiles": (placed - 1) / NUM_TILES, "points": score / 50}[reward]
            assert total == pytest.approx(expected), (seed, reward)


@pytest.mark.parametrize("env_cls", ENVS)
def test_a_won_episode_returns_one_under_win_and_35_36_under_tiles(env_cls):
    seed, env, (_, rewards, infos, actions) = find_episode(env_cls, lambda env, r: env.state.won)
    assert sum(rewards) == 1.0 and rewards[-1] == 1.0 and infos[-1]["is_success"]
    tiles_env = env_cls(reward="tiles")
    tiles_env.reset(seed=seed)
    total = 0.0
    for action in actions:
        total += tiles_env.step(action)[1]
    assert tiles_env.state.won and total == pytest.approx(35 / 36)


@pytest.mark.parametrize("env_cls", ENVS)
def test_returns_do_not_depend_on_auto_single_moves(env_cls):
    """The same game played with and without auto_single_moves earns the same return in every reward mode."""
    for reward in sv.REWARDS:
        for seed in range(8):
            manual = env_cls(reward=reward)
            auto = env_cls(reward=reward, auto_single_moves=True)
            rng = np.random.default_rng(seed)
            manual.reset(seed=seed)
            _, info = auto.reset(seed=seed)
            totals = [0.0, 0.0]
            done = info["decision"] is False
            if done:
                totals[1] += auto.step(0)[1]
            while not manual.state.done:
                moves = manual.state.legal_moves()
                move = moves[rng.integers(len(moves))]
                totals[0] += manual.step(manual.encode_move(move))[1]
                if not auto.state.done and len(auto.state.figure) < len(manual.state.figure):
                    totals[1] += auto.step(auto.encode_move(move))[1]
            assert manual.state.figure.placed == auto.state.figure.placed
            assert totals[0] == pytest.approx(totals[1]), (reward, seed)


# -- seeding ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_a_seeded_reset_deals_as_new_solitaire(seed):
    env1, env2 = Solitaire1Env(), Solitaire2Env()
    env1.reset(seed=seed)
    env2.reset(seed=seed)
    assert env1.state.deck == new_solitaire1(seed).deck
    assert (env2.state.deck, env2.state.cut) == (new_solitaire2(seed).deck, new_solitaire2(seed).cut)


@pytest.mark.parametrize("env_cls", ENVS)
def test_same_seed_same_episode_and_unseeded_resets_follow_the_stream(env_cls):
    a, b = env_cls(), env_cls()
    for env in (a, b):
        env.reset(seed=42)
    runs = []
    for env in (a, b):
        first = random_episode(env, 42, 1)
        second = random_episode(env, None, 2)
        runs.append((first, second, env.state.deck))
    (fa, sa, deck_a), (fb, sb, deck_b) = runs
    assert deck_a == deck_b
    for x, y in ((fa, fb), (sa, sb)):
        assert all(np.array_equal(o1, o2) for o1, o2 in zip(x[0], y[0]))
        assert x[1] == y[1] and x[3] == y[3]
    assert deck_a != new_solitaire1(42).deck  # the second deal is a new one


@pytest.mark.parametrize("env_cls, new", [(Solitaire1Env, new_solitaire1), (Solitaire2Env, new_solitaire2)])
def test_an_unseeded_reset_records_a_seed_that_regenerates_its_deal(env_cls, new):
    env = env_cls()
    env.reset(seed=5)
    for _ in range(3):
        random_episode(env, None, 0)
        seed = env.game_record()["seed"]
        assert seed == env.episode_seed and isinstance(seed, int)
        again = new(seed)
        assert again.deck == env.state.deck and getattr(again, "cut", None) == getattr(env.state, "cut", None)
    env.reset(options={"deck": list(range(36)), **({"cut": 0} if env_cls is Solitaire2Env else {})})
    assert env.episode_seed is None


def test_reset_options_play_a_given_deal():
    deck = list(range(NUM_TILES))[::-1]
    env = Solitaire2Env()
    env.reset(options={"deck": [TILE_NAMES[t] for t in deck], "cut": 2})
    assert env.state.deck == deck and env.state.cut == 2
    env1 = Solitaire1Env()
    env1.reset(options={"deck": deck})
    assert env1.state.deck == deck and env1.state.figure.tile_at(0, 0) == deck[0]


@pytest.mark.parametrize(
    "env_cls, options, message",
    [
        (Solitaire2Env, {"deck": list(range(36))}, "needs 'cut'"),
        (Solitaire1Env, {"deck": list(range(36)), "cut": 1}, "no cut"),
        (Solitaire1Env, {"deck": list(range(35))}, "exactly once"),
        (Solitaire1Env, {"deck": ["01-02-03"] * 36}, "exactly once"),
        (Solitaire1Env, {"deck": ["99-99-99"] + list(range(1, 36))}, "no tile is called"),
        (Solitaire2Env, {"deck": list(range(36)), "cut": 6}, "cut is a position"),
        (Solitaire2Env, {"cut": 1}, "goes with a given 'deck'"),
    ],
)
def test_bad_reset_options_say_what_is_allowed(env_cls, options, message):
    with pytest.raises(ValueError, match=message):
        env_cls().reset(options=options)


def test_unknown_reset_options_are_ignored_with_a_warning():
    env = Solitaire1Env()
    with pytest.warns(UserWarning, match=r"reset ignores the unknown option \['shuffle'\]; the options are: 'deck', 'cut'"):
        obs, _ = env.reset(seed=3, options={"shuffle": True})
    np.testing.assert_array_equal(obs, Solitaire1Env().reset(seed=3)[0])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"reward": "score"}, "reward is one of"),
        ({"render_mode": "pixels"}, "render_mode is None, 'human', 'ansi' or 'rgb_array'"),
        ({"illegal_action": "skip"}, "illegal_action"),
        ({"trace": "no"}, "trace is True or False; got 'no'"),
    ],
)
def test_bad_constructor_arguments_say_what_is_allowed(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Solitaire2Env(**kwargs)


# -- hidden information ----------------------------------------------------------------------------------------
def hidden_positions(state) -> list[int]:
    """Deck positions whose tiles the player cannot see now (they were never seen before either)."""
    if isinstance(state, Solitaire1):
        start = state.pile_pos
        return list(range(start, NUM_TILES))
    positions = []
    for k in range(7):
        deck_pos = list(range(5 * k, 5 * k + 5)) if k < 6 else [p for p in range(30, 36) if p != 30 + state.cut]
        remaining = deck_pos[: len(state.stacks[k])]
        positions += remaining[:-1]  # all but the top
    return positions


@pytest.mark.parametrize("env_cls", ENVS)
def test_observations_never_depend_on_the_hidden_order(env_cls):
    """Shuffle what the player has not seen at step k: replaying the same actions gives the same observations."""
    rng = np.random.default_rng(3)
    compared = 0
    for seed in range(30):
        env = env_cls()
        observations, _, _, actions = random_episode(env, seed, seed)
        k = int(rng.integers(len(actions)))
        env.reset(seed=seed)
        for a in actions[:k]:
            env.step(a)
        state = env.state
        hidden = hidden_positions(state)
        if len(hidden) < 2:
            continue
        deck = list(state.deck)
        values = [deck[p] for p in hidden]
        for _ in range(10):
            shuffled = list(rng.permutation(values))
            if shuffled != values:
                break
        for p, t in zip(hidden, shuffled):
            deck[p] = int(t)
        options = {"deck": deck}
        if env_cls is Solitaire2Env:
            options["cut"] = state.cut
        other = env_cls()
        obs, _ = other.reset(options=options)
        assert np.array_equal(obs, observations[0])
        for j, a in enumerate(actions[:k]):
            obs = other.step(a)[0]
            assert np.array_equal(obs, observations[j + 1])
        assert other.state.deck != env.state.deck
        compared += 1
    assert compared >= 20


@pytest.mark.parametrize("env_cls", ENVS)
def test_observation_blocks_describe_the_position(env_cls):
    env = env_cls()
    for seed in range(10):
        obs, info = env.reset(seed=seed)
        lay = env.obs_layout
        state = env.state
        tiles = lay.view(obs, "tiles")
        col = lay.columns("tiles")
        assert tiles[:, 0].sum() == len(state.figure)
        last_tile = state.figure.placed[state.figure.last]
        assert np.flatnonzero(tiles[:, -1]).tolist() == [last_tile]
        assert lay.view(obs, "decision") == 1.0
        assert np.array_equal(lay.view(obs, "legal"), env.action_masks())
        if env_cls is Solitaire1Env:
            assert tiles[:, col["unseen"]].sum() == state.pile_size
            assert np.flatnonzero(tiles[:, col["to_place"]]).tolist() == [state.forced_tile]
            assert tiles[:, col["in_discard"]].sum() == len(state.discard)
            assert lay.view(obs, "from_discard") == (state.source == "discard")
        else:
            for k, top in enumerate(state.tops):
                if top is not None:
                    assert tiles[top, col["top"] + k] == 1.0
                    assert lay.view(obs, "slots")[k, 0] == 1.0
            heights = lay.view(obs, "heights") * 5
            assert heights.tolist() == [len(s) for s in state.stacks]
            assert tiles[:, col["unseen"]].sum() == sum(max(len(s) - 1, 0) for s in state.stacks)
        # Every tile sits in exactly one place.
        if env_cls is Solitaire1Env:
            where = tiles[:, [col["figure"], col["in_discard"], col["unseen"]]].sum(axis=1)
            where += tiles[:, col["to_place"]] * (1 - tiles[:, col["in_discard"]])
        else:
            where = tiles[:, [col["figure"], col["unseen"]]].sum(axis=1) + tiles[:, col.span("top")].sum(axis=1)
        assert np.all(where == 1.0)


# -- deals with no decision, illegal actions, misuse -----------------------------------------------------------
def test_a_deal_with_no_decision_is_one_episode_of_one_step():
    seed = next(s for s in range(5000) if new_solitaire2(s, log=False).done)
    env = Solitaire2Env(reward="tiles")
    obs, info = env.reset(seed=seed)
    assert info["decision"] is False and env.state.done and not env.state.won
    assert np.flatnonzero(env.action_masks()).tolist() == [0]
    assert env.obs_layout.view(obs, "decision") == 0.0
    obs, reward, terminated, truncated, info = env.step(99)  # any action closes it
    assert (reward, terminated, truncated, info["is_success"]) == (0.0, True, False, False)
    assert replay(env.game_record())  # a lost game's record, with no placement


def test_solitaire1_always_has_a_decision():
    """Every opening tile has a legal neighbour among the other 35, so No. 1's pile always yields a placement."""
    from contack_env.contack.figure import Figure

    for opening in range(NUM_TILES):
        figure = Figure()
        figure.place_opening(opening)
        assert sum(figure.has_move(1 << t) for t in range(NUM_TILES) if t != opening) >= 14
    env = Solitaire1Env()
    assert all(env.reset(seed=s)[1]["decision"] for s in range(200))


def test_a_deal_decided_by_forced_moves_alone_pays_its_reward_on_the_closing_step():
    # With auto_single_moves a deal whose every decision has one move needs no decision at all.
    seed = next(s for s in range(20000) if _forced_all_the_way(s))  # 5384 is the first
    env = Solitaire2Env(reward="tiles", auto_single_moves=True)
    _, info = env.reset(seed=seed)
    placed = len(env.state.figure)
    assert info["auto_moves"] == placed - 1 >= 1
    _, reward, terminated, _, _ = env.step(0)
    assert terminated and reward == pytest.approx((placed - 1) / NUM_TILES)


def _forced_all_the_way(seed: int) -> bool:
    state = new_solitaire2(seed, log=False)
    forced = 0
    while not state.done and len(state.legal_codes()) == 1:
        state.play_code(state.legal_codes()[0])
        forced += 1
    return state.done and forced >= 1


@pytest.mark.parametrize("env_cls", ENVS)
def test_an_illegal_action_loses_the_episode(env_cls):
    env = env_cls()
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"], info["is_success"]) == (-1.0, True, True, False)
    assert np.flatnonzero(env.action_masks()).tolist() == [0] == np.flatnonzero(info["action_mask"]).tolist()
    with pytest.raises(RuntimeError, match="unfinished"):
        env.game_record()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("env_cls, seed", [(Solitaire1Env, 0), (Solitaire2Env, 48)])
@pytest.mark.parametrize("reward", ["tiles", "points", "win"])
def test_an_illegal_first_action_still_pays_what_forced_moves_at_reset_earned(env_cls, seed, reward):
    # They were dropped: the reward was -1 alone. (Seeds whose reset makes forced placements before a decision.)
    env = env_cls(reward=reward, auto_single_moves=True)
    _, info = env.reset(seed=seed)
    assert info["auto_moves"] > 0 and info["decision"]
    placed, score = info["tiles_placed"] - 1, info["score"]  # the opening tile is not the agent's
    _, got, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    owed = {"tiles": placed / NUM_TILES, "points": score / 50, "win": 0.0}[reward]
    assert terminated and info["illegal_action"] and got == pytest.approx(-1.0 + owed)
    assert owed or reward == "win"


def test_an_illegal_action_raises_when_asked():
    env = Solitaire2Env(illegal_action="raise")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal here"):
        env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))
    with pytest.raises(ValueError, match="not legal here"):
        env.step(10_000)


def test_step_before_reset_says_to_reset():
    with pytest.raises(RuntimeError, match="reset"):
        Solitaire1Env().step(0)


# -- rendering -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_cls", ENVS)
def test_render_modes(env_cls):
    from contack_env.render.text import render_text

    env = env_cls(render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == render_text(env.state)
    env = env_cls(render_mode="rgb_array")
    env.reset(seed=2)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


@pytest.mark.parametrize("env_cls", ENVS)
def test_human_mode_prints_the_text_view_as_the_game_goes(env_cls, capsys):
    from contack_env.render.text import render_text

    env = env_cls(render_mode="human")
    _, info = env.reset(seed=2)
    assert capsys.readouterr().out == render_text(env.state) + "\n"
    for _ in range(3):
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert capsys.readouterr().out == render_text(env.state) + "\n"
        if terminated:
            break
    assert env.render() is None and capsys.readouterr().out == render_text(env.state) + "\n"


# -- records ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("env_cls", ENVS)
@pytest.mark.parametrize("trace", [False, True])
def test_exported_records_replay(env_cls, trace):
    env = env_cls(trace=trace)
    for seed in range(6):
        random_episode(env, seed, seed + 50)
        record = env.game_record(agents=["random"])
        assert record["seed"] == seed and record["game"] == env.game
        assert replay(record).figure.placed == env.state.figure.placed
        replay_through_env(record)
        places = [e for e in record["hands"][0]["events"] if e["type"] == "place"]
        assert all(("legal" in e) == trace for e in places)


def test_a_won_record_replays_through_the_env():
    _, env, _ = find_episode(Solitaire1Env, lambda env, r: env.state.won)
    record = env.game_record()
    assert record["winners"] == [0]
    replay_through_env(record)


def _place_index(record, n=0):
    events = record["hands"][0]["events"]
    return [j for j, e in enumerate(events) if e["type"] == "place"][n]


@pytest.fixture(scope="module")
def records():
    out = {}
    for env_cls in ENVS:
        env = env_cls(trace=True)
        random_episode(env, 4, 4)
        out[env_cls.game] = env.game_record()
    return out


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_through_env_names_an_illegal_place(records, game):
    record = copy.deepcopy(records[game])
    j = _place_index(record, 1)
    record["hands"][0]["events"][j]["cell"] = [20, 5]
    with pytest.raises(RecordError, match=rf"^hand 1, event {j + 1} \(place\): .*not legal here"):
        replay_through_env(record)


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_through_env_names_wrong_points(records, game):
    record = copy.deepcopy(records[game])
    j = _place_index(record, 0)
    record["hands"][0]["events"][j]["points"] += 5
    with pytest.raises(RecordError, match=rf"^hand 1, event {j + 1} \(place\): .* scores \d+ points, not "):
        replay_through_env(record)


def test_through_env_names_a_missing_forced_event(records):
    record = copy.deepcopy(records["solitaire1"])
    events = record["hands"][0]["events"]
    j = next(j for j, e in enumerate(events) if e["type"] == "discard")
    del events[j]
    with pytest.raises(RecordError, match=rf"^hand 1, event {j + 1} "):
        replay_through_env(record)


def test_through_env_names_a_wrong_legal_list_and_wrong_totals(records):
    record = copy.deepcopy(records["solitaire2"])
    j = _place_index(record, 0)
    record["hands"][0]["events"][j]["legal"] = record["hands"][0]["events"][j]["legal"][1:]
    with pytest.raises(RecordError, match=rf"^hand 1, event {j + 1} \(place\): the legal list"):
        replay_through_env(record)
    record = copy.deepcopy(records["solitaire2"])
    record["scores"] = [record["scores"][0] + 1]
    with pytest.raises(RecordError, match=r"^scores: "):
        replay_through_env(record)
    record = copy.deepcopy(records["solitaire2"])
    record["hands"][0]["events"].pop()  # the end
    with pytest.raises(RecordError, match="missing event"):
        replay_through_env(record)


# -- learning --------------------------------------------------------------------------------------------------
class _InvertedMasks(gymnasium.Wrapper):
    """The masks turned inside out: every legal action marked illegal and the other way round."""

    def action_masks(self):
        return 1 - self.env.unwrapped.action_masks()


@pytest.mark.parametrize("env_id", list(IDS.values()))
def test_maskable_ppo_acts_only_through_the_masks(env_id):
    from sb3_contrib import MaskablePPO

    # With illegal_action="raise" one illegal action in the rollouts would stop the learning with ValueError.
    env = gymnasium.make(env_id, reward="tiles", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps == 256
    # The same learner fed the wrong masks does send illegal actions: the masks are what keeps it legal.
    wrong = _InvertedMasks(gymnasium.make(env_id, reward="tiles", illegal_action="raise"))
    model = MaskablePPO("MlpPolicy", wrong, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    with pytest.raises(ValueError, match="is not legal here"):
        model.learn(total_timesteps=64)


@pytest.mark.parametrize("action", [1.5, "2", True])
def test_decode_action_takes_integers_only(action):
    env = Solitaire1Env()
    env.reset(seed=3)
    with pytest.raises(ValueError, match="an action is an integer"):
        env.decode_action(action)
