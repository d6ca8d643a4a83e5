"""Hard: fire at the cell of greatest density d (spec § 3), ties at random."""

from dataclasses import dataclass

import numpy as np

from .. import _kernels
from ..density import best_cells
from ..observation import Observation
from .common import check_choice, pick


@dataclass(frozen=True)
class DensityShooter:
    """Fires at an unshot cell of greatest weighted density.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"])
    >>> obs.grid.name(DensityShooter().choose(obs, np.random.default_rng(0)))
    'G5'
    """

    name: str = "density"
    kernel = _kernels.SHOOT_DENSITY

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        check_choice(observation, rng)
        return pick(best_cells(observation), rng)
