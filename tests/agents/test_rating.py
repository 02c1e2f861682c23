"""Ratings fitted to all games at once: known values, no dependence on game order, agreement with win rates."""

import math
import random

import numpy as np
import pytest

from agents.evaluate import GameResult, contack_stats, evaluate, format_table
from agents.rating import Game, fit
from contack_env.games import RuleOptions


def _heads_up(outcomes):
    """Heads-up duplicate games from ``(deal, rotation, entry 0 won)``; the winner scores 100, the loser 50."""
    results = []
    for deal, rotation, first_won in outcomes:
        entries = (0, 1) if rotation == 0 else (1, 0)
        won_entry = 0 if first_won else 1
        scores = tuple(100 if e == won_entry else 50 for e in entries)
        results.append(GameResult(deal, rotation, entries, scores, (entries.index(won_entry),)))
    return results


def test_two_entries_get_the_closed_form_maximum_likelihood_with_one_shared_virtual_game():
    # 30 games won and 10 lost; the virtual game adds half a win to each: 30.5 : 10.5.
    deals = [[Game((0, 1), (1.0, 0.0))]] * 30 + [[Game((1, 0), (1.0, 0.0))]] * 10
    a, b = fit(deals, 2)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(30.5 / 10.5), abs=1e-6)
    assert a.elo + b.elo == pytest.approx(0, abs=1e-9)
    assert a.ci95[0] < a.elo < a.ci95[1] and b.ci95[1] < a.ci95[0]


def test_with_every_entry_at_every_table_the_fit_is_the_log_of_the_wins_and_a_shared_win_is_split():
    # 4 entries, 100 games: wins 40, 30, 20 and 9, and one game shared by entries 2 and 3 (half each).
    table = (0, 1, 2, 3)
    games = ([Game(table, (1, 0, 0, 0))] * 40 + [Game(table, (0, 1, 0, 0))] * 30 + [Game(table, (0, 0, 1, 0))] * 20
             + [Game(table, (0, 0, 0, 1))] * 9 + [Game(table, (0, 0, 0.5, 0.5))])
    ratings = fit([games[k::10] for k in range(10)], 4)
    wins = np.array([40, 30, 20.5, 9.5]) + 1 / 4  # plus the virtual game's quarter
    expected = 400 * np.log10(wins) - np.mean(400 * np.log10(wins))
    assert [r.elo for r in ratings] == pytest.approx(list(expected), abs=1e-6)


def test_an_entry_in_two_seats_wins_with_both_seats_chances():
    # Entry 0 holds two seats of three, entry 1 one. Equal strength means entry 0 wins two games in three: 200 of
    # 300 (the virtual game, with one seat each, adds half a win to each entry). The maximum of the likelihood
    # 2x/(2x+y) per game won by 0, y/(2x+y) per game won by 1 (and xy/(x+y)^2 for the virtual game) is solved in
    # closed form below; copies of one bot at a table, fitted as one entry, are not counted as one seat.
    table = (0, 1, 0)
    games = [Game(table, (1, 0, 0))] * 100 + [Game(table, (0, 0, 1))] * 100 + [Game(table, (0, 1, 0))] * 100
    a, b = fit([games[k::10] for k in range(10)], 2)
    # d/dr of 200 log(2e^r/(2e^r+1)) + 100 log(1/(2e^r+1)) + 0.5 log(e^r) + 0.5 log(1) - log(e^r+1) = 0, r = ln x/y

    def slope(r: float) -> float:
        q = 2 * math.exp(r) / (2 * math.exp(r) + 1)
        return 200 * (1 - q) - 100 * q + 0.5 - math.exp(r) / (math.exp(r) + 1)
    lo, hi = -5.0, 5.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if slope(mid) > 0 else (lo, mid)
    assert a.elo - b.elo == pytest.approx(400 / math.log(10) * lo, abs=1e-6)
    assert abs(a.elo - b.elo) < 5, "equal strength: two seats win twice as often, not a stronger entry"


def test_ratings_do_not_depend_on_the_order_of_the_games():
    rng = random.Random(7)
    outcomes = [(d, r, rng.random() < 0.55) for d in range(60) for r in (0, 1)]
    results = _heads_up(outcomes)
    shuffled = results[:]
    rng.shuffle(shuffled)
    one, two = contack_stats(["a", "b"], results), contack_stats(["a", "b"], shuffled)
    assert [(e.rating_elo, e.rating_ci95) for e in one] == [(e.rating_elo, e.rating_ci95) for e in two]


def test_the_entry_that_wins_more_rates_higher_even_when_its_wins_came_first():
    # Entry 0 wins 52 of 100 games, all its wins in the first deals: an online update rated it below entry 1.
    outcomes = [(d, r, d < 26) for d in range(50) for r in (0, 1)]
    first, second = contack_stats(["first", "second"], _heads_up(outcomes))
    assert first.win_rate == pytest.approx(0.52)
    assert first.rating_elo > second.rating_elo
    assert first.rating_elo == pytest.approx(-second.rating_elo)


def test_four_players_rank_by_wins_not_by_second_places():
    # "often" wins 30% of the games and is last in all others; "steady" wins 25% and is second in all others.
    results = []
    for deal in range(25):
        for rotation in range(4):
            entries = tuple((seat - rotation) % 4 for seat in range(4))
            winner = 0 if (deal * 4 + rotation) % 20 < 6 else 1 if (deal * 4 + rotation) % 20 < 11 else 2
            order = [winner] + [e for e in (1, 2, 3, 0) if e != winner]  # the rest: steady, then 2, 3, often last
            score = {e: 100 - 10 * k for k, e in enumerate(order)}
            results.append(GameResult(deal, rotation, entries, tuple(score[e] for e in entries),
                                      (entries.index(winner),)))
    stats = contack_stats(["often", "steady", "other", "never"], results)
    often, steady = stats[:2]
    assert often.win_rate == pytest.approx(0.30) and steady.win_rate == pytest.approx(0.25)
    assert often.mean_score < steady.mean_score  # steady finishes ahead of often in most games...
    assert often.rating_elo > steady.rating_elo  # ...but often wins more, and rates higher
    assert [e.agent for e in sorted(stats, key=lambda e: e.win_rate)] == [e.agent for e in sorted(stats, key=lambda e: e.rating_elo)]


def test_the_interval_covers_the_true_difference_about_95_percent_of_the_time():
    # Entry 0 is ahead with probability 0.64 (+100 Elo apart: +50 and -50); 200 evaluations of 100 deals.
    rng = np.random.default_rng(3)
    covered = 0
    for _ in range(200):
        first = rng.random((100, 2)) < 1 / (1 + 10 ** (-100 / 400))
        stats = contack_stats(["a", "b"], _heads_up([(d, r, bool(first[d, r])) for d in range(100) for r in (0, 1)]))
        lo, hi = stats[0].rating_ci95
        covered += lo <= 50 <= hi
    assert 0.90 <= covered / 200 <= 0.99


def test_the_table_and_json_say_what_the_rating_is():
    ev = evaluate(["greedy", "random"], 4, seed=1)
    table = format_table(ev)
    assert "Elo" in table.splitlines()[1] and "all games at once" in table.splitlines()[-1]
    data = ev.to_json()
    assert "choice model" in data["rating"] and "who won" in data["rating"]
    assert set(data["entries"][0]["rating"]) == {"elo", "elo_ci95"}
    single = evaluate(["greedy", "random"], 2, seed=1)  # one deal: no spread, no interval
    assert single.entries[0].rating_ci95 is None and "  -" in format_table(single).splitlines()[2]


def test_deals_that_all_came_out_alike_still_get_an_interval_of_some_width():
    # Every deal split 1-1: no spread between deals, yet 20 games cannot pin a rating down to a point.
    deals = [[Game((0, 1), (1.0, 0.0)), Game((1, 0), (1.0, 0.0))]] * 10
    a, b = fit(deals, 2)
    assert a.elo == pytest.approx(0) and a.ci95[1] - a.ci95[0] > 100


def test_table_lines_have_no_trailing_spaces():
    for game, agents, games in (("contack", ["greedy", "random"], 4), ("contactix", ["random", "random"], 2)):
        extra = {"board_size": 3} if game == "contactix" else {}
        table = format_table(evaluate(agents, games, seed=2, game=game, **extra))
        assert all(line == line.rstrip() for line in table.splitlines()), table


def test_a_clean_sweep_gets_a_finite_rating_with_an_interval_of_some_width():
    deals = [[Game((0, 1), (1.0, 0.0)), Game((1, 0), (0.0, 1.0))]] * 250  # entry 0 wins all 500 games
    a, b = fit(deals, 2)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(500.5 / 0.5), abs=1e-6)
    assert a.ci95[1] - a.ci95[0] > 100 and b.ci95[1] < a.ci95[0]


def test_a_rating_just_below_zero_prints_as_zero_without_a_sign_of_its_own():
    from agents.evaluate import EntryStats, Evaluation

    entry = EntryStats("a", 2, 0.5, (0.4, 0.6), 100.0, (90.0, 110.0), mean_margin=0.0, margin_ci95=(-1.0, 1.0),
                       rating_elo=-0.3, rating_ci95=(-28.2, -0.3))
    ev = Evaluation("contack", 2, ["a", "a"], 2, 1, 2, 0, RuleOptions(), [entry, entry])
    assert format_table(ev).splitlines()[2].endswith("   +0  [-28, +0]")
