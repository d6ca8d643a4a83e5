"""Chunks of work on a Dask cluster, for the runs that outgrow one machine (Battleship
``simulate`` and ``tournament``, Mastermind ``evaluate``).

A run hands its chunks to ``Cluster.map``, which returns their results in the order of
the chunks whichever worker ran them. A chunk whose worker dies is run again on another
(the scheduler's own recovery), so the result is the one a local run gives.

Start a scheduler and workers with Dask's own commands, then pass the scheduler's
address (``--cluster tcp://HOST:PORT`` on the command line)::

    dask scheduler --host 127.0.0.1 --port 8786
    dask worker tcp://127.0.0.1:8786 --nthreads 1      # once per worker
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext

from hamle.errors import HamleError

CONNECT_SECONDS = 5


class ClusterError(HamleError, RuntimeError):
    """A cluster that cannot be reached or has no workers."""


class Cluster:
    """A connection to the Dask scheduler at ``address``, as a context manager.

    >>> with Cluster("tcp://127.0.0.1:1", connect_seconds=0.2):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
    hamle.cluster.ClusterError: cannot reach the Dask scheduler at tcp://127.0.0.1:1: ...
    """

    def __init__(self, address: str, connect_seconds: float = CONNECT_SECONDS) -> None:
        if not isinstance(address, str) or not address.strip():
            raise ClusterError(
                "a cluster is the address of a Dask scheduler, like tcp://127.0.0.1:8786"
            )
        self.address, self.connect_seconds = address.strip(), connect_seconds
        self.client = None

    @staticmethod
    def of(cluster: str | Cluster | None):
        """A context for ``cluster``: a new connection to an address, a connection
        already open as it is (left open), or nothing for None (a local run)."""
        if cluster is None or isinstance(cluster, Cluster):
            return nullcontext(cluster)
        return Cluster(cluster)

    def __enter__(self) -> Cluster:
        from distributed import Client

        try:
            self.client = Client(self.address, timeout=self.connect_seconds, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {reason}"
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=self.connect_seconds)
        except (OSError, TimeoutError):
            self.close()
            raise ClusterError(
                f"the Dask scheduler at {self.address} has no workers; start some with "
                f"`dask worker {self.address}`"
            ) from None
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    @property
    def threads(self) -> int:
        """The threads of all workers connected now."""
        return max(1, sum(self.client.nthreads().values()))

    def map(
        self,
        function: Callable,
        tasks: Sequence[tuple],
        done: Callable[[int, object], None] | None = None,
    ) -> list:
        """``function(*task)`` for every task, in the order of ``tasks``; ``done(i,
        result)`` is called for each task in that order as results arrive."""
        futures = [self.client.submit(function, *task, pure=False) for task in tasks]
        results = []
        for i, future in enumerate(futures):
            results.append(future.result())
            if done:
                done(i, results[-1])
        return results
