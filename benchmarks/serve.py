"""Web app speed: concurrent players of ``contack serve`` over loopback, each against ``greedy``.

    python benchmarks/serve.py [--clients 50] [--games 2] [--seconds 20] [--seed 0]

Starts ``contack serve`` in its own process on 127.0.0.1 (a free port), then ``--clients`` players at once, all
in this process (asyncio, one HTTP connection each; ``httpx2`` from the test extras). Each sets up a heads-up
table, itself against ``greedy``, and plays whole games as the page does: its own move (a uniform choice among
the legal moves the server lists, from a generator seeded per player) with ``POST /move``, then each of the bot's
decisions with ``POST /bot``. Every such request is a *move*; its time is from sending to the parsed answer. A
player plays at most ``--games`` games; the run stops when all are done or after ``--seconds``, whichever comes
first. A request that fails or gets a status other than 200/201 counts as an error.

Last line: ``clients=<n> moves_per_s=<x> p50_ms=<x> p99_ms=<x> errors=<n>``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # loopback only: the benchmark never listens on or talks to another address


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(port: int, timeout: float = 60.0) -> subprocess.Popen:
    command = [sys.executable, "-m", "contack_env.cli", "serve", "--host", HOST, "--port", str(port), "--models", str(ROOT / "models")]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"contack serve exited: {server.stderr.read().decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/options", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("contack serve did not answer in time")


async def player(client, seed: int, games: int, deadline: float, latencies: list[float], errors: list[str]) -> None:
    rng = np.random.default_rng(seed)

    async def call(path: str, body: dict) -> dict | None:
        start = time.perf_counter()
        try:
            response = await client.post(path, json=body)
            data = response.json()
        except Exception as err:  # a benchmark counts every failure, whatever it is
            errors.append(f"{path}: {err!r}")
            return None
        if response.status_code not in (200, 201):
            errors.append(f"{path}: {response.status_code} {data.get('error')}")
            return None
        latencies.append(time.perf_counter() - start)
        return data

    for g in range(games):
        game = await call("/api/games", {"game": "contack", "seats": ["person", "greedy"], "seed": seed * 1000 + g})
        while game is not None and not game["state"]["done"] and time.monotonic() < deadline:
            path = f"/api/games/{game['id']}"
            if game["person_to_move"]:
                legal = game["state"]["legal"]
                move = legal[int(rng.integers(len(legal)))]
                game = await call(f"{path}/move", {"version": game["version"], "tile": move["tile"], "x": move["x"], "y": move["y"]})
            else:
                game = await call(f"{path}/bot", {"version": game["version"]})
        if game is None or time.monotonic() >= deadline:
            return


async def run(port: int, clients: int, games: int, seconds: float, seed: int) -> tuple[float, list[float], list[str]]:
    import httpx2

    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx2.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx2.AsyncClient(base_url=f"http://{HOST}:{port}", limits=limits, timeout=60.0, trust_env=False) as client:
        start = time.perf_counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(player(client, seed + k, games, deadline, latencies, errors) for k in range(clients)))
        elapsed = time.perf_counter() - start
    return elapsed, latencies, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, help="players at once (default 50)")
    parser.add_argument("--games", type=int, default=2, help="games each player plays at most (default 2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="stop after this long (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="player k's moves and deals come from seed S+k")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 200 or not 1 <= args.games <= 20 or not 0 < args.seconds <= 600:
        parser.error("--clients 1..200, --games 1..20, --seconds up to 600")
    port = free_port()
    server = start_server(port)
    try:
        elapsed, latencies, errors = asyncio.run(run(port, args.clients, args.games, args.seconds, args.seed))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    for line in sorted(set(errors))[:5]:
        print(f"error: {line}")
    ms = np.array(latencies) * 1000 if latencies else np.array([float("nan")])
    print(f"{len(latencies)} requests by {args.clients} players in {elapsed:.1f} s on {os.cpu_count()} cores")
    print(
        f"clients={args.clients} moves_per_s={len(latencies) / elapsed:.0f} p50_ms={np.percentile(ms, 50):.1f} "
        f"p99_ms={np.percentile(ms, 99):.1f} errors={len(errors)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
