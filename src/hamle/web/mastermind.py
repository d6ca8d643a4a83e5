"""Placeholder router (being written)."""

from fastapi import APIRouter

router = APIRouter(prefix="/api/mastermind", tags=["mastermind"])


def warm_up() -> None:
    pass
