"""Summary statistics shared by every simulation.

>>> s = summarize([3, 1, 2, 4])
>>> s.mean, s.median, s.best, s.worst
(2.5, 2.5, 1, 4)
>>> summarize([7]).stderr is None, summarize([7]).median, plus_minus(0.4567)
(True, 7.0, ' ± 0.46')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Summary:
    """Mean, spread and extremes of a sample of whole numbers; ``stderr`` is None for a
    sample of one, whose spread is unknown."""

    count: int
    mean: float
    median: float
    p10: int
    p90: int
    best: int
    worst: int
    stderr: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def quantile(sorted_values: Sequence[int], q: float) -> int:
    """The smallest value v with at least a share q of the sample ≤ v.

    >>> quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.1)
    1
    """
    rank = max(math.ceil(q * len(sorted_values) - 1e-9), 1)
    return sorted_values[rank - 1]


def summarize(values: Sequence[int]) -> Summary:
    """Summary of a non-empty sample; stderr is the standard error of the mean (None for
    one value)."""
    if not values:
        raise ValueError("cannot summarize an empty sample")
    ordered = sorted(values)
    n = len(ordered)
    mean = sum(ordered) / n
    mid = n // 2
    median = float(ordered[mid]) if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    variance = sum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else None
    return Summary(
        count=n,
        mean=mean,
        median=median,
        p10=quantile(ordered, 0.1),
        p90=quantile(ordered, 0.9),
        best=ordered[0],
        worst=ordered[-1],
        stderr=None if variance is None else math.sqrt(variance / n),
    )


def paired(values: Sequence[int], baseline: Sequence[int]) -> dict:
    """Mean and standard error of ``values[i] − baseline[i]`` over pairs played alike (the
    same game numbers), and their ratio z. Over one pair the standard error and z are
    unknown: None; so is z where every pair differs alike (no spread, but a difference:
    no finite z says it).

    >>> paired([5, 7, 6], [4, 4, 5])
    {'mean': 1.6666666666666667, 'stderr': 0.6666666666666667, 'z': 2.5}
    >>> paired([5], [4])
    {'mean': 1.0, 'stderr': None, 'z': None}
    """
    differences = [a - b for a, b in zip(values, baseline, strict=True)]
    summary = summarize(differences)
    if summary.stderr is None or (summary.stderr == 0 and summary.mean != 0):
        z = None
    else:
        z = summary.mean / summary.stderr if summary.stderr else 0.0
    return {"mean": summary.mean, "stderr": summary.stderr, "z": z}


def plus_minus(stderr: float | None, digits: int = 2) -> str:
    """`` ± stderr`` as text, or nothing where it is unknown (a sample of one)."""
    return "" if stderr is None else f" ± {stderr:.{digits}f}"
