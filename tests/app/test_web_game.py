"""The seam between the app and the games: every game the registry offers reaches the app through its web
adapter (``GameSpec.web``), and the app's generic sessions and replays play, show and replay each one."""

from __future__ import annotations

import dataclasses
import json

import pytest
from app_helpers import ROOT, advance_bots, new_game

from contack_env.app.web_game import WebGame, web_game, web_games
from contack_env.games import GAMES

TABLES = {
    "contack": {"seats": ["greedy", "random", "random"], "hands": 2},
    "solitaire1": {"seats": ["greedy"]},
    "solitaire2": {"seats": ["random"]},
    "contactix": {"seats": ["two_distance", "random"], "board_size": 5, "swap": True},
}


def test_every_game_of_the_registry_names_an_adapter_the_app_offers(client):
    assert list(web_games()) == list(GAMES)
    for name in GAMES:
        web = web_game(name)
        for member in ("bots", "opening", *(m for m in vars(WebGame) if not m.startswith("_"))):
            assert hasattr(web, member), (name, member)
    options = client.get("/api/options").json()
    assert options["games"] == list(GAMES)
    assert list(options["bots"]) == list(GAMES)


@pytest.mark.parametrize("game", list(TABLES))
def test_a_table_of_bots_plays_every_game_to_its_end_and_its_record_replays(client, game):
    start = new_game(client, game=game, seed=11, **TABLES[game])
    assert set(start) == {"id", "version", "seed", "rules", "seats", "person_to_move", "state", "log"}
    assert start["seed"] is None  # hidden while the game goes on
    finished = advance_bots(client, start)
    state = finished["state"]
    assert {"game", "done", "players", "to_move", "last", "winners"} <= set(state)
    assert state["game"] == game and state["done"] and state["to_move"] is None
    assert state["players"] == len(TABLES[game]["seats"]) and finished["seed"] == 11
    assert finished["log"] and all(set(entry) == {"hand", "text"} for entry in finished["log"])
    names = [seat["name"] for seat in finished["seats"]]
    assert any(name in entry["text"] for entry in finished["log"] for name in names)

    record = client.get(f"/api/games/{finished['id']}/record").text
    listing = client.post("/api/records", content=record, headers={"Content-Type": "application/json"}).json()
    assert listing["records"][0]["game"] == game
    replay = client.get(f"/api/records/{listing['id']}/0").json()
    assert replay["game"] == game and replay["names"] == names
    frames = replay["frames"]
    assert frames[0]["caption"] == web_game(game).opening
    assert all(set(f) == {"state", "events", "caption"} for f in frames)
    assert frames[-1]["state"] == state  # the replay ends where the game did
    # Every line of the game's log is told once, on the frame it leads to.
    assert [t for f in frames for t in f["events"]] == [entry["text"] for entry in finished["log"]]


def test_a_contack_hand_that_ends_before_the_last_is_shown_finished_then_the_next_opening(client):
    finished = advance_bots(client, new_game(client, game="contack", seed=3, **TABLES["contack"]))
    record = client.get(f"/api/games/{finished['id']}/record").text
    listing = client.post("/api/records", content=record, headers={"Content-Type": "application/json"}).json()
    frames = client.get(f"/api/records/{listing['id']}/0").json()["frames"]
    over = [k for k, f in enumerate(frames) if f["state"].get("hand_over")]
    assert len(over) == 1
    shown = frames[over[0]]
    assert shown["caption"] == "hand 1 is over" and not shown["state"]["done"] and shown["state"]["legal"] == []
    assert shown["events"][-1].startswith("The hand ends")
    following = frames[over[0] + 1]
    assert following["caption"] == "hand 2: the opening" and following["state"]["hand"] == 2
    assert len(following["state"]["figure"]) == 1 and " opens with " in following["events"][-1]


@pytest.mark.parametrize(
    "game, move, words",
    [
        ("contack", {"tile": "99-99-99"}, "no tile is called '99-99-99'"),
        ("contack", {"tile": 40, "x": 0, "y": 0}, "a tile is an id 0..35 or a name like '09-02-08'; got 40"),
        ("contack", {"tile": 0, "x": "1", "y": 0}, "a cell is two whole numbers x, y; got '1', 0"),
        ("contack", {"tile": 0, "x": 90, "y": 0}, "illegal move: "),
        ("solitaire2", {"x": 0, "y": 0}, "a tile is an id 0..35 or a name like '09-02-08'; got None"),
        ("contactix", {"cell": [1]}, "a move is a hole [row, column] or swap: true; got [1]"),
        ("contactix", {"cell": [5, 0]}, "illegal move: hole (5, 0) is off the 5x5 board"),
        ("contactix", {"swap": True}, "illegal move: no swap now (the swap rule is off, or it is not White's first move)"),
    ],
)
def test_a_malformed_or_illegal_move_is_refused_saying_why_and_changes_nothing(client, game, move, words):
    seats = {"contack": ["person", "random"], "contactix": ["person", "random"]}.get(game, ["person"])
    table = {"board_size": 5} if game == "contactix" else {}
    start = new_game(client, game=game, seats=seats, seed=2, **table)
    response = client.post(f"/api/games/{start['id']}/move", json={"version": start["version"], **move})
    assert response.status_code == 400
    assert response.json()["error"].startswith(words)
    assert client.get(f"/api/games/{start['id']}").json() == start


@pytest.mark.parametrize("game", list(TABLES))
def test_parse_move_turns_the_pages_own_moves_into_legal_moves(game):
    web = web_game(game)
    state = GAMES[game].new_state(5, len(TABLES[game]["seats"]))
    view = web.state_json(state)
    if game == "contactix":
        sent = {"cell": [2, 2]}
    else:
        sent = {key: view["legal"][0][key] for key in ("tile", "x", "y")}
    assert web.parse_move(state, sent) in state.legal_moves()
    said = "a move is a hole" if game == "contactix" else "a tile is an id 0..35"
    with pytest.raises(ValueError, match=f"^{said}.*; got None$"):
        web.parse_move(state, {})


def test_a_game_whose_spec_names_no_adapter_is_not_offered(client, monkeypatch):
    monkeypatch.setitem(GAMES, "solitaire2", dataclasses.replace(GAMES["solitaire2"], web=""))
    options = client.get("/api/options").json()
    assert "solitaire2" not in options["games"] and "solitaire2" not in options["bots"]
    response = client.post("/api/games", json={"game": "solitaire2", "seats": ["person"]})
    assert response.status_code == 400
    assert response.json()["error"] == "game is one of contack, solitaire1, contactix; got 'solitaire2'"
    with pytest.raises(ValueError, match="Solitaire No. 2 is not offered in the browser app"):
        web_game("solitaire2")
    # Its records are listed all the same; opening one says why it does not open.
    listing = client.post("/api/records", content=json.dumps({"format": "contack-record/1", "game": "solitaire2"}),
                          headers={"Content-Type": "application/json"}).json()
    assert listing["records"][0]["title"] == "Solitaire No. 2"
    # A record that replays (the golden game) is not called one that does not: the app does not show its game.
    whole = (ROOT / "tests" / "golden" / "solitaire2.jsonl").read_text()
    listing = client.post("/api/records", content=whole, headers={"Content-Type": "application/json"}).json()
    opened = client.get(f"/api/records/{listing['id']}/0")
    assert opened.status_code == 400
    assert opened.json()["error"].startswith("record 1: Solitaire No. 2 is not offered in the browser app"), opened.text
