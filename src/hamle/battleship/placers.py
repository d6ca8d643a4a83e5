"""Placers: where the computer hides its fleet (spec § 2 draws it uniformly).

A placer is a value with ``place(rules, rng)`` returning a legal fleet; game g draws from
stream 0 of g, so a placer's game replays like any other. ``uniform`` is the seed's
sampler. The others start from its fleet and re-place one ship at a time among the
placements the other ships leave legal, each drawn with weight exp(−strength × score):
a few such sweeps tilt the fleet towards low scores (a Gibbs sampler of the law
∝ exp(−strength × Σ scores)), so fleets vary from game to game but lean one way:

- ``edges``: a cell scores its distance from the edge (ships hug edges and corners);
- ``anti-density``: the density of the empty board (the cells the density shooter
  fires at first score high);
- ``spread``: a ship scores minus its distance to the nearest other ship;
- ``clustered``: a ship scores its distance to the nearest other ship (clusters touch
  where the rules allow).

``mixed`` draws each game's fleet from one of those four, picked with fixed weights
(``mixture_weights``). Under the classic and Russian rules they are the ones that keep the
mean shots of the best of ``TUNED_AGAINST`` highest, as a tournament on games
1..``TUNE_GAMES`` found them (``tuned_weights``, stored in ``TUNED``); under any other rules
the four are weighed equally, as tuning there would first play thousands of games (a
``Placer`` with ``parts=tuple(tuned_weights(rules).items())`` is the tuned mixture).

>>> from hamle.rng import game_stream, FLEET_STREAM
>>> fleet = get_placer("edges").place(Rules.classic(), game_stream(7, FLEET_STREAM))
>>> [len(ship) for ship in fleet.ships]
[5, 4, 3, 3, 2]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from hamle.grid import name_key, quoted

from .density import density
from .errors import BattleshipError
from .fleet import Fleet, as_generator, placed_fleet, random_placements
from .named import decimal, read_named, said, setting_value, written_named
from .observation import Observation
from .rules import Rules, as_rules, placement_table

SWEEPS = 6  # re-placements of every ship per fleet
KINDS = ("uniform", "edges", "density", "spread", "clustered", "mixture")
TUNED_AGAINST = ("parity", "density")
TUNE_GAMES = 300


def _weight(value) -> bool:
    """Whether ``value`` is a real number (not a bool) from 0 up to, not including, inf."""
    real = isinstance(value, int | float | np.integer | np.floating)
    return real and not isinstance(value, bool) and 0 <= value < math.inf


@dataclass(frozen=True)
class Placer:
    """Fleets drawn uniformly (``kind`` "uniform"), tilted by a score (module docstring)
    with ``strength`` (a finite number from 0, the uniform law, up), or from the placers
    ``parts`` names with their weights (each at least 0, one above; "mixture";
    ``mixture_weights`` for the rules at hand while ``parts`` is empty).

    >>> Placer("lean", "mostly edges", "mixture", parts={"edges": 3, "spread": 1}).parts
    (('edges', 3.0), ('spread', 1.0))
    >>> Placer("centre", "away from the edges", "edges", -1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: a placer's strength is a finite number ..., not -1.0
    """

    name: str
    summary: str
    kind: str = "uniform"
    strength: float = 0.0
    parts: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise BattleshipError(f"a placer's name is non-empty text, not {quoted(self.name)}")
        if not isinstance(self.summary, str):
            raise BattleshipError(f"a placer's summary is text, not {quoted(self.summary)}")
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise BattleshipError(
                f"unknown placer kind {quoted(self.kind)}; choose one of: {', '.join(KINDS)}"
            )
        if not _weight(self.strength):
            raise BattleshipError(
                "a placer's strength is a finite number of at least 0 (0: uniform), "
                f"not {said(self.strength)}"
            )
        if self.strength and self.kind in ("uniform", "mixture"):
            raise BattleshipError(
                f"a {self.kind} placer takes no strength (the tilted kinds do), "
                f"not {said(self.strength)}"
            )
        object.__setattr__(self, "parts", self._checked_parts())

    def _checked_parts(self) -> tuple[tuple[str, float], ...]:
        """``parts`` as (placer name, float weight) pairs, or the error they make."""
        parts = self.parts.items() if isinstance(self.parts, Mapping) else self.parts
        try:
            pairs = None if isinstance(parts, str | bytes) else [(n, w) for n, w in parts]
        except (TypeError, ValueError):
            pairs = None
        if pairs is None:
            raise BattleshipError(
                f"a mixture's parts are (placer name, weight) pairs, not {quoted(self.parts)}"
            )
        if not pairs:
            return ()
        if self.kind != "mixture":
            raise BattleshipError(f"only a mixture has parts, not a placer of kind {self.kind}")
        for i, (name, weight) in enumerate(pairs):
            if not isinstance(name, str) or name not in PLACERS:
                raise BattleshipError(
                    f"unknown placer {quoted(name)} in a mixture; choose among: {', '.join(TILTED)}"
                )
            if name not in TILTED:  # (uniform is a tilted one at strength 0)
                raise BattleshipError(
                    f"a mixture draws from the tilted placers ({', '.join(TILTED)}), "
                    f"not from {name}"
                )
            if name in (other for other, _ in pairs[:i]):
                raise BattleshipError(f"{name} is named twice in a mixture")
            if not _weight(weight):
                raise BattleshipError(
                    f"the weight of {name} in a mixture is a finite number of at least 0, "
                    f"not {said(weight)}"
                )
        total = sum(float(weight) for _, weight in pairs)
        if not 0 < total < math.inf:
            raise BattleshipError(
                f"a mixture's weights add up to {quoted(total)}, not to a finite number above 0"
            )
        return tuple((name, float(weight)) for name, weight in pairs)

    def place(self, rules: Rules, rng: np.random.Generator | int) -> Fleet:
        """A legal fleet of ``rules`` drawn with ``rng`` (a numpy Generator, or a whole
        number to seed one, as ``random_fleet`` takes)."""
        rng = as_generator(rng)
        if self.kind == "mixture":
            weights = dict(self.settled(rules).parts)
            names, cumulative = list(weights), np.cumsum(list(weights.values()))
            pick = np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")
            # (a total of a few subnormals can round the draw up to it: the last part then)
            pick = min(pick, np.searchsorted(cumulative, cumulative[-1]))
            return PLACERS[names[pick]].place(rules, rng)
        chosen = random_placements(as_rules(rules), rng)
        if self.kind != "uniform":
            _tilt(rules, chosen, self.kind, self.strength, rng)
        return placed_fleet(rules, chosen)

    def settled(self, rules: Rules) -> Placer:
        """This placer with its mixture's weights for ``rules`` filled in."""
        if self.kind != "mixture" or self.parts:
            return self
        return replace(self, parts=tuple(mixture_weights(as_rules(rules)).items()))


PLACERS = {
    placer.name: placer
    for placer in (
        Placer("uniform", "every legal fleet equally likely"),
        Placer("edges", "ships along the edges and in the corners", "edges", 3.0),
        Placer("anti-density", "ships where the density shooter looks last", "density", 3.0),
        Placer("spread", "ships far apart from each other", "spread", 1.5),
        Placer("clustered", "ships side by side in clusters", "clustered", 1.5),
        Placer("mixed", "one of the four above (classic, Russian: tuned weights)", "mixture"),
    )
}
TILTED = ("edges", "anti-density", "spread", "clustered")
# ``tuned_weights`` of the presets, kept so that ``mixed`` needs no tournament to start.
TUNED = {
    Rules.classic().describe(): {
        "edges": 0.66,
        "anti-density": 0.26,
        "spread": 0.07,
        "clustered": 0.0,
    },
    Rules.russian().describe(): {
        "edges": 0.01,
        "anti-density": 0.99,
        "spread": 0.0,
        "clustered": 0.0,
    },
}


def get_placer(name: str) -> Placer:
    """The placer named ``name`` (any case), or with settings in brackets, named so: a
    tilted placer's ``strength``, a mixture's weight of each of its parts.

    >>> get_placer("Uniform").summary
    'every legal fleet equally likely'
    >>> get_placer("edges(strength=6)").strength, get_placer("mixed(spread=1, edges=3)").parts
    (6.0, (('edges', 3.0), ('spread', 1.0)))
    >>> get_placer("mixed(mixed=1)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: a mixture draws from the tilted ... not from mixed
    """
    if isinstance(name, str) and name_key(name) in PLACERS:
        return PLACERS[name_key(name)]
    base, settings = read_named(name) if isinstance(name, str) else (name, {})
    if not isinstance(base, str) or name_key(base) not in PLACERS:
        raise BattleshipError(f"unknown placer {quoted(base)}; choose one of: {', '.join(PLACERS)}")
    placer = PLACERS[name_key(base)]
    if not settings:
        return placer
    if placer.kind == "mixture":  # weights in the registry's order: one name for each mixture
        order = sorted(
            settings, key=lambda part: list(PLACERS).index(part) if part in PLACERS else -1
        )
        parts = {part: decimal(setting_value(part, settings[part])) for part in order}
        return replace(placer, name=written_named(placer.name, parts), parts=tuple(parts.items()))
    if placer.kind == "uniform" or set(settings) != {"strength"}:
        takes = "no settings" if placer.kind == "uniform" else "one setting, strength"
        raise BattleshipError(f"the {placer.name} placer takes {takes}, not {quoted(name)}")
    strength = decimal(setting_value("strength", settings["strength"]))
    if type(strength) is float and strength == placer.strength:
        return placer
    return replace(
        placer, name=written_named(placer.name, {"strength": strength}), strength=strength
    )


def as_placer(placer: str | Placer) -> Placer:
    """A placer given by name or as itself."""
    return placer if isinstance(placer, Placer) else get_placer(placer)


def mixture_weights(rules: Rules) -> dict[str, float]:
    """The weights of ``mixed`` under ``rules``: the tuned ones of the classic and Russian
    rules, equal ones under any other.

    >>> mixture_weights(Rules.custom(6, [3, 2]))
    {'edges': 0.25, 'anti-density': 0.25, 'spread': 0.25, 'clustered': 0.25}
    """
    return dict(TUNED.get(as_rules(rules).game, dict.fromkeys(TILTED, 0.25)))


def tuned_weights(rules: Rules) -> dict[str, float]:
    """The weights of ``mixed`` under ``rules``: the mixture of the tilted placers whose
    mean shots against the best of ``TUNED_AGAINST`` is highest, over games
    1..``TUNE_GAMES`` (a tournament, then ``best_mixture``; once per rules)."""
    return _tuned_weights(as_rules(rules))


@cache
def _tuned_weights(rules: Rules) -> dict[str, float]:
    from .tournament import best_mixture, tournament  # (the tournament plays placers)

    table = tournament(rules, list(TUNED_AGAINST), list(TILTED), games=TUNE_GAMES)
    return best_mixture(table)


def _tilt(rules: Rules, chosen: np.ndarray, kind: str, strength: float, rng) -> None:
    """Gibbs sweeps over the ships of ``chosen`` (placement indices, changed in place)."""
    table = placement_table(rules)
    blocks = table.masks if rules.touching else table.zone_masks
    unary = _unary(rules, kind) if kind in ("edges", "density") else None
    for _ in range(SWEEPS):
        for i, ship in enumerate(rules.fleet):
            others = np.delete(chosen, i)
            lo, hi = table.ranges[ship.length]
            blocked = np.bitwise_or.reduce(blocks[others], axis=0)
            legal = lo + np.flatnonzero(~(table.masks[lo:hi] & blocked).any(axis=1))
            if unary is not None:
                score = unary[legal]
            else:
                score = _nearest(rules, table.cells[others], table.cells[legal])
                score = -score if kind == "spread" else score
            with np.errstate(over="ignore"):  # a huge strength: e^(−∞) = 0 is right
                weight = np.cumsum(np.exp(-strength * (score - score.min())))
            chosen[i] = legal[np.searchsorted(weight, rng.random() * weight[-1], side="right")]


@cache
def _unary(rules: Rules, kind: str) -> np.ndarray:
    """Per placement, the sum of its cells' scores (each 0 to 1)."""
    rows, cols = np.divmod(np.arange(rules.cells), rules.cols)
    if kind == "edges":
        cell = np.minimum.reduce([rows, cols, rules.rows - 1 - rows, rules.cols - 1 - cols])
    else:
        cell = np.array(density(Observation.start(rules), check=False).d, float)
    cell = (cell - cell.min()) / max(cell.max() - cell.min(), 1)
    cells = placement_table(rules).cells
    return np.where(cells >= 0, cell[cells], 0).sum(axis=1)


def _nearest(rules: Rules, others: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Per candidate placement, the king-move distance from its cells to the nearest
    cell of ``others`` (both as padded rows of cells)."""
    apart, others = _apart(rules), others[others >= 0]
    if not len(others):
        return np.zeros(len(candidates))  # a fleet of one ship
    near = apart[:, others].min(axis=1)
    return np.where(candidates >= 0, near[candidates], apart.max()).min(axis=1)


@cache
def _apart(rules: Rules) -> np.ndarray:
    """King-move distance between every two cells."""
    rows, cols = np.divmod(np.arange(rules.cells), rules.cols)
    return np.maximum(abs(rows[:, None] - rows), abs(cols[:, None] - cols))
