"""Running ``contack ...`` in a fresh process, as a user does, and checking how it ends (see conftest.py)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Whatever module layout the command line has, its entry point is contack_env.cli:main (pyproject.toml).
ENTRY = "import sys; from contack_env.cli import main; sys.exit(main())"
# A search-guided training run far longer than any test waits, with two self-play workers and a checkpoint at
# every iteration: to be stopped.
AZ_LONG = ["--algorithm", "az", "--iterations", "1000", "--games-per-iteration", "4", "--sims", "4", "--play-sims", "2",
           "--workers", "2", "--net-arch", "16", "--batch-size", "16", "--eval-every", "0", "--hands", "1",
           "--pretrain-games", "0", "--checkpoint-every", "1", "--progress", "off"]


@dataclass
class Result:
    code: int
    out: str
    err: str

    def assert_clean_failure(self, code: int, message: str) -> None:
        assert self.code == code, (self.code, self.out, self.err)
        assert message in self.err, self.err
        assert "Traceback" not in self.err and "Traceback" not in self.out, self.err


def contack_command(*args: str) -> list[str]:
    return [sys.executable, "-c", ENTRY, *map(str, args)]


def run_contack(*args: str, cwd: Path | str = ROOT, stdin: str = "", timeout: float = 300,
                prefix: str = "") -> Result:
    """``contack ARGS`` in a subprocess; ``prefix``: shell commands first (e.g. ``ulimit -f 1``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    if prefix:
        command = prefix + "; exec " + shlex.join(contack_command(*args))
        proc = subprocess.run(["bash", "-c", command], cwd=cwd, input=stdin, capture_output=True, text=True,
                              timeout=timeout, env=env)
    else:
        proc = subprocess.run(contack_command(*args), cwd=cwd, input=stdin, capture_output=True, text=True,
                              timeout=timeout, env=env)
    return Result(proc.returncode, proc.stdout, proc.stderr)
