"""Normal: hunt and target, with or without the parity pattern (spec § 3)."""

from dataclasses import dataclass

import numpy as np

from ..observation import HIT, UNKNOWN, Observation
from .common import pick


def hunt_pattern(rows: int, cols: int, m: int) -> np.ndarray:
    """The cells of Λ_m = {(r, c) : (r + c) mod m = 0} as a flat boolean array.

    >>> int(hunt_pattern(10, 10, 2).sum()), int(hunt_pattern(10, 10, 3).sum())
    (50, 34)
    """
    r, c = np.indices((rows, cols))
    return ((r + c) % m == 0).ravel()


def _shifted(grid: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """out[r, c] = grid[r + dr, c + dc], False beyond the edge."""
    out = np.zeros_like(grid)
    rows, cols = grid.shape
    out[max(-dr, 0) : rows - max(dr, 0), max(-dc, 0) : cols - max(dc, 0)] = grid[
        max(dr, 0) : rows + min(dr, 0), max(dc, 0) : cols + min(dc, 0)
    ]
    return out


def candidates(observation: Observation, parity: bool) -> tuple[str, np.ndarray]:
    """The rule that applies (``line``, ``target`` or ``hunt``) and its candidate cells.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"], miss=["G5"])
    >>> rule, cells = candidates(obs, parity=True)
    >>> rule, [obs.grid.name(int(c)) for c in cells]
    ('line', ['D5'])
    """
    rules = observation.rules
    shape = (rules.rows, rules.cols)
    unshot = (observation.marks == UNKNOWN).reshape(shape)
    hits = (observation.marks == HIT).reshape(shape)
    if hits.any():
        line = np.zeros(shape, bool)
        neighbour = np.zeros(shape, bool)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            near = _shifted(hits, dr, dc)
            neighbour |= near
            line |= near & _shifted(hits, 2 * dr, 2 * dc)
        for rule, cells in (("line", line & unshot), ("target", neighbour & unshot)):
            if cells.any():
                return rule, np.flatnonzero(cells)
    if parity:
        shortest = min(observation.afloat)
        pattern = hunt_pattern(rules.rows, rules.cols, shortest) & unshot.ravel()
        if pattern.any():
            return "hunt", np.flatnonzero(pattern)
    return "hunt", np.flatnonzero(unshot)


@dataclass(frozen=True)
class HuntTarget:
    """Extend a line of open hits, else target an open hit's neighbour, else hunt
    (on the parity pattern of the shortest afloat ship when ``parity``)."""

    parity: bool = True

    @property
    def name(self) -> str:
        return "parity" if self.parity else "hunt-target"

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        return pick(candidates(observation, self.parity)[1], rng)
