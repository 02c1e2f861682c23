"""The search's horizon: the hand horizon stops at the end of the hand and values the hand's margin from the root."""

import math

import numpy as np
import pytest
from az_nets import random_net

from agents.az.evaluator import NetEvaluator
from agents.az.horizon import HAND_SCALE, horizon_for
from agents.az.search import Search, drive
from agents.view import public_view
from contack_env import new_game, new_solitaire2
from contack_env.games import RuleOptions
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
    searched = crossed = 0
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
        crossed += 1 in asked
    # the positions are close enough to the hand's end for a search to the game's end to reach the next hand
    # from most of them: the hand horizon's {0} above is its own doing, not the positions'
    assert searched >= 10 and crossed >= searched // 2, (searched, crossed)


class _WatchedSetup(GameSetup):
    """A setup whose game notes every move: the seat to move, its choices, and the scores and hand around it."""

    def new_state(self, rng):
        state = super().new_state(rng)
        self.moves = []
        play_code = state.play_code

        def watched(code):
            before = (state.current_player, len(state.legal_codes()), list(state.scores), state.hand_number)
            play_code(code)
            self.moves.append((*before, list(state.scores), state.hand_number, state.done))

        state.play_code = watched
        return state


def _hand_targets(moves, players):
    """Each decision's value target from the game's moves alone: the seats' points from the decision to the end
    of its hand, each less the mean of the others', squashed at HAND_SCALE, from the mover's seat on."""
    targets = []
    for i, (mover, choices, before, hand, *_) in enumerate(moves):
        if choices < 2:
            continue  # a forced move is not a decision
        end = next(after for _, _, _, h, after, hand_after, done in moves[i:] if done or hand_after != h)
        gained = [e - b for e, b in zip(end, before)]
        margins = [g - (sum(gained) - g) / (players - 1) for g in gained]
        targets.append([_sigmoid(margins[(mover + r) % players] / HAND_SCALE) for r in range(players)])
    return targets


@pytest.mark.parametrize("players", [2, 3])
def test_hand_horizon_self_play_values_each_decision_by_the_rest_of_its_hand(players):
    # Two hands, so that the second hand's decisions are measured from their own scores; three seats, so that a
    # value given to the wrong seat shows.
    net = random_net(horizon="hand")
    setup = _WatchedSetup("contack", players=players, options=RuleOptions(hands=2), sims=4, horizon="hand")
    samples = play(net, setup, 1, 5, parallel=1)
    assert {hand for *_, hand, _, _, _ in setup.moves} == {0, 1}
    expected = _hand_targets(setup.moves, players)
    assert len(expected) == len(samples.value)
    assert np.allclose(samples.value[:, :players], expected, atol=1e-5)
    assert np.all(samples.value[:, players:] == 0)
    if players == 2:  # heads-up, the two seats' hand values sum to 1 at every decision
        assert np.allclose(samples.value[:, 0] + samples.value[:, 1], 1.0, atol=1e-5)


def test_self_play_refuses_a_network_whose_values_have_another_horizon():
    net = random_net()
    other = "game" if net.horizon == "hand" else "hand"
    with pytest.raises(ValueError, match="horizon"):
        play(net, GameSetup("contack", players=2, options=RuleOptions(hands=1), sims=4, horizon=other), 1, 0, parallel=1)


def test_a_share_of_the_value_target_from_the_search_mixes_its_values_with_the_results():
    # The share changes the targets, never the play: the same seed plays the same games, and the targets with
    # half the share are halfway between the results (share 0) and the search's values (share 1).
    net = random_net(horizon="hand")
    samples = {share: play(net, GameSetup("contack", players=3, options=RuleOptions(hands=1), sims=8, horizon="hand",
                                          value_from_search=share), 1, 3, parallel=1)
               for share in (0.0, 0.5, 1.0)}
    results, half, searched = (samples[s] for s in (0.0, 0.5, 1.0))
    for other in (half, searched):
        assert np.array_equal(other.obs, results.obs) and np.array_equal(other.policy, results.policy)
    assert np.allclose(half.value, (results.value + searched.value) / 2, atol=1e-6)
    assert not np.allclose(searched.value, results.value, atol=1e-3)
    assert np.all((0 <= searched.value) & (searched.value <= 1))


def test_playouts_from_each_decision_replace_its_result_without_changing_the_games():
    # The playouts draw from their own stream: the same seed plays the same games, and only the targets change.
    net = random_net(horizon="hand")
    seeds = [np.random.SeedSequence(3), np.random.SeedSequence(3)]
    base, played = (play(net, GameSetup("contack", players=3, options=RuleOptions(hands=1), sims=8, horizon="hand", value_playouts=n),
                         1, seed, parallel=1) for n, seed in zip((0, 6), seeds))
    # The caller's seed is not spent: the children it spawns next (the learner's stream) stay the same.
    assert [seed.n_children_spawned for seed in seeds] == [0, 0]
    assert np.array_equal(played.obs, base.obs) and np.array_equal(played.policy, base.policy)
    assert not np.allclose(played.value, base.value, atol=1e-3)
    assert np.all((0 <= played.value) & (played.value <= 1))


def test_a_value_target_from_playouts_is_their_mean_for_every_seat_seen_from_the_mover(monkeypatch):
    # A stand-in playout gives the seat to move at its start 1 and the others alternately 0 and 0.5, so a mean
    # taken over the wrong playouts, a result given to the wrong seat or the game's own result would show.
    calls = []

    def playout(state, horizon, base, uniform):
        calls.append(state)
        assert not horizon.over(state, base)
        n, mover = state.num_players, state.current_player
        return [1.0 if seat == mover else 0.5 * (len(calls) % 2) for seat in range(n)]

    monkeypatch.setattr("training.az.selfplay.playout_values", playout)
    samples = play(random_net(horizon="hand"), GameSetup("contack", players=3, options=RuleOptions(hands=1), sims=4, horizon="hand",
                                                         value_playouts=4), 1, 2, parallel=1)
    assert len(calls) == 4 * len(samples)
    assert np.allclose(samples.value[:, :3], [1.0, 0.25, 0.25])
    assert len({id(state) for state in calls}) == len(calls)  # each playout its own determinization


def _to_hand_end(game, rng):
    base_game = game.clone()
    hand = game.hand_number
    while game.hand_number == hand and not game.done:
        game.play_code(game.legal_codes()[int(rng.integers(len(game.legal_codes())))])
    return base_game, game


@pytest.mark.parametrize("players,hands,scale", [(2, 3, math.sqrt(20**2 + 2 * 25**2)), (3, 3, math.sqrt(20**2 + 2 * 25**2)),
                                                 (2, 1, 15.0), (4, 1, 15.0)])
def test_playing_for_the_win_values_a_hands_end_by_the_totals_over_the_best_other_seat(players, hands, scale):
    rng = np.random.default_rng(players + hands)
    game = new_game(players, num_hands=hands, seed=7, log=False)
    for _ in range(4):
        game.play_code(game.legal_codes()[int(rng.integers(len(game.legal_codes())))])
    game.scores[0] += 30  # the root's standing counts: seat 0 leads by 30 more
    win, margin = horizon_for("hand", "win"), horizon_for("hand")
    root, end = _to_hand_end(game, rng)
    base = win.start(root)
    assert win.over(end, base)
    totals = list(end.scores)  # after the hand: the game's end, or the next deal with the scores carried over
    expected = [_sigmoid(min(totals[i] - totals[j] for j in range(players) if j != i) / scale) for i in range(players)]
    assert win.result(end, base) == pytest.approx(expected)
    assert margin.result(end, margin.start(root)) != pytest.approx(expected)  # the margin's value ignores the lead
    # a leaf: the rest of the hand the network expects adds to the margin made, as with the margin's stakes
    rest = [0.5] * players
    assert win.leaf(end, base, rest) == pytest.approx(expected)
    ahead = [_sigmoid(1.0)] + [0.5] * (players - 1)  # seat 0 expects HAND_SCALE more points over the others' mean
    moved = win.leaf(end, base, ahead)
    assert moved[0] > expected[0] and all(m <= e + 1e-12 for m, e in zip(moved[1:], expected[1:]))


def test_with_hands_to_come_the_same_lead_is_worth_less_and_the_stakes_are_checked():
    horizon = horizon_for("hand", "win")
    made = [10.0, -10.0]
    last = horizon._values(made, (2, [50, 40], 0))
    early = horizon._values(made, (0, [50, 40], 2))
    assert last[0] > early[0] > 0.5 and last[0] + last[1] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="stakes must be one of margin, win; got 'odds'"):
        horizon_for("hand", "odds")


def test_the_network_file_says_what_its_search_plays_for(tmp_path):
    from agents.az.network import AZNet
    from agents.az_agent import AZAgent
    from agents.policy_file import PolicyFileError

    path = tmp_path / "net.npz"
    random_net(horizon="hand", stakes="win").save(path)
    agent = AZAgent(str(path), sims=4, seed=0)
    assert (agent.horizon.name, agent.horizon.stakes) == ("hand", "win")
    random_net(horizon="hand").save(path)
    assert AZAgent(str(path), sims=4).horizon.stakes == "margin"  # files before stakes play for the margin
    random_net(horizon="hand", stakes="odds").save(path)
    with pytest.raises(PolicyFileError, match="stakes is 'odds'; this version reads margin, win"):
        AZNet.load(path)
