"""Web app speed: concurrent players of ``contack serve`` over loopback, each against ``greedy``.

    python benchmarks/serve.py [--clients 50] [--games 2] [--seconds 20] [--seed 0]

Starts ``contack serve`` in its own process on 127.0.0.1 (a free port), then ``--clients`` players at once, all
in this process (asyncio, one kept-alive HTTP/1.1 connection each, spoken directly over the socket so that the
client's own cost stays small beside the server's: a general HTTP client library costs more CPU per request than
the server does, on the same cores). Each sets up a heads-up
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
import json
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


class Connection:
    """One kept-alive HTTP/1.1 connection to the server: POST a JSON body, read the status and the JSON answer."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode() + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def player(port: int, seed: int, games: int, deadline: float, latencies: list[float], errors: list[str]) -> None:
    rng = np.random.default_rng(seed)
    connection = Connection(port)

    async def call(path: str, body: dict) -> dict | None:
        start = time.perf_counter()
        try:
            status, data = await connection.post(path, body)
        except Exception as err:  # a benchmark counts every failure, whatever it is
            errors.append(f"{path}: {err!r}")
            connection.close()
            connection.writer = None
            return None
        if status not in (200, 201):
            errors.append(f"{path}: {status} {data.get('error')}")
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
            break
    connection.close()


async def run(port: int, clients: int, games: int, seconds: float, seed: int) -> tuple[float, list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []
    start = time.perf_counter()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(player(port, seed + k, games, deadline, latencies, errors) for k in range(clients)))
    return time.perf_counter() - start, latencies, errors


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
