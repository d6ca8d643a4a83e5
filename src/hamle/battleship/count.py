"""Exact fleet counting (spec § 2): by the profile DP of ``exact`` under no-touch rules
and where enumeration would take longer, otherwise by enumeration (an independent check of
the DP on boards such as the classic one).

Enumeration places ships longest first; the last two ships are counted as pairs with bitsets
instead of being enumerated, and equal ships take increasing placements, so each set
of equal ships is visited once (``layouts``) and multiplied by m! for ``fleets``.

>>> result = count_fleets(Rules.custom(4, [2, 2]))
>>> result.fleets, result.layouts, result.placements, result.product
(448, 224, (24, 24), 576)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hamle.cluster import checked_jobs, checked_progress, local_pool

from . import _kernels, exact
from .errors import BattleshipError, CountTooLargeError
from .rules import Rules, as_rules, placement_table

ENUMERATE_LIMIT = 2_000_000_000  # enumeration steps (the classic board's 0.9e9: 2.4 s) past
# which the profile DP counts instead, sooner, where it can
WORK_LIMIT = 50_000_000_000  # enumeration steps at most (a few minutes)


@dataclass(frozen=True)
class FleetCount:
    """Exact counts: ``fleets`` with ships labelled, ``layouts`` with equal ships alike."""

    rules: Rules
    fleets: int
    layouts: int
    placements: tuple[int, ...]
    product: int

    @property
    def ratio(self) -> float:
        """Share of the overlap-allowed product that is legal."""
        return self.fleets / self.product

    def as_dict(self) -> dict:
        return {
            "rules": self.rules.describe(),
            "fleets": self.fleets,
            "layouts": self.layouts,
            "placements": {
                ship.name: n for ship, n in zip(self.rules.fleet, self.placements, strict=True)
            },
            "product": self.product,
            "ratio": self.ratio,
        }


@dataclass(frozen=True, eq=False)
class _Problem:
    occ: np.ndarray
    zone: np.ndarray
    starts: np.ndarray
    stops: np.ndarray
    after_previous: np.ndarray
    conflicts: np.ndarray

    def count_from(self, firsts: range) -> int:
        return sum(
            int(
                _kernels.count_from_first(
                    first,
                    self.occ,
                    self.zone,
                    self.starts,
                    self.stops,
                    self.after_previous,
                    self.conflicts,
                )
            )
            for first in firsts
        )


ADVICE = "; try a smaller board or fleet"


def _nor_enumerated(refused: CountTooLargeError, work: float) -> CountTooLargeError:
    """The profile DP's refusal in its own words (as ``density --exact`` gives it, with its
    code and values), then that enumerating would take ``work`` steps, too many.

    >>> refused = CountTooLargeError("{cols} across" + ADVICE, code="battleship.too_wide", cols=16)
    >>> error = _nor_enumerated(refused, 3e11)
    >>> str(error).split("; "), error.code
    (['16 across', 'enumerating the fleets instead would take about 3.0e+11 steps, too many \
to finish', 'try a smaller board or fleet'], 'battleship.too_wide')
    """
    steps = f"{work:.1e}"
    tail = "; enumerating the fleets instead would take about {steps} steps, too many to finish"
    if not refused.code:  # (its message is its template as it stands)
        template = str(refused).removesuffix(ADVICE).replace("{", "{{").replace("}", "}}")
        return CountTooLargeError((template + tail + ADVICE).format(steps=steps))
    template = refused.template.removesuffix(ADVICE) + tail + ADVICE
    return CountTooLargeError(template, code=refused.code, **refused.params, steps=steps)


def count_fleets(
    rules: Rules, jobs: int = 1, progress: Callable[[int, int], None] | None = None
) -> FleetCount:
    """Count every legal fleet of ``rules`` exactly; when enumerating, ``progress(done,
    total)`` is called as first-ship placements finish. Raises CountTooLargeError when
    the board is out of the DP's reach. ``jobs`` is 1 to 64 processes.

    >>> count_fleets(Rules.custom(12, [1] * 6)).layouts  # by the DP: C(144, 6)
    11143364232
    >>> count_fleets(Rules.classic(), jobs=0)
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: jobs must be from 1 to 64, not 0
    """
    as_rules(rules)
    jobs = checked_jobs(jobs, BattleshipError)
    checked_progress(progress, "done, total", BattleshipError)
    table = placement_table(rules)
    lengths = sorted(rules.lengths, reverse=True)
    per_ship = tuple(table.ranges[n][1] - table.ranges[n][0] for n in rules.lengths)
    product = math.prod(per_ship)
    symmetry = math.prod(math.factorial(m) for m in Counter(lengths).values())
    if len(lengths) == 1:
        layouts = per_ship[0]
        return FleetCount(rules, layouts * symmetry, layouts, per_ship, product)
    work = _work(lengths, table) if rules.touching else 0
    if not rules.touching or work > ENUMERATE_LIMIT:
        try:
            layouts = exact.layouts(rules)
            return FleetCount(rules, layouts * symmetry, layouts, per_ship, product)
        except CountTooLargeError as refused:
            if work <= ENUMERATE_LIMIT:
                raise
            if work > WORK_LIMIT:
                raise _nor_enumerated(refused, work) from None
    problem = _problem(rules, lengths, table)
    firsts = range(int(problem.starts[0]), int(problem.stops[0]))
    chunks = [firsts[i : i + 4] for i in range(0, len(firsts), 4)]
    layouts = 0
    if jobs > 1:
        with local_pool(jobs, tasks=len(chunks)) as pool:
            for done, part in enumerate(pool.map(problem.count_from, chunks), 1):
                layouts += part
                if progress:
                    progress(done, len(chunks))
    else:
        for done, chunk in enumerate(chunks, 1):
            layouts += problem.count_from(chunk)
            if progress:
                progress(done, len(chunks))
    return FleetCount(rules, layouts * symmetry, layouts, per_ship, product)


def _work(lengths: list[int], table) -> float:
    """About how many steps enumeration takes: the partial fleets of all ships but the
    last two, times the placements of those two."""
    sizes = [table.ranges[n][1] - table.ranges[n][0] for n in lengths]
    enumerated = Counter(lengths[:-2])
    nodes = math.prod(sizes[:-2]) / math.prod(math.factorial(m) for m in enumerated.values())
    return nodes * (sizes[-2] + sizes[-1])


def _bitsets(rows: np.ndarray, width: int) -> np.ndarray:
    """Rows of cell (or placement) indices padded with -1, as little-endian uint64 bitsets."""
    words = (width + 63) // 64
    flags = np.zeros((rows.shape[0], words * 64), bool)
    for j in range(rows.shape[1]):
        valid = rows[:, j] >= 0
        flags[np.flatnonzero(valid), rows[valid, j]] = True
    return np.packbits(flags, axis=1, bitorder="little").view(np.uint64).copy()


def _problem(rules: Rules, lengths: list[int], table) -> _Problem:
    starts = np.array([table.ranges[n][0] for n in lengths], np.int64)
    stops = np.array([table.ranges[n][1] for n in lengths], np.int64)
    after_previous = np.array([i > 0 and lengths[i] == lengths[i - 1] for i in range(len(lengths))])
    occ = _bitsets(table.cells, rules.cells)
    zone = _bitsets(table.zone, rules.cells)
    a = range(int(starts[-2]), int(stops[-2]))
    b = range(int(starts[-1]), int(stops[-1]))
    occ_b = np.zeros((len(b), rules.cells), bool)
    zone_a = np.zeros((len(a), rules.cells), bool)
    for i, p in enumerate(b):
        occ_b[i, table.cells[p][table.cells[p] >= 0]] = True
    for i, p in enumerate(a):
        zone_a[i, table.zone[p][table.zone[p] >= 0]] = True
    clash = (zone_a.astype(np.int32) @ occ_b.T.astype(np.int32)) > 0
    if after_previous[-1]:
        clash |= np.arange(len(b))[None, :] <= np.arange(len(a))[:, None]
    columns = np.where(clash, np.arange(len(b))[None, :], -1)
    conflicts = _bitsets(columns, len(b))
    return _Problem(occ, zone, starts, stops, after_previous, conflicts)
