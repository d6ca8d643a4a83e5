"""The ``hamle`` command's entry point: the command line is imported inside it, so that
Ctrl-C while typer and the rest load says ``interrupted`` as it does once a command runs,
not a traceback. (Only the interpreter's own start, before any of hamle, is left.) Output
that cannot be written (a full disk, a closed standard output) is one ``error:`` line too,
and an error that cannot be written to stderr ends the command with its status all the same."""

import contextlib
import os
import signal
import sys

INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C: 128 + SIGINT
UNWRITTEN = 2  # the exit status when the output cannot be written, as for other errors


_pressed = []  # Ctrl-C seen (from the handler ``main`` sets)


def _ctrl_c(signum, frame) -> None:
    """Python's own SIGINT handler, which also notes that Ctrl-C came."""
    _pressed.append(True)
    raise KeyboardInterrupt


def ctrl_c_pressed() -> bool:
    """Whether Ctrl-C came while the command ran: numba, compiling a kernel when it comes,
    may turn the interrupt into an error of its own (a RuntimeError) that names none.

    >>> ctrl_c_pressed()
    False
    """
    return bool(_pressed)


def say_interrupted() -> int:
    """Say on stderr that Ctrl-C stopped the command; the exit status that says so.

    >>> say_interrupted()
    130
    """
    sys.stderr.write("\ninterrupted\n")
    return INTERRUPTED


class OutputError(Exception):
    """Standard output could not be written (not an OSError: a command's own are its)."""


class Output:
    """Standard output whose write errors are OutputError; a reader gone away (a broken
    pipe, as with ``| head``) is left to end the command quietly, as it does.

    >>> import io
    >>> Output(io.StringIO()).write("E5")
    2
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return _written(self._stream.write, text)

    def flush(self) -> None:
        _written(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _written(call, *args):
    """``call(*args)``, its OSError (but a broken pipe) raised as OutputError."""
    try:
        return call(*args)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.strerror or str(exc)) from None


class Unsaid:
    """Standard error whose write errors are dropped (a full disk, a reader gone away):
    an error that cannot be said still ends the command with the status that says it.

    >>> import io
    >>> Unsaid(io.StringIO()).write("E5")
    2
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        with contextlib.suppress(OSError):
            self._stream.write(text)
        return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def to_nowhere(fd: int) -> None:
    """Send what is written to ``fd`` to /dev/null: output that cannot be written (what is
    left in its buffer too), or a standard stream the command started with closed, whose
    number the next file opened (a chart, the database) would otherwise take."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    if nowhere != fd:
        os.dup2(nowhere, fd)
        os.close(nowhere)


def main() -> None:
    """Run the ``hamle`` command line (``hamle.cli``), whose commands handle Ctrl-C
    themselves once they run; before that, here."""
    if sys.stderr is None:  # started with it closed
        to_nowhere(2)
        sys.stderr = open(2, "w", errors="backslashreplace", closefd=False)  # noqa: SIM115
    sys.stderr = Unsaid(sys.stderr)
    if sys.stdout is None:  # started with it closed: refused before any work, but by serve
        serving = sys.argv[1:2] == ["serve"] and "--help" not in sys.argv
        if not serving:  # (the site is served all the same, unannounced; its help is output)
            sys.stderr.write("error: cannot write the output: standard output is closed\n")
            sys.exit(UNWRITTEN)
        to_nowhere(1)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
    sys.stdout = Output(sys.stdout)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not where ignored)
        signal.signal(signal.SIGINT, _ctrl_c)
    try:
        try:
            from hamle.cli import main as command_line

            command_line()
        finally:
            sys.stdout.flush()
    except KeyboardInterrupt:
        sys.exit(say_interrupted())
    except OutputError as exc:
        to_nowhere(sys.stdout.fileno())  # (so the exit does not fail to write the rest too)
        sys.stderr.write(f"error: cannot write the output: {exc}\n")
        sys.exit(UNWRITTEN)
