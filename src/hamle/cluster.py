"""Chunks of work on a Dask cluster, for the runs that outgrow one machine (Battleship
``simulate`` and ``tournament``, Mastermind ``evaluate``).

A run hands its chunks to ``Cluster.map``, which returns their results in the order of
the chunks whichever worker ran them. A chunk whose worker dies is run again on another
(the scheduler's own recovery), so the result is the one a local run gives. Only a few
chunks per worker thread are on the cluster at a time, so a run of any length holds
little memory and an interrupt (Ctrl-C) stops it at once. A run whose workers have all
left, whose scheduler is lost, or whose chunk kills every worker that runs it, ends with
a ``ClusterError``.

Start a scheduler and workers with Dask's own commands, then pass the scheduler's
address (``--cluster tcp://HOST:PORT`` on the command line)::

    dask scheduler --host 127.0.0.1 --port 8786
    dask worker tcp://127.0.0.1:8786 --nthreads 1      # once per worker

A local run uses ``local_pool`` instead, which an interrupt (Ctrl-C) stops at once.
"""

from __future__ import annotations

import logging
import math
import numbers
import os
import pickle
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from typing import TYPE_CHECKING

from hamle.errors import HamleError
from hamle.grid import is_whole, quoted

if TYPE_CHECKING:
    from concurrent.futures import Executor

CONNECT_SECONDS = 5
WORKER_WAIT_SECONDS = 30  # how long a run waits for a worker when every one has left
CLOSE_SECONDS = 2
POLL_SECONDS = 0.02  # how often a run looks for ended tasks
FETCH_SECONDS = 1  # how long a run waits for an ended task's result before looking again
CHUNKS_PER_THREAD = 4  # chunks on the cluster at a time, per worker thread
MAX_JOBS = 64  # local processes (or threads) a run may ask for
PARENT_CHECK_SECONDS = 1  # how often a local process looks whether its parent is alive
_AGAIN = object()  # a result to be fetched again


def checked_jobs(jobs, error: type[Exception]) -> int:
    """``jobs`` as an int if it is a whole number from 1 to MAX_JOBS (NumPy's taken, a
    bool not), else ``error`` saying so: one check for every game's runs.

    >>> checked_jobs(True, ValueError)
    Traceback (most recent call last):
    ValueError: jobs must be from 1 to 64, not True
    """
    if is_whole(jobs) and 1 <= jobs <= MAX_JOBS:
        return int(jobs)
    raise error(f"jobs must be from 1 to {MAX_JOBS}, not {quoted(jobs)}")


def checked_progress(progress, arguments: str, error: type[Exception]):
    """``progress`` if it is None or can be called (with ``arguments``), else ``error``
    saying so: one check for every run that reports its progress.

    >>> checked_progress(5, "done, total", ValueError)
    Traceback (most recent call last):
    ValueError: progress is a function of (done, total) or None, not 5
    """
    if progress is not None and not callable(progress):
        raise error(f"progress is a function of ({arguments}) or None, not {quoted(progress)}")
    return progress


def checked_sendable(value, error: type[Exception]) -> None:
    """``error`` unless ``value`` (a player of one's own) can be sent to the processes of
    ``local_pool`` (by pickle): said before the run starts, rather than as pickle's own
    error from inside the pool. (A cluster sends by cloudpickle, which sends more.)

    >>> checked_sendable(lambda: 0, ValueError)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: <lambda> cannot be sent to other processes (jobs above 1): define its class ...
    """
    try:
        pickle.dumps(value)
    except (pickle.PicklingError, AttributeError, TypeError):
        name = getattr(value, "name", None) or getattr(value, "__name__", type(value).__name__)
        raise error(
            f"{name} cannot be sent to other processes (jobs above 1): define its class at "
            "the top level of a module, or run it with jobs=1"
        ) from None


class ClusterError(HamleError, RuntimeError):
    """An address that is no Dask scheduler's, or a cluster that cannot be reached, has
    no workers, or fails mid-run."""


class Cluster:
    """A connection to the Dask scheduler at ``address``, as a context manager. A run
    waits ``worker_wait_seconds`` for a worker to come back when every one has left.

    >>> with Cluster("tcp://127.0.0.1:1", connect_seconds=0.2):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
    hamle.cluster.ClusterError: cannot reach the Dask scheduler at tcp://127.0.0.1:1: ...
    """

    def __init__(
        self,
        address: str,
        connect_seconds: float | None = None,
        worker_wait_seconds: float | None = None,
    ) -> None:
        if not isinstance(address, str) or not address.strip():
            raise ClusterError(
                "a cluster is the address of a Dask scheduler, like tcp://127.0.0.1:8786"
            )
        from distributed.comm.addressing import get_address_host_port, parse_address
        from distributed.security import Security

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
        # Dask's client takes TLS certificates from Dask's configuration; so does hamle.
        self._connection_args = Security().get_connection_args("client")
        tls = parse_address(self.address)[0] in ("tls", "wss")
        if tls and self._connection_args.get("ssl_context") is None:
            raise ClusterError(
                f"{self.address} is a TLS address, and Dask's configuration names no TLS "
                "certificates to connect with (distributed.comm.tls); use a tcp:// "
                "address or configure them"
            )
        self.connect_seconds = _seconds(
            CONNECT_SECONDS if connect_seconds is None else connect_seconds,
            "connect_seconds",
        )
        self.worker_wait_seconds = _seconds(
            WORKER_WAIT_SECONDS if worker_wait_seconds is None else worker_wait_seconds,
            "worker_wait_seconds",
        )
        self.client = None
        self._quiet = False  # whether Dask's logs are quieted for this connection

    @staticmethod
    def of(cluster: str | Cluster | None):
        """A context for ``cluster``: a new connection to an address, a connection
        already open as it is (left open), a new connection with the settings of a Cluster
        not open (so that runs sharing it each have their own), or nothing for None (a
        local run)."""
        if cluster is None or (isinstance(cluster, Cluster) and cluster.client is not None):
            return nullcontext(cluster)
        if isinstance(cluster, Cluster):
            return Cluster(cluster.address, cluster.connect_seconds, cluster.worker_wait_seconds)
        return Cluster(cluster)

    def __enter__(self) -> Cluster:
        self._check_scheduler()
        _QUIET.enter()
        self._quiet = True
        try:
            self._connect()
        except BaseException:
            self.close()
            raise
        return self

    def _connect(self) -> None:
        from distributed import Client

        try:
            self.client = Client(self.address, timeout=self.connect_seconds, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {_reason(exc)}"
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=self.connect_seconds)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"the Dask scheduler at {self.address} has no workers; start some with "
                f"`dask worker {self.address}`"
            ) from None
        self._check_same_hamle()

    def _check_same_hamle(self) -> None:
        """ClusterError naming the workers whose hamle (``fingerprint``: its version and
        source) is not the client's, or that cannot import it: their results could
        differ from a local run's. (A worker that joins mid-run is not asked.)"""
        from hamle.fingerprint import fingerprint, said

        ours = fingerprint()
        try:
            theirs = self.client.run(fingerprint, on_error="return")
            workers = self.client.scheduler_info(n_workers=-1)["workers"]
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"cannot ask the Dask workers at {self.address} which hamle they run: "
                f"{_reason(exc)}"
            ) from None
        differ = {address: mark for address, mark in sorted(theirs.items()) if mark != ours}
        if not differ:
            return

        def worker(address: str) -> str:
            name = workers.get(address, {}).get("name", address)
            return address if str(name) == address else f"{name} ({address})"

        found = "; ".join(
            f"{worker(address)}: "
            + (
                said(mark)
                if isinstance(mark, dict)
                else f"cannot tell which hamle it runs ({_reason(mark)})"
            )
            for address, mark in differ.items()
        )
        raise ClusterError(
            f"Dask workers at {self.address} run other hamle code than this ({said(ours)}), "
            f"so their results could differ from a local run's: {found}; start them from "
            "the same hamle"
        )

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection, waiting for the scheduler no more than a moment (the
        scheduler drops the work still queued)."""
        try:
            if self.client is not None:
                client, self.client = self.client, None
                # Dask logs as errors its attempts to reach a lost scheduler, which the close
                # cuts short.
                _QUIET.enter(logging.CRITICAL)
                try:
                    with suppress(Exception):
                        client.close(timeout=CLOSE_SECONDS)
                finally:
                    _QUIET.leave(logging.CRITICAL)
        finally:  # (also when Ctrl-C cuts the close short)
            if self._quiet:
                self._quiet = False
                _QUIET.leave()

    def _check_scheduler(self) -> None:
        """ClusterError unless a Dask scheduler answers at the address in time. Dask's own
        client waits for ever on a port that accepts and stays silent, and reads another
        protocol's bytes as a message of any size, so the address is asked first. A refused
        connection is said at once (Dask would try again until ``connect_seconds``)."""
        import asyncio
        import queue
        import socket
        import threading

        from distributed.comm import connect
        from distributed.comm.addressing import get_address_host_port

        seconds = self.connect_seconds
        try:
            socket.create_connection(get_address_host_port(self.address), seconds).close()
        except ConnectionRefusedError:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: the connection was "
                "refused; is the scheduler running, on that port?"
            ) from None
        except OSError:
            pass  # (Dask's own attempt below says why)

        async def identity():
            comm = await connect(self.address, timeout=seconds, **self._connection_args)
            try:
                await comm.write({"op": "identity"})
                return await comm.read()
            finally:
                comm.abort()

        # A thread of its own runs the loop: the caller may be running one (a notebook). The
        # connection may take ``seconds``, and the answer as long again. A daemon thread:
        # Ctrl-C does not wait for it (a pool's thread is waited for, at the exit too).
        answered: queue.Queue = queue.Queue()

        def ask() -> None:
            try:
                answered.put((asyncio.run(asyncio.wait_for(identity(), 2 * seconds)), None))
            except BaseException as exc:  # (handed to the caller's thread)
                answered.put((None, exc))

        threading.Thread(target=ask, name="hamle scheduler check", daemon=True).start()
        reply, failed = answered.get()
        if isinstance(failed, TimeoutError):
            raise ClusterError(
                f"no Dask scheduler answered at {self.address} within {2 * seconds:g} s"
            )
        if isinstance(failed, OSError):
            raise ClusterError(
                f"cannot reach the Dask scheduler at {self.address}: {_reason(failed)}"
            )
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
        result)`` is called for each task in that order as results arrive. A few tasks
        per worker thread are on the cluster at a time, the next sent as each ends."""
        running: dict = {}  # task -> its future
        arrived: dict[int, object] = {}  # results not yet in order
        results: list = []
        window = CHUNKS_PER_THREAD * self.threads
        sent = 0
        checked, alone_since = time.monotonic(), None
        try:
            while len(results) < len(tasks):
                while sent < len(tasks) and len(running) < window:
                    running[sent] = self.client.submit(function, *tasks[sent], pure=False)
                    sent += 1
                # A "lost" future's worker left with its result, and it runs again.
                ended = [i for i, f in running.items() if f.status not in ("pending", "lost")]
                for i in ended:
                    result = self._result(running[i])
                    if result is not _AGAIN:
                        arrived[i] = result
                        del running[i]
                while len(results) in arrived:
                    results.append(arrived.pop(len(results)))
                    if done:
                        done(len(results) - 1, results[-1])
                if not ended:
                    time.sleep(POLL_SECONDS)
                if time.monotonic() - checked > 1:
                    checked, alone_since = time.monotonic(), self._check_workers(alone_since)
        except BaseException:
            with suppress(Exception):
                self.client.cancel(list(running.values()))
            raise
        return results

    def _result(self, future):
        """The result of an ended ``future``, or ``_AGAIN`` if it cannot be had within
        FETCH_SECONDS (its worker left as it was fetched, and it runs again);
        ClusterError if the cluster failed to run it."""
        from distributed.client import FutureCancelledError
        from distributed.scheduler import KilledWorker

        try:  # (briefly: a result held by a worker gone blocks until it runs again)
            return future.result(timeout=min(FETCH_SECONDS, self.worker_wait_seconds))
        except KilledWorker as exc:
            raise ClusterError(
                f"a chunk of the run killed every Dask worker at {self.address} that ran it "
                f"({exc.allowed_failures + 1} tried); most likely it needs more memory than "
                "a worker has"
            ) from None
        except Exception as exc:
            if future.status == "error" and str(exc).startswith("Error during deserializ"):
                raise ClusterError(
                    f"the Dask cluster at {self.address} could not read a chunk of the run: "
                    "most likely a module of it (a shooter's, a strategy's) cannot be "
                    "imported there; install it on the cluster, or define the class in the "
                    "script that runs"
                ) from None
            if future.status == "error":  # the function's own exception
                raise
            if isinstance(exc, TimeoutError):
                return _AGAIN
            if isinstance(exc, FutureCancelledError) and exc.reason != "scheduler-connection-lost":
                raise ClusterError(
                    f"the Dask cluster at {self.address} cancelled a chunk of the run "
                    f"({exc.reason})"
                ) from None
            raise ClusterError(
                f"lost the connection to the Dask scheduler at {self.address} mid-run"
            ) from None

    def _check_workers(self, alone_since: float | None) -> float | None:
        """When the cluster was first seen without workers (None while it has some), from
        ``alone_since``; ClusterError once that is ``worker_wait_seconds`` ago."""
        lost = ClusterError(f"lost the connection to the Dask scheduler at {self.address} mid-run")
        if self.client.status != "running":  # it is trying to connect again
            raise lost
        try:
            workers = self.client.scheduler_info(n_workers=-1)["workers"].values()
        except (OSError, TimeoutError):
            raise lost from None
        # A worker paused (its memory nearly full) starts nothing new: unless it is still
        # running a task, it counts as gone.
        if any(
            worker.get("status", "running") == "running"
            or worker.get("metrics", {}).get("executing", 0) > 0
            for worker in workers
        ):
            return None
        if alone_since is None:
            return time.monotonic()
        if time.monotonic() - alone_since < self.worker_wait_seconds:
            return alone_since
        if any(worker.get("status") == "paused" for worker in workers):
            raise ClusterError(
                f"every worker of the Dask cluster at {self.address} is paused, its memory "
                f"nearly full, and none went on within {self.worker_wait_seconds:g} s; give "
                "the workers more memory (dask worker --memory-limit)"
            )
        raise ClusterError(
            f"every worker left the Dask cluster at {self.address} and none came back "
            f"within {self.worker_wait_seconds:g} s; start some with "
            f"`dask worker {self.address}`"
        )


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
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    jobs = max(1, min(jobs, tasks if tasks is not None else jobs))
    if threads:
        pool = ThreadPoolExecutor(jobs)
    else:
        pool = ProcessPoolExecutor(jobs, initializer=_worker_start, initargs=(os.getpid(),))
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


def _worker_start(parent: int) -> None:
    """A ``local_pool`` process's start: Ctrl-C reaches every process of the terminal's
    group, and only the parent acts on it; a parent that dies without stopping its pool
    (killed) leaves it waiting for work that never comes, so it ends within a second."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message, or its type's name."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _seconds(value: object, name: str) -> float:
    """``value`` if it is a finite number above 0, else ClusterError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ClusterError(f"{name} must be a number of seconds, not {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise ClusterError(f"{name} must be a finite number of seconds above 0, not {value!r}")
    return float(value)


class _Quieted:
    """Dask's logs quieted while any connection is open (``enter`` and ``leave`` in pairs
    of one level, from any thread) to the highest level still entered: their levels before
    the first are set back after the last, whatever the order connections close in."""

    def __init__(self) -> None:
        self.lock, self.entered, self.before = threading.Lock(), Counter(), {}

    def enter(self, level: int = logging.ERROR) -> None:
        with self.lock:
            self.entered[level] += 1
            self._quiet()

    def leave(self, level: int = logging.ERROR) -> None:
        with self.lock:
            self.entered[level] -= 1
            for logger, was in self.before.items():
                logger.setLevel(was)
            self.entered = +self.entered  # (the levels entered still)
            if self.entered:
                self._quiet()
            else:
                self.before = {}

    def _quiet(self) -> None:
        for logger, was in _quiet_dask(max(self.entered)).items():
            self.before.setdefault(logger, was)


_QUIET = _Quieted()


def _quiet_dask(level: int = logging.ERROR) -> dict[logging.Logger, int]:
    """Raise Dask's loggers to ``level`` (its warnings of a worker that left and of a
    result fetched again are its own business while a run goes on) and silence its event
    loops'; returns their levels before."""
    names = [
        name for name in list(logging.root.manager.loggerDict) if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in ["distributed", *names]]
    # Ctrl-C in the moment before a Dask call starts makes Dask's cancel fail with a
    # NameError (distributed 2026.8), which its event loop logs as a traceback.
    # A fetch given up on (its worker left) ends, once every worker has, in an exception no
    # one reads, which asyncio logs as a traceback.
    loud = {
        logging.getLogger(name): logging.CRITICAL for name in ("tornado.application", "asyncio")
    }
    loud |= {logger: level for logger in loggers}
    levels = {logger: logger.level for logger in loud}
    for logger, least in loud.items():
        if logger.getEffectiveLevel() < least:
            logger.setLevel(least)
    return levels
