"""The daily puzzle (its start cell changes at midnight in Turkey) and the combo tracker.

>>> puzzle = daily_puzzle("2026-12-01")
>>> puzzle.seed, puzzle.start, puzzle.start_name
(20261201, 28, 'I3')
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from hamle.rng import Mulberry32

from .board import GRID, Position
from .errors import DateError
from .hint import hint

TURKEY = ZoneInfo("Europe/Istanbul")


@dataclass(frozen=True)
class DailyPuzzle:
    """The puzzle of one date: seed YYYYMMDD and start cell floor(mulberry32(seed)() · 100)."""

    date: dt.date
    seed: int
    start: int

    @property
    def start_name(self) -> str:
        return GRID.name(self.start)

    def as_dict(self) -> dict:
        return {
            "date": self.date.isoformat(),
            "seed": self.seed,
            "start": self.start,
            "start_name": self.start_name,
        }


def today_in_turkey(now: dt.datetime | None = None) -> dt.date:
    """The calendar date in Turkey at ``now`` (default: this moment).

    >>> today_in_turkey(dt.datetime(2026, 12, 1, 21, 30, tzinfo=dt.UTC)).isoformat()
    '2026-12-02'
    """
    moment = now or dt.datetime.now(dt.UTC)
    if moment.tzinfo is None:
        raise DateError("a moment without a time zone is ambiguous; give one in UTC")
    return moment.astimezone(TURKEY).date()


def daily_puzzle(date: str | dt.date | None = None) -> DailyPuzzle:
    """The puzzle of ``date`` (YYYY-MM-DD, a date, or a moment, whose date in Turkey
    counts; default: today in Turkey)."""
    if date is None:
        day = today_in_turkey()
    elif isinstance(date, dt.datetime):
        day = today_in_turkey(date)
    elif isinstance(date, dt.date):
        day = date
    else:
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text := str(date).strip(), re.ASCII):
                raise ValueError(text)  # fromisoformat also reads 20261201 and 2026-W49-2
            day = dt.date.fromisoformat(text)
        except ValueError:
            raise DateError(
                "{date!r} is not a date; write YYYY-MM-DD, like 2026-12-01",
                code="tour.not_a_date",
                date=str(date),
            ) from None
    seed = day.year * 10000 + day.month * 100 + day.day
    start = int(Mulberry32(seed).random() * 100)
    return DailyPuzzle(day, seed, start)


@dataclass(frozen=True)
class Combo:
    """Moves in a row that matched the quick hint, and the best such run of the game."""

    current: int = 0
    best: int = 0

    def after(self, before: Position, move: int) -> Combo:
        """The combo once ``move`` is played from ``before``.

        >>> p = Position.from_moves("A1", ["D1", "D4"])
        >>> Combo().after(p, hint(p, "quick").move)
        Combo(current=1, best=1)
        """
        if hint(before, "quick").move == move:
            run = self.current + 1
            return Combo(run, max(run, self.best))
        return Combo(0, self.best)
