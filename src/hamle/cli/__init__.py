"""The ``hamle`` command line: one sub-app per game, imported only when it runs."""

from __future__ import annotations

import codecs
import importlib
import os
import re
import sys
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

from hamle.start import ctrl_c_pressed, say_interrupted

from .common import Command, shortened, speaks_unicode
from .serve import serve

if TYPE_CHECKING:
    from collections.abc import Mapping

    import click

WIDEST = 1000  # columns of output at most, whatever COLUMNS says
NARROWEST = 20  # a COLUMNS below it is not taken

# The games' sub-apps (modules of this package) and their one-line help.
GAMES = {
    "battleship": "Battleship: fleets, computer shooters, simulations.",
    "mastermind": "Mastermind: scoring, strategies, a solver for people.",
    "tour": "Yüz Yüze: the 100-cell number tour and its hint engine.",
}


class Root(TyperGroup):
    """The root command: a usage error anywhere (a missing or unknown option, a value of
    the wrong type) is one ``error:`` line on stderr and exit status 2, not a help box."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if any("\x00" in str(arg) for arg in (sys.argv[1:] if args is None else args)):
            sys.stderr.write("error: an argument holds a NUL byte, which no name or value may\n")
            sys.exit(2)
        set_up_streams()
        if problem := environment_problem(os.environ):
            sys.stderr.write(f"error: {problem}\n")
            sys.exit(2)
        columns = os.environ.get("COLUMNS", "")
        if columns.isdecimal() and int(columns) > WIDEST:  # (the help is padded to it)
            os.environ["COLUMNS"] = str(WIDEST)
        elif columns.isdecimal() and int(columns) < NARROWEST:  # (nothing would be printed)
            del os.environ["COLUMNS"]  # (the terminal says its width)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as exc:  # click's errors, as typer carries them
            if not standalone_mode:
                raise
            if message := exc.format_message():  # (none with the help shown for no command)
                sys.stderr.write(f"error: {shortened(plain(message))}\n")
            sys.exit(2)
        except typer.Abort:
            if not standalone_mode:
                raise
            sys.stderr.write("\nstopped\n")
            sys.exit(1)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context):
        """Run the command; an interrupt (Ctrl-C) says so and exits with status 130."""
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, SystemError, RuntimeError) as exc:
            # (numba, compiling when Ctrl-C comes, may raise an error that names none)
            plain = isinstance(exc, typer.Exit | typer.Abort)
            if plain or not (interrupted(exc) or ctrl_c_pressed()):
                raise
            raise typer.Exit(say_interrupted()) from None


# What an output that is not Unicode (ASCII, Latin-1) writes for the symbols hamle prints
# that it lacks (and for the letters, on the standard output only: an error's file name is
# written as it is, escaped).
PLAIN = {"×": "x", "…": "...", "·": ".", "±": "+/-", "→": "->", "–": "-", "—": "-", "−": "-"}
PLAIN |= {"≤": "<=", "≥": ">=", "²": "^2", "∞": "inf"}
PLAIN_LETTERS = PLAIN | {"ü": "u", "ı": "i", "İ": "I"}


def written_plainly(plain: dict[str, str], otherwise: str):
    r"""A codec error handler writing each character an output lacks as ``plain`` says, or
    by the handler named ``otherwise``.

    >>> "10×10 ± 0.5 ç ı".encode("ascii", errors="hamle.plain")
    b'10x10 +/- 0.5 ? i'
    >>> "× ı".encode("ascii", errors="hamle.plain-escaped")
    b'x \\u0131'
    """
    fallback = codecs.lookup_error(otherwise)

    def handle(error: UnicodeError) -> tuple[str, int]:
        if not isinstance(error, UnicodeEncodeError):
            raise error
        written = []
        for at in range(error.start, error.end):
            character = error.object[at]
            if character in plain:
                written.append(plain[character])
            else:
                lacking = UnicodeEncodeError(error.encoding, error.object, at, at + 1, error.reason)
                written.append(fallback(lacking)[0])
        return "".join(written), error.end

    return handle


codecs.register_error("hamle.plain", written_plainly(PLAIN_LETTERS, "replace"))
codecs.register_error("hamle.plain-escaped", written_plainly(PLAIN, "backslashreplace"))


def set_up_streams() -> None:
    """Streams every command can rely on: an output that is not Unicode writes × as x and
    the like (``PLAIN``); input not in the terminal's encoding (a Turkish ı from a legacy
    terminal) is read as \ufffd, not an error that ends a game; and output left non-blocking
    by the parent blocks, since a write the pipe takes only in part would be lost unsaid."""
    for stream, errors in ((sys.stdout, "hamle.plain"), (sys.stderr, "hamle.plain-escaped")):
        if not speaks_unicode(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=errors)
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    for fd in (1, 2):
        try:
            if not os.get_blocking(fd):  # (left so for good: a process beside it may count on it)
                os.set_blocking(fd, True)
        except OSError:  # (closed: writing says so)
            pass


def environment_problem(environ: Mapping[str, str]) -> str | None:
    """What is wrong with the environment for hamle, if anything: a thread count numba
    would refuse with a traceback.

    >>> environment_problem({"NUMBA_NUM_THREADS": "0"})
    "NUMBA_NUM_THREADS must be 1 or more, not '0'"
    """
    threads = environ.get("NUMBA_NUM_THREADS", "")
    try:
        refused = int(threads) < 1  # (as numba reads it)
    except ValueError:  # (numba ignores it)
        refused = False
    return (
        f"NUMBA_NUM_THREADS must be 1 or more, not {shortened(repr(threads.strip()))}"
        if refused
        else None
    )


def interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is an interrupt, or an error raised because of one: numba reports
    Ctrl-C during its first load of a kernel as a SystemError caused by it.

    >>> interrupted(SystemError("returned a result with an exception set"))
    False
    """
    while exc is not None:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def plain(message: str) -> str:
    """A usage error's message with click's type names and ranges said in words.

    >>> plain("Invalid value for '--games': 'abc' is not a valid int range.")
    "Invalid value for '--games': 'abc' is not a whole number."
    >>> plain("Invalid value for '--games': 0 is not in the range 1<=x<=1000000.")
    "Invalid value for '--games': 0 is not from 1 to 1000000."
    """
    message = re.sub(r"is not a valid int(eger)?( range)?\.", "is not a whole number.", message)
    message = re.sub(r"is not a valid float( range)?\.", "is not a number.", message)
    ranges = {
        r"(\S+)<=x<=(\S+)": r"from \1 to \2",
        r"x>=(\S+)": r"\1 or more",
        r"x<=(\S+)": r"\1 or less",
        r"x>(\S+)": r"above \1",
        r"x<(\S+)": r"below \1",
    }
    for bound, words in ranges.items():
        message = re.sub(rf"is not in the range {bound}\.$", rf"is not {words}.", message)
    return message


class Game(TyperGroup):
    """A game in the root's help: a name and a help line. Only when it runs is the module
    of that name imported, and its sub-app takes over the command line."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra
    ) -> click.Context:
        module = importlib.import_module(f"{__name__}.{self.name}")
        group = typer.main.get_group(module.app)
        group.help = self.help
        return group.make_context(info_name, args, parent=parent, **extra)


app = typer.Typer(
    cls=Root,
    name="hamle",
    help="Computer players and hint engines for Battleship, Mastermind and the Yüz Yüze tour.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(shown: bool) -> None:
    if shown:
        from hamle import __version__

        sys.stdout.write(f"hamle {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def root(
    version: bool = typer.Option(
        False,
        "--version",
        help="Print hamle's version and exit.",
        is_eager=True,
        callback=_show_version,
    ),
) -> None:
    """Computer players and hint engines for Battleship, Mastermind and the Yüz Yüze tour."""


app.command(cls=Command)(serve)
for name, line in GAMES.items():
    app.add_typer(typer.Typer(cls=Game), name=name, help=line)


def main() -> None:
    app()
