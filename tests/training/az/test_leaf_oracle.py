"""``training.az.leaf_oracle``: the search with leaves valued by the bot's continuations (``leaf_playout``)."""

import numpy as np
import pytest
from hidden_order import reordered

from agents.az.horizon import horizon_for
from agents.az.network import AZNet
from agents.az_agent import AZAgent
from agents.lookahead import LookaheadAgent
from agents.registry import registered_names
from agents.view import public_view
from contack_env import new_game
from training.az.leaf_oracle import ContinuationMean, main, make
from training.az.value_ceiling import sample_position

SHIPPED = "models/contack_2p_az.npz"  # it plays the expectimax search: the experiment takes a tree-search copy


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = tmp_path_factory.mktemp("leaf_oracle") / "contack_2p_az_tree.npz"
    net = AZNet.load(SHIPPED)
    net.meta.update(search="tree", sims=40)
    net.save(path)
    return str(path)


def _position_with_a_pile():
    judge = LookaheadAgent()
    for seed in range(100, 200):
        game = sample_position(np.random.default_rng(seed), 2, 0.15, judge)
        if game.pile_size >= 5 and not game.done:
            return game
    raise AssertionError("no position with a pile")


def test_the_continuations_never_read_the_hidden_order_and_average_several_draws():
    game = _position_with_a_pile()
    other = reordered(game, np.random.default_rng(1))
    assert other.decks != game.decks
    horizon = horizon_for("hand")
    base = horizon.start(public_view(game))
    first, second = (ContinuationMean(6)(g.clone(), horizon, base, np.random.default_rng(9)) for g in (game, other))
    assert first == second and len(first) == 2
    assert all(0.0 <= v <= 1.0 for v in first)
    single = [ContinuationMean(1)(game.clone(), horizon, base, np.random.default_rng(s))[0] for s in range(6)]
    assert len(set(single)) > 1, "each continuation draws the hidden tiles anew"


@pytest.mark.parametrize("values", [[1.0, 0.0], [0.0, 1.0]])
def test_the_search_takes_its_leaf_values_from_the_hook(values, model):
    calls = []

    def hook(state, horizon, base, rng):
        calls.append(state.current_player)
        return list(values)

    state = new_game(2, seed=3)  # the start of a hand: no simulation of 12 reaches its end
    agent = AZAgent(model, sims=12, seed=0, rollout=1.0, leaf_playout=hook)
    result = agent.search(public_view(state))
    assert len(calls) > 1
    assert result.values == values and result.value == values[state.current_player]


def test_the_command_plays_the_search_against_the_opponent_and_refuses_bad_input(capsys, model):
    assert main(["--model", model, "--continuations", "2", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"az-continuations:{model}:2" in out and "mcts:200" in out and "1 deal (seed 1) x 2 seat rotations" in out
    assert "az-continuations" not in registered_names("contack")  # the command's agent is gone with it
    assert main(["--model", "missing.npz", "--continuations", "2", "--games", "2"]) == 1
    assert "az-continuations" not in registered_names("contack")
    err = capsys.readouterr().err
    assert err.startswith("leaf_oracle: ") and "missing.npz" in err and err.count("\n") == 1, err
    with pytest.raises(SystemExit) as exit_:
        main(["--model", model, "--continuations", "many"])
    assert exit_.value.code == 2 and "a whole number 0..10,000; got 'many'" in capsys.readouterr().err
    # what the command line asks for is a usage error (exit status 2, the usage shown), before any game
    for argv, message in ((["--seed", "-3"], "--seed"),
                          (["--continuations", "100000"], "a whole number 0..10,000; got '100000'"),
                          (["--games", "3"], "a positive multiple of 2; got 3"),
                          (["--workers", "0"], "workers is at least 1; got 0"),
                          (["--opponent", "foo"], "--opponent: unknown agent 'foo'"),
                          (["--seed", str(2**63 - 1)], "past the largest, 9223372036854775807")):
        with pytest.raises(SystemExit) as exit_:
            main(["--model", model, "--continuations", "2", *argv])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and message in err and err.startswith("usage: "), err
        assert "az-continuations" not in registered_names("contack")
        assert "az-continuations" not in err  # the agents it lists are those a user can name
    with pytest.raises(ValueError, match="takes PATH:K"):
        make(model, np.random.default_rng(0), "contack")


def test_a_file_whose_default_simulations_are_invalid_is_refused_without_advice_it_cannot_take(tmp_path, capsys, model):
    # --model takes a path alone: the file is at fault, and az:PATH:SIMS is no way out here
    net = AZNet.load(model)
    net.meta["sims"] = 200_000
    net.save(tmp_path / "later.npz")
    assert main(["--model", str(tmp_path / "later.npz"), "--continuations", "2", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert err == (f"leaf_oracle: {tmp_path / 'later.npz'}: its simulations a decision (meta 'sims') are 200000, "
                   "not a whole number 0..100000\n")
    assert "az-continuations" not in registered_names("contack")


def test_a_file_that_plays_the_expectimax_search_is_refused_in_one_line(capsys):
    assert AZNet.load(SHIPPED).search == "expectimax"
    assert main(["--model", SHIPPED, "--continuations", "2", "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert err == (f"leaf_oracle: {SHIPPED} plays the expectimax search; the leaf values here are the tree search's: "
                   "a copy of the file whose search is tree plays it (models/README.md)\n")
    assert "az-continuations" not in registered_names("contack")
