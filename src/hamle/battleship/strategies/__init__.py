"""The computer shooters, registered by name (aliases: easy, normal, hard, expert).

>>> [s.name for s in SHOOTERS.values()]
['random', 'hunt-target', 'parity', 'density', 'exact', 'expert']
>>> get_shooter("hard").name
'density'
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Protocol

import numpy as np

from hamle.grid import name_key, quoted

from ..density import density
from ..errors import BattleshipError, ShotError
from ..fleet import checked_shot
from ..named import read_named, setting_value
from ..observation import Observation
from .density_shooter import DensityShooter
from .exact_shooter import ExactShooter
from .expert_shooter import Decision, ExpertShooter
from .hunt_target import HuntTarget
from .random_shooter import RandomShooter


class Shooter(Protocol):
    """A computer player: picks the next cell to fire at from what it sees."""

    name: str

    def choose(self, observation: Observation, rng: np.random.Generator) -> int: ...


def game_kernel(shooter: Shooter) -> int | None:
    """The ``_kernels.SHOOT_*`` code with which ``play_games`` plays whole games of
    ``shooter`` in one call, or None: only a built-in shooter's, as it is (a subclass or
    a shooter of one's own plays through its ``choose``, whatever it says its kernel is).

    >>> game_kernel(get_shooter("hard")) is not None, game_kernel(get_shooter("expert"))
    (True, None)
    """
    built_in = type(shooter) in (RandomShooter, HuntTarget, DensityShooter)
    return shooter.kernel if built_in else None


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
    """The shooter registered as ``name`` or one of its aliases, in any case, or with
    settings in brackets (``expert(fleets=1000)``: the fields of its dataclass), named so.

    >>> get_shooter("Normal").name
    'parity'
    >>> get_shooter("expert(openings=false, fleets=1000)").name
    'expert(fleets=1000, openings=false)'
    """
    if not isinstance(name, str):
        raise BattleshipError(f"a strategy's name is text, not {quoted(name)}")
    if name_key(name) in SHOOTERS or name_key(name) in ALIASES:
        return SHOOTERS[ALIASES.get(name_key(name), name_key(name))]
    base, settings = read_named(name)
    key = ALIASES.get(name_key(base), name_key(base))
    if key not in SHOOTERS:
        known = ", ".join([*SHOOTERS, *ALIASES])
        raise BattleshipError(f"unknown strategy {quoted(base)}; choose one of: {known}")
    shooter = SHOOTERS[key]
    if not settings:
        return shooter
    settable = [f.name for f in fields(shooter) if f.name != "name"]
    if "name" not in {f.name for f in fields(shooter)} or not settable:
        raise BattleshipError(f"the {key} shooter takes no settings, not {quoted(name)}")
    given = {}
    for setting, text in settings.items():
        field = setting.replace("-", "_")
        if field not in settable:
            raise BattleshipError(
                f"the {key} shooter has no setting {quoted(setting)}; it has: {', '.join(settable)}"
            )
        given[field] = setting_value(setting, text)
    made = replace(shooter, **given)  # (which names itself by the settings it changes)
    return shooter if made == shooter else made  # (only settings it has: the shooter itself)


def hint(
    observation: Observation,
    strategy: str | Shooter = "expert",
    rng: np.random.Generator | None = None,
) -> Decision:
    """Where ``strategy`` fires next at ``observation`` (its draws from ``rng``, by default
    seeded with 0): the expert's ``decide``, which says how it chose and lists the cells
    it rolled out, or another shooter's cell (``how``: "choice"). Marks that no layout
    fits are an error, as ``density`` says it.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"], miss=["D5"])
    >>> hint(obs, "parity").how, obs.grid.name(hint(obs).cell)
    ('choice', 'G5')
    """
    shooter = as_shooter(strategy)
    rng = np.random.default_rng(0) if rng is None else rng
    if (
        isinstance(observation, Observation)
        and observation.afloat
        and density(observation, count=False).undecided
    ):
        density(observation)  # no layout found to fit: counted, which says if none does
    if isinstance(shooter, ExpertShooter) and type(shooter).choose is ExpertShooter.choose:
        return shooter.decide(observation, rng)  # (a subclass that chooses otherwise: below)
    return Decision(chosen_cell(shooter, observation, rng), "choice")


def chosen_cell(shooter: Shooter, observation: Observation, rng: np.random.Generator) -> int:
    """``shooter.choose``'s cell, checked as a shot is (``checked_shot``): ShotError
    naming the shooter unless it is a cell of the board not fired at nor known water.

    >>> from hamle.battleship.rules import Rules
    >>> obs = Observation.from_marks(Rules.custom(3, [1]), miss=["A1"])
    >>> chosen_cell(get_shooter("easy"), obs, np.random.default_rng(0)) in range(1, 9)
    True
    """
    cell = shooter.choose(observation, rng)
    try:
        return checked_shot(observation, cell)
    except ShotError as exc:
        raise exc.recast(ShotError, f"the {shooter.name} shooter chose") from None
