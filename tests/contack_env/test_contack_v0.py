"""The PettingZoo AEC environment contack_v0: PettingZoo's own checks, masks against the engine, rewards, illegal
actions, single-move skipping, infos, records."""

from __future__ import annotations

import warnings
from collections import defaultdict

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from contack_env import ContackGame, Move, contack_v0, new_game
from contack_env.envs.actions import ActionLayout
from contack_env.envs.replay import replay_through_env
from contack_env.envs.observation import LAYOUT, NUM_ACTIONS, OBS_SIZE, observation_vector
from contack_env.envs.state import STATE_LAYOUT
from contack_env.records.contack import game_record, replay
from contack_env.render.text import render_text
from contack_env.contack.tiles import TILE_NAMES, tiles_in

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
    """Uniform random play of one whole episode through the AEC API; returns the collected rewards per agent."""
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
            on_step(agent, observation, info, action)
        env.step(action)
    return collected


# -- PettingZoo's checks -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("reward", ["win", "score"])
def test_pettingzoo_api(players, reward):
    api_test(contack_v0.env(num_players=players, reward=reward, auto_single_moves=players % 2 == 1), num_cycles=60)


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("reward", ["win", "score"])
def test_pettingzoo_seed(players, reward):
    # num_cycles (decisions per seat) is far more than a three-hand game takes: seed_test plays the whole episode
    # through to its termination, where the "win" rewards are paid.
    made = []

    def make():
        made.append(contack_v0.env(num_players=players, reward=reward, auto_single_moves=players % 2 == 1))
        return made[-1]

    seed_test(make, num_cycles=500)
    assert len(made) == 2 and all(env.unwrapped.game.done for env in made)
    assert made[0].unwrapped.game.hand_events == made[1].unwrapped.game.hand_events
    # seed_test checks that two envs seeded alike play alike; also check that the seed is what decides the deal.
    a, b = make(), make()
    a.reset(seed=42)
    b.reset(seed=43)
    assert a.unwrapped.game.decks != b.unwrapped.game.decks


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("reward", ["win", "score"])
def test_pettingzoo_render(players, reward, capsys):
    modes = []

    def make(render_mode=None):
        modes.append(render_mode)
        return contack_v0.env(num_players=players, reward=reward, render_mode=render_mode)

    def ansi_shows_the_table(text):
        return text.startswith(f"Contack, {players} players") and all(f"seat {s}  score" in text for s in range(players))

    def image_is_not_blank(image):
        return image.shape[0] > 100 and image.shape[1] > 100 and image.std() > 10

    render_test(make, custom_tests={"ansi": ansi_shows_the_table, "rgb_array": image_is_not_blank})
    assert modes == ["human", "human", "ansi", "rgb_array"]  # every render mode was exercised
    # "human" printed the table: at the reset, after every step and at every render() call.
    assert capsys.readouterr().out.count(f"Contack, {players} players") > 10


def test_human_mode_prints_the_table_as_the_game_goes(capsys):
    env = contack_v0.env(num_players=3, render_mode="human")
    env.reset(seed=4)
    assert capsys.readouterr().out.count("Contack, 3 players") == 1  # the deal
    for _ in range(5):
        env.step(int(np.flatnonzero(env.unwrapped.action_mask())[0]))
        assert capsys.readouterr().out == render_text(env.unwrapped.game) + "\n"  # the table after this step


def test_render_shows_the_table_as_text_and_as_an_image():
    env = contack_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=4)
    game = env.unwrapped.game
    text = env.render()
    assert text.startswith("Contack, 3 players, hand 1 of 3") and "1 tile on the table" in text
    mover = game.current_player
    for seat in range(3):
        held = " ".join(TILE_NAMES[t] for t in tiles_in(game.hands[seat]))
        marker = ">" if seat == mover else " "
        assert f"{marker} seat {seat}  score    0  {held}" in text
    env.step(env.unwrapped.encode_move(game.legal_moves()[0]))
    after = env.render()
    assert "2 tiles on the table" in after and after != text
    assert f"Scores: {game.scores}" in after

    env = contack_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.std() > 10
    env.step(env.unwrapped.encode_move(env.unwrapped.game.legal_moves()[0]))
    assert not np.array_equal(env.render(), image)  # the placed tile shows

    env = contack_v0.env(num_players=3)
    env.reset(seed=4)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_metadata_agents_and_spaces():
    assert contack_v0.raw_env.metadata == {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "contack_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }
    env = contack_v0.env(num_players=5)
    env.reset(seed=0)
    assert env.possible_agents == env.agents == [f"player_{i}" for i in range(5)]
    for agent in env.agents:
        assert env.action_space(agent).n == NUM_ACTIONS == 105
        space = env.observation_space(agent)
        assert space["observation"].shape == (OBS_SIZE,) and space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (NUM_ACTIONS,) and space["action_mask"].dtype == np.int8
    assert contack_v0.raw_env().num_players == 4  # the documented default


def test_env_is_the_raw_env_behind_pettingzoos_order_enforcing_wrapper():
    env = contack_v0.env()
    assert type(env) is wrappers.OrderEnforcingWrapper and type(env.env) is contack_v0.raw_env
    assert env.unwrapped.illegal_action == "lose"
    assert contack_v0.env(illegal_action="raise").unwrapped.illegal_action == "raise"
    assert contack_v0.raw_env().illegal_action == "raise"
    assert str(env) == "contack_v0"
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.agents
    with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before step"):  # PettingZoo's wrapper's
        env.step(0)
    env.reset(seed=1)
    assert env.num_agents == 4


@pytest.mark.parametrize(
    "options,allowed",
    [
        ({"num_players": 1}, "2 to 7 players"),
        ({"num_players": 8}, "2 to 7 players"),
        ({"num_players": "4"}, "2 to 7 players"),
        ({"num_hands": 0}, "1 to 100 hands"),
        ({"num_hands": 101}, "1 to 100 hands"),
        ({"enclosed_end": "sometimes"}, "1939, next_player, never"),
        ({"reward": "points"}, "'win', 'score'"),
        ({"auto_single_moves": "yes"}, "True or False"),
        ({"render_mode": "pixels"}, "'human', 'ansi', 'rgb_array'"),
        ({"info_events": 1}, "info_events is True or False; got 1"),
    ],
)
def test_bad_options_say_what_is_allowed(options, allowed):
    with pytest.raises(ValueError, match=allowed):
        contack_v0.raw_env(**options)


def test_unknown_reset_options_are_ignored_with_a_warning():
    env = contack_v0.raw_env(num_players=2)
    with pytest.warns(UserWarning, match=r"reset ignores the unknown option \['deck'\]; the options are: 'decks'"):
        env.reset(seed=5, options={"deck": list(range(36))})
    assert env.episode_seed == 5


def test_bad_reset_arguments_say_what_is_allowed():
    env = contack_v0.raw_env(num_players=2, num_hands=2)
    for seed in ("7", True, 1.0, -1, 2**63):  # what the records and the commands take, no more: not True as 1
        with pytest.raises(ValueError, match=r"seed is a whole number 0..9223372036854775807; got "):
            env.reset(seed=seed)
    with pytest.raises(ValueError, match=r"one list of the 36 tile ids .* per hand \(2\)"):
        env.reset(options={"decks": [list(range(36))]})
    with pytest.raises(ValueError, match="not a permutation of 0..35"):
        env.reset(options={"decks": [list(range(36)), [0] * 36]})
    with pytest.raises(ValueError, match="holds something else"):
        env.reset(options={"decks": [list(range(36)), [str(t) for t in range(36)]]})


def test_decks_may_come_as_one_array_as_the_solitaires_take_a_deck():
    decks = np.stack([np.random.default_rng(k).permutation(36) for k in (1, 2)])
    env = contack_v0.raw_env(num_players=2, num_hands=2)
    env.reset(options={"decks": decks})
    assert env.game.decks == decks.tolist()


# -- the mask is the engine's legal-move set -------------------------------------------------------------------


def test_masks_are_the_engines_legal_moves_and_actions_round_trip():
    """Thousands of random steps over every table size and rule option: at every decision the mask, decoded,
    is exactly ``legal_moves()``; every legal move encodes to an action that decodes back to it; the record of
    every episode replays through the engine and through the environment."""
    rng = np.random.default_rng(2024)
    decisions = 0
    for episode in range(60):
        players = 2 + episode % 6
        enclosed_end = ("1939", "next_player", "never")[episode % 3]
        env = contack_v0.env(num_players=players, enclosed_end=enclosed_end, num_hands=1 + episode % 3)
        env.reset(seed=episode)
        raw = env.unwrapped

        def check(agent, observation, info, action):
            nonlocal decisions
            game = raw.game
            assert agent == f"player_{game.current_player}"
            mask = observation["action_mask"]
            np.testing.assert_array_equal(mask, raw.action_mask())
            layout = ActionLayout(5, tiles_in(game.hands[game.current_player]), game.figure)
            decoded = sorted(layout.decode(int(a)) for a in np.flatnonzero(mask))
            assert decoded == game.legal_moves()
            for move in game.legal_moves():
                a = raw.encode_move(move)
                assert mask[a] == 1 and raw.decode_action(a) == move
            for other in raw.agents:
                if other != agent:
                    assert not raw.observe(other)["action_mask"].any()
            decisions += 1

        _play(env, rng, check)
        record = raw.game_record(agents=["random"] * players)
        assert record["seed"] == episode
        replay(record)
        replay_through_env(record)
    assert decisions > 2000


def test_observations_are_the_reference_observation_and_in_bounds():
    rng = np.random.default_rng(5)
    env = contack_v0.env(num_players=3)
    env.reset(seed=9)
    raw = env.unwrapped
    space = env.observation_space("player_0")

    def check(agent, observation, info, action):
        seat = raw.possible_agents.index(agent)
        np.testing.assert_array_equal(observation["observation"], observation_vector(raw.game, seat))
        assert space.contains(observation)
        for other in raw.agents:
            seen = raw.observe(other)
            assert space.contains(seen)
            np.testing.assert_array_equal(
                seen["observation"], observation_vector(raw.game, raw.possible_agents.index(other))
            )

    _play(env, rng, check)


# -- rewards ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 7])
@pytest.mark.parametrize("auto", [False, True])
def test_score_rewards_reach_the_agent_that_earned_them(players, auto):
    """Points and penalties land while other agents act; each agent's rewards, collected through ``last()``
    at its turns and at the end, add up to its final score / 100."""
    rng = np.random.default_rng(players)
    for seed in range(3):
        env = contack_v0.env(num_players=players, reward="score", auto_single_moves=auto)
        env.reset(seed=seed)
        collected = _play(env, rng)
        scores = env.unwrapped.game.scores
        assert any(scores)
        for seat, agent in enumerate(env.possible_agents):
            assert collected[agent] == pytest.approx(scores[seat] / 100)


def test_points_of_moves_played_at_reset_are_paid_with_the_first_step():
    # With auto_single_moves, single-move decisions before the first real one are played at reset; a reset
    # pays no reward, so their points come with the first step's rewards, to the seats that scored them.
    for seed in range(300):
        env = contack_v0.env(num_players=2, reward="score", auto_single_moves=True)
        env.reset(seed=seed)
        at_reset = list(env.unwrapped.game.scores)
        if any(at_reset):
            break
    else:
        pytest.fail("no deal scores points at reset")
    assert all(r == 0 for r in env.rewards.values()) and all(r == 0 for r in env._cumulative_rewards.values())
    before = list(env.unwrapped.game.scores)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    after = env.unwrapped.game.scores
    for seat, agent in enumerate(env.possible_agents):
        assert env.rewards[agent] == pytest.approx(after[seat] / 100)
    assert before == at_reset


def test_points_of_moves_played_at_reset_are_paid_with_an_illegal_first_step_too():
    # They were dropped: the seat that scored them at reset never collected them.
    env = contack_v0.env(num_players=4, reward="score", auto_single_moves=True)
    env.reset(seed=55)
    at_reset = list(env.unwrapped.game.scores)
    assert any(at_reset)  # the deal this test needs: points scored at reset
    offender = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0]))
    collected = {}
    for agent in env.agent_iter():
        collected[agent] = env.last()[1]
        env.step(None)
    for seat, agent in enumerate(env.possible_agents):
        assert collected[agent] == pytest.approx(at_reset[seat] / 100 - (agent == offender))


def test_pickling_keeps_the_options():
    import pickle

    env = contack_v0.raw_env(num_players=6, num_hands=2, enclosed_end="never", reward="score", auto_single_moves=True)
    copy = pickle.loads(pickle.dumps(env))
    assert (copy.num_players, copy.num_hands, copy.enclosed_end, copy.reward_mode, copy.auto_single_moves) == (
        6, 2, "never", "score", True
    )


@pytest.mark.parametrize(
    "players,seed,scores,rewards",
    [
        # One hand, every seat playing its first legal action. A sole winner of n gets +1, the others -1/(n-1);
        # k winners share: each gets (n/k - 1)/(n - 1), so that the rewards add up to 0.
        (2, 0, [45, 10], [1, -1]),
        (3, 0, [-25, -10, 35], [-1 / 2, -1 / 2, 1]),
        (3, 40, [55, 55, 55], [0, 0, 0]),
        (4, 41, [-5, 45, 35, 45], [-1 / 3, 1 / 3, -1 / 3, 1 / 3]),
        (4, 118, [45, 45, 45, -5], [1 / 9, 1 / 9, 1 / 9, -1 / 3]),
        (5, 1, [20, 40, 45, 40, 45], [-1 / 4, -1 / 4, 3 / 8, -1 / 4, 3 / 8]),
        (6, 17, [5, 15, 40, 10, 0, 40], [-1 / 5, -1 / 5, 2 / 5, -1 / 5, -1 / 5, 2 / 5]),
    ],
)
def test_win_rewards_of_finished_games(players, seed, scores, rewards):
    env = contack_v0.env(num_players=players, num_hands=1)
    env.reset(seed=seed)
    collected = defaultdict(float)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        collected[agent] += reward
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.unwrapped.game.scores == scores
    assert [collected[a] for a in env.possible_agents] == pytest.approx(rewards)


def test_rewards_come_only_at_the_end_with_win():
    env = contack_v0.env(num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = []

    def check(agent, observation, info, action):
        seen.append(dict(env.rewards))

    _play(env, rng, check)
    assert all(v == 0 for rewards in seen for v in rewards.values())


@pytest.mark.parametrize("players", [2, 4, 7])
def test_after_the_end_each_agent_is_selected_once_from_the_seat_after_the_last_mover(players):
    env = contack_v0.env(num_players=players)
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    last_mover, after_end = None, []
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert observation["action_mask"].sum() == 0
            after_end.append(agent)
            env.step(None)
            continue
        assert not after_end  # no live turn once the game is over
        last_mover = agent
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    first = (env.possible_agents.index(last_mover) + 1) % players
    assert after_end == [env.possible_agents[first]] + [a for a in env.possible_agents if a != env.possible_agents[first]]
    assert env.agents == []
    with pytest.raises(RuntimeError, match="every agent has left it"):
        env.unwrapped.step(None)


# -- illegal actions -------------------------------------------------------------------------------------------


def test_raw_env_refuses_an_illegal_action_naming_it():
    env = contack_v0.raw_env(num_players=2)
    env.reset(seed=1)
    mask = env.action_mask()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"action {illegal} is illegal for {env.agent_selection}: {int(mask.sum())} actions? (is|are) legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="an action is an int in 0..104"):
        env.step(1.5)
    with pytest.raises(ValueError, match="an action is an int in 0..104"):
        env.step(None)
    with pytest.raises(ValueError, match="action 400 is illegal"):
        env.step(400)
    # Nothing happened: the same decision is still open.
    np.testing.assert_array_equal(env.action_mask(), mask)


@pytest.mark.parametrize("out_of_range", [False, True])
def test_env_ends_the_game_on_an_illegal_action_with_minus_one(out_of_range):
    env = contack_v0.env(num_players=3)
    env.reset(seed=1)
    offender = env.agent_selection
    placed = len(env.unwrapped.game.figure)
    illegal = NUM_ACTIONS if out_of_range else int(np.flatnonzero(env.action_mask() == 0)[0])
    env.last()
    env.step(illegal)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos[offender]["illegal_action"] is True
    assert all(env.infos[a]["illegal_action"] is False for a in env.agents if a != offender)
    assert len(env.unwrapped.game.figure) == placed  # nothing was placed
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in env.agents)
    # the game is over for every reader, although the engine's game never finished: nobody to move
    assert not env.unwrapped.game.done and env.unwrapped.action_layout() is None
    assert all(not LAYOUT.view(env.observe(a)["observation"], "to_move").any() for a in env.agents)
    state = env.unwrapped.state()
    assert not any(STATE_LAYOUT.view(state, name).any() for name in ("to_move", "hand", "points"))
    rewards = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        rewards[agent] = reward
        env.step(None)
    assert rewards == {a: (-1 if a == offender else 0) for a in env.possible_agents}
    assert list(rewards) == [offender] + [a for a in env.possible_agents if a != offender]  # the offender first
    with pytest.raises(RuntimeError, match="ended on an illegal action; its game is unfinished and makes no record"):
        env.unwrapped.game_record()


def test_an_action_that_is_no_int_raises_whatever_the_option():
    env = contack_v0.env(num_players=2)
    env.reset(seed=1)
    for bad in (1.5, "3", None):
        with pytest.raises(ValueError, match="an action is an int in 0..104"):
            env.step(bad)
    assert not any(env.terminations.values())


def test_illegal_action_option_is_checked():
    with pytest.raises(ValueError, match="illegal_action is one of 'raise', 'lose'"):
        contack_v0.raw_env(illegal_action="ignore")


# -- single moves played by the environment --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 7])
def test_auto_single_moves_skips_exactly_the_single_move_decisions(players):
    """With ``auto_single_moves`` every decision an agent sees has 2+ legal moves; replaying the agents'
    choices on a plain engine, with every single-move decision played for them, gives the same game."""
    rng = np.random.default_rng(players)
    for seed in range(3):
        env = contack_v0.env(num_players=players, auto_single_moves=True)
        env.reset(seed=seed)
        chosen = []

        def check(agent, observation, info, action):
            assert observation["action_mask"].sum() >= 2
            chosen.append(env.unwrapped.decode_action(action))

        _play(env, rng, check)
        auto_game = env.unwrapped.game
        plain = ContackGame(auto_game.decks, players, auto_game.num_hands)
        skipped = 0
        choices = iter(chosen)
        while not plain.done:
            moves = plain.legal_moves()
            if len(moves) == 1:
                plain.play(moves[0])
                skipped += 1
            else:
                plain.play(next(choices))
        assert next(choices, None) is None
        assert plain.hand_events == auto_game.hand_events
        assert skipped > 0
        assert skipped + len(chosen) == sum(1 for h in plain.hand_events for e in h if e["type"] == "place")


def test_auto_single_moves_reduces_decisions():
    counts = {}
    for auto in (False, True):
        env = contack_v0.env(num_players=4, auto_single_moves=auto)
        decisions = 0
        rng = np.random.default_rng(0)
        for seed in range(5):
            env.reset(seed=seed)

            def count(*_):
                nonlocal decisions
                decisions += 1

            _play(env, rng, count)
        counts[auto] = decisions
    assert counts[True] < 0.8 * counts[False]


# -- infos -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("auto", [False, True])
def test_infos_tell_each_agent_everything_since_its_previous_step(auto):
    env = contack_v0.env(num_players=4, auto_single_moves=auto, info_events=True)
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    seen = defaultdict(list)  # per agent: the events its infos showed, in order
    drawn = defaultdict(list)
    draws = defaultdict(int)
    passed = defaultdict(int)
    auto_moves = defaultdict(int)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        seen[agent] += info["events"]
        drawn[agent] += info["drawn"]
        draws[agent] += info["draws"]
        passed[agent] += info["passed"]
        auto_moves[agent] += info["auto_moves"]
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    record = env.unwrapped.game_record()
    everything = [e for hand in record["hands"] for e in hand["events"]]
    for seat, agent in enumerate(env.possible_agents):
        assert seen[agent] == everything
        assert drawn[agent] == [e["tile"] for e in everything if e["type"] == "draw" and e["seat"] == seat]
        assert draws[agent] == len(drawn[agent])
        assert passed[agent] == sum(1 for e in everything if e["type"] == "pass" and e["seat"] == seat)
    assert (sum(auto_moves.values()) > 0) == auto
    assert sum(draws.values()) > 0 and sum(passed.values()) > 0  # the game had both, so the counts were tested


@pytest.mark.parametrize("auto", [False, True])
def test_infos_have_a_fixed_shape_by_default(auto):
    # Scalars under the same keys at every step and for every agent (replay buffers such as Tianshou's stack
    # them), with the same counts as the event log gives.
    plain = contack_v0.env(num_players=4, auto_single_moves=auto)
    logged = contack_v0.env(num_players=4, auto_single_moves=auto, info_events=True)
    plain.reset(seed=11)
    logged.reset(seed=11)
    rng = np.random.default_rng(1)
    steps = 0
    for agent in plain.agent_iter():
        assert agent == logged.agent_selection
        observation, _, terminated, truncated, info = plain.last()
        full = logged.last()[4]
        for who in plain.agents:
            shown = plain.infos[who]
            assert list(shown) == ["passed", "draws", "auto_moves", "illegal_action"]
            assert all(type(v) in (int, bool) for v in shown.values())
            assert {k: logged.infos[who][k] for k in shown} == shown
        assert info["draws"] == len(full["drawn"])
        if terminated or truncated:
            plain.step(None)
            logged.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        plain.step(action)
        logged.step(action)
        steps += 1
    assert steps > 30


def test_infos_do_not_alias_the_record():
    env = contack_v0.env(num_players=2, info_events=True)
    env.reset(seed=2)
    info = env.infos[env.agent_selection]
    info["events"][0]["cell"][0] = 99
    info["events"][0]["tile"] = "nonsense"
    assert env.unwrapped.game.hand_events[0][0]["cell"] == [0, 0]
    assert env.unwrapped.game.hand_events[0][0]["tile"] in TILE_NAMES


# -- deals, seeds and records ----------------------------------------------------------------------------------


def test_seeded_reset_deals_as_new_game():
    env = contack_v0.raw_env(num_players=5, num_hands=2)
    env.reset(seed=77)
    assert env.game.decks == new_game(5, num_hands=2, seed=77).decks


def test_unseeded_resets_are_reproducible_from_their_record_seed():
    env = contack_v0.raw_env(num_players=3, num_hands=1)
    env.reset(seed=5)
    decks = []
    for _ in range(3):
        env.reset()
        seed = env.episode_seed
        assert isinstance(seed, int)
        assert env.game.decks == new_game(3, num_hands=1, seed=seed).decks
        decks.append(env.game.decks)
    assert decks[0] != decks[1]
    again = contack_v0.raw_env(num_players=3, num_hands=1)
    again.reset(seed=5)
    again.reset()
    assert again.game.decks == decks[0]


def test_given_decks_replay_a_game_and_its_record():
    original = new_game(3, seed=21, trace=True)
    rng = np.random.default_rng(0)
    while not original.done:
        codes = original.legal_codes()
        original.play_code(codes[rng.integers(len(codes))])
    env = contack_v0.raw_env(num_players=3)
    env.reset(options={"decks": original.decks})
    for hand in original.hand_events:
        for event in hand:
            if event["type"] == "place":
                env.step(env.encode_move(Move(TILE_NAMES.index(event["tile"]), *event["cell"])))
    assert env.game.done
    mine = env.game_record(agents=["a", "b", "c"])
    theirs = game_record(original)
    assert mine["seed"] is None and mine["agents"] == ["a", "b", "c"]
    assert mine["scores"] == theirs["scores"] and mine["winners"] == theirs["winners"]
    assert [[{k: v for k, v in e.items() if k != "legal"} for e in h["events"]] for h in theirs["hands"]] == [
        h["events"] for h in mine["hands"]
    ]


def test_game_record_of_an_unfinished_game_is_refused():
    env = contack_v0.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="still going"):
        env.game_record()


def test_encode_move_refuses_a_move_without_an_action():
    env = contack_v0.raw_env(num_players=2)
    env.reset(seed=0)
    held = tiles_in(env.game.hands[env.game.current_player])
    stranger = next(t for t in range(36) if t not in held and t not in env.game.figure.placed.values())
    with pytest.raises(ValueError, match="has no action now"):
        env.encode_move((stranger, 0, -1))


def test_changing_an_observation_handed_out_changes_nothing_the_environment_keeps():
    # A caller may mask actions in place; the environment's own copy (built once a decision) stays as it was.
    env = contack_v0.env(num_players=3)
    env.reset(seed=4)
    obs, *_ = env.last()
    mask, features = obs["action_mask"].copy(), obs["observation"].copy()
    obs["action_mask"][:] = 0
    obs["observation"][:] = -7
    again, *_ = env.last()
    np.testing.assert_array_equal(again["action_mask"], mask)
    np.testing.assert_array_equal(again["observation"], features)
    env.action_mask()[:] = 0
    np.testing.assert_array_equal(env.action_mask(), mask)
    env.step(int(np.flatnonzero(mask)[0]))  # the mask the environment checks against is its own
