"""Runs on a real Dask cluster (a scheduler and two workers started as subprocesses on
127.0.0.1) give the local result field by field, even when a worker dies mid-run; a long
run holds a few tasks per worker thread and stops at once when interrupted. (Failures of
the cluster mid-run: test_cluster_failures.py.)"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client
from typer.testing import CliRunner

import hamle
import hamle.battleship as bs
import hamle.cluster
import hamle.mastermind as mm
from hamle.cli import app
from hamle.cluster import Cluster, ClusterError

DASK = Path(sys.executable).with_name("dask")


class LocalCluster:
    """``dask scheduler`` and ``dask worker`` processes on loopback."""

    def __init__(self, workers: int) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{port}"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        command = [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port)]
        self.scheduler = subprocess.Popen([*command, "--no-dashboard"], **quiet)
        worker = [str(DASK), "worker", self.address, "--nthreads", "1", "--no-dashboard"]
        worker += ["--memory-limit", "0"]
        self.workers = [
            subprocess.Popen(
                [*worker, "--name", f"w{i}"],
                **quiet,
            )
            for i in range(workers)
        ]
        from distributed import Client

        with Client(self.address, timeout=60) as client:  # the scheduler is up
            if workers:
                client.wait_for_workers(workers, timeout=120)

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def cluster():
    running = LocalCluster(2)
    yield running
    running.stop()


def test_a_tournament_on_the_cluster_is_the_local_one(cluster):
    rules = bs.Rules.classic()
    args = (rules, ["parity", "density"], ["uniform", "edges"], 40, 3)
    local = bs.tournament(*args).as_dict()
    assert bs.tournament(*args, cluster=cluster.address).as_dict() == local


def test_simulate_through_the_command_line(cluster):
    args = ["battleship", "simulate", "--strategies", "parity,density", "--games", "30"]
    args += ["--rules", "russian", "--json"]
    local = CliRunner().invoke(app, args)
    remote = CliRunner().invoke(app, [*args, "--cluster", cluster.address])
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_mastermind_evaluate_on_the_cluster(cluster):
    variant = mm.Variant(4, 5)
    local = mm.evaluate("minimax", variant)
    remote = mm.evaluate("minimax", variant, cluster=cluster.address)
    assert remote.histogram == local.histogram and remote.first_guess == local.first_guess


def test_a_worker_killed_mid_run_loses_nothing():
    running = LocalCluster(2)
    try:
        rules = bs.Rules.classic()
        args = (rules, ["density"], ["uniform", "anti-density"], 400)
        started = threading.Event()

        def progress(done: int, total: int) -> None:
            if done and not started.is_set():
                started.set()
                running.workers[0].send_signal(signal.SIGKILL)

        remote = bs.tournament(*args, progress=progress, cluster=running.address)
        assert started.is_set() and running.workers[0].wait(10) == -signal.SIGKILL
        assert remote.as_dict() == bs.tournament(*args).as_dict()
    finally:
        running.stop()


def test_an_unreachable_cluster_is_one_error_line_and_writes_nothing(tmp_path):
    out = tmp_path / "t.json"
    started = time.perf_counter()
    args = ["battleship", "tournament", "--games", "2", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.startswith("error: cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert time.perf_counter() - started < 30


def test_a_scheduler_without_workers_says_so():
    running = LocalCluster(0)
    try:
        with pytest.raises(ClusterError, match="has no workers; start some with `dask worker"):
            bs.simulate(bs.Rules.classic(), "parity", 2, cluster=running.address)
    finally:
        running.stop()


def test_a_worker_running_other_hamle_code_is_refused_by_name(tmp_path):
    # A copy of hamle's source with one line added, as a worker started from an edited
    # checkout would run: the same version, other code.
    copy = tmp_path / "other"
    shutil.copytree(
        Path(hamle.__file__).parent, copy / "hamle", ignore=shutil.ignore_patterns("__pycache__")
    )
    with (copy / "hamle" / "battleship" / "simulate.py").open("a") as source:
        source.write("\nEDITED = True\n")
    running = LocalCluster(1)
    try:
        worker = [str(DASK), "worker", running.address, "--nthreads", "1", "--no-dashboard"]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        env = {**os.environ, "PYTHONPATH": str(copy)}
        running.workers.append(subprocess.Popen([*worker, "--name", "edited"], env=env, **quiet))
        with Client(running.address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        with pytest.raises(ClusterError, match=r"run other hamle code .*: edited \(tcp://"):
            bs.simulate(bs.Rules.classic(), "parity", 2, cluster=running.address)
        args = ["battleship", "simulate", "--games", "2", "--json"]
        result = CliRunner().invoke(app, [*args, "--cluster", running.address])
        assert result.exit_code == 2 and not result.stdout
        assert result.stderr.startswith("error: Dask workers at ")
        assert "edited (tcp://" in result.stderr and "w0" not in result.stderr
    finally:
        running.stop()


@pytest.fixture
def listener():
    """A loopback port whose connections get ``greeting`` (maybe nothing) and are then
    held open unanswered, as a server of another protocol would."""
    sockets = []

    def start(greeting: bytes) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        sockets.append(server)

        def serve() -> None:
            while True:
                try:
                    connection, _ = server.accept()
                except OSError:  # closed at the end of the test
                    return
                sockets.append(connection)
                connection.sendall(greeting)

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for opened in sockets:
        opened.close()


def test_a_port_that_never_answers_is_one_error_line(listener, monkeypatch):
    monkeypatch.setattr(hamle.cluster, "CONNECT_SECONDS", 0.2)
    address = listener(b"")
    result = CliRunner().invoke(
        app, ["battleship", "simulate", "--games", "2", "--cluster", address]
    )
    assert result.exit_code == 2
    assert result.stderr == f"error: no Dask scheduler answered at {address} within 0.4 s\n"


def test_ctrl_c_while_a_silent_port_is_asked_leaves_no_thread_to_wait_for(listener):
    """The check's thread was a pool's, which Ctrl-C and the exit waited for (8 s more)."""
    address = listener(b"")
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        Cluster(address, connect_seconds=30)._check_scheduler()
    timer.join()
    asking = [t for t in threading.enumerate() if t.name == "hamle scheduler check"]
    assert asking and all(thread.daemon for thread in asking)


def test_a_cluster_not_yet_opened_is_opened_for_the_run_and_closed_after(cluster):
    """It failed with AttributeError (no client): the README shows Cluster(address, …).
    The run opens a connection of its own, so that runs sharing the Cluster (threads of a
    notebook) do not close each other's."""
    given = Cluster(cluster.address, worker_wait_seconds=60)
    rules, local = bs.Rules.classic(), bs.simulate(bs.Rules.classic(), ["parity"], 12)
    during = []
    shared = bs.simulate(
        rules, ["parity"], 12, progress=lambda *_: during.append(given.client), cluster=given
    )
    assert shared.results == local.results and during and set(during) == {None}
    assert given.client is None
    assert mm.evaluate("minimax", mm.Variant(3, 4), cluster=given).total == (
        mm.evaluate("minimax", mm.Variant(3, 4)).total
    )


def test_a_shooter_whose_module_the_workers_lack_is_named_as_such(cluster, tmp_path, monkeypatch):
    """It was Dask's RuntimeError, its cause only in the scheduler's log."""
    (tmp_path / "own_shooters.py").write_text(
        "from dataclasses import dataclass\n"
        "from hamle.battleship.strategies.density_shooter import DensityShooter\n\n\n"
        "@dataclass(frozen=True)\n"
        "class Mine(DensityShooter):\n"
        '    name: str = "mine"\n'
    )
    monkeypatch.syspath_prepend(tmp_path)  # (here, not on the workers)
    from own_shooters import Mine

    with pytest.raises(ClusterError, match=r"a module of it .* cannot be imported there"):
        bs.simulate(bs.Rules.classic(), [Mine()], 4, cluster=cluster.address)


class PausedClient:
    """A client whose scheduler has only workers paused for memory."""

    status = "running"

    def __init__(self, states: list[str], executing: int = 0) -> None:
        self.states, self.executing = states, executing

    def scheduler_info(self, n_workers: int = 5) -> dict:
        metrics = {"executing": self.executing}
        workers = [{"status": s, "metrics": metrics} for s in self.states]
        return {"workers": {f"tcp://w{i}": worker for i, worker in enumerate(workers)}}


def test_workers_paused_for_memory_count_as_gone():
    """A run on paused workers waited for ever, saying nothing."""
    paused = Cluster("tcp://127.0.0.1:1", worker_wait_seconds=1)
    paused.client = PausedClient(["paused", "paused"])
    since = paused._check_workers(None)
    assert since is not None
    with pytest.raises(ClusterError, match=r"every worker .* is paused, its memory nearly full"):
        paused._check_workers(since - 2)
    paused.client = PausedClient(["paused", "running"])
    assert paused._check_workers(since - 2) is None
    # A paused worker still running a task goes on with it: the run waits for it.
    paused.client = PausedClient(["paused", "paused"], executing=1)
    assert paused._check_workers(since - 2) is None


def test_a_port_of_another_protocol_is_not_a_scheduler(listener, monkeypatch):
    monkeypatch.setattr(hamle.cluster, "CONNECT_SECONDS", 2)
    address = listener(b"SSH-2.0-OpenSSH_9.2\r\n")
    args = ["mastermind", "evaluate", "--cluster", address]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    expected = f"error: {address} is not a Dask scheduler: something else answered there\n"
    assert result.stderr == expected


@pytest.mark.parametrize(
    ("address", "wrong"),
    [
        ("foo", "missing port number"),
        ("xyz://host:1", "unknown address scheme 'xyz'"),
        ("tcp://127.0.0.1:99999", "port 99999 is not 1 to 65535"),
    ],
)
def test_a_malformed_address_is_refused_before_connecting(address, wrong):
    with pytest.raises(ClusterError, match=f"^{re.escape(address)} is not .*{re.escape(wrong)}"):
        Cluster(address)
    args = ["battleship", "tournament", "--games", "2", "--cluster", address]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {address} is not") and result.stderr.count("\n") == 1


def test_a_local_pool_starts_no_more_workers_than_tasks():
    with hamle.cluster.local_pool(8, tasks=2) as pool:
        assert sorted(pool.map(abs, [-2, 1])) == [1, 2]
        assert len(pool._processes) <= 2  # (a private field: how many processes started)


def test_a_local_pools_processes_end_when_their_parent_is_killed(tmp_path):
    # The parent writes its workers' process ids, then is killed as `kill -9` would:
    # nothing stops its pool, and the workers used to wait for work for ever. (They would
    # hold a pipe of the parent's output open too: the ids go through a file.)
    parent = (
        "import os, pathlib, signal, sys, hamle.cluster\n"
        "with hamle.cluster.local_pool(2) as pool:\n"
        "    pids = {pool.submit(os.getpid).result() for _ in range(4)} | set(pool._processes)\n"
        "    pathlib.Path(sys.argv[1]).write_text(' '.join(map(str, pids)))\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    written = tmp_path / "pids"
    run = subprocess.run(
        [sys.executable, "-c", parent, str(written)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert run.returncode == -signal.SIGKILL
    workers = {int(pid) for pid in written.read_text().split()}
    assert 1 <= len(workers) <= 2 and os.getpid() not in workers
    deadline = time.monotonic() + 30
    while (alive := {pid for pid in workers if running(pid)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in alive:  # (a failure leaves none behind)
        os.kill(pid, signal.SIGKILL)
    assert not alive


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie has: no one reaped it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_a_long_run_holds_a_few_tasks_per_thread_and_keeps_their_order(cluster):
    # Every fifth task is slow, so later ones end first.
    pause = lambda seconds, value: (time.sleep(seconds), value)[1]  # noqa: E731 (sent by value)
    tasks = [(0.2 if i % 5 == 0 else 0, i) for i in range(60)]
    called, held = [], []
    with Cluster(cluster.address) as running:

        def done(i: int, result: int) -> None:
            called.append((i, result))
            held.append(len(running.client.futures))

        assert running.map(pause, tasks, done) == list(range(60))
    assert called == [(i, i) for i in range(60)]
    assert max(held) <= hamle.cluster.CHUNKS_PER_THREAD * 2


def scheduler_tasks(client) -> int:
    """How many tasks the scheduler holds."""
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


def test_an_interrupted_run_stops_at_once_and_leaves_no_work(cluster):
    def interrupt(i: int, _) -> None:
        if i == 2:
            raise KeyboardInterrupt

    started = time.perf_counter()
    with pytest.raises(KeyboardInterrupt), Cluster(cluster.address) as running:
        running.map(time.sleep, [(0.05,)] * 50_000, interrupt)
    assert time.perf_counter() - started < 5 and running.client is None
    with Client(cluster.address, timeout=10) as client:
        for _ in range(100):  # the scheduler forgets the run's tasks
            if not scheduler_tasks(client):
                break
            time.sleep(0.1)
        else:
            pytest.fail("the scheduler still holds the interrupted run's tasks")


def test_ctrl_c_on_a_big_run_on_the_command_line_says_interrupted_at_once(cluster):
    command = [str(DASK.with_name("hamle")), "battleship", "tournament", "--games", "1000000"]
    run = subprocess.Popen(
        [*command, "--cluster", cluster.address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with Client(cluster.address, timeout=10) as client:
            for _ in range(300):  # until the run is under way
                if scheduler_tasks(client):
                    break
                time.sleep(0.1)
            time.sleep(6)
            assert run.poll() is None and scheduler_tasks(client)
            run.send_signal(signal.SIGINT)
            signalled = time.perf_counter()
            _, stderr = run.communicate(timeout=30)
            assert time.perf_counter() - signalled < 4
            assert run.returncode == 130 and stderr.strip() == "interrupted", stderr
            time.sleep(1)
            assert not scheduler_tasks(client)
    finally:
        run.kill()


def test_dask_says_only_errors_while_a_run_is_connected(cluster):
    dask_client = logging.getLogger("distributed.client")
    before = dask_client.level
    with Cluster(cluster.address):
        # Dask warns "Couldn't gather 1 keys, rescheduling" when a worker leaves.
        assert not dask_client.isEnabledFor(logging.WARNING)
        assert dask_client.isEnabledFor(logging.ERROR)
    assert dask_client.level == before


def test_dask_speaks_again_once_overlapping_connections_close_in_any_order(cluster):
    """Two runs at once (threads of a notebook): the first to close set the levels back
    to what the second had seen, quiet, and the second then kept them quiet for good."""
    loggers = [logging.getLogger(name) for name in ("distributed", "asyncio")]
    before = [logger.level for logger in loggers]
    first, second = Cluster(cluster.address), Cluster(cluster.address)
    first.__enter__()
    second.__enter__()
    first.close()
    assert not loggers[0].isEnabledFor(logging.WARNING)  # (the second still runs, and
    assert loggers[0].isEnabledFor(logging.ERROR)  # says its errors)
    second.close()
    assert [logger.level for logger in loggers] == before


def test_dask_speaks_again_after_a_close_that_ctrl_c_cut_short():
    from hamle.cluster import _QUIET

    class Interrupted:
        def close(self, timeout):
            raise KeyboardInterrupt

    dask = logging.getLogger("distributed")
    before = dask.level
    cut = Cluster("tcp://127.0.0.1:1")
    _QUIET.enter()  # (as __enter__ does, without a scheduler)
    cut._quiet, cut.client = True, Interrupted()
    with pytest.raises(KeyboardInterrupt):
        cut.close()
    assert dask.level == before and cut.client is None


def test_ctrl_c_before_a_dask_call_starts_prints_no_traceback(cluster):
    """Dask's cancel of a call not yet begun fails with a NameError (distributed 2026.8),
    which its event loop logs as a traceback under a plain client."""
    import asyncio

    from distributed.utils import sync

    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("tornado.application").addHandler(handler)

    def interrupt_a_call_not_yet_begun(client) -> None:
        client.loop.add_callback(time.sleep, 0.5)  # the loop is busy: the call waits
        main = threading.main_thread().ident
        threading.Timer(0.1, signal.pthread_kill, (main, signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            sync(client.loop, asyncio.sleep, 1)
        time.sleep(1)  # the loop runs the cancel

    try:
        with Cluster(cluster.address) as running:
            interrupt_a_call_not_yet_begun(running.client)
        assert records == []
    finally:
        logging.getLogger("tornado.application").removeHandler(handler)


def test_a_tls_address_needs_certificates_hamle_does_not_have():
    with pytest.raises(ClusterError, match=r"^tls://127\.0\.0\.1:8797 is a TLS address, and Dask"):
        Cluster("tls://127.0.0.1:8797")
    args = ["battleship", "simulate", "--games", "2", "--cluster", "tls://127.0.0.1:8797"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "names no TLS certificates" in result.stderr


@pytest.mark.parametrize("seconds", ["x", 0, -1, math.nan, math.inf, True, "5"])
@pytest.mark.parametrize("name", ["connect_seconds", "worker_wait_seconds"])
def test_the_waits_are_numbers_of_seconds_above_0(name, seconds):
    with pytest.raises(ClusterError, match=f"^{name} must be a (finite )?number of seconds"):
        Cluster("tcp://127.0.0.1:8786", **{name: seconds})


def test_a_refused_connection_is_called_refused_at_once():
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    refused = "the connection was refused; is the scheduler running"
    started = time.perf_counter()
    with pytest.raises(ClusterError, match=refused), Cluster(address, connect_seconds=60):
        pass
    assert time.perf_counter() - started < 30  # not the minute Dask would keep trying
