"""Slots for the site's heavy work, which takes up to several seconds of the cores: exact
layout counts and the expert's playouts (its hints and replays). At most ``size`` run at
once, no two of one client; more are refused with 409 until one ends, so the rest of the
site keeps answering and no one client holds them all. What the work found is ``Kept``,
to be answered again at once, busy or not."""

from __future__ import annotations

import threading
from collections import OrderedDict
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
                    code="battleship.yours_busy",
                )
            if not self._free.acquire(blocking=False):
                raise Refused(
                    "the engine is busy with other heavy requests; try again in a moment",
                    code="battleship.busy",
                )
            self._clients.add(client)
        try:
            yield
        finally:
            with self._lock:
                self._clients.discard(client)
                self._free.release()


class Kept:
    """The latest ``size`` answers by key, the least recently asked dropped first.

    >>> kept = Kept(2)
    >>> kept.put("a", 1); kept.put("b", 2); kept.get("a"); kept.put("c", 3)
    1
    >>> list(kept), kept.get("b")
    (['a', 'c'], None)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._answers: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        """The answer kept for ``key``, or None."""
        with self._lock:
            if key not in self._answers:
                return None
            self._answers.move_to_end(key)
            return self._answers[key]

    def put(self, key, answer) -> None:
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()

    def __iter__(self) -> Iterator:
        """The keys, the least recently asked first."""
        with self._lock:
            return iter(list(self._answers))


HEAVY = Slots(2)
