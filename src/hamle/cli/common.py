"""What every sub-app shares: clean errors, registry names in help, JSON output, progress
bars. The engines are imported by the commands, never here, so help is quick."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from typer.core import TyperCommand, TyperOption

from hamle.files import spare_beside, written_whole

if TYPE_CHECKING:
    import click


class _Console:
    """A rich Console made on first use: commands that print JSON never import rich."""

    def __init__(self, **options) -> None:
        self._options = options
        self._console = None

    def get(self):
        """The rich Console itself."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.get(), name)


# Piped output is not cut to 80 columns. No :name: becomes an emoji: a code or a file
# name is printed as it is.
console = _Console(width=None if sys.stdout.isatty() else 120, emoji=False)
errors = _Console(stderr=True, emoji=False)


def visible(text: object, longest: int | None = None) -> str:
    r"""``text`` with its control characters written as ``repr`` writes them, so that a name
    typed or read from a file cannot colour the terminal or move its cursor; cut to
    ``longest`` characters (and …) if given. Print it without markup, or escape it.

    >>> visible("red\x1b[31m\tend"), visible("x" * 50, longest=5)
    ('red\\x1b[31m\\tend', 'xxxxx…')
    """
    text = str(text)
    if longest is not None and len(text) > longest:
        text = text[:longest] + "…"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def print_error(message: object) -> None:
    """``error: message`` on stderr, on one line: the message (which quotes what was typed,
    brackets and all) printed as it is, not read as markup."""
    from rich.markup import escape

    errors.print(f"[red]error:[/red] {escape(visible(message))}", highlight=False, soft_wrap=True)


def clean_errors(kinds: Callable[[], tuple[type[Exception], ...]]) -> Callable:
    """Print the exceptions ``kinds()`` names (and a cluster that cannot be used) as one
    ``error:`` line and exit with status 2; running out of memory is one line too (status 1).

    ``kinds`` is called only once the command raises, so it may import the engine.
    """

    def wrap(command: Callable) -> Callable:
        @functools.wraps(command)
        def run(*args, **kwargs):
            from hamle.cluster import ClusterError

            try:
                return command(*args, **kwargs)
            except (*kinds(), ClusterError) as exc:
                print_error(exc)
                raise typer.Exit(2) from None
            except MemoryError:  # (in this process or one of its --jobs)
                errors.print(
                    "[red]error:[/red] out of memory: fewer --jobs, or a smaller board or "
                    "variant, need less",
                    highlight=False,
                    soft_wrap=True,
                )
                raise typer.Exit(1) from None

        return run

    return wrap


CLUSTER = typer.Option(
    None,
    "--cluster",
    help="Run on the Dask cluster whose scheduler is at this address, like tcp://HOST:8786.",
)


def one_way(jobs: int, cluster: str | None) -> None:
    """Refuse ``--jobs`` beside ``--cluster``: a run uses local processes or a cluster."""
    from hamle.cluster import Cluster, ClusterError

    if cluster is not None:
        if jobs != 1:
            raise ClusterError("give --jobs or --cluster, not both")
        Cluster(cluster)  # checks the address is given at all


class Command(TyperCommand):
    """A command that refuses an option given twice, which click would read as its last
    value alone: ``--hit A1 --hit B2`` would mark B2 and silently drop A1."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _, _, order = self.make_parser(ctx).parse_args(args=list(args))
        given = [p for p in order if isinstance(p, TyperOption) and not p.is_flag]
        for param in given:
            if (times := given.count(param)) > 1:
                names = "/".join(param.opts)
                ctx.fail(f"{names} is given {times} times; give it once, with all its values")
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The help, with whole-number ranges in words: ``<number> [1 to 64]``."""
        for param in self.params:
            if type(param.type).__name__ == "IntRange":  # (typer carries its own click)
                param.type = _in_words(param.type)
        super().format_help(ctx, formatter)


def _in_words(numbers: click.IntRange) -> click.IntRange:
    """An integer range that the help shows as ``<number> [1 to 64]``, not ``1<=x<=64``."""
    low, high = numbers.min, numbers.max
    if high is None:
        words = f"{low} or more"
    else:
        words = f"{high} or less" if low is None else f"{low} to {high}"

    class InWords(type(numbers)):
        name = "number"

        def _describe_range(self) -> str:
            return words

    return InWords(low, high)


class App(typer.Typer):
    """A sub-app whose commands are ``Command``s unless they name another class."""

    def command(self, *args, cls: type[TyperCommand] = Command, **kwargs) -> Callable:
        return super().command(*args, cls=cls, **kwargs)


def listing(**lists: Callable[[], Iterable[str]]) -> type[TyperCommand]:
    """A command class that writes ``lists[key]()`` where an option's help says ``{key}``
    (``listing(names=...)`` for ``{names}``), at the moment the help is shown: the names
    come from an engine's registry, so the help cannot drift from what is accepted."""

    class Listing(Command):
        def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
            for param in self.params:
                for key, names in lists.items():
                    if param.help and f"{{{key}}}" in param.help:
                        param.help = param.help.replace(f"{{{key}}}", ", ".join(names()))
            super().format_help(ctx, formatter)

    return Listing


def unwritable(path: Path) -> str | None:
    """Why a file cannot be written at ``path`` (through a symbolic link, at its target), or
    None: asked before a long run, so that its result is not lost at the end. A file is made
    and removed in the folder to be sure, as a folder can refuse what its mode allows.

    >>> unwritable(Path("/no/such/folder/out.json"))
    'the folder /no/such/folder does not exist'
    """
    target = Path(os.path.realpath(path))
    named = target if os.path.islink(path) else path
    folder = target.parent
    if os.path.isdir(target):
        return f"{path} is a folder, not a file"
    if not os.path.isdir(folder):
        return f"the folder {named.parent} does not exist"
    if os.path.islink(target):
        return f"{path} is a symbolic link that leads back to itself"
    size = len(os.fsencode(target.name))
    if size > (longest := os.pathconf(folder, "PC_NAME_MAX")):
        return f"the file name {named.name[:20]}… is too long ({size} bytes, at most {longest})"
    if len(os.fsencode(target)) >= (longest := os.pathconf(folder, "PC_PATH_MAX")):
        return f"the path {str(target)[:20]}… is too long (at most {longest - 1} bytes)"
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return f"{path} cannot be written (permission denied)"
    spare = spare_beside(target)
    try:
        os.close(os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        os.unlink(spare)
    except OSError as exc:
        return f"{path} cannot be written: no file can be made in {folder} ({exc.strerror})"
    return None


def out_problem(path: Path, option: str, suffixes: tuple[str, ...]) -> str | None:
    """What is wrong with ``path`` as the file of ``option``, or None: it must end in one of
    ``suffixes`` and be writable, so a run is refused before it starts rather than after.

    >>> out_problem(Path("-"), "--out", (".json",))
    "--out must be a file name ending in .json (like out.json), not '-'"
    """
    if os.path.isdir(path):
        return f"{option}: {path} is a folder, not a file"
    if path.suffix.lower() not in suffixes:
        listing = ", ".join(suffixes[:-1]) + " or " + suffixes[-1] if suffixes[1:] else suffixes[0]
        return (
            f"{option} must be a file name ending in {listing} (like out{suffixes[0]}), "
            f"not {str(path)!r}"
        )
    if wrong := unwritable(path):
        return f"{option}: {wrong}"
    return None


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``hamle.files.written_whole``).
    Raises OSError."""
    with written_whole(path) as spare:
        spare.write_text(text, encoding="utf-8")


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless n is 1: ``counted(1, "shot")`` is ``1 shot``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def print_json(value: dict) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


@contextmanager
def progress_bar(label: str, enabled: bool = True):
    """A rich progress bar on stderr when it is a terminal; yields ``update(done, total)``."""
    if not enabled or not errors.get().is_terminal:  # (else rich leaves a blank line)
        yield lambda done, total: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=errors.get(),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
