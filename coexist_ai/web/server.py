"""The web game's HTTP side (Starlette): the page from package data and a
small JSON API over the table.

    GET  /api/game?after=V   the game as the page draws it; with `after`,
                             waits (up to 20 s) until its version passes V
    GET  /api/levels         the difficulty levels, weakest first, with their Elo
    POST /api/move   {"move": "house forest-red-fox", "version": V}
    POST /api/undo   POST /api/hint
    POST /api/new    {"players": 2, "vs": ["greedy"], "seat": 0, "seed": 7,
                      "watch": false, "fauna": null}
    POST /api/replay {"step": K} | {"current": true} | {"text": JSONL, "game": N}

Every answer is JSON; a refused request gets {"error": "..."} with a 4xx
status, and the message says what was wrong and what would be valid.
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path
from urllib.parse import urlsplit
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from coexist_ai.errors import CoexistError
from coexist_ai.web.live import LiveGame, Refused
from coexist_ai.web.newgame import NewGame
from coexist_ai.web.replay import ReplayGame
from coexist_ai.web.table import Table

STATIC = Path(__file__).parent / "static"
MAX_BODY = 32 * 1024 * 1024     # a records file to replay may be large
LONG_POLL = 20.0                 # seconds a GET /api/game?after= may wait


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def check_sender(request: Request) -> None:
    """Only this server's own page may change the game. Another site's page
    in the person's browser could otherwise post to 127.0.0.1 (a form or a
    no-cors fetch sends text/plain without asking): a JSON content type
    makes the browser ask first, and an Origin must be this server."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(f"a request body is JSON: send Content-Type: application/json, "
                      f"not {kind or 'none'!r}", 415)
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        raise Refused(f"a request from the page of {origin} is refused: only this "
                      "server's own page plays here", 403)


async def body_of(request: Request, allowed: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    """The JSON object of a request, its keys among `allowed` and of their types."""
    check_sender(request)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refused(f"the request body is {len(raw)} bytes; at most {MAX_BODY}", 413)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise Refused("the request body must be a JSON object, such as "
                      '{"move": "recruit C"}') from None
    if not isinstance(data, dict):
        raise Refused(f"the request body must be a JSON object, not {type(data).__name__}")
    for key, value in data.items():
        if key not in allowed:
            raise Refused(f"unknown field {key!r}; this request takes "
                          f"{', '.join(allowed) or 'no field'}")
        kinds = allowed[key]
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)
                                  and bool not in _tuple(kinds)):
            raise Refused(f"field {key!r}: {value!r} is not {_kind_names(kinds)}")
    return data


def _tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", str: "a string", bool: "true or false",
             list: "a list", float: "a number"}
    return " or ".join(names.get(k, k.__name__) for k in _tuple(kinds))


def make_app(table: Table, hosts: list[str] | None = None) -> Starlette:
    """The application serving one table; `hosts`: the names the page may be
    reached by (None: any), so that a name rebound to 127.0.0.1 by another
    site's DNS gets nothing."""

    def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[..., Any]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except Refused as e:
                return error(str(e), e.status)
            except CoexistError as e:       # a bad setting, a record that cannot be played
                return error(str(e))
        return endpoint

    async def snapshot() -> JSONResponse:
        return JSONResponse(await run_in_threadpool(table.snapshot))

    async def get_game(request: Request) -> Response:
        after = request.query_params.get("after")
        if after is not None:
            if not after.lstrip("-").isdigit():
                raise Refused(f"after={after!r}: expected the version number the page has")
            await run_in_threadpool(table.wait, int(after), LONG_POLL)
        return await snapshot()

    async def get_levels(request: Request) -> Response:
        return JSONResponse({"levels": level_list()})

    async def post_move(request: Request) -> Response:
        data = await body_of(request, {"move": str, "version": int})
        if "move" not in data:
            raise Refused('a move is {"move": "<notation>"}, such as {"move": "recruit C"}')
        snap = await run_in_threadpool(_live(table).play, data["move"], data.get("version"))
        return JSONResponse(table.stamp(snap))

    async def post_undo(request: Request) -> Response:
        await body_of(request, {})
        return JSONResponse(table.stamp(await run_in_threadpool(_live(table).undo)))

    async def post_hint(request: Request) -> Response:
        await body_of(request, {})
        return JSONResponse(await run_in_threadpool(_live(table).hint))

    async def post_new(request: Request) -> Response:
        data = await body_of(request, {"players": int, "vs": list, "seat": int,
                                       "seed": int, "watch": bool, "fauna": str})
        vs = data.get("vs") or []
        if not all(isinstance(v, str) for v in vs):
            raise Refused(f"field 'vs': {vs!r} is not a list of bot specs (strings)")
        asked = NewGame(players=data.get("players") or 2, vs=tuple(vs),
                        seat=data.get("seat") or 0, seed=data.get("seed"),
                        watch=bool(data.get("watch")), fauna=data.get("fauna"))
        await run_in_threadpool(table.new_game, asked, True)
        return await snapshot()

    async def post_replay(request: Request) -> Response:
        data = await body_of(request, {"step": int, "current": bool, "text": str,
                                       "game": int, "name": str})
        if data.get("text") is not None:
            await run_in_threadpool(table.replay_text, data["text"], data.get("game"),
                                    data.get("name") or "the file")
        elif data.get("current"):
            await run_in_threadpool(table.replay_current)
        elif "step" in data:
            game = table.current()
            if not isinstance(game, ReplayGame):
                raise Refused("not replaying: open a record, or replay the current game "
                              'with {"current": true}', 409)
            game.go(data["step"])
        else:
            raise Refused('give {"step": K}, {"current": true} or {"text": "<records>"}')
        return await snapshot()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def not_found(request: Request, exc: Exception) -> Response:
        # registered for HTTPException only (Starlette types every handler for Exception)
        assert isinstance(exc, HTTPException)
        if exc.status_code == 405:
            return error(f"{request.method} {request.url.path}: method not allowed", 405)
        return error(f"no such page: {request.url.path}", exc.status_code)

    routes = [
        Route("/", index),
        Route("/api/game", guarded(get_game), methods=["GET"]),
        Route("/api/levels", guarded(get_levels), methods=["GET"]),
        Route("/api/move", guarded(post_move), methods=["POST"]),
        Route("/api/undo", guarded(post_undo), methods=["POST"]),
        Route("/api/hint", guarded(post_hint), methods=["POST"]),
        Route("/api/new", guarded(post_new), methods=["POST"]),
        Route("/api/replay", guarded(post_replay), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        table.close()          # bots stop; the game was saved as it went

    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    return Starlette(routes=routes, exception_handlers={HTTPException: not_found},
                     lifespan=lifespan, middleware=middleware)


def level_list() -> list[dict[str, str]]:
    """What the page's level selector offers: a level's spec is a packaged
    preset, which the page may name."""
    from coexist_ai.bots.levels import levels
    return [{"name": lv.name, "spec": lv.spec, "elo": lv.elo_text(),
             "description": lv.description} for lv in levels()]


def _live(table: Table) -> LiveGame:
    game = table.current()
    if not isinstance(game, LiveGame):
        raise Refused("this is a replay: moves, undo and hints are for a game in play; "
                      "start a new game", 409)
    return game
