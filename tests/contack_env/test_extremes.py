"""How far a legal figure reaches (docs/grid_bounds.py, docs/rules.md section 2): the pieces of the bound's proof,
and the stored games that reach every extreme, checked with the engine, the brute-force reference, the records
and the environments."""

from __future__ import annotations

import bruteforce as bf
import numpy as np
import pytest

from contack_env import ContackGame, Move, Solitaire2, new_game
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("grid_bounds", Path(__file__).resolve().parents[2] / "docs" / "grid_bounds.py")
ex = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ex)
from contack_env.envs.replay import replay_through_env
from contack_env.contack.grid import neighbours, side_colour
from contack_env.records.contack import RecordError, game_record, replay
from contack_env.envs.solitaire_v0 import Solitaire2Env
from contack_env.contack.tiles import BLUE, GOLD, NUM_TILES, RED, TILE_VALUES

SOLITAIRE = ex.extreme_solitaire2_deals()
MULTIPLAYER = ex.extreme_multiplayer_deals()


def value_class(v: int) -> int:
    return {0: 0, 1: 1, 4: 1, 2: 2, 3: 2}[v % 5]


# -- the bound -----------------------------------------------------------------------------------------------
def test_every_step_changes_the_potential_by_one():
    for x in range(-6, 7):
        for y in range(-4, 5):
            for side, (nx, ny) in neighbours(x, y).items():
                assert abs(ex.potential(nx, ny) - ex.potential(x, y)) == 1, (x, y, side)


def test_cells_within_35_steps_of_the_origin():
    """Breadth-first over the grid: 35 steps reach x = -35..35 and y = -18..17, and y = -18 only at potential -35."""
    seen = {(0, 0): 0}
    frontier = [(0, 0)]
    for step in range(1, 36):
        nxt = []
        for cell in frontier:
            for other in neighbours(*cell).values():
                if other not in seen:
                    seen[other] = step
                    nxt.append(other)
        frontier = nxt
    xs = [c[0] for c in seen]
    ys = [c[1] for c in seen]
    assert (min(xs), max(xs), min(ys), max(ys)) == (-35, 35, -18, 17)
    assert all(ex.potential(*c) == -35 and seen[c] == 35 for c in seen if c[1] == -18)
    assert all(seen[c] == 35 for c in seen if abs(c[0]) == 35)


def test_a_valid_contact_joins_tiles_of_one_value_class():
    for a in range(1, 11):
        for b in range(1, 11):
            if a == b or (a + b) % 5 == 0:
                assert value_class(a) == value_class(b)


@pytest.mark.parametrize("colour, counts", [(BLUE, [6, 15, 15]), (RED, [7, 14, 15]), (GOLD, [6, 16, 14])])
def test_value_class_counts(colour, counts):
    found = [0, 0, 0]
    for values in TILE_VALUES:
        found[value_class(values[colour])] += 1
    assert found == counts


def test_red_and_blue_have_no_perfect_matching_gold_may():
    """x = 35 needs 18 disjoint red contacts covering all 36 tiles, y = -18 the same in blue; x = -35 in gold."""
    def odd(colour):
        return [len(c) for c in ex.colour_components(colour) if len(c) % 2]

    assert odd(RED) and odd(BLUE)
    assert not odd(GOLD)
    assert sum(len(c) for c in ex.colour_components(RED)) == NUM_TILES


def test_the_row_and_the_zigzag_pair_their_tiles_in_one_colour():
    # The row (0..35, 0): the pairs (2j, 2j + 1) touch across the up cell's R side, which is red; leftwards
    # across its L side, gold. The descending zigzag pairs up cells with the down cell below: blue.
    assert all(side_colour(2 * j, 0, "R") == RED for j in range(18))
    assert all(side_colour(-2 * j, 0, "L") == GOLD for j in range(18))
    cell, path = (0, 0), [(0, 0)]
    for step in range(35):
        x, y = cell
        cell = (x, y - 1) if (x + y) % 2 == 0 else (x - 1, y)  # B from up cells, L from down cells
        path.append(cell)
    assert [ex.potential(*c) for c in path] == list(range(0, -36, -1)) and path[-1][1] == -18
    assert all(side_colour(*path[2 * j], "B") == BLUE and path[2 * j + 1] == neighbours(*path[2 * j])["B"] for j in range(18))


def test_a_two_player_hand_places_at_most_35_tiles():
    for seed in range(150):
        game = new_game(2, num_hands=1, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.done:
            moves = game.legal_moves()
            game.play(moves[rng.integers(len(moves))])
        assert len(game.figure) <= 35


# -- the stored games ----------------------------------------------------------------------------------------
def cells_of(moves):
    return [(m.x, m.y) for m in moves]


@pytest.mark.parametrize("name", ex.SOLITAIRE_EXTREMES)
def test_solitaire_extreme_is_a_won_legal_game(name):
    deck, cut, moves = SOLITAIRE[name]
    game = Solitaire2(deck, cut, trace=True)
    brute = bf.BruteFigure()
    brute.place(moves[0].tile, 0, 0)
    assert game.figure.tile_at(0, 0) == moves[0].tile
    for move in moves[1:]:
        assert move in game.legal_moves()
        assert (move.tile, move.x, move.y) in brute.legal_moves(t for t in game.tops if t is not None)
        game.play(move)
        brute.place(move.tile, move.x, move.y)
    assert game.done and game.won
    assert ex.reaches(name, cells_of(moves))
    assert all(-35 <= x <= 34 and -17 <= y <= 17 for x, y in cells_of(moves))
    record = game_record(game)
    assert replay(record).figure.placed == game.figure.placed
    replay_through_env(record)


@pytest.mark.parametrize("name", ex.SOLITAIRE_EXTREMES)
def test_solitaire_extreme_through_the_environment(name):
    deck, cut, moves = SOLITAIRE[name]
    env = Solitaire2Env()
    obs, info = env.reset(options={"deck": deck, "cut": cut})
    total = 0.0
    for move in moves[1:]:
        action = env.encode_move(move)
        assert env.action_masks()[action]
        assert env.decode_action(action) == move
        assert env.layout.encode(env.layout.decode(action)) == action
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert obs in env.observation_space
    assert terminated and info["is_success"] and total == 1.0
    replay_through_env(env.game_record())


@pytest.mark.parametrize("name", ex.MULTIPLAYER_EXTREMES)
def test_multiplayer_extreme_is_a_legal_two_player_hand(name):
    deck, moves = MULTIPLAYER[name]
    game = ContackGame([deck], 2, num_hands=1, trace=True)
    brute = bf.BruteFigure()
    brute.place(moves[0].tile, 0, 0)
    assert game.figure.tile_at(0, 0) == moves[0].tile
    for move in moves[1:]:
        assert not game.done
        hand = [t for t in range(NUM_TILES) if game.hands[game.current_player] >> t & 1]
        allowed = [game.forced_tile] if game.forced_tile is not None else hand
        assert (move.tile, move.x, move.y) in brute.legal_moves(allowed)
        game.play(move)
        brute.place(move.tile, move.x, move.y)
    assert game.done and ex.reaches(name, cells_of(moves))
    assert all(-34 <= x <= 34 and -17 <= y <= 17 for x, y in cells_of(moves))
    events = game.hand_events[0]
    # Draws and passes are forced along the way: the players' only choices are the chain's tiles.
    assert sum(e["type"] == "draw" for e in events) > 0 and events[-1]["reason"] == "out"
    record = game_record(game)
    assert replay(record).figure.placed == game.figure.placed
    # The code behind `contack replay --check --through-env`: every place becomes an action of contack_v0's
    # encoding, allowed by its mask, however far the figure reaches.
    replay_through_env(record)
    assert_through_env_catches_a_move_off_the_record(record)


def assert_through_env_catches_a_move_off_the_record(record):
    """The environment replay is no rubber stamp: the record's last placement moved to another cell fails."""
    import copy

    bad = copy.deepcopy(record)
    events = bad["hands"][-1]["events"]
    j = max(k for k, e in enumerate(events) if e["type"] == "place")
    x, y = events[j]["cell"]
    events[j]["cell"] = [x + 100, y]
    with pytest.raises(RecordError) as err:
        replay_through_env(bad)
    assert err.value.where == f"hand {len(bad['hands'])}, event {j + 1} (place)"


@pytest.mark.parametrize("name", ex.MULTIPLAYER_EXTREMES)
def test_multiplayer_extreme_through_the_environment(name):
    from contack_env import contack_v0

    deck, moves = MULTIPLAYER[name]
    env = contack_v0.raw_env(num_players=2, num_hands=1)
    env.reset(options={"decks": [deck]})
    for move in moves[1:]:
        action = env.encode_move(move)
        assert env.action_mask()[action]
        assert env.decode_action(action) == move
        assert env.action_layout().encode(env.decode_action(action)) == action
        env.step(action)
    assert env.game.done and ex.reaches(name, [cell for cell in _cells(env.game)])
    record = env.game_record()
    assert replay(record).figure.placed == env.game.figure.placed
    replay_through_env(record)
    assert_through_env_catches_a_move_off_the_record(record)


def test_the_multiplayer_extremes_pass_replay_check_through_env(tmp_path, capsys):
    from contack_env.cli import main
    from contack_env.records.contack import write_records

    records = []
    for name in ex.MULTIPLAYER_EXTREMES:
        deck, moves = MULTIPLAYER[name]
        game = ContackGame([deck], 2, num_hands=1, trace=True)
        for move in moves[1:]:
            game.play(move)
        records.append(game_record(game))
    path = tmp_path / "extremes.jsonl"
    write_records(path, records)
    assert main(["replay", "--check", "--through-env", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"OK {path}:{n}" for n in range(1, len(records) + 1)] + [
        f"{len(records)} passed, 0 failed"
    ]


def _cells(game):
    return [(m.x, m.y) for m in game.figure.placements()]


def test_the_solitaire_deal_releases_the_moves_in_order():
    _, _, moves = SOLITAIRE["y=17"]
    for cut in range(6):
        game = Solitaire2(ex.solitaire2_deal(moves, cut), cut)
        assert game.figure.tile_at(0, 0) == moves[0].tile
        for k, move in enumerate(moves[1:]):
            assert game.tops[k // 5] == move.tile  # stack k//5 holds the next five, in order
            game.play(move)
        assert game.won
    with pytest.raises(ValueError, match="all 36"):
        ex.solitaire2_deal(moves[:-1], 0)


def test_x_minus_35_extends_the_two_player_chain_to_x_minus_34():
    sol = SOLITAIRE["x=-35"][2]
    _, multi = MULTIPLAYER["x=-34"]
    assert sol[:35] == multi and sol[35] == Move(sol[35].tile, -35, 0)


@pytest.mark.parametrize("name", list(ex._SHAPES))
def test_the_stored_games_are_what_the_search_finds(name):
    stored = ex._DATA[name]
    found = ex._search(name, stored["seed"])
    assert found is not None
    assert found.solitaire_moves == ex._parse_moves(stored["chain"])
    assert [ex.TILE_NAMES[t] for t in found.multiplayer_deck] == stored["deck"].split()
    assert len(found.multiplayer_moves) == stored["played"] == len(MULTIPLAYER[name][1])
