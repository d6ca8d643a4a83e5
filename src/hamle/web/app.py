"""The FastAPI application: the JSON API under /api, the pages and their static files."""

from __future__ import annotations

import numbers
import os
import re
import sqlite3
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from hamle.errors import HamleError

from . import battleship, lab, mastermind, tour
from .common import Refused, Route
from .guard import Guard
from .limit import GAMES_PER_MINUTE, MAX_GAMES, NewGameLimit, TooManyGames
from .store import GameChanged, GameNotFound, Store

STATIC = Path(__file__).parent / "static"
PAGES = {
    "/": "index.html",
    "/battleship": "battleship.html",
    "/battleship/lab": "lab.html",
    "/battleship/stats": "stats.html",
    "/battleship/replay": "replay.html",
    "/mastermind": "mastermind.html",
    "/tour": "tour.html",
}
DEFAULT_DB = "hamle.sqlite3"
# The reasons ``OnceRequest`` (common.py) gives for a body it cannot read, each a problem type
# of its own so that the pages can say it in their language; any other is a syntax error.
LISTED_PROBLEMS = 20  # of a malformed request's problems, those its 422 names
UNREADABLE = (
    (re.compile(r"the name (?P<name>.+) is given twice in one object"), "json_repeated_name"),
    (re.compile(r"it is nested too deeply"), "json_too_deep"),
    (re.compile(r"a number has more than (?P<limit>\d+) digits"), "json_too_many_digits"),
    (re.compile(r"it is not UTF-8 text"), "json_not_utf8"),
)


def warm_up() -> None:
    """Compile the engines' kernels, or load them from numba's cache (seconds; up to a
    minute the first time after an install)."""
    battleship.warm_up()
    lab.warm_up()
    mastermind.warm_up()
    tour.warm_up()


def create_app(
    db: str | Path | None = None,
    warm: bool = True,
    games_per_minute: int = GAMES_PER_MINUTE,
    max_games: int = MAX_GAMES,
    hosts: tuple[str, ...] = (),
) -> FastAPI:
    """The site, storing games in the SQLite file ``db`` (default: $HAMLE_DB, else
    ``hamle.sqlite3`` in the working directory); ``warm`` compiles the engines' kernels
    at start-up so the first player does not wait. One client address may start
    ``games_per_minute`` new games a minute (0: any number); the ``max_games`` most
    recently played games are kept. Over the network the site answers to its addresses,
    localhost and the names in ``hosts`` (the guard refuses any other Host, 403).

    >>> from fastapi.testclient import TestClient
    >>> with TestClient(create_app(":memory:", warm=False)) as client:
    ...     client.get("/api/health").json()
    {'status': 'ok'}
    """
    path = str(db or os.environ.get("HAMLE_DB") or DEFAULT_DB)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if warm:
            warm_up()
        yield
        app.state.store.checkpoint()

    app = FastAPIOffline(  # the documentation pages' scripts come from the package
        title="hamle",
        summary="Battleship, Mastermind and the Yüz Yüze number tour: play and ask the engines.",
        version="0.1.0",
        lifespan=lifespan,
        static_url="/docs/assets",
        favicon_url="/static/favicon.svg",
    )
    app.state.store = Store(path, max_games)
    app.state.new_games = NewGameLimit(games_per_minute)
    app.add_exception_handler(HamleError, _error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(sqlite3.Error, _store_failed)
    app.include_router(battleship.router)
    app.include_router(lab.router)
    app.include_router(mastermind.router)
    app.include_router(tour.router)

    # (a Route, so that an unknown query parameter is refused as on every other route)
    app.router.add_api_route("/api/health", health, tags=["site"], route_class_override=Route)

    for route, page in PAGES.items():
        app.add_api_route(route, _page(page), include_in_schema=False)
    app.add_api_route("/favicon.ico", _icon, include_in_schema=False)
    app.mount("/static", Revalidated(directory=STATIC), name="static")
    app.add_middleware(Guard, hosts=hosts)
    return app


class Revalidated(StaticFiles):
    """Static files a browser asks again about before each use (an unchanged one is a 304):
    after an upgrade, a page never runs the modules of the version before."""

    async def get_response(self, path: str, scope):
        response = await super().get_response(path, scope)
        response.headers.setdefault("cache-control", "no-cache")
        return response


async def health() -> dict:
    """Whether the site answers: ``{"status": "ok"}``."""
    return {"status": "ok"}


# Pages and the icon are answered on the event loop: they need no worker thread, so they
# load while every thread waits (on a database another process holds, say).
def _page(name: str):
    async def serve_page() -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    return serve_page


async def _icon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


def _error(request: Request, exc: HamleError) -> JSONResponse:
    """An engine's or the site's error: its English message as ``detail``, and its
    ``code`` and ``params`` for the pages to say it in their language."""
    headers = {}
    if isinstance(exc, GameNotFound):
        status = 404
    elif isinstance(exc, TooManyGames):
        status, headers = 429, {"retry-after": str(exc.params["seconds"])}
    elif isinstance(exc, Refused | GameChanged):
        status = 409
    else:
        status = 400
    body = {"detail": str(exc), "code": exc.code, "params": _plain(exc.params)}
    return JSONResponse(body, status_code=status, headers=headers)


def _store_failed(request: Request, exc: sqlite3.Error) -> JSONResponse:
    """The database failed under a request (its disk full or gone, say): a 503 that names
    why, where the server would otherwise answer a bare 500."""
    body = {"detail": f"the game store failed: {exc}", "code": "site.store_failed", "params": {}}
    return JSONResponse(body, status_code=503)


def _plain(value):
    """``value`` as JSON can hold it: NumPy numbers as numbers, other objects as text."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, bool | str | None):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse | FileResponse:
    """Routing's own answers (no such page, method not allowed), coded like the rest; an
    address outside the API that names no page gets a page saying so, in both languages."""
    if exc.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
        return FileResponse(STATIC / "missing.html", status_code=404)
    headers = exc.headers
    if exc.status_code == 405:  # (routing names the first route of the address alone)
        headers = {"Allow": ", ".join(_allowed(request))}
    body = {"detail": exc.detail, "code": f"site.http_{exc.status_code}", "params": {}}
    return JSONResponse(body, status_code=exc.status_code, headers=headers)


def _allowed(request: Request) -> list[str]:
    """The methods the routes at a request's address take (HEAD is refused in the API)."""
    routes = request.app.router.routes
    return [
        method
        for method in ("DELETE", "GET", "PATCH", "POST", "PUT")
        if any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    ]


def _whole_body(request: Request, error: dict) -> tuple[str, dict]:
    """What is wrong with a request body as a whole, in a sentence and as a problem for the
    pages: missing, not sent as JSON (``sent`` names what it was sent as, or is empty), not
    an object, or (a model's own check) its fields do not go together."""
    problem = {"field": "", "type": error["type"]}
    if error["type"] == "missing":
        return "the request body is missing", problem
    if error["type"] not in ("model_attributes_type", "model_type", "dict_type"):
        return error["msg"], problem
    sent = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if sent != "application/json" and not (
        sent.startswith("application/") and sent.endswith("+json")
    ):
        said = (
            "the request body must be sent as JSON (Content-Type: application/json), "
            f"not as {sent or 'untyped bytes'}"
        )
        return said, {"field": "", "type": "not_json", "sent": sent}
    return f"the request body must be a JSON object: {error['msg']}", problem


def _unreadable(error: dict) -> dict:
    """The problem of a body JSON cannot read: its reason, or where its syntax breaks."""
    reason = error["ctx"]["error"]
    for pattern, kind in UNREADABLE:
        if found := pattern.fullmatch(reason):
            given = {
                name: int(value) if value.isdigit() else value
                for name, value in found.groupdict().items()
            }
            return {"field": "", "type": kind, **given}
    return {"field": "", "type": "json_invalid", "position": error["loc"][-1] + 1}


def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's validation errors as one readable sentence per problem (the first
    ``LISTED_PROBLEMS``); ``params`` gives each problem's field (empty for the body as a
    whole), type and limit for the pages to say it."""
    problems, said = [], []
    errors = exc.errors()
    for error in errors[:LISTED_PROBLEMS]:  # (an answer need not outgrow its request)
        if error["type"] == "json_invalid":
            said.append(f"the request body is not valid JSON ({error['ctx']['error']})")
            problems.append(_unreadable(error))
            continue
        # "body", "query" or "path" first says where a field is; later, it is a field's own name
        loc = error["loc"]
        if loc[:1] in (("body",), ("query",), ("path",)):
            loc = loc[1:]
        where = ".".join(str(part) for part in loc)
        if not where and error["loc"] == ("body",):
            sentence, problem = _whole_body(request, error)
        else:
            sentence = f"{where}: {error['msg']}" if where else error["msg"]
            problem = {"field": where, "type": error["type"]}
        said.append(sentence)
        limit = {k: v for k, v in error.get("ctx", {}).items() if isinstance(v, int | str)}
        problems.append({**problem, **limit})
    params = {"problems": problems}
    if more := len(errors) - len(problems):
        said.append(f"and {more:,} more")
        params["more"] = more
    body = {"detail": "; ".join(said), "code": "site.invalid_request", "params": params}
    return JSONResponse(body, status_code=422)
