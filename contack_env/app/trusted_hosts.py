"""The server's check of the Host header, answered in JSON like every other refusal of the app.

On loopback, ``contack serve`` answers only requests addressed to this machine by name: a page of another site
whose name was made to resolve to 127.0.0.1 (DNS rebinding) still sends its own name. Starlette's
``TrustedHostMiddleware`` makes that check; its refusal is plain text, where a page (and a client) of this app
reads ``{"error": ...}`` from every other answer. ``TrustedHosts`` runs the same check and answers a refused
request with the app's JSON.
"""

from __future__ import annotations

from typing import Sequence

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class TrustedHosts:
    """ASGI middleware: ``app`` for requests whose Host is one of ``allowed_hosts`` (Starlette's reading of the
    header), a JSON 400 naming the allowed names for any other."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        self.app = app
        self.allowed_hosts = list(allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # (the app has no websockets; lifespan events always pass)
            await TrustedHostMiddleware(self.app, allowed_hosts=self.allowed_hosts)(scope, receive, send)
            return
        admitted = False

        async def through(scope: Scope, receive: Receive, send: Send) -> None:
            nonlocal admitted
            admitted = True
            await self.app(scope, receive, send)

        async def send_if_admitted(message: Message) -> None:
            if admitted:  # (the middleware's own plain-text refusal is dropped: the JSON one follows)
                await send(message)

        await TrustedHostMiddleware(through, allowed_hosts=self.allowed_hosts)(scope, receive, send_if_admitted)
        if not admitted:
            host = Headers(scope=scope).get("host")
            # as a Host header carries them: an IPv6 address in brackets (a bare one never matches)
            names = ", ".join(name for name in self.allowed_hosts if name.startswith("[") or ":" not in name)
            said = f"is {host!r}" if host is not None else "is missing"
            await JSONResponse({"error": f"this server answers only requests addressed to it by one of its names "
                                         f"({names}); the request's Host header {said}"},
                               status_code=400)(scope, receive, send)
