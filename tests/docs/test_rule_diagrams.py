"""docs/make_rule_diagrams.py draws the pictures of docs/rules.md and docs/records.md, and what those pages state
about the engine holds: the example record is the engine's own and replays, the quoted `contack replay --check`
session is what the command prints, the enclosed_end table is what the engine does."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from contack_env.contack.figure import Move
from contack_env.contack.multiplayer import ContackGame
from contack_env.contack.tiles import tile_id

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = ("rules.md", "records.md")


def _load_script() -> ModuleType:
    # docs/ is not a package: load the script from its file, as `python docs/make_rule_diagrams.py` runs it.
    spec = importlib.util.spec_from_file_location("make_rule_diagrams", DOCS / "make_rule_diagrams.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return _load_script()


@pytest.fixture(scope="module")
def drawn(script: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return script.write_diagrams(tmp_path_factory.mktemp("img"))


def test_every_diagram_is_written_as_a_png_of_sensible_size(script: ModuleType, drawn: list[Path]) -> None:
    assert sorted(p.name for p in drawn) == sorted(script.DIAGRAMS)
    for path in drawn:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path.name
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            width, height = image.size
            colours = image.convert("RGB").getcolors(maxcolors=4096)
        assert 400 <= width <= 1600 and 250 <= height <= 1000, (path.name, image.size)
        # A drawing, not an empty canvas: tiles, bands and antialiased text give many colours.
        assert colours is None or len(colours) > 20, path.name
        assert 4_000 < path.stat().st_size < 120_000, path.name
    assert sum(p.stat().st_size for p in drawn) < 500_000


def test_the_pages_show_exactly_the_committed_pictures_the_script_draws(script: ModuleType) -> None:
    shown = set()
    for page in PAGES:
        shown |= set(re.findall(r"\]\(img/(rules_[^)]+\.png)\)", (DOCS / page).read_text()))
    committed = {p.name for p in (DOCS / "img").glob("rules_*.png")}
    assert shown == set(script.DIAGRAMS) == committed


def test_every_file_the_pages_link_to_exists() -> None:
    for page in PAGES:
        links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", (DOCS / page).read_text())
        assert links, page
        missing = [link for link in links if not link.startswith("http") and not (DOCS / link).exists()]
        assert missing == [], page


def test_the_script_refuses_a_board_the_rules_forbid(script: ModuleType) -> None:
    # Blue 2 against blue 1: neither equal nor a multiple of 5.
    with pytest.raises(ValueError, match="not a legal placement"):
        script._figure([("01-02-03", 0, 0), ("02-03-04", 0, -1)])
    with pytest.raises(ValueError, match="opens at"):
        script._figure([("01-02-03", 1, 0)])


def test_the_example_record_of_records_md_is_the_engines_and_replays(script: ModuleType) -> None:
    from contack_env.envs.replay import replay_through_env
    from contack_env.records.contack import replay

    page = (DOCS / "records.md").read_text()
    record = json.loads(re.search(r"```json\n(.*?)```", page, re.S).group(1))
    assert record == script.example_record()
    state = replay(record)
    assert state.scores == [-35, -40] and state.end_reasons == ["blocked"]
    replay_through_env(record)


def test_the_replay_output_quoted_in_records_md_is_what_the_command_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import copy

    from contack_env.cli import main

    page = (DOCS / "records.md").read_text()
    record = json.loads(re.search(r"```json\n(.*?)```", page, re.S).group(1))
    session = re.search(r"```\n\$ contack (replay --check [^\n]*)\n(.*?)```", page, re.S)
    argv, quoted = session.group(1).split(), session.group(2).splitlines()
    # bad.jsonl: "the example above with seat 0's 15 points changed to 20".
    bad = copy.deepcopy(record)
    place = next(e for e in bad["hands"][0]["events"] if e["type"] == "place" and e["seat"] == 0 and e["points"] == 15)
    place["points"] = 20
    (tmp_path / "bad.jsonl").write_text(json.dumps(bad) + "\n")
    (tmp_path / "game.jsonl").write_text(json.dumps(record) + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 1
    assert capsys.readouterr().out.splitlines() == quoted


def _enclosed_end_rows() -> dict[str, tuple[list[int], list[int]]]:
    page = (DOCS / "rules.md").read_text()
    section = page.split("Take worked example 4", 1)[1]
    rows = re.findall(r'^\| `"(\w+)"` \| [^|]+ \| (-?\d+), (-?\d+) \| (-?\d+), (-?\d+) \|$', section, re.M)
    return {r[0]: ([int(r[1]), int(r[2])], [int(r[3]), int(r[4])]) for r in rows}


def test_the_enclosed_end_table_of_rules_md_is_what_the_engine_does(script: ModuleType) -> None:
    rows = _enclosed_end_rows()
    assert set(rows) == {"1939", "next_player", "never"}
    hands = [["08-09-10", "07-08-05"], ["04-05-06", "07-08-09"]]
    held = {tile_id(n) for h in hands for n in h}
    reasons = {"1939": "enclosed", "next_player": "enclosed", "never": "blocked"}
    for option, (penalties, scores) in rows.items():
        figure = script._figure(script.THREE_SIDED_50)
        pile = [t for t in range(36) if t not in held and t not in figure.placed.values()]
        game = ContackGame.from_position([[tile_id(n) for n in h] for h in hands], figure, pile, 0, enclosed_end=option)
        assert game.play(Move(tile_id("08-09-10"), 1, 0)) == 50
        end = game.hand_events[-1][-1]
        assert game.done and end["reason"] == reasons[option], option
        assert end["penalties"] == penalties and game.scores == scores, option
