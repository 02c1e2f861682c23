"""What users read speaks to them about the software: no planning talk, no files a clone does not have."""

import json
import re
from pathlib import Path

import pytest

from contack_env.cli import build_parsers, main

ROOT = Path(__file__).resolve().parent.parent
PLANNING = re.compile(r"\bissues? ?#?\d+\b|\bthe (training )?issue\b|\bwe aimed\b|\baimed for\b|these machines"
                      r"|\bthe budget we had\b|\b(this|previous|last) session\b", re.I)
# The normative texts beside the project's own checkout; a clone has docs/rules.md and docs/records.md instead.
ABSENT = re.compile(r"(?<![\w/])(RULES|RECORDS)\.md\b|\bshared/")


def user_texts():
    for path in [ROOT / "README.md", ROOT / "constraints.txt", *sorted((ROOT / "docs").glob("*.md")),
                 *sorted((ROOT / "models").glob("*.md")), *sorted((ROOT / "notebooks").glob("*.md"))]:
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells)
        outputs = "\n".join("".join(o.get("text", "")) for c in cells for o in c.get("outputs", []))
        yield path.relative_to(ROOT).as_posix(), text + "\n" + outputs


TEXTS = list(user_texts())


@pytest.mark.parametrize("name,text", TEXTS, ids=[name for name, _ in TEXTS])
def test_docs_speak_to_users(name, text):
    assert not PLANNING.findall(text), f"{name}: planning talk {PLANNING.findall(text)}"
    hits = [m.group(0) for m in ABSENT.finditer(text)]
    assert not hits, f"{name} names files a clone lacks: {hits}"


@pytest.mark.parametrize("command", sorted(build_parsers()[1]))
def test_help_texts_cite_the_docs_a_clone_has(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert "usage:" in text and not ABSENT.search(text) and not PLANNING.search(text), text
    # argparse %-formats the options' help, not a description: a "%%" there is printed as it stands
    assert "%%" not in text and "%(" not in text, text
