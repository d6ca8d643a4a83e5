"""A real server (``hamle serve`` in a subprocess) and Debian's Chromium driven by
Playwright. Screenshots go to tests/browser/artifacts/ for a person to look at."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).parent / "artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Server:
    """``hamle serve`` on a free loopback port; ``restart`` keeps the port and database."""

    def __init__(self, db: Path) -> None:
        self.db = db
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = [sys.executable, "-c", "from hamle.cli import main; main()", "serve"]
        command += ["--port", str(self.port), "--db", str(self.db)]
        command += ["--games-per-minute", "0"]  # the tests start games faster than a person
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"hamle serve exited: {self.process.stderr.read().decode()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("hamle serve did not answer within 180 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    running = Server(tmp_path_factory.mktemp("site") / "hamle.sqlite3")
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (Debian package chromium)"
        if os.environ.get("HAMLE_BROWSER_REQUIRED"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        yield chromium
        chromium.close()


def _page(browser, viewport, **options):
    context = browser.new_context(viewport=viewport, locale="en-US", **options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return context, page


@pytest.fixture
def page(browser):
    """A laptop-sized page; ``page.js_errors`` collects uncaught script errors."""
    context, page = _page(browser, LAPTOP)
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    """A phone-sized page."""
    context, page = _page(browser, PHONE)
    yield page
    context.close()


@pytest.fixture
def touch_phone(browser):
    """A phone with a touch screen only: no mouse, no hover, no keyboard until a key is pressed."""
    context, page = _page(browser, PHONE, has_touch=True, is_mobile=True)
    yield page
    context.close()


@pytest.fixture(scope="session")
def screenshot():
    """save(page, name): a full-page screenshot as artifacts/<name>.png."""

    def save(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
