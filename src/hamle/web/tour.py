"""Placeholder router (being written)."""

from fastapi import APIRouter

router = APIRouter(prefix="/api/tour", tags=["tour"])


def warm_up() -> None:
    pass
