"""Placeholder router (being written)."""

from fastapi import APIRouter

router = APIRouter(prefix="/api/battleship", tags=["battleship"])


def warm_up() -> None:
    pass
