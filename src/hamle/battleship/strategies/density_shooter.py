"""Hard: fire at the cell of greatest density d (spec § 3), ties at random."""

from dataclasses import dataclass

import numpy as np

from ..density import density
from ..observation import Observation
from .common import pick


@dataclass(frozen=True)
class DensityShooter:
    """Fires at an unshot cell of greatest weighted density.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"])
    >>> obs.grid.name(DensityShooter().choose(obs, np.random.default_rng(0)))
    'G5'
    """

    name: str = "density"
    touching = True

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        return pick(density(observation, check=False).best, rng)
