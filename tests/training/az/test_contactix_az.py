"""The search-guided learner on CON-TAC-TIX: a game that reaches it only through the registry (its state observer,
built for the board size), trained, saved and played like Contack's networks."""

import json

import numpy as np
import pytest

from agents.arena import play_game, seed_streams
from agents.az.network import AZNet
from agents.evaluate import evaluate
from agents.registry import check_spec, make_agent
from contack_env.contactix.rules import ContactixState
from legal_only import LegalOnly
from contack_env.envs.contactix_v0 import ContactixObserver, raw_env
from contack_env.games import GAMES, RuleOptions
from training.az.config import AZConfig
from training.train import main

RUN = ["--algorithm", "az", "--game", "contactix", "--board-size", "4", "--iterations", "2",
       "--games-per-iteration", "4", "--sims", "4", "--play-sims", "4", "--workers", "1", "--net-arch", "16",
       "--batch-size", "16", "--eval-every", "2", "--eval-games", "4", "--eval-opponents", "random",
       "--progress", "off"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("contactix_az") / "run"
    assert main([*RUN, "--out", str(out)]) == 0
    return out


def test_the_observer_gives_the_environments_observation_and_mask_of_the_player_to_move():
    rng = np.random.default_rng(0)
    for size, swap in ((3, False), (5, True), (6, False)):
        observer = GAMES["contactix"].make_observer(RuleOptions(board_size=size, swap=swap))
        assert (observer.obs_size, observer.num_actions) == (size * size * 4, size * size)
        env = raw_env(board_size=size, swap=swap)
        env.reset()
        while not env.game.done:
            obs, mask, coding = observer.observe_state(env.game)
            seen = env.observe(env.agent_selection)
            assert np.array_equal(obs, seen["observation"].reshape(-1))
            assert np.array_equal(mask, seen["action_mask"])
            env.step(coding.decode(int(rng.choice(np.flatnonzero(mask)))))


def test_the_observer_refuses_a_state_of_another_board_or_swap_rule():
    observer = ContactixObserver(RuleOptions(board_size=5))
    with pytest.raises(ValueError, match="reads the 5x5 board without the swap rule; the state is a 4x4 board"):
        observer.observe_state(ContactixState(4))
    with pytest.raises(ValueError, match="the state is a 5x5 board with the swap rule"):
        observer.observe_state(ContactixState(5, swap=True))


def test_a_contactix_configuration_takes_the_games_defaults_and_refuses_contacks_aids():
    cfg = AZConfig.from_dict({"game": "contactix", "board_size": 4})
    assert (cfg.horizon, cfg.features, cfg.rollout, cfg.eval_opponents) == ("game", "none", 0.0, ["random", "mcts:200"])
    assert cfg.rule_options() == RuleOptions(board_size=4)
    with pytest.raises(ValueError, match="horizon: the hand horizon is Contack's"):
        AZConfig.from_dict({"game": "contactix", "horizon": "hand"})
    with pytest.raises(ValueError, match="features: the lookahead inputs"):
        AZConfig.from_dict({"game": "contactix", "features": "lookahead"})
    with pytest.raises(ValueError, match="board_size is a whole number 3..19; got 20"):
        AZConfig.from_dict({"game": "contactix", "board_size": 20})
    with pytest.raises(ValueError, match="board_size: not an option of game 'contack'"):
        AZConfig(board_size=5)
    with pytest.raises(ValueError, match="swap: not an option of game 'solitaire2'"):
        AZConfig.from_dict({"game": "solitaire2", "swap": True})


def test_a_short_run_trains_a_network_bound_to_its_board(trained):
    net = AZNet.load(trained / "policy.npz", game="contactix")
    assert (net.meta["board_size"], net.meta["swap"], net.obs_size, net.num_actions) == (4, False, 64, 16)
    assert AZConfig.load(str(trained / "config.toml")).board_size == 4
    rows = (trained / "eval.csv").read_text().splitlines()
    assert {r.split(",")[2] for r in rows[1:]} == {"az", "az:0"}
    state = json.loads((trained / "state.json").read_text())
    assert (state["iteration"], state["games"]) == (2, 8)


def test_the_trained_network_plays_legal_moves_alone_and_with_search(trained):
    path = trained / "policy.npz"
    for spec in (f"az:{path}", f"az:{path}:0"):
        for seed in range(4):
            streams = seed_streams(seed, 3)
            agents = [make_agent(spec, streams[1], game="contactix"), make_agent("random", streams[2], game="contactix")]
            if seed % 2:
                agents.reverse()
            checked = [LegalOnly(a) for a in agents]
            assert play_game(ContactixState(4), checked).done
            assert all(c.moves for c in checked), "both colours moved"
    ev = evaluate([f"az:{path}", "random"], 4, seed=0, game="contactix", board_size=4)
    assert len(ev.results) == 4


def test_the_network_refuses_another_board_or_swap_rule_before_a_game(trained, capsys):
    path = trained / "policy.npz"
    with pytest.raises(ValueError, match="trained with --board-size 4; it cannot play with --board-size 5"):
        check_spec(f"az:{path}", "contactix", RuleOptions(board_size=5))
    with pytest.raises(ValueError, match="trained without --swap; it cannot play with --swap"):
        evaluate([f"az:{path}", "random"], 2, seed=0, game="contactix", board_size=4, swap=True)
    agent = make_agent(f"az:{path}", 0, game="contactix")  # an agent object is checked as a spec is
    with pytest.raises(ValueError, match="trained with --board-size 4; it cannot play with --board-size 5"):
        evaluate([agent, "random"], 2, seed=0, game="contactix", board_size=5)
    from contack_env.cli import main as contack_main

    with pytest.raises(SystemExit):
        contack_main(["evaluate", "--game", "contactix", "--agents", f"az:{path},random", "--games", "2", "--seed", "0"])
    assert "--agents: " in (err := capsys.readouterr().err) and "(use it with --board-size 4, or a file trained with --board-size 11)" in err


def test_the_search_takes_a_winning_peg(trained):
    # Black joins rows 0 and 3 with a peg in (3, 0) or (3, 1); the search sees the game's end whatever the
    # barely trained network thinks.
    black, white = [(0, 1), (1, 1), (2, 1)], [(1, 2), (2, 2), (0, 3)]
    for seed in range(3):
        agent = make_agent(f"az:{trained / 'policy.npz'}:16", seed, game="contactix")
        state = ContactixState.from_position(4, black, white)
        assert agent.act(state, state.legal_moves()) in (12, 13)


def test_a_run_with_the_swap_rule_learns_that_game_and_plays_only_it(tmp_path):
    out = tmp_path / "swap"
    argv = [*RUN, "--board-size", "3", "--swap", "--iterations", "1", "--eval-every", "0", "--out", str(out)]
    assert main(argv) == 0
    net = AZNet.load(out / "policy.npz", game="contactix")
    assert (net.meta["board_size"], net.meta["swap"]) == (3, True)
    assert AZConfig.load(str(out / "config.toml")).swap is True
    ev = evaluate([f"az:{out / 'policy.npz'}", "random"], 4, seed=0, game="contactix", board_size=3, swap=True)
    assert len(ev.results) == 4
    with pytest.raises(ValueError, match="trained with --swap; it cannot play without --swap"):
        evaluate([f"az:{out / 'policy.npz'}", "random"], 2, seed=0, game="contactix", board_size=3)


def test_training_refuses_a_trained_opponent_of_another_board_before_it_starts(trained, tmp_path, capsys):
    shipped = "ppo:models/contactix_5x5.npz"  # trained on 5x5, without the swap rule
    ppo = ["--game", "contactix", "--board-size", "4", "--progress", "off"]
    for argv, words in (
        ([*RUN, "--eval-opponents", shipped], "eval_opponents: models/contactix_5x5.npz was trained with --board-size 5"),
        ([*ppo, "--eval-opponents", shipped], "eval_opponents: models/contactix_5x5.npz was trained with --board-size 5"),
        ([*ppo, "--board-size", "5", "--opponents", f"az:{trained / 'policy.npz'}"],  # PPO's opponent pool
         "policy.npz was trained with --board-size 4; it cannot play with --board-size 5"),
    ):
        with pytest.raises(SystemExit):
            main([*argv, "--out", str(tmp_path / "run")])
        assert words in capsys.readouterr().err
        assert not (tmp_path / "run").exists()


SHIPPED_5X5 = "models/contactix_5x5_az.npz"


def test_the_shipped_5x5_network_wins_as_black_against_two_distance():
    # Black has a winning strategy on 5x5 without the swap rule. two_distance, which wins every game as Black
    # against mcts:200, mcts:1000 and the PPO model, loses every game as White to the shipped search.
    for seed in range(3):
        state = play_game(ContactixState(5), [make_agent(f"az:{SHIPPED_5X5}", seed, game="contactix"),
                                              make_agent("two_distance", seed + 10, game="contactix")])
        assert state.winner == 0


def test_the_shipped_5x5_network_beats_mcts_200():
    ev = evaluate([f"az:{SHIPPED_5X5}", "mcts:200"], 40, seed=1, game="contactix", board_size=5)
    model = ev.entries[0]
    assert model.win_rate > 0.55  # about 0.7 over 1000 games (docs/contactix.md)
    assert model.win_rate_black > 0.9  # as Black it wins nearly every game
