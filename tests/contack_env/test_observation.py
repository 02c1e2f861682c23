"""The multiplayer observation: its layout, its meaning on hand-built positions, and the fast builder against the
reference implementation."""

from __future__ import annotations


import numpy as np
import pytest

import contack_env.envs.contack_v0 as contack_v0
import contack_env.envs.observation as ob
from contack_env import ContackGame, Figure, Move, new_game
from contack_env.envs.actions import NUM_CELL_SLOTS, ActionLayout, candidate_cells
from contack_env.envs.figure_features import CELL_COLUMNS
from contack_env.contack.grid import cell_index
from contack_env.contack.tiles import TILE_VALUES, tile_id, tiles_in
from contack_env.envs.observation import ObservationBuilder, observation_vector


def load_grid_bounds():
    """``docs/grid_bounds.py``, the proof of how far a figure reaches (a script, not part of the package)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("grid_bounds", Path(__file__).resolve().parents[2] / "docs" / "grid_bounds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the layout --------------------------------------------------------------------------------------------------


def test_the_env_card_shows_the_layouts_table():
    assert ob.LAYOUT.card_table() in contack_v0.__doc__, "the contack_v0 card's observation table is out of date:\n" + ob.LAYOUT.card_table()
    assert f"({ob.OBS_SIZE},)" in contack_v0.__doc__
    assert f"Discrete({ob.NUM_ACTIONS})" in contack_v0.__doc__


def test_the_layout_is_the_one_the_shipped_policies_were_trained_on():
    # Where each piece starts (and the size): moving one would feed every trained policy the wrong inputs.
    starts = {piece.name: ob.LAYOUT.start(piece.name) for piece in ob.LAYOUT}
    assert starts == {
        "tiles": 0, "cells": 432, "hand": 621, "points": 646, "pile": 751, "hand_number": 752, "hands_left": 753,
        "last_hand": 754, "scores": 755, "lead": 762, "hand_sizes": 763, "passes": 770, "to_move": 771,
        "players": 778, "enclosed_end": 784,
    }
    assert ob.OBS_SIZE == 787
    assert ob.NUM_ACTIONS == 5 * NUM_CELL_SLOTS == 105
    assert [ob.TILE_COLUMNS[c] for c in ("held", "figure", "unseen", "x", "y", "last")] == [0, 7, 8, 9, 10, 11]
    assert [ob.HAND_COLUMNS[c] for c in ("present", "values", "forced")] == [0, 1, 4]


def test_only_the_score_components_may_be_negative():
    negative = np.flatnonzero(ob.OBS_LOW < 0)
    assert negative.tolist() == list(range(755, 763))
    assert (ob.OBS_HIGH == 1).all()


# -- meaning on hand-built positions -----------------------------------------------------------------------------


def _tile_row(obs: np.ndarray, name: str) -> np.ndarray:
    return ob.LAYOUT.view(obs, "tiles")[tile_id(name)]


def _cell_rows(obs: np.ndarray) -> np.ndarray:
    return ob.LAYOUT.view(obs, "cells")


def _hand_rows(obs: np.ndarray) -> np.ndarray:
    return ob.LAYOUT.view(obs, "hand")


def _at(obs: np.ndarray, name: str) -> np.ndarray:
    return ob.LAYOUT.view(obs, name)


T = ob.TILE_COLUMNS
C = CELL_COLUMNS


# docs/rules.md section 8.1: 01-02-03 opens at (0, 0); 09-02-08 on (0, -1) scores 10 (blue 1 + blue 9).
OPENING = [("01-02-03", 0, 0)]


@pytest.fixture
def three_seats(position):
    """Seat 2 to move with 09-02-08 and 09-05-08 in hand; seat 0 and seat 1 hold other tiles; 05-06-07 is in
    the pile (drawn by no one)."""
    return position(
        hands=[["03-04-01", "05-01-04"], ["01-05-06"], ["09-02-08", "09-05-08", "10-06-09"]],
        board=OPENING,
        to_move=2,
        scores=[40, -20, 950],
    )


def test_tiles_are_located_by_seat_relative_to_the_observer(three_seats):
    game = three_seats
    obs = observation_vector(game, 2)
    # Seat 2 is the observer (relative 0), seat 0 plays after it (relative 1), seat 1 after that (relative 2).
    assert _tile_row(obs, "09-02-08")[:9].tolist() == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert _tile_row(obs, "03-04-01")[:9].tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert _tile_row(obs, "01-05-06")[:9].tolist() == [0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert _tile_row(obs, "05-06-07")[:9].tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 1]  # unseen: in the pile
    opening = _tile_row(obs, "01-02-03")
    assert opening[T["figure"]] == 1 and opening[T["last"]] == 1
    assert opening[T["x"]] == pytest.approx(35 / 70) and opening[T["y"]] == pytest.approx(17 / 34)
    # From seat 1's point of view the same tiles sit at other relative seats.
    other = observation_vector(game, 1)
    assert _tile_row(other, "01-05-06")[0] == 1
    assert _tile_row(other, "09-02-08")[1] == 1
    assert _tile_row(other, "03-04-01")[2] == 1
    assert (_at(obs, "tiles")[:, :9].sum(axis=1) == 1).all()


def test_cell_slots_follow_the_action_encoding(three_seats):
    game = three_seats
    obs = observation_vector(game, 2)
    rows = _cell_rows(obs)
    cells = candidate_cells(game.figure)
    # The opening tile (up cell (0, 0)) is the last-played one: slots 0, 1, 2 are (-1, 0), (1, 0), (0, -1).
    assert cells[:3] == [cell_index(-1, 0), cell_index(1, 0), cell_index(0, -1)]
    assert rows[3:].sum() == 0  # no hole yet
    left, right, below = rows[0], rows[1], rows[2]
    assert left[C["present"]] == 1 and left[C["up"]] == 0  # (-1, 0) points down
    assert left[C["x"]] == pytest.approx(34 / 70) and left[C["y"]] == pytest.approx(17 / 34)
    assert left[C["neighbours"]] == pytest.approx(1 / 3) and left[C["beside_last"]] == 1
    # 01-02-03 on an up cell shows gold 3 on its L side (facing the R side of (-1, 0)), red 2 on R, blue 1 on B.
    assert left[C.span("facing")].tolist() == pytest.approx([0, 0.3, 0])
    assert right[C.span("facing")].tolist() == pytest.approx([0.2, 0, 0])
    assert below[C.span("facing")].tolist() == pytest.approx([0, 0, 0.1])


def test_a_hole_shows_its_three_neighbours_and_the_numbers_it_faces(position, boards):
    # docs/rules.md worked example 4: the down cell (1, 0) touches red 6 on its left (02-06-07), gold 10 on its
    # right (02-09-10) and blue 7 above (07-08-02), the last tile played.
    game = position(hands=[["09-05-08"], ["10-06-09"]], board=boards["three_sided_50"])
    slot = candidate_cells(game.figure).index(cell_index(1, 0))
    hole = _cell_rows(observation_vector(game, 0))[slot]
    assert hole[C["present"]] == 1 and hole[C["up"]] == 0 and hole[C["beside_last"]] == 1
    assert hole[C["neighbours"]] == pytest.approx(1.0)  # three of three
    assert hole[C.span("facing")].tolist() == pytest.approx([0.6, 1.0, 0.7])


def test_hand_slots_and_action_points(three_seats):
    game = three_seats
    obs = observation_vector(game, 2)
    hand = _hand_rows(obs)
    own = sorted(tile_id(n) for n in ["09-02-08", "09-05-08", "10-06-09"])
    for slot, t in enumerate(own):
        assert hand[slot].tolist() == pytest.approx([1, *(v / 10 for v in TILE_VALUES[t]), 0])
    assert hand[3:].sum() == 0
    layout = ActionLayout(5, own, game.figure)
    points = _at(obs, "points")
    legal = {layout.encode(m): m for m in game.legal_moves()}
    assert legal, "the fixture must leave seat 2 a move"
    for action in range(ob.NUM_ACTIONS):
        if action in legal:
            m = legal[action]
            assert points[action] == pytest.approx(game.figure.points_for(m.tile, cell_index(m.x, m.y)) / 50)
        else:
            assert points[action] == 0
    # docs/rules.md section 8.1: 09-02-08 below the opening scores 10.
    assert points[layout.encode(Move(tile_id("09-02-08"), 0, -1))] == pytest.approx(0.2)
    # Another seat's view has no action points.
    assert _at(observation_vector(game, 0), "points").sum() == 0


def test_scalars(three_seats):
    game = three_seats
    obs = observation_vector(game, 2)
    assert _at(obs, "pile") == pytest.approx(game.pile_size / 36)
    assert _at(obs, "hand_number") == 0 and _at(obs, "hands_left") == 0 and _at(obs, "last_hand") == 1
    # Scores by relative seat: seat 2 (950, clipped), seat 0 (40), seat 1 (-20).
    assert _at(obs, "scores").tolist() == pytest.approx([1, 40 / 300, -20 / 300, 0, 0, 0, 0])
    assert _at(obs, "lead") == 1  # 950 - 40, clipped
    assert _at(observation_vector(game, 1), "lead") == pytest.approx(-1)  # -20 - 950, clipped
    assert _at(obs, "hand_sizes").tolist() == pytest.approx([3 / 5, 2 / 5, 1 / 5, 0, 0, 0, 0])
    assert _at(obs, "to_move").tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert _at(observation_vector(game, 0), "to_move").tolist() == [0, 0, 1, 0, 0, 0, 0]
    assert _at(obs, "players").tolist() == [0, 1, 0, 0, 0, 0]  # 3 players
    assert _at(obs, "enclosed_end").tolist() == [1, 0, 0]


def test_forced_tile_flag(position):
    # Seat 0 holds nothing that fits beside the opening, draws 10-06-09 ... then 09-02-08, which fits: it must
    # place that one (docs/rules.md section 5.3).
    game = position(hands=[["03-04-01"], ["01-05-06", "05-06-07"]], board=OPENING, pile_top=["09-02-08"], to_move=0)
    assert game.forced_tile == tile_id("09-02-08")
    assert {m.tile for m in game.legal_moves()} == {tile_id("09-02-08")}
    obs = observation_vector(game, 0)
    hand = _hand_rows(obs)
    slots = tiles_in(game.hands[0])
    assert hand[slots.index(tile_id("09-02-08")), ob.HAND_COLUMNS["forced"]] == 1
    assert hand[:, ob.HAND_COLUMNS["forced"]].sum() == 1
    assert _hand_rows(observation_vector(game, 1))[:, ob.HAND_COLUMNS["forced"]].sum() == 0


# -- hidden information: the pile order ----------------------------------------------------------------------------


def test_pile_order_never_shows_in_a_dealt_game():
    rng = np.random.default_rng(3)
    for players in (2, 4, 6):  # 7 players leave a pile of one tile: no order to hide
        deck = rng.permutation(36).tolist()
        dealt = 5 * players
        other = deck[:dealt] + rng.permutation(deck[dealt:]).tolist()
        assert other != deck
        a = ContackGame([deck], players, num_hands=1)
        b = ContackGame([other], players, num_hands=1)
        # Until someone draws, the two games are the same but for the pile order.
        moves = 0
        while not a.done and a.pile_pos == dealt and b.pile_pos == dealt:
            for seat in range(players):
                assert np.array_equal(observation_vector(a, seat), observation_vector(b, seat))
                assert np.array_equal(ObservationBuilder(a).observe(seat)[0], ObservationBuilder(b).observe(seat)[0])
            code = a.legal_codes()[0]
            a.play_code(code)
            b.play_code(code)
            moves += 1
        assert moves >= 1


def test_pile_order_never_shows_mid_hand(position):
    hands = [["03-04-01", "05-01-04"], ["01-05-06"], ["09-02-08", "09-05-08"]]
    a = position(hands=hands, board=OPENING, to_move=2)
    pile = a.deck[a.pile_pos :]
    b = ContackGame.from_position(
        [[tile_id(n) for n in h] for h in hands], Figure.from_placements([(tile_id("01-02-03"), 0, 0)]), pile[::-1], 2
    )
    for seat in range(3):
        assert np.array_equal(observation_vector(a, seat), observation_vector(b, seat))
        assert np.array_equal(ObservationBuilder(a).observe(seat)[0], ObservationBuilder(b).observe(seat)[0])


# -- the fast builder against the reference --------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_builder_equals_the_reference_at_every_decision_for_every_seat(players):
    rng = np.random.default_rng(players)
    for game_number, enclosed_end in enumerate(("1939", "next_player", "never")):
        game = new_game(players, num_hands=2, enclosed_end=enclosed_end, seed=100 * players + game_number)
        builder = ObservationBuilder(game)
        while True:
            layout = None if game.done else ActionLayout(5, tiles_in(game.hands[game.current_player]), game.figure)
            for seat in range(players):
                expected = observation_vector(game, seat)
                acting = layout is not None and seat == game.current_player
                # The candidate cells are passed for some seats and computed by the builder for others.
                cells = candidate_cells(game.figure) if seat % 2 else None
                obs, mask = builder.observe(seat, cells, game.legal_codes() if acting else None)
                np.testing.assert_array_equal(obs, expected)
                assert obs.dtype == np.float32 and obs.shape == (ob.OBS_SIZE,)
                assert ((obs >= ob.OBS_LOW) & (obs <= ob.OBS_HIGH)).all()
                if acting:
                    assert sorted(layout.decode_code(a) for a in np.flatnonzero(mask)) == game.legal_codes()
                else:
                    assert not mask.any()
            if game.done:
                break
            codes = game.legal_codes()
            game.play_code(codes[rng.integers(len(codes))])


def test_builder_follows_a_from_position_game(position):
    game = position(hands=[["03-04-01", "05-01-04"], ["01-05-06"], ["09-02-08", "09-05-08"]], board=OPENING, to_move=2)
    builder = ObservationBuilder(game)
    while not game.done:
        for seat in range(3):
            np.testing.assert_array_equal(builder.observe(seat)[0], observation_vector(game, seat, with_actions=False))
        game.play_code(game.legal_codes()[0])


def test_every_observation_is_a_fresh_array():
    game = new_game(3, seed=1)
    builder = ObservationBuilder(game)
    first, mask = builder.observe(game.current_player)
    kept = first.copy()
    second, _ = builder.observe(game.current_player)
    assert first is not second and not np.shares_memory(first, second)
    second[:] = 0.5
    np.testing.assert_array_equal(first, kept)
    game.play_code(game.legal_codes()[0])
    builder.observe(game.current_player)
    np.testing.assert_array_equal(first, kept)


def test_scores_far_out_of_scale_are_clipped(position):
    game = position(hands=[["03-04-01"], ["01-05-06"]], board=OPENING, to_move=0, scores=[-5000, 5000])
    for seat in range(2):
        obs = observation_vector(game, seat)
        assert ((obs >= ob.OBS_LOW) & (obs <= ob.OBS_HIGH)).all()
    assert _at(observation_vector(game, 0), "scores")[:2].tolist() == [-1, 1]


def test_bad_observer_is_refused():
    game = new_game(2, seed=0)
    with pytest.raises(ValueError, match="observer is a seat, 0..1"):
        observation_vector(game, 2)
    with pytest.raises(ValueError, match="observer is a seat, 0..1"):
        ObservationBuilder(game).observe(-1)


def test_observations_stay_in_bounds_at_the_edges_of_the_grid():
    """The two-player deals of ``docs/grid_bounds.py`` reach x = -34, x = 34, y = 17 and y = -17 (where a free
    neighbour, a candidate cell, lies just beyond the bound): every observation on the way is the reference
    one and within the Box bounds."""
    from contack_env import contack_v0
    extreme_multiplayer_deals = load_grid_bounds().extreme_multiplayer_deals

    reached = []
    for name, (deck, moves) in extreme_multiplayer_deals().items():
        env = contack_v0.raw_env(num_players=2, num_hands=1)
        env.reset(options={"decks": [deck]})
        for move in moves[1:]:
            for agent in env.agents:
                obs = env.observe(agent)["observation"]
                assert ((obs >= ob.OBS_LOW) & (obs <= ob.OBS_HIGH)).all()
                np.testing.assert_array_equal(obs, observation_vector(env.game, env.possible_agents.index(agent)))
            env.step(env.encode_move(move))
        reached.append(name)
        xs = [m.x for m in env.game.figure.placements()]
        ys = [m.y for m in env.game.figure.placements()]
        assert min(xs) == -34 or max(xs) == 34 or min(ys) == -17 or max(ys) == 17
    assert len(reached) == 4
