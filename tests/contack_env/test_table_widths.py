"""Printed tables line up on a terminal whatever the agents' names: columns are counted in screen columns, so a
name in Chinese or Japanese (two columns a character) or with a combining accent does not push its row out."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from contack_env.cli import main
from contack_env.cli_support import padded, screen_width
from contack_env.records import read_records, write_records
from training.az.hand_ends import count, format_table

MODELS = Path(__file__).resolve().parents[2] / "models"
WIDE = "模型"
"""Two characters, four columns: East Asian wide (Unicode's East_Asian_Width W)."""


def _columns(line: str) -> list[str]:
    """``line`` as a terminal lays it out: one entry a column, a wide character followed by an empty one. Only the
    characters these tests print are known: ASCII and ``WIDE``."""
    out: list[str] = []
    for c in line:
        assert c.isascii() or c in WIDE, f"a character these tests do not lay out: {c!r}"
        out += [c, ""] if c in WIDE else [c]
    return out


def _figure_under(line: str, start: int, heading: str) -> float:
    """The figure ``line`` shows under ``heading`` (which starts at screen column ``start`` of the header): right
    aligned under it, with a space before; an error if something else is there (a row pushed out of line)."""
    columns = _columns(line)
    cell = "".join(columns[start:start + len(heading)])
    assert re.fullmatch(r" *[+-]?\d+(\.\d+)?", cell) and columns[start - 1] == " ", (heading, cell, line)
    return float(cell)


def _start(header: str, heading: str) -> int:
    return len(_columns(header[: header.index(heading)]))


@pytest.mark.parametrize("text, width", [
    ("lookahead", 9),
    (WIDE, 4),
    ("表計算", 6),  # CJK ideographs
    ("ｗｉｄｅ", 8),  # full-width Latin letters
    ("e\u0301te\u0301", 3),  # été with combining acute accents: one column a letter
    ("a\u200db", 2),  # a zero-width joiner takes none
    ("", 0),
])
def test_screen_width_counts_terminal_columns(text, width):
    assert screen_width(text) == width
    assert screen_width(padded(text, 10)) == 10 and padded(text, 10).startswith(text)
    assert padded(text, 0) == text  # never cut


def _copy_model(tmp_path: Path, name: str) -> str:
    """A shipped model copied into a folder named in Chinese characters, as a user's folder may be."""
    folder = tmp_path / WIDE
    folder.mkdir(exist_ok=True)
    shutil.copy(MODELS / name, folder / name)
    return str(folder / name)


def _rows(printed: str, first: str) -> tuple[str, list[str]]:
    lines = printed.splitlines()
    k = next(i for i, line in enumerate(lines) if first in line)
    return lines[k], lines[k + 1:]


@pytest.mark.parametrize("game, model, headings", [
    ("contack", "contack_2p.npz", ("win rate", "mean score", "margin")),
    ("solitaire1", "solitaire1.npz", ("win rate", "tiles placed", "points")),
])
def test_contack_evaluate_lines_up_a_name_in_wide_characters(tmp_path, capsys, game, model, headings):
    spec = f"ppo:{_copy_model(tmp_path, model)}"
    assert main(["evaluate", "--game", game, "--agents", f"{spec},greedy", "--games", "2", "--seed", "1",
                 "--progress", "off"]) == 0
    header, rows = _rows(capsys.readouterr().out, "win rate")
    rows = [row for row in rows if row[:2].strip().isdigit()]
    assert len(rows) == 2 and any(WIDE in row for row in rows)
    for heading in headings:
        start = _start(header, heading)
        assert all(_figure_under(row, start, heading) is not None for row in rows)


def test_contack_simulate_lines_up_a_name_in_wide_characters(tmp_path, capsys):
    spec = f"ppo:{_copy_model(tmp_path, 'contack_2p.npz')}"
    assert main(["simulate", "--players", "2", "--agents", f"greedy,{spec}", "--games", "2", "--seed", "1",
                 "--out", str(tmp_path / "games.jsonl")]) == 0
    header, rows = _rows(capsys.readouterr().out, "win rate")
    rows = rows[:2]  # the seats; then the hands' ends and the file written
    assert WIDE in rows[1]
    for heading in ("wins", "win rate", "mean score"):
        start = _start(header, heading)
        assert all(_figure_under(row, start, heading) >= 0 for row in rows)


def _records_named(tmp_path: Path) -> list[dict]:
    """Records of greedy against random, with random renamed in wide characters (records can name anything)."""
    assert main(["simulate", "--players", "2", "--agents", "greedy,random", "--games", "4", "--seed", "1",
                 "--out", str(tmp_path / "games.jsonl")]) == 0
    records = read_records(tmp_path / "games.jsonl")
    for record in records:
        record["agents"] = [WIDE if name == "random" else name for name in record["agents"]]
    return records


def test_contack_ratings_lines_up_a_name_in_wide_characters(tmp_path, capsys):
    write_records(tmp_path / "named.jsonl", _records_named(tmp_path))
    capsys.readouterr()
    assert main(["ratings", str(tmp_path / "named.jsonl")]) == 0
    header, rows = _rows(capsys.readouterr().out, "win rate")
    rows = [row for row in rows if row[:3].strip().isdigit()]
    assert len(rows) == 2 and any(WIDE in row for row in rows)
    for heading in ("games", "win rate"):
        start = _start(header, heading)
        assert all(_figure_under(row, start, heading) >= 0 for row in rows)


def test_hand_ends_lines_up_a_name_in_wide_characters(tmp_path):
    lines = format_table(count(_records_named(tmp_path), "greedy"), "greedy").splitlines()
    header, rows = lines[1], lines[2:]
    assert len(rows) == 2 and WIDE in rows[1]
    for heading in ("win rate", "out/hand", "passes/hand"):
        start = _start(header, heading)
        assert all(_figure_under(row, start, heading) >= 0 for row in rows)
