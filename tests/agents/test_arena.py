import numpy as np
import pytest

from agents.arena import play_game, simulate_records
from agents.random_agent import RandomAgent


def test_same_seed_same_records():
    a = list(simulate_records("contack", 3, ["random", "greedy", "random"], 3, seed=9))
    b = list(simulate_records("contack", 3, ["random", "greedy", "random"], 3, seed=9))
    assert a == b
    assert [r["seed"] for r in a] == [9, 10, 11]


def test_game_i_can_be_regenerated_alone_from_its_seed():
    batch = list(simulate_records("solitaire2", 1, ["random"], 4, seed=20))
    alone = list(simulate_records("solitaire2", 1, ["random"], 1, seed=23))
    assert alone[0] == batch[3]


def test_different_seeds_deal_differently():
    a, b = simulate_records("contack", 2, ["random", "random"], 2, seed=0)
    assert a["hands"][0]["deck"] != b["hands"][0]["deck"]


def test_an_illegal_move_names_the_agent_and_its_seat():
    from contack_env import new_game

    class Careless(RandomAgent):
        name = "careless"

        def act(self, state, legal):
            return None if state.current_player == 1 else super().act(state, legal)

    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"the agent at seat 1 \(careless\) made an illegal move: "):
        play_game(new_game(2, seed=3), [RandomAgent(rng), Careless(rng)])
