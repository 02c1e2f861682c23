"""The project's set-up promises: the README's two Quick start commands and CI running the second."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_quick_start_has_two_commands():
    commands = _quick_start_commands()
    assert len(commands) == 2
    assert all("-c constraints.txt" in c for c in commands)


def test_ci_runs_the_readme_test_command():
    assert _quick_start_commands()[1] in (ROOT / ".ci" / "run").read_text()


def test_constraints_pin_the_tested_torch():
    assert "torch==2.13.0" in (ROOT / "constraints.txt").read_text().splitlines()
