"""Exact random-shot law and the chart of the simulation table (spec § 4).

>>> law = RandomLaw(100, 17)
>>> round(float(law.mean), 2), law.median, round(float(law.cdf(85)), 3)
(95.39, 97, 0.048)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path

from hamle.files import written_whole
from hamle.grid import MAX_SIDE, is_whole, quoted

from .errors import BattleshipError


@dataclass(frozen=True)
class RandomLaw:
    """Shots T a random shooter needs on ``cells`` cells holding ``ship_cells`` ship cells:
    the last of the ship cells in a random order of all cells. ``cells`` is a board's (1
    to 676), ``ship_cells`` from 1 to ``cells``.

    >>> RandomLaw(100, 101)
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: ship_cells must be from 1 to cells (100), not 101
    """

    cells: int
    ship_cells: int

    def __post_init__(self) -> None:
        most = MAX_SIDE * MAX_SIDE
        if not is_whole(self.cells) or not 1 <= self.cells <= most:
            raise BattleshipError(
                f"cells must be a whole number from 1 to {most} (a board's), "
                f"not {quoted(self.cells)}"
            )
        if not is_whole(self.ship_cells) or not 1 <= self.ship_cells <= self.cells:
            raise BattleshipError(
                f"ship_cells must be from 1 to cells ({self.cells}), not {quoted(self.ship_cells)}"
            )
        object.__setattr__(self, "cells", int(self.cells))
        object.__setattr__(self, "ship_cells", int(self.ship_cells))

    @property
    def mean(self) -> Fraction:
        """E[T] = N − (N − S)/(S + 1)."""
        n, s = self.cells, self.ship_cells
        return n - Fraction(n - s, s + 1)

    def cdf(self, t: int) -> Fraction:
        """P(T ≤ t) = C(t, S) / C(N, S)."""
        if not is_whole(t):
            raise BattleshipError(f"t is a whole number of shots, not {quoted(t)}")
        t = min(max(int(t), 0), self.cells)
        return Fraction(comb(t, self.ship_cells), comb(self.cells, self.ship_cells))

    def quantile(self, q: Fraction | float) -> int:
        """The smallest t with P(T ≤ t) ≥ q.

        >>> RandomLaw(100, 17).quantile(1.5)
        Traceback (most recent call last):
        hamle.battleship.errors.BattleshipError: q is a fraction from 0 to 1, not 1.5
        """
        if isinstance(q, bool) or not isinstance(q, Fraction | float | int) or not 0 <= q <= 1:
            raise BattleshipError(f"q is a fraction from 0 to 1, not {quoted(q)}")
        q = Fraction(q).limit_denominator(10**6) if isinstance(q, float) else q
        return next(t for t in range(self.ship_cells, self.cells + 1) if self.cdf(t) >= q)

    @property
    def median(self) -> int:
        return self.quantile(Fraction(1, 2))

    @property
    def stdev(self) -> float:
        """Standard deviation of T."""
        s = self.ship_cells
        second = sum(t * t * (self.cdf(t) - self.cdf(t - 1)) for t in range(s, self.cells + 1))
        return float(second - self.mean**2) ** 0.5

    def row(self, within: int) -> dict:
        return {
            "strategy": "random (exact)",
            "mean": float(self.mean),
            "median": self.median,
            "p10": self.quantile(Fraction(1, 10)),
            "p90": self.quantile(Fraction(9, 10)),
            "best": self.ship_cells,
            "worst": self.cells,
            "stdev": self.stdev,
            "within": float(self.cdf(within)),
        }


CHART_SUFFIXES = (".png", ".svg", ".pdf")


def chart_file(path: str | os.PathLike) -> Path:
    """``path`` as a Path if it names a chart file (.png, .svg or .pdf: the suffix
    decides the format), else BattleshipError.

    >>> chart_file("shots.jpg")
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: a chart is a .png, .svg or .pdf file, not 'shots.jpg'
    """
    if not isinstance(path, str | os.PathLike):
        raise BattleshipError(f"a chart's path is a file name (like shots.png), not {path!r}")
    path = Path(path)
    if path.suffix.lower() not in CHART_SUFFIXES:
        raise BattleshipError(f"a chart is a .png, .svg or .pdf file, not {path.name!r}")
    return path


def pyplot():
    """matplotlib's pyplot, drawing to files (Agg); BattleshipError if matplotlib cannot
    start (an unknown ``MPLBACKEND``, say)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except (ImportError, ValueError) as exc:
        raise BattleshipError(f"matplotlib cannot draw the chart: {exc}") from None
    return plt


def save_chart(figure, path: Path, **options) -> None:
    """Save the matplotlib ``figure`` to ``path`` (a ``chart_file``) whole or not at all,
    then close it: it is saved to a file with a short name beside ``path``, then renamed
    over it (a symbolic link stays, and its target gets the chart). Raises OSError."""
    import matplotlib.pyplot as plt

    kind = path.suffix[1:].lower()
    try:
        with written_whole(path) as spare, plt.rc_context({"svg.hashsalt": "hamle"}):
            # (no date, and ids from a fixed salt: the same chart is the same file)
            dated = {"svg": "Date", "pdf": "CreationDate"}
            plain = {"metadata": {dated[kind]: None}} if kind in dated else {}
            figure.savefig(spare, format=kind, **plain, **options)
    finally:
        plt.close(figure)


def chart(table, path: str | Path) -> Path:
    """Write the chart of P(game over within t shots) per strategy, with the exact random
    curve dotted, to ``path`` (PNG, SVG or PDF by its suffix); returns the path.

    >>> chart(None, "shots.png")
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: chart takes the table simulate() gives, not None
    """
    from .simulate import SimulationTable  # (simulate imports this module)

    if not isinstance(table, SimulationTable) or not table.results:
        shown = repr(table) if len(repr(table)) <= 60 else f"{repr(table)[:60]}…"
        raise BattleshipError(f"chart takes the table simulate() gives, not {shown}")
    path = chart_file(path)
    plt = pyplot()
    rules = table.rules
    t = list(range(rules.cells + 1))
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    for result in table.results:
        games = len(result.shots)
        ordered = sorted(result.shots)
        share, i = [], 0
        for x in t:
            while i < games and ordered[i] <= x:
                i += 1
            share.append(i / games)
        ax.step(
            t, share, where="post", label=f"{result.strategy} (mean {sum(ordered) / games:.1f})"
        )
    law = table.law
    ax.plot(t, [float(law.cdf(x)) for x in t], ":", color="black", label="random, exact law")
    ax.set_xlabel("shots t")
    ax.set_ylabel("P(game over within t shots)")
    last = table.first + len(table.results[0].shots) - 1
    hidden = f", fleets hidden by {table.placer}" if table.placer != "uniform" else ""
    ax.set_title(f"Games {table.first}..{last}, {rules.describe()}{hidden}")
    ax.set_xlim(rules.ship_cells, max(rules.cells, rules.ship_cells + 1))  # (a full board)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    save_chart(fig, path, bbox_inches="tight")
    return path
