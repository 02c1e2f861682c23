"""Opening record files in the web app: every game's records from ``contack simulate`` and ``contack evaluate
--records`` open and step through; a record that does not replay is refused with where and why; uploads are
capped."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import tracemalloc

import pytest
from app_helpers import ROOT, new_game, play_out

from contack_env.cli import main as contack
from contack_env.records.contactix import replay as replay_contactix
from contack_env.records import read_records, replay

GOLDEN = ROOT / "tests" / "golden"


def run_cli(*argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert contack(list(argv)) == 0


def upload(client, text: str | bytes):
    return client.post("/api/records", content=text, headers={"Content-Type": "application/json"})


def check_frames(record: dict, data: dict) -> None:
    """The frames tell the game the record holds: one per opening and placement (and a hand's finished
    figure), ending at the record's result."""
    frames = data["frames"]
    last = frames[-1]["state"]
    if record["format"] == "contactix-record/1":
        final = replay_contactix(record)
        assert len(frames) == len(record["moves"]) + 1
        assert last["board"] == final.board and last["done"] == (final.winner is not None)
        assert frames[0]["state"]["board"].count(0) == record["size"] ** 2
        return
    places = sum(1 for h in record["hands"] for e in h["events"] if e["type"] == "place")
    assert len(frames) == 1 + places + (len(record["hands"]) - 1)
    assert last["done"] and last["scores"] == record["scores"] and last["winners"] == record["winners"]
    assert len(frames[0]["state"]["figure"]) == 1
    told = [t for f in frames for t in f["events"]]
    events = [e for h in record["hands"] for e in h["events"]]
    assert len(told) == len(events)  # every event is told once, on the frame it leads to
    for f in frames:
        assert "deck" not in f["state"]
    final = replay(record)
    assert len(last["figure"]) == len(final.figure)


@pytest.mark.parametrize("name", ["contack_2p.jsonl", "contack_4p.jsonl", "contack_7p.jsonl", "solitaire1.jsonl", "solitaire2.jsonl", "contactix_5x5.jsonl"])
def test_the_golden_record_files_open_and_step_through(client, name):
    text = (GOLDEN / name).read_text()
    response = upload(client, text)
    assert response.status_code == 201, response.text
    listing = response.json()
    records = read_records(GOLDEN / name)
    assert [r["index"] for r in listing["records"]] == list(range(len(records)))
    for k, record in enumerate(records):
        data = client.get(f"/api/records/{listing['id']}/{k}").json()
        check_frames(record, data)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--game", "contack", "--players", "3", "--agents", "random,greedy,random", "--games", "2", "--seed", "1", "--hands", "2"],
        ["simulate", "--game", "solitaire1", "--agents", "greedy", "--games", "2", "--seed", "1"],
        ["simulate", "--game", "solitaire2", "--agents", "random", "--games", "2", "--seed", "1"],
        ["simulate", "--game", "contactix", "--board-size", "6", "--agents", "two_distance,random", "--games", "2", "--seed", "1"],
        ["evaluate", "--players", "2", "--agents", "greedy,random", "--games", "2", "--seed", "1"],
        ["evaluate", "--game", "solitaire2", "--agents", "greedy,random", "--games", "2", "--seed", "1"],
        ["evaluate", "--game", "contactix", "--board-size", "6", "--agents", "random,two_distance", "--games", "2", "--seed", "1"],
    ],
    ids=["simulate-contack", "simulate-solitaire1", "simulate-solitaire2", "simulate-contactix", "evaluate-contack", "evaluate-solitaire2", "evaluate-contactix"],
)
def test_files_written_by_the_command_line_open(client, tmp_path, argv):
    out = tmp_path / "records.jsonl"
    run_cli(*argv, *(["--out", str(out)] if argv[0] == "simulate" else ["--records", str(out)]))
    response = upload(client, out.read_bytes())
    assert response.status_code == 201, response.text
    listing = response.json()
    for k, record in enumerate(read_records(out)):
        summary = listing["records"][k]
        assert summary["agents"] == [a for a in record["agents"]]
        check_frames(record, client.get(f"/api/records/{listing['id']}/{k}").json())


def test_a_record_downloaded_from_a_game_opens(client):
    game = play_out(client, new_game(client, seats=["person", "random", "greedy"], seed=4, hands=1))
    record = client.get(f"/api/games/{game['id']}/record").text
    listing = upload(client, record).json()
    data = client.get(f"/api/records/{listing['id']}/0").json()
    check_frames(json.loads(record), data)
    assert data["frames"][-1]["state"]["scores"] == game["state"]["scores"]


def test_a_single_object_and_an_array_open_too(client):
    records = read_records(GOLDEN / "solitaire1.jsonl")
    for text in (json.dumps(records[0], indent=2), json.dumps(records)):
        listing = upload(client, text).json()
        assert len(listing["records"]) in (1, len(records))
        assert client.get(f"/api/records/{listing['id']}/0").status_code == 200


def test_a_record_that_does_not_replay_is_refused_with_where_and_why(client):
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    place = next(e for e in record["hands"][1]["events"] if e["type"] == "place" and e["points"] == 0)
    place["points"] = 15
    listing = upload(client, json.dumps(record)).json()
    response = client.get(f"/api/records/{listing['id']}/0")
    assert response.status_code == 400
    error = response.json()["error"]
    assert "does not replay" in error and "hand 2" in error and "points" in error


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("{nope", "invalid JSON"),
        ('{"format": "contack-record/9"}', "format"),
        ("[1, 2]", "item 1 of the array is a number; a record is a JSON object"),
        ('{"format": "contack-record/1"}\n[3]', "line 2"),
        (b"\xff\xfe{}", "UTF-8"),
        # The guards of the record reader hold for uploads too: a key twice, a number of thousands of digits.
        ('{"format": "contack-record/1", "format": "contactix-record/1"}', "'format'"),
        ('{"format": "contack-record/1", "seed": ' + "9" * 5000 + "}", "digits"),
        # A lone surrogate is no character: echoed in the listing, it failed the answer (a 500) as it was sent.
        ('{"format": "contack-record/1", "agents": ["\\ud800", "greedy"]}', "lone surrogate"),
    ],
)
def test_a_file_that_is_not_records_is_refused(client, text, words):
    response = upload(client, text)
    assert response.status_code == 400
    assert words in response.json()["error"]


@pytest.mark.parametrize("players", [10**20, 10**6, -3, 8])
def test_a_record_claiming_any_number_of_seats_is_listed_without_a_seat_list(client, players):
    # A record's seat count is its own word until the game is opened: it never sizes what the server builds.
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    record["players"] = players
    response = upload(client, "\n".join([json.dumps(record)] * 50))
    assert response.status_code == 201 and len(response.content) < 100_000
    assert all(game["agents"] == [] for game in response.json()["records"])
    assert client.get(f"/api/records/{response.json()['id']}/0").status_code == 400


def test_uploads_over_the_cap_are_refused_without_being_read(make_client):
    client = make_client(max_upload_bytes=4000)
    small = (GOLDEN / "contactix_5x5.jsonl").read_text()
    assert len(small.encode()) < 4000
    assert upload(client, small).status_code == 201
    big = (GOLDEN / "contack_4p.jsonl").read_text()
    assert len(big.encode()) > 4000
    response = upload(client, big)
    assert response.status_code == 413 and "4000 bytes" in response.json()["error"]

    # Without a Content-Length (a chunked body) the server stops reading at the cap.
    def chunks():
        for _ in range(100):
            yield b" " * 1000

    response = client.post("/api/records", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_at_the_cap_a_new_record_file_takes_the_place_of_the_one_least_recently_looked_at(make_client, clock):
    client = make_client(max_files=2, idle_seconds=60)
    text = (GOLDEN / "contactix_5x5.jsonl").read_text()
    first = upload(client, text).json()
    clock.now += 1
    second = upload(client, text).json()
    clock.now += 1
    assert client.get(f"/api/records/{first['id']}/0").status_code == 200  # looked at last now
    third = upload(client, text)
    assert third.status_code == 201, third.text
    assert client.get(f"/api/records/{second['id']}/0").status_code == 404
    for kept in (first, third.json()):
        assert client.get(f"/api/records/{kept['id']}/0").status_code == 200
    assert client.get(f"/api/records/{first['id']}/7").status_code == 404
    clock.now += 60
    assert client.get(f"/api/records/{first['id']}/0").status_code == 404  # unused for the idle time: closed


@pytest.mark.parametrize("index", ["9" * 5000, "9" * 19, "x", "-1", "\u0661"])
def test_an_index_that_is_no_record_of_the_file_is_404_in_json(client, index):
    # Starlette's int convertor took 4,300 digits and more and failed reading them: a plain-text 500.
    held = upload(client, (GOLDEN / "contack_2p.jsonl").read_text()).json()
    response = client.get(f"/api/records/{held['id']}/{index}")
    assert response.status_code == 404 and response.json()["error"].startswith("the file holds records 0..")
    assert len(response.json()["error"]) < 200


def test_a_record_file_must_come_as_json(client):
    # A page of another site could send text/plain without asking first, and fill the server with files.
    text = (GOLDEN / "contactix_5x5.jsonl").read_text()
    response = client.post("/api/records", content=text, headers={"Content-Type": "text/plain"})
    assert response.status_code == 415 and "application/json" in response.json()["error"]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("field", ["seed", "players", "scores", "zzz"])
@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "nested"])
def test_odd_values_in_a_record_are_listed_safely_and_refused_on_opening(client, field, value):
    # A record's fields are its own word until the game is opened: the list shows none of these, and opening
    # the game says what is wrong, never a server error.
    record = read_records(GOLDEN / "contack_2p.jsonl")[0]
    record.pop(field, None)
    raw = _nested(900) if value == "nested" else value  # NaN and Infinity: Python's JSON reads them, JSON has none
    text = json.dumps(record)[:-1] + f', "{field}": {raw}}}'
    response = upload(client, text)
    assert response.status_code == 201, response.text
    game = response.json()["records"][0]
    assert game["seed"] is None or isinstance(game["seed"], int)
    assert "nan" not in game["title"].lower() and "inf" not in game["title"].lower(), game
    opened = client.get(f"/api/records/{response.json()['id']}/0")
    if field == "zzz" and value != "nested":
        assert opened.status_code == 200, opened.text  # a key no record has is passed over, as replay does
    else:
        assert opened.status_code == 400 and opened.json()["error"], opened.text
    if value == "nested":
        assert "nested too deeply" in opened.json()["error"] or field != "zzz", opened.text


def test_agent_names_that_do_not_fit_the_seats_are_listed_as_unknown_and_refused_on_opening(client):
    record = read_records(GOLDEN / "contack_4p.jsonl")[0]
    for agents in (["greedy"], "greedy", [1, 2, 3, 4]):
        listing = upload(client, json.dumps(dict(record, agents=agents))).json()
        assert listing["records"][0]["agents"] == ["?"] * 4
        response = client.get(f"/api/records/{listing['id']}/0")
        assert response.status_code == 400 and "agents" in response.json()["error"]


def test_a_held_record_file_costs_the_server_about_its_size(client):
    # The server holds up to 20 files: as text, not as parsed JSON (many times its size), read again on opening.
    record = (GOLDEN / "contack_2p.jsonl").read_text().splitlines()[0]
    text = "\n".join([record] * 500) + "\n"
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        response = upload(client, text)
        status, key = response.status_code, response.json()["id"]
        del response  # the client's copy of the request
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert status == 201 and held < 2 * len(text), (held, len(text))
    opened = client.get(f"/api/records/{key}/499")
    assert opened.status_code == 200 and opened.json()["frames"]  # every record still opens


def test_games_of_several_files_open_in_any_order(client):
    # the server keeps the records of the file opened last: opening another file's game must not mix them up
    files = {name: read_records(GOLDEN / name) for name in ("contack_2p.jsonl", "contactix_5x5.jsonl")}
    keys = {name: upload(client, (GOLDEN / name).read_text()).json()["id"] for name in files}
    for name in ["contack_2p.jsonl", "contactix_5x5.jsonl", "contack_2p.jsonl", "contactix_5x5.jsonl"]:
        for k in (0, len(files[name]) - 1):
            check_frames(files[name][k], client.get(f"/api/records/{keys[name]}/{k}").json())
        count = len(files[name])
        missing = client.get(f"/api/records/{keys[name]}/{count}")
        assert missing.status_code == 404 and f"records 0..{count - 1}" in missing.json()["error"]
