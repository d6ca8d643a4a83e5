"""How many games the site keeps, and how many new ones one client may start: a client
starting them without pause would otherwise fill the disk, or clear away others' games."""

from __future__ import annotations

import math
import threading
import time

from hamle.errors import HamleError

MAX_GAMES = 100_000  # games kept; past it the least recently played are cleared away
GAMES_PER_MINUTE = 30  # new games one client may start a minute; no person plays so fast
CLIENTS = 100_000  # clients whose recent new games are remembered


class TooManyGames(HamleError):
    """A client started more new games than the site allows; answered as 429."""


class NewGameLimit:
    """At most ``per_minute`` new games a minute per client address (any ``per_minute`` at
    once, then one every 60/``per_minute`` s); an IPv6 address counts by its /64 network,
    which one machine usually holds whole. 0: no limit.

    >>> limit = NewGameLimit(2)
    >>> limit.take("203.0.113.9"), limit.take("203.0.113.9")
    (None, None)
    >>> limit.take("203.0.113.9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.web.limit.TooManyGames: this address may start 2 new games a minute; ...
    """

    def __init__(self, per_minute: int = GAMES_PER_MINUTE, clock=time.monotonic) -> None:
        if isinstance(per_minute, bool) or not isinstance(per_minute, int) or per_minute < 0:
            raise ValueError(
                f"games_per_minute must be a whole number of 0 or more, not {per_minute!r}"
            )
        self.per_minute = per_minute
        self._clock = clock
        self._lock = threading.Lock()
        self._left: dict[str, tuple[float, float]] = {}  # client → (games left, when)

    def take(self, host: str) -> None:
        """Count a new game for ``host``; TooManyGames, saying when to try again, if it
        has none left."""
        if not self.per_minute:
            return
        client, now, rate = client_key(host), self._clock(), self.per_minute / 60
        with self._lock:
            left, then = self._left.pop(client, (self.per_minute, now))
            left = min(self.per_minute, left + (now - then) * rate)
            self._left[client] = (left - 1 if left >= 1 else left, now)
            if len(self._left) > CLIENTS:  # forget the clients that went quiet longest
                for quiet in list(self._left)[: CLIENTS // 2]:
                    del self._left[quiet]
        if left < 1:
            seconds = math.ceil((1 - left) / rate)
            raise TooManyGames(
                "this address may start {limit} new games a minute; start the next in {seconds} s",
                code="site.too_many_games",
                limit=self.per_minute,
                seconds=seconds,
            )


def client_key(host: str) -> str:
    """The client a limit counts ``host`` as: its address, or its /64 network for IPv6.

    >>> client_key("2001:db8:0:7::1"), client_key("::ffff:192.0.2.1")
    ('2001:db8:0:7::/64', '192.0.2.1')
    """
    import ipaddress  # (here: the command line reads this module's settings at start-up)

    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        if address.ipv4_mapped:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)
