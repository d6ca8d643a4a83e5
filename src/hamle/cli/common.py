"""What every sub-app shares: clean errors, JSON output, progress bars."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

# Piped output is not cut to 80 columns.
console = Console(width=None if sys.stdout.isatty() else 120)
errors = Console(stderr=True)


def clean_errors(*kinds: type[Exception]) -> Callable:
    """Print the listed exceptions as one ``error:`` line and exit with status 2."""

    def wrap(command: Callable) -> Callable:
        @functools.wraps(command)
        def run(*args, **kwargs):
            try:
                return command(*args, **kwargs)
            except kinds as exc:
                errors.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
                raise typer.Exit(2) from None

        return run

    return wrap


def print_json(value: dict) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


@contextmanager
def progress_bar(label: str, enabled: bool = True):
    """A rich progress bar on stderr; yields ``update(done, total)``."""
    if not enabled:
        yield lambda done, total: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
