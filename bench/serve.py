"""``hamle serve`` for the site benchmarks: started on a free loopback port, answering
its health check."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx


def start_server(db: Path) -> tuple[subprocess.Popen, str]:
    """A running server on the database ``db`` and its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-c", "from hamle.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(db)]
    command += ["--games-per-minute", "0"]  # its clients, all on loopback, start games fast
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(server.stderr.read().decode())
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("hamle serve did not answer within 180 s")
