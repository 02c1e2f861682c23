"""``contack train --backend rllib`` without Ray installed, and the observation adapter (which needs no ray)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from contack_env import contack_v0
from training.rllib.observations import RLlibObservations

# Runs the command line with `ray` unimportable, whether or not this environment has it.
WITHOUT_RAY = """
import sys
class NoRay:
    def find_spec(self, name, path=None, target=None):
        if name == "ray" or name.startswith("ray."):
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, NoRay())
from contack_env.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_rllib_backend_without_ray_names_the_install_command(tmp_path) -> None:
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "train", "--backend", "rllib", "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install -c constraints-rllib.txt -e '.[rllib]'" in lines[0], done.stderr
    assert not out.exists()


def test_an_out_that_is_a_file_is_a_usage_error_before_ray_is_looked_for(tmp_path) -> None:
    target = tmp_path / "results.txt"
    target.write_text("keep me")
    for out, told in ((target, "is a file, not a folder"), (target / "run", "lies under the file"), ("", "--out is empty")):
        done = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "train", "--backend", "rllib", "--out", str(out)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and told in done.stderr and "usage: contack train" in done.stderr, done.stderr
    assert target.read_text() == "keep me"


def test_env_runners_belongs_to_the_rllib_backend(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "contack_env.cli", "train", "--env-runners", "2", "--out",
                           str(tmp_path / "run")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--env-runners: a setting of --backend rllib" in done.stderr


def test_the_rllib_backend_refuses_settings_of_az_rather_than_ignore_them(tmp_path) -> None:
    # a usage error before Ray is looked for, whether or not this environment has it; nothing is made
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "train", "--backend", "rllib", "--workers", "32", "--ray",
                           "--sims", "5", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("usage: "), done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "contack train: error: --ray, --sims, --workers: setting(s) of --algorithm az, not used by --backend rllib "
        "(RLlib's own: --env-runners K, and a Ray cluster through RAY_ADDRESS)")
    assert not out.exists()


def test_rllib_observations_renames_the_keys_and_keeps_the_game() -> None:
    env = RLlibObservations(contack_v0.env(num_players=3))
    plain = contack_v0.env(num_players=3)
    env.reset(seed=7)
    plain.reset(seed=7)
    rng = np.random.default_rng(1)
    for _ in range(20):
        agent = env.agent_selection
        obs, ref = env.observe(agent), plain.observe(agent)
        assert set(obs) == {"observations", "action_mask"}
        assert env.observation_space(agent).contains(obs)
        np.testing.assert_array_equal(obs["observations"], ref["observation"])
        np.testing.assert_array_equal(obs["action_mask"], ref["action_mask"].astype(np.float32))
        action = int(rng.choice(np.flatnonzero(ref["action_mask"])))
        env.step(action)
        plain.step(action)


def test_rllib_pins_and_ci() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pins = (root / "constraints-rllib.txt").read_text().splitlines()
    assert {"ray==2.60.0", "gymnasium==1.2.2", "torch==2.13.0"} <= set(pins)
    ci = (root / ".ci" / "run").read_text()
    # The test extra is not installed there: its tianshou needs pandas<3, ray's rllib extra pandas 3. pytest-xdist
    # is, pinned: the suite's options (pyproject.toml) ask for its worker processes.
    assert ".venv-rllib/bin/pip install -q -c constraints-rllib.txt -e '.[rllib]' pytest pytest-xdist hypothesis" in ci
    assert any(pin.startswith("pytest-xdist==") for pin in pins)
    assert ".venv-rllib/bin/python -m pytest tests/ray " in ci
