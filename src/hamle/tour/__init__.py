"""Yüz Yüze: the 100-cell number tour, its hint engine, solver and daily puzzle.

>>> import hamle.tour as tour
>>> p = tour.Position.from_moves("E5", ["E8", "G10"])
>>> p.count, [tour.GRID.name(c) for c in p.legal_moves()]
(3, ['G7', 'D10', 'J10', 'I8'])
"""

from .board import GRID, JUMPS, Position
from .daily import Combo, DailyPuzzle, daily_puzzle, today_in_turkey
from .errors import DateError, MoveError, TourError
from .hint import Candidate, Hint, hint
from .result import Result
from .solve import Solution, solve

__all__ = [
    "GRID",
    "JUMPS",
    "Candidate",
    "Combo",
    "DailyPuzzle",
    "DateError",
    "Hint",
    "MoveError",
    "Position",
    "Result",
    "Solution",
    "TourError",
    "daily_puzzle",
    "hint",
    "solve",
    "today_in_turkey",
]
