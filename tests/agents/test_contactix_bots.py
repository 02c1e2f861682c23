"""The CON-TAC-TIX bots (agents.contactix_bots and mcts): legal moves only, the two-distance evaluation, taking a
win and blocking one, mcts on a perfect-information state, and the agent specs of the registry."""

from __future__ import annotations

import pytest

from agents.arena import play_game, seed_streams
from agents.contactix_bots import (
    TwoDistanceAgent,
    potential,
    two_distances,
)
from agents.mcts import MCTSAgent
from agents.random_agent import RandomAgent
from agents.registry import check_spec, make_agent
from contack_env.contactix.rules import BLACK, WHITE, ContactixState, IllegalMoveError, cell_index
from legal_only import LegalOnly

BOTS = ["random", "two_distance", "mcts:24"]


def _position(n, black=(), white=(), swap=False) -> ContactixState:
    return ContactixState.from_position(n, black, white, swap=swap)


class _Checked(LegalOnly):
    """``LegalOnly``, and also: the legal moves it was given are the state's, and it left its copy as it found it."""

    def act(self, state, legal):
        before = (state.board[:], state.moves[:])
        move = super().act(state, legal)
        assert legal == state.legal_moves()
        assert (state.board, state.moves) == before  # the agent left its copy as it found it
        return move


@pytest.mark.parametrize("size,swap", [(3, False), (5, True), (7, False), (8, True)])
def test_every_bot_plays_only_legal_moves(size, swap):
    for seed in range(2):
        for i, black in enumerate(BOTS):
            white = BOTS[(i + 1 + seed) % len(BOTS)]
            streams = seed_streams(100 * size + seed, 3)
            agents = [_Checked(make_agent(spec, streams[k + 1], game="contactix")) for k, spec in enumerate((black, white))]
            state = play_game(ContactixState(size, swap=swap), agents)
            assert state.done and sum(a.moves for a in agents) == len(state.moves)


def test_play_game_refuses_an_illegal_move_and_needs_two_agents():
    class Cheat(RandomAgent):
        def act(self, state, legal):
            return state.moves[0] if state.moves else 0

    with pytest.raises(IllegalMoveError, match=r"hole \(0, 0\) already holds a black peg"):
        play_game(ContactixState(3), [Cheat(0), Cheat(1)])
    with pytest.raises(ValueError, match="contactix with 2 players needs as many agents"):
        play_game(ContactixState(3), [Cheat(0)])


# -- two-distance ----------------------------------------------------------------------------------------------
def test_two_distance_of_holes_on_or_linked_to_a_side_is_one():
    n = 4
    d_top, d_bottom, sides = two_distances(_position(n).board, n, BLACK)
    assert [d_top[cell_index(0, c, n)] for c in range(n)] == [1] * n
    assert [d_bottom[cell_index(n - 1, c, n)] for c in range(n)] == [1] * n
    # A black peg on row 0 links its empty neighbours to the top side.
    state = _position(n, black=[(0, 1)], white=[(3, 3)], swap=False)
    d_top, _, sides = two_distances(state.board, n, BLACK)
    assert d_top[cell_index(1, 1, n)] == 1 and d_top[cell_index(1, 0, n)] == 1 and sides[cell_index(1, 1, n)] & 1
    # Only the second-best neighbour counts: (1, c) touches (0, c) and (0, c + 1) on row 0, so it is 2 from the
    # top, except (1, 3), whose only row-0 neighbour is (0, 3): its second best is a row-1 hole at 2, so 3.
    d_top, _, _ = two_distances(_position(n).board, n, BLACK)
    assert [d_top[cell_index(1, c, n)] for c in range(n)] == [2, 2, 2, 3]


def test_potential_falls_as_a_chain_grows_and_is_small_one_move_from_the_end():
    n = 5
    empty, _ = potential(_position(n).board, n, BLACK)
    middle, _ = potential(_position(n, black=[(2, 2)]).board, n, BLACK)
    assert middle < empty
    near, _ = potential(_position(n, black=[(0, 2), (1, 2), (3, 2), (4, 2)], white=[(0, 0), (1, 0), (2, 0), (3, 0)]).board, n, BLACK)
    assert near == 2  # (2, 2) touches both halves: one from each side


def test_two_distance_takes_a_winning_move():
    n = 5
    state = _position(n, black=[(0, 2), (1, 2), (3, 2), (4, 2)], white=[(0, 0), (1, 0), (2, 0), (3, 0)])
    assert state.current_player == BLACK
    for seed in range(3):
        assert TwoDistanceAgent(seed).act(state.clone(), state.legal_moves()) == cell_index(2, 2, n)


def test_two_distance_blocks_the_only_winning_move_of_the_opponent():
    # White is one peg from joining columns 0 and 4 through (2, 2); Black, to move, has no win and must block.
    n = 5
    state = _position(n, black=[(0, 0), (0, 1), (4, 4), (4, 3)], white=[(2, 0), (2, 1), (2, 3), (2, 4)])
    assert state.current_player == BLACK
    for seed in range(3):
        assert TwoDistanceAgent(seed).act(state.clone(), state.legal_moves()) == cell_index(2, 2, n)


def test_two_distance_same_seed_same_moves():
    n = 7
    games = [play_game(ContactixState(n), [TwoDistanceAgent(4), RandomAgent(5)]).moves for _ in range(2)]
    assert games[0] == games[1]


def test_two_distance_beats_random_from_both_sides():
    for seed in range(6):
        two, rnd = TwoDistanceAgent(seed), RandomAgent(seed + 50)
        assert play_game(ContactixState(6), [two, rnd]).winner == BLACK
        assert play_game(ContactixState(6), [rnd, two]).winner == WHITE


def test_two_distance_decides_the_swap():
    # A central opening is worth taking over; a corner one is not.
    n = 7
    for opening, swaps in [((3, 3), True), ((0, 0), False)]:
        state = ContactixState(n, swap=True)
        state.play(cell_index(*opening, n))
        move = TwoDistanceAgent(0).act(state.clone(), state.legal_moves())
        assert state.is_swap(move) == swaps, opening


# -- mcts on CON-TAC-TIX -----------------------------------------------------------------------------------------
def test_mcts_takes_the_win_and_blocks_on_contactix():
    n = 5
    win = _position(n, black=[(0, 2), (1, 2), (3, 2), (4, 2)], white=[(0, 0), (1, 0), (2, 0), (3, 0)])
    block = _position(n, black=[(0, 0), (0, 1), (4, 4), (4, 3)], white=[(2, 0), (2, 1), (2, 3), (2, 4)])
    for seed in range(2):
        assert MCTSAgent(300, seed=seed).act(win.clone(), win.legal_moves()) == cell_index(2, 2, n)
        assert MCTSAgent(600, seed=seed).act(block.clone(), block.legal_moves()) == cell_index(2, 2, n)


def test_mcts_same_seed_same_move_leaves_the_state_and_answers_one_move_at_once():
    state = _position(5, black=[(2, 2)])
    before = (state.board[:], state.moves[:], state.current_player)
    moves = [MCTSAgent(80, seed=9).act(state, state.legal_moves()) for _ in range(2)]
    assert moves[0] == moves[1] and isinstance(moves[0], int) and moves[0] in state.legal_moves()
    assert (state.board, state.moves, state.current_player) == before
    agent = MCTSAgent(10, seed=0)
    generator = agent.rng.bit_generator.state
    assert agent.act(state, [7]) == 7 and agent.rng.bit_generator.state == generator


def test_mcts_beats_random_on_a_small_board():
    for seed in range(4):
        colours = [MCTSAgent(100, seed=seed), RandomAgent(seed)]
        if seed % 2:
            colours.reverse()
        state = play_game(ContactixState(5), colours)
        assert state.winner == seed % 2


# -- specs -----------------------------------------------------------------------------------------------------
def test_contactix_specs():
    assert isinstance(make_agent("random", 0, game="contactix"), RandomAgent)
    assert isinstance(make_agent("two_distance", 0, game="contactix"), TwoDistanceAgent)
    assert make_agent("mcts:37", 0, game="contactix").iterations == 37
    assert check_spec(" two_distance ", "contactix") == "two_distance"


@pytest.mark.parametrize(
    "spec,message",
    [
        ("greedy", r"unknown agent 'greedy' for contactix; agents are: random, two_distance, mcts\[:ITERATIONS\]"),
        ("lookahead", r"unknown agent 'lookahead' for contactix"),
        ("two_distance:3", r"agent 'two_distance' takes no argument"),
        ("mcts:0", r"budget is a whole number of iterations"),
        ("ppo", r"ppo needs the path of a trained model"),
        ("ppo:no/such/model.npz", r"no policy file at no/such/model.npz"),
    ],
)
def test_contactix_specs_that_do_not_exist_say_what_is_allowed(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, 0, game="contactix")


def test_contack_specs_are_unchanged_and_unknown_games_are_refused():
    with pytest.raises(ValueError, match=r"unknown agent 'two_distance'; agents are: random, greedy"):
        make_agent("two_distance", 0)
    with pytest.raises(ValueError, match=r"agents are made for the games contack, solitaire1, solitaire2, contactix; got 'chess'"):
        make_agent("random", 0, game="chess")


def test_seeded_agents_repeat_their_games():
    def game(seed):
        streams = seed_streams(seed, 3)
        agents = [make_agent("mcts:16", streams[1], game="contactix"), make_agent("random", streams[2], game="contactix")]
        return play_game(ContactixState(5), agents).moves

    assert game(1) == game(1) and game(1) != game(2)
