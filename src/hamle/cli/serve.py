"""``hamle serve``: the web site on a local port."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import sqlite3
import sys
import threading
from pathlib import Path

import typer

from hamle.start import OutputError, to_nowhere
from hamle.web.limit import GAMES_PER_MINUTE, MAX_GAMES

# A DNS name: labels of letters, digits and inner hyphens, dot-separated, at most 253 in all.
HOST_NAME = re.compile(
    r"(?=.{1,253}\.?$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?",
    re.I,
)
SLOW_START = 2.0  # seconds of warming up the engines before it is said
BACKLOG = 2048  # connections waiting to be accepted (uvicorn's own)


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    db: str = typer.Option(
        None,
        "--db",
        help="SQLite file for games in progress (default: $HAMLE_DB or hamle.sqlite3).",
    ),
    games_per_minute: int = typer.Option(
        GAMES_PER_MINUTE,
        "--games-per-minute",
        min=0,
        help="New games one client address may start a minute (0: no limit).",
    ),
    max_games: int = typer.Option(
        MAX_GAMES,
        "--max-games",
        min=1,
        help="Games kept in the database; past it the least recently played are cleared away.",
    ),
    allow_host: list[str] = typer.Option(
        [],
        "--allow-host",
        metavar="NAME",
        help="A name the site answers to besides its addresses and localhost (a reverse "
        "proxy's, say); may be given more than once. Other names are refused, so that a "
        "page of another site cannot reach this one under its own name.",
    ),
) -> None:
    """Serve the site: play the three games in a browser at http://HOST:PORT."""
    import uvicorn

    from hamle.cli.common import names_a_folder, print_error, unwritable, visible
    from hamle.web import create_app
    from hamle.web.app import DEFAULT_DB, warm_up
    from hamle.web.protocol import TimelyH11Protocol

    given = os.environ.get("HAMLE_DB", "")  # (empty: not set)
    for name, blank in (
        ("--db", db is not None and not db.strip()),
        ("$HAMLE_DB", given.isspace()),
    ):
        if blank:
            print_error(f"{name} must name a file, not an empty path")
            raise typer.Exit(2)
    path = db or given or DEFAULT_DB
    for name in allow_host:
        if not HOST_NAME.fullmatch(name):
            print_error(f"--allow-host must be a host name such as games.example, not {name!r}")
            raise typer.Exit(2)
    if names_a_folder(path):  # (SQLite would open the file of that name)
        print_error(f"{'--db' if db else '$HAMLE_DB'} {path!r} names a folder, not a file")
        raise typer.Exit(2)
    try:
        listening = _listen(host, port)
    except OSError as exc:
        print_error(f"cannot listen on {host}:{port}: {exc}")
        raise typer.Exit(2) from None
    try:
        app = create_app(
            path,
            warm=False,
            games_per_minute=games_per_minute,
            max_games=max_games,
            hosts=tuple(allow_host),
        )
    except sqlite3.Error as exc:
        listening.close()
        why = exc
        if "unable to open" in str(exc):  # (all SQLite says for most causes)
            why = unwritable(Path(path)) or exc
        print_error(f"cannot open the database {path}: {why}")
        raise typer.Exit(2) from None
    # The address is said once the engines are ready, so that it answers at once; where
    # that takes a while (numba compiling them, the first time after an install) the wait is
    # said first.
    slow = threading.Timer(SLOW_START, _say_slow_start)
    slow.start()
    try:
        warm_up()
    finally:
        slow.cancel()
        slow.join()  # (a line it is saying comes before the address)
    listening.listen(BACKLOG)  # (connections wait for the server, not refused, from here)
    try:
        _say(f"hamle at {address_of(host, port)}  (games kept in {visible(path)})")
    except (OSError, OutputError):  # (a full disk, a reader gone: the site is served unsaid)
        to_nowhere(sys.stdout.fileno())
    # (h11 with a time limit on each request's sending: see hamle.web.protocol)
    config = uvicorn.Config(app, http=TimelyH11Protocol, log_level="warning", server_header=False)
    server = uvicorn.Server(config)
    server.run(sockets=[listening])


def _say_slow_start() -> None:
    """Say that the engines take a while (on a thread of its own: an output that cannot
    be written is left for the main thread to meet)."""
    with contextlib.suppress(OSError, OutputError):
        _say("getting the engines ready (compiled the first time: a minute)…")


def _say(line: str) -> None:
    """Write ``line`` plainly (rich would end the command at a reader gone away, and the
    site is served all the same)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (OSError naming why not), so that a bad address
    or a busy port is an error before anything is served."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise OSError(f"no such address ({exc})") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as exc:
        listening.close()
        raise OSError(exc.strerror or str(exc)) from None
    return listening


def address_of(host: str, port: int) -> str:
    """The site's address as a browser takes it (an IPv6 host in brackets).

    >>> address_of("127.0.0.1", 8000), address_of("::1", 8000)
    ('http://127.0.0.1:8000', 'http://[::1]:8000')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
