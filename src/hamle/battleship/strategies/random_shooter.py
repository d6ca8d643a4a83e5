"""Easy: a uniformly random unshot cell."""

from dataclasses import dataclass

import numpy as np

from .. import _kernels
from ..observation import Observation
from .common import check_choice, pick


@dataclass(frozen=True)
class RandomShooter:
    """Fires at a uniformly random unshot cell.

    >>> from hamle.battleship.rules import Rules
    >>> RandomShooter().choose(Observation.start(Rules.classic()), np.random.default_rng(1))
    27
    """

    name: str = "random"
    kernel = _kernels.SHOOT_RANDOM

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        check_choice(observation, rng)
        return pick(observation.unshot, rng)
