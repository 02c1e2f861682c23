"""``constraints.txt`` pins what the project installs and nothing that stops tools beside it from installing:
Tianshou 2.0.1 (which needs ``virtualenv<21``, hence ``filelock<4``) resolves against it with the tested torch."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
CONSTRAINTS = ROOT / "constraints.txt"


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.lower().replace("_", "-")] = version
    return pins


def test_constraints_pin_no_filelock_and_the_tested_tianshou():
    pins = _pins()
    assert "filelock" not in pins
    assert pins["tianshou"] == "2.0.1" and pins["torch"] == "2.13.0"


def _pypi_reachable() -> bool:
    try:
        with urllib.request.urlopen("https://pypi.org/simple/tianshou/", timeout=15):
            return True
    except (urllib.error.URLError, OSError):
        return False


def test_tianshou_installs_beside_the_constraints_without_another_torch(tmp_path):
    if not _pypi_reachable():
        pytest.skip("PyPI is unreachable: the resolution needs its package metadata")
    report = tmp_path / "report.json"
    # A dry run resolves from metadata alone: nothing is installed and no large wheel is fetched.
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--report", str(report),
         "-c", str(CONSTRAINTS), "tianshou==2.0.1"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    installs = {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in json.loads(report.read_text())["install"]}
    assert installs["tianshou"] == "2.0.1"
    assert Version(installs["torch"]).base_version == "2.13.0"  # the pinned torch (its CPU build where it is local)
    assert Version(installs["filelock"]).major == 3  # what virtualenv<21 takes
    pins = _pins()
    drift = {name: version for name, version in installs.items() if name in pins and Version(version).base_version != pins[name]}
    assert drift == {}
