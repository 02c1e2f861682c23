"""The Python API's faults: a clear error naming what is wrong, never a bare KeyError or a silent wrong result."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from contack_env import contack_v0, contactix_v0, solitaire_v0
from agents.policy_file import PolicyFileError, PolicyNet


def _play_out(env) -> None:
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize("make", [lambda: contack_v0.raw_env(num_players=3, num_hands=1),
                                  lambda: contactix_v0.raw_env(board_size=4)])
def test_step_after_the_game_and_an_unknown_agent_are_clear_errors(make):
    env = make()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    env.reset(seed=2)
    with pytest.raises(ValueError, match="no agent 'bob' in this game; the agents are"):
        env.observe("bob")
    _play_out(env)
    assert env.agents == []
    for action in (0, None):
        with pytest.raises(RuntimeError, match=r"the game is over .* call reset\(\) to play another"):
            env.step(action)
    env.reset(seed=3)  # and the environment still works
    _play_out(env)


@pytest.mark.parametrize("cls", [solitaire_v0.Solitaire1Env, solitaire_v0.Solitaire2Env])
@pytest.mark.parametrize("action", [22.9, 1.0, "22", "1", True, False, np.bool_(True), None, [1], np.array([1])])
def test_the_solitaires_refuse_actions_that_are_not_integers(cls, action):
    env = cls()  # illegal_action="lose": an illegal integer ends the episode; a non-integer is no action at all
    env.reset(seed=1)
    with pytest.raises(ValueError, match="an action is an integer"):
        env.step(action)


@pytest.mark.parametrize("cls", [solitaire_v0.Solitaire1Env, solitaire_v0.Solitaire2Env])
def test_the_solitaires_take_python_and_numpy_integers(cls):
    for kind in (int, np.int64, np.int32, np.uint8, np.array):
        env = cls()
        env.reset(seed=1)
        action = int(np.flatnonzero(env.action_masks())[0])
        _, _, terminated, _, info = env.step(kind(action))
        assert not info.get("illegal_action"), kind


@pytest.mark.parametrize("size", [3, 5, 10])
def test_contactix_checks_actions_against_its_own_board(size):
    n = size * size
    for action in (n, 104, 105):
        # Outside the board's own Discrete(n): an illegal action, as the env card says (the game ends, -1 for the
        # offender), never an IndexError from another game's action count.
        env = contactix_v0.env(board_size=size)
        env.reset(seed=0)
        env.step(action)
        assert env.rewards == {"black": -1.0, "white": 0.0}
        assert all(env.terminations.values()) and env.infos["black"].get("illegal_action") is True
    raw = contactix_v0.raw_env(board_size=size)
    raw.reset(seed=0)
    with pytest.raises(ValueError, match=rf"outside Discrete\({n}\)"):
        raw.step(n)
    env = contactix_v0.env(board_size=size)
    env.reset(seed=0)
    env.step(n - 1)  # the last hole is a legal first move on every board
    assert env.agent_selection == "white"


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, 1e300])
@pytest.mark.parametrize("where", ["w0", "ba"])
def test_a_policy_file_with_weights_that_are_not_finite_is_refused(tmp_path, bad, where):
    net = PolicyNet([(np.ones((4, 3), np.float32), np.zeros(3, np.float32))],
                    (np.ones((3, 2), np.float32), np.zeros(2, np.float32)))
    path = tmp_path / "p.npz"
    net.save(path)
    assert PolicyNet.load(path).num_actions == 2
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays[where] = arrays[where].astype(np.float64)
    arrays[where].flat[1] = bad
    np.savez(path, **arrays)
    with pytest.raises(PolicyFileError, match="NaN or infinite weight"):
        PolicyNet.load(path)


@pytest.mark.parametrize("bad", [np.array(["a", "b", "c"]), np.array([True, False, True]), np.array([1j, 2, 3])])
@pytest.mark.parametrize("loader", ["ppo", "az"])
def test_a_network_file_whose_weights_are_not_real_numbers_is_refused_naming_the_array(tmp_path, bad, loader):
    # text stored as weights failed with numpy's "could not convert string to float: np.str_('a')", naming no
    # file and no array; booleans and complex numbers were cast and played
    from agents.az.network import AZNet

    source = {"ppo": "models/solitaire1.npz", "az": "models/solitaire1_az.npz"}[loader]
    with np.load(source) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["b0"] = np.resize(bad, arrays["b0"].shape)
    np.savez(tmp_path / "odd.npz", **arrays)
    with pytest.raises(PolicyFileError, match=rf"odd.npz: b0 does not hold numbers \(its type is {bad.dtype}\); the "
                                              "arrays of a network's file are real numbers"):
        {"ppo": PolicyNet, "az": AZNet}[loader].load(tmp_path / "odd.npz")


def test_a_policy_file_with_nan_weights_is_refused_by_the_command_line(tmp_path, cli):
    net = PolicyNet([], (np.full((787, 105), np.nan, np.float32), np.zeros(105, np.float32)),
                    meta={"game": "contack", "players": 2, "features": "none"})
    net.save(tmp_path / "nan.npz")
    result = cli("evaluate", "--agents", f"ppo:{tmp_path / 'nan.npz'},random", "--games", "2", "--seed", "1")
    result.assert_clean_failure(2, "NaN or infinite weight")


@pytest.mark.parametrize("make", [lambda: contack_v0.raw_env(num_players=2), lambda: contactix_v0.raw_env(board_size=5)])
@pytest.mark.parametrize("action", [True, False, 1.0, "1"])
def test_the_multi_agent_environments_refuse_actions_that_are_not_integers(make, action):
    env = make()
    env.reset(seed=1)
    with pytest.raises(ValueError, match="an action is an int"):
        env.step(action)


def _second_move(game):
    return game.legal_moves()[1]


@pytest.mark.parametrize("bad", [lambda m: (m.tile, m.x + 0.9, m.y),  # int() made it this very move
                                 lambda m: (str(m.tile), str(m.x), str(m.y)), lambda m: (m.tile, True, m.y),
                                 lambda m: (m.tile, float("inf"), m.y), lambda m: (m.tile, m.x), lambda m: None])
def test_the_engine_plays_only_moves_of_three_whole_numbers(bad):
    from contack_env import IllegalMoveError, new_game

    game = new_game(2, seed=1)
    move = _second_move(game)
    assert move.x == 1  # (m.x + 0.9 would truncate to it)
    with pytest.raises(IllegalMoveError, match=r"a move is \(tile id, x, y\), three whole numbers; got "):
        game.play(bad(move))
    assert len(game.hand_events[-1]) == 1  # only the opening: nothing was played
    assert game.play((np.int64(move.tile), np.int32(move.x), move.y)) >= 0  # numpy integers are whole numbers


def test_a_cell_beyond_the_grid_has_no_action_though_its_index_is_another_cells():
    # cell (x, y - 128) shares (x, y)'s engine index: encode_move returned the legal move's action
    env = contack_v0.raw_env(num_players=2)
    env.reset(seed=3)
    move = env.decode_action(21)
    assert env.encode_move(move) == 21
    with pytest.raises(ValueError, match="has no action now"):
        env.encode_move((move.tile, move.x + 1, move.y - 128))
    for bad in ((move.tile + 0.9, move.x, move.y), (move.tile, move.x, move.y, 0), "abc"):
        with pytest.raises(ValueError, match="three whole numbers"):
            env.encode_move(bad)
    for bad in (21.9, "21", True, None):  # as step refuses them: no other action is decoded
        with pytest.raises(ValueError, match=r"an action is an int in 0..104"):
            env.decode_action(bad)
    assert env.decode_action(np.int64(21)) == move
    solo = solitaire_v0.Solitaire2Env()
    solo.reset(seed=4)
    action = int(np.flatnonzero(solo.action_masks())[0])
    move = solo.decode_action(action)
    assert solo.encode_move(move) == action
    with pytest.raises(ValueError, match="is not legal here .no action names it."):
        solo.encode_move((move.tile, move.x + 1, move.y - 128))
    with pytest.raises(ValueError, match="three whole numbers"):
        solo.encode_move((move.tile, move.x - 0.5, move.y))


def test_contactix_takes_no_bool_for_a_row():
    env = contactix_v0.raw_env(board_size=5)
    env.reset(seed=0)
    assert env.encode_move((1, 2)) == 7
    for bad in ((True, 2), (1.0, 2), ("1", 2)):
        with pytest.raises(ValueError, match=r"a move is \(r, c\), two whole numbers"):
            env.encode_move(bad)


@pytest.mark.parametrize("seed", [True, 1.0, "3", [1, 2], -1, 2**63])
def test_a_seed_is_a_whole_number_in_the_suites_range_everywhere(seed):
    # True dealt as seed 1, [1, 2] and 2**64 dealt from numpy's SeedSequence, and records carried seeds that no
    # command takes; -1 and 1.5 were refused in numpy's words, naming no seed
    from contack_env import new_game, new_solitaire1, new_solitaire2
    from contack_env.contactix.rules import ContactixState
    from contack_env.records.contactix import game_record as contactix_record
    from contack_env.records.contack import game_record

    message = r"seed.* is a whole number 0..9223372036854775807; got "
    for make in (lambda: new_game(2, seed=seed), lambda: new_solitaire1(seed), lambda: new_solitaire2(seed)):
        with pytest.raises(ValueError, match=message):
            make()
    for env_id in ("contack/Solitaire1-v0", "contack/Solitaire2-v0"):
        with pytest.raises(ValueError, match=message):
            gymnasium.make(env_id).reset(seed=seed)
    finished = new_game(2, 1, seed=3)
    while not finished.done:
        finished.play(finished.legal_moves()[0])
    with pytest.raises(ValueError, match=message):
        game_record(finished, seed=seed)
    with pytest.raises(ValueError, match=message):
        contactix_record(ContactixState(5), seed=seed)
    assert game_record(finished, seed=np.int64(3))["seed"] == 3  # numpy integers are whole numbers
    # numpy's own seeding objects deal as numpy deals from them
    assert new_game(2, seed=np.random.SeedSequence(5)).hands == new_game(2, seed=np.random.default_rng(5)).hands


def test_a_contactix_record_takes_two_names_not_a_string_of_two_letters():
    from contack_env.contactix.rules import ContactixState
    from contack_env.records.contactix import game_record

    for agents in ("ab", [1, 2], ["random"]):
        with pytest.raises(ValueError, match="agents names Black's and White's agent, 2 names"):
            game_record(ContactixState(5), agents=agents)
    assert game_record(ContactixState(5), agents=["random", None])["agents"] == ["random", None]


def test_flags_and_the_agents_list_of_an_evaluation_are_what_they_say():
    # ray="no" is true to Python and started Ray; a set of agents has no seat order (it followed the strings'
    # hashes, which differ between processes); players=2.0 failed deep in the schedule
    from agents.evaluate import evaluate
    from agents.ppo_agent import PPOAgent

    for kwargs, message in (({"ray": "no"}, "ray is True or False; got 'no'"),
                            ({"records": "no"}, "records is True or False"),
                            ({"progress": True, "out": "prog.txt"}, "out is a text stream")):
        with pytest.raises(ValueError, match=message):
            evaluate(["random", "greedy"], 2, 1, **kwargs)
    for unordered in ({"random", "greedy"}, {"random": 1, "greedy": 2}):
        with pytest.raises(ValueError, match="agents is a list of entries, one a seat"):
            evaluate(unordered, 2, 1)
    for ordered in ((a for a in ["random", "greedy"]), np.array(["random", "greedy"])):  # these have an order
        assert evaluate(ordered, 2, 1, hands=1).agents == ["random", "greedy"]
    with pytest.raises(ValueError, match="CON-TAC-TIX is played by 2 players; got 2.0"):
        evaluate(["random", "two_distance"], 2, 1, game="contactix", board_size=3, players=2.0)
    with pytest.raises(ValueError, match="Solitaire No. 1 is a solitaire, played by 1 player; got 1.0"):
        evaluate(["random"], 1, 1, game="solitaire1", players=1.0)
    with pytest.raises(ValueError, match="deterministic is True .* or False .*; got 'no'"):
        PPOAgent("models/contack_2p.npz", deterministic="no")
    assert evaluate(("random", "greedy"), 2, 1, hands=1, records=np.bool_(True)).results[0].record is not None


def test_the_enclosed_end_option_is_a_name_not_an_array_holding_one():
    from contack_env import new_game

    for make in (lambda: contack_v0.raw_env(enclosed_end=np.array(["never"])),
                 lambda: new_game(2, enclosed_end=np.array(["1939"]))):
        with pytest.raises(ValueError, match="enclosed_end must be one of 1939, next_player, never; got array"):
            make()


def test_the_environments_agree_on_what_comes_before_reset_and_on_seeds():
    # a solitaire's mask before reset was all zeros (its docstring says a mask never is); CON-TAC-TIX took any seed
    for env_id in ("contack/Solitaire1-v0", "contack/Solitaire2-v0"):
        env = gymnasium.make(env_id).unwrapped
        with pytest.raises(RuntimeError, match=r"no episode yet: call reset\(\) first"):
            env.action_masks()
        env.reset(seed=1)
        assert env.action_masks().any()
    board = contactix_v0.raw_env(board_size=5)
    for seed in ("abc", True, -1):
        with pytest.raises(ValueError, match="seed is a whole number 0.."):
            board.reset(seed=seed)
    board.reset(seed=7)  # taken, and nothing to seed


def test_a_deck_of_other_things_and_a_seed_for_a_generator_are_refused_in_words():
    # a string among the tiles failed sorting them ("'<' not supported between 'int' and 'str'"), True passed as
    # tile 1; determinize(5) failed on its first draw ("'int' object has no attribute 'permutation'")
    from contack_env import Solitaire1, new_game

    for deck in (["a", *range(1, 36)], [True, *range(1, 36)], 5):
        with pytest.raises(ValueError, match=r"a deck must hold each of the 36 tile ids exactly once \(whole numbers"):
            Solitaire1(deck)
    with pytest.raises(TypeError, match="rng is a numpy Generator"):
        new_game(2, seed=1).determinize(5)
    assert new_game(2, seed=1).determinize(np.random.default_rng(0)).num_players == 2
