"""Fuzzing: valid records (from `contack simulate`), mutated at random, fed to `replay --check` and `render`.

Whatever the mutation (a value replaced, a key removed or repeated, a list item dropped or doubled, the text cut,
spliced or garbled), the answer is a line per record, ``OK`` or ``FAIL <where>: <why>``, and never a traceback.
"""

from __future__ import annotations

import copy
import io
import json
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contack_env.cli import main

SOURCES = {
    "contack_3p": ["--players", "3", "--hands", "1", "--agents", "greedy,random,random"],
    "contack_2p_trace": ["--players", "2", "--hands", "1", "--trace"],
    "solitaire1": ["--game", "solitaire1"],
    "solitaire2": ["--game", "solitaire2", "--agents", "greedy"],
}
LINE = re.compile(r"^(OK \S+:\d+|FAIL \S.*?: \S.*|\d+ passed, \d+ failed)$")


@pytest.fixture(scope="module")
def valid_records(tmp_path_factory) -> list[dict]:
    folder = tmp_path_factory.mktemp("valid")
    records = []
    for name, args in SOURCES.items():
        path = folder / f"{name}.jsonl"
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            assert main(["simulate", "--games", "1", "--seed", "5", "--out", str(path), *args]) == 0
        records.append(json.loads(path.read_text()))
    return records


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from(["01-02-03", "09-10-01", "place", "pass", "end", "B", "pile", 0, 1, -1, 36]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _slots(value, path=()):
    """Every place in the JSON tree: (path to the container, key or index)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key
            yield from _slots(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield path, index
            yield from _slots(item, (*path, index))


def _at(value, path):
    for step in path:
        value = value[step]
    return value


@st.composite
def mutated_text(draw, records) -> str:
    record = copy.deepcopy(draw(st.sampled_from(records)))
    rnd = draw(st.randoms(use_true_random=False))
    slots = list(_slots(record))
    for _ in range(draw(st.integers(1, 3))):
        # Half the time a place near the top (format, players, rules, scores, a hand's deck), else any place
        # at all (mostly inside the events, which are most of a record).
        shallow = [slot for slot in slots if len(slot[0]) <= 2]
        path, key = rnd.choice(shallow if draw(st.booleans()) else slots)
        container = _at(record, path)
        kind = draw(st.sampled_from(["replace", "delete", "double", "insert"]))
        try:
            if kind == "replace":
                container[key] = draw(JSON_VALUES)
            elif kind == "delete":
                del container[key]
            elif kind == "double" and isinstance(container, list):
                container.insert(key, copy.deepcopy(container[key]))
            elif kind == "insert" and isinstance(container, dict):
                container[draw(st.text(max_size=6))] = draw(JSON_VALUES)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation removed that place
        slots = list(_slots(record))
        if not slots:
            break
    text = json.dumps(record)
    edit = draw(st.sampled_from(["none", "none", "cut", "splice", "repeat_key", "huge_number", "garble"]))
    at = draw(st.integers(0, max(0, len(text) - 1)))
    if edit == "cut":
        text = text[:at]
    elif edit == "splice":
        text = text[:at] + draw(st.sampled_from(["{", "}", "[", "]", ",", ":", '"', "\\", "1e999", "-", "\n"])) + text[at:]
    elif edit == "repeat_key":
        text = text.replace('"seed": ', '"seed": 1, "seed": ', 1)
    elif edit == "huge_number":
        text = re.sub(r"\d+", "9" * 5000, text, count=1)
    elif edit == "garble":
        text = text[:at] + draw(st.text(min_size=1, max_size=4)) + text[at + 1:]
    return text


def _check_lines(output: str) -> None:
    lines = output.splitlines()
    assert lines, "replay --check printed nothing"
    assert all(LINE.match(line) for line in lines), output
    assert re.fullmatch(r"\d+ passed, \d+ failed", lines[-1])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_replay_check_answers_every_mutated_record_with_ok_or_fail(valid_records, data):
    texts = [data.draw(mutated_text(valid_records)) for _ in range(data.draw(st.integers(1, 3)))]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.jsonl"
        path.write_text("\n".join(texts) + "\n", encoding="utf-8", errors="surrogatepass")
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            code = main(["replay", "--check", str(path)])
    _check_lines(out.getvalue())
    assert code == (0 if "FAIL" not in out.getvalue() else 1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_render_draws_or_refuses_every_mutated_record_with_a_reason(valid_records, data):
    text = data.draw(mutated_text(valid_records))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.jsonl"
        path.write_text(text + "\n", encoding="utf-8", errors="surrogatepass")
        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            try:
                code = main(["render", str(path), "--out", str(Path(folder) / "m.png"), "--every", "1000"])
            except SystemExit as stop:  # argparse's usage errors (e.g. --index past the records)
                code = stop.code
        if code == 0:
            assert (Path(folder) / "m.png").stat().st_size > 0
        else:
            assert code in (1, 2) and err.getvalue().startswith(("contack render: ", "usage: ")), err.getvalue()
            assert not (Path(folder) / "m.png").exists()


def test_a_few_mutated_files_through_the_command_line(valid_records, tmp_path, cli):
    # The same in a fresh process, as a user runs it: exit status, output, and no traceback on stderr.
    good = [json.dumps(r) for r in valid_records]
    files = {
        "cut.jsonl": "\n".join(good)[:-300],
        "dup.jsonl": good[0].replace('"game": ', '"game": "x", "game": ', 1),
        "huge.jsonl": good[1].replace('"seed": 5', '"seed": ' + "7" * 4400),
        "wrong.jsonl": good[2].replace('"points": ', '"points": 1 + ', 1),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text + "\n")
        result = cli("replay", "--check", tmp_path / name)
        assert result.code == 1 and "Traceback" not in result.err, result.err
        _check_lines(result.out)
        assert "FAIL" in result.out
        render = cli("render", tmp_path / name, "--out", tmp_path / "x.png")
        assert render.code in (0, 1) and "Traceback" not in render.err, render.err
