"""Numba kernels of the Mastermind engine. Each has a plain-Python twin in the tests.

Codes are rows of colours; ``counts[i, c]`` is how often colour c occurs in code i; an
answer is ``black * (pegs + 1) + white``. Kernels take codes packed by ``pack``: colours
as 4-bit lanes (black = lanes equal) and counts as 6-bit lanes (white + black = Σ of
lane-wise minima), so an answer costs a few word operations.
"""

import numpy as np
from numba import njit

MAX_PART = 0
SUM_SQUARES = 1
SUM_N_LOG_N = 2
FEWER_PARTS = 3


_NIBBLE_LOW = np.uint64(0x11111111)
_LANES_6 = np.uint64(0x820820820820820)  # bit 5 of each of ten 6-bit lanes
_SUM_6 = np.uint64(0x41041041041041)  # bit 0 of each of ten 6-bit lanes


@njit(cache=True)
def pack(codes, counts):
    """Per code, its colours as 4-bit lanes and its colour counts as 6-bit lanes."""
    n = codes.shape[0]
    colours = np.zeros(n, np.uint64)
    tallies = np.zeros(n, np.uint64)
    for i in range(n):
        for j in range(codes.shape[1]):
            colours[i] |= np.uint64(codes[i, j]) << np.uint64(4 * j)
        for c in range(counts.shape[1]):
            tallies[i] |= np.uint64(counts[i, c]) << np.uint64(6 * c)
    return colours, tallies


@njit(cache=True, inline="always")
def _answer(colours, tallies, pegs, a, b):
    """black * (pegs + 1) + white of codes a and b, lane-parallel on packed words."""
    x = colours[a] ^ colours[b]
    differ = (x | (x >> np.uint64(1)) | (x >> np.uint64(2)) | (x >> np.uint64(3))) & _NIBBLE_LOW
    black = pegs - np.int64(((differ * _NIBBLE_LOW) >> np.uint64(28)) & np.uint64(15))
    ta = tallies[a]
    tb = tallies[b]
    keep_b = (((ta | _LANES_6) - tb) & _LANES_6) >> np.uint64(5)  # lanes where ta >= tb
    keep_b = keep_b * np.uint64(63)
    least = (tb & keep_b) | (ta & ~keep_b)
    common = np.int64(((least * _SUM_6) >> np.uint64(54)) & np.uint64(63))
    return black * (pegs + 1) + common - black


@njit(cache=True)
def feedback_row(colours, tallies, pegs, guess, targets):
    """Answers of ``guess`` against each code in ``targets``."""
    out = np.empty(targets.shape[0], np.uint8)
    for j in range(targets.shape[0]):
        out[j] = _answer(colours, tallies, pegs, guess, targets[j])
    return out


@njit(cache=True)
def feedback_table(colours, tallies, pegs):
    """The full table of answers, every code against every code."""
    n = colours.shape[0]
    table = np.empty((n, n), np.uint8)
    for a in range(n):
        for b in range(a, n):
            f = _answer(colours, tallies, pegs, a, b)
            table[a, b] = f
            table[b, a] = f
    return table


@njit(cache=True)
def first_best(guesses, candidates, colours, tallies, pegs, table, criterion, slots, best, enough):
    """(i, value) for the first guess whose partition of ``candidates`` by answer has a
    value strictly below ``best`` and below every earlier guess, or (-1, best) if none.

    Values (lower is better): the largest part, Σ part², Σ part·ln(part), or minus the
    number of parts; float sums closer than a relative 1e-9 count as equal. The scan
    stops at a value ≤ ``enough`` (a lower bound), and a guess is abandoned as soon as
    it cannot beat the best so far. ``table`` is the feedback table or an empty 2-D
    array (answers computed on the fly).
    """
    n = candidates.shape[0]
    sizes = np.zeros(slots, np.int64)
    n_log_n = np.zeros(n + 1, np.float64)
    for k in range(2, n + 1):
        n_log_n[k] = k * np.log(k)
    use_table = table.shape[0] > 0
    found = -1
    for i in range(guesses.shape[0]):
        g = guesses[i]
        sizes[:] = 0
        value = 0.0
        beaten = False
        for j in range(n):
            if use_table:
                s = table[g, candidates[j]]
            else:
                s = _answer(colours, tallies, pegs, g, candidates[j])
            size = sizes[s] + 1
            sizes[s] = size
            if criterion == MAX_PART:
                if size > value:
                    value = size
            elif criterion == SUM_SQUARES:
                value += 2 * size - 1
            elif criterion == SUM_N_LOG_N:
                value += n_log_n[size] - n_log_n[size - 1]
            elif size == 1:
                value -= 1.0
            reachable = value - (n - 1 - j) if criterion == FEWER_PARTS else value
            if reachable >= best - 1e-9 * max(1.0, abs(best)):
                beaten = True
                break
        if not beaten:
            found = i
            best = value
            if value <= enough + 1e-9 * max(1.0, abs(enough)):
                break
    return found, best
