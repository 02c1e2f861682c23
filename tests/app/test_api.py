"""The web app's API through Starlette's test client: the engine is the authority, stale and forged requests
change nothing, the pile's order stays on the server, games are capped and expire, models come only from the
models folders, uploads are capped."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from app_helpers import MODELS, advance_bots, new_game, person_move, play_out

from contack_env.records import replay
from contack_env.contack.tiles import NUM_TILES


def state_of(client, game):
    response = client.get(f"/api/games/{game['id']}")
    assert response.status_code == 200
    return response.json()


# -- a whole game -------------------------------------------------------------------------------------------
def test_a_whole_game_against_greedy_ends_with_a_record_that_replays_to_the_shown_result(client):
    game = play_out(client, new_game(client, seats=["person", "greedy"], seed=21))
    state = game["state"]
    assert state["done"] and state["to_move"] is None and state["legal"] == []
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["agents"] == ["person", "greedy"] and record["seed"] == 21
    final = replay(record)  # every event checked by the engine
    assert final.scores == state["scores"] and final.winners == state["winners"]
    assert game["version"] == sum(1 for h in record["hands"] for e in h["events"] if e["type"] == "place")
    ends = [t["text"] for t in game["log"] if t["text"].startswith("The hand ends")]
    assert len(ends) == 3
    for hand, text in zip(record["hands"], ends):
        end = hand["events"][-1]
        if end["reason"] == "out":
            placer = [e for e in hand["events"] if e["type"] == "place"][-1]["seat"]
            assert f"seat {placer} (" in text and "went out" in text


def test_the_same_seed_deals_the_same_game(client):
    a = new_game(client, seats=["person", "random", "random"], seed=5)
    b = new_game(client, seats=["person", "random", "random"], seed=5)
    c = new_game(client, seats=["person", "random", "random"], seed=6)
    assert a["state"]["held"] == b["state"]["held"]
    assert a["state"]["held"] != c["state"]["held"]


def test_the_record_is_refused_while_the_game_goes_on(client):
    game = new_game(client, seed=1)
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 409 and "over" in response.json()["error"]


def test_legal_moves_carry_the_points_the_engine_scores(client):
    game = advance_bots(client, new_game(client, seats=["person", "random"], seed=3))
    for _ in range(4):
        best = max(game["state"]["legal"], key=lambda m: m["points"])
        before = game["state"]["scores"][0]
        response = person_move(client, game, best)
        assert response.status_code == 200
        game = response.json()
        if game["state"]["hand"] != 1:
            break  # a hand end adds penalties
        assert game["state"]["scores"][0] == before + best["points"]
        game = advance_bots(client, game)


# -- forged and stale requests ------------------------------------------------------------------------------
def forged_cell(game):
    """A move of a tile in the person's hand to a frontier cell where the rules do not allow it."""
    state = game["state"]
    legal = {(m["tile"], m["x"], m["y"]) for m in state["legal"]}
    seat = state["to_move"]
    for tile in state["held"][seat]:
        for x, y in state["frontier"]:
            if (tile, x, y) not in legal:
                return {"tile": tile, "x": x, "y": y}
    raise AssertionError("every tile fits every frontier cell")


@pytest.mark.parametrize(
    "forge",
    [
        forged_cell,
        lambda g: {"tile": g["state"]["held"][1][0], "x": g["state"]["legal"][0]["x"], "y": g["state"]["legal"][0]["y"]},
        lambda g: {"tile": 99, "x": 0, "y": 1},
        lambda g: {"tile": g["state"]["legal"][0]["tile"], "x": "1", "y": 0},
        lambda g: {"tile": g["state"]["legal"][0]["tile"], "x": 0, "y": 0},  # the opening tile's cell
        lambda g: {"tile": g["state"]["legal"][0]["tile"], "x": 10**9, "y": 0},
    ],
    ids=["illegal-cell", "another-seats-tile", "no-such-tile", "cell-not-numbers", "occupied-cell", "far-away"],
)
def test_a_forged_move_is_refused_with_a_reason_and_changes_nothing(client, forge):
    game = advance_bots(client, new_game(client, seats=["person", "greedy"], seed=8))
    before = state_of(client, game)
    response = person_move(client, game, forge(game))
    assert response.status_code == 400
    assert response.json()["error"]
    assert state_of(client, game) == before


def test_a_stale_or_repeated_move_is_refused_and_changes_nothing(client):
    game = advance_bots(client, new_game(client, seats=["person", "person"], seed=2))
    first = game["state"]["legal"][0]
    assert person_move(client, game, first).status_code == 200
    after = state_of(client, game)
    # The same request again (a double click, a second tab): made at the old version.
    response = person_move(client, game, first)
    assert response.status_code == 409 and "stale" in response.json()["error"]
    # Even a move that is legal now is refused when sent with an old version.
    now_legal = after["state"]["legal"][0]
    response = person_move(client, game, now_legal)
    assert response.status_code == 409
    assert state_of(client, game) == after
    # From the current version the same move is played.
    assert person_move(client, after, now_legal).status_code == 200


def test_moves_out_of_turn_are_refused(client):
    game = next(g for g in (new_game(client, seats=["greedy", "person"], seed=k) for k in range(30)) if not g["person_to_move"])
    before = state_of(client, game)
    response = person_move(client, game, game["state"]["legal"][0])  # a legal move, but the bot's
    assert response.status_code == 409 and "bot" in response.json()["error"]
    assert state_of(client, game) == before
    game = advance_bots(client, game)
    assert game["person_to_move"]
    response = client.post(f"/api/games/{game['id']}/bot", json={"version": game["version"]})
    assert response.status_code == 409 and "person" in response.json()["error"]
    assert state_of(client, game) == game | {"id": game["id"]}


@pytest.mark.parametrize(
    "body, headers, status",
    [
        ("{}", {"Content-Type": "application/json"}, 400),  # no version
        ('{"version": "0"}', {"Content-Type": "application/json"}, 400),
        ("{not json", {"Content-Type": "application/json"}, 400),
        ('{"version": 0, "tile": 0, "x": 0, "y": 1}', {"Content-Type": "text/plain"}, 415),  # what a form could send
        ("[1, 2]", {"Content-Type": "application/json"}, 400),
    ],
)
def test_malformed_requests_get_a_4xx_and_a_reason(client, body, headers, status):
    game = new_game(client, seats=["person", "person"], seed=1)
    before = state_of(client, game)
    response = client.post(f"/api/games/{game['id']}/move", content=body, headers=headers)
    assert response.status_code == status
    assert response.json()["error"]
    assert state_of(client, game) == before


def test_an_unknown_game_is_404(client):
    response = client.post("/api/games/nosuchgame/move", json={"version": 0, "tile": 0, "x": 0, "y": 1})
    assert response.status_code == 404 and "no such game" in response.json()["error"]


@pytest.mark.parametrize(
    "table, words",
    [
        ({"game": "contack", "seats": ["person"]}, "2 to 7"),
        ({"game": "contack", "seats": ["person"] * 8}, "2 to 7"),
        ({"game": "chess", "seats": ["person", "person"]}, "game is one of"),
        ({"game": "contack", "seats": ["person", "alphazero"]}, "unknown agent"),
        ({"game": "contack", "seats": ["person", "mcts:999999999"]}, "budget"),
        ({"game": "contack", "seats": ["person", "mcts:20001"]}, "at most mcts:20000"),
        ({"game": "contack", "seats": ["person", "greedy"], "hands": 0}, "hands"),
        ({"game": "contack", "seats": ["person", "greedy"], "enclosed_end": "sometimes"}, "enclosed_end"),
        ({"game": "contactix", "seats": ["person", "random"], "board_size": 40}, "board_size"),
        ({"game": "solitaire1", "seats": ["person", "greedy"]}, "1 player"),
        ({"game": "contack", "seats": ["person", "greedy"], "seed": -1}, "seed"),
        ({"game": ["contack"], "seats": ["person", "greedy"]}, "game is one of"),
        ({"game": "contack", "seats": ["person", "az:contack_2p_az.npz:²"]}, "at most two whole numbers of 0 or more, SIMS and ENDGAME (az:NAME[:SIMS[:ENDGAME]]); got '²'"),
    ],
)
def test_a_bad_table_is_refused_with_what_is_allowed(client, table, words):
    response = client.post("/api/games", json=table)
    assert response.status_code == 400
    assert words in response.json()["error"]


@pytest.mark.parametrize("body, words", [
    ("[" * 20_000 + "]" * 20_000, "does not read: nested too deeply"),  # past the interpreter's recursion limit
    ('{"game": "contack", "seats": ["person", "greedy"], "seed": ' + "9" * 5000 + "}",
     "does not read: a number of more than 4300 digits"),
    # A lone surrogate is no character: echoed in a message (an unknown agent), it failed the answer as it was sent.
    ('{"game": "contack", "seats": ["person", "mcts:\\ud800"]}', "lone surrogate"),
])
def test_json_the_server_cannot_read_is_refused_not_a_server_error(client, body, words):
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and words in response.json()["error"]
    assert "sys." not in response.json()["error"]  # words for the page's user, not Python's advice


# -- the pile's order ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_name, seats", [("contack", ["person", "greedy", "random"]), ("solitaire1", ["person"]), ("solitaire2", ["person"])])
def test_what_the_page_gets_does_not_depend_on_the_hidden_order(client, game_name, seats):
    game = advance_bots(client, new_game(client, game=game_name, seats=seats, seed=9))
    for move in game["state"]["legal"][:1]:
        game = advance_bots(client, person_move(client, game, move).json())
    text = client.get(f"/api/games/{game['id']}").text
    assert '"deck' not in text and "cut" not in text
    # Shuffle what is face down on the server; the page's view must not change by a byte.
    session = client.app.state.games.get(game["id"])
    state = session.state
    rng = np.random.default_rng(0)
    if game_name == "contack":
        h, pos = state.hand_number, state.pile_pos
        deck = state.decks[h]
        hidden = deck[pos:]
        assert len(hidden) > 1
        state.decks = state.decks[:h] + [deck[:pos] + [hidden[i] for i in rng.permutation(len(hidden))]] + [
            rng.permutation(NUM_TILES).tolist() for _ in state.decks[h + 1 :]
        ]
    elif game_name == "solitaire1":
        hidden = state.deck[state.pile_pos :]
        assert len(hidden) > 1
        state.deck = state.deck[: state.pile_pos] + [hidden[i] for i in rng.permutation(len(hidden))]
    else:
        under = [t for s in state.stacks for t in s[:-1]]
        order = [under[i] for i in rng.permutation(len(under))]
        for s in state.stacks:
            k = len(s) - 1
            if k > 0:
                s[:k], order = order[:k], order[k:]
    assert client.get(f"/api/games/{game['id']}").text == text


def test_the_seed_which_would_give_the_deals_away_is_shown_only_at_the_end(client):
    game = new_game(client, seats=["person", "greedy"])  # a fresh seed, drawn by the server
    assert game["seed"] is None
    game = play_out(client, game)
    assert isinstance(game["seed"], int)
    assert client.get(f"/api/games/{game['id']}/record").json()["seed"] == game["seed"]


# -- caps and expiry ----------------------------------------------------------------------------------------
def test_games_are_capped_and_idle_ones_expire(make_client, clock):
    client = make_client(max_games=2, idle_seconds=600)
    a = new_game(client, seed=1)
    clock.now += 400
    b = new_game(client, seed=2)
    response = client.post("/api/games", json={"game": "contack", "seats": ["person", "greedy"]})
    assert response.status_code == 429 and "too many games" in response.json()["error"]
    clock.now += 300  # a has stood 700 s unused, b 300 s
    assert client.get(f"/api/games/{a['id']}").status_code == 404
    assert client.get(f"/api/games/{b['id']}").status_code == 200  # and this use keeps it open
    c = new_game(client, seed=3)
    clock.now += 599
    assert client.get(f"/api/games/{b['id']}").status_code == 200
    assert client.get(f"/api/games/{c['id']}").status_code == 200
    clock.now += 600
    for g in (b, c):
        response = client.post(f"/api/games/{g['id']}/move", json={"version": 0, "tile": 0, "x": 0, "y": 1})
        assert response.status_code == 404


def test_at_the_cap_a_finished_game_makes_room_and_one_in_play_never_does(make_client, clock):
    client = make_client(max_games=2, idle_seconds=600)
    finished = play_out(client, new_game(client, seats=["greedy", "greedy"], seed=1))
    assert finished["state"]["done"]
    clock.now += 1
    playing = new_game(client, seed=2)
    third = client.post("/api/games", json={"game": "contack", "seats": ["person", "greedy"], "seed": 3})
    assert third.status_code == 201, third.text
    assert client.get(f"/api/games/{finished['id']}").status_code == 404
    assert client.get(f"/api/games/{playing['id']}").status_code == 200
    full = client.post("/api/games", json={"game": "contack", "seats": ["person", "greedy"]})
    assert full.status_code == 429
    assert "finish" not in full.json()["error"] and "minutes" in full.json()["error"]


@pytest.mark.parametrize("game, seats, rules", [
    ("contack", ["person", "greedy"], {"hands": 2, "enclosed_end": "never"}),
    ("solitaire1", ["person"], {}),
    ("contactix", ["person", "random"], {"board_size": 5, "swap": True}),
])
def test_a_table_takes_and_reports_its_own_rule_options_and_refuses_others(client, game, seats, rules):
    table = new_game(client, game=game, seats=seats, **rules)
    assert table["rules"] == rules  # the game's own options, no others
    others = {"hands": 2, "enclosed_end": "never", "board_size": 5, "swap": True}
    for name, value in others.items():
        if name in rules:
            continue
        response = client.post("/api/games", json={"game": game, "seats": seats, name: value})
        assert response.status_code == 400, (game, name)
        assert response.json()["error"].startswith(f"{name}: not a rule option of "), response.text


def test_ids_are_not_guessable_counters(client):
    ids = {new_game(client, seed=k)["id"] for k in range(5)}
    assert len(ids) == 5 and all(len(i) >= 16 for i in ids)


def _needs_an_argument(arg, rng, game):
    if arg is None:
        raise ValueError("takes DEPTH")
    return lambda state, legal: legal[0]


def _fails_bare(arg, rng, game):
    raise TypeError("a plugin's own bug")


def test_the_page_offers_the_agents_of_your_own_a_bare_name_seats(client):
    from agents.registry import register, unregister

    register("firstmove", lambda arg, rng, game: (lambda state, legal: legal[0]), games="contack")
    register("needsdepth", _needs_an_argument, games="contack")
    register("broken", _fails_bare, games="contack")
    try:
        bots = client.get("/api/options").json()["bots"]
        assert "firstmove" in bots["contack"] and "firstmove" not in bots["contactix"]
        assert "needsdepth" not in bots["contack"] and "broken" not in bots["contack"]
        finished = advance_bots(client, new_game(client, seats=["firstmove", "random"], seed=1, hands=1))
        assert finished["state"]["done"]
        # the API still seats the agent with its argument
        finished = advance_bots(client, new_game(client, seats=["needsdepth:2", "random"], seed=1, hands=1))
        assert finished["state"]["done"]
    finally:
        for name in ("firstmove", "needsdepth", "broken"):
            unregister(name)


def _raises(arg, rng, game):
    def act(state, legal):
        raise RuntimeError("a plugin's own bug")
    return act


def _fails_with_an_argument(arg, rng, game):
    if arg is not None:
        raise TypeError("a plugin's own bug with its argument")
    return lambda state, legal: legal[0]


def test_an_agent_of_your_own_whose_factory_fails_is_reported_in_json(client):
    from agents.registry import register, unregister

    register("picky", _fails_with_an_argument, games="contack")
    try:
        response = client.post("/api/games", json={"game": "contack", "seats": ["person", "picky:3"]})
        assert response.status_code == 500
        assert response.json()["error"] == "seat 1: picky:3 could not be made: TypeError: a plugin's own bug with its argument"
    finally:
        unregister("picky")


def test_a_bot_of_your_own_that_fails_is_reported_and_the_game_kept(client):
    from agents.registry import register, unregister

    register("raises", _raises, games="contack")
    register("offboard", lambda arg, rng, game: (lambda state, legal: None), games="contack")
    try:
        for name, words in (("raises", "seat 1 (raises)'s bot failed: RuntimeError: a plugin's own bug"),
                            ("offboard", "seat 1 (offboard)'s bot chose a move the game refuses (None)")):
            game = new_game(client, seats=["greedy", name], seed=1)
            game = client.post(f"/api/games/{game['id']}/bot", json={"version": game["version"]}).json()  # greedy
            response = client.post(f"/api/games/{game['id']}/bot", json={"version": game["version"]})
            assert response.status_code == 500 and response.json()["error"].startswith(words), response.text
            kept = client.get(f"/api/games/{game['id']}").json()
            assert kept["version"] == game["version"] and kept["state"] == game["state"]  # nothing was played
    finally:
        unregister("raises")
        unregister("offboard")


# -- models -------------------------------------------------------------------------------------------------
def test_options_list_the_models_with_their_game(client):
    models = {m["name"]: m for m in client.get("/api/options").json()["models"]}
    assert models["contack_2p.npz"]["game"] == "contack" and models["contack_2p.npz"]["players"] == 2
    assert (models["contactix_5x5.npz"]["board_size"], models["contactix_5x5.npz"]["swap"]) == (5, False)
    assert models["solitaire1.npz"]["game"] == "solitaire1"


def test_a_damaged_model_file_is_left_out_of_the_list_or_refused_by_name(make_client, tmp_path):
    # The zip directories are whole; the compressed data of one member is not. Reading the list failed (a 500 for
    # every page) when it was the listing's member, seating the model failed when it was the weights'.
    from damaged_archive import damaged_copy

    shutil.copy(MODELS / "contack_2p.npz", tmp_path / "good.npz")
    damaged_copy(MODELS / "contack_2p.npz", tmp_path / "bad_meta.npz", "meta.npy")
    damaged_copy(MODELS / "contack_2p_az.npz", tmp_path / "bad_weights.npz", "w0.npy")
    client = make_client(models=(tmp_path,))
    response = client.get("/api/options")
    assert response.status_code == 200
    assert [m["name"] for m in response.json()["models"]] == ["bad_weights.npz", "good.npz"]
    response = client.post("/api/games", json={"game": "contack", "seats": ["person", "az:bad_weights.npz"]})
    assert response.status_code == 400
    assert response.json()["error"] == ("seat 1: bad_weights.npz is a .npz archive whose contents are damaged (Error -3 "
                                        "while decompressing data: invalid block type): copy or write it again")
    assert str(tmp_path) not in response.text
    assert new_game(client, seats=["person", "ppo:good.npz"])["seats"][1]["agent"] == "ppo:good.npz"


def test_at_the_cap_no_model_is_loaded_for_a_game_that_cannot_be_kept(make_client, monkeypatch):
    from contack_env.app import sessions

    client = make_client(max_games=1)
    new_game(client, seed=1)
    made = []
    create = sessions.GameSession.create
    monkeypatch.setattr(sessions.GameSession, "create", staticmethod(lambda *a: made.append(a) or create(*a)))
    response = client.post("/api/games", json={"game": "contack", "seats": ["person", "az:contack_2p_az.npz"]})
    assert response.status_code == 429 and not made
    # a malformed table at the cap is still told what is wrong with it
    response = client.post("/api/games", json={"game": "contack", "seats": ["person", "greedy"], "hands": 0})
    assert response.status_code == 400 and "hands" in response.json()["error"]


def test_a_shipped_model_takes_a_seat(client):
    game = advance_bots(client, new_game(client, seats=["person", "ppo:contack_2p.npz"], seed=3))
    assert game["seats"][1]["agent"] == "ppo:contack_2p.npz"
    assert str(MODELS) not in json.dumps(game)  # the page knows a model by its name only


@pytest.mark.parametrize(
    "spec",
    [
        "ppo:../models/contack_2p.npz",
        f"ppo:{MODELS / 'contack_2p.npz'}",
        "ppo:models/contack_2p.npz",
        "ppo:..%2fcontack_2p.npz",
        "ppo:",
        "ppo:outside.npz",
        "az:../models/contack_2p_az.npz",
        f"az:{MODELS / 'contack_2p_az.npz'}",
        f"az:{MODELS / 'contack_2p_az.npz'}:40",
        "az:models/contack_2p_az.npz",
        "az:/etc/passwd",
        "az:",
        "az:outside.npz",
    ],
)
def test_model_paths_outside_the_folders_are_refused(make_client, tmp_path, spec):
    kind = spec.split(":")[0]
    model = MODELS / {"ppo": "contack_2p.npz", "az": "contack_2p_az.npz"}[kind]
    folder = tmp_path / "models"
    folder.mkdir()
    shutil.copy(model, tmp_path / "outside.npz")
    (folder / "outside.npz").symlink_to(tmp_path / "outside.npz")  # a link leading out of the folder
    shutil.copy(model, folder / "mine.npz")
    client = make_client(models=(folder,))
    assert [(m["name"], m["kind"]) for m in client.get("/api/options").json()["models"]] == [("mine.npz", kind)]
    response = client.post("/api/games", json={"game": "contack", "seats": ["person", spec]})
    assert response.status_code == 400 and "no model called" in response.json()["error"]
    mine = "az:mine.npz:4" if kind == "az" else "ppo:mine.npz"
    assert client.post("/api/games", json={"game": "contack", "seats": ["person", mine]}).status_code == 201


def test_a_search_guided_network_takes_a_seat_by_name_within_the_servers_caps(client):
    models = {m["name"]: m for m in client.get("/api/options").json()["models"]}
    assert models["contack_2p_az.npz"]["kind"] == "az" and models["contack_2p.npz"]["kind"] == "ppo"
    game = advance_bots(client, new_game(client, seats=["person", "az:contack_2p_az.npz:8"], seed=3, hands=1))
    assert game["seats"][1]["agent"] == "az:contack_2p_az.npz:8"
    assert str(MODELS) not in json.dumps(game)  # the page knows a network by its name only
    for spec, words in [
        ("az:contack_2p_az.npz:5001", "at most 5000 simulations"),
        ("az:contack_2p_az.npz:40:30001", "at most 30000 positions"),
        ("az:contack_2p.npz", "no model called 'contack_2p.npz' for az:NAME"),  # a policy, not a network
        ("ppo:contack_2p_az.npz", "no model called 'contack_2p_az.npz' for ppo:NAME"),
        ("az:solitaire2_az.npz", "solitaire2_az.npz is a network for 'solitaire2'"),
        ("az:contack_2p_az.npz:abc", "after the network contack_2p_az.npz come at most two whole numbers"),
        ("az:contack_2p_az.npz:-3", "SIMS and ENDGAME (az:NAME[:SIMS[:ENDGAME]]); got '-3'"),
        (f"az:contack_2p_az.npz:{'9' * 5000}", "at most 5000 simulations and the endgame at most 30000 positions"),
    ]:
        response = client.post("/api/games", json={"game": "contack", "seats": ["person", spec]})
        assert response.status_code == 400 and words in response.json()["error"], spec
        assert str(MODELS) not in response.json()["error"]


@pytest.mark.parametrize("rules,words", [
    ({"board_size": 7}, "contactix_5x5.npz was trained with --board-size 5; it cannot play with --board-size 7"),
    ({"board_size": 5, "swap": True}, "contactix_5x5.npz was trained without --swap; it cannot play with --swap"),
])
def test_a_model_for_other_rules_is_refused_by_name(client, rules, words):
    response = client.post("/api/games", json={"game": "contactix", "seats": ["person", "ppo:contactix_5x5.npz"],
                                               **rules})
    assert response.status_code == 400
    error = response.json()["error"]
    assert words in error and str(MODELS) not in error


def test_a_model_for_another_game_is_refused_by_name(client):
    response = client.post("/api/games", json={"game": "contactix", "seats": ["person", "ppo:contack_2p.npz"], "board_size": 5})
    assert response.status_code == 400
    error = response.json()["error"]
    assert "contack_2p.npz" in error and str(MODELS) not in error


# -- CON-TAC-TIX ----------------------------------------------------------------------------------------------
def test_contactix_moves_the_swap_and_refusals(client):
    game = new_game(client, game="contactix", seats=["person", "person"], board_size=5, swap=True, seed=1)
    gid = game["id"]
    ok = client.post(f"/api/games/{gid}/move", json={"version": 0, "cell": [1, 3]})
    assert ok.status_code == 200
    game = ok.json()
    assert game["state"]["can_swap"] and game["state"]["swap_cell"] == [1, 3]
    # Black's peg's hole as a plain cell is refused: the swap is asked for by name.
    response = client.post(f"/api/games/{gid}/move", json={"version": 1, "cell": [1, 3]})
    assert response.status_code == 400 and "swap" in response.json()["error"]
    for cell in ([5, 0], [0, -1], "a1", [1]):
        response = client.post(f"/api/games/{gid}/move", json={"version": 1, "cell": cell})
        assert response.status_code == 400
    game = client.post(f"/api/games/{gid}/move", json={"version": 1, "swap": True}).json()
    board = game["state"]["board"]
    assert board[3 * 5 + 1] == 2 and board.count(0) == 24  # the peg on the mirror hole is white now
    response = client.post(f"/api/games/{gid}/move", json={"version": 2, "cell": [3, 1]})
    assert response.status_code == 400 and "already holds" in response.json()["error"]
    assert "swaps" in game["log"][-1]["text"]


def test_contactix_against_the_shipped_model_to_the_end(client):
    game = new_game(client, game="contactix", seats=["person", "ppo:contactix_5x5.npz"], board_size=5, seed=2)
    while not game["state"]["done"]:
        game = advance_bots(client, game)
        if game["state"]["done"]:
            break
        empty = game["state"]["board"].index(0)
        response = client.post(f"/api/games/{game['id']}/move", json={"version": game["version"], "cell": list(divmod(empty, 5))})
        assert response.status_code == 200
        game = response.json()
    record = client.get(f"/api/games/{game['id']}/record").json()
    assert record["format"] == "contactix-record/1" and record["agents"] == ["person", "ppo:contactix_5x5.npz"]
    assert record["winner"] == ("black", "white")[game["state"]["winner"]]
    assert game["state"]["chain"]


# -- the page -------------------------------------------------------------------------------------------------
def test_the_page_and_its_files_are_served_and_nothing_beside_them(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../server.py").status_code == 404
    assert client.get("/static/%2e%2e/server.py").status_code == 404


def test_an_unknown_address_or_method_is_refused_in_json_like_every_answer(client):
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and missing.json()["error"] == "no such address: /api/nothing"
    wrong = client.delete("/api/options")
    assert wrong.status_code == 405 and "DELETE is not a method of /api/options" in wrong.json()["error"]
    assert "GET" in wrong.headers["allow"]


def test_the_colours_are_the_png_renders(client):
    from contack_env.render import image as render

    colours = client.get("/api/options").json()["colours"]
    assert colours["felt"] == "#%02x%02x%02x" % render.FELT
    assert colours["edge"][1] == "#%02x%02x%02x" % render.EDGE[1]


def test_only_the_loopback_host_names_are_answered_when_serving_on_loopback():
    from starlette.testclient import TestClient

    from contack_env.app import create_app
    from contack_env.app.server import LOOPBACK_NAMES

    client = TestClient(create_app((MODELS,), trusted_hosts=LOOPBACK_NAMES), base_url="http://127.0.0.1:8000")
    assert client.get("/api/options").status_code == 200
    assert client.get("/api/options", headers={"Host": "LOCALHOST:8000"}).status_code == 200  # names ignore case
    assert client.get("/api/options", headers={"Host": "[::1]:8000"}).status_code == 200
    refused = client.get("/api/options", headers={"Host": "evil.example:8000"})
    assert refused.status_code == 400
    # in JSON like every other refusal, naming what the server answers to
    assert refused.json() == {"error": "this server answers only requests addressed to it by one of its names "
                                       "(127.0.0.1, localhost, [::1]); the request's Host header is 'evil.example:8000'"}
    assert client.post("/api/games", headers={"Host": "localhost.evil.example"}, json={}).status_code == 400


@pytest.mark.parametrize("game", ["contack", "solitaire1", "solitaire2", "contactix"])
def test_every_bot_the_page_offers_plays_a_whole_game_of_every_game(client, game):
    options = client.get("/api/options").json()
    specs = options["bots"][game]
    specs = [s for s in specs if not s.startswith("mcts:") or s == "mcts:50"] + [
        f"{m['kind']}:{m['name']}" for m in options["models"] if m["game"] == game and m["players"] in (None, 1, 2)
    ]
    assert specs
    for spec in specs:
        table = {"game": game, "seats": [spec] if game.startswith("solitaire") else [spec, "random"], "seed": 1}
        if game == "contactix":
            table["board_size"] = 5
        if game == "contack":
            table["hands"] = 1
        finished = advance_bots(client, new_game(client, **table))
        assert finished["state"]["done"], spec
        assert client.get(f"/api/games/{finished['id']}/record").status_code == 200


@pytest.mark.parametrize("game,seats,extra", [
    ("contack", ["mcts:50", "random", "greedy"], {"hands": 1}),
    ("solitaire2", ["mcts:50"], {}),
    ("contactix", ["mcts:50", "random"], {"board_size": 5}),
])
def test_a_bots_table_with_a_seed_plays_the_game_simulate_plays_with_that_seed(client, tmp_path, game, seats, extra):
    from contack_env.cli import main
    from contack_env.records import read_records

    finished = advance_bots(client, new_game(client, game=game, seats=seats, seed=5, **extra))
    assert finished["state"]["done"]
    from_app = client.get(f"/api/games/{finished['id']}/record").json()
    options = [f"--{k.replace('_', '-')}={v}" for k, v in extra.items()]
    out = tmp_path / "simulated.jsonl"
    assert main(["simulate", "--game", game, "--players", str(len(seats)), "--agents", ",".join(seats), "--games", "1",
                 "--seed", "5", *options, "--out", str(out)]) == 0
    simulated = read_records(out)[0]
    assert from_app["seed"] == simulated["seed"] == 5
    assert {k: v for k, v in from_app.items() if k not in ("agents", "meta")} == \
        {k: v for k, v in simulated.items() if k not in ("agents", "meta")}
