"""The ``hamle`` command line: one sub-app per game, imported only when it runs."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

import typer
from typer.core import TyperGroup

from .serve import serve

if TYPE_CHECKING:
    import click

# The games' sub-apps (modules of this package) and their one-line help.
GAMES = {
    "battleship": "Battleship: fleets, computer shooters, simulations.",
    "mastermind": "Mastermind: scoring, strategies, a solver for people.",
    "tour": "Yüz Yüze: the 100-cell number tour and its hint engine.",
}


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
    name="hamle",
    help="Computer players and hint engines for Battleship, Mastermind and the Yüz Yüze tour.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command()(serve)
for name, line in GAMES.items():
    app.add_typer(typer.Typer(cls=Game), name=name, help=line)


def main() -> None:
    app()
