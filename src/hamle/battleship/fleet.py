"""Fleets: uniformly random legal fleets, and a hidden fleet that answers shots.

>>> from hamle.rng import game_stream, FLEET_STREAM
>>> fleet = random_fleet(Rules.classic(), game_stream(743, FLEET_STREAM))
>>> [len(cells) for cells in fleet.ships]
[5, 4, 3, 3, 2]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from hamle.grid import CellError, quoted

from . import _kernels
from .errors import CountTooLargeError, MarksError, RulesError, ShotError
from .exact import labelled, layouts, sample
from .observation import HIT, MISS, SUNK, WATER, Observation, draw, listed_cells
from .rules import Rules, as_rules, placement_table, segment, zone

# The trial that tells rules where rejection works (most) from those where it fails.
PILOT_SEED, PILOT_TRIES = 1, 200_000


@dataclass(frozen=True)
class Fleet:
    """Where each ship of ``rules.fleet`` lies: ``ships[i]`` is ship i's cells, sorted
    (given as indices or names), checked as ``from_cells`` checks them.

    >>> Fleet(Rules.custom(4, [2, 2]), ((0, 1), (1, 5)))
    Traceback (most recent call last):
    hamle.battleship.errors.RulesError: 2-cell ship 1 and 2-cell ship 2 overlap at B1
    """

    rules: Rules
    ships: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ships", _placed(as_rules(self.rules), self.ships))
        self.check()

    @classmethod
    def from_cells(cls, rules: Rules, ships: Iterable[Iterable[str | int]]) -> Fleet:
        """A fleet given ship by ship (in fleet order) as cell names or indices, checked.

        >>> Fleet.from_cells(Rules.custom(4, [2]), [["A1", "A2"]]).ships
        ((0, 4),)
        >>> Fleet.from_cells(Rules.custom(4, [2]), [[0, 1.5]])
        Traceback (most recent call last):
        hamle.battleship.errors.RulesError: 2-cell ship 1: 1.5 is not a cell (a name like E5, ...)
        """
        return cls(rules, ships)

    @classmethod
    def _unchecked(cls, rules: Rules, ships: tuple[tuple[int, ...], ...]) -> Fleet:
        """The fleet of sorted ``ships`` known to be legal, without checking them again
        (a fleet is drawn for every game of a run)."""
        out = object.__new__(cls)
        out.__dict__.update(rules=rules, ships=ships)
        return out

    def check(self) -> None:
        """Raise RulesError naming the ships that overlap (or touch, when forbidden)."""
        grid = self.rules.grid
        for i, first in enumerate(self.ships):
            blocked = zone(self.rules, first)
            for j in range(i + 1, len(self.ships)):
                clash = blocked.intersection(self.ships[j])
                if clash:
                    overlap = bool(set(first) & set(self.ships[j]))
                    raise RulesError(
                        "{ship} and {other} " + ("overlap" if overlap else "touch") + " at {cell}",
                        code="battleship.ships_overlap" if overlap else "battleship.ships_touch",
                        ship=self.rules.fleet[i].name,
                        other=self.rules.fleet[j].name,
                        cell=grid.name(min(clash)),
                    )

    def board(self) -> np.ndarray:
        """Per cell, the index of the ship on it, or -1."""
        out = np.full(self.rules.cells, -1, np.int64)
        for i, cells in enumerate(self.ships):
            out[list(cells)] = i
        return out

    def __str__(self) -> str:
        marks = np.where(self.board() >= 0, 3, 0).astype(np.uint8)
        return draw(self.rules.grid, marks)


def _placed(rules: Rules, ships) -> tuple[tuple[int, ...], ...]:
    """Each ship's cells (names or indices), sorted, if each is a straight line of its
    ship's length on the board; else RulesError naming the ship."""
    if isinstance(ships, str | bytes) or not isinstance(ships, Iterable):
        raise RulesError(
            "a fleet is a list of ships, each a list of cells, not {value}",
            code="battleship.fleet_not_a_list",
            value=quoted(ships),
        )
    groups = list(ships)
    if len(groups) != len(rules.fleet):
        raise RulesError(
            "the fleet has {ships} "
            + ("ship" if len(rules.fleet) == 1 else "ships")
            + (", {given} was given" if len(groups) == 1 else ", {given} were given"),
            code="battleship.ship_count",
            ships=len(rules.fleet),
            given=len(groups),
        )
    grid = rules.grid
    out = []
    for ship, group in zip(rules.fleet, groups, strict=True):
        try:
            cells = _cells(grid, group)
        except (CellError, MarksError) as exc:
            raise exc.recast(RulesError, ship.name) from None
        try:
            placed = segment(rules, cells)
        except RulesError as exc:
            raise exc.recast(RulesError, ship.name) from None
        if len(placed) != ship.length:
            raise RulesError(
                "{ship} is {length} cells long, not {given}",
                code="battleship.ship_length",
                ship=ship.name,
                length=ship.length,
                given=len(placed),
            )
        out.append(placed)
    return tuple(out)


def _cells(grid, group) -> list[int]:
    """The indices of a ship's cells (names, or whole-number indices of any integer type);
    CellError or MarksError naming the first that is not a cell."""
    return [grid.cell(cell) for cell in listed_cells(group)]


def random_fleet(rules: Rules, rng: np.random.Generator | int) -> Fleet:
    """A fleet drawn uniformly from all legal fleets of ``rules``, from ``rng`` (a numpy
    Generator, or a whole number to seed one)."""
    return placed_fleet(rules, random_placements(rules, rng))


def random_placements(rules: Rules, rng: np.random.Generator | int) -> np.ndarray:
    """``random_fleet`` as the index of each ship's placement in ``placement_table``.

    Whole fleets are redrawn until one is legal; where that would take too long (a
    tight fleet), the fleet is drawn exactly uniformly from the counting DP instead
    (``exact.sample``), seeded from ``rng`` all the same.
    """
    as_rules(rules)
    seed = int(as_generator(rng).integers(0, 2**63))
    if not _rejection_fails(rules):
        chosen = _rejection(rules, seed)
        if chosen[0] >= 0:
            return chosen
    return _counted(rules, seed)


def as_generator(rng: np.random.Generator | int) -> np.random.Generator:
    """``rng`` itself, or a Generator seeded with it if it is a whole number from 0.

    >>> as_generator(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.battleship.errors.RulesError: expected a numpy Generator or a seed ..., not -1
    """
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    if not isinstance(rng, np.random.Generator):
        raise RulesError(
            f"expected a numpy Generator or a seed (a whole number ≥ 0), not {quoted(rng)}"
        )
    return rng


def _rejection(rules: Rules, seed: int, tries: int = _kernels.MAX_FLEET_TRIES) -> np.ndarray:
    """The rejection kernel's fleet from ``seed`` (-1s when ``tries`` fleets all fail)."""
    table = placement_table(rules)
    starts = np.array([table.ranges[s.length][0] for s in rules.fleet], np.int64)
    stops = np.array([table.ranges[s.length][1] for s in rules.fleet], np.int64)
    check = table.cells if rules.touching else table.zone
    return _kernels.sample_fleet(
        table.cells, check, starts, stops - starts, rules.cells, seed, tries
    )


@cache
def _rejection_fails(rules: Rules) -> bool:
    """Whether fewer than one fleet in MAX_FLEET_TRIES drawn ship by ship is legal (so
    rejection would mostly give up). A function of the rules alone, so that a seed gives
    the same fleet in every process. A short trial settles most rules at once; the rest
    are counted exactly (unless that is out of reach: then rejection is tried)."""
    if _rejection(rules, PILOT_SEED, PILOT_TRIES)[0] >= 0:
        return False
    try:
        fleets = layouts(rules) * labelled(rules.lengths)
    except CountTooLargeError:
        return False
    table = placement_table(rules)
    drawn = math.prod(table.ranges[s.length][1] - table.ranges[s.length][0] for s in rules.fleet)
    return fleets * _kernels.MAX_FLEET_TRIES < drawn


def _counted(rules: Rules, seed: int) -> np.ndarray:
    """A fleet drawn exactly uniformly by the counting DP from ``seed``, as placements."""
    try:
        (fleet,) = sample(Observation.start(rules), 1, np.random.default_rng(seed))
    except CountTooLargeError as exc:
        raise RulesError(
            f"cannot draw a fleet for {rules.describe()}: fewer than one in "
            f"{_kernels.MAX_FLEET_TRIES:,} fleets drawn ship by ship is legal, and its legal "
            f"fleets are too many to draw one by counting them ({exc})"
        ) from None
    except MarksError as exc:
        raise exc.recast(RulesError, rules.describe()) from None
    index = _placement_index(rules)
    return np.array([index[cells] for cells in fleet], np.int64)


@cache
def _placement_index(rules: Rules) -> dict[tuple[int, ...], int]:
    """Each placement's index in ``placement_table``, by its sorted cells."""
    cells = placement_table(rules).cells.tolist()
    return {tuple(c for c in row if c >= 0): p for p, row in enumerate(cells)}


def placed_fleet(rules: Rules, placements) -> Fleet:
    """The fleet whose ship i lies on placement ``placements[i]`` of ``placement_table``."""
    table = placement_table(rules)
    ships = tuple(tuple(int(c) for c in table.cells[p] if c >= 0) for p in placements)
    return Fleet._unchecked(rules, ships)


@dataclass(frozen=True)
class Shot:
    """One shot and its answer; a ``sunk`` answer names the ship and its cells."""

    cell: int
    answer: str
    ship: str | None = None
    ship_cells: tuple[int, ...] = ()


def checked_shot(observation: Observation, cell, stored: bool = False) -> int:
    """``cell`` as a shot at ``observation`` may be: ShotError unless it is a cell index of
    the board not shot yet, nor known water (unless ``stored``, as ``Ocean.fire`` says).

    >>> obs = Observation.from_marks(Rules.custom(3, [1]), miss=["A1"])
    >>> checked_shot(obs, np.int64(4))
    4
    >>> checked_shot(obs, 0)
    Traceback (most recent call last):
    hamle.battleship.errors.ShotError: A1 has already been shot
    """
    rules = observation.rules
    if not isinstance(cell, int | np.integer) or isinstance(cell, bool | np.bool_):
        raise ShotError(f"{quoted(cell)} is not a cell index (a whole number)")
    if not 0 <= cell < rules.cells:
        raise ShotError(f"cell {quoted(cell)} is off the {rules.rows}×{rules.cols} board")
    cell = int(cell)
    mark = int(observation.marks[cell])
    if mark in (MISS, HIT, SUNK):
        raise ShotError(
            "{cell} has already been shot",
            code="battleship.already_shot",
            cell=rules.grid.name(cell),
        )
    if mark == WATER and not stored:
        near = next(s for s in observation.sunk if cell in zone(rules, s.cells))
        raise ShotError(
            "{cell} touches the sunk ship {ship}, so it is water: fire elsewhere",
            code="battleship.known_water",
            cell=rules.grid.name(cell),
            ship=near.named(rules.grid),
        )
    return cell


@dataclass
class Ocean:
    """A hidden fleet that answers shots and keeps the shooter's observation."""

    fleet: Fleet
    observation: Observation = field(init=False)
    _board: list[int] = field(init=False, repr=False)
    _left: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.fleet, Fleet):
            raise RulesError(
                "an Ocean hides a Fleet (like Fleet.from_cells(rules, ships) or "
                f"random_fleet(rules, rng)), not {quoted(self.fleet)}"
            )
        self.observation = Observation.start(self.fleet.rules)
        self._board = self.fleet.board().tolist()
        self._left = [len(cells) for cells in self.fleet.ships]

    @property
    def over(self) -> bool:
        return not any(self._left)

    def fire(self, cell: int, *, stored: bool = False) -> Shot:
        """Fire at ``cell`` (an index) and learn miss, hit or sunk. A cell already shot is
        refused, and so is known water (beside a sunk ship where ships may not touch),
        unless the shot is ``stored``: one of a game saved before water was refused, which
        was answered ``miss`` then and is replayed as such.

        >>> ocean = Ocean(Fleet.from_cells(Rules.custom(3, [1]), [["B2"]]))
        >>> ocean.fire(4)
        Shot(cell=4, answer='sunk', ship='1-cell ship 1', ship_cells=(4,))
        >>> apart = Rules.custom(3, [1, 1], touching=False)
        >>> ocean = Ocean(Fleet.from_cells(apart, [["A1"], ["C3"]]))
        >>> ocean.fire(0).answer
        'sunk'
        >>> ocean.fire(1)
        Traceback (most recent call last):
        hamle.battleship.errors.ShotError: B1 touches the sunk ship A1, so it is water: ...
        """
        rules = self.fleet.rules
        if self.over:
            raise ShotError("the game is over: every ship is sunk", code="battleship.all_sunk")
        cell = checked_shot(self.observation, cell, stored)
        ship = self._board[cell]
        if ship < 0:
            shot = Shot(cell, "miss")
        else:
            self._left[ship] -= 1
            if self._left[ship]:
                shot = Shot(cell, "hit")
            else:
                shot = Shot(cell, "sunk", rules.fleet[ship].name, self.fleet.ships[ship])
        self.observation = self.observation.after(cell, shot.answer, shot.ship_cells)
        return shot
