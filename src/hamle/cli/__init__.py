"""The ``hamle`` command line: one sub-app per game."""

import typer

from .battleship import app as battleship_app

app = typer.Typer(
    name="hamle",
    help="Computer players and hint engines for Battleship, Mastermind and the Yüz Yüze tour.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(battleship_app, name="battleship")


def main() -> None:
    app()
