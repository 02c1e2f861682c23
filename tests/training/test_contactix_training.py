"""CON-TAC-TIX training: the seat environment, the configuration, a short run, ``ppo:PATH`` for contactix, and
the shipped 5x5 model (``models/contactix_5x5.npz``) against ``random``."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from agents.arena import seed_streams
from agents.arena import play_game
from agents.evaluate import evaluate
from contack_env.cli.terminal import play_contactix_terminal
from agents.ppo_agent import PPOAgent
from agents.registry import make_agent
from contack_env import contactix_v0
from contack_env.cli import main as contack_main
from contack_env.contactix.rules import ContactixState
from contack_env.envs.contactix_v0 import flat_observation
from contack_env.games import RuleOptions
from training.config import TrainConfig
from training.contactix_seat_env import ContactixSeatEnv
from training.opponents import OpponentPool, PolicyOpponent, parse_weights
from agents.policy_file import PolicyFileError, PolicyNet
from training.train import check_config, main, train
from legal_only import LegalOnly

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHIPPED = os.path.join(ROOT, "models", "contactix_5x5.npz")
SMALL = dict(game="contactix", board_size=4, n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=[32],
             snapshot_every=128, reward="win", opponents="random,self", eval_opponents=["random"], features="none")


def _env(size=5, opponents="random,two_distance", illegal_action="raise", seed=0):
    pool = OpponentPool(parse_weights(opponents), seed=seed, game="contactix", fresh_bots=True)
    return ContactixSeatEnv(size, pool, illegal_action=illegal_action)


def _random_policy(path, size, game="contactix", seed=0):
    """A policy file of the right shapes for ``size`` with random weights (what training would export)."""
    rng = np.random.default_rng(seed)
    n_in, n_out = size * size * 4, size * size
    net = PolicyNet([(rng.normal(size=(n_in, 16)).astype(np.float32), np.zeros(16, np.float32))],
                    (rng.normal(size=(16, n_out)).astype(np.float32), np.zeros(n_out, np.float32)),
                    meta={"game": game, "board_size": size, "swap": False, "players": 2})
    net.save(path)
    return path


# -- the seat environment ------------------------------------------------------------------------------------------
def test_gymnasium_and_sb3_env_checkers_accept_it():
    gymnasium_check_env(_env(illegal_action="lose"), skip_render_check=True)
    sb3_check_env(_env(illegal_action="lose"))


def test_the_learner_plays_both_colours_and_gets_plus_or_minus_one_at_the_end():
    env = _env()
    rng = np.random.default_rng(0)
    colours = set()
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        colours.add(info["colour"])
        done, total = False, 0.0
        while not done:
            game = env.game_env.game
            assert game.current_player == env.colour, "every observation is a decision of the learner"
            assert np.flatnonzero(env.action_masks()).tolist() == game.legal_moves()
            assert np.array_equal(obs, flat_observation(game))
            obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            assert not truncated and (done or reward == 0.0)
            total += reward
        assert total == (1.0 if info["won"] else -1.0)
        assert info["winner"] == ("black", "white")[env.game_env.game.winner]
        assert not env.action_masks().any()
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)
    assert colours == {"black", "white"}


def test_the_same_seed_gives_the_same_colour_opponent_and_game():
    def episode(seed):
        env = _env(opponents="random,two_distance,mcts:8")
        rng = np.random.default_rng(1)
        env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        return env.colour, env.opponent[0], env.game_env.game.moves

    assert episode(3) == episode(3)
    assert len({tuple(episode(s)[2]) for s in range(6)}) > 1


def test_the_input_is_contactix_v0s_observation_flattened_for_either_colour():
    env = contactix_v0.raw_env(board_size=5)
    env.reset()
    rng = np.random.default_rng(2)
    while not env.game.done:
        for colour, agent in enumerate(env.possible_agents):
            planes = env.observe(agent)["observation"]
            assert np.array_equal(flat_observation(env.game, colour), planes.reshape(-1))
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))


def test_an_illegal_action_raises_or_loses_and_bad_settings_say_what_is_allowed():
    env = _env()
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    taken = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match=f"action {taken} is illegal"):
        env.step(taken)
    lose = _env(illegal_action="lose")
    lose.reset(seed=0)
    lose.step(int(np.flatnonzero(lose.action_masks())[0]))
    _, reward, done, _, info = lose.step(int(np.flatnonzero(~lose.action_masks())[0]))
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    for action in (1000, -1):  # outside Discrete(25): illegal like any other, not an IndexError
        lose.reset(seed=0)
        _, reward, done, _, info = lose.step(action)
        assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    lose.reset(seed=0)
    before = list(lose.game_env.game.moves)
    for action in (2.7, True):  # no int: not played as action 2 or 1
        with pytest.raises(ValueError, match=r"an action is an int in 0..24"):
            lose.step(action)
    assert lose.game_env.game.moves == before
    with pytest.raises(ValueError, match="illegal_action is one of 'raise', 'lose'; got 'skip'"):
        _env(illegal_action="skip")
    with pytest.raises(ValueError, match="board_size is a whole number 3..19"):
        _env(size=20)
    with pytest.raises(ValueError, match="reward must be one of win"):
        ContactixSeatEnv(5, OpponentPool({"random": 1}, game="contactix"), reward="margin")
    with pytest.raises(ValueError, match="game='contactix'"):
        ContactixSeatEnv(5, OpponentPool({"random": 1}))
    with pytest.raises(ValueError, match=r"opponent 'greedy'.*random, two_distance, mcts"):
        OpponentPool(parse_weights("greedy"), game="contactix")


def test_self_in_the_pool_plays_the_learners_snapshots(tmp_path):
    pool = OpponentPool(parse_weights("self"), game="contactix")
    net = PolicyNet.load(_random_policy(tmp_path / "p.npz", 5))
    pool.add_snapshot(net)
    env = ContactixSeatEnv(5, pool)
    env.reset(seed=1)
    assert env.opponent[0] == "self" and isinstance(env.opponent[1], PolicyOpponent)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))


# -- configuration and a short run -------------------------------------------------------------------------------
def test_the_command_line_gives_contactix_its_own_defaults_and_checks_the_board_size(tmp_path):
    cfg = TrainConfig.from_dict({"game": "contactix", "board_size": 7})
    assert (cfg.reward, cfg.opponents, cfg.eval_opponents, cfg.policy_kind, cfg.players) == (
        "win", "random,two_distance,self", ["random", "two_distance"], "mlp", 2)
    assert TrainConfig().board_size == 5 and TrainConfig().reward == "margin", "Contack's defaults are unchanged"
    for values, message in [
        ({"board_size": 2}, "board_size: the CON-TAC-TIX board is N x N holes with N a whole number 3..19; got 2"),
        ({"board_size": 20}, "3..19; got 20"),
        ({"players": 3}, "CON-TAC-TIX is played by 2 players; got 3"),
        ({"policy": "factored"}, "policy 'factored' is for contack; use mlp (or auto) for contactix"),
    ]:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            TrainConfig.from_dict({"game": "contactix", **values})
    with pytest.raises(ValueError, match="reward for contactix must be one of win"):
        check_config(TrainConfig.from_dict({"game": "contactix", "reward": "margin"}))
    with pytest.raises(ValueError, match=r"TrainConfig.for_game\('contactix', ...\) starts from the game's defaults"):
        TrainConfig(game="contactix")  # Contack's field defaults: the lookahead inputs
    with pytest.raises(ValueError, match=r"TrainConfig.for_game\('contactix', ...\) starts from the game's defaults"):
        check_config(TrainConfig(game="contactix", features="none"))  # and reward margin
    with pytest.raises(ValueError, match=r"unknown agent 'greedy'.*TrainConfig.for_game\('contactix', ...\)"):
        check_config(TrainConfig(game="contactix", reward="win", features="none"))  # and Contack's opponents
    with pytest.raises(ValueError, match="eval_opponents: unknown agent 'greedy' for contactix"):
        check_config(TrainConfig.from_dict({"game": "contactix", "eval_opponents": ["greedy"]}))


def test_a_short_contactix_run_writes_its_policy_config_and_curve(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["--game", "contactix", "--board-size", "4", "--opponents", "random,self", "--eval-opponents", "random",
                 "--total-timesteps", "2048", "--n-envs", "2", "--n-steps", "128", "--batch-size", "128",
                 "--net-arch", "32", "--eval-every", "1024", "--eval-games", "10", "--snapshot-every", "512",
                 "--checkpoint-every", "1024", "--progress", "off", "--out", str(out)])
    assert code == 0
    for name in ("config.toml", "policy.npz", "checkpoint.zip", "state.json", "eval.csv", "learning_curve.png"):
        assert (out / name).is_file(), name
    assert len(list((out / "snapshots").glob("snap_*.npz"))) >= 4, "self-play snapshots are taken"
    cfg = TrainConfig.load(str(out / "config.toml"))
    assert (cfg.game, cfg.board_size, cfg.reward, cfg.policy_kind) == ("contactix", 4, "win", "mlp")
    net = PolicyNet.load(out / "policy.npz", game="contactix")
    assert (net.meta["board_size"], net.meta["swap"], net.meta["trained_steps"]) == (4, False, 2048)
    assert (net.obs_size, net.num_actions, net.scorer) == (64, 16, None)
    rows = (out / "eval.csv").read_text().splitlines()
    assert {r.split(",")[0] for r in rows[1:]} == {"0", "1024", "2048"}
    assert all(r.split(",")[1] == "random" for r in rows[1:])
    assert "vs random: win rate" in capsys.readouterr().out
    # and it resumes like a Contack run, snapshots and all
    train(None, str(out), resume=True, progress=False, total_timesteps=2304)
    assert PolicyNet.load(out / "policy.npz").meta["trained_steps"] == 2304


# -- ppo:PATH for CON-TAC-TIX -----------------------------------------------------------------------------------------
def test_a_trained_policy_plays_only_legal_moves(tmp_path):
    train(TrainConfig(total_timesteps=128, eval_every=0, **SMALL), str(tmp_path / "r"), progress=False)
    path = tmp_path / "r" / "policy.npz"
    for seed in range(6):
        streams = seed_streams(seed, 3)
        agents = [make_agent(f"ppo:{path}", streams[1], game="contactix"),
                  make_agent("random", streams[2], game="contactix")]
        if seed % 2:
            agents.reverse()
        state = play_game(ContactixState(4), [LegalOnly(a) for a in agents])
        assert state.done
    sampling = PPOAgent(str(path), deterministic=False, seed=0)
    state = ContactixState(4)
    state.play(5)
    legal = state.legal_moves()
    sampled = {sampling.act(state.clone(), legal) for _ in range(20)}
    assert sampled <= set(legal) and len(sampled) > 1, "samples legal moves, not always the same one"


def test_ppo_path_errors_say_what_was_wrong(tmp_path):
    with pytest.raises(ValueError, match="no policy file at .*missing.npz"):
        make_agent(f"ppo:{tmp_path / 'missing.npz'}", 0, game="contactix")
    contack = _random_policy(tmp_path / "contack.npz", 5, game="contack")
    with pytest.raises(ValueError, match="is a policy for 'contack', not for 'contactix'"):
        make_agent(f"ppo:{contack}", 0, game="contactix")
    five = _random_policy(tmp_path / "five.npz", 5)
    agent = make_agent(f"ppo:{five}", 0, game="contactix")
    with pytest.raises(ValueError, match=r"trained with --board-size 5; it cannot play with --board-size 7 \(use "
                       r"it with --board-size 5, or a file trained with --board-size 7\)"):
        agent.check_options(RuleOptions(board_size=7))
    with pytest.raises(ValueError, match="trained without --swap; it cannot play with --swap"):
        agent.check_options(RuleOptions(board_size=5, swap=True))
    agent.check_options(RuleOptions(board_size=5, hands=1))  # an option CON-TAC-TIX does not have is no matter
    # a state of another board or swap rule, given to the agent directly, is refused by its observer
    with pytest.raises(PolicyFileError, match="five.npz: this observer reads the 5x5 board without the swap rule; "
                                              "the state is a 7x7 board"):
        agent.act(ContactixState(7), ContactixState(7).legal_moves())
    with pytest.raises(PolicyFileError, match="the state is a 5x5 board with the swap rule"):
        agent.act(ContactixState(5, swap=True), list(range(25)))
    net = PolicyNet.load(five)
    del net.meta["board_size"]
    net.save(tmp_path / "unsized.npz")
    with pytest.raises(PolicyFileError, match=r"unsized.npz: a CON-TAC-TIX file records the rule options it was "
                                              r"trained with \(board_size, swap\); it lacks board_size"):
        make_agent(f"ppo:{tmp_path / 'unsized.npz'}", 0, game="contactix")
    with pytest.raises(ValueError, match="trained with --board-size 5; it cannot play with --board-size 7"):
        evaluate([f"ppo:{five}", "random"], 2, seed=0, game="contactix", board_size=7)
    with pytest.raises(ValueError, match="is a policy for 'contactix', not for 'contack'"):
        evaluate([f"ppo:{five}", "random"], 2, seed=0)


def test_evaluate_and_play_take_a_contactix_policy_on_the_command_line(tmp_path, capsys):
    five = _random_policy(tmp_path / "five.npz", 5)
    assert contack_main(["evaluate", "--game", "contactix", "--board-size", "5", "--agents", f"ppo:{five},random",
                         "--games", "4", "--seed", "0"]) == 0
    assert "4 games of contactix 5x5" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        contack_main(["evaluate", "--game", "contactix", "--board-size", "7", "--agents", f"ppo:{five},random",
                      "--games", "4", "--seed", "0"])
    assert "trained with --board-size 5; it cannot play with --board-size 7" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        contack_main(["play", "--game", "contactix", "--agents", f"ppo:{five}"])  # the default board is 11x11
    assert "(use it with --board-size 5, or a file trained with --board-size 11)" in capsys.readouterr().err
    records = tmp_path / "games.jsonl"
    with pytest.raises(SystemExit):
        contack_main(["simulate", "--game", "contactix", "--agents", f"random,ppo:{five}", "--games", "1", "--seed", "0",
                      "--out", str(records)])
    assert "(use it with --board-size 5, or a file trained with --board-size 11)" in capsys.readouterr().err
    assert not records.exists()
    assert contack_main(["simulate", "--game", "contactix", "--board-size", "5", "--agents", f"random,ppo:{five}",
                         "--games", "2", "--seed", "0", "--out", str(records)]) == 0
    assert "wrote 2 records" in capsys.readouterr().out
    out = io.StringIO()
    moves = "".join(f"{r} {c}\n" for r in range(5) for c in range(5))
    assert play_contactix_terminal(5, f"ppo:{five}", seat=0, seed=1, input=io.StringIO(moves), output=out) == 0
    assert "has joined their sides" in out.getvalue()


# -- the shipped model ---------------------------------------------------------------------------------------------
def test_the_shipped_5x5_model_beats_random():
    net = PolicyNet.load(SHIPPED, game="contactix")
    assert (net.meta["board_size"], net.obs_size, net.num_actions) == (5, 100, 25)
    ev = evaluate([f"ppo:{SHIPPED}", "random"], 40, seed=0, game="contactix", board_size=5)
    first = ev.entries[0]
    assert first.win_rate > 0.6, first
    assert first.win_rate_black > 0.5 and first.win_rate_white > 0.5
