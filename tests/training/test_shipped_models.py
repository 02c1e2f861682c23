"""The shipped Contack models still load and play at their strength with today's code (feature pipeline included).

A small, seeded version of models/README.md's tables: a change that breaks how ``ppo:PATH`` rebuilds a policy's
input (the observation, the lookahead features) shows up here as a collapse to random play.
"""

from pathlib import Path

import pytest

from agents.evaluate import evaluate

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize(
    "model, opponents, games, at_least",
    [
        ("contack_2p.npz", ["random"], 100, 0.70),  # 0.817 over 1000 games
        ("contack_2p.npz", ["greedy"], 100, 0.55),  # 0.697
        ("contack_4p.npz", ["greedy"] * 3, 100, 0.28),  # 0.357 (fair share 0.25)
    ],
)
def test_a_shipped_model_beats_the_bots(model, opponents, games, at_least):
    ev = evaluate([f"ppo:{MODELS / model}", *opponents], games, seed=1, players=1 + len(opponents))
    assert ev.entries[0].win_rate >= at_least, ev.entries[0]
