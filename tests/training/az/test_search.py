"""The search of the search-guided agent: it finds forced wins, never reads the hidden order, and its targets."""

import numpy as np
import pytest
from az_nets import random_net, uniform_net
from hidden_order import reordered

from agents.view import public_view
from contack_env import new_game, new_solitaire2
from agents.az.evaluator import NetEvaluator
from agents.az.horizon import horizon_for, terminal_values
from agents.az import search as search_module
from agents.az.search import MAX_CONSIDERED, Search, drive


class _Drew(Exception):
    """The exhaustive solve met a draw: the outcome would depend on the hidden pile."""


def _solve(state, pile_pos):
    """Every seat's value under max^n play from ``state`` with no draw on the way (else ``_Drew``)."""
    if state.pile_pos != pile_pos:
        raise _Drew
    if state.done:
        return terminal_values(state)
    best = None
    for code in state.legal_codes():
        child = state.clone()
        child.play_code(code)
        values = _solve(child, pile_pos)
        if best is None or values[state.current_player] > best[state.current_player]:
            best = values
    return best


def _forced_wins(count):
    """Heads-up one-hand positions met in random play where exactly one move lets the mover finish ahead (under
    best play by both, found exhaustively) and no draw can happen before the end: the hidden pile cannot
    matter."""
    found = []
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        game = new_game(2, num_hands=1, seed=seed, log=False)
        while not game.done and len(found) < count:
            codes = game.legal_codes()
            if sum(h.bit_count() for h in game.hands) <= 7 and len(codes) >= 2:
                mover = game.current_player
                try:
                    outcomes = []
                    for code in codes:
                        child = game.clone()
                        child.play_code(code)
                        outcomes.append(_solve(child, game.pile_pos))
                except _Drew:
                    outcomes = []
                winning = [c for c, v in zip(codes, outcomes) if v[mover] > v[1 - mover]]
                if len(winning) == 1:
                    found.append((game.clone(), winning[0]))
                    break
            game.play_code(codes[int(rng.integers(len(codes)))])
        if len(found) == count:
            return found
    raise AssertionError("too few forced wins in the seeds tried")


@pytest.mark.parametrize("mode", ["gumbel", "visits"])
def test_the_search_finds_the_only_winning_move_with_a_network_that_knows_nothing(mode):
    evaluate = NetEvaluator(uniform_net())
    positions = _forced_wins(4)
    for game, winning in positions:
        result = drive(Search(300, np.random.default_rng(0), mode, max_considered=16).run(game), evaluate)
        assert result.code == winning
        assert result.policy[result.codes.index(winning)] == result.policy.max()
        # the values of the move played, seat by seat: the mover finishes ahead
        mover = game.current_player
        assert result.values[mover] > 0.5 > result.values[1 - mover]


def test_the_network_alone_plays_its_most_likely_legal_move():
    net = random_net(seed=3)
    evaluate = NetEvaluator(net)
    game = new_game(3, seed=5)
    result = drive(Search(0, np.random.default_rng(0)).run(game), evaluate)
    logits, _ = evaluate([public_view(game)])[0]
    assert result.code == game.legal_codes()[int(np.argmax(logits))]


@pytest.mark.parametrize("mode,rollout,leaf_moves", [("gumbel", 0.0, 0), ("visits", 0.0, 0), ("gumbel", 0.5, 0),
                                                     ("gumbel", 1.0, 0), ("gumbel", 0.0, 3), ("gumbel", 0.5, 2)])
def test_changing_the_hidden_order_leaves_the_search_unchanged(mode, rollout, leaf_moves):
    evaluate = NetEvaluator(random_net(seed=1))
    game = new_game(3, seed=11, log=False)
    rng = np.random.default_rng(2)
    for _ in range(6):  # a position with a pile and a choice
        game.play_code(game.legal_codes()[0])
    other = reordered(game, rng)
    assert other.decks != game.decks and game.pile_size > 0 and len(game.legal_codes()) > 1
    first, second = (drive(Search(40, np.random.default_rng(7), mode, rollout=rollout, leaf_moves=leaf_moves).run(g),
                           evaluate) for g in (game, other))
    assert first.code == second.code
    assert np.array_equal(first.policy, second.policy) and first.value == second.value
    # ... while the real future differs: the same move draws differently in the two orders
    futures = []
    for g in (game, other):
        g = g.clone()
        while not g.done and g.hand_number == game.hand_number:
            g.play_code(g.legal_codes()[0])
        futures.append(g.scores)
    assert futures[0] != futures[1]  # the current hand ends otherwise (later deals are reshuffled too: not counted)


@pytest.mark.parametrize("rollout", [0.0, 0.5, 1.0])
def test_changing_solitaire2s_buried_tiles_leaves_the_search_unchanged(rollout):
    evaluate = NetEvaluator(random_net("solitaire2", seed=4))
    game = new_solitaire2(3, log=False)
    other = game.clone()
    buried = [t for s in game.stacks for t in s[:-1]]
    shuffled = [buried[i] for i in np.random.default_rng(0).permutation(len(buried))]
    stacks = []
    for s in game.stacks:
        k = len(s) - 1
        stacks.append(shuffled[:k] + s[-1:])
        shuffled = shuffled[k:]
    other.stacks = stacks
    assert other.stacks != game.stacks
    first, second = (drive(Search(24, np.random.default_rng(5), rollout=rollout).run(g), evaluate)
                     for g in (game, other))
    assert (first.code, first.value) == (second.code, second.value)
    assert np.array_equal(first.policy, second.policy)


def test_with_rollouts_a_leaf_is_worth_the_mix_of_the_network_and_a_playout_to_the_end():
    # A solitaire's playout ends the deal, worth the share of the 36 tiles placed; the root's value (sims=0)
    # is (1 - rollout) * the network's + rollout * that share.
    evaluate = NetEvaluator(random_net("solitaire2", seed=4))
    shares = set()
    for seed in range(8):
        game = new_solitaire2(seed, log=False)
        if game.done:
            continue
        network = evaluate([public_view(game)])[0][1][0]
        for rollout in (0.5, 1.0):
            value = drive(Search(0, np.random.default_rng(seed), rollout=rollout).run(game), evaluate).value
            placed = (value - (1 - rollout) * network) / rollout * 36
            assert placed == pytest.approx(round(placed), abs=1e-6)
            assert len(game.figure) <= round(placed) <= 36
            shares.add(round(placed))
        assert drive(Search(0, np.random.default_rng(seed)).run(game), evaluate).value == pytest.approx(network)
    assert len(shares) > 1  # the playouts end in different places


def test_with_every_leaf_played_out_the_networks_values_play_no_part_and_it_is_asked_less():
    # rollout 1: a new node is worth its playout alone, so the network is asked for a node's policy only when a
    # simulation comes back to choose a move there (and for the root's).
    net = NetEvaluator(random_net("solitaire2", seed=4))
    calls = {}

    def counting(name, flip):
        def evaluate(states):
            calls[name] = calls.get(name, 0) + len(states)
            return [(logits, [1.0 - v for v in values] if flip else values) for logits, values in net(states)]
        return evaluate

    game = next(g for g in (new_solitaire2(seed, log=False) for seed in range(20)) if len(g.legal_codes()) >= 6)
    results = {}
    for name, rollout, flip in (("played", 1.0, False), ("flipped", 1.0, True), ("mixed", 0.5, False)):
        results[name] = drive(Search(48, np.random.default_rng(3), max_considered=16, rollout=rollout).run(game),
                              counting(name, flip))
    played, flipped = results["played"], results["flipped"]
    assert (played.code, played.value) == (flipped.code, flipped.value)
    assert np.array_equal(played.policy, flipped.policy)
    assert calls["played"] == calls["flipped"] < calls["mixed"] <= 49
    assert calls["played"] >= 1  # the root's


def test_with_leaf_moves_a_new_leaf_is_valued_after_that_many_moves_that_score_the_most():
    net = NetEvaluator(random_net(seed=6))
    horizon = horizon_for("hand")
    asked = []

    def recording(states):
        asked.extend(s.clone() for s in states)
        return net(states)

    checked = 0
    for game in (g for seed in range(40) for g in _positions(2, seed)):
        codes = game.legal_codes()
        if len(codes) < 2 or game.pile_size == 0:
            continue
        asked.clear()
        # one simulation, through the move the network likes best
        result = drive(Search(1, np.random.default_rng(0), max_considered=1, horizon=horizon, leaf_moves=2)
                       .run(game), recording)
        expected = public_view(game)
        expected.play_code(result.code)
        for _ in range(2):
            if expected.done or expected.hand_number != game.hand_number:
                break
            options = expected.legal_codes()
            expected.play_code(max(options, key=expected.figure.points_for_code))  # the first of the best
        if (expected.hand_number, expected.pile_size, len(expected.figure)) != (
                game.hand_number, game.pile_size, len(game.figure) + 3):
            continue  # the hand ended, or a seat drew (another tile in each order) or passed on the way
        leaf = asked[1]
        assert len(asked) == 2 and leaf.figure.placed == expected.figure.placed
        base = horizon.start(public_view(game))
        assert result.values == pytest.approx(horizon.leaf(leaf, base, net([leaf])[0][1]))
        checked += 1
        if checked == 5:
            return
    raise AssertionError("too few positions with two more placements")


def test_with_leaf_moves_past_the_hands_end_every_leaf_is_the_hands_result():
    # the network's values then play no part (its policy still guides the search)
    net = NetEvaluator(random_net(seed=6))

    def flipped(states):
        return [(logits, [1.0 - v for v in values]) for logits, values in net(states)]

    searched = 0
    for game in [g for seed in range(3) for g in _positions(2, seed)]:
        if len(game.legal_codes()) < 3:
            continue
        plain, other = (drive(Search(12, np.random.default_rng(1), horizon=horizon_for("hand"), leaf_moves=200)
                              .run(game), evaluate) for evaluate in (net, flipped))
        assert (plain.code, plain.values) == (other.code, other.values)
        assert np.array_equal(plain.policy, other.policy)
        searched += 1
    assert searched >= 5


def test_leaf_moves_are_a_whole_number_that_a_full_rollout_leaves_no_use_for():
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="leaf_moves is a whole number"):
            Search(4, np.random.default_rng(0), leaf_moves=bad)
    with pytest.raises(ValueError, match="leaf_moves needs a rollout share below 1"):
        Search(4, np.random.default_rng(0), rollout=1.0, leaf_moves=2)


def test_a_rollout_is_a_share_from_0_to_1():
    for bad in (-0.1, 1.5, True, "half"):
        with pytest.raises(ValueError, match="rollout is the playouts' share"):
            Search(4, np.random.default_rng(0), rollout=bad)


def test_the_gumbel_search_spends_at_most_its_budget_and_returns_a_distribution():
    evaluate = NetEvaluator(random_net(seed=2))
    calls = []

    def counting(states):
        calls.append(len(states))
        return evaluate(states)

    game = next(g for seed in range(100) for g in _positions(2, seed) if len(g.legal_codes()) >= 6)
    result = drive(Search(20, np.random.default_rng(0), "gumbel").run(game), counting)
    # the root's evaluation, then at most one per simulation (a simulation that ends the game asks for none)
    assert 10 <= sum(calls) <= 21
    # the root alone first; then each round of sequential halving asks for its leaves together, one per move
    # still considered (8 at first), never more
    assert calls[0] == 1 and 1 < max(calls[1:]) <= MAX_CONSIDERED
    assert np.isclose(result.policy.sum(), 1.0) and (result.policy >= 0).all()
    assert result.choice in range(len(result.codes))


def _positions(players, seed):
    game = new_game(players, seed=seed, log=False)
    while not game.done:
        yield game
        game = game.clone()
        game.play_code(game.legal_codes()[-1])


def test_terminal_values_rank_the_seats_by_final_score():
    game = new_game(4, num_hands=1, seed=8, log=False)
    while not game.done:
        game.play_code(game.legal_codes()[0])
    values = terminal_values(game)
    order = sorted(range(4), key=lambda s: game.scores[s])
    assert [values[s] for s in order] == sorted(values)
    assert all(0 < v < 1 for v in values)
    heads_up = new_game(2, num_hands=1, seed=8, log=False)
    while not heads_up.done:
        heads_up.play_code(heads_up.legal_codes()[-1])
    assert sum(terminal_values(heads_up)) == pytest.approx(1.0)


@pytest.mark.parametrize("mode", ["gumbel", "visits"])
def test_the_values_of_the_move_played_are_every_seats_in_table_order(mode):
    # Three seats, each of them to move somewhere: a value given to the seat at the wrong place shows. The mover's
    # value is what the Gumbel search reports for its choice (visits reports the root's mean over every move);
    # every value is a mean of values in [0, 1].
    evaluate = NetEvaluator(random_net(seed=5))
    movers = set()
    for game in list(_positions(3, 2))[:12]:
        if len(game.legal_codes()) < 2:
            continue
        result = drive(Search(24, np.random.default_rng(1), mode).run(game), evaluate)
        movers.add(game.current_player)
        assert len(result.values) == 3
        if mode == "gumbel":
            assert result.values[game.current_player] == pytest.approx(result.value)
        assert all(0 <= v <= 1 for v in result.values)
        alone = drive(Search(0, np.random.default_rng(1), mode).run(game), evaluate)
        assert alone.values == pytest.approx(evaluate([public_view(game)])[0][1])  # no search: the network's
    assert movers == {0, 1, 2}


def _one_at_a_time(simulations):
    """A round's simulations run to their ends one after another, each request a batch of one."""
    for simulation in simulations:
        try:
            state = next(simulation)
            while True:
                state = simulation.send((yield [state])[0])
        except StopIteration:
            pass


def test_a_round_run_side_by_side_decides_as_one_simulation_after_another(monkeypatch):
    # Without playouts nothing random happens between a round's simulations, and they share no node below the
    # root: running them together must change nothing but float rounding.
    evaluate = NetEvaluator(random_net(seed=6))
    games = [g for g in list(_positions(2, 4))[:30] if len(g.legal_codes()) >= 3]
    sizes = []

    def counting(states):
        sizes.append(len(states))
        return evaluate(states)

    def decide():
        return [drive(Search(40, np.random.default_rng(2), max_considered=16).run(g), counting) for g in games]

    together = decide()
    assert max(sizes) > 1
    sizes.clear()
    monkeypatch.setattr(search_module, "_side_by_side", _one_at_a_time)
    alone = decide()
    assert max(sizes) == 1
    assert len(games) >= 5
    for a, b in zip(together, alone):
        assert a.choice == b.choice
        assert np.allclose(a.policy, b.policy, atol=1e-5) and np.allclose(a.values, b.values, atol=1e-5)
