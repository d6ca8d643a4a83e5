"""Slots for the site's heavy work, which takes up to several seconds of the cores: exact
layout counts and the expert's playouts (its hints and replays). At most ``size`` run at
once, no two of one client; more are refused with 409 until one ends, so the rest of the
site keeps answering and no one client holds them all."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from .common import Refused


class Slots:
    """``size`` slots, one per client at a time.

    >>> slots = Slots(1)
    >>> with slots.taken("203.0.113.9"):
    ...     with slots.taken("198.51.100.7"):
    ...         pass
    Traceback (most recent call last):
    hamle.web.common.Refused: the engine is busy with other heavy requests; try again in a moment
    """

    def __init__(self, size: int) -> None:
        self._free = threading.BoundedSemaphore(size)
        self._clients: set[str] = set()  # the clients whose requests hold a slot
        self._lock = threading.Lock()

    @contextmanager
    def taken(self, client: str) -> Iterator[None]:
        """A slot for ``client`` while the block runs; Refused (409) if none is free or the
        client holds one already."""
        with self._lock:
            if client in self._clients:
                raise Refused(
                    "the engine is still working on a request from your address; try again "
                    "once it is done",
                    code="battleship.exact_yours_busy",
                )
            if not self._free.acquire(blocking=False):
                raise Refused(
                    "the engine is busy with other heavy requests; try again in a moment",
                    code="battleship.exact_busy",
                )
            self._clients.add(client)
        try:
            yield
        finally:
            with self._lock:
                self._clients.discard(client)
                self._free.release()


HEAVY = Slots(2)
