"""docs/scale.md's recipe "RLlib used directly on contack_v0", run as a user runs it: the script on its own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

DOC = Path(__file__).resolve().parents[2] / "docs" / "scale.md"


def recipe() -> str:
    text = DOC.read_text()
    section = text.split("### RLlib used directly on contack_v0", 1)[1].split("\n#", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the recipe is the section's one python block"
    return blocks[0]


def test_rllib_recipe_trains_two_iterations(tmp_path: Path) -> None:
    script = tmp_path / "train_contack_rllib.py"
    script.write_text(recipe())
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=540)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("iteration")]
    assert lines == ["iteration 1: 256 env steps", "iteration 2: 512 env steps"], done.stdout
