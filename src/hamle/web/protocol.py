"""The HTTP protocol ``hamle serve`` runs: uvicorn's h11 one with a time limit on each
request's sending.

uvicorn waits for a request's head and body as long as the client takes: before a
connection's first request it sets no limit at all, and between requests it closes a
connection left idle ``timeout_keep_alive`` seconds, but any byte puts that off. A client
that opens many connections and trickles a byte into each now and then (slowloris) would
hold them, and the server's file descriptors, for as long as it liked. Here a client has
``REQUEST_SECONDS`` from the moment the server waits for a request (the connection made,
the previous answer sent) to send all of it, head and body; past that the connection is
closed. The time the site takes to answer does not count, nor the time an answer waits for
a client that does not read it (a client sending requests in time but never reading their
answers keeps its connection until the system's own TCP timeouts end it).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 30  # a request of the site is a few kilobytes; the largest allowed, 256 KiB


class TimelyH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose client has taken more than
    ``REQUEST_SECONDS`` to send a request whole."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._set_deadline()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self._waiting():
            self._clear_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._set_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._clear_deadline()
        super().connection_lost(exc)

    def _waiting(self) -> bool:
        """Whether the server waits for the client to send (the rest of) a request."""
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def _set_deadline(self) -> None:
        self._clear_deadline()
        if self._waiting() and not self.transport.is_closing():
            self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _clear_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._waiting():
            self.transport.close()
