"""Numba kernels of the tour engine. Each has a plain-Python twin in the tests.

A position is two 64-bit words of visited cells (0-63, 64-99), the current cell and the
count of filled cells; ``targets[cell]`` lists its jumps (-1 padded) in jump order.
The two called from Python (``rollouts``, ``search``) let go of the GIL while they run, so
that a hint worked out on a thread of the site holds up no other request.
"""

import numpy as np
from numba import njit

_MASK = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
FULL = 100
SEEN_EMPTY = 10  # positions with fewer empty cells are too quick to search to remember


@njit(cache=True, inline="always")
def _random(state):
    """Mulberry32: advance ``state`` (uint64[1] holding 32 bits), return a float in [0, 1)."""
    s = (state[0] + np.uint64(0x6D2B79F5)) & _MASK
    state[0] = s
    t = ((s ^ (s >> np.uint64(15))) * (s | _ONE)) & _MASK
    t = t ^ ((t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & _MASK)) & _MASK)
    return np.float64((t ^ (t >> np.uint64(14))) & _MASK) / 4294967296.0


@njit(cache=True, inline="always")
def _filled(lo, hi, cell):
    if cell < 64:
        return (lo >> np.uint64(cell)) & _ONE
    return (hi >> np.uint64(cell - 64)) & _ONE


@njit(cache=True, inline="always")
def _fill(lo, hi, cell):
    if cell < 64:
        return lo | (_ONE << np.uint64(cell)), hi
    return lo, hi | (_ONE << np.uint64(cell - 64))


@njit(cache=True, inline="always")
def _empty(lo, hi, cell):
    if cell < 64:
        return lo & ~(_ONE << np.uint64(cell)), hi
    return lo, hi & ~(_ONE << np.uint64(cell - 64))


@njit(cache=True, inline="always")
def _degree(lo, hi, cell, targets):
    n = 0
    for k in range(targets.shape[1]):
        t = targets[cell, k]
        if t >= 0 and _filled(lo, hi, t) == 0:
            n += 1
    return n


@njit(cache=True)
def finish(lo, hi, cell, count, targets, state, path):
    """Play on with Warnsdorff's rule to the end, writing the moves into ``path``;
    return the final count. Ties between moves of least onward degree go to
    ``candidates[floor(random() · n)]``, a draw made even when n = 1 (as the seed does)."""
    lo = np.uint64(lo)
    hi = np.uint64(hi)
    picks = np.empty(targets.shape[1], np.int64)
    played = 0
    while True:
        least = 99
        n = 0
        for k in range(targets.shape[1]):
            t = targets[cell, k]
            if t < 0 or _filled(lo, hi, t):
                continue
            d = _degree(lo, hi, t, targets)
            if d < least:
                least = d
                n = 0
            if d == least:
                picks[n] = t
                n += 1
        if n == 0:
            return count
        cell = picks[int(_random(state) * n)]
        lo, hi = _fill(lo, hi, cell)
        path[played] = cell
        played += 1
        count += 1


@njit(cache=True, nogil=True)
def rollouts(lo, hi, cell, count, targets, state, n, proof):
    """(sum of the final counts of ``n`` Warnsdorff games from the position, moves of the
    first game that filled the board, written to ``proof``, or 0). ``state`` (the
    Mulberry32 state) carries on across calls."""
    total = 0
    proved = 0
    path = np.empty(FULL, np.int64)
    for _ in range(n):
        final = finish(lo, hi, cell, count, targets, state, path)
        total += final
        if final == FULL and proved == 0:
            proved = final - count
            proof[:proved] = path[:proved]
    return total, proved


@njit(cache=True, nogil=True)
def search(lo, hi, cell, count, targets, budget, best_path, floor, ceiling, seen):
    """Depth-first search for the highest final count above ``floor``, moves of least
    onward degree first. Returns (best count, finished, length of the best continuation
    written to ``best_path``): best is ``max(count, floor)`` with length 0 when nothing
    beats it; ``finished`` is False when ``budget`` nodes ran out first. Reaching
    ``ceiling`` (100, or less when more is known to be out of reach) ends the search.
    ``floor`` 99 asks only whether the board can be filled.

    A branch is cut when it cannot beat the best count so far. The bound: every empty
    cell needs a neighbour among the empty cells and the current one (jumps are
    reversible), and a cell with only one such neighbour can only be filled last.
    ``near[u]`` keeps that neighbour count for every empty cell; a move from c changes
    it only for c's other empty neighbours, which lose c.

    ``seen`` (rows of lo, hi, current: a power of two of them and a last row counting
    those taken; or no rows) remembers positions whose every branch was searched without
    beating the best: reached again by another move order, they are cut. It is open
    addressing that stops taking new positions once half full, so a search's result does
    not depend on collisions. With floor 99 a remembered position has no full board after
    it at all, so one table can serve several searches.
    """
    lo = np.uint64(lo)
    hi = np.uint64(hi)
    width = targets.shape[1]
    degrees = np.empty(width, np.int64)
    filled = np.zeros(FULL, np.uint8)  # the same set as lo, hi: cheaper to read
    for u in range(FULL):
        filled[u] = _filled(lo, hi, u)
    near = np.zeros(FULL, np.int64)
    empty = dead = ends = 0
    for u in range(FULL):
        if filled[u]:
            continue
        empty += 1
        for k in range(width):
            t = targets[u, k]
            if t >= 0 and (t == cell or filled[t] == 0):
                near[u] += 1
        if near[u] == 0:
            dead += 1
        elif near[u] == 1:
            ends += 1
    options = np.empty((FULL + 1, width), np.int64)
    n_options = np.zeros(FULL + 1, np.int64)
    tried = np.zeros(FULL + 1, np.int64)
    head = np.empty(FULL + 1, np.int64)
    path = np.empty(FULL, np.int64)
    best = max(count, floor)
    best_length = 0
    nodes = 0
    depth = 0
    head[0] = cell
    n_options[0] = _order(filled, cell, targets, options[0], degrees)
    while depth >= 0:
        if tried[depth] < n_options[depth]:
            move = options[depth, tried[depth]]
            tried[depth] += 1
            nodes += 1
            if nodes > budget:
                return best, False, best_length
            lo, hi = _fill(lo, hi, move)
            filled[move] = 1
            empty -= 1
            if near[move] == 1:
                ends -= 1
            previous = head[depth]
            for k in range(width):
                t = targets[previous, k]
                if t < 0 or filled[t]:
                    continue
                near[t] -= 1
                if near[t] == 0:
                    ends -= 1
                    dead += 1
                elif near[t] == 1:
                    ends += 1
            path[depth] = move
            depth += 1
            head[depth] = move
            tried[depth] = 0
            # The bound first: a cut node is never ordered (a game that ends here
            # scores at most the bound, so it could not beat the best either).
            if count + depth + empty - dead - max(ends - 1, 0) <= best:
                n_options[depth] = 0
                continue
            n_options[depth] = _order(filled, move, targets, options[depth], degrees)
            if n_options[depth] == 0:
                reached = count + depth
                if reached > best:
                    best = reached
                    best_length = depth
                    best_path[:depth] = path[:depth]
                    if best >= ceiling:
                        return best, True, best_length
            elif empty >= SEEN_EMPTY and _slot(seen, lo, hi, move) < 0:
                n_options[depth] = 0
        else:
            size = seen.shape[0] - 1
            if depth > 0 and size > 0 and empty >= SEEN_EMPTY and 2 * (seen[size, 0] + 1) <= size:
                slot = _slot(seen, lo, hi, head[depth])
                if slot >= 0:
                    seen[slot, 0] = lo
                    seen[slot, 1] = hi
                    seen[slot, 2] = head[depth]
                    seen[size, 0] += 1
            depth -= 1
            if depth < 0:
                break
            move = path[depth]
            previous = head[depth]
            for k in range(width):
                t = targets[previous, k]
                if t < 0 or filled[t]:
                    continue
                if near[t] == 0:
                    dead -= 1
                    ends += 1
                elif near[t] == 1:
                    ends -= 1
                near[t] += 1
            lo, hi = _empty(lo, hi, move)
            filled[move] = 0
            empty += 1
            if near[move] == 1:
                ends += 1
    return best, True, best_length


@njit(cache=True, inline="always")
def _slot(seen, lo, hi, cell):
    """Where (lo, hi, cell) is or would go in ``seen``: -1 when it is there already
    (or ``seen`` has no rows), else the free row that would take it."""
    mask = seen.shape[0] - 2  # rows to probe, less one
    if mask < 0:
        return 0
    mixed = lo * np.uint64(0x9E3779B97F4A7C15) ^ hi * np.uint64(0xC2B2AE3D27D4EB4F)
    mixed ^= np.uint64(cell) * np.uint64(0x165667B19E3779F9)
    slot = np.int64((mixed >> np.uint64(32)) & np.uint64(mask))
    while seen[slot, 0] != 0 or seen[slot, 1] != 0:
        if seen[slot, 0] == lo and seen[slot, 1] == hi and seen[slot, 2] == np.uint64(cell):
            return -1
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _order(filled, cell, targets, out, degrees):
    """Legal moves from ``cell`` into ``out``, least onward degree first (stable);
    ``degrees`` is room for their degrees."""
    n = 0
    for k in range(targets.shape[1]):
        t = targets[cell, k]
        if t < 0 or filled[t]:
            continue
        d = 0
        for j in range(targets.shape[1]):
            u = targets[t, j]
            if u >= 0 and filled[u] == 0:
                d += 1
        i = n
        while i > 0 and degrees[i - 1] > d:
            degrees[i] = degrees[i - 1]
            out[i] = out[i - 1]
            i -= 1
        degrees[i] = d
        out[i] = t
        n += 1
    return n
