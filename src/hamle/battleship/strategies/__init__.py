"""The computer shooters, registered by name (aliases: easy, normal, hard, expert).

>>> [s.name for s in SHOOTERS.values()]
['random', 'hunt-target', 'parity', 'density', 'exact', 'expert']
>>> get_shooter("hard").name
'density'
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from hamle.grid import quoted

from ..errors import BattleshipError
from ..observation import Observation
from .density_shooter import DensityShooter
from .exact_shooter import ExactShooter
from .expert_shooter import ExpertShooter
from .hunt_target import HuntTarget
from .random_shooter import RandomShooter


class Shooter(Protocol):
    """A computer player: picks the next cell to fire at from what it sees."""

    name: str
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
        ExpertShooter(),
    )
}
ALIASES = {"easy": "random", "normal": "parity", "hard": "density"}


def as_shooter(strategy) -> Shooter:
    """A shooter given by name (or alias) or as a shooter object (``get_shooter``'s, or
    one made with its own budget, like ``ExpertShooter(fleets=200)``).

    >>> as_shooter("hard") is as_shooter(get_shooter("density"))
    True
    """
    if isinstance(strategy, str):
        return get_shooter(strategy)
    if isinstance(getattr(strategy, "name", None), str) and callable(
        getattr(strategy, "choose", None)
    ):
        return strategy
    raise BattleshipError(
        f"a strategy is a shooter's name ({', '.join(SHOOTERS)}) or a shooter, "
        f"not {quoted(strategy)}"
    )


def get_shooter(name: str) -> Shooter:
    """The shooter registered as ``name`` or one of its aliases, in any case.

    >>> get_shooter("Normal").name
    'parity'
    """
    if not isinstance(name, str):
        raise BattleshipError(f"a strategy's name is text, not {quoted(name)}")
    key = ALIASES.get(name.lower(), name.lower())
    if key not in SHOOTERS:
        known = ", ".join([*SHOOTERS, *ALIASES])
        raise BattleshipError(f"unknown strategy {quoted(name)}; choose one of: {known}")
    return SHOOTERS[key]
