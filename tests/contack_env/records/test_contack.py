"""Game records (contack-record/1, docs/records.md): making, writing, reading, replaying, checking.

Good records come from games the engine plays with random legal moves from fixed seeds; every bad record is a
good one with one thing changed, and its test asserts that replay names the hand and event (1-based) and says
what is wrong there.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contack_env import ContackGame, Figure, Solitaire1, Solitaire2, new_game, new_solitaire1, new_solitaire2
from contack_env.records import RecordError, check_paths, read_records, write_records
from contack_env.records.contack import FORMAT, game_record, replay
from contack_env.records.walker import EngineDriver
from contack_env.contack.tiles import NUM_TILES, TILE_NAMES, tile_id

DATA = Path(__file__).parent.parent / "data"


# -- making games --------------------------------------------------------------------------------------------
def play_out(state, seed: int):
    """Play ``state`` to its end with uniformly random legal moves."""
    rng = np.random.default_rng(seed)
    while not state.done:
        moves = state.legal_moves()
        state.play(moves[rng.integers(len(moves))])
    return state


def multiplayer(players: int, hands: int = 3, enclosed_end: str = "1939", seed: int = 0, trace: bool = False):
    game = play_out(new_game(players, hands, enclosed_end, seed=seed, trace=trace), seed + 1000)
    return game, game_record(game, seed=seed, agents=["random"] * players)


def find_game(make: Callable[[int], Any], wanted: Callable[[Any], bool], tries: int = 3000):
    """The first game ``make(seed)`` for which ``wanted`` holds (rare situations: enclosed ends, won solitaires)."""
    for seed in range(tries):
        game = make(seed)
        if wanted(game):
            return game, seed
    raise AssertionError("no seed gives the situation this test needs; widen the search")


def events_of(record: dict, h: int) -> list[dict]:
    return record["hands"][h]["events"]


def find_event(record: dict, wanted: Callable[[list[dict], int], bool]) -> tuple[int, int]:
    """(hand, event), 0-based, of the first event for which ``wanted(events, j)`` holds."""
    for h, hand in enumerate(record["hands"]):
        for j in range(len(hand["events"])):
            if wanted(hand["events"], j):
                return h, j
    raise AssertionError("the record has no such event; pick another seed")


def free_place(events: list[dict], j: int) -> bool:
    """A place the player chose among the moves of their hand (not forced by a draw), with 2+ legal moves."""
    e = events[j]
    return e["type"] == "place" and events[j - 1]["type"] != "draw" and len(e.get("legal", ())) >= 2


def replay_error(record: dict, **kwargs) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(record, **kwargs)
    return info.value


def where(h: int, j: int, kind: str | None = None) -> str:
    """The location replay names for 0-based hand ``h``, event ``j``."""
    return f"hand {h + 1}, event {j + 1}" + (f" ({kind})" if kind else "")


@pytest.fixture(scope="module")
def rich() -> dict:
    """A traced 3-player, 3-hand game with draws that are placed, draws that are not, and passes."""
    def wanted(game) -> bool:
        events = [e for h in game.hand_events for e in h]
        forced = any(a["type"] == "draw" and b["type"] == "place" for h in game.hand_events for a, b in zip(h, h[1:]))
        return forced and any(e["type"] == "pass" for e in events) and "blocked" in game.end_reasons
    game, seed = find_game(lambda s: play_out(new_game(3, 3, seed=s, trace=True), s), wanted)
    return game_record(game, seed=seed)


@pytest.fixture(scope="module")
def sol1() -> dict:
    game, seed = find_game(
        lambda s: play_out(new_solitaire1(s, trace=True), s),
        lambda g: any(e["type"] == "place" and e["from"] == "discard" for e in g.hand_events[0]),
    )
    return game_record(game, seed=seed)


@pytest.fixture(scope="module")
def sol2() -> dict:
    game = play_out(new_solitaire2(4, trace=True), 4)
    return game_record(game, seed=4)


# -- round trips ---------------------------------------------------------------------------------------------
def assert_same_game(a, b) -> None:
    assert type(a) is type(b)
    assert b.done
    assert b.points_scored == a.points_scored
    assert b.figure.placements() == a.figure.placements()
    assert b.hand_events == a.hand_events
    if isinstance(a, ContackGame):
        assert (b.scores, b.winners, b.end_reasons, b.hands) == (a.scores, a.winners, a.end_reasons, a.hands)
    else:
        assert (b.score, b.won) == (a.score, a.won)


@pytest.mark.parametrize(
    "players, hands, enclosed_end, trace",
    [
        (2, 3, "1939", False),
        (3, 1, "next_player", True),
        (4, 2, "never", False),
        (5, 3, "1939", True),
        (6, 5, "next_player", False),
        (7, 3, "never", True),
        (7, 1, "1939", False),
        (2, 2, "next_player", True),
    ],
)
def test_multiplayer_round_trip(tmp_path, players, hands, enclosed_end, trace) -> None:
    for seed in (players, 100 + players):
        game, record = multiplayer(players, hands, enclosed_end, seed, trace)
        path = tmp_path / "games.jsonl"
        write_records(path, [record])
        (back,) = read_records(path)
        assert back == record
        again = replay(back)
        assert_same_game(game, again)
        assert game_record(again, seed=seed, agents=["random"] * players) == record


def test_multiplayer_record_layout() -> None:
    game, record = multiplayer(4, 2, "next_player", seed=9, trace=True)
    assert list(record) == ["format", "game", "players", "rules", "seed", "agents", "hands", "scores", "winners"]
    assert record["format"] == FORMAT == "contack-record/1"
    assert (record["game"], record["players"], record["seed"]) == ("contack", 4, 9)
    assert record["rules"] == {"hands": 2, "enclosed_end": "next_player"}
    assert record["agents"] == ["random"] * 4
    assert len(record["hands"]) == 2
    for h, hand in enumerate(record["hands"]):
        assert list(hand) == ["deck", "events"]
        assert [tile_id(n) for n in hand["deck"]] == game.decks[h]
        assert hand["events"][0]["type"] == "open" and hand["events"][-1]["type"] == "end"
    place = next(e for e in record["hands"][0]["events"] if e["type"] == "place")
    assert list(place) == ["type", "seat", "tile", "cell", "blue", "points", "legal"]
    assert (record["scores"], record["winners"]) == (game.scores, game.winners)
    # The record is plain JSON data, not a view of the engine's log.
    place["points"] = 99
    assert all(e.get("points") != 99 for h in game.hand_events for e in h)
    assert json.loads(json.dumps(record)) == record


@pytest.mark.parametrize("trace", [False, True])
def test_solitaire1_round_trip(tmp_path, trace) -> None:
    games = [play_out(new_solitaire1(seed, trace=trace), seed) for seed in range(4)]
    games.append(find_game(lambda s: play_out(new_solitaire1(s, trace=trace), s), lambda g: g.won)[0])
    records = [game_record(g) for g in games]
    write_records(tmp_path / "s1.jsonl", records)
    for game, record, back in zip(games, records, read_records(tmp_path / "s1.jsonl")):
        assert back == record
        assert (record["game"], record["players"], record["rules"]) == ("solitaire1", 1, {})
        assert list(record["hands"][0]) == ["deck", "events"]
        assert record["scores"] == [game.score]
        assert record["winners"] == ([0] if game.won else [])
        assert all(e.get("seat", 0) == 0 for e in record["hands"][0]["events"])
        again = replay(back)
        assert_same_game(game, again)
        assert game_record(again) == record
    assert any(r["winners"] == [0] for r in records) and any(r["winners"] == [] for r in records)


@pytest.mark.parametrize("trace", [False, True])
def test_solitaire2_round_trip(tmp_path, trace) -> None:
    games = [play_out(new_solitaire2(seed, trace=trace), seed) for seed in range(4)]
    games.append(find_game(lambda s: play_out(new_solitaire2(s, trace=trace), s), lambda g: g.won)[0])
    records = [game_record(g, seed=k) for k, g in enumerate(games)]
    write_records(tmp_path / "s2.jsonl", records)
    for game, record, back in zip(games, records, read_records(tmp_path / "s2.jsonl")):
        assert back == record
        assert (record["game"], record["players"], record["rules"]) == ("solitaire2", 1, {})
        assert list(record["hands"][0]) == ["deck", "cut", "events"]
        assert record["hands"][0]["cut"] == game.cut
        assert record["winners"] == ([0] if game.won else [])
        place = next(e for e in record["hands"][0]["events"] if e["type"] == "place")
        assert list(place)[:7] == ["type", "seat", "tile", "cell", "blue", "points", "stack"]
        again = replay(back)
        assert_same_game(game, again)
        assert game_record(again, seed=record["seed"]) == record
    assert any(r["winners"] == [0] for r in records)


@pytest.mark.parametrize(
    "enclosed_end, players, hands", [("1939", 7, 1), ("next_player", 6, 1)]
)
def test_round_trip_of_an_enclosed_hand(enclosed_end, players, hands) -> None:
    game, seed = find_game(
        lambda s: play_out(new_game(players, hands, enclosed_end, seed=s, trace=True), s),
        lambda g: "enclosed" in g.end_reasons,
    )
    record = game_record(game, seed=seed)
    assert_same_game(game, replay(record))
    # The same events under another reading of the rules do not replay: the hand would go on.
    h = game.end_reasons.index("enclosed")
    other = copy.deepcopy(record)
    other["rules"]["enclosed_end"] = "never"
    err = replay_error(other)
    assert err.where.startswith(f"hand {h + 1}, event ")
    assert "enclosed" in err.why


def test_replay_tolerates_tuples_key_order_and_unknown_keys(rich) -> None:
    record = copy.deepcopy(rich)
    record["comment"] = "from a test"
    record["rules"]["house_rule"] = True
    record["hands"][0]["note"] = [1, 2]
    for hand in record["hands"]:
        for k, e in enumerate(hand["events"]):
            e = dict(reversed(list(e.items())))  # key order is not meaningful
            if "cell" in e:
                e["cell"] = tuple(e["cell"])
            e["clock"] = 1.5
            hand["events"][k] = e
    replay(record)


def test_replay_is_strict_about_value_types(rich) -> None:
    record = copy.deepcopy(rich)
    events_of(record, 0)[0]["points"] = False  # False == 0 in Python, not in a record
    err = replay_error(record)
    assert (err.where, err.why) == (where(0, 0, "open"), "'points' should be 0, not false")

    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "place")
    events_of(record, h)[j]["points"] = float(events_of(record, h)[j]["points"])
    err = replay_error(record)
    assert err.where == where(h, j, "place") and "points, not" in err.why


def test_fixture_records_replay() -> None:
    # Records written by an earlier version of the engine must still replay: a change that breaks this changes
    # the rules the engine plays (or the record format), and must be deliberate.
    out = io.StringIO()
    assert check_paths([DATA / "records.jsonl"], out=out) == (4, 0)
    games = [r["game"] for r in read_records(DATA / "records.jsonl")]
    assert games == ["contack", "contack", "solitaire1", "solitaire2"]


# -- game_record refuses what is not a finished, logged game -------------------------------------------------
def test_game_record_refuses_unfinished_and_unlogged_games() -> None:
    with pytest.raises(ValueError, match="still going"):
        game_record(new_game(3, seed=1))
    with pytest.raises(ValueError, match="log=False"):
        game_record(play_out(new_game(3, seed=1, log=False), 1))
    with pytest.raises(ValueError, match="log=False"):
        game_record(play_out(new_solitaire2(1, log=False), 1))
    with pytest.raises(ValueError, match="ContackGame, Solitaire1 or Solitaire2"):
        game_record({"format": FORMAT})  # type: ignore[arg-type]


def test_game_record_refuses_games_set_up_mid_play() -> None:
    deck = list(range(NUM_TILES))
    figure = Figure.from_placements([(0, 0, 0)])
    positions = [
        ContackGame.from_position([deck[1:6], deck[6:11]], figure, deck[11:], to_move=0),
        Solitaire1.from_position(figure, deck[1:]),
        Solitaire2.from_position(figure, [deck[1 + 5 * k : 6 + 5 * k] for k in range(7)]),
    ]
    for state in positions:
        play_out(state, 0)
        with pytest.raises(ValueError, match="from_position"):
            game_record(state)


def test_game_record_checks_seed_and_agents() -> None:
    game = play_out(new_game(2, 1, seed=3), 3)
    assert game_record(game, seed=np.int64(3))["seed"] == 3
    with pytest.raises(ValueError, match="seed"):
        game_record(game, seed=np.random.default_rng(3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one name per seat"):
        game_record(game, agents=["random"])
    with pytest.raises(ValueError, match="one name per seat"):
        game_record(game, agents="random")  # type: ignore[arg-type]


# -- replay: events that are not what happened ---------------------------------------------------------------
def test_missing_forced_draw(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "draw")
    draw = events_of(record, h).pop(j)
    err = replay_error(record)
    assert err.where == where(h, j, events_of(record, h)[j]["type"])
    assert err.why.startswith(f"expected a draw by seat {draw['seat']} of {draw['tile']}, got ")


def test_extra_draw_when_a_move_existed(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    events_of(record, h).insert(j, {"type": "draw", "seat": place["seat"], "tile": "08-09-10"})
    err = replay_error(record)
    assert err.where == where(h, j, "draw")
    assert err.why == f"seat {place['seat']} drew 08-09-10 but could play {len(place['legal'])} moves"


def test_second_draw_when_the_drawn_tile_must_be_placed(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "draw" and ev[j + 1]["type"] == "place")
    draw = events_of(record, h)[j]
    events_of(record, h).insert(j + 1, dict(draw))
    err = replay_error(record)
    assert err.where == where(h, j + 1, "draw")
    assert f"seat {draw['seat']} must place the drawn tile {draw['tile']}" in err.why


def test_pass_while_a_move_existed(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    events_of(record, h)[j] = {"type": "pass", "seat": place["seat"]}
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(h, j, "pass"),
        f"seat {place['seat']} passed but could play {len(place['legal'])} moves",
    )


def test_missing_pass(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "pass")
    gone = events_of(record, h).pop(j)
    err = replay_error(record)
    assert err.where.startswith(where(h, j))
    assert err.why.startswith(f"expected a pass by seat {gone['seat']}, got ")


def test_illegal_place(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    place["cell"] = [30, -1]
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    first = place["legal"][0]
    assert err.why.startswith(f"{place['tile']} at (30, -1) is not legal here; legal: ")
    assert f"{first[0]} at ({first[1]}, {first[2]})" in err.why


def test_place_of_a_tile_the_seat_does_not_hold(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    seat = place["seat"]
    # A tile dealt to another seat cannot be placed by this one, wherever it goes.
    other = record["hands"][h]["deck"][5 * ((seat + 1) % 3)]
    place["tile"] = other
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    assert err.why.startswith(f"{other} at ({place['cell'][0]}, {place['cell'][1]}) is not legal here")


def test_place_by_the_wrong_seat(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    seat = place["seat"]
    place["seat"] = (seat + 1) % 3
    err = replay_error(record)
    assert (err.where, err.why) == (where(h, j, "place"), f"seat {(seat + 1) % 3} placed but it is seat {seat}'s turn")


def test_place_with_blue_not_on_b(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    events_of(record, h)[j]["blue"] = "L"
    err = replay_error(record)
    assert err.where == where(h, j, "place") and '\'blue\' is "B"' in err.why


def test_wrong_points(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "place" and ev[j]["points"] > 0)
    place = events_of(record, h)[j]
    true = place["points"]
    place["points"] = true + 5
    err = replay_error(record)
    x, y = place["cell"]
    assert (err.where, err.why) == (where(h, j, "place"), f"{place['tile']} at ({x}, {y}) scores {true} points, not {true + 5}")


def test_legal_list_missing_a_move(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    tile, x, y = events_of(record, h)[j]["legal"].pop()
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    assert err.why.startswith(f"the legal list lacks {tile} at ({x}, {y}) (")
    # trace_check=False reads past the legal lists.
    replay(record, trace_check=False)


def test_legal_list_with_an_extra_move(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    events_of(record, h)[j]["legal"].append(["01-02-03", 31, 0])
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    assert err.why.startswith("the legal list holds 01-02-03 at (31, 0), not legal")
    replay(record, trace_check=False)


def test_legal_list_in_any_order_but_without_duplicates(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    legal = events_of(record, h)[j]["legal"]
    legal.reverse()
    replay(record)
    legal.append(list(legal[0]))
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    assert err.why == f"the legal list holds {legal[0][0]} at ({legal[0][1]}, {legal[0][2]}) twice"


def end_of_hand(record: dict, h: int) -> tuple[int, dict]:
    events = events_of(record, h)
    return len(events) - 1, events[-1]


def test_wrong_penalties(rich) -> None:
    record = copy.deepcopy(rich)
    j, end = end_of_hand(record, 1)
    true = list(end["penalties"])
    end["penalties"][0] -= 10
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(1, j, "end"),
        f"the hand's penalties are {json.dumps(true)}, not {json.dumps(end['penalties'])}",
    )


def test_wrong_running_scores(rich) -> None:
    record = copy.deepcopy(rich)
    j, end = end_of_hand(record, 0)
    true = list(end["scores"])
    end["scores"][2] += 1
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(0, j, "end"),
        f"the running scores after the hand are {json.dumps(true)}, not {json.dumps(end['scores'])}",
    )


def test_wrong_end_reason(rich) -> None:
    record = copy.deepcopy(rich)
    h = rich["hands"].index(next(hd for hd in rich["hands"] if hd["events"][-1]["reason"] == "blocked"))
    j, end = end_of_hand(record, h)
    end["reason"] = "out"
    err = replay_error(record)
    assert (err.where, err.why) == (where(h, j, "end"), 'the hand ends "blocked", not "out"')


def test_hand_cut_short(rich) -> None:
    record = copy.deepcopy(rich)
    end = events_of(record, 2).pop()
    err = replay_error(record)
    j = len(events_of(record, 2))
    assert (err.where, err.why) == (where(2, j), f'missing event: expected the end of the hand ("{end["reason"]}")')


def test_record_stops_at_a_decision(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    place = events_of(record, h)[j]
    del events_of(record, h)[j:]
    err = replay_error(record)
    assert err.where == where(h, j)
    assert err.why == f"missing event: seat {place['seat']} is to place a tile ({len(place['legal'])} legal moves)"


def test_extra_event_after_the_end(rich) -> None:
    record = copy.deepcopy(rich)
    events_of(record, 0).append({"type": "pass", "seat": 1})
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(0, len(events_of(record, 0)) - 1, "pass"),
        "extra event after the end of the hand: a pass by seat 1",
    )


def test_wrong_top_level_scores_and_winners(rich) -> None:
    record = copy.deepcopy(rich)
    record["scores"][0] += 10
    err = replay_error(record)
    assert (err.where, err.why) == (
        "scores",
        f"the game ends with scores {json.dumps(rich['scores'])}, not {json.dumps(record['scores'])}",
    )
    record = copy.deepcopy(rich)
    losers = [s for s in range(3) if s not in rich["winners"]]
    record["winners"] = losers
    err = replay_error(record)
    assert (err.where, err.why) == ("winners", f"seats {json.dumps(rich['winners'])} win, not {json.dumps(losers)}")
    record["winners"] = sorted(rich["winners"], reverse=True)  # any order
    replay(record)
    record["winners"] = rich["winners"] * 2
    assert replay_error(record).where == "winners"


def test_unknown_event_type_and_non_object_event(rich) -> None:
    record = copy.deepcopy(rich)
    events_of(record, 1)[3] = {"type": "undo", "seat": 0}
    err = replay_error(record)
    assert err.where == where(1, 3) and err.why.startswith('unknown event type "undo"; types are open, place')
    record = copy.deepcopy(rich)
    events_of(record, 1)[3] = ["place", 0]
    err = replay_error(record)
    assert (err.where, err.why) == (where(1, 3), "an event is a JSON object; got an array")


def test_event_missing_a_key(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "draw")
    del events_of(record, h)[j]["seat"]
    err = replay_error(record)
    assert err.where == where(h, j, "draw") and err.why.startswith("missing key 'seat'")

    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    del events_of(record, h)[j]["cell"]
    err = replay_error(record)
    assert (err.where, err.why) == (where(h, j, "place"), "missing key 'cell'")


def test_unknown_tile_in_an_event(rich) -> None:
    record = copy.deepcopy(rich)
    h, j = find_event(record, free_place)
    events_of(record, h)[j]["tile"] = "11-02-03"
    err = replay_error(record)
    assert err.where == where(h, j, "place") and err.why.startswith('no tile is called "11-02-03"')


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_any_changed_forced_event_or_points_is_caught_where_it_is(players, seed, data) -> None:
    # Whatever the engine forces (open, draw, pass, end) and whatever a placement scores is fixed by the deals
    # and the earlier moves, so changing it must fail exactly at the changed event.
    _, record = multiplayer(players, hands=2, seed=seed)
    spots = [(h, j) for h, hand in enumerate(record["hands"]) for j in range(len(hand["events"]))]
    h, j = data.draw(st.sampled_from(spots))
    event = events_of(record, h)[j]
    keys = {"open": ["seat", "tile", "points"], "place": ["seat", "points"], "draw": ["seat", "tile"],
            "pass": ["seat"], "end": ["reason", "penalties", "scores"]}[event["type"]]
    key = data.draw(st.sampled_from(keys))
    if key == "seat":
        event["seat"] = (event["seat"] + data.draw(st.integers(1, players - 1))) % players
    elif key == "tile":
        event["tile"] = data.draw(st.sampled_from([n for n in TILE_NAMES if n != event["tile"]]))
    elif key == "points":
        event["points"] += data.draw(st.sampled_from([-5, 5, 10]))
    elif key == "reason":
        event["reason"] = data.draw(st.sampled_from([r for r in ("out", "blocked", "enclosed") if r != event["reason"]]))
    else:
        event[key][data.draw(st.integers(0, players - 1))] += data.draw(st.sampled_from([-10, 5]))
    assert replay_error(record).where == where(h, j, event["type"])


# -- replay: records that are malformed before any event -----------------------------------------------------
def test_deck_not_a_permutation(rich) -> None:
    record = copy.deepcopy(rich)
    deck = record["hands"][1]["deck"]
    lost = deck[7]
    deck[7] = deck[0]
    err = replay_error(record)
    assert err.where == "hand 2, deck"
    assert err.why == f"not a permutation of the 36 tiles (more than once: {deck[0]}; missing: {lost})"
    record["hands"][1]["deck"] = deck[:35]
    err = replay_error(record)
    assert err.where == "hand 2, deck" and "35 names" in err.why


def test_unknown_tile_name_in_a_deck(rich) -> None:
    record = copy.deepcopy(rich)
    record["hands"][2]["deck"][4] = "03-02-01"  # the colours run the other way: no such tile
    err = replay_error(record)
    assert err.where == "hand 3, deck[4]" and err.why.startswith('no tile is called "03-02-01"')


@pytest.mark.parametrize(
    "path, where_",
    [
        (("format",), "record"),
        (("players",), "record"),
        (("hands",), "record"),
        (("scores",), "record"),
        (("rules", "enclosed_end"), "rules"),
        (("rules", "hands"), "rules"),
        (("hands", 1, "events"), "hand 2"),
        (("hands", 0, "deck"), "hand 1"),
    ],
)
def test_missing_key(rich, path, where_) -> None:
    record = copy.deepcopy(rich)
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    err = replay_error(record)
    assert (err.where, err.why) == (where_, f"missing key {path[-1]!r}")


def test_wrong_types_at_the_top(rich) -> None:
    for key, value, message in [
        ("hands", {"deck": []}, "hands is a list; got an object"),
        ("scores", "35", "scores is a list of integers"),
        ("winners", [0.0], "winners is a list of integers"),
        ("rules", [3, "1939"], "rules is a JSON object; got an array"),
        ("seed", "seven", "seed is an integer or null"),
        ("agents", ["random"], "agents is null or one name per seat (3)"),
    ]:
        record = copy.deepcopy(rich)
        record[key] = value
        err = replay_error(record)
        assert err.where == key and err.why.startswith(message)
    with pytest.raises(RecordError, match="a record is a JSON object; got an array"):
        replay([rich])  # type: ignore[arg-type]


def test_wrong_format_and_game(rich) -> None:
    record = copy.deepcopy(rich)
    record["format"] = "contack-record/2"
    err = replay_error(record)
    assert (err.where, err.why) == ("format", 'unknown format "contack-record/2"; this reader knows "contack-record/1"')
    record = copy.deepcopy(rich)
    record["game"] = "con-tac-tix"
    err = replay_error(record)
    assert err.where == "game" and err.why.startswith('unknown game "con-tac-tix"')


def test_wrong_number_of_hands(rich) -> None:
    record = copy.deepcopy(rich)
    del record["hands"][2]
    err = replay_error(record)
    assert (err.where, err.why) == ("hands", "rules.hands is 3 but the record has 2 hands")
    record["rules"]["hands"] = 0
    err = replay_error(record)
    assert err.where == "rules.hands"


def test_enclosed_end_not_allowed(rich) -> None:
    record = copy.deepcopy(rich)
    record["rules"]["enclosed_end"] = "sometimes"
    err = replay_error(record)
    assert err.where == "rules.enclosed_end"
    assert err.why == 'unknown option "sometimes"; enclosed_end is one of "1939", "next_player", "never"'


@pytest.mark.parametrize("players", [1, 8, "3", True])
def test_bad_players_count(rich, players) -> None:
    record = copy.deepcopy(rich)
    record["players"] = players
    err = replay_error(record)
    assert (err.where, err.why) == ("players", f"Contack is played by 2 to 7 players; got {json.dumps(players)}")


def test_a_numpy_number_in_a_record_built_in_python_is_named_as_such(rich) -> None:
    # the message read "Contack is played by 2 to 7 players; got 2", refusing the very value it asked for
    record = copy.deepcopy(rich)
    record["players"] = np.int64(2)
    err = replay_error(record)
    assert (err.where, err.why) == ("players", "Contack is played by 2 to 7 players; got 2 (numpy.int64: a record "
                                               "holds JSON values, plain ints and floats)")


def test_players_count_that_does_not_match_the_deals(rich) -> None:
    # Four seats deal other hands from the same decks: the replay parts from the record at once or soon after.
    record = copy.deepcopy(rich)
    record["players"] = 4
    err = replay_error(record)
    assert err.where.startswith("hand 1, event ")


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
def test_solitaire_with_more_than_one_player(sol1, sol2, game) -> None:
    record = copy.deepcopy(sol1 if game == "solitaire1" else sol2)
    record["players"] = 2
    err = replay_error(record)
    assert (err.where, err.why) == ("players", "a solitaire has 1 player; got 2")
    record["players"] = 1
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    err = replay_error(record)
    assert (err.where, err.why) == ("hands", "a solitaire is one hand but the record has 2 hands")


# -- replay: the solitaires ----------------------------------------------------------------------------------
def test_solitaire1_wrong_from(sol1) -> None:
    record = copy.deepcopy(sol1)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "place" and ev[j]["from"] == "discard")
    events_of(record, h)[j]["from"] = "pile"
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(h, j, "place"),
        "'from' should be \"discard\" (the tile comes from the discard pile), not \"pile\"",
    )
    record = copy.deepcopy(sol1)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "place" and ev[j]["from"] == "pile")
    del events_of(record, h)[j]["from"]
    err = replay_error(record)
    assert err.where == where(h, j, "place") and err.why.startswith("'from' should be \"pile\"")


def test_solitaire1_missing_discard(sol1) -> None:
    record = copy.deepcopy(sol1)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "discard")
    gone = events_of(record, h).pop(j)
    err = replay_error(record)
    assert err.where.startswith(where(h, j))
    assert err.why.startswith(f"expected a discard by seat 0 of {gone['tile']}, got ")


def test_solitaire1_place_instead_of_discard(sol1) -> None:
    # Placing the drawn tile where it cannot go: the engine discards it.
    record = copy.deepcopy(sol1)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "discard")
    tile = events_of(record, h)[j]["tile"]
    events_of(record, h)[j] = {"type": "place", "seat": 0, "tile": tile, "cell": [1, 0], "blue": "B", "points": 0, "from": "pile"}
    err = replay_error(record)
    assert err.where == where(h, j, "place")
    assert err.why == f"expected a discard by seat 0 of {tile}, got a place by seat 0 of {tile} at (1, 0)"


def test_solitaire1_wrong_outcome(sol1) -> None:
    record = copy.deepcopy(sol1)
    record["winners"] = [0] if not sol1["winners"] else []
    err = replay_error(record)
    assert err.where == "winners"
    record = copy.deepcopy(sol1)
    j, end = end_of_hand(record, 0)
    end["reason"] = "won" if end["reason"] == "lost" else "lost"
    assert replay_error(record).where == where(0, j, "end")


def test_solitaire2_wrong_stack(sol2) -> None:
    record = copy.deepcopy(sol2)
    h, j = find_event(record, lambda ev, j: ev[j]["type"] == "place")
    place = events_of(record, h)[j]
    true = place["stack"]
    place["stack"] = (true + 1) % 7
    err = replay_error(record)
    assert (err.where, err.why) == (where(h, j, "place"), f"{place['tile']} is the top of stack {true}, not {(true + 1) % 7}")


def test_solitaire2_wrong_cut(sol2) -> None:
    record = copy.deepcopy(sol2)
    cut = record["hands"][0]["cut"]
    record["hands"][0]["cut"] = (cut + 1) % 6
    opening = events_of(record, 0)[0]["tile"]
    other = record["hands"][0]["deck"][30 + (cut + 1) % 6]
    err = replay_error(record)
    assert (err.where, err.why) == (
        where(0, 0, "open"),
        f"expected the opening of {other} by seat 0, got the opening of {opening} by seat 0",
    )
    for bad in (6, -1, "2", None):
        record["hands"][0]["cut"] = bad
        err = replay_error(record)
        assert (err.where, err.why) == ("hand 1, cut", f"the cut is a position in stack 6, 0..5; got {json.dumps(bad)}")
    del record["hands"][0]["cut"]
    assert (replay_error(record).where, replay_error(record).why) == ("hand 1", "missing key 'cut'")


def test_solitaire2_winners_of_a_lost_game(sol2) -> None:
    assert sol2["winners"] == []  # seed 4 loses; the test needs a lost game
    record = copy.deepcopy(sol2)
    record["winners"] = [0]
    err = replay_error(record)
    assert (err.where, err.why) == ("winners", "nobody wins (the solitaire is lost), not [0]")
    record["winners"] = []
    record["scores"] = [sol2["scores"][0] + 5]
    assert replay_error(record).where == "scores"


# -- check_paths ---------------------------------------------------------------------------------------------
def fail_parts(line: str) -> tuple[str, str]:
    """``FAIL <where>: <why>`` split as a reader would: the first ``": "`` ends the place."""
    assert line.startswith("FAIL ") and ": " in line, line
    where_, why = line[len("FAIL ") :].split(": ", 1)
    return where_, why


def test_check_paths_lines_and_counts(tmp_path, rich) -> None:
    bad = copy.deepcopy(rich)
    h, j = find_event(bad, lambda ev, j: ev[j]["type"] == "place" and ev[j]["points"] > 0)
    events_of(bad, h)[j]["points"] += 5
    err = replay_error(bad)
    assert err.where == where(h, j, "place") and err.why.endswith(f"not {events_of(bad, h)[j]['points']}")
    mixed = tmp_path / "mixed.jsonl"
    write_records(mixed, [rich, bad])
    array = tmp_path / "array.json"
    array.write_text(json.dumps([rich, rich]))
    single = tmp_path / "single.json"
    single.write_text(json.dumps(rich, indent=2))

    out = io.StringIO()
    assert check_paths([mixed, array, str(single)], out=out) == (4, 1)
    lines = out.getvalue().splitlines()
    # One line per record, exactly "OK <file>:<n>" or "FAIL <where>: <why>", then the counts.
    assert lines == [
        f"OK {mixed}:1",
        f"FAIL {mixed}:2 hand {h + 1}, event {j + 1} (place): {err.why}",
        f"OK {array}:1",
        f"OK {array}:2",
        f"OK {single}:1",
        "4 passed, 1 failed",
    ]
    assert fail_parts(lines[1]) == (f"{mixed}:2 {err.where}", err.why)


def test_check_paths_counts_an_unreadable_file_as_one_failure(tmp_path, rich) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(rich) + "\n{oops\n" + json.dumps(rich) + "\n")
    missing = tmp_path / "missing.jsonl"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    good = tmp_path / "good.jsonl"
    write_records(good, [rich])
    out = io.StringIO()
    assert check_paths([broken, missing, empty, good], out=out) == (1, 3)
    lines = out.getvalue().splitlines()
    assert fail_parts(lines[0])[0] == f"{broken}, line 2"
    assert fail_parts(lines[0])[1].startswith("invalid JSON: ")
    assert fail_parts(lines[1])[0] == str(missing)
    assert fail_parts(lines[1])[1].startswith("cannot read: ")
    assert lines[2] == f"FAIL {empty}: no records in the file"
    assert lines[3:] == [f"OK {good}:1", "1 passed, 3 failed"]


def test_check_paths_plays_through_the_given_driver(tmp_path, rich) -> None:
    path = tmp_path / "four.jsonl"
    write_records(path, [rich] * 4)
    seen = []

    def through(record: dict, setup):
        # A driver maker standing in for an environment: the first record plays on the engine, the others fail
        # the three ways a driver can.
        seen.append(record)
        if len(seen) == 2:
            raise RecordError("the environment disagrees", "hand 1, event 2 (place)")
        if len(seen) == 3:
            raise RecordError("something with no place")
        if len(seen) == 4:
            raise ValueError("a plain ValueError: with a colon")
        return EngineDriver(record, setup)

    out = io.StringIO()
    assert check_paths([path], out=out, through=through) == (1, 3)
    assert seen == [rich] * 4
    lines = out.getvalue().splitlines()
    assert lines == [
        f"OK {path}:1",
        f"FAIL {path}:2 hand 1, event 2 (place): the environment disagrees",
        f"FAIL {path}:3: something with no place",
        f"FAIL {path}:4: a plain ValueError: with a colon",
        "1 passed, 3 failed",
    ]
    # Every FAIL line splits into the record's place and the reason at its first ": ".
    assert [fail_parts(line) for line in lines[1:4]] == [
        (f"{path}:2 hand 1, event 2 (place)", "the environment disagrees"),
        (f"{path}:3", "something with no place"),
        (f"{path}:4", "a plain ValueError: with a colon"),
    ]


def test_record_error_is_a_value_error() -> None:
    err = RecordError("what is wrong", "hand 1, event 2 (draw)")
    assert isinstance(err, ValueError)
    assert str(err) == "hand 1, event 2 (draw): what is wrong"
    assert str(RecordError("no where")) == "no where"
