"""The ``hamle`` command line: one sub-app per game."""

import typer

from .battleship import app as battleship_app
from .mastermind import app as mastermind_app
from .serve import serve
from .tour import app as tour_app

app = typer.Typer(
    name="hamle",
    help="Computer players and hint engines for Battleship, Mastermind and the Yüz Yüze tour.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(battleship_app, name="battleship")
app.add_typer(mastermind_app, name="mastermind")
app.add_typer(tour_app, name="tour")
app.command()(serve)


def main() -> None:
    app()
