"""Printed tables line up on a terminal whatever the agents' names: columns are counted in screen columns, so a
name in Chinese or Japanese (two columns a character) or with a combining accent does not push its row out."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from contack_env.cli import main
from contack_env import new_game
from contack_env.cli.terminal_screen import seat_lines
from contack_env.cli_support import clipped, padded, screen_width
from contack_env.records import read_records, write_records
from training.az.hand_ends import count, format_table

MODELS = Path(__file__).resolve().parents[2] / "models"
WIDE = "模型"
"""Two characters, four columns: East Asian wide (Unicode's East_Asian_Width W)."""


def _columns(line: str) -> list[str]:
    """``line`` as a terminal lays it out: one entry a column, a character of ``WIDE`` followed by an empty one.
    Every other character these tests print takes one column (ASCII, and the letters of a temporary folder)."""
    out: list[str] = []
    for c in line:
        out += [c, ""] if c in WIDE else [c]
    return out


def _figure_under(line: str, start: int, heading: str) -> float:
    """The figure ``line`` shows under ``heading`` (which starts at screen column ``start`` of the header): right
    aligned under it, with a space before; an error if something else is there (a row pushed out of line)."""
    columns = _columns(line)
    cell = "".join(columns[start:start + len(heading)])
    assert re.fullmatch(r" *[+-]?\d+(\.\d+)?", cell) and columns[start - 1] == " ", (heading, cell, line)
    return float(cell)


def _ends_under(line: str, end: int) -> None:
    """``line``'s figure that ends at screen column ``end`` (its heading's last, a right-aligned column that may
    be wider than its heading): a digit there, and a space or the line's end after it."""
    columns = _columns(line)
    assert columns[end].isdigit() and (end + 1 == len(columns) or columns[end + 1] == " "), (end, line)


def _start(header: str, heading: str) -> int:
    return len(_columns(header[: header.index(heading)]))


@pytest.mark.parametrize("text, width", [
    ("lookahead", 9),
    (WIDE, 4),
    ("表計算", 6),  # CJK ideographs
    ("ｗｉｄｅ", 8),  # full-width Latin letters
    ("e\u0301te\u0301", 3),  # été with combining acute accents: one column a letter
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", 4),  # 한글 decomposed (as macOS names files): two syllables
    ("\u304b\u3099", 2),  # が decomposed: か and a combining sound mark
    ("a\u200db", 2),  # a zero-width joiner between letters takes none
    ("co\u00adop", 5),  # a soft hyphen is drawn
    ("\u2764\ufe0f", 2),  # a heart drawn as an emoji
    ("\U0001f44d\U0001f3fd", 2),  # thumbs up with a skin tone
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467", 2),  # a family: three emoji joined into one
    ("\U0001f3c3\u200d\u2642\ufe0f", 2),  # a man running: an emoji joined to a sign drawn as an emoji
    ("a\ufe0f", 1),  # the emoji selector draws a letter as it was
    ("1\ufe0f\u20e3", 2),  # a keycap
    ("", 0),
])
def test_screen_width_counts_terminal_columns(text, width):
    assert screen_width(text) == width
    assert screen_width(padded(text, 10)) == 10 and padded(text, 10).startswith(text)
    assert padded(text, 0) == text  # never cut


@pytest.mark.parametrize("text, width, clip", [
    ("abcdef", 6, "abcdef"),
    ("abcdefg", 6, "abc..."),
    ("模型模型模型", 12, "模型模型模型"),
    ("模型模型模型", 8, "模型..."),  # 4 + 3 columns: a wide character is never cut in half
    ("模型模型模型", 7, "模型..."),
])
def test_clipped_fits_a_name_into_its_columns(text, width, clip):
    assert clipped(text, width) == clip and screen_width(clipped(text, width)) <= width


def test_clipped_cuts_a_long_name_at_once_and_leaves_no_joiner_hanging():
    long = "x" * 200_000  # a path in --agents may be long: the screen is drawn at every move
    assert clipped(long, 24) == "x" * 21 + "..."
    assert clipped("abc\U0001f3c3\u200d\u2642\ufe0f" + "z" * 10, 8) == "abc\U0001f3c3\u200d\u2642\ufe0f..."  # whole
    assert clipped("abcd\u200defgh", 7) == "abcd..."


def test_contack_play_lines_up_the_seats_whatever_their_names():
    state = new_game(2, num_hands=3, seed=1)
    end = len("> ") + 24 + len(" ") + 5 - 1  # the mark, the name's 24 columns, the score's 5
    for name in (f"seat 1 (ppo:{WIDE})", f"seat 1 (ppo:{WIDE * 20})"):  # the second clipped to 24 columns
        lines = seat_lines(state, ["seat 0 (you)", name])
        for line in lines:
            _ends_under(line, end)
        assert len(_columns(lines[1][:lines[1].index("...") + 3])) <= 2 + 24 if len(name) > 24 else name in lines[1]


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
    ("contactix", "contactix_5x5.npz", ("win rate", "as black", "as white")),
])
def test_contack_evaluate_lines_up_a_name_in_wide_characters(tmp_path, capsys, game, model, headings):
    spec = f"ppo:{_copy_model(tmp_path, model)}"
    options = ["--board-size", "5"] if game == "contactix" else []
    other = "random" if game == "contactix" else "greedy"
    assert main(["evaluate", "--game", game, *options, "--agents", f"{spec},{other}", "--games", "2", "--seed", "1",
                 "--progress", "off"]) == 0
    header, rows = _rows(capsys.readouterr().out, "win rate")
    rows = [row for row in rows if row[:2].strip().isdigit()]
    assert len(rows) == 2 and any(WIDE in row for row in rows)
    for heading in headings:
        start = _start(header, heading)
        for row in rows:
            _figure_under(row, start, heading)
    if "Elo" in header:  # right-aligned figures that may be wider than the heading; an interval under each "95% CI"
        for row in rows:
            _ends_under(row, _start(header, "Elo") + len("Elo") - 1)
        cis = [m.start() for m in re.finditer(r"95% CI", header)]
        for row in rows:
            columns = _columns(row)
            assert all(columns[len(_columns(header[:at]))] in "[-" for at in cis), row  # "-": no interval
            if game == "contack":  # the margin's interval fills its heading's cell to its last column
                margin_ci = len(_columns(header[:cis[1]]))
                assert columns[margin_ci + len("[ +100.0,  +100.0]") - 1] == "]", row


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
