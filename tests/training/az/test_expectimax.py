"""The expectimax search of the search-guided agent: exact values where nothing is hidden, forced wins, the
draws sampled from the public view only, the budget, and its place in the ``az:`` agent and the run."""

import numpy as np
import pytest
from az_nets import random_net, uniform_net
from hidden_order import reordered
from public_play import play_out

from agents.az.evaluator import NetEvaluator
from agents.az.expectimax import Expectimax
from agents.az.horizon import horizon_for, terminal_values
from agents.az.network import AZNet
from agents.az.search import drive
from agents.policy_file import PolicyFileError
from agents.registry import make_agent
from agents.view import public_view
from contack_env import new_game, new_solitaire1, new_solitaire2
from contack_env.games import GAMES


class _Counting:
    """An evaluator that counts the states it is asked about, batch by batch."""

    def __init__(self, net):
        self.evaluate = NetEvaluator(net)
        self.batches: list[int] = []

    def __call__(self, states):
        self.batches.append(len(states))
        return self.evaluate(states)


def _maxn(state):
    """Every seat's value under max^n play (the first of equals) to the end of a game in which nothing is drawn."""
    if state.done:
        return terminal_values(state)
    best = None
    for code in state.legal_codes():
        child = state.clone()
        hidden = child.face_down()
        child.play_code(code)
        assert child.face_down() == hidden, "the position was meant to hold no draw"
        values = _maxn(child)
        if best is None or values[state.current_player] > best[state.current_player]:
            best = values
    return best


def _no_draw_positions(players, count, most_tiles):
    """One-hand positions of random play with a choice, ``most_tiles`` or fewer in hand, where no line of play
    draws before the end: the pile cannot matter, and an exhaustive max^n gives the exact values."""
    found = []
    for seed in range(2000):
        rng = np.random.default_rng(seed)
        game = new_game(players, num_hands=1, seed=seed, log=False)
        while not game.done:
            codes = game.legal_codes()
            if sum(h.bit_count() for h in game.hands) <= most_tiles and len(codes) >= 2:
                try:
                    _maxn(game.clone())
                except AssertionError:
                    pass
                else:
                    found.append(public_view(game))
                    break
            game.play_code(codes[int(rng.integers(len(codes)))])
        if len(found) == count:
            return found
    raise AssertionError("too few positions without draws in the seeds tried")


@pytest.mark.parametrize("players", [2, 3])
def test_where_nothing_is_drawn_the_values_are_the_exact_max_n_values(players):
    evaluate = NetEvaluator(uniform_net())
    for view in _no_draw_positions(players, 4, 7):
        result = drive(Expectimax(500, np.random.default_rng(0)).run(view), evaluate)
        child = view.clone()
        child.play_code(result.code)
        assert result.values == pytest.approx(_maxn(child))
        # and the move played is one the exhaustive search rates best for the mover
        mover = view.current_player
        best = max(_maxn_after(view, code)[mover] for code in view.legal_codes())
        assert result.value == pytest.approx(best)


def _maxn_after(view, code):
    child = view.clone()
    child.play_code(code)
    return _maxn(child)


def test_it_finds_the_only_winning_move_with_a_network_that_knows_nothing():
    evaluate = NetEvaluator(uniform_net())
    tried = 0
    for view in _no_draw_positions(2, 60, 7):
        mover = view.current_player
        winning = [c for c in view.legal_codes() if _maxn_after(view, c)[mover] > 0.5]
        if len(winning) != 1:
            continue
        tried += 1
        result = drive(Expectimax(500, np.random.default_rng(1)).run(view), evaluate)
        assert result.code == winning[0]
        assert result.policy[result.choice] == result.policy.max()
    assert tried >= 3


def test_a_line_stops_at_the_depth_and_the_network_values_it_there():
    evaluate = NetEvaluator(uniform_net())  # every seat's value 0.5 everywhere
    for view in _no_draw_positions(2, 10, 7):
        exact = [_maxn_after(view, c)[view.current_player] for c in view.legal_codes()]
        ends = [view.clone() for _ in view.legal_codes()]
        for child, code in zip(ends, view.legal_codes()):
            child.play_code(code)
        if max(exact) != 0.5 and not any(child.done for child in ends):
            break
    else:
        raise AssertionError("no position whose exact value differs from the network's")
    shallow = drive(Expectimax(500, np.random.default_rng(0), depth=1).run(view), evaluate)
    deep = drive(Expectimax(500, np.random.default_rng(0)).run(view), evaluate)
    assert shallow.value == 0.5  # one move ahead, the network's value of the rest of the game
    assert deep.value == pytest.approx(max(exact))


def _position_with_draws(seed=11, players=3):
    """A position with a choice, six moves or more into a hand, whose tree holds draws: a pile, and a move after
    which the next seat cannot play."""
    game = new_game(players, seed=seed, log=False)
    for moves in range(100):
        if moves >= 6 and len(game.legal_codes()) > 1:
            pile = game.pile_pos
            for code in game.legal_codes():
                child = game.clone()
                child.play_code(code)
                if child.pile_pos != pile and child.hand_number == game.hand_number:
                    return game
        game.play_code(game.legal_codes()[0])
    raise AssertionError("no position with a draw one move ahead")


@pytest.mark.parametrize("rollout", [0.0, 0.5])
def test_changing_the_hidden_order_leaves_the_search_unchanged(rollout):
    evaluate = NetEvaluator(random_net(seed=1, horizon="hand"))
    horizon = horizon_for("hand")
    game = _position_with_draws()
    other = reordered(game, np.random.default_rng(2))
    assert other.decks != game.decks
    first, second = (drive(Expectimax(60, np.random.default_rng(7), horizon, rollout=rollout).run(g), evaluate)
                     for g in (game, other))
    assert first.code == second.code
    assert np.array_equal(first.policy, second.policy) and first.values == second.values


class _Recording(_Counting):
    def __init__(self, net):
        super().__init__(net)
        self.states = []

    def __call__(self, states):
        self.states += states
        return super().__call__(states)


def test_the_draws_are_sampled_from_what_is_unseen():
    """The tiles the chance samples draw are tiles the view does not show, and the samples of one move (the same
    position before the draw) draw different ones: each on its own order of the pile."""
    view = public_view(_position_with_draws())
    unseen = set(view.deck[view.pile_pos:])
    seen = {t for h in view.hands for t in range(36) if h >> t & 1}
    recording = _Recording(uniform_net())
    search = Expectimax(400, np.random.default_rng(3), horizon_for("hand"), depth=1, first_samples=8, max_samples=8)
    drive(search.run(view), recording)
    drawn: dict[frozenset, set] = {}  # the move (its placement) -> the sets of tiles its samples drew
    for state in recording.states[1:]:
        held = {t for h in state.hands for t in range(36) if h >> t & 1}
        new = frozenset(held - seen - set(state.figure.placed.values()))
        assert new <= unseen
        if new:
            move = frozenset(state.figure.placed.items()) - frozenset(view.figure.placed.items())
            drawn.setdefault(move, set()).add(new)
    assert drawn, "the position was meant to hold draws"
    assert all(len(sets) > 1 for sets in drawn.values())


def test_an_outcome_met_again_is_not_evaluated_again():
    """Two samples that draw the same tiles are one public state: the network is asked about it once."""
    view = public_view(_position_with_draws())
    recording = _Recording(uniform_net())
    drive(Expectimax(400, np.random.default_rng(3), horizon_for("hand"), max_samples=64).run(view), recording)
    asked = [(s.public_key(), frozenset(s.figure.placed.items()), tuple(s.scores)) for s in recording.states[1:]]
    assert len(asked) == len(set(asked))
    assert len(asked) > 20


def _move_that_ends_the_hand_with_some_orders_only():
    """A heads-up position and a move of it after which the hand ends (blocked) with some orders of the pile and
    goes on with others."""
    horizon = horizon_for("hand")
    for seed in range(200):
        rng = np.random.default_rng(seed)
        game = new_game(2, num_hands=1, seed=seed, log=False)
        while not game.done:
            codes = game.legal_codes()
            view, base = public_view(game), horizon.start(game)
            for code in codes if len(codes) > 1 else ():
                ends = 0
                for k in range(16):
                    child = reordered(game, np.random.default_rng(k))
                    child.play_code(code)
                    ends += horizon.over(child, base)
                if 4 <= ends <= 12:
                    return view, code
            game.play_code(codes[int(rng.integers(len(codes)))])
    raise AssertionError("no move that ends the hand with some orders only")


def test_a_move_that_ends_the_hand_with_some_orders_only_is_sampled_both_ways():
    """Such a move is a chance node, whatever the search's own first draw says: over 20 searches, each asks the
    network about outcomes where the hand goes on (never valued by one draw that ended it)."""
    view, code = _move_that_ends_the_hand_with_some_orders_only()
    after = view.clone()
    after.play_code(code)
    placed = set(after.figure.placed.items()) - set(view.figure.placed.items())
    for seed in range(20):
        recording = _Recording(uniform_net())
        search = Expectimax(500, np.random.default_rng(seed), horizon_for("hand"), depth=1, first_samples=8,
                            max_samples=8)
        drive(search.run(view), recording)
        assert any(placed <= set(s.figure.placed.items()) for s in recording.states[1:]), f"seed {seed}"


@pytest.mark.parametrize("budget", [1, 20, 80, 200])
def test_the_budget_bounds_the_network_evaluations(budget):
    counting = _Counting(random_net(seed=2, horizon="hand"))
    game = _position_with_draws(seed=4, players=2)
    legal = len(game.legal_codes())
    drive(Expectimax(budget, np.random.default_rng(0), horizon_for("hand")).run(game), counting)
    leaves = sum(counting.batches) - 1  # the root's own evaluation rides with the first batch
    assert leaves <= max(budget, legal)
    assert leaves >= min(budget, legal)  # a budget is spent, the root's moves valued at least once


def test_a_budget_past_the_first_pass_is_spent_in_further_rounds():
    """With a budget past the first pass, the extra evaluations (samples of chance nodes) come in more batches."""
    game = _position_with_draws(seed=4, players=2)
    small, large = _Counting(uniform_net()), _Counting(uniform_net())
    drive(Expectimax(1, np.random.default_rng(0), horizon_for("hand")).run(game), small)
    drive(Expectimax(300, np.random.default_rng(0), horizon_for("hand")).run(game), large)
    assert len(small.batches) == 1  # the first pass only
    assert len(large.batches) > 1 and sum(large.batches) > sum(small.batches)


def test_the_network_alone_and_a_single_move_ask_for_one_evaluation():
    counting = _Counting(random_net(seed=3))
    game = new_game(3, seed=5)
    result = drive(Expectimax(0, np.random.default_rng(0)).run(game), counting)
    logits, _ = NetEvaluator(random_net(seed=3))([public_view(game)])[0]
    assert counting.batches == [1] and result.code == game.legal_codes()[int(np.argmax(logits))]
    rng = np.random.default_rng(5)
    while len(game.legal_codes()) != 1:
        game.play_code(game.legal_codes()[int(rng.integers(len(game.legal_codes())))])
    counting.batches = []
    result = drive(Expectimax(200, np.random.default_rng(0)).run(game), counting)
    assert counting.batches == [1] and result.code == game.legal_codes()[0]


@pytest.mark.parametrize("name,value", [("budget", -1), ("budget", 2.5), ("depth", 0), ("max_samples", 0),
                                        ("first_samples", 0), ("endgame", -3)])
def test_bad_settings_are_refused_in_words(name, value):
    settings = {"budget": 10, name: value}
    with pytest.raises(ValueError, match=name):
        Expectimax(rng=np.random.default_rng(0), **settings)
    with pytest.raises(ValueError, match="first_samples .* at most max_samples"):
        Expectimax(10, np.random.default_rng(0), first_samples=4, max_samples=2)
    with pytest.raises(ValueError, match="rollout"):
        Expectimax(10, np.random.default_rng(0), rollout=1.5)
    for margin in (-0.1, float("nan"), 2.0, True):
        with pytest.raises(ValueError, match="margin is a number from 0 to 1"):
            Expectimax(10, np.random.default_rng(0), margin=margin)


def test_a_finished_game_has_no_decision_to_search():
    game = new_game(2, num_hands=1, seed=0, log=False)
    while not game.done:
        game.play_code(game.legal_codes()[0])
    with pytest.raises(ValueError, match="over"):
        next(Expectimax(10, np.random.default_rng(0)).run(game))


# -- in the az: agent --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def expectimax_nets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("expectimax")
    paths = {}
    for game in ("contack", "solitaire1", "solitaire2"):
        paths[game] = str(folder / f"{game}.npz")
        random_net(game, seed=1, features="lookahead", horizon="hand" if game == "contack" else "game", sims=12,
                   search="expectimax").save(paths[game])
    return paths


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_az_with_the_expectimax_search_plays_only_legal_moves_at_every_table_size(expectimax_nets, players):
    agent = make_agent(f"az:{expectimax_nets['contack']}", seed=players)
    assert agent.net.search == "expectimax" and agent.sims == 12
    assert play_out(new_game(players, num_hands=2, seed=players, log=False), agent) > 0


@pytest.mark.parametrize("game,deal", [("solitaire1", new_solitaire1), ("solitaire2", new_solitaire2)])
def test_az_with_the_expectimax_search_plays_only_legal_moves_in_the_solitaires(expectimax_nets, game, deal):
    for sims in ("", ":0", ":30"):
        agent = make_agent(f"az:{expectimax_nets[game]}{sims}", seed=1, game=game)
        assert play_out(deal(5, log=False), agent) > 0


def test_the_expectimax_search_plays_a_game_that_hides_nothing():
    state = GAMES["contactix"].new_state(3, 2)  # 11 x 11: 121 moves, far past the budget one move ahead
    counting = _Counting(random_net("contactix", seed=0, board_size=11, swap=False))
    for _ in range(4):
        counting.batches = []
        result = drive(Expectimax(30, np.random.default_rng(0)).run(public_view(state)), counting)
        assert result.code in state.legal_codes()
        assert sum(counting.batches) == 1 + len(state.legal_codes())  # the root, then every move once
        state.play_code(result.code)


def test_the_network_alone_plays_the_same_moves_in_either_search(expectimax_nets, tmp_path):
    tree = tmp_path / "tree.npz"
    net = AZNet.load(expectimax_nets["contack"])
    net.meta["search"] = "tree"
    net.save(tree)
    a, b = make_agent(f"az:{expectimax_nets['contack']}:0", seed=1), make_agent(f"az:{tree}:0", seed=1)
    game = new_game(2, seed=3, log=False)
    while not game.done:
        view = public_view(game)
        move = a.act(view, view.legal_moves())
        assert move == b.act(view, view.legal_moves())
        game.play(move)


def test_files_naming_another_search_or_leaf_moves_with_expectimax_are_refused(expectimax_nets, tmp_path):
    net = AZNet.load(expectimax_nets["contack"])
    net.meta["search"] = "beam"
    net.save(tmp_path / "beam.npz")
    with pytest.raises(PolicyFileError, match="search is 'beam'; this version reads tree, expectimax"):
        AZNet.load(tmp_path / "beam.npz")
    net.meta.update(search="expectimax", leaf_moves=2)
    net.save(tmp_path / "leaf.npz")
    with pytest.raises(PolicyFileError, match="leaf_moves is 2, but the expectimax search plays no leaf moves"):
        AZNet.load(tmp_path / "leaf.npz")


def test_the_leaf_playout_of_the_experiments_is_the_tree_searchs(expectimax_nets):
    from agents.az_agent import AZAgent

    with pytest.raises(ValueError, match="expectimax search, which takes no leaf_playout"):
        AZAgent(expectimax_nets["contack"], leaf_playout=lambda *a: [0.5, 0.5])
