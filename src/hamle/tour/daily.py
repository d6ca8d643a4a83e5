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

from hamle.grid import is_whole
from hamle.rng import Mulberry32

from .board import GRID, Position, need_position
from .errors import DateError, TourError
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
    moment = dt.datetime.now(dt.UTC) if now is None else now
    if not isinstance(moment, dt.datetime):
        raise DateError(
            f"expected a moment (a datetime with a time zone), not {moment!r}; "
            "daily_puzzle takes a date"
        )
    if moment.utcoffset() is None:
        raise DateError("a moment without a time zone is ambiguous; give one in UTC")
    try:
        return moment.astimezone(TURKEY).date()
    except OverflowError:
        raise DateError(
            f"{moment.isoformat()} has no date in Turkey: it is outside the years 1 to 9999"
        ) from None


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

    def __post_init__(self) -> None:
        for field in ("current", "best"):
            value = getattr(self, field)
            if not is_whole(value) or value < 0:
                raise TourError(f"a combo counts moves: a whole number 0 or more, not {value!r}")
            object.__setattr__(self, field, int(value))  # a NumPy integer as a plain int
        if self.current > self.best:
            raise TourError(
                f"the best combo ({self.best}) cannot be shorter than the current one "
                f"({self.current})"
            )

    def after(self, before: Position, move: str | int) -> Combo:
        """The combo once ``move`` (a cell name or index) is played from ``before``;
        MoveError if it cannot be played there.

        >>> p = Position.from_moves("A1", ["D1", "D4"])
        >>> Combo().after(p, hint(p, "quick").move_name)
        Combo(current=1, best=1)
        """
        move = need_position(before).play(move).current
        if hint(before, "quick").move == move:
            run = self.current + 1
            return Combo(run, max(run, self.best))
        return Combo(0, self.best)
