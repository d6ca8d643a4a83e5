"""Whether any layout of the afloat ships fits the marks: a depth-first search for one.

Ships go first where an open hit needs one (the lowest uncovered hit, every afloat length
through it), then the rest anywhere free, longest first. Ships keep out of each other's
zones (their cells, and the cells around them where ships may not touch), so the open
hits a layout covers are exactly its ships' hits; a ship may not be open hits alone (it
would have been announced sunk). Hits that no one ship can cover two of need a ship
each, which bounds the search. It stops after ``budget`` placements tried, undecided.

>>> from hamle.battleship.observation import Observation
>>> fits(Observation.from_marks(Rules.classic(), hit=["A1", "C3", "E5", "G7", "I9", "A10"]))
False
>>> layout = fits(Observation.from_marks(Rules.custom(4, [2, 1]), hit=["B2"]))
>>> sorted(len(ship) for ship in layout)
[1, 2]
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from .observation import HIT, UNKNOWN, Observation
from .rules import Rules, placement_table

BUDGET = 20_000
QUICK_BUDGET = 2_000  # placements of a check that must take milliseconds (density's count=False)


class _OutOfBudget(Exception):
    pass


def fits(
    observation: Observation, budget: int = BUDGET
) -> tuple[tuple[int, ...], ...] | bool | None:
    """A layout of the afloat ships that fits (the sorted cells of each ship), False when
    none does, None when ``budget`` placements did not decide it."""
    rules = observation.rules
    cells, bits, zones = _tables(rules)
    marks = observation.marks
    blocked = _bits(np.flatnonzero((marks != UNKNOWN) & (marks != HIT)))
    hits = _bits(observation.open_hits)
    lengths = np.array([len(c) for c in cells])
    usable = [
        p
        for p in range(len(cells))
        if not bits[p] & blocked and bits[p] & ~hits and lengths[p] in observation.afloat
    ]
    through: dict[int, list[int]] = {int(c): [] for c in observation.open_hits}
    by_length: dict[int, list[int]] = {}
    for p in usable:
        by_length.setdefault(int(lengths[p]), []).append(p)
        for c in cells[p]:
            if c in through:
                through[c].append(p)
    search = _Search(rules.cols, bits, zones, lengths, through, by_length, budget)
    try:
        found = search.place(Counter(observation.afloat), 0, hits, {})
    except _OutOfBudget:
        return None
    if found is None:
        return False
    return tuple(tuple(sorted(cells[p])) for p in found)


def ships_needed(cols: int, hits: list[int], longest: int) -> int:
    """How many ships at least cover ``hits`` on a board ``cols`` wide: a set of hits no
    ship of ``longest`` cells can cover two of (not in one row or column within reach)
    needs one ship each.

    >>> ships_needed(10, [0, 22, 44], 5), ships_needed(10, [0, 4, 5], 5)
    (3, 2)
    """
    apart: list[tuple[int, int]] = []
    for cell in hits:
        r, c = divmod(cell, cols)
        if all(
            not ((r == r2 and abs(c - c2) < longest) or (c == c2 and abs(r - r2) < longest))
            for r2, c2 in apart
        ):
            apart.append((r, c))
    return len(apart)


class _Search:
    def __init__(self, cols, bits, zones, lengths, through, by_length, budget):
        self.cols, self.bits, self.zones, self.lengths = cols, bits, zones, lengths
        self.through, self.by_length, self.left = through, by_length, budget

    def place(self, ships: Counter, taken: int, uncovered: int, last: dict) -> list | None:
        """Placements for ``ships`` clear of ``taken`` covering ``uncovered``, or None;
        ``last[n]``: the last placement given a ship of n cells among the free ones (equal
        ships go in increasing order, so each layout is tried once)."""
        self.left -= 1
        if self.left < 0:
            raise _OutOfBudget
        if not +ships:
            return [] if not uncovered else None
        if uncovered:
            open_hits = _cells(uncovered)
            longest = max(n for n, k in ships.items() if k)
            if ships_needed(self.cols, open_hits, longest) > sum(ships.values()):
                return None
            options = [p for p in self.through[open_hits[0]] if ships[self.lengths[p]]]
        else:
            longest = max(n for n, k in ships.items() if k)
            start = last.get(longest, -1)
            options = [p for p in self.by_length.get(longest, ()) if p > start]
        for p in options:
            if self.bits[p] & taken:
                continue
            n = int(self.lengths[p])
            ships[n] -= 1
            later = last if uncovered else {**last, n: p}
            rest = self.place(ships, taken | self.zones[p], uncovered & ~self.bits[p], later)
            ships[n] += 1
            if rest is not None:
                return [p, *rest]
        return None


def _cells(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _bits(cells) -> int:
    out = 0
    for cell in cells:
        out |= 1 << int(cell)
    return out


@cache
def _tables(rules: Rules) -> tuple[list[list[int]], list[int], list[int]]:
    """Per placement: its cells, and its cells and its zone as Python int bitboards."""
    table = placement_table(rules)
    cells = [[int(c) for c in row if c >= 0] for row in table.cells]
    zones = [_bits(c for c in row if c >= 0) for row in table.zone]
    return cells, [_bits(c) for c in cells], zones
