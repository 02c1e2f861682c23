"""A real ``contack serve`` app on 127.0.0.1 (an ephemeral port) in a background thread, for browser tests and
the benchmark."""

from __future__ import annotations

import threading
import time
from typing import Iterator

import uvicorn

from contack_env.app import Limits, create_app


class LiveServer:
    """uvicorn serving the app in a thread; ``url`` once started; ``stop`` ends it."""

    def __init__(self, models: tuple[str, ...] = ("models",), limits: Limits | None = None) -> None:
        self.app = create_app(models, limits)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = ""

    def start(self, timeout: float = 20.0) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def running(models: tuple[str, ...] = ("models",)) -> Iterator[LiveServer]:
    server = LiveServer(models).start()
    try:
        yield server
    finally:
        server.stop()
