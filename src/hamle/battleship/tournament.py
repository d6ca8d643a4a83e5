"""Tournaments: every shooter against every placer on the same numbered games.

Game g of a pair draws its fleet from the placer with stream 0 of g and the shooter's
choices from stream 1, so a pair's games are the same whoever runs them and however
they are split. Each shooter's row also gives, per placer, the paired difference of its
shots against ``uniform`` game by game (same game numbers, same shooter stream).

>>> table = tournament(Rules.classic(), ["parity"], ["uniform", "edges"], games=4)
>>> from hamle.battleship import simulate
>>> alone = simulate(Rules.classic(), "parity", 4, placer="edges").results[0]
>>> table.cell("parity", "edges").shots == alone.shots
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hamle.cluster import Cluster
from hamle.fingerprint import fingerprint
from hamle.grid import quoted
from hamle.stats import paired, plus_minus, summarize

from .errors import BattleshipError
from .placers import Placer, as_placer
from .rules import Rules, as_rules
from .simulate import checked_run, listed, play_pairings, unique, whole_number
from .strategies import Shooter, as_shooter


@dataclass(frozen=True)
class Pairing:
    """The shots of one shooter against one placer's fleets, game by game."""

    shooter: str
    placer: str
    first: int
    shots: tuple[int, ...]

    @property
    def games(self) -> int:
        return len(self.shots)

    def row(self) -> dict:
        summary = summarize(self.shots)
        return {
            "mean": summary.mean,
            "stderr": summary.stderr,
            "median": summary.median,
            "best": summary.best,
            "worst": summary.worst,
        }


@dataclass(frozen=True)
class TournamentTable:
    """Every pairing of ``shooters`` × ``placers`` on games first .. first + games - 1."""

    rules: Rules
    shooters: tuple[str, ...]
    placers: tuple[str, ...]
    first: int
    pairings: tuple[Pairing, ...]
    placer_weights: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()  # mixtures'

    def cell(self, shooter: str, placer: str) -> Pairing:
        for pairing in self.pairings:
            if (pairing.shooter, pairing.placer) == (shooter, placer):
                return pairing
        raise BattleshipError(f"no pairing of {quoted(shooter)} with {quoted(placer)} was played")

    def against_uniform(self, shooter: str, placer: str) -> dict | None:
        """Mean and standard error of (shots against ``placer``) − (shots against
        ``uniform``) over the same game numbers, and their ratio z; None without a uniform
        column. Over one game the standard error and z are unknown: None; so is z where
        every game differs alike (no spread, but a difference: no finite z says it).

        >>> table = tournament(Rules.classic(), ["density"], ["uniform", "edges"], games=1)
        >>> versus = table.against_uniform("density", "edges")
        >>> versus["stderr"], versus["z"]
        (None, None)
        """
        if "uniform" not in self.placers:
            return None
        return paired(self.cell(shooter, placer).shots, self.cell(shooter, "uniform").shots)

    def as_dict(self) -> dict:
        games = self.pairings[0].games
        return {
            "hamle": fingerprint(),
            "rules": self.rules.describe(),
            "first": self.first,
            "games": games,
            "shooters": list(self.shooters),
            "placers": list(self.placers),
            "placer_weights": {name: dict(parts) for name, parts in self.placer_weights},
            "matrix": {
                shooter: {
                    placer: self.cell(shooter, placer).row()
                    | ({"versus_uniform": self.against_uniform(shooter, placer)})
                    for placer in self.placers
                }
                for shooter in self.shooters
            },
        }

    def text(self, ascii_only: bool = False) -> str:
        """The matrix of mean shots (± standard error, unknown over one game) as an
        aligned table; ``ascii_only`` writes ± as +/-, for an output without it (the
        columns are as wide as what is written, so an output that replaced ± itself would
        shift them).

        >>> table = tournament(Rules.classic(), ["parity"], ["uniform"], games=2)
        >>> table.text(ascii_only=True).splitlines()[1]
        'parity            36.50 +/- 5.50'
        """
        head = ["shooter \\ placer", *self.placers]
        lines = [head]
        for shooter in self.shooters:
            line = [shooter]
            for placer in self.placers:
                row = self.cell(shooter, placer).row()
                spread = plus_minus(row["stderr"])
                spread = spread.replace("±", "+/-") if ascii_only else spread
                line.append(f"{row['mean']:.2f}{spread}")
            lines.append(line)
        widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
        return "\n".join(
            "  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True))
            for line in lines
        )

    def chart(self, path: str | Path) -> Path:
        """A heat map at ``path`` (.png, .svg or .pdf), written whole or not at all: each
        pairing's mean shots, coloured by how many shots the placer adds to the shooter's
        mean against its first placer (``uniform`` when listed first). Returns the path.

        >>> tournament(Rules.classic(), ["random"], ["uniform"], games=1).chart("m.jpg")
        Traceback (most recent call last):
        hamle.battleship.errors.BattleshipError: a chart is a .png, .svg or .pdf file, not 'm.jpg'
        """
        from .analysis import chart_file, pyplot, save_chart

        path = chart_file(path)
        plt = pyplot()
        means = [[self.cell(s, p).row()["mean"] for p in self.placers] for s in self.shooters]
        added = [[mean - row[0] for mean in row] for row in means]
        reach = max(max(abs(x) for row in added for x in row), 1.0)
        figure, axes = plt.subplots(
            figsize=(2.2 + 1.4 * len(self.placers), 1.4 + 0.6 * len(self.shooters))
        )
        image = axes.imshow(added, cmap="RdBu_r", vmin=-reach, vmax=reach, aspect="auto")
        axes.set_xticks(range(len(self.placers)), self.placers, rotation=30, ha="right")
        axes.set_yticks(range(len(self.shooters)), self.shooters)
        for i, row in enumerate(means):
            for j, mean in enumerate(row):
                strong = abs(added[i][j]) > 0.6 * reach
                axes.text(
                    j,
                    i,
                    f"{mean:.1f}",
                    ha="center",
                    va="center",
                    color="white" if strong else "black",
                )
        last = self.first + self.pairings[0].games - 1
        axes.set_title(f"Mean shots, games {self.first}..{last}\n{self.rules.describe()}")
        figure.colorbar(image, ax=axes, label=f"shots added against {self.placers[0]}")
        figure.tight_layout()
        save_chart(figure, path, bbox_inches="tight")  # (a title wider than two columns)
        return path


def tournament(
    rules: Rules,
    shooters: Sequence[str | Shooter],
    placers: Sequence[str | Placer],
    games: int = 1000,
    first: int = 1,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | Cluster | None = None,
) -> TournamentTable:
    """Play games ``first .. first + games - 1`` for every shooter × placer pair in
    ``jobs`` processes, or on the Dask cluster whose scheduler is at ``cluster`` (``jobs``
    then left at 1); ``progress(done, total)`` is called as games finish."""
    as_rules(rules)
    games, first, jobs = checked_run(games, first, jobs, progress, cluster)
    chosen = unique([as_placer(p).settled(rules) for p in listed(placers, "placer")], "placer")
    named = unique([as_shooter(s) for s in listed(shooters, "shooter")], "shooter")
    pairs = [(shooter, placer) for placer in chosen for shooter in named]
    played = play_pairings(rules, pairs, games, first, jobs, progress, cluster)
    pairings = tuple(
        Pairing(shooter.name, placer.name, first, tuple(row[0] for row in rows))
        for (shooter, placer), rows in zip(pairs, played, strict=True)
    )
    return TournamentTable(
        rules,
        tuple(s.name for s in named),
        tuple(p.name for p in chosen),
        first,
        pairings,
        tuple((p.name, p.parts) for p in chosen if p.parts),
    )


def best_mixture(table: TournamentTable, rounds: int = 20_000) -> dict[str, float]:
    """Weights over ``table``'s placers (a fleet drawn from placer i with weight w[i])
    that make the mean shots of the best shooter against the mixture highest: the
    placer's side of the zero-sum game on the matrix of means, by multiplicative weights.

    >>> means = {("a", "p"): 50.0, ("a", "q"): 40.0, ("b", "p"): 40.0, ("b", "q"): 50.0}
    >>> pairings = tuple(Pairing(s, p, 1, (int(m),)) for (s, p), m in means.items())
    >>> best_mixture(TournamentTable(Rules.classic(), ("a", "b"), ("p", "q"), 1, pairings))
    {'p': 0.5, 'q': 0.5}
    """
    if not isinstance(table, TournamentTable):
        raise BattleshipError(
            f"best_mixture weighs a TournamentTable (from tournament), not {quoted(table)}"
        )
    if not whole_number(rounds):
        raise BattleshipError(f"rounds is a whole number of at least 1, not {quoted(rounds)}")
    means = np.array(
        [[table.cell(s, p).row()["mean"] for s in table.shooters] for p in table.placers]
    )
    scale = max(float(means.max() - means.min()), 1e-9)
    rate = math.sqrt(8 * math.log(max(len(table.placers), 2)) / rounds)
    gains, average = np.zeros(len(table.placers)), np.zeros(len(table.placers))
    for _ in range(rounds):
        weights = np.exp(rate * (gains - gains.max()))
        weights /= weights.sum()
        average += weights
        gains += means[:, int(np.argmin(weights @ means))] / scale  # the best reply
    average /= rounds
    return {p: round(float(w), 2) for p, w in zip(table.placers, average, strict=True)}
