"""The site as ``hamle serve`` runs it, asked over raw sockets: requests naming it by another
site's name are refused."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time

import pytest

# The engines' warm-up is left out: these requests need none of them.
PROGRAM = """\
import hamle.web.app as app
app.warm_up = lambda: None
from hamle.cli import main; main()
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ask(port: int, request: bytes, timeout: float = 10) -> bytes:
    """Everything the server answers to the raw ``request`` before it closes or
    ``timeout`` s pass."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
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


@pytest.mark.parametrize("name", ["", " ", "games.example:8000", "http://games.example"])
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
