"""The ``hamle`` command's entry point: the command line is imported inside it, so that
Ctrl-C while typer and the rest load says ``interrupted`` as it does once a command runs,
not a traceback. (Only the interpreter's own start, before any of hamle, is left.) Output
that cannot be written (a full disk, a closed standard output) is one ``error:`` line too."""

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


def main() -> None:
    """Run the ``hamle`` command line (``hamle.cli``), whose commands handle Ctrl-C
    themselves once they run; before that, here."""
    if sys.stdout is None:  # started with it closed: a file opened next would take its place
        sys.stderr.write("error: cannot write the output: standard output is closed\n")
        sys.exit(UNWRITTEN)
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
        # what is left in the buffer goes nowhere, so the exit does not fail to write it too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.stderr.write(f"error: cannot write the output: {exc}\n")
        sys.exit(UNWRITTEN)
