import re
from collections import Counter

import numpy as np
import pytest

from agents.arena import simulate_records
from agents.evaluate import (
    GameResult,
    contack_stats,
    evaluate,
    records_of,
    schedule,
    seat_entries,
    share_ci,
    wilson,
)


def _numbers(ev):
    return [e.to_json() for e in ev.entries]


def test_same_seed_same_numbers_whatever_the_worker_count():
    agents = ["greedy", "random", "mcts:4"]
    one = evaluate(agents, 12, seed=3, workers=1)
    again = evaluate(agents, 12, seed=3, workers=1)
    two = evaluate(agents, 12, seed=3, workers=2)
    assert _numbers(one) == _numbers(again) == _numbers(two)
    assert [(r.deal, r.rotation, r.scores) for r in one.results] == [(r.deal, r.rotation, r.scores) for r in two.results]
    other = evaluate(agents, 12, seed=4)
    assert [r.scores for r in other.results] != [r.scores for r in one.results]


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_seat_rotation_is_balanced(players):
    games = 4 * players
    plan = schedule(players, games)
    assert len(plan) == games
    seats = Counter()
    for deal, rotation in plan:
        entries = seat_entries(players, rotation)
        assert sorted(entries) == list(range(players))  # every entry exactly once at the table
        seats.update((e, s) for s, e in enumerate(entries))
    # Every entry sat in every seat once per deal.
    assert seats == Counter({(e, s): 4 for e in range(players) for s in range(players)})
    assert Counter(d for d, _ in plan) == Counter({d: players for d in range(4)})


def test_a_deal_is_replayed_in_every_rotation_and_each_game_is_a_simulate_game():
    ev = evaluate(["greedy", "random", "lookahead"], 6, seed=40, records=True)
    records = records_of(ev.results)
    assert len(records) == 6
    by_deal: dict[int, list[dict]] = {}
    for result, record in zip(ev.results, records):
        by_deal.setdefault(result.deal, []).append(record)
        assert record["seed"] == 40 + result.deal
        assert record["agents"] == [["greedy", "random", "lookahead"][e] for e in result.seat_entries]
        assert list(result.scores) == record["scores"]
    for deal, group in by_deal.items():
        decks = [[hand["deck"] for hand in r["hands"]] for r in group]
        assert all(d == decks[0] for d in decks)  # duplicate format: the same deals in every rotation
        # And any game can be played again alone with `contack simulate` from its seed and seat order.
        for record in group:
            again = next(simulate_records("contack", 3, record["agents"], 1, record["seed"]))
            assert again == record


def test_an_agent_seed_keeps_the_deals_and_changes_only_the_agents_luck():
    agents = ["random", "mcts:4"]
    plain = evaluate(agents, 8, seed=40, records=True)
    assert evaluate(agents, 8, seed=40, records=True, agent_seed=40).to_json() == {**plain.to_json(), "agent_seed": 40}
    other = evaluate(agents, 8, seed=40, records=True, agent_seed=7)
    assert other.to_json()["agent_seed"] == 7 and "agent_seed" not in plain.to_json()
    assert "the agents' random choices from seeds 7..10" in other.summary()
    first, second = records_of(plain.results), records_of(other.results)
    assert [r["hands"][0]["deck"] for r in first] == [r["hands"][0]["deck"] for r in second]  # the same deals
    assert [r["seed"] for r in second] == [40 + result.deal for result in other.results]
    assert [r["hands"] for r in first] != [r["hands"] for r in second]  # other random choices
    # Repeatable from its seeds, whatever the workers; any game is a `contack simulate --agent-seed` game.
    assert _numbers(evaluate(agents, 8, seed=40, agent_seed=7, workers=2)) == _numbers(other)
    for result, record in zip(other.results, second):
        assert next(simulate_records("contack", 2, record["agents"], 1, record["seed"], agent_seed=7 + result.deal)) == record


@pytest.mark.parametrize("agent_seed", [-1, 1.5, True])
def test_a_bad_agent_seed_is_refused(agent_seed):
    with pytest.raises(ValueError, match="agent_seed is None or a whole number, 0 or more"):
        evaluate(["greedy", "random"], 2, seed=1, agent_seed=agent_seed)


def test_shared_wins_count_one_over_k():
    results = [
        GameResult(0, 0, (0, 1), (50, 50), (0, 1)),
        GameResult(0, 1, (1, 0), (70, 20), (0,)),
    ]
    stats = contack_stats(["a", "b"], results)
    # Deal 0: entry a shares one game (1/2) and loses the other; entry b shares one and wins the other.
    assert stats[0].win_rate == pytest.approx(0.25)
    assert stats[1].win_rate == pytest.approx(0.75)
    assert stats[0].mean_margin == pytest.approx((0 + (20 - 70)) / 2)
    assert stats[0].mean_score == pytest.approx(35)


def test_wilson_interval_known_values():
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0.0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)


def test_share_interval_uses_the_spread_over_deals_and_wilson_without_spread():
    lo, hi = share_ci([0.0, 1.0] * 50)
    assert (lo, hi) == pytest.approx((0.5 - 1.96 * 0.50252 / 10, 0.5 + 1.96 * 0.50252 / 10), abs=1e-3)
    # Paired deals whose win shares barely vary give a narrower interval than independent games would.
    lo2, hi2 = share_ci([0.5] * 50 + [0.6] * 50)
    assert hi2 - lo2 < hi - lo
    assert share_ci([1.0] * 30) == pytest.approx(wilson(1.0, 30))


@pytest.mark.parametrize("game, options, named", [
    ("solitaire1", {"hands": 2}, "hands: not an option of game 'solitaire1'"),
    ("contactix", {"enclosed_end": "next_player"}, "enclosed_end: not an option of game 'contactix'"),
    ("solitaire2", {"hands": 1, "enclosed_end": "never"}, "hands and enclosed_end: not options of game 'solitaire2'"),
    ("contack", {"board_size": 5}, "board_size: not an option of game 'contack' (its rule options: hands, enclosed_end)"),
    ("solitaire1", {"swap": True}, "swap: not an option of game 'solitaire1' (its rule options: none)"),
])
def test_a_rule_option_of_another_game_is_refused(game, options, named):
    # As `contack evaluate --game solitaire1 --hands 2` is a usage error: the game would ignore the setting.
    agents = ["random", "random"] if game in ("contactix", "contack") else ["random"]
    with pytest.raises(ValueError, match=re.escape(named)):
        evaluate(agents, 2, seed=0, game=game, **options)
    assert evaluate(agents, 2, seed=0, game=game).games == 2  # left out, they are fine


def test_games_must_be_a_multiple_of_the_rotations():
    with pytest.raises(ValueError, match="multiple of 3; got 10 \\(9 or 12 would do\\)"):
        evaluate(["greedy", "random", "random"], 10, seed=0)
    with pytest.raises(ValueError, match="3 players need 3 agents"):
        evaluate(["greedy", "random"], 9, seed=0, players=3)


def test_json_has_the_documented_keys():
    data = evaluate(["greedy", "random"], 4, seed=1).to_json()
    assert data["games"] == 4 and data["deals"] == 2 and data["rotations"] == 2
    entry = data["entries"][0]
    assert entry["agent"] == "greedy"
    assert {"win_rate", "win_rate_ci95", "mean_score", "mean_margin", "rating"} <= set(entry)
    lo, hi = entry["win_rate_ci95"]
    assert 0 <= lo <= entry["win_rate"] <= hi <= 1
    assert abs(sum(e["win_rate"] for e in data["entries"]) - 1) < 1e-9


def test_solitaire_evaluation_plays_each_agent_on_the_same_deals():
    ev = evaluate(["greedy", "lookahead"], 6, seed=2, game="solitaire2", records=True)
    records = records_of(ev.results)
    assert len(records) == 12
    greedy_decks = [r["hands"][0]["deck"] for r in records[:6]]
    lookahead_decks = [r["hands"][0]["deck"] for r in records[6:]]
    assert greedy_decks == lookahead_decks
    for entry, group in zip(ev.entries, (records[:6], records[6:])):
        assert entry.games == 6
        assert entry.win_rate == sum(1 for r in group if r["winners"]) / 6
        assert entry.mean_score == pytest.approx(sum(r["scores"][0] for r in group) / 6)
        placed = [sum(1 for e in r["hands"][0]["events"] if e["type"] in ("open", "place")) for r in group]
        assert entry.mean_tiles_placed == pytest.approx(sum(placed) / 6)
        assert 1 <= entry.mean_tiles_placed <= 36


@pytest.mark.parametrize("kwargs, words", [
    ({"seed": None}, "seed is a whole number; got None"),
    ({"seed": 1.7}, "seed is a whole number; got 1.7"),
    ({"seed": "3"}, "seed is a whole number; got '3'"),
    ({"seed": -1}, "seed is a whole number 0..9223372036854775807 for 1 deal"),
    ({"seed": 2**63 - 1, "games": 4}, "seed is a whole number 0..9223372036854775806 for 2 deals"),
    ({"agent_seed": 2**63 - 1, "games": 4}, "agent_seed is a whole number 0..9223372036854775806 for 2 deals"),
    ({"games": 2.0}, "games is a whole number; got 2.0"),
    ({"games": None}, "games is a whole number; got None"),
    ({"games": True}, "games is a whole number; got True"),
    ({"agents": "random,greedy"}, "not 'random,greedy'"),
    ({"agents": None}, "agents is a list of entries"),
    ({"game": ["contack"]}, "game is the name of a game"),
])
def test_the_python_api_refuses_what_the_command_line_refuses(kwargs, words):
    request = {"agents": ["random", "greedy"], "games": 2, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=re.escape(words)):
        evaluate(**request)


def test_numpy_whole_numbers_are_whole_numbers():
    ev = evaluate(["random", "greedy"], games=np.int64(2), seed=np.int64(1), players=np.int64(2), hands=np.int64(1))
    plain = evaluate(["random", "greedy"], games=2, seed=1, players=2, hands=1)
    assert [r.scores for r in ev.results] == [r.scores for r in plain.results]
