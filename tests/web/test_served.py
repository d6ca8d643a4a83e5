"""The site as ``hamle serve`` runs it, asked over raw sockets: requests naming it by another
site's name are refused, and a client sending a request too slowly is cut off."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

# The engines' warm-up is left out: these requests need none of them. A request must be sent
# within three seconds (with room for a loaded machine's lags either way), and /api/slow
# takes four to answer.
PROGRAM = """\
import asyncio
import hamle.web as web, hamle.web.app as app, hamle.web.protocol as protocol
app.warm_up = lambda: None
protocol.REQUEST_SECONDS = 3
made = web.create_app
def create_app(*args, **options):
    site = made(*args, **options)
    async def slow():
        await asyncio.sleep(4)
        return {"slow": True}
    site.add_api_route("/api/slow", slow)
    return site
web.create_app = create_app
from hamle.cli import main; main()
"""
HEALTH = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ask(port: int, request: bytes, timeout: float = 10) -> bytes:
    """Everything the server answers to the raw ``request`` before it closes or
    ``timeout`` s pass."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        return read_answer(connection)


def read_answer(connection: socket.socket) -> bytes:
    """One response read whole from ``connection`` (or what came before it closed)."""
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer) < _length(answer):
        if not (part := connection.recv(65536)):
            break
        answer += part
    return answer


def _length(answer: bytes) -> int:
    """The whole length of a response whose head is in ``answer``."""
    head, _, _ = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return len(answer)


def status_and_body(answer: bytes) -> tuple[int, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The port of ``hamle serve`` on 127.0.0.1."""
    port = free_port()
    db = tmp_path_factory.mktemp("served") / "games.sqlite3"
    args = ["serve", "--port", str(port), "--db", str(db), "--allow-host", "games.example"]
    running = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        until = time.monotonic() + 60
        while time.monotonic() < until:
            assert running.poll() is None, running.stderr.read().decode()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        running.terminate()
        running.wait(30)


@pytest.mark.parametrize("host", ["rebound.example", "rebound.example:{port}", "Localhost.evil"])
def test_a_request_naming_another_site_is_refused(served, host):
    """A page whose own name was made to resolve to 127.0.0.1 (DNS rebinding) would read
    the API as its own."""
    host = host.format(port=served).encode()
    answer = ask(served, b"GET /api/health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
    status, body = status_and_body(answer)
    assert status == 403 and json.loads(body)["code"] == "site.wrong_host"
    page = ask(served, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
    status, body = status_and_body(page)
    assert status == 403 and b"--allow-host" in body


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "localhost", "games.example"]
)
def test_a_request_naming_this_machine_is_answered(served, host):
    host = host.format(port=served).encode()
    answer = ask(served, b"GET /api/health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n")
    assert status_and_body(answer) == (200, b'{"status":"ok"}')


@pytest.mark.parametrize(
    "name", ["", " ", "games.example:8000", "http://games.example", "*", "a.example,b.example"]
)
def test_serve_refuses_an_allowed_host_that_is_no_name(name):
    refused = subprocess.run(
        [sys.executable, "-c", PROGRAM, "serve", "--port", str(free_port()), "--allow-host", name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"error: --allow-host must be a host name such as games.example, not {name!r}\n"
    )


def cut_off_after(port: int, sent: bytes, first: bytes = b"", pause: float = 0.2) -> float:
    """Seconds until the server closes a connection that sends ``first`` at once (a request
    whole, whose answer is read, or the start of one) and then ``sent`` a byte every
    ``pause`` s; the test fails if that is answered, or held on to for all its bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=pause) as connection:
        connection.sendall(first)
        if first.endswith(b"\r\n\r\n") and first.startswith(b"GET"):
            connection.settimeout(5)
            assert read_answer(connection).startswith(b"HTTP/1.1 200 ")
            connection.settimeout(pause)
        start = time.monotonic()
        for byte in sent:
            try:
                connection.sendall(bytes([byte]))
                answer = connection.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # (reset: it closed between two bytes)
                return time.monotonic() - start
            assert answer == b"", answer  # (closed, not answered)
            return time.monotonic() - start
    raise AssertionError(f"still open after {time.monotonic() - start:.1f} s")


def test_a_connection_that_sends_nothing_is_closed(served):
    with socket.create_connection(("127.0.0.1", served), timeout=10) as connection:
        start = time.monotonic()
        assert connection.recv(1) == b""
    assert 1.5 < time.monotonic() - start < 10


def test_a_head_sent_a_byte_at_a_time_is_cut_off(served):
    """Slowloris: each byte would otherwise keep the connection open for good."""
    head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 50
    assert 1.5 < cut_off_after(served, head) < 10


def test_a_body_sent_a_byte_at_a_time_is_cut_off(served):
    head = (
        b"POST /api/battleship/density HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n"
    )
    assert 1.5 < cut_off_after(served, b" " * 50, first=head) < 10
    # and after an answer, the next request has its own three seconds (no more)
    assert 1.5 < cut_off_after(served, b"GET / HTTP/1.1\r\n" * 4, first=HEALTH) < 10


def test_requests_sent_in_time_and_slow_answers_are_not_cut_off(served):
    """The limit is on each request's sending: not on the connection, nor on the answer."""
    with socket.create_connection(("127.0.0.1", served), timeout=10) as connection:
        for _ in range(4):  # (4 s in all)
            time.sleep(1.0)
            connection.sendall(HEALTH)
            assert read_answer(connection).startswith(b"HTTP/1.1 200 ")
        connection.sendall(HEALTH[:20])
        time.sleep(1.0)
        connection.sendall(HEALTH[20:])
        assert read_answer(connection).startswith(b"HTTP/1.1 200 ")
    slow = ask(served, b"GET /api/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_and_body(slow) == (200, b'{"slow":true}')


def test_serve_takes_allow_host_more_than_once():
    """It was refused as an option given twice, though its help says it may be."""
    from typer.testing import CliRunner

    from hamle.cli import app

    args = ["serve", "--allow-host", "a.example", "--allow-host", "b.example", "--help"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "--allow-host" in result.stdout, result.output
