"""What the game routers share: the store, the error type, the id parameter and bodies
read strictly."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Annotated

from fastapi import Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from hamle.errors import HamleError
from hamle.grid import name_key

from .limit import client_key
from .store import Store

GameId = Annotated[
    str,
    Path(min_length=10, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="Game id"),
]


def game_count(what: str, example: int):
    """An optional request field naming the game's count ``what`` (moves, changes) the
    request is meant for, so that the route can refuse (409) one the game has moved past."""
    return Field(
        None,
        strict=True,
        ge=0,
        le=10**9,
        description=f"The game's {what} the request is meant for; refused (409) if it has moved on",
        examples=[example],
    )


def created(request: Request, response: Response, kind: str, state: dict) -> str:
    """The id of a new game of ``kind`` stored with ``state``, its address given as the 201
    response's Location; TooManyGames if the client has started too many lately."""
    request.app.state.new_games.take(client_of(request))
    game_id = store_of(request).create(kind, state)
    response.headers["location"] = f"{request.url.path}/{game_id}"
    return game_id


def any_case(names: object) -> object:
    """``names`` (a Literal of lower-case names) taken in any case, spaces around them
    ignored, as the library and the command line take names: ``Hard``, `` RUSSIAN``."""
    return Annotated[names, BeforeValidator(_name_key)]


def _name_key(value: object) -> object:
    return name_key(value) if isinstance(value, str) else value


class Strict(BaseModel):
    """A request body that refuses fields it does not know (a typo is an error, not a
    silently ignored option)."""

    model_config = ConfigDict(extra="forbid")


class OnceRequest(Request):
    """A request whose JSON body refuses a name given twice in one object, which
    ``json.loads`` would read as its last value alone (``{"hit": ["A1"], "hit": ["B2"]}``
    would mark B2 and silently drop A1)."""

    async def json(self):
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = json.loads(body, object_pairs_hook=_once)
            except json.JSONDecodeError:
                raise
            except UnicodeDecodeError as error:
                raise json.JSONDecodeError("it is not UTF-8 text", "", error.start) from None
            except RecursionError:
                raise json.JSONDecodeError("it is nested too deeply", "", 0) from None
            except ValueError:  # a whole number past Python's digit limit
                limit = sys.get_int_max_str_digits()
                raise json.JSONDecodeError(
                    f"a number has more than {limit} digits", "", 0
                ) from None
        return self._json


def _once(pairs: list[tuple[str, object]]) -> dict:
    """The object of ``pairs``, or a decode error naming a name given twice.

    >>> _once([("hit", 1), ("miss", 2)])
    {'hit': 1, 'miss': 2}
    >>> _once([("hit", 1), ("miss", 2), ("hit", 3)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    json.decoder.JSONDecodeError: the name 'hit' is given twice in one object: ...
    """
    if len(pairs) > len(names := Counter(name for name, _ in pairs)):
        twice = next(name for name, n in names.items() if n > 1)
        raise json.JSONDecodeError(f"the name {twice!r} is given twice in one object", "", 0)
    return dict(pairs)


class Problem(BaseModel):
    """The body of every refusal (4xx) and failure (5xx): what is wrong in words, a code
    that names the kind of problem, and the values the words were made from."""

    detail: str = Field(
        description="What is wrong, in English", examples=["A1 has already been shot"]
    )
    code: str = Field(
        description="The kind of problem, like battleship.already_shot (the site's pages say "
        "each in Turkish too)",
        examples=["battleship.already_shot"],
    )
    params: dict = Field(
        description="The values the detail names, by name; for a malformed request (422), "
        "problems: one entry per field, with field and type",
        examples=[{"cell": "A1"}],
    )


PROBLEMS = {
    400: "The request breaks a rule of the game (a cell off the board, a fleet that is not one)",
    404: "No game has this id",
    409: "The game's state refuses it (over, moved on since the page's view, the engine busy)",
    413: "The body is over 256 KiB",
    422: "The request is malformed (a field missing or of the wrong type, a name unknown)",
    429: "This address started too many games lately (Retry-After says when to try again)",
    503: "The game store failed",
}


def problems_of(path: str, methods) -> dict[int, dict]:
    """The refusals a route may answer with, for its documentation: 422 for any, 400, 409
    and 413 for a request that carries a body, 404 and 409 for one that names a game, 429
    for one that starts a game, 503 for one that stores.

    >>> sorted(problems_of("/api/tour/games", {"POST"}))
    [400, 409, 413, 422, 429, 503]
    """
    statuses = {422}
    if "POST" in methods:
        statuses |= {400, 409, 413} | ({429, 503} if path.endswith("/games") else set())
    if "{game_id}" in path:
        statuses |= {404, 409, 503}
    return {s: {"model": Problem, "description": PROBLEMS[s]} for s in sorted(statuses)}


class Route(APIRoute):
    """A route that reads its request as ``OnceRequest`` and refuses a query parameter
    given twice (``?game=1&game=2`` would otherwise be read as game 2 alone) or one it
    does not take (``?dat=`` for ``?date=`` would silently give today's puzzle); its
    documentation lists the refusals it may answer with (``problems_of``)."""

    def __init__(self, path: str, endpoint, **options) -> None:
        documented = problems_of(path, options.get("methods") or {"GET"})
        options["responses"] = {**documented, **(options.get("responses") or {})}
        super().__init__(path, endpoint, **options)

    def get_route_handler(self):
        handler = super().get_route_handler()
        taken = _query_names(self.dependant)
        takes = f"it takes {', '.join(sorted(taken))}" if taken else "it takes none"

        async def once(request: Request):
            names = Counter(name for name, _ in request.query_params.multi_items())
            problems = [
                {"type": "extra_forbidden", "loc": ("query", name), "msg": f"unknown ({takes})"}
                for name in sorted(set(names) - taken)
            ] + [
                {
                    "type": "repeated",
                    "loc": ("query", name),
                    "msg": f"given {names[name]} times (give it once)",
                }
                for name in sorted(name for name, n in names.items() if n > 1)
            ]
            if problems:
                raise RequestValidationError(problems)
            return await handler(OnceRequest(request.scope, request.receive))

        return once


def _query_names(dependant) -> set[str]:
    """The query parameters a route's handler and its dependencies take."""
    own = {param.alias for param in dependant.query_params}
    return own.union(*(_query_names(inner) for inner in dependant.dependencies))


class Refused(HamleError):
    """A request the site understood but will not carry out (game over, not your turn);
    answered as 409 with the message."""


class Unoffered(HamleError):
    """A choice the site does not offer (a strategy for a variant); answered as 400."""


def client_of(request: Request) -> str:
    """The client a limit counts the request's sender as (``limit.client_key``)."""
    return client_key(request.client.host if request.client else "")


def store_of(request: Request) -> Store:
    return request.app.state.store
