"""The computer shooters, registered by name (aliases: easy, normal, hard).

>>> [s.name for s in SHOOTERS.values()]
['random', 'hunt-target', 'parity', 'density', 'exact']
>>> get_shooter("hard").name
'density'

The ``exact`` shooter counts every layout, so it plays no-touch rules only.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..errors import BattleshipError, RulesError
from ..observation import Observation
from ..rules import Rules
from .density_shooter import DensityShooter
from .exact_shooter import ExactShooter
from .hunt_target import HuntTarget
from .random_shooter import RandomShooter


class Shooter(Protocol):
    """A computer player: picks the next cell to fire at from what it sees."""

    name: str
    touching: bool  # whether it can play rules that let ships touch
    kernel: int | None  # its _kernels.SHOOT_* code when play_games can play it in one call

    def choose(self, observation: Observation, rng: np.random.Generator) -> int: ...


SHOOTERS: dict[str, Shooter] = {
    shooter.name: shooter
    for shooter in (
        RandomShooter(),
        HuntTarget(parity=False),
        HuntTarget(parity=True),
        DensityShooter(),
        ExactShooter(),
    )
}
ALIASES = {"easy": "random", "normal": "parity", "hard": "density"}


def get_shooter(name: str, rules: Rules | None = None) -> Shooter:
    """The shooter registered as ``name`` or one of its aliases; with ``rules``, one
    that can play them.

    >>> get_shooter("exact", Rules.classic())
    Traceback (most recent call last):
    ...
    hamle.battleship.errors.RulesError: the exact shooter needs rules where ships may not touch, ...
    """
    key = ALIASES.get(name, name)
    if key not in SHOOTERS:
        known = ", ".join([*SHOOTERS, *ALIASES])
        raise BattleshipError(f"unknown strategy {name!r}; choose one of: {known}")
    shooter = SHOOTERS[key]
    if rules is not None and rules.touching and not shooter.touching:
        raise RulesError(
            f"the {shooter.name} shooter needs rules where ships may not touch, "
            f"not {rules.describe()}"
        )
    return shooter
