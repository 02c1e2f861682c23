"""Golden outputs: fixed-seed records and an evaluation, byte for byte (see ``tests/golden/commands.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("golden_commands", ROOT / "tests" / "golden" / "commands.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("name,args", golden.COMMANDS, ids=[n for n, _ in golden.COMMANDS])
def test_output_is_byte_identical(name, args, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / name
    golden.run(name, args, out)
    expected = (golden.GOLDEN / name).read_bytes()
    got = out.read_bytes()
    if got != expected:
        import difflib

        diff = difflib.unified_diff(expected.decode().splitlines(), got.decode().splitlines(), "golden", "now", lineterm="", n=1)
        pytest.fail(f"{name} differs from its golden copy (regenerate with python tests/golden/commands.py if meant):\n"
                    + "\n".join(list(diff)[:40]))


def test_self_play_samples_are_unchanged(monkeypatch):
    """Self-play with each shipped az model's training setup gives the golden samples: a change to self-play shows
    up here as a change to what the models' commands would train."""
    monkeypatch.chdir(ROOT)
    got = golden.selfplay_golden()
    expected = (golden.GOLDEN / golden.SELFPLAY).read_text()
    if got != expected:
        import json

        new, old = json.loads(got), json.loads(expected)
        changed = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k))
        pytest.fail(f"{golden.SELFPLAY} differs for {', '.join(changed)} "
                    "(regenerate with python tests/golden/commands.py if meant)")


def test_the_learner_is_unchanged(monkeypatch):
    """The heads-up model's learner, trained from its seed on fixed samples, gives the golden losses and network
    outputs: a change to the network, the optimizer, the batches or the loss shows up here."""
    monkeypatch.chdir(ROOT)
    got = golden.learner_golden()
    expected = (golden.GOLDEN / golden.LEARNER).read_text()
    assert got == expected, f"{golden.LEARNER} differs (regenerate with python tests/golden/commands.py if meant)"


def test_a_short_ppo_run_is_unchanged(monkeypatch, tmp_path):
    """A short run of the heads-up PPO model's command gives the golden evaluations and policy: a change to what
    ``contack train`` makes (environments, opponents, random streams, checkpoints, the learner) shows up here."""
    monkeypatch.chdir(ROOT)
    got = golden.ppo_golden(tmp_path / "run")
    expected = (golden.GOLDEN / golden.PPO_RUN).read_text()
    assert got == expected, f"{golden.PPO_RUN} differs (regenerate with python tests/golden/commands.py if meant)"
