"""Properties every bot must have: legal moves only, and no access to the face-down order."""

import numpy as np
import pytest

from agents.arena import new_state, seed_streams
from agents.base import Agent
from agents.registry import make_agent
from agents.view import public_view
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS, ContackGame
from contack_env.contack.solitaire import Solitaire1, Solitaire2
from contack_env.contack.tiles import NUM_TILES
from contack_env.games import RuleOptions

BOTS = ["random", "greedy", "lookahead", "mcts:8"]


def _play_checked(state, agents: list[Agent], watched: set[int] = frozenset()) -> tuple[int, int]:
    """Play to the end, asserting that every chosen move is among the legal ones. Returns the decisions made by
    the seats in ``watched``: all of them, and those with a real choice (two or more legal moves)."""
    for agent in agents:
        agent.reset()
    decisions = choices = 0
    while not state.done:
        seat = state.current_player
        legal = state.legal_moves()
        move = agents[seat].act(public_view(state), legal)
        assert move in legal, (seat, move, legal)
        state.play(move)
        if seat in watched:
            decisions += 1
            choices += len(legal) > 1
    return decisions, choices


GAMES_PER_TABLE = 40  # full three-hand games per bot and table size: half with the bot in every seat, half mixed


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_plays_only_legal_moves_at_every_table_size(spec, players):
    # Full three-hand games. Even games seat the bot in every seat; odd games seat it in one seat (moving round
    # the table) among the other bots, so it also plays the positions other bots make. The enclosed_end rule
    # cycles through its options.
    decisions = choices = 0
    for g in range(GAMES_PER_TABLE):
        streams = seed_streams(10_000 * players + 100 * BOTS.index(spec) + g, players + 1)
        if g % 2 == 0:
            specs = [spec] * players
        else:
            specs = [BOTS[(s + g) % len(BOTS)] for s in range(players)]
            specs[g % players] = spec
        watched = {s for s in range(players) if specs[s] == spec}
        agents = [make_agent(specs[s], streams[s + 1]) for s in range(players)]
        enclosed_end = ENCLOSED_END_OPTIONS[g % len(ENCLOSED_END_OPTIONS)]
        state = new_state("contack", players, streams[0], RuleOptions(enclosed_end=enclosed_end), log=False)
        d, c = _play_checked(state, agents, watched)
        assert state.done and state.num_hands == 3 and state.hand_number == 2 and state.winners  # all three hands played
        decisions += d
        choices += c
    # The bot really chose: at least ~5 decisions with two or more legal moves per game on average.
    assert decisions >= 10 * GAMES_PER_TABLE and choices >= 5 * GAMES_PER_TABLE, (decisions, choices)


@pytest.mark.parametrize("game", ["solitaire1", "solitaire2"])
@pytest.mark.parametrize("spec", BOTS)
def test_every_bot_plays_only_legal_moves_in_the_solitaires(game, spec):
    for seed in range(4):
        streams = seed_streams(seed, 2)
        state = new_state(game, 1, streams[0], log=False)
        assert _play_checked(state, [make_agent(spec, streams[1])], {0})[0] > 0
        assert state.done


def _twin_games(seed: int, players: int) -> tuple[ContackGame, ContackGame]:
    """Two games with the same deal to the hands but the face-down pile (and the later deals) in other orders."""
    rng = np.random.default_rng(seed)
    decks = [rng.permutation(NUM_TILES).tolist() for _ in range(3)]
    dealt = 5 * players
    other = [d[:dealt] + rng.permutation(d[dealt:]).tolist() for d in decks[:1]]
    other += [rng.permutation(NUM_TILES).tolist() for _ in range(2)]
    assert other[0][dealt:] != decks[0][dealt:]
    return ContackGame(decks, players), ContackGame(other, players)


def _same_view(a: ContackGame, b: ContackGame) -> bool:
    va, vb = public_view(a), public_view(b)
    return (
        va.decks == vb.decks
        and va.hands == vb.hands
        and va.scores == vb.scores
        and va.figure.placed == vb.figure.placed
        and va.figure.last == vb.figure.last
        and va.current_player == vb.current_player
        and va.legal_codes() == vb.legal_codes()
    )


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("spec", BOTS[:3] + ["mcts:30"])
def test_no_bot_can_tell_two_games_that_differ_only_in_the_pile_order(players, spec):
    # Until someone draws (a drawn tile is face up), the two games look the same to everyone: every bot, with
    # the same seed, must see identical views and make identical choices in both.
    compared = 0
    for seed in range(3):
        a, b = _twin_games(seed, players)
        bots_a = [make_agent(spec, 7 + s) for s in range(players)]
        bots_b = [make_agent(spec, 7 + s) for s in range(players)]
        while not a.done and _same_view(a, b):
            legal = a.legal_moves()
            move_a = bots_a[a.current_player].act(public_view(a), legal)
            move_b = bots_b[b.current_player].act(public_view(b), b.legal_moves())
            assert move_a == move_b
            a.play(move_a)
            b.play(move_b)
            compared += 1
    assert compared >= 6


def test_the_views_hidden_part_is_canonical():
    a, b = _twin_games(5, 3)
    for game in (a, b):
        view = public_view(game)
        h = view.hand_number
        assert view.decks[h][view.pile_pos :] == sorted(game.decks[h][game.pile_pos :])
        assert view.decks[h][: view.pile_pos] == game.decks[h][: game.pile_pos]
        assert all(deck == list(range(NUM_TILES)) for deck in view.decks[h + 1 :])
    assert public_view(a).decks == public_view(b).decks


def _twin_solitaires(seed: int):
    """Solitaire pairs that look the same at the start but hide different tiles face down."""
    rng = np.random.default_rng(seed)
    deck = rng.permutation(NUM_TILES).tolist()
    # No. 1: the pile is drawn from the front; only its deeper part (from the 13th tile on) differs.
    one = (Solitaire1(deck), Solitaire1(deck[:12] + rng.permutation(deck[12:]).tolist()))
    # No. 2: stack tops are seen, the tiles under them are not; only the two bottom tiles of stacks 0..5 differ.
    cut = 2
    hidden = [i for k in range(6) for i in (5 * k, 5 * k + 1)]
    other = list(deck)
    for i, t in zip(hidden, rng.permutation([deck[i] for i in hidden]).tolist()):
        other[i] = t
    assert other != deck
    two = (Solitaire2(deck, cut), Solitaire2(other, cut))
    return one, two


def _same_solitaire_view(a, b) -> bool:
    va, vb = public_view(a), public_view(b)
    same = va.figure.placed == vb.figure.placed and va.legal_codes() == vb.legal_codes()
    if isinstance(va, Solitaire1):
        return same and va.deck == vb.deck and va.discard == vb.discard and va.pile_pos == vb.pile_pos
    return same and va.stacks == vb.stacks


@pytest.mark.parametrize("spec", BOTS[:3] + ["mcts:30"])
def test_no_bot_can_tell_solitaires_that_differ_only_face_down(spec):
    compared = 0
    for seed in range(3):
        for a, b in _twin_solitaires(seed):
            bot_a, bot_b = make_agent(spec, 3), make_agent(spec, 3)
            while not a.done and _same_solitaire_view(a, b):
                move_a = bot_a.act(public_view(a), a.legal_moves())
                assert move_a == bot_b.act(public_view(b), b.legal_moves())
                a.play(move_a)
                b.play(move_a)
                compared += 1
    assert compared >= 10
