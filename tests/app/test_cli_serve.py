"""``contack serve`` on the command line: where it listens, which models it offers, bad options."""

from __future__ import annotations

from typing import Any

import pytest
import uvicorn
from app_helpers import MODELS
from starlette.testclient import TestClient

from contack_env.cli import main as contack


@pytest.fixture
def served(monkeypatch) -> dict[str, Any]:
    """What ``contack serve`` hands uvicorn, instead of running a server."""
    seen: dict[str, Any] = {}

    def fake_run(app, host, port, **kw):
        seen.update(app=app, host=host, port=port)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return seen


def test_serve_listens_on_loopback_unless_told_and_keeps_other_host_names_out(served, capsys):
    assert contack(["serve", "--models", str(MODELS)]) == 0
    assert served["host"] == "127.0.0.1" and served["port"] == 8000
    assert "http://127.0.0.1:8000/" in capsys.readouterr().out
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    assert client.get("/api/options").status_code == 200
    assert client.get("/api/options", headers={"Host": "attacker.example"}).status_code == 400


def test_serve_on_another_address_says_the_network_can_reach_it(served, capsys):
    assert contack(["serve", "--host", "0.0.0.0", "--port", "8123", "--models", str(MODELS)]) == 0
    assert served["host"] == "0.0.0.0" and served["port"] == 8123
    assert "other machines" in capsys.readouterr().out


def test_serve_offers_the_models_of_the_folders_given(served, tmp_path):
    import shutil

    shutil.copy(MODELS / "solitaire2.npz", tmp_path / "s2.npz")
    assert contack(["serve", "--models", str(tmp_path)]) == 0
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    assert [m["name"] for m in client.get("/api/options").json()["models"]] == ["s2.npz"]


@pytest.mark.parametrize("argv, words", [(["--port", "70000"], "--port"), (["--models", "/no/such/folder"], "not a folder")])
def test_bad_serve_options_are_refused(served, capsys, argv, words):
    with pytest.raises(SystemExit) as exit_:
        contack(["serve", *argv])
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err
    assert not served


def test_serve_offers_the_shipped_models_from_any_folder(served, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no models folder here
    assert contack(["serve"]) == 0
    client = TestClient(served["app"], base_url="http://127.0.0.1:8000")
    names = {m["name"] for m in client.get("/api/options").json()["models"]}
    assert {"contack_2p.npz", "contack_4p.npz", "solitaire2.npz"} <= names
