"""``hamle serve``: the web site on a local port."""

from __future__ import annotations

import os
import sqlite3

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    db: str = typer.Option(
        None,
        "--db",
        help="SQLite file for games in progress (default: $HAMLE_DB or hamle.sqlite3).",
    ),
) -> None:
    """Serve the site: play the three games in a browser at http://HOST:PORT."""
    import uvicorn

    from hamle.cli.common import console
    from hamle.web import create_app
    from hamle.web.app import DEFAULT_DB

    path = db or os.environ.get("HAMLE_DB") or DEFAULT_DB
    try:
        app = create_app(path)
    except sqlite3.Error as exc:
        console.print(f"[red]error:[/red] cannot open the database {path}: {exc}", highlight=False)
        raise typer.Exit(2) from None
    console.print(f"hamle at http://{host}:{port}  (games kept in {path})", highlight=False)
    uvicorn.run(app, host=host, port=port, log_level="warning")
