"""A game's result and its line to share, one text for the site and the command line.

>>> result = Result(start="I3", score=57, hints=2, best_combo=4, undos=1, date="2026-12-01")
>>> print(result)
Yüz Yüze 2026-12-01 · 57/100 · 2 hints · best combo 4 · 1 undo
>>> Result(start="A1", score=8, hints=1, best_combo=0).share()["tr"]
'Yüz Yüze serbest oyun A1 · 8/100 · 1 ipucu · en iyi kombo 0'
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from hamle.grid import is_whole

from .board import CELLS, GRID, cell_index
from .daily import daily_puzzle
from .errors import TourError


@dataclass(frozen=True)
class Result:
    """Where a game started (and the daily puzzle's date, or None in free play), the cells
    it filled, the hints used (one per position hinted), the best combo and the undos."""

    start: int
    score: int
    hints: int = 0
    best_combo: int = 0
    undos: int = 0
    date: dt.date | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", cell_index(self.start))
        for field in ("score", "hints", "best_combo", "undos"):
            value = getattr(self, field)
            if not is_whole(value) or value < 0:
                raise TourError(f"{field} is a whole number 0 or more, not {value!r}")
            object.__setattr__(self, field, int(value))  # a NumPy integer as a plain int
        if not 1 <= self.score <= CELLS:
            raise TourError(f"a score counts filled cells: 1 to {CELLS}, not {self.score}")
        if self.best_combo >= self.score:
            raise TourError(
                f"a combo counts moves: {self.score} cells filled make at most "
                f"{self.score - 1}, not {self.best_combo}"
            )
        if self.date is not None:
            puzzle = daily_puzzle(self.date)
            if puzzle.start != self.start:
                raise TourError(
                    f"the daily puzzle of {puzzle.date} starts at {puzzle.start_name}, "
                    f"not {GRID.name(self.start)}"
                )
            object.__setattr__(self, "date", puzzle.date)

    def share(self) -> dict[str, str]:
        """The line to share, by language (``en``, ``tr``): the puzzle (its date, or free
        play and its start), then the score, the hints, the best combo and any undos."""
        start = GRID.name(self.start)
        daily = None if self.date is None else f"Yüz Yüze {self.date.isoformat()}"
        english = [
            daily or f"Yüz Yüze free play {start}",
            f"{self.score}/{CELLS}",
            _counted(self.hints, "hint", "hints"),
            f"best combo {self.best_combo}",
        ]
        turkish = [
            daily or f"Yüz Yüze serbest oyun {start}",
            f"{self.score}/{CELLS}",
            f"{self.hints} ipucu",
            f"en iyi kombo {self.best_combo}",
        ]
        if self.undos:
            english.append(_counted(self.undos, "undo", "undos"))
            turkish.append(f"{self.undos} geri alma")
        return {"en": " · ".join(english), "tr": " · ".join(turkish)}

    def __str__(self) -> str:
        return self.share()["en"]


def _counted(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"
