"""``contack serve`` on the command line: where it listens, which models it offers, bad options."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from typing import Any

import pytest
import uvicorn
from app_helpers import MODELS
from starlette.testclient import TestClient

from contack_env.app import server
from contack_env.cli import main as contack


@pytest.fixture
def started(monkeypatch) -> dict[str, Any]:
    """What ``contack serve`` hands uvicorn, which then returns at once instead of serving."""
    seen: dict[str, Any] = {}

    def fake_run(self, sockets=None):
        seen.update(app=self.config.app, listening=[sock.getsockname() for sock in sockets or ()])

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    return seen


@pytest.fixture
def served(started, monkeypatch) -> dict[str, Any]:
    """As ``started``, with no socket bound either: the address it would listen on is recorded."""

    class FakeSocket:
        def __init__(self, host: str, port: int) -> None:
            self.address = (host, port)

        def getsockname(self):
            return self.address

        def close(self) -> None:
            pass

    def fake_socket(host, port):
        started.update(host=host, port=port)
        return FakeSocket(host, port)

    monkeypatch.setattr(server, "listening_socket", fake_socket)
    return started


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


@pytest.mark.parametrize("argv, words", [(["--port", "70000"], "--port"), (["--models", "/no/such/folder"], "not a folder"),
                                         (["--host", ""], "--host")])
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


def test_serve_on_another_loopback_address_answers_requests_to_it(served):
    assert contack(["serve", "--host", "127.0.0.2", "--models", str(MODELS)]) == 0
    client = TestClient(served["app"], base_url="http://127.0.0.2:8000")
    assert client.get("/api/options").status_code == 200
    assert client.get("/api/options", headers={"Host": "attacker.example"}).status_code == 400


def test_port_0_listens_on_a_free_port_and_shows_it(started, capsys):
    assert contack(["serve", "--port", "0", "--models", str(MODELS)]) == 0
    port = started["listening"][0][1]
    assert port != 0 and f"http://127.0.0.1:{port}/" in capsys.readouterr().out


def test_a_port_in_use_is_a_sentence_and_no_address_is_shown(started, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert contack(["serve", "--port", str(port), "--models", str(MODELS)]) == 1
    out, err = capsys.readouterr()
    assert f"cannot listen on 127.0.0.1 port {port}" in err and "Traceback" not in err
    assert "open http" not in out and not started


def test_an_unknown_host_is_a_sentence(started, capsys):
    assert contack(["serve", "--host", "no-such-host.invalid", "--models", str(MODELS)]) == 1
    assert "cannot listen on no-such-host.invalid" in capsys.readouterr().err


def test_localhost_listens_on_the_ipv4_loopback_as_uvicorn_did(started):
    assert contack(["serve", "--host", "localhost", "--port", "0", "--models", str(MODELS)]) == 0
    assert started["listening"][0][0] == "127.0.0.1"


@pytest.mark.parametrize("host", ["127.1", "LOCALHOST", "0x7f000001"])
def test_loopback_written_another_way_is_loopback_and_keeps_other_host_names_out(started, capsys, host):
    # The resolver binds these to 127.0.0.1; judged by the text instead, the server said the network could reach
    # it and answered requests sent under any name (DNS rebinding).
    assert contack(["serve", "--host", host, "--port", "0", "--models", str(MODELS)]) == 0
    bound, port = started["listening"][0]
    assert bound == "127.0.0.1" and "other machines" not in capsys.readouterr().out
    client = TestClient(started["app"], base_url=f"http://127.0.0.1:{port}")
    assert client.get("/api/options").status_code == 200
    assert client.get("/api/options", headers={"Host": "attacker.example"}).status_code == 400


@pytest.mark.parametrize("host, shown, why", [("a" * 64, "a" * 64, "not a valid host name"),
                                              ("a..b", "a..b", "not a valid host name"),
                                              ("a\x00b", "'a\\x00b'", "no such address")])
def test_a_host_name_no_resolver_takes_is_a_sentence(started, capsys, host, shown, why):
    assert contack(["serve", "--host", host, "--models", str(MODELS)]) == 1
    err = capsys.readouterr().err
    assert f"contack serve: cannot listen on {shown}: no such address" in err and why in err
    assert "Traceback" not in err and not started


STOPPED = ("contack serve: interrupted; the server stopped; its games were held in memory only (download a game's "
           "record to keep it)")


def _serving() -> tuple[subprocess.Popen, str]:
    """``contack serve`` in a process of its own, serving, and its address. SIGINT as a terminal's Ctrl-C
    delivers it: a test run in the background (nohup, CI) may ignore SIGINT, and a child inherits an ignored
    signal."""
    process = subprocess.Popen([sys.executable, "-m", "contack_env.cli", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = process.stdout.readline()
        assert line.startswith("contack serve: open http://127.0.0.1:"), line
        url = line.split()[3]
        for _ in range(300):  # serving, its signal handlers in place (the line comes just before)
            try:
                with urllib.request.urlopen(url + "api/options", timeout=5):
                    return process, url
            except OSError:
                time.sleep(0.1)
        raise AssertionError("contack serve did not answer")
    except BaseException:
        process.kill()
        raise


def _post(url: str, body: dict) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_the_server_with_one_line_and_status_130(sig):
    # as every command ends on Ctrl-C or SIGTERM (docs/reliability.md): one line saying what was kept, 130
    server_process, _ = _serving()
    try:
        server_process.send_signal(sig)
        out, err = server_process.communicate(timeout=60)
    finally:
        server_process.kill()
    assert server_process.returncode == 130 and out == ""
    assert err.strip() == STOPPED, err


def _second_ctrl_c_while_a_bot_thinks() -> tuple[bool, subprocess.Popen, str, str]:
    """Ctrl-C twice while a bot thinks: whether the bot was still thinking at the second, the process and its
    output."""
    server_process, url = _serving()
    try:
        # seven seats: each of the bot's rollouts plays more moves, so its largest budget takes longer (about 2.4 s
        # on a fast day, twice that on a slow one); seed 5 gives the bot to move a choice (a decision of one legal
        # move is played at once)
        game = _post(url + "api/games", {"game": "contack", "seats": ["mcts:20000"] * 7, "seed": 5})

        def think() -> None:
            try:
                _post(f"{url}api/games/{game['id']}/bot", {"version": game["version"]})
            except OSError:  # no answer: the server stopped first
                pass

        thinker = threading.Thread(target=think, daemon=True)
        thinker.start()
        # the signals come half a second into the bot's thinking and a second apart (0.3 s each, the second Ctrl-C
        # came in one run of eight before the first had begun the stop, and was not yet a forced one)
        time.sleep(0.5)
        server_process.send_signal(signal.SIGINT)
        time.sleep(1.0)
        thinking = thinker.is_alive()
        server_process.send_signal(signal.SIGINT)
        out, err = server_process.communicate(timeout=60)
        thinker.join(timeout=60)
    finally:
        server_process.kill()
    return thinking, server_process, out, err


def test_a_second_ctrl_c_while_a_bot_thinks_ends_with_the_same_one_line():
    # the first waits for the requests running; the second cancels them, which uvicorn would log as errors (the
    # bot's worker thread still ends its decision before the process exits). On a fast machine the bot may have
    # answered before the second Ctrl-C: then the test has not happened, and runs again
    for _ in range(3):
        thinking, server_process, out, err = _second_ctrl_c_while_a_bot_thinks()
        if thinking:
            break
    assert thinking, "the bot answered before the second Ctrl-C in three tries"
    assert server_process.returncode == 130 and out == ""
    assert err.strip() == STOPPED, err
