"""A Dask cluster that fails mid-run (every worker gone, the scheduler gone, a chunk that
kills each worker running it) ends the run with one ClusterError saying what happened,
at once or after a bounded wait; workers their nannies restart in time lose nothing."""

from __future__ import annotations

import signal
import threading
import time

import psutil
import pytest
from test_cluster import LocalCluster
from typer.testing import CliRunner

import hamle.battleship as bs
from hamle.cli import app
from hamle.cluster import Cluster, ClusterError


def within(seconds: float, call):
    """``call()``, failing the test if it has not returned or raised after ``seconds``
    (the bugs these tests catch made runs wait for ever)."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def on_first(action):
    """A ``done``/``progress`` callback doing ``action()`` when the first result arrives."""
    acted = threading.Event()

    def callback(*_) -> None:
        if not acted.is_set():
            acted.set()
            action()

    return callback


def test_a_run_whose_workers_all_leave_ends_after_the_wait():
    running = LocalCluster(2)
    try:

        def kill_workers() -> None:
            for worker in running.workers:
                worker.send_signal(signal.SIGKILL)

        with Cluster(running.address, worker_wait_seconds=2) as cluster:
            started = time.perf_counter()
            sleeps = [(0.1,)] * 200
            message = r"^every worker left the Dask cluster at .* and none came back within 2 s; "
            with pytest.raises(ClusterError, match=message + r"start some with `dask worker"):
                within(30, lambda: cluster.map(time.sleep, sleeps, on_first(kill_workers)))
            assert time.perf_counter() - started < 15
    finally:
        running.stop()


def test_workers_their_nannies_restart_lose_nothing():
    running = LocalCluster(2)
    try:
        killed = []

        def kill_worker_processes() -> None:  # not their nannies, which start them again
            for nanny in running.workers:
                for child in psutil.Process(nanny.pid).children():
                    if "spawn_main" in " ".join(child.cmdline()):
                        child.kill()
                        killed.append(child)

        args = (bs.Rules.classic(), ["density"], ["uniform", "anti-density"], 2000)
        with Cluster(running.address, worker_wait_seconds=20) as cluster:
            progress = on_first(kill_worker_processes)
            remote = within(60, lambda: bs.tournament(*args, progress=progress, cluster=cluster))
        assert len(killed) == 2 and remote.as_dict() == bs.tournament(*args).as_dict()
    finally:
        running.stop()


def test_a_lost_scheduler_is_one_error():
    running = LocalCluster(2)
    try:
        with Cluster(running.address) as cluster:
            lose = on_first(running.scheduler.kill)
            message = (
                r"^lost the connection to the Dask scheduler at tcp://127\.0\.0\.1:\d+ mid-run$"
            )
            with pytest.raises(ClusterError, match=message):
                within(30, lambda: cluster.map(time.sleep, [(0.1,)] * 200, lose))
    finally:
        running.stop()


def test_a_lost_scheduler_is_one_error_line_on_the_command_line(monkeypatch):
    running = LocalCluster(2)
    try:
        run = Cluster.map

        def map_and_lose_the_scheduler(self, function, tasks, done):
            lose = on_first(running.scheduler.kill)
            return run(self, function, tasks, lambda *result: (lose(), done(*result)))

        monkeypatch.setattr(Cluster, "map", map_and_lose_the_scheduler)
        args = ["battleship", "tournament", "--games", "1000000", "--cluster", running.address]
        result = within(40, lambda: CliRunner().invoke(app, args))
        assert result.exit_code == 2, result.output
        expected = (
            f"error: lost the connection to the Dask scheduler at {running.address} mid-run\n"
        )
        assert result.stderr == expected
    finally:
        running.stop()


def test_a_chunk_that_kills_every_worker_running_it_is_one_error():
    import os

    # It dies a moment after it starts: a worker dead before its nanny has seen it start
    # is not started again (Dask's nanny gives up), and the run then has no worker left.
    die = lambda: (time.sleep(1), os._exit(1))  # noqa: E731 (sent by value)
    running = LocalCluster(1)  # its nanny starts it again after each death
    try:
        with Cluster(running.address) as cluster:
            message = (
                r"^a chunk of the run killed every Dask worker at tcp://127\.0\.0\.1:\d+ that "
                r"ran it \(\d+ tried\); most likely it needs more memory than a worker has$"
            )
            with pytest.raises(ClusterError, match=message):
                within(60, lambda: cluster.map(die, [()]))
    finally:
        running.stop()
