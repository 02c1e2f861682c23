"""The web app behind ``contack serve``: a Starlette application, its JSON API and the page's static files.

The server is the authority. The page sends what a person chose; the engine checks it, and a refusal comes back
as a 4xx status with ``{"error": reason}`` and changes nothing (a 500 only for an agent of a user's own whose
code failed, being made or choosing):

    GET  /api/options                 games, agent specs, the models folders' models, colours, tiles, limits
    POST /api/games                   {game, seats, seed, and the game's rule options: Contack's hands and
                                      enclosed_end, CON-TAC-TIX's board_size and swap} -> a new game
    GET  /api/games/{id}              the game as every player sees it (never the pile's order)
    POST /api/games/{id}/move         {version, tile, x, y} (CON-TAC-TIX: {version, cell: [r, c]} or {version, swap})
    POST /api/games/{id}/bot          {version}: the bot to move makes one decision
    GET  /api/games/{id}/record       the finished game's record, as a download
    POST /api/records                 a record file's text (size-capped) -> its games
    GET  /api/records/{id}/{index}    one game of it, checked by replaying, as frames

Status codes: 400 a malformed request or an illegal move, 404 no such game (or it expired), 409 a stale request
(its ``version`` is not the game's), a move out of turn or a record asked for too early, 413 an upload over the
cap, 415 a body that is not JSON, 429 too many games open (at the cap a finished game makes room, and the record
file least recently looked at always does), 500 an agent of a user's own that failed, to be made (no game) or
to choose (the game unchanged). Bots think in a worker thread, so a slow one (``mcts``, ``az``) holds up only its
own game; the threads share the interpreter, so many thinking at once slow every request.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from contack_env import ENCLOSED_END_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, TILE_NAMES, TILE_VALUES
from contack_env.render import contactix as contactix_render
from contack_env.render import image as render
from contack_env.contactix.rules import MAX_SIZE, MIN_SIZE
from contack_env.records import RecordError
from contack_env.checks import lone_surrogate
from contack_env.cli_support import printable

from .models import ModelFolders
from .replays import HeldFile, LastOpened, NotOffered, frames, parse_records, summary
from .sessions import MAX_AZ_ENDGAME, MAX_AZ_SIMS, MAX_HANDS, MAX_MCTS, PERSON, GameSession, Rejected, parse_setup
from .store import Store, StoreFull
from .trusted_hosts import TrustedHosts
from .web_game import web_games

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024  # a move or a table setup is a few hundred bytes
MAX_INDEX_DIGITS = 18  # of a record's index in an address: more are past every file (and an int64)


def bot_specs() -> dict[str, list[str]]:
    """The bots a page offers for each game: its web adapter's choices of the built-in agents, then the agents
    of your own for that game (``agents.register``, the ``contack.agents`` entry points) that a bare name makes:
    the page seats a name as it lists it, so an agent that needs an argument (``name:ARG``), or whose package
    cannot be loaded, is left out (``contack evaluate --agents NAME`` says why)."""
    from agents.registry import registered_names

    offered = {}
    for game, web in web_games().items():
        specs = list(web.bots)
        offered[game] = specs + [n for n in registered_names(game) if n not in specs and _made_bare(n, game)]
    return offered


def _made_bare(name: str, game: str) -> bool:
    from agents.registry import make_agent

    try:
        make_agent(name, 0, game)
    except Exception:  # a factory of someone else's that fails for a bare name in any way: not one to seat
        return False
    return True


@dataclass
class Limits:
    """How much one server keeps: open games, opened record files, their idle time, the upload size."""

    max_games: int = 200
    max_files: int = 20
    idle_seconds: float = 3600.0
    max_upload_bytes: int = 16 * 1024 * 1024
    clock: Callable[[], float] | None = field(default=None, repr=False)


def create_app(models: Sequence[str | os.PathLike[str]] = (), limits: Limits | None = None, trusted_hosts: Sequence[str] | None = None) -> Starlette:
    """The app. ``models``: the folders whose ``.npz`` models (PPO policies, ``az`` networks) a table may seat (by
    file name, nothing else).
    ``trusted_hosts``: the Host names requests may carry (None: any; ``serve`` passes the loopback names when it
    binds to loopback, which keeps pages from other sites out through DNS rebinding)."""
    limits = limits or Limits()
    folders = ModelFolders(models)
    extra = {"clock": limits.clock} if limits.clock is not None else {}
    # At the cap a finished game, or the record file least recently looked at, makes room for a new one.
    games: Store[GameSession] = Store(limits.max_games, limits.idle_seconds, spare=lambda s: s.state.done, **extra)
    # a file's bytes, not its records (replays.HeldFile): the records of the one opened last are kept beside
    files: Store[HeldFile] = Store(limits.max_files, limits.idle_seconds, spare=lambda held: True, **extra)
    opened = LastOpened()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "games": list(web_games()),
                "person": PERSON,
                "bots": bot_specs(),
                "models": [m.to_json() for m in folders.models()],
                "limits": {
                    "players": [MIN_PLAYERS, MAX_PLAYERS],
                    "hands": MAX_HANDS,
                    "board_size": [MIN_SIZE, MAX_SIZE],
                    "mcts": MAX_MCTS,
                    "az_sims": MAX_AZ_SIMS,
                    "az_endgame": MAX_AZ_ENDGAME,
                    "upload_bytes": limits.max_upload_bytes,
                },
                "enclosed_end": list(ENCLOSED_END_OPTIONS),
                "tiles": [list(v) for v in TILE_VALUES],
                "names": list(TILE_NAMES),
                "colours": _palette(),
            }
        )

    async def new_game(request: Request) -> Response:
        data = await _json_body(request, MAX_BODY)
        setup, resolved = parse_setup(data, folders)
        try:
            games.check_room()  # before a model is loaded for a game that could not be kept
            session = await anyio.to_thread.run_sync(GameSession.create, setup, resolved)  # loading a model takes a while
            key = games.add(session)  # (full again if other games came in meanwhile)
        except StoreFull as err:
            raise Rejected(429, f"too many games: {err}") from None
        return JSONResponse({"id": key, **session.to_json()}, status_code=201)

    def find(request: Request) -> tuple[str, GameSession]:
        key = request.path_params["key"]
        try:
            return key, games.get(key)
        except KeyError:
            raise Rejected(404, "no such game: it never was, or it was closed after standing unused") from None

    async def get_game(request: Request) -> Response:
        key, session = find(request)
        return JSONResponse({"id": key, **session.to_json()})

    async def move(request: Request) -> Response:
        key, session = find(request)
        data = await _json_body(request, MAX_BODY)
        async with session.lock:
            session.check_version(data)
            session.person_move(data)
            return JSONResponse({"id": key, **session.to_json()})

    async def bot(request: Request) -> Response:
        key, session = find(request)
        data = await _json_body(request, MAX_BODY)
        async with session.lock:
            session.check_version(data)
            choice = await anyio.to_thread.run_sync(session.bot_decision)
            session.apply_bot(choice)
            return JSONResponse({"id": key, **session.to_json()})

    async def record(request: Request) -> Response:
        key, session = find(request)
        rec = session.record()
        name = f"{session.setup.game}-{session.setup.seed}.json"
        return Response(
            json.dumps(rec) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def upload(request: Request) -> Response:
        _check_json_type(request)
        raw = await _capped_body(request, limits.max_upload_bytes, "a record file")
        try:
            text = raw.decode("utf-8")
            records = await anyio.to_thread.run_sync(parse_records, text)
        except UnicodeDecodeError:
            raise Rejected(400, "the file is not UTF-8 text; record files are JSON") from None
        except RecordError as err:
            raise Rejected(400, f"not a record file: {err}") from None
        listed = [summary(r, k) for k, r in enumerate(records)]
        key = files.add(HeldFile(bytes(raw), len(records)))  # never full: the file least recently looked at makes room
        return JSONResponse({"id": key, "records": listed}, status_code=201)

    async def open_record(request: Request) -> Response:
        key = request.path_params["key"]
        try:
            held = files.get(key)
        except KeyError:
            raise Rejected(404, "no such record file: it was closed after standing unused; open it again") from None
        asked = request.path_params["index"]  # read here: Starlette's int convertor fails on 4,300 digits and more
        index = int(asked) if asked.isascii() and asked.isdigit() and len(asked) <= MAX_INDEX_DIGITS else -1
        if not 0 <= index < held.count:
            shown = asked if len(asked) <= MAX_INDEX_DIGITS else f"{asked[:MAX_INDEX_DIGITS]}... ({len(asked)} characters)"
            raise Rejected(404, f"the file holds records 0..{held.count - 1}; got {printable(shown)}")
        records = await anyio.to_thread.run_sync(opened.records, key, held)
        try:
            result = await anyio.to_thread.run_sync(frames, records[index])
        except NotOffered as err:
            raise Rejected(400, f"record {index + 1}: {err}") from None
        except RecordError as err:
            raise Rejected(400, f"record {index + 1} does not replay: {err}") from None
        except (KeyError, TypeError, ValueError) as err:
            raise Rejected(400, f"record {index + 1} does not replay: {err}") from None
        except RecursionError:
            raise Rejected(400, f"record {index + 1} does not replay: it is nested too deeply to check") from None
        return JSONResponse(result)

    async def rejected(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Rejected)
        return JSONResponse({"error": exc.reason}, status_code=exc.status)

    async def http_error(request: Request, exc: Exception) -> Response:
        # Starlette's own refusals (no such route, a method a route does not take): JSON like every other answer
        assert isinstance(exc, HTTPException)
        reason = {404: f"no such address: {request.url.path}",
                  405: f"{request.method} is not a method of {request.url.path}"}.get(exc.status_code, exc.detail)
        return JSONResponse({"error": reason}, status_code=exc.status_code, headers=exc.headers)

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{key}", get_game),
        Route("/api/games/{key}/move", move, methods=["POST"]),
        Route("/api/games/{key}/bot", bot, methods=["POST"]),
        Route("/api/games/{key}/record", record),
        Route("/api/records", upload, methods=["POST"]),
        Route("/api/records/{key}/{index}", open_record),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHosts, allowed_hosts=trusted_hosts)] if trusted_hosts else []
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={Rejected: rejected, HTTPException: http_error})
    app.state.games = games
    app.state.files = files
    return app


async def _capped_body(request: Request, cap: int, what: str) -> bytes:
    """The request's body, refused with 413 past ``cap`` bytes (read no further than that)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise Rejected(413, f"{what} is at most {cap} bytes; this one is {declared}")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise Rejected(413, f"{what} is at most {cap} bytes; this one is larger")
        chunks.append(chunk)
    return b"".join(chunks)


def _check_json_type(request: Request) -> None:
    # JSON only: a page of another site cannot send this content type without asking first, which this server
    # never allows, so it cannot play moves in someone's game, nor fill the server with record files.
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Rejected(415, f"the body is JSON (Content-Type: application/json); got {kind or 'none'}")


async def _json_body(request: Request, cap: int) -> Any:
    _check_json_type(request)
    raw = await _capped_body(request, cap, "a request")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Rejected(400, f"the body is not valid JSON: {err}") from None
    except RecursionError:
        raise Rejected(400, "the body is JSON this server does not read: nested too deeply (a request nests a "
                            "few levels)") from None
    except ValueError:  # the one left after JSONDecodeError: a number of more digits than Python reads
        raise Rejected(400, f"the body is JSON this server does not read: a number of more than "
                            f"{sys.get_int_max_str_digits()} digits (no value of a request is that long)") from None
    bad = lone_surrogate(data)
    if bad is not None:  # no answer could echo it: a response is UTF-8
        raise Rejected(400, f"the body holds the string {bad!r}, with a lone surrogate: an escape that is half of a "
                            "pair and no character")
    return data


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _palette() -> dict[str, Any]:
    """The PNG renders' colours, so the page draws the same table."""
    return {
        "felt": _hex(render.FELT),
        "panel": _hex(render.PANEL),
        "face": _hex(render.FACE),
        "outline": _hex(render.OUTLINE),
        "highlight": _hex(render.HIGHLIGHT),
        "target": _hex(render.TARGET),
        "edge": [_hex(render.EDGE[c]) for c in range(3)],
        "ink": [_hex(render.INK[c]) for c in range(3)],
        "panel_ink": _hex(render.PANEL_INK),
        "contactix": {
            "board": _hex(contactix_render.BOARD),
            "hole_face": _hex(contactix_render.HOLE_FACE),
            "hole_line": _hex(contactix_render.HOLE_LINE),
            "hole": _hex(contactix_render.HOLE),
            "black": _hex(contactix_render.BLACK_PEG),
            "white": _hex(contactix_render.WHITE_PEG),
            "peg_line": _hex(contactix_render.PEG_LINE),
            "side": [_hex(contactix_render.SIDE[c]) for c in range(2)],
            "chain": _hex(contactix_render.CHAIN),
            "last": _hex(contactix_render.LAST),
            "ink": _hex(contactix_render.INK),
        },
    }


LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def is_loopback(address: str) -> bool:
    """Whether ``address``, an IP address as a socket reports it, is a loopback one (an IPv4 loopback address
    mapped into IPv6, ``::ffff:127.0.0.1``, included)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


class ListenError(OSError):
    """``serve`` cannot listen on the address and port it was given (in use, not this machine's, unknown)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host`` and ``port`` (0: a free port the system picks), or ``ListenError`` saying
    why not. Bound here rather than by uvicorn, so that a failure is a sentence and the address shown is real."""
    # IPv6 only for an address written as one, as uvicorn chooses: "localhost" is then 127.0.0.1 wherever the
    # system would list ::1 first
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, family=family, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as err:
        raise ListenError(f"cannot listen on {printable(host)}: no such address ({err.strerror})") from None
    except (UnicodeError, ValueError):  # a name no resolver takes (a label over 63 characters, or an empty one)
        raise ListenError(f"cannot listen on {printable(host)}: no such address (not a valid host name)") from None
    sock = None
    try:
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart need not wait
        sock.bind(address)
    except OSError as err:
        if sock is not None:
            sock.close()
        raise ListenError(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, models: Sequence[str | os.PathLike[str]] | None = None) -> None:
    """Run the app with uvicorn until interrupted. ``models``: the models folders (default: the repository's,
    ``agents.policy_file.shipped_models_folder``). ``ListenError`` when the address cannot be listened on."""
    import uvicorn

    from agents.policy_file import shipped_models_folder

    if models is None:
        models = (shipped_models_folder(),)

    sock = listening_socket(host, port)
    bound, port = sock.getsockname()[:2]  # the real port when 0 asked the system for a free one
    # Loopback or not as the address bound says, whatever way --host wrote it (127.1, LOCALHOST, 0x7f000001). On
    # loopback, only requests addressed to this machine by name are answered (DNS rebinding): the loopback names,
    # the host as given (a browser lower-cases a name), and the address served on (127.0.0.2 is loopback too).
    local = is_loopback(bound)
    allowed = list(dict.fromkeys(LOOPBACK_NAMES + [host, f"[{host}]", host.lower(), bound, f"[{bound}]"]))
    try:
        app = create_app(models, trusted_hosts=allowed if local else None)
    except BaseException:
        sock.close()
        raise
    shown = f"[{host}]" if ":" in host else host
    print(f"contack serve: open http://{shown}:{port}/ in a browser (Ctrl+C stops the server)", flush=True)
    if not local:
        print(f"contack serve: listening on {host}: other machines on the network can reach it", flush=True)
    # (the app has no startup or shutdown of its own: without the lifespan protocol a forced stop has no lifespan
    # task to cancel, and log)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    quiet = CancelledRequests(server)
    logging.getLogger("uvicorn.error").addFilter(quiet)
    try:
        server.run(sockets=[sock])
    finally:
        logging.getLogger("uvicorn.error").removeFilter(quiet)
        sock.close()


class CancelledRequests(logging.Filter):
    """Drops uvicorn's report of a request cancelled by a forced stop: a second Ctrl-C stops the server without
    waiting for the requests still running (a bot thinking among them; its worker thread still ends its decision
    before the process exits), and uvicorn would log each one's cancellation as an error of the app, with its
    traceback. The stop is what was asked for, and ``contack serve`` says it in its one line. Before a forced
    stop, a cancelled request is reported as any other error is."""

    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        cancelled = bool(record.exc_info) and isinstance(record.exc_info[1], asyncio.CancelledError)
        return not (cancelled and self.server.force_exit)
