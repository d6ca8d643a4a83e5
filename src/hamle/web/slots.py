"""Slots for the site's heavy work, which takes up to several seconds of the cores: exact
layout counts and the expert's playouts (its hints and replays). At most ``size`` run at
once, no two of one client; more are refused with 409 until one ends, so the rest of the
site keeps answering and no one client holds them all. What the work found is ``Kept``,
to be answered again at once, busy or not. The Expert level's moves, which a game cannot
do without, wait their ``Turns`` instead (one more a client; a third is refused)."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

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
                raise _yours_busy()
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


class Turns:
    """At most ``size`` runs at once, one client's one at a time with one more waiting
    (a third is refused with 409, as a game refuses a third request), the others waiting
    their turn on the event loop, so that a wait holds no worker thread: for work a game
    cannot do without, which must not crowd out the rest.

    >>> async def moves(clients):
    ...     turns, running, most = Turns(2), [], []
    ...     async def move(client):
    ...         async with turns.turn(client):
    ...             running.append(client)
    ...             most.append(len(running))
    ...             await asyncio.sleep(0.01)
    ...             running.remove(client)
    ...     await asyncio.gather(*(move(c) for c in clients))
    ...     return max(most)
    >>> from concurrent.futures import ThreadPoolExecutor  # (an event loop of its own)
    >>> with ThreadPoolExecutor(1) as thread:
    ...     [thread.submit(asyncio.run, moves(c)).result() for c in ("aabbc", "aa")]
    [2, 1]
    """

    def __init__(self, size: int) -> None:
        self.size = size
        # Per event loop (its waits belong to it): the free runs, and each client's lock
        # with the count of its turns under way.
        self._loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """This client's turn (after its earlier one) while the block runs; Refused if it
        has two under way already."""
        loop = asyncio.get_running_loop()
        if loop not in self._loops:
            self._loops[loop] = (asyncio.Semaphore(self.size), {})
        free, clients = self._loops[loop]
        lock, under_way = clients.setdefault(client, (asyncio.Lock(), [0]))
        if under_way[0] >= 2:
            raise _yours_busy()
        under_way[0] += 1
        try:
            async with lock, free:
                yield
        finally:
            under_way[0] -= 1
            if not under_way[0]:
                del clients[client]


def _yours_busy() -> Refused:
    """The refusal of a client's request while its earlier ones are being worked on."""
    return Refused(
        "the engine is still working on a request from your address; try again once it is done",
        code="battleship.yours_busy",
    )


HEAVY = Slots(2)
