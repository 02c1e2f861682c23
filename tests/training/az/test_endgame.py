"""``agents.az.endgame``: exact play at the end of Solitaire No. 2, against a brute force over information sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.az.endgame import ENDGAME_FACE_DOWN, ENDGAME_MOVES, EndgameTable, can_solve, exact_decision
from agents.az.search import Search, drive
from agents.solver import WON, deal, solve
from agents.view import public_view
from contack_env import new_game


def _arrangements(view):
    """Every full state the player cannot tell from ``view``: each order of the buried tiles in their slots."""
    slots = [(j, i) for j, s in enumerate(view.stacks) for i in range(len(s) - 1)]
    buried = [view.stacks[j][i] for j, i in slots]
    out = []
    for order in itertools.permutations(buried):
        state = view.clone()
        for (j, i), tile in zip(slots, order):
            state.stacks[j][i] = tile
        out.append(state)
    return out


def _brute_value(states) -> float:
    """The chance of winning under best play from the information set ``states`` (equally likely): for every
    move, play it in every state and split the results by what the player then sees."""
    if states[0].done:
        return sum(1.0 for s in states if s.winners) / len(states)
    return max(_brute_move(states, code) for code in states[0].legal_codes())


def _brute_move(states, code) -> float:
    groups: dict[tuple, list] = {}
    for s in states:
        after = s.clone()
        after.play_code(code)
        groups.setdefault(after.public_key(), []).append(after)
    return sum(len(g) * _brute_value(g) for g in groups.values()) / len(states)


def _endgames(left: int, count: int, face_down=range(5)):
    """Public views of Solitaire No. 2 with ``left`` tiles in the stacks, on the way of a winning line (deals of
    ``contack evaluate --game solitaire2 --seed 1``), with a number of them buried in ``face_down``."""
    out = []
    for i in range(200):
        state = deal("solitaire2", 1, i)
        result, line, _ = solve(state, 5.0)
        if result != WON:
            continue
        for code in line:
            if state.moves_left() == left:
                break
            state.play_code(code)
        view = public_view(state)
        if len(view.legal_codes()) > 1 and view.face_down() in face_down:
            out.append(view)
        if len(out) == count:
            return out
    raise AssertionError("too few endgames")


@pytest.mark.parametrize("left", [4, 6, 7])
def test_the_exact_move_has_the_best_chance_of_winning(left):
    for view in _endgames(left, 4):
        states = _arrangements(view)
        best = _brute_value(states)
        decision = exact_decision(view)
        if best == 0.0:
            assert decision is None  # lost under any play: left to the search
            continue
        assert decision is not None
        assert decision.value == pytest.approx(best)
        assert _brute_move(states, decision.code) == pytest.approx(best)


def test_some_endgame_is_a_gamble_that_the_exact_search_weighs():
    # the brute force's chances are not all 0 or 1: the face-down tiles matter, and the search still agrees
    values = []
    for view in _endgames(7, 12):
        decision = exact_decision(view)
        values.append(decision.value if decision else 0.0)
        assert decision is None or decision.value == pytest.approx(_brute_value(_arrangements(view)))
    assert any(0.0 < v < 1.0 for v in values)


def test_the_decision_does_not_depend_on_the_face_down_order():
    for view in _endgames(7, 4):
        decisions = {(d.code, round(d.value, 12)) if (d := exact_decision(view.determinize(np.random.default_rng(s))))
                     else None for s in range(4)}
        assert len(decisions) == 1


def test_it_gives_up_past_its_budget_and_outside_short_solitaire_endings():
    view = _endgames(7, 1)[0]
    full = exact_decision(view)
    assert full is not None and full.positions > 1
    assert exact_decision(view, max_positions=1) is None
    assert exact_decision(view, max_positions=0) is None
    early = public_view(deal("solitaire2", 1, 0))
    assert early.moves_left() > ENDGAME_MOVES and not can_solve(early) and exact_decision(early) is None
    crowded = _endgames(ENDGAME_MOVES, 1, face_down=range(ENDGAME_FACE_DOWN + 1, 99))[0]  # short, but much unseen
    assert not can_solve(crowded) and exact_decision(crowded, 10**6) is None
    assert not can_solve(public_view(new_game(2, seed=1)))  # Contack's draws are not listed


def test_the_search_plays_the_exact_move_without_asking_the_network():
    view = next(v for v in _endgames(7, 12) if (d := exact_decision(v)) and d.value < 1.0)
    exact = exact_decision(view)
    rng = np.random.default_rng(0)
    asked = []

    def evaluate(states):
        asked.append(len(states))
        return [(np.zeros(len(s.legal_codes())), [0.5]) for s in states]

    result = drive(Search(16, rng, endgame=3000).run(view), evaluate)
    assert asked == [] and result.code == exact.code and result.value == pytest.approx(exact.value)
    assert result.policy[result.choice] == 1.0
    drive(Search(16, rng, endgame=0).run(view), evaluate)
    assert asked  # without the endgame the search asks for evaluations
    with pytest.raises(ValueError, match="endgame is a budget of positions"):
        Search(16, rng, endgame=-1)


def test_the_table_carries_settled_values_to_the_next_decision():
    view = max(_endgames(7, 6), key=lambda v: exact_decision(v).positions if exact_decision(v) else 0)
    fresh = exact_decision(view)
    assert fresh.positions > 50
    table = EndgameTable()
    # a budget too small for one search: each try keeps what it completed, and the next goes on from there
    tries, decision = 0, None
    while decision is None:
        decision = exact_decision(view, 50, table)
        tries += 1
        assert tries < 1000
    assert tries > 1 and (decision.code, decision.value) == (fresh.code, pytest.approx(fresh.value))
    again = exact_decision(view, 50, table)
    assert again.positions == 0 and again.code == fresh.code  # everything below the root is known
    small = EndgameTable(size=1)
    small.values[("a",)] = 1.0
    small.make_room()
    assert small.values == {}


@pytest.mark.parametrize("model,game", [("contack_2p_az.npz", "contack"), ("solitaire1_az.npz", "solitaire1")])
def test_an_endgame_budget_for_a_game_where_the_exact_search_never_plays_is_refused(model, game):
    from agents.registry import make_agent

    with pytest.raises(ValueError, match=r"ENDGAME, the exact endgame's budget .* has none: give az:PATH or "
                                         r"az:PATH:SIMS; got 3000"):
        make_agent(f"az:models/{model}:2:3000", 0, game)
    assert make_agent(f"az:models/{model}:2:0", 0, game).endgame == 0  # 0, off, is what it plays anyway
    assert make_agent("az:models/solitaire2_az.npz:2:3000", 0, "solitaire2").endgame == 3000
