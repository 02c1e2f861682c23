"""The opponent pool: weights, snapshots of the learner, choices that flow from the caller's generator."""

import numpy as np
import pytest

from training.opponents import SELF, OpponentPool, PolicyOpponent, parse_weights
from agents.policy_file import PolicyNet


def test_weights_parse_from_the_command_line_form():
    assert parse_weights("greedy*2,lookahead,self:3,mcts:50*0.5") == {"greedy": 2.0, "lookahead": 1.0, "self": 3.0, "mcts:50": 0.5}
    with pytest.raises(ValueError, match="positive number"):
        parse_weights("greedy*0")


def test_draws_follow_the_weights_and_the_generator():
    pool = OpponentPool({"greedy": 3, "random": 1})
    names = [n for n, _ in pool.draw(np.random.default_rng(0), 4000)]
    assert 0.72 < names.count("greedy") / 4000 < 0.78
    again = [n for n, _ in OpponentPool({"greedy": 3, "random": 1}).draw(np.random.default_rng(0), 4000)]
    assert names == again


def test_self_plays_only_the_most_recent_snapshots():
    pool = OpponentPool({SELF: 1}, keep=2)
    nets = [PolicyNet([], (np.full((3, 2), i, np.float32), np.zeros(2, np.float32))) for i in range(4)]
    for net in nets:
        pool.add_snapshot(net)
    drawn = {id(opp.net) for _, opp in pool.draw(np.random.default_rng(1), 50) if isinstance(opp, PolicyOpponent)}
    assert drawn == {id(nets[2]), id(nets[3])}


def test_an_empty_pool_or_a_bad_weight_is_refused():
    with pytest.raises(ValueError, match="the opponent pool is empty"):
        OpponentPool({})
    with pytest.raises(ValueError, match="weight must be a positive number"):
        OpponentPool({"greedy": -1})
