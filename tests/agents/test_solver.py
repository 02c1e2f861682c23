"""The exact solitaire solver: its winning lines win, it is a ceiling for every player, unknown when out of time."""

import numpy as np
import pytest

from agents.evaluate import evaluate
from agents.solver import LOST, UNKNOWN, WON, deal, solve, solve_deals
from contack_env.cli import main


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_a_winning_line_wins_the_deal_when_replayed(game):
    solutions = solve_deals(game, 8, seed=3, time_limit=5.0)
    won = [s for s in solutions if s.result == WON]
    assert won
    for s in won:
        state = deal(game, 3, s.deal)
        for code in s.line:
            assert code in state.legal_codes()
            state.play_code(code)
        assert state.done and state.won


def test_every_deal_a_player_wins_is_winnable_and_some_are_not():
    # Solitaire No. 1: a quarter or so of the deals can be won at all; a player who wins one proves it can.
    ev = evaluate(["mcts:30", "greedy"], 30, seed=5, game="solitaire1")
    won_by_a_player = {r.deal for r in ev.results if r.winners}
    verdicts = {s.deal: s.result for s in solve_deals("solitaire1", 30, seed=5, time_limit=5.0)}
    assert won_by_a_player and all(verdicts[d] == WON for d in won_by_a_player)
    assert LOST in verdicts.values()


def test_a_deal_not_settled_in_time_is_unknown():
    hard = next(s for s in solve_deals("solitaire1", 30, seed=1, time_limit=5.0) if s.positions > 600)
    result, line, _ = solve(deal("solitaire1", 1, hard.deal), time_limit=1e-6)
    assert (result, line) == (UNKNOWN, None)


def test_the_command_reports_the_share_of_winnable_deals(capsys):
    assert main(["solve", "--game", "solitaire2", "--games", "3", "--seed", "1", "--time-limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "solitaire2, 3 deals (seed 1)" in out and "winnable" in out
    with pytest.raises(SystemExit):
        main(["solve", "--game", "solitaire1", "--games", "0", "--seed", "1"])
    assert "--games must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "--game", "solitaire1", "--games", "2", "--seed", "-1"])
    assert "--seed: a seed is a whole number 0.." in capsys.readouterr().err
    with pytest.raises(SystemExit):  # deal 1 would be dealt from 2**63, a seed no other command takes
        main(["solve", "--game", "solitaire1", "--games", "2", "--seed", str(2**63 - 1)])
    assert "with 2 deals would play from seeds up to" in capsys.readouterr().err


def _winnable(state) -> bool:
    # The reference: every move tried, nothing remembered, no shortcut.
    if state.done:
        return bool(state.won)
    for code in state.legal_codes():
        child = state.clone()
        child.play_code(code)
        if _winnable(child):
            return True
    return False


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_its_verdicts_on_short_endings_are_an_exhaustive_searchs(game):
    # A "lost" verdict is a claim about every line of play: positions a few tiles from the end of 40 deals
    # (reached by random moves), each solved and searched exhaustively without the solver's memory of lost positions.
    rng = np.random.default_rng(0)
    verdicts = []
    for index in range(200):
        state = deal(game, 11, index)
        while not state.done and len(state.figure) < 18:
            codes = state.legal_codes()
            state.play_code(codes[rng.integers(len(codes))])
        if state.done:
            continue
        result, _, _ = solve(state, time_limit=30.0)
        verdicts.append((result, _winnable(state.clone())))
        if len(verdicts) == 40:
            break
    assert {result for result, _ in verdicts} == {WON, LOST}  # both kinds of verdict are checked
    assert all((result == WON) == winnable for result, winnable in verdicts), verdicts
