"""Record files, for both formats: JSON lines written atomically, appended one record at a time, and read back
from one object, an array or JSON lines; bad JSON is named by file and line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from contack_env.records import RecordError, append_record, parse_records, read_records, write_records

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def sample(k: int) -> dict:
    """A record of either format: 0 and 1 Contack, 2 CON-TAC-TIX."""
    name, index = [("contack_2p.jsonl", 0), ("contack_4p.jsonl", 1), ("contactix_5x5.jsonl", 0)][k]
    return read_records(GOLDEN / name)[index]


def test_write_records_is_json_lines_and_replaces_atomically(tmp_path) -> None:
    small, rich = sample(0), sample(1)
    path = tmp_path / "out.jsonl"
    path.write_text("old content that must go\n")
    assert write_records(path, [small, rich]) == 2
    lines = path.read_text().splitlines()
    assert [json.loads(line) for line in lines] == [small, rich]
    assert os.listdir(tmp_path) == ["out.jsonl"]  # no temporary file left behind

    with pytest.raises(TypeError, match="record 2"):
        write_records(path, [small, "not a record"])  # type: ignore[list-item]
    assert read_records(path) == [small, rich]  # a failed write leaves the old file whole
    assert os.listdir(tmp_path) == ["out.jsonl"]


def test_write_records_writes_each_record_as_it_comes_and_keeps_the_old_file_on_a_failure(tmp_path) -> None:
    # contack simulate hands it a generator of games: a long run must not be held in memory whole first
    path = tmp_path / "out.jsonl"
    path.write_text("old\n")
    opened_before = []

    def games(fail_at: int | None = None):
        for i in range(3):
            opened_before.append(any(p.name.startswith(".tmp-") for p in tmp_path.iterdir()))
            if i == fail_at:
                raise KeyboardInterrupt  # Ctrl-C in the middle of the games
            yield sample(i % 2)

    assert write_records(path, games()) == 3
    assert opened_before == [True, True, True]  # the file was open before the first game ended
    assert [json.loads(line) for line in path.read_text().splitlines()] == [sample(0), sample(1), sample(0)]
    path.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        write_records(path, games(fail_at=2))
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]


def test_append_record(tmp_path) -> None:
    path = tmp_path / "log.jsonl"
    a, b = sample(0), sample(2)
    append_record(path, a)
    append_record(path, b)
    assert read_records(path) == [a, b]
    path.write_text(json.dumps(a))  # a last line without its newline
    append_record(path, b)
    assert read_records(path) == [a, b]


def test_append_record_refuses_to_bury_a_torn_last_line(tmp_path) -> None:
    # After an interrupted append, a new line would leave the torn one in the middle, and no reader reads past it.
    path = tmp_path / "log.jsonl"
    a, b = sample(0), sample(2)
    torn = json.dumps(a) + "\n" + json.dumps(b) + "\n" + json.dumps(b)[: len(json.dumps(b)) // 2]
    path.write_text(torn)
    with pytest.raises(RecordError, match="its last line is not a whole record .* remove that line first"):
        append_record(path, a)
    assert path.read_text() == torn  # left as it was
    assert read_records(path, on_torn=lambda err: None) == [a, b]
    # A last line that is a whole record, after a byte-order mark, or a blank tail, is no torn line.
    for start, end in ((b"\xef\xbb\xbf", b""), (b"", b"\n  ")):
        path.write_bytes(start + json.dumps(a).encode() + end)
        append_record(path, b)
        assert read_records(path) == [a, b]


def test_only_a_last_line_cut_short_is_torn(tmp_path) -> None:
    # an interrupted append leaves its line without the newline that ends every whole one: a bad last line that
    # has its newline (a slip of an editor) is bad JSON like any other line, not a torn write left out
    a, b = sample(0), sample(2)
    half = json.dumps(b)[: len(json.dumps(b)) // 2]
    torn: list[RecordError] = []
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(a) + "\n" + half)
    assert read_records(path, on_torn=torn.append) == [a] and "line 2: torn last line" in str(torn[0])
    for tail in ("\n", "\n\n  \n"):
        path.write_text(json.dumps(a) + "\n" + half + tail)
        with pytest.raises(RecordError, match=r"line 2: invalid JSON"):
            read_records(path, on_torn=torn.append)
    assert len(torn) == 1


def test_append_record_adds_to_files_of_records_only(tmp_path) -> None:
    # a text file ending in a newline took the record as its last line
    a = sample(0)
    for name, content in (("notes.txt", "precious\n"), ("table.csv", "a,b\n1,2\n\n"), ("list.json", "[1, 2]\n")):
        path = tmp_path / name
        path.write_text(content)
        with pytest.raises(RecordError, match="its last line is not a JSON object, as a record is: records are added"):
            append_record(path, a)
        assert path.read_text() == content
    for content in ("", "\n\n", json.dumps(a) + "\n\n  \n"):  # empty, blank, records with a blank tail
        path = tmp_path / "log.jsonl"
        path.write_text(content)
        append_record(path, a)
        assert read_records(path)[-1] == a


def test_read_records_accepts_an_object_an_array_and_json_lines(tmp_path) -> None:
    a, b = sample(0), sample(2)
    single = tmp_path / "one.json"
    single.write_text(json.dumps(a, indent=2))
    assert read_records(single) == [a]
    array = tmp_path / "many.json"
    array.write_text(json.dumps([a, b], indent=1))
    assert read_records(array) == [a, b]
    lines = tmp_path / "many.jsonl"
    lines.write_text(json.dumps(a) + "\n\n" + json.dumps(b) + "\n")
    assert read_records(lines) == [a, b]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert read_records(empty) == []


@pytest.mark.parametrize(
    "text, line, why",
    [
        ('{"a": 1}\n{"a": 2}\n{"a": 3,,}\n', 3, "invalid JSON"),
        ('{"a": 1,\n "b": 2,\n "c": }\n', 3, "invalid JSON"),
        ('[{"a": 1},\n {"a": 2,}\n]\n', 2, "invalid JSON"),
        ('[{"a": 1},\n {"a": 2}\n', 3, "invalid JSON"),  # unterminated: the decoder stops at the end
        ('{"a": 1}\n[1, 2]\n', 2, "holds an array; a record is a JSON object"),
        ("not json\n", 1, "invalid JSON"),
    ],
)
def test_read_records_names_the_file_and_line_of_bad_json(tmp_path, text, line, why) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(RecordError) as info:
        read_records(path)
    assert info.value.where == f"{path}, line {line}"
    assert why in info.value.why


def test_read_records_refuses_text_that_is_not_utf8(tmp_path) -> None:
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": "\xff"}\n')
    with pytest.raises(RecordError) as info:
        read_records(path)
    assert info.value.where == f"{path}, line 2" and info.value.why.startswith("not UTF-8 text")


@pytest.mark.parametrize("text, line", [
    ('{"a": 1}\n{"agents": ["\\ud800", "greedy"]}\n', 2),
    ('{"a": 1}\n{"\\uDC00x": 1}\n', 2),  # in a key, and the low half, in capitals
    ('{"a": 1}\n{"b": ["ok", {"c": "\\ud83d"}]}\n', 2),  # the first half of a pair, left alone
])
def test_read_records_refuses_a_lone_surrogate_and_names_its_line(tmp_path, text, line) -> None:
    # JSON may write one and Python's reader takes it, but it is no character: a table or message that shows the
    # name failed as it was printed, with a traceback.
    path = tmp_path / "surrogate.jsonl"
    path.write_text(text)
    with pytest.raises(RecordError) as info:
        read_records(path)
    assert info.value.where == f"{path}, line {line}" and "lone surrogate" in info.value.why


def test_no_record_holding_a_lone_surrogate_is_written_or_added_to(tmp_path) -> None:
    # What the readers refuse, the writers do not write: json.dumps writes it as an escape, and the file was then
    # unreadable from that line on.
    with pytest.raises(ValueError, match=r"^record 2: the string '\\ud800' holds a lone surrogate"):
        write_records(tmp_path / "w.jsonl", [{"a": 1}, {"b": "\ud800"}])
    assert not (tmp_path / "w.jsonl").exists()
    with pytest.raises(ValueError, match="lone surrogate"):
        append_record(tmp_path / "a.jsonl", {"agents": ["\udc00"]})
    assert not (tmp_path / "a.jsonl").exists()
    old = tmp_path / "old.jsonl"
    old.write_text('{"agents": ["\\ud800"]}\n')
    with pytest.raises(RecordError, match=r"its last line holds the string '\\ud800', with a lone surrogate"):
        append_record(old, {"a": 1})
    assert old.read_text() == '{"agents": ["\\ud800"]}\n'


def test_a_pair_of_surrogate_escapes_is_one_character_and_reads() -> None:
    assert parse_records('{"agent": "\\ud83d\\ude00", "escaped": "\\\\ud800"}') == [{"agent": "\U0001F600",
                                                                                      "escaped": "\\ud800"}]


def test_read_records_refuses_arrays_of_non_objects(tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"a": 1}, 2]')
    with pytest.raises(RecordError, match="item 2 of the array is a number"):
        read_records(path)
    path.write_text('"contack"')
    with pytest.raises(RecordError, match="holds a string"):
        read_records(path)


def test_write_records_to_a_folder_names_the_folder(tmp_path) -> None:
    (tmp_path / "p").mkdir()
    with pytest.raises(IsADirectoryError) as err:
        write_records(tmp_path / "p", [sample(0)])
    assert err.value.filename == str(tmp_path / "p") and ".tmp-" not in str(err.value)
    assert [p.name for p in tmp_path.iterdir()] == ["p"]  # no temporary file left


def test_a_byte_order_mark_at_the_start_is_skipped(tmp_path) -> None:
    # Some editors begin every UTF-8 file with one; the records are the same, in a file or in a text (uploads).
    a = sample(0)
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (json.dumps(a) + "\n").encode())
    assert read_records(path) == [a]
    assert parse_records(path.read_bytes().decode("utf-8")) == [a]
