"""Exact: fire at the unshot cell that most layouts occupy (spec § 5), ties at random.

The best cells depend only on the marks and the afloat fleet, and turn with the board,
so they are remembered per board up to its symmetries: games that open with the same
misses share the costly early counts.
"""

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..density import NO_LAYOUT, density
from ..errors import MarksError
from ..exact import occupancy, symmetries
from ..observation import UNKNOWN, Observation
from ..rules import Rules
from .common import check_choice, pick


@dataclass(frozen=True)
class ExactShooter:
    """Fires at an unshot cell of greatest exact probability.

    >>> obs = Observation.from_marks(Rules.custom(4, [2, 1], touching=False), miss=["B2"])
    >>> [obs.grid.name(c) for c in best_cells(obs)]
    ['C1', 'A3']
    """

    name: str = "exact"

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        check_choice(observation, rng)
        return pick(best_cells(observation), rng)


def best_cells(observation: Observation) -> tuple[int, ...]:
    """The unshot cells of greatest exact count, in increasing order; MarksError, naming
    what is wrong where it can, when no layout of the afloat ships fits the marks.

    >>> obs = Observation.from_marks(Rules.classic(), hit=["A1", "C1"], afloat=[2])
    >>> best_cells(obs)
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: the open hits A1, C1 need at least 2 ships, but 1 is afloat
    """
    rules = observation.rules
    images = [observation.marks[turn] for turn in symmetries(rules.rows, rules.cols)]
    which = min(range(len(images)), key=lambda k: images[k].tobytes())
    sunk = tuple(sorted(ship.length for ship in observation.sunk))
    canonical = _best(rules, images[which].tobytes(), tuple(sorted(observation.afloat)), sunk)
    if not canonical and observation.afloat:
        density(observation)  # raises the error that names the fault, where it finds one
        raise MarksError(NO_LAYOUT, code="battleship.no_layout")
    turn = symmetries(rules.rows, rules.cols)[which]
    return tuple(sorted(int(turn[c]) for c in canonical))


@lru_cache(maxsize=200_000)
def _best(rules: Rules, marks: bytes, afloat: tuple, sunk: tuple) -> tuple[int, ...]:
    board = np.frombuffer(marks, np.uint8)
    _, counts = occupancy(rules, board, afloat, sunk)
    unknown = np.flatnonzero(board == UNKNOWN)
    top = max((counts[c] for c in unknown), default=0)
    return tuple(int(c) for c in unknown if counts[c] == top > 0)
