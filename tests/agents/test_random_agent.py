from collections import Counter

import pytest

from agents.random_agent import RandomAgent
from agents.registry import make_agent, parse_agent_list
from contack_env.contack.multiplayer import new_game


def test_random_agent_is_uniform_over_legal_moves():
    agent = RandomAgent(seed=3)
    counts = Counter(agent.choose_index(4) for _ in range(8000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(1800 < c < 2200 for c in counts.values())


def test_random_agent_same_seed_same_choices():
    a, b = RandomAgent(seed=11), RandomAgent(seed=11)
    assert [a.choose_index(7) for _ in range(100)] == [b.choose_index(7) for _ in range(100)]


def test_random_agent_only_chooses_legal_moves():
    agent = RandomAgent(seed=5)
    for seed in range(20):
        state = new_game(2 + seed % 6, seed=seed)
        while not state.done:
            legal = state.legal_moves()
            move = agent.act(state, legal)
            assert move in legal
            state.play(move)


def test_unknown_agent_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown agent 'clever'.*random, greedy"):
        make_agent("clever")


def test_agent_list_one_for_all_or_one_per_seat():
    assert parse_agent_list("greedy", 3) == ["greedy"] * 3
    assert parse_agent_list("greedy,random", 2) == ["greedy", "random"]
    with pytest.raises(ValueError, match=r"one per seat \(3 seats\); got 2: greedy, random$"):
        parse_agent_list("greedy,random", 3)
