"""Placeholder router (being written)."""

from fastapi import APIRouter

router = APIRouter(prefix="/api/lab", tags=["lab"])


def warm_up() -> None:
    pass
