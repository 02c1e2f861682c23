"""The page in a real headless browser (Playwright driving the system's chromium): a whole game played by
clicking, an illegal click refused by the server, a record uploaded and stepped through, a screenshot.

The test set-up installs chromium (``.ci/run``); these tests are skipped only when no chromium can be found.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from app_helpers import MODELS, ROOT
from PIL import Image
from playwright.sync_api import Browser, Page, expect, sync_playwright

from contack_env.render import image as render
from contack_env.app.background import BackgroundServer
from contack_env.records import read_records, replay

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
expect.set_options(timeout=15000)  # a shared CI machine can be slow; a real failure still ends the test
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH: install it (as root: apt-get install -y chromium) to run the browser tests"
)


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer((MODELS,)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, server: BackgroundServer) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(15000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 4" not in m.text else None)
    pg.goto(server.url + "/")
    pg.wait_for_selector("body[data-ready=true]")
    yield pg
    context.close()
    assert not errors, errors


def start_game(page: Page, seats: list[str], seed: int, players: int = 2, hands: int = 3) -> None:
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    for seat, spec in enumerate(seats):
        page.select_option(f"#seat-{seat}", spec)
    page.fill("#hands", str(hands))
    page.fill("#seed", str(seed))
    page.select_option("#pace", "0")
    page.click("#start")
    page.wait_for_selector("body[data-mode=play]")


def wait_for_person_or_end(page: Page) -> str:
    page.wait_for_selector("body[data-turn=person], body[data-turn=over]")
    return page.evaluate("document.body.dataset.turn")


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def game_json(page: Page, server: BackgroundServer) -> dict:
    href = page.get_attribute("#download", "href")  # /api/games/ID/record
    game_id = href.split("/")[3]
    with urllib.request.urlopen(f"{server.url}/api/games/{game_id}") as r:
        return json.load(r)


def test_a_whole_two_player_game_against_random_by_clicking(page: Page, server: BackgroundServer, tmp_path: Path) -> None:
    start_game(page, ["person", "random"], seed=12)
    moves = 0
    checked_points = False
    while wait_for_person_or_end(page) == "person":
        before = version(page)
        if page.locator(".hand-tile.selected").count() == 0:
            page.locator(".hand-tile.playable").first.click()
        expect(page.locator("#board .cell.legal").first).to_be_visible()
        if not checked_points:
            # The points each highlighted cell shows are those the server's engine gives that placement.
            tile = int(page.get_attribute(".hand-tile.selected", "data-tile"))
            shown = {
                (int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))): c.locator(".points").text_content()
                for c in page.locator("#board .cell.legal").all()
            }
            legal = [m for m in game_json(page, server)["state"]["legal"] if m["tile"] == tile]
            assert shown == {(m["x"], m["y"]): f"+{m['points']}" for m in legal}
            checked_points = True
        page.locator("#board .cell.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        moves += 1
        assert moves < 200
    expect(page.locator("#status")).to_contain_text("Game over")
    assert page.locator("#log li.end").count() == 3  # three hands, each end told
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / "game.json"
    info.value.save_as(path)
    (record,) = read_records(path)
    final = replay(record)
    assert record["agents"] == ["person", "random"] and record["seed"] == 12
    places = sum(1 for h in record["hands"] for e in h["events"] if e["type"] == "place" and e["seat"] == 0)
    assert places == moves
    for seat, score in enumerate(final.scores):
        expect(page.locator(f"#seats-view .seat[data-seat='{seat}'] .seat-name")).to_contain_text(f"· {score}")


def test_an_illegal_click_is_refused_by_the_server_and_changes_nothing(page: Page, server: BackgroundServer) -> None:
    start_game(page, ["person", "greedy"], seed=3)
    for _ in range(40):
        assert wait_for_person_or_end(page) == "person"
        for tile in page.locator(".hand-tile.playable").all():
            tile.click()
            wrong = page.locator("#board .cell:not(.legal)")
            if wrong.count():
                before_version, before_tiles = version(page), page.locator("#board .tile").count()
                before = game_json(page, server)
                wrong.first.click()
                expect(page.locator("#message")).to_contain_text("Refused: illegal move")
                assert version(page) == before_version
                assert page.locator("#board .tile").count() == before_tiles
                assert game_json(page, server) == before
                return
        before = version(page)
        page.locator("#board .cell.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
    raise AssertionError("no cell that the rules forbid came up")


def test_a_record_is_uploaded_and_stepped_through(page: Page) -> None:
    path = ROOT / "tests" / "golden" / "contack_4p.jsonl"
    records = read_records(path)
    page.click("#nav-open")
    page.set_input_files("#file", str(path))
    expect(page.locator("#replay-body")).to_be_visible()
    caption = page.locator("#frame-caption")
    expect(caption).to_contain_text("Frame 1 of ")
    total = int(re.search(r"of (\d+)", caption.inner_text()).group(1))
    places = sum(1 for h in records[0]["hands"] for e in h["events"] if e["type"] == "place")
    assert total == 1 + places + len(records[0]["hands"]) - 1
    page.click("#next")
    expect(caption).to_contain_text("Frame 2 of ")
    assert page.locator("#replay-board .tile").count() == 2
    page.click("#last")
    expect(caption).to_contain_text(f"Frame {total} of {total}")
    for seat, score in enumerate(records[0]["scores"]):
        expect(page.locator(f"#replay-seats .seat[data-seat='{seat}'] .seat-name")).to_contain_text(f"· {score}")
    page.click("#prev")
    expect(caption).to_contain_text(f"Frame {total - 1} of ")
    page.click("#first")
    expect(caption).to_contain_text("Frame 1 of ")
    page.locator("#slider").fill("7")
    expect(caption).to_contain_text("Frame 8 of ")
    page.click("#auto")
    page.wait_for_function("Number(document.body.dataset.frame) >= 9")
    page.click("#auto")
    stopped = int(page.evaluate("document.body.dataset.frame"))
    page.wait_for_timeout(1000)
    assert int(page.evaluate("document.body.dataset.frame")) == stopped
    # The file's second game.
    page.select_option("#record-list", "1")
    expect(caption).to_contain_text("Frame 1 of ")
    page.click("#last")
    for seat, score in enumerate(records[1]["scores"]):
        expect(page.locator(f"#replay-seats .seat[data-seat='{seat}'] .seat-name")).to_contain_text(f"· {score}")


def test_a_contactix_record_steps_to_its_winning_chain(page: Page) -> None:
    path = ROOT / "tests" / "golden" / "contactix_5x5.jsonl"
    record = read_records(path)[0]
    page.click("#nav-open")
    page.set_input_files("#file", str(path))
    page.click("#last")
    expect(page.locator("#frame-caption")).to_contain_text(f"Frame {len(record['moves']) + 1} of")
    assert page.locator("#replay-board .peg").count() == len(record["moves"])
    expect(page.locator("#replay-info")).to_contain_text("joined the sides")


def test_a_bad_record_file_is_refused_with_the_reason(page: Page, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "contack-record/1", "game": "contack"')
    page.click("#nav-open")
    page.set_input_files("#file", str(bad))
    expect(page.locator("#replay-error")).to_contain_text("invalid JSON")
    expect(page.locator("#replay-body")).to_be_hidden()


def test_the_readme_screenshot_shows_a_table_in_the_render_colours(browser: Browser, tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_serve_screenshot", ROOT / "docs" / "make_serve_screenshot.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shot = script.take(tmp_path / "serve.png", browser)
    image = Image.open(shot).convert("RGB")
    assert image.size == script.SIZE
    colours = {c for _, c in image.getcolors(image.width * image.height)}
    for needed in (render.FELT, render.FACE, render.TARGET, render.EDGE[0], render.EDGE[1], render.EDGE[2]):
        assert needed in colours, needed


def test_on_a_phone_the_board_is_above_the_panel_and_both_fit(page: Page) -> None:
    start_game(page, ["person", "greedy", "lookahead"], seed=7, players=3)
    wait_for_person_or_end(page)
    page.set_viewport_size({"width": 390, "height": 844})
    board = page.locator("#board").bounding_box()
    panel = page.locator("#play .panel").bounding_box()
    assert 300 <= board["width"] <= 390 and panel["width"] <= 390
    assert panel["y"] >= board["y"] + board["height"] - 1
    # The board still takes a click: play one move on the phone.
    before = version(page)
    page.locator(".hand-tile.playable").first.click()
    page.locator("#board .cell.legal").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {before}")


def test_contactix_is_played_by_clicking_holes(page: Page) -> None:
    page.select_option("#game", "contactix")
    page.fill("#board-size", "5")
    page.dispatch_event("#board-size", "change")
    page.select_option("#seat-1", "ppo:contactix_5x5.npz")
    page.fill("#seed", "1")
    page.select_option("#pace", "0")
    page.click("#start")
    while wait_for_person_or_end(page) == "person":
        before = version(page)
        page.locator("#board .hole.empty").first.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        if wait_for_person_or_end(page) == "person":
            # A hole that holds a peg: the server refuses it.
            before = version(page)
            page.locator("#board .hole:not(.empty)").first.click()
            expect(page.locator("#message")).to_contain_text("Refused: illegal move")
            assert version(page) == before
    expect(page.locator("#status")).to_contain_text("Game over")
    assert page.locator("#board .peg").count() == int(page.evaluate("document.body.dataset.version"))


def test_a_trained_contactix_model_is_offered_only_at_tables_of_its_rules(page: Page) -> None:
    model = "#seat-1 option[value='ppo:contactix_5x5.npz']"
    page.select_option("#game", "contactix")
    page.fill("#board-size", "5")
    page.dispatch_event("#board-size", "change")
    expect(page.locator(model)).to_have_count(1)
    page.check("#swap")  # the 5x5 policy was trained without the swap rule
    expect(page.locator(model)).to_have_count(0)
    page.uncheck("#swap")
    expect(page.locator(model)).to_have_count(1)
    page.fill("#board-size", "6")
    page.dispatch_event("#board-size", "change")
    expect(page.locator(model)).to_have_count(0)


def test_any_agent_spec_can_be_typed_and_a_bad_one_is_refused_with_the_reason(page: Page) -> None:
    page.select_option("#seat-1", "other")
    page.fill("#seat-1-spec", "mcts:99999999")
    page.click("#start")
    expect(page.locator("#setup-error")).to_contain_text("budget")
    assert page.evaluate("document.body.dataset.mode") == "setup"
    page.fill("#seat-1-spec", "mcts:7")
    page.fill("#seed", "2")
    page.click("#start")
    page.wait_for_selector("body[data-mode=play]")
    expect(page.locator("#seats-view .seat[data-seat='1'] .seat-name")).to_contain_text("mcts:7")


@pytest.mark.parametrize("name", ["contack_2p.jsonl", "contack_7p.jsonl", "solitaire1.jsonl", "solitaire2.jsonl", "contactix_5x5.jsonl"])
def test_every_frame_of_every_kind_of_record_shows(page: Page, name: str) -> None:
    path = ROOT / "tests" / "golden" / name
    page.click("#nav-open")
    page.set_input_files("#file", str(path))
    caption = page.locator("#frame-caption")
    expect(caption).to_contain_text("Frame 1 of ")
    total = int(re.search(r"of (\d+)", caption.inner_text()).group(1))
    for k in range(2, total + 1):
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.body.dataset.frame") == str(k - 1)
    expect(caption).to_contain_text(f"Frame {total} of {total}")
    # The page's own error listener (the fixture) fails the test on any script error along the way.


def test_a_table_of_bots_plays_itself_and_can_be_paused(page: Page) -> None:
    page.select_option("#seat-0", "random")
    page.select_option("#seat-1", "az:contack_2p_az.npz")  # the shipped search-guided network, offered by name
    page.fill("#hands", "1")
    page.fill("#seed", "4")
    page.select_option("#pace", "400")
    page.click("#start")
    page.wait_for_function("Number(document.body.dataset.version) >= 2")
    page.click("#pause")
    stopped = version(page)
    page.wait_for_timeout(1500)
    assert version(page) <= stopped + 1  # a request already under way may still land
    page.click("#pause")
    page.select_option("#pace", "0")
    page.wait_for_selector("body[data-turn=over]", timeout=60000)
    expect(page.locator("#status")).to_contain_text("Game over")
    expect(page.locator("#pause")).to_be_hidden()
