"""Normal: hunt and target, with or without the parity pattern (spec § 3)."""

from dataclasses import dataclass
from functools import cache

import numpy as np

from .. import _kernels
from ..observation import HIT, UNKNOWN, Observation
from .common import check_choice, pick


@cache
def hunt_pattern(rows: int, cols: int, m: int) -> np.ndarray:
    """The cells of Λ_m = {(r, c) : (r + c) mod m = 0} as a flat boolean array.

    >>> int(hunt_pattern(10, 10, 2).sum()), int(hunt_pattern(10, 10, 3).sum())
    (50, 34)
    """
    r, c = np.indices((rows, cols))
    pattern = ((r + c) % m == 0).ravel()
    pattern.flags.writeable = False
    return pattern


@cache
def _steps(rows: int, cols: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, (ahead, behind) for each of the four directions; -1 off the board."""
    out = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        pairs = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            ahead = (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
            behind = (r - dr) * cols + c - dc if 0 <= r - dr < rows and 0 <= c - dc < cols else -1
            pairs.append((ahead, behind))
        out.append(tuple(pairs))
    return tuple(out)


def candidates(observation: Observation, parity: bool) -> tuple[str, list[int]]:
    """The rule that applies (``line``, ``target`` or ``hunt``) and its candidate cells,
    sorted.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"], miss=["G5"])
    >>> rule, cells = candidates(obs, parity=True)
    >>> rule, [obs.grid.name(c) for c in cells]
    ('line', ['D5'])
    """
    rules = observation.rules
    marks = observation.marks
    hits = (marks == HIT).nonzero()[0]
    if len(hits):
        state = marks.tolist()
        steps = _steps(rules.rows, rules.cols)
        line, target = set(), set()
        for hit in hits.tolist():
            for ahead, behind in steps[hit]:
                if ahead >= 0 and state[ahead] == UNKNOWN:
                    target.add(ahead)
                    if behind >= 0 and state[behind] == HIT:
                        line.add(ahead)
        if line:
            return "line", sorted(line)
        if target:
            return "target", sorted(target)
    unshot = marks == UNKNOWN
    if parity and observation.afloat:
        pattern = hunt_pattern(rules.rows, rules.cols, min(observation.afloat)) & unshot
        if pattern.any():
            return "hunt", pattern.nonzero()[0].tolist()
    return "hunt", unshot.nonzero()[0].tolist()


@dataclass(frozen=True)
class HuntTarget:
    """Extend a line of open hits, else target an open hit's neighbour, else hunt
    (on the parity pattern of the shortest afloat ship when ``parity``)."""

    parity: bool = True

    @property
    def name(self) -> str:
        return "parity" if self.parity else "hunt-target"

    @property
    def kernel(self) -> int:
        return _kernels.SHOOT_PARITY if self.parity else _kernels.SHOOT_HUNT_TARGET

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        check_choice(observation, rng)
        return pick(candidates(observation, self.parity)[1], rng)
