"""The ``hamle`` command's entry point: the command line is imported inside it, so that
Ctrl-C while typer and the rest load says ``interrupted`` as it does once a command runs,
not a traceback. (Only the interpreter's own start, before any of hamle, is left.)"""

import sys

INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C: 128 + SIGINT


def say_interrupted() -> int:
    """Say on stderr that Ctrl-C stopped the command; the exit status that says so.

    >>> say_interrupted()
    130
    """
    sys.stderr.write("\ninterrupted\n")
    return INTERRUPTED


def main() -> None:
    """Run the ``hamle`` command line (``hamle.cli``), whose commands handle Ctrl-C
    themselves once they run; before that, here."""
    try:
        from hamle.cli import main as command_line

        command_line()
    except KeyboardInterrupt:
        sys.exit(say_interrupted())
