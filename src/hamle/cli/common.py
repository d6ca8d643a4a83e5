"""What every sub-app shares: clean errors, registry names in help, JSON output, progress
bars. The engines are imported by the commands, never here, so help is quick."""

from __future__ import annotations

import codecs
import functools
import inspect
import json
import os
import re
import sys
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from typer.core import TyperCommand, TyperOption

from hamle.files import spare_beside, written_whole
from hamle.grid import name_key, quoted

try:  # typer 0.2x carries its own click
    from typer._click.exceptions import NoSuchOption
    from typer._click.types import IntParamType, IntRange, ParamType
    from typer.models import TyperPath as PathType
except ImportError:  # (an older typer uses click itself)
    from click.exceptions import NoSuchOption
    from click.types import IntParamType, IntRange, ParamType
    from click.types import Path as PathType

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


# Piped output is not cut to 80 columns (tables take 120), and a line of text is never cut
# (a program reading it finds a message whole). No :name: becomes an emoji: a code or a
# file name is printed as it is.
_piped = not sys.stdout.isatty()
console = _Console(width=120 if _piped else None, soft_wrap=_piped, emoji=False)
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


WORD_AT_MOST = 200  # characters of one word (a run without spaces) of an error line
LINE_AT_MOST = 500  # characters of a whole error line


def shortened(message: object) -> str:
    """An error ``message`` as one readable line, however long the text it quotes: control
    characters written out (``visible``), a word of more than ``WORD_AT_MOST`` characters cut
    to that (its closing quote and punctuation kept), and the line to ``LINE_AT_MOST``.

    >>> line = shortened("unknown strategy '" + "x" * 300 + "'; choose one of: a, b")
    >>> len(line), line[-25:]
    (240, "xx…'; choose one of: a, b")
    """

    def cut(word: re.Match) -> str:
        end = re.search(r"""['")\]]?[.,;:]?$""", word[0])[0]
        return word[0][:WORD_AT_MOST] + "…" + end

    line = re.sub(rf"\S{{{WORD_AT_MOST + 1},}}", cut, visible(message))
    return line if len(line) <= LINE_AT_MOST else line[:LINE_AT_MOST] + "…"


def print_error(message: object) -> None:
    """``error: message`` on stderr, on one line (``shortened``): the message (which quotes
    what was typed, brackets and all) printed as it is, not read as markup."""
    from rich.markup import escape

    errors.print(f"[red]error:[/red] {escape(shortened(message))}", highlight=False, soft_wrap=True)


LONGEST_LINE = 10_000  # characters of a line typed at a prompt
# Characters of a line too long that are read and let go before the prompt asks again:
# past them the input is taken to have no line ends at all (like ``< /dev/zero``).
LONGEST_SKIPPED = 1_000_000
JSON_WRITE = 1 << 20  # characters of JSON written at a time
LONE_SURROGATE = re.compile("[\\ud800-\\udfff]")  # (in text read with surrogateescape or from JSON)


_after_cr = False  # the last line read ended at \r: a \n first in the next one is its CRLF


class LineTooLong(Exception):
    """A line typed at a prompt was longer than ``LONGEST_LINE``; it has been read to its
    end and let go, so the prompt can ask again."""


def read_line() -> str:
    """The next line typed at a prompt, ending in \\n whether it ended at \\n, \\r\\n or \\r
    (as a file saved on an old Mac does); '' at the end of the input. A line longer than
    ``LONGEST_LINE`` (a careless paste, which should not end a game) is read to its end and
    let go, and LineTooLong raised for the prompt to ask again; one longer than
    ``LONGEST_SKIPPED`` (input without line ends, like ``< /dev/zero``, which would fill the
    memory) is one error line and status 2.

    Read a character at a time, so that a line ending at \\r is taken at once: a reader
    that waited to see whether \\n comes next would wait for the next line typed."""
    global _after_cr
    if sys.stdin is None:  # (closed: no input at all)
        return ""
    line = []
    while len(line) <= LONGEST_LINE:
        char = sys.stdin.read(1)
        if char == "\n" and _after_cr:  # (the rest of a CRLF)
            _after_cr = False
            continue
        _after_cr = char == "\r"
        if not char:  # (the end of the input)
            break
        line.append("\n" if char == "\r" else char)
        if line[-1] == "\n":
            break
    else:
        if _skip_line():
            raise LineTooLong(f"a line longer than {LONGEST_LINE:,} characters is not read")
        print_error(f"a line of input is longer than {LONGEST_SKIPPED:,} characters")
        raise typer.Exit(2)
    return "".join(line).removeprefix("\ufeff")  # (a file saved with a byte order mark)


def game_line() -> str | None:
    """The next line typed at a game's prompt (``read_line``), or None where a line too
    long was let go (which it says: the game goes on, and the prompt asks again)."""
    try:
        return read_line()
    except LineTooLong as exc:
        console.print(f"{exc}; the game goes on", style="red", highlight=False)
        return None


def _skip_line() -> bool:
    """Read the rest of a line and let it go: True at its end (or the input's), False past
    ``LONGEST_SKIPPED`` characters."""
    global _after_cr
    for _ in range(LONGEST_SKIPPED):
        char = sys.stdin.read(1)
        _after_cr = char == "\r"
        if char in ("", "\n", "\r"):
            return True
    return False


def quits(line: str | None) -> bool:
    """Whether a line typed at a game's prompt ends the game: the end of the input, or q,
    quit or exit in any case.

    >>> quits(" Exit "), quits(""), quits("E5")
    (True, True, False)
    """
    return not line or name_key(line) in ("q", "quit", "exit")


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
            except KeyboardInterrupt:  # (before kinds(): it may import what Ctrl-C cut short)
                raise
            except (*kinds(), ClusterError) as exc:
                print_error(exc)
                raise typer.Exit(2) from None
            except MemoryError:  # (in this process or one of its --jobs)
                # (written plainly: rich, not yet imported, would need memory to print it)
                sys.stderr.write(
                    "error: out of memory: fewer --jobs, or a smaller board or variant, need less\n"
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


def stripped(value: str | None) -> str | None:
    """A name option's value without the spaces around it, as the lists of names (like
    ``--shooters``) read each name: the callback of every option that names one thing.

    >>> stripped(" hard ")
    'hard'
    """
    return value.strip() if isinstance(value, str) else value


class WholeNumber(IntRange):
    """The type of every whole-number option and argument: digits 0-9 with an optional sign
    (``int`` alone would take ``٣`` and ``1_000``), in a range said in words, in the help
    (``<number> [1 to 64]``) and in errors. ``high`` may be a function that gives the upper
    bound when it is first needed, for a limit an engine holds.

    >>> WholeNumber(1, 64).convert(" 12 ", None, None)
    12
    """

    name = "number"

    def __init__(self, low: int | None = None, high: int | Callable[[], int] | None = None):
        super().__init__(low, None)
        self._high = high

    @property
    def max(self) -> int | None:
        if callable(self._high):
            self._high = self._high()
        return self._high

    @max.setter
    def max(self, high: int | None) -> None:
        self._high = high

    def convert(self, value, param: click.Parameter | None, ctx: click.Context | None) -> int:
        text = str(value).strip()  # (a default is a number already)
        if not re.fullmatch(r"[+-]?[0-9]+", text):
            self.fail(
                f"{quoted(str(value))} is not a whole number (digits 0-9, like 12).", param, ctx
            )
        digits = text.lstrip("+-").lstrip("0")
        bound = self.min if text.startswith("-") else self.max
        if bound is not None and len(digits) > len(str(abs(bound))):
            self.fail(f"{_said(text)} is not {self._in_words(error=True)}.", param, ctx)
        if len(digits) > (longest := sys.get_int_max_str_digits() or len(digits)):
            self.fail(f"{_said(text)} is too long (at most {longest:,} digits).", param, ctx)
        number = int(text)
        if (self.min is not None and number < self.min) or (
            self.max is not None and number > self.max
        ):
            self.fail(f"{number} is not {self._in_words(error=True)}.", param, ctx)
        return number

    def _in_words(self, error: bool = False) -> str:
        """``1 to 64``, ``1 or more``, ``64 or less`` (``from 1 to 64`` in an error)."""
        low, high = self.min, self.max
        if low is None and high is None:
            return ""
        if high is None:
            return f"{low} or more"
        if low is None:
            return f"{high} or less"
        return f"from {low} to {high}" if error else f"{low} to {high}"

    def _describe_range(self) -> str:
        return self._in_words()

    def __repr__(self) -> str:
        return f"WholeNumber({self.min!r}, {self._high!r})"


def _said(digits: str) -> str:
    """A number as an error says it: of more than 30 digits, by its length.

    >>> _said("-12"), _said("9" * 5000)
    ('-12', 'a number of 5,000 digits')
    """
    size = len(digits.lstrip("+-").lstrip("0"))
    return digits if size <= 30 else f"a number of {size:,} digits"


def names_a_folder(path: str) -> bool:
    """Whether ``path``, as typed, can name only a folder: it ends in / (or /. or /..),
    which a Path would drop (``Path("out.json/")`` is ``out.json``).

    >>> names_a_folder("out.json/"), names_a_folder("out.json/."), names_a_folder("out.json")
    (True, True, False)
    """
    return os.path.basename(path) in ("", ".", "..")


class FileName(ParamType):
    """The type of every file option and argument: a path that names something (an empty
    one would be read as the folder ``.``), and no folder (``out.json/`` was written to
    ``out.json``).

    >>> FileName().convert(" out.json", None, None)
    PosixPath(' out.json')
    """

    name = "path"

    def convert(self, value, param: click.Parameter | None, ctx: click.Context | None) -> Path:
        if not str(value).strip():
            self.fail(f"{quoted(str(value))} names no file.", param, ctx)
        if isinstance(value, str) and names_a_folder(value):
            self.fail(f"{value!r} names a folder, not a file.", param, ctx)  # (whole: a path)
        return Path(value)


class Command(TyperCommand):
    """A command that refuses an option given twice, which click would read as its last
    value alone (``--hit A1 --hit B2`` would mark B2 and silently drop A1), and an on/off
    flag given twice or with its opposite; its whole numbers are ``WholeNumber``s and its
    paths ``FileName``s."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.help:  # one line a paragraph, for the help to wrap (it kept the source's lines)
            self.help = re.sub(r"(?<!\n)\n(?!\n)", " ", inspect.cleandoc(self.help))
        for param in self.params:
            if isinstance(param.type, IntParamType) and not isinstance(param.type, WholeNumber):
                bounds = getattr(param.type, "min", None), getattr(param.type, "max", None)
                param.type = WholeNumber(*bounds)
            elif isinstance(param.type, PathType):
                param.type = FileName()

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
        except NoSuchOption as exc:  # (click reads -12 as the options -1 and -2)
            for arg in args:
                if re.fullmatch(r"-[0-9]+", arg) and arg.startswith(exc.option_name):
                    ctx.fail(f"{arg} is not an option, and no number here is negative")
            raise
        given = [  # (not --help, nor an option made to be given again, as --allow-host)
            p for p in order if isinstance(p, TyperOption) and p.expose_value and not p.multiple
        ]
        for param in given:
            if (times := given.count(param)) > 1:
                names = "/".join([*param.opts, *param.secondary_opts])
                if param.is_flag and param.secondary_opts:
                    ctx.fail(f"{names} is given {times} times; give one of them once")
                if param.is_flag:
                    ctx.fail(f"{names} is given {times} times; give it once")
                ctx.fail(f"{names} is given {times} times; give it once, with all its values")
        return super().parse_args(ctx, args)


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
    if os.path.exists(target) and not os.path.isfile(target):  # (a device, a pipe, a socket)
        leads = f" (a symbolic link to {target})" if os.path.islink(path) else ""
        return f"{path}{leads} is not a regular file"
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            return f"{named.parent} is not a folder"
        if os.path.lexists(folder):  # (a link that leads nowhere, or round in a loop)
            return f"the folder {named.parent} is a symbolic link that leads to no folder"
        return f"the folder {named.parent} does not exist"
    if os.path.islink(target):
        return f"{path} is a symbolic link that leads back to itself"
    size = len(os.fsencode(target.name))
    if size > (longest := os.pathconf(folder, "PC_NAME_MAX")):
        return f"the file name {named.name[:20]}… is too long ({size} bytes, at most {longest})"
    if len(os.fsencode(target)) >= (longest := os.pathconf(folder, "PC_PATH_MAX")):
        return f"the path {str(target)[:20]}… is too long (at most {longest - 1} bytes)"
    if os.statvfs(folder).f_flag & os.ST_RDONLY:
        return f"{path} cannot be written: {folder} is on a read-only file system"
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


def speaks_unicode(stream) -> bool:
    """Whether ``stream`` writes every character: its encoding is one of Unicode's.

    >>> import io
    >>> speaks_unicode(io.TextIOWrapper(io.BytesIO(), "ascii"))
    False
    """
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return codecs.lookup(encoding).name.startswith("utf")


def print_json(value: dict) -> None:
    # In pieces: one large write that the disk or pipe takes only in part returned as if
    # whole, so a cut output ended with status 0. A lone surrogate (from a file's JSON) has
    # no UTF-8: it is written as JSON's escape.
    def write(text: str) -> None:
        sys.stdout.write(LONE_SURROGATE.sub(lambda found: f"\\u{ord(found[0]):04x}", text))

    pieces, size = [], 0
    ascii_only = not speaks_unicode(sys.stdout)  # (then every other character is escaped)
    for piece in json.JSONEncoder(indent=2, ensure_ascii=ascii_only).iterencode(value):
        pieces.append(piece)
        size += len(piece)
        if size >= JSON_WRITE:  # (a megabyte a write, not a write a token)
            write("".join(pieces))
            pieces, size = [], 0
    write("".join(pieces) + "\n")


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
