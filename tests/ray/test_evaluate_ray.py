"""``contack evaluate --ray`` and ``evaluate(..., ray=True)``: the games run as Ray tasks on a small local cluster,
with the same results as worker processes for the same seed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from agents import GreedyAgent, RandomAgent, evaluate  # noqa: E402
from contack_env.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    """One small local Ray for the module (``connect`` uses a session already open and leaves it open). Its
    workers inherit CONTACK_RAY_PROBE; a cluster another process starts for itself would not have it."""
    os.environ["CONTACK_RAY_PROBE"] = "the test's cluster"
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    finally:
        del os.environ["CONTACK_RAY_PROBE"]
    yield
    ray.shutdown()


def _first_legal(state, legal):
    return legal[0]


def test_the_table_and_json_equal_those_of_worker_processes(cluster, tmp_path, capsys):
    args = ["evaluate", "--players", "3", "--agents", "greedy,random,lookahead", "--games", "6", "--seed", "4",
            "--hands", "1", "--progress", "off"]
    assert main([*args, "--workers", "2", "--json", str(tmp_path / "w.json")]) == 0
    workers = capsys.readouterr().out
    assert main([*args, "--ray", "--json", str(tmp_path / "r.json")]) == 0
    on_ray = capsys.readouterr().out
    assert json.loads((tmp_path / "r.json").read_text()) == json.loads((tmp_path / "w.json").read_text())
    assert on_ray.replace("r.json", "w.json") == workers
    assert ray.is_initialized()  # the session the test opened is left open


def test_objects_functions_and_records_cross_to_ray_tasks(cluster):
    entries = [RandomAgent(3), lambda state, legal: legal[-1], GreedyAgent()]  # Ray's cloudpickle sends a lambda
    here = evaluate(entries, 6, seed=8, hands=1, records=True)
    there = evaluate(entries, 6, seed=8, hands=1, records=True, ray=True, workers=1)
    assert there.to_json() == here.to_json()
    assert [r.record for r in there.results] == [r.record for r in here.results]
    assert [r.deal for r in there.results] == [r.deal for r in here.results]  # the play order kept


def test_progress_lines_count_the_games_played_on_ray(cluster, capsys):
    import io

    out = io.StringIO()
    evaluate(["greedy", "random"], 4, seed=0, hands=1, ray=True, progress="on", out=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("evaluate: 0/4 games") and lines[-1].startswith("evaluate: 4 games in")


PROBE = """
import os
import sys

from agents import evaluate


def probe(state, legal):
    # The test's cluster was started with this variable; a cluster of this process's own would lack it.
    if os.environ.get("CONTACK_RAY_PROBE") != "the test's cluster":
        raise RuntimeError("a game ran outside the cluster RAY_ADDRESS names")
    return legal[0]


ev = evaluate([probe, "random"], 2, seed=0, hands=1, ray=True)
print("played", ev.entries[0].games)
"""


def test_ray_address_names_the_cluster_the_games_run_on(cluster):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore",
           "RAY_ADDRESS": ray.get_runtime_context().gcs_address}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "played 2"


def _session(sid: int) -> dict[int, str]:
    """The processes of session ``sid`` (Ray's workers have process groups of their own in it): pid -> command."""
    # Imported here: Ray's workers import this module to run its functions, without tests/support on their path
    from processes import processes_in

    return {pid: command for pid, (state, command) in processes_in(session=sid).items() if state != "Z"}


def test_ctrl_c_ends_a_ray_evaluation_in_one_line_and_leaves_no_process():
    code = "import sys; from contack_env.cli import main; sys.exit(main())"
    args = ["evaluate", "--players", "2", "--agents", "mcts:200,greedy", "--games", "200", "--seed", "0", "--ray"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "ignore"}
    env.pop("RAY_ADDRESS", None)
    # SIGINT's default action in the child, as a shell gives a foreground command: a suite run as a background
    # job inherits it ignored, and Python keeps it so.
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 240
        while not any(c.startswith("ray::_play_chunk") for c in _session(proc.pid).values()):
            assert proc.poll() is None and time.time() < deadline, proc.communicate()
            time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the terminal's foreground group, the command's own
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [line for line in err.splitlines() if line.strip()] == [
        "contack evaluate: interrupted; nothing was written (the statistics and records are written once every game "
        "is played)"
    ]
    deadline = time.time() + 30
    while _session(proc.pid) and time.time() < deadline:
        time.sleep(0.5)
    assert _session(proc.pid) == {}, "Ray processes left behind"


class _Timed:
    """A function agent that writes when each of its decisions ran, and in which process, to ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, state, legal):
        start = time.monotonic()
        time.sleep(0.01)
        with open(self.path, "a") as f:
            f.write(f"{os.getpid()} {start} {time.monotonic()}\n")
        return legal[0]


def test_workers_caps_the_games_running_at_once_on_ray(cluster, tmp_path):
    # The cluster has 2 CPUs; --workers 1 lets one game (one task) run at a time, as the docs promise.
    log = tmp_path / "decisions.txt"
    evaluate([_Timed(str(log)), "random"], 4, seed=2, hands=1, ray=True, workers=1)
    spans = [(int(p), float(a), float(b)) for p, a, b in (line.split() for line in log.read_text().splitlines())]
    assert spans
    overlapping = [(x, y) for x in spans for y in spans if x[0] != y[0] and x[1] < y[2] and y[1] < x[2]]
    assert not overlapping, overlapping[:3]


def _killed_at_3(_shared, item):
    if item == 3:  # as the system kills a process when memory runs out
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_ray_worker_killed_mid_task_is_worker_lost_as_for_worker_processes(cluster):
    from agents.ray_tasks import ordered_map
    from agents.worker_pool import WorkerLost

    with pytest.raises(WorkerLost, match="a worker process ended in the middle of its work"):
        list(ordered_map(ray, _killed_at_3, None, range(6), 2))
    assert list(ordered_map(ray, _killed_at_3, None, [0, 1, 2], 2)) == [0, 1, 2]  # the cluster still serves
