"""The hint engine: exact search where it finishes, flat Monte Carlo elsewhere (spec § 4).

For each legal move: a depth-first search within a node budget (none once fewer than 12
cells are empty) gives the exact best final count when it finishes, and a full board as
proof when it finds one. If that does not settle the choice, each move's position is
played out N times with Warnsdorff's rule (hint: 120, quick: 30) from its own Mulberry32
stream, seeded by that position; after 30 games a move more than ``MARGIN`` below the
leader's mean is dropped. A rollout that fills the board is also a proof.

Choice: a move proven to allow a full board; else the highest value, exact where the
search finished and the mean of the rollouts elsewhere (moves settled by the search get no
rollouts); ties go to the smaller onward degree, then the smaller cell index.

>>> h = hint(Position.from_moves("A1", ["D1", "D4"]), "quick")
>>> h.move_name, h.value, h.exact
('B2', 100, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .board import CELLS, GRID, TARGETS, Position
from .errors import MoveError, TourError

ROLLOUTS = {"hint": 120, "quick": 30}
FIRST_ROUND = 30
MARGIN = 2  # cells
ENDGAME = 12  # fewer empty cells than this: exact search without a budget
EXACT_BUDGET = 1_000  # search nodes per move otherwise


@dataclass(frozen=True)
class Candidate:
    """One legal move: its value (exact best final count, or mean of its rollouts),
    whether a full board is still possible after it (None: not known) with a proof."""

    move: int
    value: float
    exact: bool
    complete: bool | None
    rollouts: int
    degree: int
    tour: tuple[int, ...] = ()

    def as_dict(self) -> dict:
        out = {
            "move": self.move,
            "move_name": GRID.name(self.move),
            "value": self.value,
            "exact": self.exact,
            "complete": self.complete,
            "rollouts": self.rollouts,
        }
        if self.tour:
            out["tour"] = [GRID.name(c) for c in self.tour]
        return out


@dataclass(frozen=True)
class Hint:
    """The suggested move and how every candidate was valued."""

    mode: str
    move: int
    value: float
    exact: bool
    rollouts: int
    candidates: tuple[Candidate, ...]

    @property
    def move_name(self) -> str:
        return GRID.name(self.move)

    def as_dict(self) -> dict:
        return {
            "mode": self.mode,
            "move": self.move,
            "move_name": self.move_name,
            "value": self.value,
            "exact": self.exact,
            "rollouts": self.rollouts,
            "candidates": [c.as_dict() for c in self.candidates],
        }


def hint(position: Position, mode: str = "hint") -> Hint:
    """The best move from ``position`` in mode ``hint`` (120 rollouts) or ``quick`` (30)."""
    if not isinstance(mode, str) or mode.lower() not in ROLLOUTS:
        raise TourError(
            "unknown hint mode {mode!r}; choose hint or quick", code="tour.hint_mode", mode=mode
        )
    mode = mode.lower()
    moves = position.legal_moves()
    if not moves:
        here = GRID.name(position.current)
        raise MoveError(
            "the game is over: no jump from {cell} reaches an empty cell",
            code="tour.stuck",
            cell=here,
        )
    endgame = CELLS - position.count < ENDGAME
    after = {m: position.play(m) for m in moves}
    found = [_search(after[m], None if endgame else EXACT_BUDGET) for m in moves]
    if all(exact for _, exact, _ in found) or any(tour for _, _, tour in found):
        candidates = tuple(
            Candidate(m, value, exact, _verdict(value, exact), 0, _degree(after[m]), tour)
            for m, (value, exact, tour) in zip(moves, found, strict=True)
        )
        settled = [c for c in candidates if c.complete] or list(candidates)
        best = min(settled, key=lambda c: (-c.value, c.degree, c.move))
        return Hint(mode, best.move, best.value, best.exact, 0, candidates)
    return _monte_carlo(after, moves, found, ROLLOUTS[mode], mode)


def _monte_carlo(after: dict[int, Position], moves, found, n: int, mode: str) -> Hint:
    """Rollouts for the moves the search did not settle; exact moves keep their value."""
    from . import _kernels

    open_moves = [m for m, (_, exact, _) in zip(moves, found, strict=True) if not exact]
    totals = dict.fromkeys(open_moves, 0)
    runs = dict.fromkeys(open_moves, 0)
    proofs = dict.fromkeys(open_moves, ())
    states = {m: np.array([after[m].seed()], np.uint64) for m in open_moves}

    def play(move: int, count: int) -> None:
        start = after[move]
        proof = np.empty(CELLS, np.int64)
        total, proved = _kernels.rollouts(
            *start.words(), start.current, start.count, TARGETS, states[move], count, proof
        )
        totals[move] += int(total)
        runs[move] += count
        if proved and not proofs[move]:
            proofs[move] = tuple(int(c) for c in proof[:proved])

    first = min(FIRST_ROUND, n)
    for move in open_moves:
        play(move, first)
    leader = max(Fraction(totals[m], runs[m]) for m in open_moves)
    for move in open_moves:
        if n > first and Fraction(totals[move], runs[move]) >= leader - MARGIN:
            play(move, n - first)
    keys, candidates = {}, []
    for move, (value, exact, tour) in zip(moves, found, strict=True):
        if not exact:
            tour = proofs[move]
            exact = bool(tour)
            value = CELLS if exact else float(Fraction(totals[move], runs[move]))
        keys[move] = Fraction(value) if exact else Fraction(totals[move], runs[move])
        complete = _verdict(value, exact)
        degree = _degree(after[move])
        candidates.append(Candidate(move, value, exact, complete, runs.get(move, 0), degree, tour))
    best = min(candidates, key=lambda c: (not c.complete, -keys[c.move], c.degree, c.move))
    total_runs = sum(runs.values())
    return Hint(mode, best.move, best.value, best.exact, total_runs, tuple(candidates))


def _verdict(value: float, exact: bool) -> bool | None:
    if value == CELLS:
        return True
    return False if exact else None


def _degree(after: Position) -> int:
    return len(after.legal_moves())


def _search(position: Position, budget: int | None) -> tuple[int, bool, tuple[int, ...]]:
    """(best final count found, whether the search finished, a full tour if found)."""
    from . import _kernels  # numba: imported when a hint is computed, not with the package

    path = np.empty(CELLS, np.int64)
    limit = np.iinfo(np.int64).max if budget is None else budget
    best, finished, length = _kernels.search(
        *position.words(), position.current, position.count, TARGETS, limit, path
    )
    tour = tuple(int(c) for c in path[:length]) if best == CELLS else ()
    return int(best), bool(finished), tour
