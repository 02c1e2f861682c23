"""The CON-TAC-TIX rules (docs/rules.md section 9) in contack_env.contactix.rules: the board, moves, the union-find win check
against a brute-force flood fill written here from the rules, corners, the swap option, and properties of whole
games (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contack_env.contactix.rules import (
    BLACK,
    WHITE,
    ContactixState,
    MAX_SIZE,
    MIN_SIZE,
    IllegalMoveError,
    cell_index,
    check_size,
    mirror,
    neighbour_table,
)

SETTINGS = dict(deadline=None, derandomize=True)


# -- an independent reference, straight from docs/rules.md section 9 ------------------------------------------------
def hex_neighbours(r: int, c: int, n: int) -> set[tuple[int, int]]:
    around = [(r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c), (r - 1, c + 1), (r + 1, c - 1)]
    return {(a, b) for a, b in around if 0 <= a < n and 0 <= b < n}


def spans(board: list[int], n: int, colour: int) -> bool:
    """Flood fill over ``colour``'s pegs from its first side (Black: row 0, White: column 0) to the other."""
    peg = colour + 1

    def on_first(r: int, c: int) -> bool:
        return r == 0 if colour == BLACK else c == 0

    def on_last(r: int, c: int) -> bool:
        return r == n - 1 if colour == BLACK else c == n - 1

    todo = [(r, c) for r in range(n) for c in range(n) if board[r * n + c] == peg and on_first(r, c)]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        if on_last(r, c):
            return True
        for a, b in hex_neighbours(r, c, n):
            if (a, b) not in seen and board[a * n + b] == peg:
                seen.add((a, b))
                todo.append((a, b))
    return False


def state_of(n: int, black=(), white=(), **kw) -> ContactixState:
    return ContactixState.from_position(n, black, white, **kw)


# -- the board -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 7, 11, 19])
def test_every_hole_touches_the_six_holes_of_the_rules(n):
    table = neighbour_table(n)
    for r in range(n):
        for c in range(n):
            assert {divmod(o, n) for o in table[r * n + c]} == hex_neighbours(r, c, n)
    assert len(table[cell_index(n // 2, n // 2, n)]) == 6
    # The acute corners (0, 0) and (n-1, n-1) touch two holes, the obtuse ones three.
    assert [len(table[cell_index(r, c, n)]) for r, c in [(0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 0)]] == [2, 2, 3, 3]


@pytest.mark.parametrize("n", [3, 6, 11])
def test_the_swap_mirror_keeps_neighbours_and_exchanges_the_sides(n):
    table = neighbour_table(n)
    for cell in range(n * n):
        assert {mirror(o, n) for o in table[cell]} == set(table[mirror(cell, n)])
        assert mirror(mirror(cell, n), n) == cell
    assert {mirror(cell_index(0, c, n), n) for c in range(n)} == {cell_index(r, 0, n) for r in range(n)}


@pytest.mark.parametrize("size", [2, 20, 0, -3, 2.5, "11", True, None])
def test_board_sizes_are_3_to_19(size):
    with pytest.raises(ValueError, match=r"board_size is a whole number 3\.\.19"):
        ContactixState(size)


def test_a_fresh_board():
    state = ContactixState()
    assert state.size == 11 and check_size(np.int64(7)) == 7
    assert state.current_player == BLACK and not state.done and state.winner is None
    assert state.legal_moves() == list(range(121))
    assert state.moves == [] and not state.swap_rule and not state.can_swap


# -- moves -----------------------------------------------------------------------------------------------------
def test_players_alternate_and_a_hole_takes_one_peg():
    state = ContactixState(5)
    state.play(cell_index(2, 2, 5))
    assert state.current_player == WHITE and state.board[12] == BLACK + 1
    state.play(cell_index(1, 3, 5))
    assert state.current_player == BLACK and state.board[8] == WHITE + 1
    assert state.legal_moves() == [i for i in range(25) if i not in (8, 12)]
    assert state.moves == [12, 8]


@pytest.mark.parametrize(
    "move,message",
    [
        (12, r"hole \(2, 2\) already holds a black peg"),
        (25, r"hole index 25 is off the 5x5 board: indices are 0\.\.24"),
        (-1, r"hole index -1 is off the 5x5 board"),
        ("2 2", r"a move is a hole index r\*5\+c, an int 0\.\.24; got '2 2'"),
        (2.0, r"a move is a hole index"),
        (True, r"a move is a hole index"),
    ],
)
def test_illegal_moves_say_why(move, message):
    state = ContactixState(5)
    state.play(12)
    with pytest.raises(IllegalMoveError, match=message):
        state.play(move)
    assert state.moves == [12] and state.current_player == WHITE  # nothing changed


def test_no_move_after_the_end():
    state = state_of(3, black=[(0, 1), (1, 1)], white=[(0, 0), (1, 0)])
    state.play(cell_index(2, 1, 3))
    assert state.winner == BLACK and state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over: black has won"):
        state.play(cell_index(2, 2, 3))


# -- winning ---------------------------------------------------------------------------------------------------
def test_black_wins_on_the_move_that_joins_rows_0_and_n_minus_1():
    # Black's pegs (0, 2) and (2, 0) lie on its two rows; (1, 1) touches both: (r+1, c-1) and (r-1, c+1).
    state = state_of(3, black=[(0, 2), (2, 0)], white=[(1, 0), (2, 2)])
    assert not state.done
    state.play(cell_index(1, 1, 3))
    assert state.winner == BLACK and state.connected(BLACK) and not state.connected(WHITE)
    assert state.winning_chain() == [cell_index(0, 2, 3), cell_index(1, 1, 3), cell_index(2, 0, 3)]


def test_white_wins_by_joining_columns_0_and_n_minus_1():
    state = state_of(4, black=[(0, 0), (1, 0), (3, 3)], white=[(2, 0), (2, 1), (1, 3)])
    state.play(cell_index(0, 1, 4))  # black elsewhere
    assert not state.done
    state.play(cell_index(2, 2, 4))  # (2, 2) touches (2, 1) and (1, 3): columns 0..3 joined
    assert state.winner == WHITE
    assert state.winning_chain() == [cell_index(r, c, 4) for r, c in [(2, 0), (2, 1), (2, 2), (1, 3)]]


def test_pegs_that_only_touch_at_a_non_adjacent_diagonal_do_not_connect():
    # (0, 0) and (1, 1) are not neighbours on this grid (only (r-1, c+1) / (r+1, c-1) are diagonal neighbours).
    state = state_of(3, black=[(0, 0), (1, 1), (2, 2)], white=[(0, 1), (1, 0)])
    assert not state.done and state.current_player == WHITE


@pytest.mark.parametrize("n", range(MIN_SIZE, MAX_SIZE + 1))  # every board size: all four corners of each
@pytest.mark.parametrize("k", ["first", "last"])
def test_corner_holes_count_for_both_sides(n, k):
    # Each colour fills one of the OTHER colour's sides: its chain reaches its own sides only through the two
    # corner holes at the ends, so it wins only because a corner counts for both.
    line = 0 if k == "first" else n - 1
    state = ContactixState(n)
    for r in range(n):
        state.play(cell_index(r, line, n))  # Black along column `line`, White's side
        if not state.done:
            state.play(cell_index(r, n - 1 - line, n))  # White along the other column: never a chain
    assert state.winner == BLACK and len(state.moves) == 2 * n - 1
    assert state.winning_chain() == [cell_index(r, line, n) for r in range(n)]
    state = ContactixState(n)
    for c in range(n):
        state.play(cell_index(n - 1 - line, c, n))  # Black along the other row: never a chain
        state.play(cell_index(line, c, n))  # White along row `line`, Black's side
    assert state.winner == WHITE and len(state.moves) == 2 * n
    assert state.winning_chain() == [cell_index(line, c, n) for c in range(n)]


def test_from_position_checks_what_it_is_given():
    with pytest.raises(ValueError, match=r"used twice: \[\(1, 1\)\]"):
        state_of(3, black=[(1, 1)], white=[(1, 1)])
    with pytest.raises(ValueError, match="black has as many pegs as white or one more"):
        state_of(3, black=[(0, 0), (1, 1)])
    with pytest.raises(ValueError, match=r"it is black's turn, not white's"):
        state_of(3, to_move=WHITE)
    with pytest.raises(ValueError, match=r"hole \(3, 0\) is off the 3x3 board"):
        state_of(3, black=[(3, 0)])


def test_clone_is_independent():
    state = state_of(5, black=[(2, 2)])
    copy = state.clone()
    copy.play(0)
    assert state.board[0] == 0 and state.moves == [] and state.current_player == WHITE
    assert copy.board[0] == WHITE + 1 and copy.current_player == BLACK


# -- the swap rule ---------------------------------------------------------------------------------------------
def test_swap_takes_over_blacks_first_peg_on_the_mirror_hole():
    state = ContactixState(5, swap=True)
    state.play(cell_index(1, 3, 5))
    assert state.can_swap and cell_index(1, 3, 5) in state.legal_moves() and len(state.legal_moves()) == 25
    assert state.is_swap(cell_index(1, 3, 5)) and not state.is_swap(cell_index(3, 1, 5))
    state.play(cell_index(1, 3, 5))
    assert state.swapped and state.current_player == BLACK and not state.can_swap
    assert state.pegs(BLACK) == [] and state.pegs(WHITE) == [cell_index(3, 1, 5)]
    assert state.moves == [8, 8] and state.legal_moves() == [i for i in range(25) if i != 16]
    assert state.last_peg == cell_index(3, 1, 5)  # the white peg the swap put in, not the hole moves names
    state.play(cell_index(0, 0, 5))
    assert state.last_peg == cell_index(0, 0, 5)


def test_the_last_peg_of_a_game_without_a_swap_is_the_last_move():
    state = ContactixState(5)
    assert state.last_peg is None
    state.play(cell_index(1, 3, 5))
    assert state.last_peg == cell_index(1, 3, 5)
    state.play(cell_index(2, 2, 5))
    assert state.last_peg == cell_index(2, 2, 5)


def test_swap_of_a_peg_on_the_long_diagonal_keeps_the_hole():
    state = ContactixState(5, swap=True)
    state.play(12)
    state.play(12)
    assert state.pegs(WHITE) == [12] and state.pegs(BLACK) == [] and state.current_player == BLACK


def test_swap_only_with_the_rule_and_only_as_whites_first_move():
    off = ContactixState(5)
    off.play(8)
    assert not off.can_swap and 8 not in off.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"hole \(1, 3\) already holds a black peg"):
        off.play(8)
    on = ContactixState(5, swap=True)
    on.play(8)
    on.play(0)
    on.play(1)
    assert 8 not in on.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"the swap is White's first move only"):
        on.play(8)


def test_after_a_swap_the_union_find_still_sees_whites_chain():
    state = ContactixState(3, swap=True)
    state.play(cell_index(1, 0, 3))  # black; swapped to a white peg on (0, 1)
    state.play(cell_index(1, 0, 3))
    for move in [(2, 2), (0, 0), (2, 1)]:
        assert not state.done
        state.play(cell_index(*move, 3))
    # White: (0, 0) and (0, 1) on row 0, then (0, 2) joins columns 0 and 2.
    assert not state.done and state.current_player == WHITE
    state.play(cell_index(0, 2, 3))
    assert state.winner == WHITE


# -- random playouts -------------------------------------------------------------------------------------------
def test_random_playout_leaves_the_state_alone_and_agrees_with_an_ended_game():
    rng = np.random.default_rng(3)
    state = state_of(5, black=[(0, 2), (1, 2), (2, 2), (3, 2)], white=[(0, 0), (1, 0), (2, 0), (3, 0)])
    before = (state.board[:], state.moves[:], state.current_player)
    for _ in range(20):
        state.random_playout(rng.random)
    assert (state.board, state.moves, state.current_player) == before
    done = state_of(3, black=[(0, 1), (1, 1), (2, 1)], white=[(0, 0), (1, 0)])
    assert done.winner == BLACK and done.random_playout(lambda: 1 / 0) == BLACK  # no random number needed


def test_random_playout_wins_as_often_as_random_play_move_by_move():
    # Filling the board at random and looking once is uniform random play in disguise (the module docstring):
    # Black's win rate from the empty 3x3 board agrees within sampling error (2000 games each, sd ~ 0.011).
    rng = np.random.default_rng(0)
    fill = np.mean([ContactixState(3).random_playout(rng.random) == BLACK for _ in range(2000)])
    wins = 0
    for _ in range(2000):
        state = ContactixState(3)
        while not state.done:
            legal = state.legal_moves()
            state.play_code(legal[int(rng.random() * len(legal))])
        wins += state.winner == BLACK
    assert abs(fill - wins / 2000) < 0.05


# -- properties of whole games ---------------------------------------------------------------------------------
sizes = st.sampled_from([3, 4, 5, 7, 11])


@st.composite
def games(draw):
    n = draw(sizes)
    swap = draw(st.booleans())
    order = draw(st.permutations(range(n * n)))
    take_swap = swap and draw(st.booleans())
    return n, swap, order, take_swap


def play_out(n, swap, order, take_swap, on_move=None) -> ContactixState:
    """Play the first empty hole of ``order`` at every move until the game ends (with ``take_swap``, White's
    first move is the swap)."""
    state = ContactixState(n, swap=swap)
    while not state.done:
        if take_swap and len(state.moves) == 1:
            move = state.moves[0]
        else:
            move = next(c for c in order if state.board[c] == 0)
        state.play(move)
        if on_move is not None:
            on_move(state)
    return state


@settings(max_examples=60, **SETTINGS)
@given(games())
def test_a_finished_game_has_exactly_one_winner(game):
    state = play_out(*game)
    assert state.done  # a game always ends: a full board has a chain
    n = state.size
    assert state.winner in (BLACK, WHITE)
    assert spans(state.board, n, state.winner) and not spans(state.board, n, 1 - state.winner)
    assert state.connected(state.winner) and not state.connected(1 - state.winner)
    chain = state.winning_chain()
    assert all(state.board[c] == state.winner + 1 for c in chain)
    assert all(b in neighbour_table(n)[a] for a, b in zip(chain, chain[1:]))
    first, last = divmod(chain[0], n), divmod(chain[-1], n)
    if state.winner == BLACK:
        assert first[0] == 0 and last[0] == n - 1
    else:
        assert first[1] == 0 and last[1] == n - 1


@settings(max_examples=60, **SETTINGS)
@given(games())
def test_the_win_is_detected_on_the_completing_move_and_never_earlier(game):
    history = []

    def check(state):
        n = state.size
        mover = 1 - state.current_player if not (state.swapped and len(state.moves) == 2) else WHITE
        black, white = spans(state.board, n, BLACK), spans(state.board, n, WHITE)
        history.append((black, white))
        if state.done:
            assert (black, white) == ((True, False) if state.winner == BLACK else (False, True))
            assert state.winner == mover  # only the player who just moved can have completed a chain
        else:
            assert not black and not white

    state = play_out(*game, on_move=check)
    assert history[-1] != (False, False) and all(h == (False, False) for h in history[:-1])
    assert state.done


@settings(max_examples=80, **SETTINGS)
@given(sizes, st.data())
def test_a_full_board_always_has_exactly_one_chain(n, data):
    # Any colouring of the full board (the hex theorem), and one from a legal game (via from_position).
    colours = data.draw(st.lists(st.sampled_from([1, 2]), min_size=n * n, max_size=n * n))
    assert spans(colours, n, BLACK) != spans(colours, n, WHITE)
    order = data.draw(st.permutations(range(n * n)))
    black = [divmod(c, n) for c in order[: (n * n + 1) // 2]]
    white = [divmod(c, n) for c in order[(n * n + 1) // 2 :]]
    state = ContactixState.from_position(n, black, white)
    assert state.done and state.connected(state.winner) != state.connected(1 - state.winner)
    assert spans(state.board, n, state.winner)
