"""Finish a tour from a position: a full board if one can be found, else the best score
proven reachable.

>>> result = solve(Position.start("A1"))
>>> result.complete, result.score, len(result.path)
(True, 100, 100)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import CELLS, GRID, TARGETS, Position, need_position

SOLVE_ROLLOUTS = 20_000
SOLVE_BUDGET = 20_000_000
SOLVE_SEEN_ROWS = 1 << 21


@dataclass(frozen=True)
class Solution:
    """``path`` is every filled cell in order, the given ones first. ``proven`` says the
    score is the best possible (a full board, or an exhaustive search)."""

    path: tuple[int, ...]
    proven: bool

    @property
    def score(self) -> int:
        return len(self.path)

    @property
    def complete(self) -> bool:
        return self.score == CELLS

    def as_dict(self) -> dict:
        return {
            "complete": self.complete,
            "score": self.score,
            "proven_best": self.proven,
            "path": [GRID.name(c) for c in self.path],
        }


def solve(position: Position) -> Solution:
    """Warnsdorff games from the position's own stream first (they find full boards
    fast), then a depth-first search for a full board, then for the best count; each
    search gets half of SOLVE_BUDGET nodes."""
    from . import _kernels  # numba: imported on first use, not with the package

    need_position(position)
    if position.over:
        return Solution(position.path, True)
    state = np.array([position.seed()], np.uint64)
    proof = np.empty(CELLS, np.int64)
    _, proved = _kernels.rollouts(
        *position.words(), position.current, position.count, TARGETS, state, SOLVE_ROLLOUTS, proof
    )
    if proved:
        return Solution(position.path + tuple(int(c) for c in proof[:proved]), True)
    best, refuted, moves = _search(position, SOLVE_BUDGET // 2, floor=CELLS - 1)
    if best == CELLS:
        return Solution(position.path + moves, True)
    ceiling = CELLS - 1 if refuted else CELLS
    _, finished, moves = _search(position, SOLVE_BUDGET // 2, ceiling=ceiling)
    return Solution(position.path + moves, finished)


def _search(position: Position, budget: int, floor: int = 0, ceiling: int = CELLS):
    """The hint's search with a table sized for ``solve``'s budget."""
    from .hint import continuation, seen_table

    return continuation(position, budget, floor, ceiling, seen_table(budget, SOLVE_SEEN_ROWS))
