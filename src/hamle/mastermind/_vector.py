"""The partition strategies in NumPy alone, for code spaces of at most VECTOR_LIMIT codes:
there a whole evaluation takes less time than importing numba does.

Values are those of ``_kernels`` to the bit (the same sums in the same order), so both
paths pick the same guesses; the tests hold them to it.

>>> codes = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.uint8)
>>> counts = np.array([[2, 0], [1, 1], [1, 1], [0, 2]], np.uint8)
>>> table(codes, counts)[1].tolist()  # 01 against 00, 01, 10, 11: 1B, 2B, 2W, 1B
[3, 6, 2, 3]
"""

from __future__ import annotations

import numpy as np

VECTOR_LIMIT = 2048
MAX_PART = 0
SUM_SQUARES = 1
SUM_N_LOG_N = 2
FEWER_PARTS = 3
TIE = 1e-9  # entropy sums are floats: closer than this (relative) counts as a tie


def table(codes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """answer[a, b] = black * (pegs + 1) + white of every pair of codes."""
    pegs = codes.shape[1]
    black = np.zeros((len(codes), len(codes)), np.uint8)
    for column in codes.T:
        black += column[:, None] == column[None, :]
    common = np.zeros_like(black)
    for column in counts.T:
        common += np.minimum(column[:, None], column[None, :])
    black *= np.uint8(pegs)
    return black + common


def answers(pegs: int) -> np.ndarray:
    """Every answer index (black, white) with black + white ≤ pegs but (pegs − 1, 1)."""
    return np.array(
        [
            b * (pegs + 1) + w
            for b in range(pegs + 1)
            for w in range(pegs + 1 - b)
            if (b, w) != (pegs - 1, 1)
        ],
        np.uint8,
    )


def n_log_n(n: int) -> np.ndarray:
    """k · ln k for k = 0..n (0 for k ≤ 1)."""
    out = np.zeros(n + 1)
    k = np.arange(2, n + 1)
    out[2:] = k * np.log(k)
    return out


def values(
    answers_table: np.ndarray, guesses, candidates, criterion: int, listed, logs
) -> np.ndarray:
    """The value of each guess (lower is better) over the partition of the candidates,
    as the kernels compute it (entropy summed over the ``listed`` answers in order)."""
    # The table is symmetric: gathering whole rows of the candidates first is faster.
    sub = np.take(answers_table[candidates], guesses, axis=1)
    slots = int(listed.max()) + 1
    keys = sub + (slots * np.arange(len(guesses), dtype=np.int64))
    counts = np.bincount(keys.ravel(), minlength=slots * len(guesses)).reshape(-1, slots)
    if criterion == MAX_PART:
        return counts.max(axis=1).astype(np.float64)
    if criterion == SUM_SQUARES:
        return (counts * counts).sum(axis=1).astype(np.float64)
    if criterion == FEWER_PARTS:
        return -np.count_nonzero(counts, axis=1).astype(np.float64)
    out = np.zeros(len(guesses))
    for column in counts[:, listed].T:
        out = out + logs[column]
    return out


def _limit(best: float) -> float:
    return best - TIE * max(1.0, abs(best))


def first_best(scores: np.ndarray, best: float, enough: float) -> tuple[int, float]:
    """(i, value) of the guess a sequential scan keeps: each one kept must be below the
    last kept by more than the tie tolerance; the scan stops at a value ≤ ``enough``;
    (-1, best) if none is kept."""
    at, start = -1, 0
    while start < len(scores):
        if best == np.inf:
            step = 0
        else:
            better = np.flatnonzero(scores[start:] < _limit(best))
            if len(better) == 0:
                break
            step = int(better[0])
        at = start + step
        best = float(scores[at])
        start = at + 1
        if best <= enough:
            break
    return at, best
