"""The hint engine: exact search where it finishes, flat Monte Carlo elsewhere (spec § 4).

For each legal move: a depth-first search within a node budget (none once fewer than 12
cells are empty) gives the exact best final count when it finishes, and a full board as
proof when it finds one. If that does not settle the choice, each move's position is
played out N times with Warnsdorff's rule (hint: 120, quick: 30) from its own Mulberry32
stream, seeded by that position; after 30 games a move more than ``MARGIN`` below the
leader's mean is dropped. A rollout that fills the board is also a proof.

A hint must not throw away a full board. So when several moves remain and none is proven
to allow one, rounds settle the open moves, the best mean first (``DECIDE_ROUNDS``: more
games for each, then a search for a full board shared among them), until one is proven
or every one is refuted; with every move refuted, a search for each move's exact best
count follows (``SCORE_NODES``). Budgets are node counts, so a position always gets the
same hint; a move still open says ``complete: None`` rather than claim anything.

Choice: a move proven to allow a full board; else one not refuted; else any. Among those,
the highest value, exact where a search finished and the mean of the rollouts elsewhere;
ties go to the smaller onward degree, then the smaller cell index.

>>> h = hint(Position.from_moves("A1", ["D1", "D4"]), "quick")
>>> h.move_name, h.value, h.exact
('B2', 100, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from hamle.grid import name_key

from .board import CELLS, GRID, TARGETS, Position, need_position
from .errors import MoveError, TourError

ROLLOUTS = {"hint": 120, "quick": 30}
FIRST_ROUND = 30
MARGIN = 2  # cells
ENDGAME = 12  # fewer empty cells than this: exact search without a budget
EXACT_BUDGET = 1_000  # search nodes per move otherwise
# When no move is proven to allow a full board: rounds until one is (then it is the hint)
# or all are refuted. Each round: more games for every move still open, then search
# nodes shared by them.
DECIDE_ROUNDS = {
    "hint": ((60, 4_000), (120, 40_000), (240, 300_000)),
    "quick": ((30, 2_000), (60, 20_000), (120, 120_000)),
}
# When every move is refuted: search nodes, shared by the moves, for their exact best.
SCORE_NODES = {"hint": 60_000, "quick": 20_000}
SEEN_ROWS = 1 << 17
ENDGAME_NODES = 1 << 12  # sizes the table of an endgame search (it has no budget)


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
    if not isinstance(mode, str) or name_key(mode) not in ROLLOUTS:
        raise TourError(
            "unknown hint mode {mode!r}; choose hint or quick", code="tour.hint_mode", mode=mode
        )
    need_position(position)
    mode = name_key(mode)
    if position.count == CELLS:
        raise MoveError("the tour is complete: every cell is filled", code="tour.done")
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
    if all(exact for _, exact, _ in found):
        candidates = tuple(
            Candidate(m, value, exact, _verdict(value, exact), 0, _degree(after[m]), tour)
            for m, (value, exact, tour) in zip(moves, found, strict=True)
        )
        settled = [c for c in candidates if c.complete] or list(candidates)
        best = min(settled, key=lambda c: (-c.value, c.degree, c.move))
        return Hint(mode, best.move, best.value, best.exact, 0, candidates)
    return _monte_carlo(after, moves, found, ROLLOUTS[mode], mode)


class _Playouts:
    """Warnsdorff games from each move's position, on that position's own stream."""

    def __init__(self, after: dict[int, Position], moves) -> None:
        self.after = after
        self.totals = dict.fromkeys(moves, 0)
        self.runs = dict.fromkeys(moves, 0)
        self.proofs = dict.fromkeys(moves, ())
        self.states = {m: np.array([after[m].seed()], np.uint64) for m in moves}

    def play(self, move: int, count: int) -> None:
        from . import _kernels

        start = self.after[move]
        proof = np.empty(CELLS, np.int64)
        total, proved = _kernels.rollouts(
            *start.words(), start.current, start.count, TARGETS, self.states[move], count, proof
        )
        self.totals[move] += int(total)
        self.runs[move] += count
        if proved and not self.proofs[move]:
            self.proofs[move] = tuple(int(c) for c in proof[:proved])

    def mean(self, move: int) -> Fraction:
        return Fraction(self.totals[move], self.runs[move])

    def candidate(self, move: int, degree: int) -> Candidate:
        """The move valued by its games: exact (a full board) once one filled it."""
        tour = self.proofs[move]
        value = CELLS if tour else float(self.mean(move))
        return Candidate(
            move, value, bool(tour), True if tour else None, self.runs[move], degree, tour
        )


def _monte_carlo(after: dict[int, Position], moves, found, n: int, mode: str) -> Hint:
    """Rollouts for the moves the search did not settle; exact moves keep their value."""
    open_moves = [m for m, (_, exact, _) in zip(moves, found, strict=True) if not exact]
    games = _Playouts(after, open_moves)
    first = min(FIRST_ROUND, n)
    for move in open_moves:
        games.play(move, first)
    leader = max(games.mean(m) for m in open_moves)
    for move in open_moves:
        if n > first and games.mean(move) >= leader - MARGIN:
            games.play(move, n - first)
    candidates = [
        games.candidate(move, _degree(after[move]))
        if not exact
        else Candidate(move, value, exact, _verdict(value, exact), 0, _degree(after[move]), tour)
        for move, (value, exact, tour) in zip(moves, found, strict=True)
    ]
    if len(candidates) > 1 and not any(c.complete for c in candidates):
        candidates = _decide(after, candidates, games, mode)

    def key(c: Candidate) -> tuple:
        value = Fraction(c.value) if c.exact else games.mean(c.move)
        return (_rank(c), -value, c.degree, c.move)

    best = min(candidates, key=key)
    total_runs = sum(c.rollouts for c in candidates)
    return Hint(mode, best.move, best.value, best.exact, total_runs, tuple(candidates))


def _rank(candidate: Candidate) -> int:
    """Proven to allow a full board first, then not known, then proven not to."""
    return {True: 0, None: 1, False: 2}[candidate.complete]


def _decide(after: dict[int, Position], candidates: list, games: _Playouts, mode: str) -> list:
    """Settle the moves not known to allow a full board or not, the most promising
    first, in the rounds of ``DECIDE_ROUNDS`` (more games for each move still open, then
    a search shared among them), until one is proven (and becomes the hint) or every one
    is refuted; then, with every move refuted, the exact best count of each where
    ``SCORE_NODES`` suffice."""
    by_move = {c.move: c for c in candidates}
    undecided = sorted(
        (c.move for c in candidates if c.complete is None),
        key=lambda m: (-games.mean(m), by_move[m].degree, m),
    )
    # With floor 99, a position searched in full has no full board after it, whichever
    # move it was reached from: one table serves every move and every round.
    seen = seen_table(sum(nodes for _, nodes in DECIDE_ROUNDS[mode]))
    for extra, nodes in DECIDE_ROUNDS[mode]:
        if not undecided:
            break
        for move in undecided:
            games.play(move, extra)
            by_move[move] = games.candidate(move, by_move[move].degree)
            if by_move[move].complete:
                return [by_move[c.move] for c in candidates]
        still = []
        for move in undecided:
            share = nodes // len(undecided)
            _, finished, tour = _search(after[move], share, floor=CELLS - 1, seen=seen)
            c = by_move[move]
            if tour:
                by_move[move] = replace(c, value=CELLS, exact=True, complete=True, tour=tour)
                return [by_move[c.move] for c in candidates]
            if finished:
                by_move[move] = replace(c, complete=False)
            else:
                still.append(move)
        undecided = still
    if not undecided:
        inexact = [c for c in by_move.values() if not c.exact]
        for c in inexact:
            value, finished, _ = _search(
                after[c.move], SCORE_NODES[mode] // len(inexact), ceiling=CELLS - 1
            )
            if finished:
                by_move[c.move] = replace(c, value=value, exact=True)
    return [by_move[c.move] for c in candidates]


def _verdict(value: float, exact: bool) -> bool | None:
    if value == CELLS:
        return True
    return False if exact else None


def _degree(after: Position) -> int:
    return len(after.legal_moves())


def _search(
    position: Position,
    budget: int | None,
    floor: int = 0,
    ceiling: int = CELLS,
    seen: np.ndarray | None = None,
) -> tuple[int, bool, tuple[int, ...]]:
    """(best final count found, whether the search finished, a full tour if found);
    ``floor``, ``ceiling`` and ``seen`` (a new table by default) as in
    ``_kernels.search``."""
    best, finished, moves = continuation(position, budget, floor, ceiling, seen)
    return best, finished, moves if best == CELLS else ()


def continuation(
    position: Position,
    budget: int | None,
    floor: int = 0,
    ceiling: int = CELLS,
    seen: np.ndarray | None = None,
) -> tuple[int, bool, tuple[int, ...]]:
    """(best final count found, whether the search finished, the moves reaching it)
    from ``_kernels.search``; no budget means none."""
    from . import _kernels  # numba: imported when a hint is computed, not with the package

    path = np.empty(CELLS, np.int64)
    limit = np.iinfo(np.int64).max if budget is None else budget
    best, finished, length = _kernels.search(
        *position.words(),
        position.current,
        position.count,
        TARGETS,
        limit,
        path,
        floor,
        ceiling,
        seen_table(ENDGAME_NODES if budget is None else budget) if seen is None else seen,
    )
    return int(best), bool(finished), tuple(int(c) for c in path[:length])


def seen_table(budget: int, most: int = SEEN_ROWS) -> np.ndarray:
    """An empty table of searched positions for ``budget`` search nodes: at least twice
    as many rows (a power of two), at most ``most``, and the row that counts them."""
    rows = min(1 << max(4, min(most, 2 * budget).bit_length()), most)
    return np.zeros((rows + 1, 3), np.uint64)
