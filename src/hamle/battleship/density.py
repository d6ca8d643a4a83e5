"""Probability density with weighted hits (the Hard shooter's arithmetic, spec § 3).

>>> from hamle.battleship.observation import Observation
>>> report = density(Observation.from_marks(Rules.classic(), hit=["E5"]))
>>> report.w, report.at("F5"), report.at("E4"), report.best_names
(35, 442, 441, ['F5', 'E6'])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from hamle.grid import quoted

from . import _kernels
from .errors import CountTooLargeError, MarksError
from .fits import BUDGET, QUICK_BUDGET, fits, ships_needed
from .observation import UNKNOWN, Observation, afloat_list, as_observation
from .rules import Rules, placement_table

INT64_LIMIT = 2**63
NO_LAYOUT = "no layout of the afloat ships fits these marks"


@dataclass(frozen=True, eq=False)
class DensityMap:
    """d for every cell (0 where shot or known water), the weight w and the best cells.

    ``counts[k, cell]`` is the number of consistent placements covering the cell with
    k open hits, so d = Σ counts[k] · w^k; ``d`` is int64 when it fits, else Python ints.
    ``undecided``: whether a layout fits the marks was out of reach (of the search, and of
    the exact count unless it was left out), so the map may be of marks no layout fits.
    """

    observation: Observation
    w: int
    counts: np.ndarray
    d: np.ndarray
    best: tuple[int, ...]
    undecided: bool = False

    def at(self, cell: str | int) -> int:
        """d of a cell given as a name or an index; CellError for anything else.

        >>> density(Observation.from_marks(Rules.classic(), hit=["E5"])).at(-1)
        Traceback (most recent call last):
        hamle.grid.CellError: cell index -1 is off the 10×10 board
        """
        return int(self.d[self.observation.grid.cell(cell)])

    @property
    def best_names(self) -> list[str]:
        return [self.observation.grid.name(c) for c in self.best]

    def as_dict(self) -> dict:
        grid = self.observation.grid
        unshot = self.observation.unshot
        return {
            "w": self.w,
            "density": {grid.name(int(c)): int(self.d[c]) for c in unshot},
            "best": self.best_names,
            "best_d": int(self.d[self.best[0]]) if self.best else 0,
            "undecided": self.undecided,
        }


def weight(afloat) -> int:
    """w = 1 + 2 · (sum of afloat lengths), the lengths given as whole numbers of at
    least 1 (like ``observation.afloat``).

    >>> weight([5, 4, 3, 3, 2])
    35
    >>> weight([5, -100])
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: a ship length is a whole number of at least 1, not -100
    """
    if isinstance(afloat, Observation):
        raise MarksError(
            "weight takes the afloat lengths, like weight(observation.afloat), not an Observation"
        )
    lengths = afloat_list(afloat)
    for length in lengths:
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise MarksError(f"a ship length is a whole number of at least 1, not {quoted(length)}")
    return 1 + 2 * sum(lengths)


def density(observation: Observation, check: bool = True, count: bool = True) -> DensityMap:
    """The density map of an observation; with ``check``, marks no afloat ship can
    explain raise MarksError naming the cell or ship. Whether any layout fits is searched
    for and, where the search leaves it open, counted exactly (seconds on an open board);
    with ``count`` False the search is cut short (milliseconds) and a map it leaves open is
    ``undecided`` instead.

    >>> obs = Observation.from_marks(Rules.classic(), miss=["E5"])
    >>> density(obs).best_names, density(obs, count=False).undecided
    (['F6'], False)
    """
    rules = as_observation(observation).rules
    for name, value in (("check", check), ("count", count)):
        if not isinstance(value, bool | np.bool_):
            raise MarksError(f"{name} is True or False, not {quoted(value)}")
    marks = observation.marks
    afloat = Counter(observation.afloat)
    open_hits = observation.open_hits
    w = weight(observation.afloat)
    if check and len(open_hits):
        if not afloat:
            name = observation.grid.name(int(open_hits[0]))
            raise MarksError(
                "hit at {cell}, but no ship is afloat to explain it",
                code="battleship.hit_none_afloat",
                cell=name,
            )
        cells = sum(observation.afloat)
        if len(open_hits) > cells:
            raise MarksError(
                "{hits} open hits, but the afloat ships have only {cells} "
                + ("cell" if cells == 1 else "cells"),
                code="battleship.too_many_hits",
                hits=len(open_hits),
                cells=cells,
            )
        check_corners(observation)
    if not afloat:
        zeros = np.zeros(rules.cells, np.int64)
        return DensityMap(observation, w, zeros[None, :], zeros, ())
    counts, consistent = _counts(rules, marks, afloat)
    if check:
        # A hit no ship can cover is named first: where it is what leaves a ship no room
        # (a 1-cell ship on a 1×1 board with its hit), the hit is the clearer fault.
        covered = counts[:, open_hits].sum(axis=0)
        for cell, cover in zip(open_hits, covered, strict=True):
            if cover == 0:
                name = observation.grid.name(int(cell))
                raise MarksError(
                    "no afloat ship can explain the hit at {cell}",
                    code="battleship.hit_unexplained",
                    cell=name,
                )
        for length, placed in zip(sorted(afloat, reverse=True), consistent, strict=True):
            if placed == 0:
                raise MarksError(
                    "no room left on the board for the afloat {length}-cell ship",
                    code="battleship.no_room",
                    length=length,
                )
    undecided = check and not check_fits(observation, count)
    d = combine(counts, w)
    unknown = marks == UNKNOWN
    d = np.where(unknown, d, 0)
    best = ()
    if unknown.any():
        top = max(d[unknown])
        best = tuple(int(c) for c in np.flatnonzero(unknown & (d == top)))
    return DensityMap(observation, w, counts, d, best, undecided)


def check_corners(observation: Observation) -> None:
    """MarksError naming two open hits that touch only at a corner: where ships may not
    touch, no ship can hold both and two ships holding them would touch.

    >>> check_corners(Observation.from_marks(Rules.russian(), hit=["B1", "A2"]))
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: the open hits B1 and A2 touch only at a corner, but ...
    """
    if observation.rules.touching:
        return
    grid = observation.grid
    hits = set(observation.open_hits.tolist())
    for cell in sorted(hits):
        row, col = divmod(cell, grid.cols)
        if row + 1 == grid.rows:
            continue
        for other_col in (col - 1, col + 1):
            other = cell + grid.cols + other_col - col
            if 0 <= other_col < grid.cols and other in hits:
                raise MarksError(
                    "the open hits {cell} and {other} touch only at a corner, but ships may "
                    "not touch",
                    code="battleship.hits_touch_corner",
                    cell=grid.name(cell),
                    other=grid.name(other),
                )


def check_fits(observation: Observation, count: bool = True) -> bool:
    """MarksError unless some layout of the afloat ships fits the marks (``fits``, else
    with ``count`` the exact count where the search leaves it open and the board can be
    counted); False where that is out of reach (undecided), else True. Without ``count``
    the search is cut short too (``QUICK_BUDGET``), so the check takes milliseconds."""
    from .exact import occupancy  # (exact imports this module)

    found = fits(observation, BUDGET if count else QUICK_BUDGET)
    if found is None:
        if not count:
            return False
        sunk = tuple(ship.length for ship in observation.sunk)
        try:
            total, _ = occupancy(observation.rules, observation.marks, observation.afloat, sunk)
        except CountTooLargeError:
            return False
        found = total > 0
    if found:
        return True
    hits = [int(c) for c in observation.open_hits]
    needed = ships_needed(observation.rules.cols, hits, max(observation.afloat))
    if needed > len(observation.afloat):
        afloat = len(observation.afloat)
        raise MarksError(
            "the open hits {hits} need at least {needed} ships, but {afloat} "
            + ("is" if afloat == 1 else "are")
            + " afloat",
            code="battleship.hits_need_ships",
            hits=", ".join(observation.grid.name(c) for c in hits),
            needed=needed,
            afloat=afloat,
        )
    if not observation.marks.any():
        raise MarksError(
            "the ships {afloat} cannot all be placed on this board, even with no marks",
            code="battleship.fleet_does_not_fit",
            afloat=",".join(map(str, observation.afloat)),
        )
    raise MarksError(NO_LAYOUT, code="battleship.no_layout")


def combine(counts: np.ndarray, w: int) -> np.ndarray:
    """d = Σ_k counts[k] · w^k exactly: int64 when it cannot overflow, else Python ints."""
    top = counts.shape[0] - 1
    exact = int(counts.max(initial=0)) * (w ** (top + 1)) < INT64_LIMIT
    d = counts[top].astype(np.int64 if exact else object)
    for k in range(top - 1, -1, -1):
        d = d * w + counts[k]
    return d


def _counts(rules: Rules, marks: np.ndarray, afloat: Counter) -> tuple[np.ndarray, np.ndarray]:
    table = placement_table(rules)
    lengths = sorted(afloat, reverse=True)
    starts = np.array([table.ranges[n][0] for n in lengths], np.int64)
    stops = np.array([table.ranges[n][1] for n in lengths], np.int64)
    multiplicity = np.array([afloat[n] for n in lengths], np.int64)
    marks = np.ascontiguousarray(marks)
    return _kernels.density_counts(
        table.cells, table.lengths, starts, stops, multiplicity, marks, lengths[0] - 1
    )


def best_cells(observation: Observation) -> np.ndarray | tuple[int, ...]:
    """The unshot cells of greatest d in increasing order (the Hard shooter's choice), as
    ``density(observation, check=False).best`` finds them, from one bitboard kernel call
    (or from ``density`` itself when d could outgrow int64).

    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"])
    >>> [obs.grid.name(int(c)) for c in best_cells(obs)]
    ['D5', 'G5']
    """
    if not observation.afloat:
        return ()
    plan = kernel_plan(observation.rules, observation.afloat)
    if not plan.fits:
        return density(observation, check=False).best
    return _kernels.density_best(observation.marks, plan.cells, plan.masks, plan.groups)


@dataclass(frozen=True, eq=False)
class KernelPlan:
    """What the bitboard density kernel needs for one afloat fleet: the placement table's
    ``cells`` and ``masks``, and ``groups`` = [w, then start, stop, multiplicity, length
    for each afloat length]. No board gives a d above ``bound``; ``fits`` says d is sure to
    fit in int64."""

    cells: np.ndarray
    masks: np.ndarray
    groups: np.ndarray
    bound: int

    @property
    def fits(self) -> bool:
        return self.bound < INT64_LIMIT


@lru_cache(maxsize=4096)
def kernel_plan(rules: Rules, afloat: tuple[int, ...]) -> KernelPlan:
    """The kernel plan of ``afloat`` under ``rules`` (computed once per afloat fleet).

    >>> plan = kernel_plan(Rules.classic(), (5, 4, 3, 3, 2))
    >>> plan.groups.tolist()[:5], plan.fits
    ([35, 0, 120, 1, 5], True)
    """
    table = placement_table(rules)
    ships = Counter(afloat)
    groups = [weight(afloat)]
    cover = np.zeros(rules.cells, np.int64)
    for length in sorted(ships, reverse=True):
        start, stop = table.ranges[length]
        groups += [start, stop, ships[length], length]
        cells = table.cells[start:stop, :length].ravel()
        cover += ships[length] * np.bincount(cells, minlength=rules.cells)
    # No count can exceed the empty board's, so this bound implies combine()'s int64 test
    # on every board with these ships afloat, and then d is exact in int64.
    bound = int(cover.max(initial=0)) * weight(afloat) ** max(afloat, default=0)
    return KernelPlan(table.cells, table.masks, np.array(groups, np.int64), bound)
