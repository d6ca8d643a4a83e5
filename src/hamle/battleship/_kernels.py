"""Numba kernels of the Battleship engine. Each has a plain-Python twin in the tests.

Marks follow ``observation``: 0 unknown, 1 miss, 2 open hit, 3 sunk, 4 water.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
MAX_FLEET_TRIES = 20_000_000


@njit(cache=True)
def splitmix64(state):
    """Advance ``state`` (a one-element uint64 array) and return the next 64 bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below(state, n):
    """A uniform integer in [0, n), without modulo bias."""
    bound = np.uint64(n)
    limit = _ALL - (_ALL % bound)
    while True:
        x = splitmix64(state)
        if x < limit:
            return np.int64(x % bound)


@njit(cache=True)
def sample_fleet(cells, check, starts, counts, n_cells, seed):
    """Placement indices of a uniformly random legal fleet, or -1s after too many tries.

    Ship i takes a uniform placement in ``starts[i] .. starts[i] + counts[i]``; the whole
    fleet is redrawn as soon as a ship's ``check`` cells meet an occupied cell, which keeps
    every legal fleet equally likely.
    """
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed)
    n = starts.shape[0]
    occupied = np.zeros(n_cells, np.bool_)
    chosen = np.full(n, -1, np.int64)
    for _ in range(MAX_FLEET_TRIES):
        occupied[:] = False
        ok = True
        for i in range(n):
            p = starts[i] + below(state, counts[i])
            for j in range(check.shape[1]):
                c = check[p, j]
                if c < 0:
                    break
                if occupied[c]:
                    ok = False
                    break
            if not ok:
                break
            for j in range(cells.shape[1]):
                c = cells[p, j]
                if c < 0:
                    break
                occupied[c] = True
            chosen[i] = p
        if ok:
            return chosen
    chosen[:] = -1
    return chosen


@njit(cache=True)
def density_counts(cells, lengths, starts, stops, multiplicity, marks, top):
    """counts[k, cell]: consistent placements covering ``cell`` with k open hits, each ship
    counted ``multiplicity`` times, over the placement ranges of the afloat lengths; and
    the number of consistent placements per range."""
    counts = np.zeros((top + 1, marks.shape[0]), np.int64)
    consistent = np.zeros(starts.shape[0], np.int64)
    for g in range(starts.shape[0]):
        weight = multiplicity[g]
        for p in range(starts[g], stops[g]):
            length = lengths[p]
            k = 0
            ok = True
            for j in range(length):
                mark = marks[cells[p, j]]
                if mark == 2:
                    k += 1
                elif mark != 0:
                    ok = False
                    break
            if not ok or k == length:
                continue
            consistent[g] += 1
            for j in range(length):
                counts[k, cells[p, j]] += weight
    return counts, consistent


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _disjoint(a, b):
    for w in range(a.shape[0]):
        if a[w] & b[w]:
            return False
    return True


@njit(cache=True)
def _count_pairs(blocked, low, occ, starts, stops, conflicts, scratch):
    """Pairs (a, b) for the last two ships, both clear of ``blocked`` and of each other;
    a starts at ``low``. ``conflicts[a]`` is a bitset over b's placements that a excludes."""
    n = starts.shape[0]
    start_a, stop_a = starts[n - 2], stops[n - 2]
    start_b, stop_b = starts[n - 1], stops[n - 1]
    scratch[:] = 0
    for b in range(start_b, stop_b):
        if _disjoint(occ[b], blocked):
            bit = b - start_b
            scratch[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    total = 0
    for a in range(low, stop_a):
        if _disjoint(occ[a], blocked):
            row = conflicts[a - start_a]
            for w in range(scratch.shape[0]):
                total += _popcount(scratch[w] & ~row[w])
    return total


@njit(cache=True)
def count_from_first(first, occ, zone, starts, stops, after_previous, conflicts):
    """Fleets (at least two ships) whose first ship takes placement ``first``.

    Ships come longest first; a ship of the same length as the one before it takes a
    later placement (``after_previous``), so equal ships are counted once per set.
    ``occ`` and ``zone`` are cell bitsets per placement.
    """
    n = starts.shape[0]
    words = occ.shape[1]
    scratch = np.zeros(conflicts.shape[1], np.uint64)
    if n == 2:
        total = 0
        low = first + 1 if after_previous[1] else starts[1]
        for b in range(low, stops[1]):
            if _disjoint(occ[b], zone[first]):
                total += 1
        return total
    blocked = np.zeros((n, words), np.uint64)
    blocked[1] = zone[first]
    if n == 3:
        low = first + 1 if after_previous[1] else starts[1]
        return _count_pairs(blocked[1], low, occ, starts, stops, conflicts, scratch)
    position = np.zeros(n, np.int64)
    position[1] = first if after_previous[1] else starts[1] - 1
    depth = 1
    total = 0
    while depth >= 1:
        position[depth] += 1
        p = position[depth]
        if p >= stops[depth]:
            depth -= 1
            continue
        if not _disjoint(occ[p], blocked[depth]):
            continue
        for w in range(words):
            blocked[depth + 1, w] = blocked[depth, w] | zone[p, w]
        if depth + 1 == n - 2:
            low = p + 1 if after_previous[n - 2] else starts[n - 2]
            total += _count_pairs(blocked[depth + 1], low, occ, starts, stops, conflicts, scratch)
        else:
            depth += 1
            position[depth] = p if after_previous[depth] else starts[depth] - 1
    return total
