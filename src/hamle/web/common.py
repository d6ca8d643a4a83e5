"""What the game routers share: the store, the error type and the id parameter."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request
from pydantic import BaseModel, ConfigDict

from hamle.errors import HamleError

from .store import Store

GameId = Annotated[
    str,
    Path(min_length=10, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="Game id"),
]


class Strict(BaseModel):
    """A request body that refuses fields it does not know (a typo is an error, not a
    silently ignored option)."""

    model_config = ConfigDict(extra="forbid")


class Refused(HamleError):
    """A request the site understood but will not carry out (game over, not your turn);
    answered as 409 with the message."""


class Unoffered(HamleError):
    """A choice the site does not offer (a strategy for a variant); answered as 400."""


def store_of(request: Request) -> Store:
    return request.app.state.store
