"""CON-TAC-TIX records (contactix-record/1): made from games, written and read, replayed with every move checked,
and every kind of broken record named with its move and what is wrong."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contack_env.contactix.rules import BLACK, ContactixState, cell_index
from contack_env.records import RecordError, read_records, write_records
from contack_env.records.contactix import FORMAT, game_record, replay


def _game(moves, n=3, swap=False) -> ContactixState:
    state = ContactixState(n, swap=swap)
    for move in moves:
        state.play(state.moves[0] if move == "swap" else cell_index(*move, n))
    return state


def _black_wins_3x3() -> dict:
    return game_record(_game([(0, 1), (0, 0), (1, 1), (1, 0), (2, 1)]), agents=["two_distance", "random"], seed=4)


def test_a_record_holds_size_swap_moves_and_winner():
    record = _black_wins_3x3()
    assert record == {
        "format": FORMAT,
        "size": 3,
        "swap": False,
        "moves": [[0, 1], [0, 0], [1, 1], [1, 0], [2, 1]],
        "winner": "black",
        "agents": ["two_distance", "random"],
        "seed": 4,
    }
    assert json.loads(json.dumps(record)) == record
    state = replay(record)
    assert state.winner == BLACK and state.moves == [1, 0, 4, 3, 7]


def test_an_unfinished_game_has_a_null_winner_and_the_swap_is_spelled_out():
    state = _game([(1, 2), "swap", (0, 0)], n=4, swap=True)
    record = game_record(state)
    assert record["moves"] == [[1, 2], "swap", [0, 0]] and record["winner"] is None and record["swap"] is True
    again = replay(record)
    assert again.board == state.board and again.swapped and again.current_player == state.current_player


def test_a_position_built_directly_has_no_record():
    with pytest.raises(ValueError, match="no move history"):
        game_record(ContactixState.from_position(3, [(1, 1)], []))


def test_records_are_written_and_read_back(tmp_path):
    records = [_black_wins_3x3(), game_record(_game([(1, 1)], n=5))]
    path = tmp_path / "games.jsonl"
    assert write_records(path, records) == 2
    assert read_records(path) == records
    assert [replay(r).moves for r in read_records(path)] == [[1, 0, 4, 3, 7], [6]]


def _broken(change) -> dict:
    record = copy.deepcopy(_black_wins_3x3())
    change(record)
    return record


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda r: r.__setitem__("moves", [[0, 1], [0, 1]]), r"^move 2 \(\[0, 1\]\): hole \(0, 1\) already holds a black peg$"),
        (lambda r: r["moves"].__setitem__(2, [3, 1]), r"^move 3 \(\[3, 1\]\): hole \(3, 1\) is off the 3x3 board"),
        (lambda r: r["moves"].__setitem__(1, "2 2"), r"^move 2 \(\"2 2\"\): a move is \[r, c\] \(two whole numbers\) or \"swap\""),
        (lambda r: r["moves"].__setitem__(1, [1, True]), r"^move 2 .*a move is \[r, c\]"),
        (lambda r: r["moves"].__setitem__(1, "swap"), r"^move 2 \(\"swap\"\): \"swap\" is a move only when the record's swap rule is on"),
        (lambda r: r["moves"].append([2, 2]), r"^move 6 \(\[2, 2\]\): the game ended at move 5 \(black joined their sides\); the record has 1 more$"),
        (lambda r: r.__setitem__("winner", "white"), r"^winner: the record says white won, but after its 5 moves black won on the last move$"),
        (lambda r: r.__setitem__("winner", None), r"^winner: the record says no winner \(null\), but after its 5 moves black won"),
        (lambda r: r.__setitem__("winner", "nobody"), r'winner is "black", "white" or null; got "nobody"'),
        (lambda r: r.__setitem__("size", 20), r"size is a whole number 3\.\.19; got 20"),
        (lambda r: r.__setitem__("format", "contack-record/1"), r'format is "contactix-record/1"; got "contack-record/1"'),
        (lambda r: r.pop("moves"), r"missing key\(s\) 'moves'"),
        (lambda r: r.__setitem__("extra", 1), r"unknown key\(s\) 'extra'"),
        (lambda r: r.__setitem__("swap", "no"), r'swap is true or false; got "no"'),
        (lambda r: r.__setitem__("agents", ["a"]), r"agents is \[black's, white's\], two strings"),
        (lambda r: r.__setitem__("seed", 1.5), r"seed is a whole number or null"),
    ],
)
def test_broken_records_say_which_move_and_what_is_wrong(change, message):
    with pytest.raises(RecordError, match=message):
        replay(_broken(change))


def test_swap_errors_name_the_move():
    base = {"format": FORMAT, "size": 4, "swap": True, "winner": None}
    with pytest.raises(RecordError, match=r"^move 3 \(\"swap\"\): \"swap\" is only legal as White's first move \(move 2\)"):
        replay({**base, "moves": [[1, 2], [0, 0], "swap"]})
    with pytest.raises(RecordError, match=r"^move 2 \(\[1, 2\]\): hole \(1, 2\) holds Black's first peg; White takes it over by writing \"swap\""):
        replay({**base, "moves": [[1, 2], [1, 2]]})
    with pytest.raises(RecordError, match=r"^move 1 \(\"swap\"\)"):
        replay({**base, "moves": ["swap"]})
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay([1, 2])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from([3, 4, 6, 9]), st.booleans(), st.data())
def test_records_of_random_games_replay_to_the_same_position(n, swap, data):
    order = data.draw(st.permutations(range(n * n)))
    take_swap = swap and data.draw(st.booleans())
    stop = data.draw(st.integers(1, n * n))  # games cut short replay too (winner null)
    state = ContactixState(n, swap=swap)
    while not state.done and len(state.moves) < stop:
        move = state.moves[0] if take_swap and len(state.moves) == 1 else next(c for c in order if state.board[c] == 0)
        state.play(move)
    record = json.loads(json.dumps(game_record(state)))
    again = replay(record)
    assert (again.board, again.moves, again.winner, again.swapped, again.current_player) == (
        state.board, state.moves, state.winner, state.swapped, state.current_player
    )
    assert game_record(again) == record
