"""Chunks of work on a Dask cluster, for the runs that outgrow one machine (Battleship
``simulate`` and ``tournament``, Mastermind ``evaluate``).

A run hands its chunks to ``Cluster.map``, which returns their results in the order of
the chunks whichever worker ran them. A chunk whose worker dies is run again on another
(the scheduler's own recovery), so the result is the one a local run gives.

Start a scheduler and workers with Dask's own commands, then pass the scheduler's
address (``--cluster tcp://HOST:PORT`` on the command line)::

    dask scheduler --host 127.0.0.1 --port 8786
    dask worker tcp://127.0.0.1:8786 --nthreads 1      # once per worker

A local run uses ``local_pool`` instead, which an interrupt (Ctrl-C) stops at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING

from hamle.errors import HamleError

if TYPE_CHECKING:
    from concurrent.futures import Executor

CONNECT_SECONDS = 5
MAX_JOBS = 64  # local processes (or threads) a run may ask for


class ClusterError(HamleError, RuntimeError):
    """An address that is no Dask scheduler's, or a cluster that cannot be reached or has
    no workers."""


class Cluster:
    """A connection to the Dask scheduler at ``address``, as a context manager.

    >>> with Cluster("tcp://127.0.0.1:1", connect_seconds=0.2):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
    hamle.cluster.ClusterError: cannot reach the Dask scheduler at tcp://127.0.0.1:1: ...
    """

    def __init__(self, address: str, connect_seconds: float | None = None) -> None:
        if not isinstance(address, str) or not address.strip():
            raise ClusterError(
                "a cluster is the address of a Dask scheduler, like tcp://127.0.0.1:8786"
            )
        from distributed.comm.addressing import get_address_host_port

        self.address = address.strip()
        try:
            _, port = get_address_host_port(self.address)
        except ValueError as exc:
            raise ClusterError(
                f"{self.address} is not the address of a Dask scheduler, like "
                f"tcp://127.0.0.1:8786 ({exc})"
            ) from None
        if not 0 < port < 65536:
            raise ClusterError(f"{self.address} is not an address: port {port} is not 1 to 65535")
        self.connect_seconds = CONNECT_SECONDS if connect_seconds is None else connect_seconds
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

        self._check_scheduler()
        try:
            self.client = Client(self.address, timeout=self.connect_seconds, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {_reason(exc)}"
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

    def _check_scheduler(self) -> None:
        """ClusterError unless a Dask scheduler answers at the address in time. Dask's own
        client waits for ever on a port that accepts and stays silent, and reads another
        protocol's bytes as a message of any size, so the address is asked first."""
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        from distributed.comm import connect

        seconds = self.connect_seconds

        async def identity():
            comm = await connect(self.address, timeout=seconds)
            try:
                await comm.write({"op": "identity"})
                return await comm.read()
            finally:
                comm.abort()

        try:
            # A thread of its own runs the loop: the caller may be running one (a notebook).
            # The connection may take ``seconds``, and the answer as long again.
            with ThreadPoolExecutor(1) as thread:
                asked = asyncio.wait_for(identity(), 2 * seconds)
                reply = thread.submit(asyncio.run, asked).result()
        except TimeoutError:
            raise ClusterError(
                f"no Dask scheduler answered at {self.address} within {2 * seconds:g} s"
            ) from None
        except OSError as exc:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {_reason(exc)}"
            ) from None
        except Exception:
            reply = None
        if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
            kind = reply.get("type") if isinstance(reply, dict) else None
            what = f"a Dask {kind}" if isinstance(kind, str) else "something else"
            raise ClusterError(f"{self.address} is not a Dask scheduler: {what} answered there")

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


@contextmanager
def local_pool(jobs: int, threads: bool = False, tasks: int | None = None) -> Iterator[Executor]:
    """An executor of ``jobs`` processes (or threads; no more than ``tasks``, if given)
    that, when the block raises or is interrupted, drops the work still queued and stops
    its processes at once, where ``with ProcessPoolExecutor(...)`` would first finish
    every task submitted.

    >>> with local_pool(2) as pool:
    ...     sorted(pool.map(abs, [-2, 1]))
    [1, 2]
    """
    import signal
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    jobs = max(1, min(jobs, tasks if tasks is not None else jobs))
    if threads:
        pool = ThreadPoolExecutor(jobs)
    else:  # Ctrl-C reaches every process of the terminal's group; only this one acts on it
        ignore = (signal.SIGINT, signal.SIG_IGN)
        pool = ProcessPoolExecutor(jobs, initializer=signal.signal, initargs=ignore)
    try:
        yield pool
    except BaseException:
        # ProcessPoolExecutor.terminate_workers() does this from Python 3.14 on.
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        raise
    pool.shutdown()


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message, or its type's name."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
