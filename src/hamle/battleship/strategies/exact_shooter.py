"""Exact: fire at the unshot cell that most layouts occupy (spec § 5), ties at random.

The best cells depend only on the marks and the afloat fleet, and turn with the board,
so they are remembered per board up to its symmetries: games that open with the same
misses share the costly early counts.
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import CountTooLargeError
from ..exact import occupancy, symmetries
from ..observation import UNKNOWN, Observation
from ..rules import Rules
from .common import pick


@dataclass(frozen=True)
class ExactShooter:
    """Fires at an unshot cell of greatest exact probability.

    >>> obs = Observation.from_marks(Rules.custom(4, [2, 1], touching=False), miss=["B2"])
    >>> [obs.grid.name(c) for c in best_cells(obs)]
    ['C1', 'A3']
    """

    name: str = "exact"
    kernel = None

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        return pick(best_cells(observation), rng)


def best_cells(observation: Observation) -> tuple[int, ...]:
    """The unshot cells of greatest exact count, in increasing order."""
    rules = observation.rules
    images = [observation.marks[turn] for turn in symmetries(rules.rows, rules.cols)]
    which = min(range(len(images)), key=lambda k: images[k].tobytes())
    sunk = tuple(sorted(ship.length for ship in observation.sunk))
    canonical = _best(rules, images[which].tobytes(), tuple(sorted(observation.afloat)), sunk)
    turn = symmetries(rules.rows, rules.cols)[which]
    return tuple(sorted(int(turn[c]) for c in canonical))


@lru_cache(maxsize=200_000)
def _best(rules: Rules, marks: bytes, afloat: tuple, sunk: tuple) -> tuple[int, ...]:
    board = np.frombuffer(marks, np.uint8)
    counts = cell_counts(rules, board, afloat, sunk)
    unknown = np.flatnonzero(board == UNKNOWN)
    top = max((counts[c] for c in unknown), default=0)
    return tuple(int(c) for c in unknown if counts[c] == top > 0)


def cell_counts(rules: Rules, marks: np.ndarray, afloat: tuple, sunk: tuple) -> np.ndarray:
    """Per cell, the layouts that occupy it (``occupancy``), worked out on the first of the
    board's turns and flips the DP does not refuse: how many partial layouts it meets
    depends on the way it reads the board (classic rules, open hits E6–I6 beside a miss at
    D6: refused; mirrored: 4 s). Raises the first refusal if every one is refused.

    >>> rules = Rules.custom(4, [2, 1], touching=False)
    >>> cell_counts(rules, Observation.start(rules).marks, (2, 1), ())[:4].tolist()
    [36, 37, 37, 36]
    """
    refused = None
    for turn in symmetries(rules.rows, rules.cols):
        try:
            _, turned = occupancy(rules, marks[turn], afloat, sunk)
        except CountTooLargeError as error:
            refused = refused or error
            continue
        counts = np.empty_like(turned)
        counts[turn] = turned
        return counts
    raise refused
