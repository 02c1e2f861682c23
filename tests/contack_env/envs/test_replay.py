"""Replaying records through the environments: clean records pass, every kind of tampering fails at the right
hand and event with the engine's words (and the environment's own where it refuses a move), and ``contack replay
--check --through-env`` reports like ``--check``."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from contack_env import Move, new_game, new_solitaire1, new_solitaire2
from contack_env.envs.actions import ActionLayout
from contack_env.cli import main
from contack_env.envs.replay import replay_through_env
from contack_env.records import RecordError
from contack_env.records.contack import game_record
from contack_env.contack.tiles import TILE_NAMES, tiles_in


def _random_record(players: int, seed: int, trace: bool = True, **rules) -> dict:
    game = new_game(players, seed=seed, trace=trace, **rules)
    rng = np.random.default_rng(seed)
    while not game.done:
        codes = game.legal_codes()
        game.play_code(codes[rng.integers(len(codes))])
    return game_record(game, seed=seed)


def _solitaire_record(kind: str, seed: int) -> dict:
    game = new_solitaire1(seed) if kind == "solitaire1" else new_solitaire2(seed)
    rng = np.random.default_rng(seed)
    while not game.done:
        codes = game.legal_codes()
        game.play_code(codes[rng.integers(len(codes))])
    return game_record(game, seed=seed)


def _first(record: dict, kind: str, after: int = 0) -> tuple[int, int]:
    """(hand, event) of the first event of type ``kind`` at or after event index ``after`` of some hand."""
    for h, hand in enumerate(record["hands"]):
        for j, event in enumerate(hand["events"]):
            if event["type"] == kind and j >= after:
                return h, j
    raise AssertionError(f"no {kind} event in the record")


def _fails(record: dict, where: str, why: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay_through_env(record)
    assert caught.value.where == where, str(caught.value)
    assert why in caught.value.why, str(caught.value)


# -- clean records ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_clean_records_pass(players):
    for seed, enclosed_end in enumerate(("1939", "next_player", "never")):
        replay_through_env(_random_record(players, seed, enclosed_end=enclosed_end))
        replay_through_env(_random_record(players, seed + 10, trace=False, num_hands=1, enclosed_end=enclosed_end))


@pytest.mark.parametrize("kind", ["solitaire1", "solitaire2"])
def test_solitaire_records_go_to_the_solitaire_envs(kind):
    for seed in range(3):
        replay_through_env(_solitaire_record(kind, seed))
    record = _solitaire_record(kind, 5)
    record["scores"] = [record["scores"][0] + 5]
    with pytest.raises(RecordError, match="scores"):
        replay_through_env(record)


def test_unknown_keys_are_ignored():
    record = _random_record(3, 1)
    record["comment"] = "unknown keys are ignored by readers"
    for hand in record["hands"]:
        for event in hand["events"]:
            event["note"] = "as here"
    replay_through_env(record)


# -- tampered records ------------------------------------------------------------------------------------------------


def test_a_move_the_mask_does_not_allow_fails_at_its_event():
    record = _random_record(3, 2)
    h, j = _first(record, "place")
    event = record["hands"][h]["events"][j]
    # Rebuild the decision to find a move that has an action but is illegal: a held tile on a candidate cell
    # it does not fit, or else any held tile that is not the one the rules allow.
    game = new_game(3, seed=2)
    layout = ActionLayout(5, tiles_in(game.hands[game.current_player]), game.figure)
    legal = set(game.legal_moves())
    candidates = [
        Move(t, c // 128 - 64, c % 128 - 64) for t in layout.slots if t is not None for c in layout.cells if c is not None
    ]
    wrong = next(m for m in candidates if m not in legal)
    event["tile"] = TILE_NAMES[wrong.tile]
    event["cell"] = [wrong.x, wrong.y]
    _fails(record, f"hand {h + 1}, event {j + 1} (place)", "which the mask does not allow")


def test_a_move_without_an_action_fails_at_its_event():
    record = _random_record(3, 3)
    h, j = _first(record, "place")
    event = record["hands"][h]["events"][j]
    event["cell"] = [event["cell"][0] + 7, event["cell"][1]]  # far from the last tile and from every hole
    _fails(record, f"hand {h + 1}, event {j + 1} (place)", "neither a free side of the last-played tile nor a hole")
    record = _random_record(3, 3)
    event = record["hands"][h]["events"][j]
    # A tile dealt to another seat (and not the opening tile) is not in the mover's hand.
    other = (event["seat"] + 1) % 3
    opening = record["hands"][h]["events"][0]["tile"]
    stranger = next(name for name in record["hands"][h]["deck"][5 * other : 5 * other + 5] if name != opening)
    event["tile"] = stranger
    _fails(record, f"hand {h + 1}, event {j + 1} (place)", f"does not hold {stranger}")


def test_wrong_points_wrong_seat_and_a_wrong_legal_list_fail():
    record = _random_record(4, 4)
    h, j = _first(record, "place")
    tampered = copy.deepcopy(record)
    tampered["hands"][h]["events"][j]["points"] += 5
    # The place itself is allowed; the points it scores differ.
    _fails(tampered, f"hand {h + 1}, event {j + 1} (place)", "points, not")
    tampered = copy.deepcopy(record)
    tampered["hands"][h]["events"][j]["seat"] = (tampered["hands"][h]["events"][j]["seat"] + 1) % 4
    _fails(tampered, f"hand {h + 1}, event {j + 1} (place)", "but it is seat")
    tampered = copy.deepcopy(record)
    tampered["hands"][h]["events"][j]["legal"].append(["08-09-10", 30, 0])
    _fails(tampered, f"hand {h + 1}, event {j + 1} (place)", "the legal list holds 08-09-10 at (30, 0), not legal")
    _fails(tampered, f"hand {h + 1}, event {j + 1} (place)", "legal moves by the action mask)")
    tampered = copy.deepcopy(record)
    tampered["hands"][h]["events"][j]["legal"] = tampered["hands"][h]["events"][j]["legal"][1:]
    _fails(tampered, f"hand {h + 1}, event {j + 1} (place)", "the legal list lacks")


def test_a_missing_draw_fails_where_the_environment_draws():
    for seed in range(20):
        record = _random_record(2, seed)
        try:
            h, j = _first(record, "draw")
        except AssertionError:
            continue
        del record["hands"][h]["events"][j]
        with pytest.raises(RecordError) as caught:
            replay_through_env(record)
        assert caught.value.where.startswith(f"hand {h + 1}, event {j + 1} ")
        return
    pytest.fail("no record with a draw")


def test_an_extra_event_and_a_short_record_fail():
    record = _random_record(3, 6)
    tampered = copy.deepcopy(record)
    events = tampered["hands"][0]["events"]
    events.insert(len(events) - 1, {"type": "pass", "seat": 0})
    with pytest.raises(RecordError) as caught:
        replay_through_env(tampered)
    assert caught.value.where.startswith("hand 1, event ")
    tampered = copy.deepcopy(record)
    last_hand = tampered["hands"][-1]["events"]
    h, j = len(tampered["hands"]), max(i for i, e in enumerate(last_hand) if e["type"] == "place")
    del last_hand[j:]
    _fails(tampered, f"hand {h}, event {j + 1}", "missing event: seat ")


def test_wrong_totals_fail():
    record = _random_record(3, 7)
    tampered = copy.deepcopy(record)
    tampered["scores"][0] += 10
    _fails(tampered, "scores", "the game ends with scores")
    tampered = copy.deepcopy(record)
    tampered["winners"] = [s for s in range(3) if s not in record["winners"]][:1]
    _fails(tampered, "winners", f"seats {record['winners']} win, not ")


@pytest.mark.parametrize(
    "change,where,why",
    [
        (lambda r: r.update(players=8), "players", "2 to 7 players"),
        (lambda r: r["rules"].update(enclosed_end="sometimes"), "rules.enclosed_end", "unknown option"),
        (lambda r: r["rules"].update(hands=2), "hands", "rules.hands is 2"),
        (lambda r: r["hands"][1]["deck"].pop(), "hand 2, deck", "not a permutation of the 36 tiles (35 names"),
        (lambda r: r["hands"][0]["deck"].__setitem__(0, "11-12-13"), "hand 1, deck[0]", "no tile is called"),
        (lambda r: r["hands"][0]["events"][1].update(cell="here"), "hand 1, event 2 (place)", "'cell' is [x, y]"),
        (lambda r: r.update(game="chess"), "game", "unknown game"),
    ],
)
def test_malformed_records_say_where_and_why(change, where, why):
    record = _random_record(3, 8)
    assert record["hands"][0]["events"][1]["type"] == "place"
    change(record)
    _fails(record, where, why)


# -- the command line -----------------------------------------------------------------------------------------


def test_cli_through_env_reports_like_check(tmp_path, capsys):
    good = [_random_record(3, 1), _random_record(5, 2), _solitaire_record("solitaire1", 3)]
    bad = copy.deepcopy(good[0])
    h, j = _first(bad, "place")
    bad["hands"][h]["events"][j]["points"] += 5
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in good + [bad]))

    code = main(["replay", "--check", "--through-env", str(path)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[:3] == [f"OK {path}:1", f"OK {path}:2", f"OK {path}:3"]
    assert lines[3].startswith(f"FAIL {path}:4 hand {h + 1}, event {j + 1} (place): ") and "points, not" in lines[3]
    assert lines[3].split(": ", 1)[0] == f"FAIL {path}:4 hand {h + 1}, event {j + 1} (place)"
    assert lines[4] == "3 passed, 1 failed"
    assert len(lines) == 5

    path.write_text("".join(json.dumps(r) + "\n" for r in good))
    assert main(["replay", "--check", "--through-env", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"
