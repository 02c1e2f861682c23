"""``agents.playout``: the greedy moves the searches play on with."""

from agents.playout import greedy_moves
from contack_env.contack.multiplayer import new_game


def _scores_of_each_choice(state):
    return [state.figure.points_for_code(c) for c in state.legal_codes()]


def test_greedy_moves_play_the_move_that_scores_the_most_now_and_stop_after_their_count():
    checked = 0
    for seed in range(30):
        state = new_game(2, seed=seed, log=False)
        for _ in range(4):
            if state.done:
                break
            before = len(state.figure)
            codes = state.legal_codes()
            best = max(_scores_of_each_choice(state))
            played = state.clone()
            greedy_moves(played, 1)
            if len(played.figure) == before + 1 and played.pile_size == state.pile_size:  # placed, no draw
                new = [t for t in played.figure.placed.values() if t not in state.figure.placed.values()]
                scored = played.scores[state.current_player] - state.scores[state.current_player]
                assert len(new) == 1 and (scored == best or played.hand_number != state.hand_number)
                assert any(state.figure.points_for_code(c) == best for c in codes)
                checked += 1
            state = played
    assert checked > 50


def test_greedy_moves_stop_at_their_count_at_the_end_and_when_told():
    state = new_game(2, seed=4, log=False)
    start = len(state.figure)
    three = state.clone()
    greedy_moves(three, 3)
    assert len(three.figure) <= start + 3
    greedy_moves(state, 3, over=lambda s: len(s.figure) >= start + 1)
    assert len(state.figure) == start + 1  # stopped as soon as one more tile was down
    done = new_game(2, seed=4, log=False)
    greedy_moves(done, 10_000)
    assert done.done  # a count past the end plays to the end and no further
