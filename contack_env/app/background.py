"""The app served by uvicorn on 127.0.0.1, on a port the system picks, in a background thread: for browser tests,
pictures of the page and benchmarks, which need a real server without a fixed port."""

from __future__ import annotations

import os
import threading
import time
from typing import Sequence

import uvicorn

from .server import Limits, create_app


class BackgroundServer:
    """``start()`` serves the app and sets ``url`` (``http://127.0.0.1:PORT``); ``stop()`` ends it. Also a
    context manager."""

    def __init__(self, models: Sequence[str | os.PathLike[str]] = ("models",), limits: Limits | None = None) -> None:
        self.app = create_app(models, limits)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="contack-serve", daemon=True)
        self.url = ""

    def start(self, timeout: float = 20.0) -> "BackgroundServer":
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def __enter__(self) -> "BackgroundServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
