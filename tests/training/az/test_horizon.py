"""The search's horizon: the hand horizon stops at the end of the hand and values the hand's margin from the root."""

import math

import numpy as np
import pytest
from az_nets import random_net

from agents.az.evaluator import NetEvaluator
from agents.az.horizon import HAND_SCALE, MARGIN_SCALE, horizon_for
from agents.az.search import Search, drive
from agents.view import public_view
from contack_env import new_game, new_solitaire2
from training.az.selfplay import GameSetup, play


def _sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def _logit(v):
    return math.log(v / (1.0 - v))


def _near_hand_end(seed, players=2):
    """A decision of the first of three hands with few tiles left in the hands: simulations reach its end."""
    rng = np.random.default_rng(seed)
    game = new_game(players, num_hands=3, seed=seed, log=False)
    while not game.done:
        codes = game.legal_codes()
        if game.hand_number == 0 and sum(h.bit_count() for h in game.hands) <= 4 and len(codes) >= 2:
            return game
        game.play_code(codes[int(rng.integers(len(codes)))])
    return None


def test_the_hand_horizon_is_over_when_the_next_hand_is_dealt_and_values_the_hand_margin_from_the_root():
    horizon = horizon_for("hand")
    game = new_game(3, num_hands=2, seed=4, log=False)
    rng = np.random.default_rng(4)
    for _ in range(3):
        game.play_code(game.legal_codes()[int(rng.integers(len(game.legal_codes())))])
    base = horizon.start(game)
    start_scores = list(game.scores)
    while game.hand_number == 0:
        assert not horizon.over(game, base)
        game.play_code(game.legal_codes()[int(rng.integers(len(game.legal_codes())))])
    assert horizon.over(game, base)
    gained = [s - b for s, b in zip(game.scores, start_scores)]
    expected = [_sigmoid((g - (sum(gained) - g) / 2) / HAND_SCALE) for g in gained]
    assert horizon.result(game, base) == pytest.approx(expected)
    # The network's value of the rest of the hand adds to the margin made since the root.
    leaf = horizon.leaf(game, base, [0.5, 0.5, 0.5])
    assert leaf == pytest.approx(expected)
    shifted = horizon.leaf(game, base, [_sigmoid(1.0)] * 3)
    assert shifted == pytest.approx([_sigmoid(_logit(e) + 1.0) for e in expected])


def test_the_game_horizon_and_a_solitaire_value_the_end_of_the_game():
    for name in ("game", "hand"):
        solitaire = new_solitaire2(seed=3)
        horizon = horizon_for(name)
        base = horizon.start(solitaire)
        assert base is None
        assert horizon.leaf(solitaire, base, [0.3]) == [0.3]
    game = new_game(2, num_hands=3, seed=1, log=False)
    base = horizon_for("game").start(game)
    while game.hand_number == 0:
        assert not horizon_for("game").over(game, base)
        game.play_code(game.legal_codes()[0])
    assert not horizon_for("game").over(game, base)
    with pytest.raises(ValueError, match="horizon must be one of game, hand"):
        horizon_for("turn")


def test_a_hand_horizon_search_never_asks_for_a_state_of_the_next_hand():
    evaluate = NetEvaluator(random_net())
    searched = 0
    for seed in range(40):
        game = _near_hand_end(seed)
        if game is None:
            continue
        asked = []

        def answer(states):
            asked.extend(s.hand_number for s in states)
            return evaluate(states)

        drive(Search(40, np.random.default_rng(seed), horizon=horizon_for("hand")).run(public_view(game)), answer)
        assert set(asked) == {0}
        searched += 1
        # The same search to the end of the game goes on into the next hand.
        asked.clear()
        drive(Search(40, np.random.default_rng(seed), horizon=horizon_for("game")).run(public_view(game)), answer)
        if 1 in asked:
            searched += 1
    assert searched >= 10


def test_hand_horizon_self_play_values_a_one_hand_game_by_its_margin_at_the_hand_scale():
    # In a game of one hand, the first decision's target is the final margin (the scores start at 0), squashed at
    # HAND_SCALE, where the game's result squashes the same margin at MARGIN_SCALE.
    net = random_net()
    for seed in range(3):
        samples = play(net, GameSetup("contack", players=2, hands=1, sims=4, horizon="hand"), 1, seed, parallel=1)
        own_first = _logit(float(samples.value[0, 0])) * HAND_SCALE
        margins = [_logit(v) * MARGIN_SCALE for v in samples.results[0]]
        assert min(abs(own_first - m) for m in margins) < 1e-3
        # Heads-up, the two seats' hand values sum to 1 at every decision.
        assert np.allclose(samples.value[:, 0] + samples.value[:, 1], 1.0, atol=1e-5)
