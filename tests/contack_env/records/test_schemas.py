"""The record formats' JSON Schema files: valid schemas, shipped with the package, agreeing with the engine's
names, accepting every record the suite writes and rejecting broken ones (checked with jsonschema's stock
validator, not the project's own messages)."""

from __future__ import annotations

import copy
import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from contack_env.cli import main
from contack_env.contack.multiplayer import ENCLOSED_END_OPTIONS
from contack_env.contack.tiles import TILE_NAMES
from contack_env.records import read_records

SCHEMAS = files("contack_env.records").joinpath("schemas")
GOLDEN = Path(__file__).resolve().parents[2] / "golden"
# The validation keywords a failing node can report; each node with one must say in words what is allowed.
# ("required" needs none: a missing key is reported as such, with its name.)
_KEYWORDS = {"type", "enum", "const", "minimum", "maximum", "minItems", "maxItems", "additionalProperties", "anyOf"}


def schema(name: str) -> dict:
    return json.loads(SCHEMAS.joinpath(name).read_text(encoding="utf-8"))


CONTACK = schema("contack-record-1.schema.json")
CONTACTIX = schema("contactix-record-1.schema.json")


def valid(record: dict, against: dict) -> bool:
    return jsonschema.Draft7Validator(against).is_valid(record)


@pytest.mark.parametrize("doc", [CONTACK, CONTACTIX], ids=["contack", "contactix"])
def test_the_schemas_are_valid_json_schemas_with_a_message_on_every_check(doc):
    assert doc["$schema"] == "http://json-schema.org/draft-07/schema#"  # what fastjsonschema reads too
    jsonschema.Draft7Validator.check_schema(doc)
    unexplained = []

    def visit(node, path, quiet):
        """``quiet``: errors under this node are never reported by themselves (an "if", an "anyOf" branch)."""
        if isinstance(node, list):
            for k, value in enumerate(node):
                visit(value, path + [str(k)], quiet)
            return
        if not isinstance(node, dict):
            return
        if not quiet and _KEYWORDS & set(node) and "errorMessage" not in node:
            unexplained.append("/".join(path))
        for key, value in node.items():
            if key in ("properties", "definitions"):  # maps of names to schemas
                for name, sub in value.items():
                    visit(sub, path + [key, name], quiet)
            elif isinstance(value, (dict, list)) and key not in ("errorMessage", "enum", "const", "required"):
                visit(value, path + [key], quiet or key in ("if", "anyOf"))

    visit(doc, [], False)
    assert unexplained == [], unexplained


def test_the_schemas_name_the_engines_tiles_and_options():
    assert CONTACK["definitions"]["tile"]["enum"] == list(TILE_NAMES)
    rules = CONTACK["allOf"][0]["then"]["properties"]["rules"]["properties"]
    assert rules["enclosed_end"]["enum"] == list(ENCLOSED_END_OPTIONS)


def _simulated(tmp_path: Path) -> list[dict]:
    out = []
    for k, args in enumerate(
        (
            ["--game", "contack", "--players", "2", "--agents", "greedy,random", "--trace"],
            ["--game", "contack", "--players", "7", "--hands", "1", "--enclosed-end", "never"],
            ["--game", "solitaire1", "--trace"],
            ["--game", "solitaire1"],
            ["--game", "solitaire2", "--trace"],
            ["--game", "solitaire2"],
        )
    ):
        path = tmp_path / f"sim{k}.jsonl"
        assert main(["simulate", *args, "--games", "2", "--seed", str(k), "--out", str(path)]) == 0
        out += read_records(path)
    return out


def _evaluated(tmp_path: Path) -> list[dict]:
    out = []
    for k, args in enumerate(
        (
            ["--players", "3", "--agents", "greedy,random,random", "--games", "3", "--hands", "1"],
            ["--game", "solitaire2", "--agents", "greedy,random", "--games", "2"],
            ["--game", "contactix", "--board-size", "4", "--swap", "--agents", "two_distance,random", "--games", "2"],
        )
    ):
        path = tmp_path / f"eval{k}.jsonl"
        assert main(["evaluate", *args, "--seed", str(k), "--records", str(path)]) == 0
        out += read_records(path)
    return out


def test_every_record_the_suite_writes_is_valid(tmp_path, capsys):
    records = _simulated(tmp_path) + _evaluated(tmp_path)
    records += [r for path in sorted(GOLDEN.glob("*.jsonl")) for r in read_records(path)]
    assert {r["format"] for r in records} == {"contack-record/1", "contactix-record/1"}
    assert {r.get("game") for r in records} >= {"contack", "solitaire1", "solitaire2"}
    for record in records:
        against = CONTACK if record["format"] == "contack-record/1" else CONTACTIX
        assert valid(record, against), record
        # Each format's schema refuses the other's records.
        assert not valid(record, CONTACTIX if against is CONTACK else CONTACK)


def _contack() -> dict:
    return read_records(GOLDEN / "contack_2p.jsonl")[0]


def _solitaire2() -> dict:
    return read_records(GOLDEN / "solitaire2.jsonl")[0]


def _contactix() -> dict:
    return read_records(GOLDEN / "contactix_5x5.jsonl")[0]


def _place(record: dict) -> dict:
    return next(e for e in record["hands"][0]["events"] if e["type"] == "place")


@pytest.mark.parametrize(
    "make,change",
    [
        (_contack, lambda r: r.update(players="2")),
        (_contack, lambda r: r.update(players=8)),
        (_contack, lambda r: r.update(seed=1.5)),
        (_contack, lambda r: r["rules"].update(enclosed_end="sometimes")),
        (_contack, lambda r: r["hands"][0]["deck"].__setitem__(3, "03-02-01")),
        (_contack, lambda r: _place(r).pop("cell")),
        (_contack, lambda r: _place(r).update(blue="R")),
        (_contack, lambda r: _place(r)["legal"].append(["01-02-03", 0])),
        (_contack, lambda r: r["hands"][0]["events"].append({"type": "undo"})),
        (_contack, lambda r: r.pop("winners")),
        (_solitaire2, lambda r: r.update(players=2)),
        (_solitaire2, lambda r: r["hands"][0].update(cut=6)),
        (_contactix, lambda r: r.update(size=2)),
        (_contactix, lambda r: r.update(extra=1)),
        (_contactix, lambda r: r["moves"].__setitem__(1, "2 2")),
        (_contactix, lambda r: r.update(winner="nobody")),
        (_contactix, lambda r: r.update(agents=["a"])),
    ],
)
def test_broken_records_are_invalid(make, change):
    record = make()
    against = CONTACTIX if record["format"] == "contactix-record/1" else CONTACK
    assert valid(record, against)
    broken = copy.deepcopy(record)
    change(broken)
    assert not valid(broken, against)
