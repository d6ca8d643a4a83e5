"""Guessing strategies, registered by name. Each picks the next guess from a history.

Criterion strategies score every guess in their pool by the partition of the candidates
by answer; ties go to a candidate, then to the lowest code (Knuth's rule). Colours no
guess has used yet are interchangeable, so only the lowest code of each class of
guesses equal up to such colours is scored: the result is the same, found faster.

>>> v = Variant.classic()
>>> [v.format(STRATEGIES[name].first_guess(v)) for name in ("minimax", "expected-size",
...  "entropy", "most-parts", "first-consistent")]
['1122', '1123', '1234', '1123', '1111']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from . import _kernels
from .codes import Variant, canonical_guesses, feedback_table, free_colours
from .errors import MastermindError
from .history import History

EMPTY_TABLE = np.zeros((0, 0), np.uint8)
TIE = 1e-9  # entropy sums are floats: closer than this (relative) counts as a tie


@dataclass(frozen=True)
class Strategy:
    """A named way to pick the next guess; subclasses define ``choose``."""

    name: str
    summary: str

    def first_guess(self, variant: Variant) -> int:
        """The opening guess: this strategy's own choice over the whole code space."""
        return _first_guess(self, variant)

    def next_guess(self, history: History) -> int:
        """The guess to play after ``history`` (a lone candidate is always played)."""
        if not history.turns:
            return self.first_guess(history.variant)
        candidates = history.candidates()
        if len(candidates) == 1:
            return int(candidates[0])
        return self.choose(history, candidates)

    def choose(self, history: History, candidates: np.ndarray) -> int:
        raise NotImplementedError


@cache
def _first_guess(strategy: Strategy, variant: Variant) -> int:
    return strategy.choose(History(variant), np.arange(variant.size))


@dataclass(frozen=True)
class FirstConsistent(Strategy):
    def choose(self, history: History, candidates: np.ndarray) -> int:
        return int(candidates[0])


@dataclass(frozen=True)
class RandomConsistent(Strategy):
    """Uniform over the candidates; the stream is seeded by the history, so the same
    history always gets the same guess."""

    seed: int = 0

    def choose(self, history: History, candidates: np.ndarray) -> int:
        flat = [x for turn in history.turns for x in turn]
        rng = np.random.default_rng([self.seed, len(flat), *flat])
        return int(candidates[rng.integers(len(candidates))])


@dataclass(frozen=True)
class Partition(Strategy):
    """Minimise a value of the partition of the candidates, over all codes or over the
    candidates only."""

    criterion: int = _kernels.MAX_PART
    from_all_codes: bool = True

    def choose(self, history: History, candidates: np.ndarray) -> int:
        variant = history.variant
        bound = lower_bound(self.criterion, len(candidates), variant.pegs)
        free = free_colours(variant, [g for g, _ in history.turns])
        pool = canonical_guesses(variant, free=free)
        # The lowest of equally good codes is canonical, so candidates outside the pool
        # can be skipped; a non-candidate must do strictly better, as candidates win ties.
        first = candidates[_membership(variant, free)[candidates]]
        at, value = _first_best(variant, first, candidates, self.criterion, np.inf, bound)
        if _close(value, bound) or not self.from_all_codes:
            return int(first[at])
        better, _ = _first_best(variant, pool, candidates, self.criterion, value, bound)
        return int(pool[better] if better >= 0 else first[at])


@cache
def _membership(variant: Variant, free: tuple[int, ...]) -> np.ndarray:
    inside = np.zeros(variant.size, bool)
    inside[canonical_guesses(variant, free=free)] = True
    return inside


def _close(value: float, bound: float) -> bool:
    return value <= bound + TIE * max(1.0, abs(bound))


def lower_bound(criterion: int, n: int, pegs: int) -> float:
    """The best value any guess could reach on n candidates: parts as even as the
    p(p + 3)/2 answers allow.

    >>> lower_bound(_kernels.MAX_PART, 1296, 4), lower_bound(_kernels.FEWER_PARTS, 5, 4)
    (93.0, -5.0)
    """
    parts = min(n, pegs * (pegs + 3) // 2)
    small, extra = divmod(n, parts)
    sizes = [small + 1] * extra + [small] * (parts - extra)
    if criterion == _kernels.MAX_PART:
        return float(max(sizes))
    if criterion == _kernels.SUM_SQUARES:
        return float(sum(k * k for k in sizes))
    if criterion == _kernels.SUM_N_LOG_N:
        return float(sum(k * np.log(k) for k in sizes if k > 1))
    return -float(parts)


def _first_best(variant: Variant, guesses, candidates, criterion: int, best, enough):
    table = feedback_table(variant)
    return _kernels.first_best(
        np.asarray(guesses, np.int64),
        np.asarray(candidates, np.int64),
        *variant.packed(),
        variant.pegs,
        EMPTY_TABLE if table is None else table,
        criterion,
        variant.answer_slots,
        float(best),
        float(enough),
    )


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        FirstConsistent("first-consistent", "the lowest candidate"),
        RandomConsistent("random-consistent", "a uniformly random candidate (seeded)"),
        Partition("minimax", "Knuth: smallest largest part, over all codes"),
        Partition(
            "minimax-candidates",
            "smallest largest part, over the candidates",
            from_all_codes=False,
        ),
        Partition(
            "expected-size", "Irving: smallest Σ part², over all codes", _kernels.SUM_SQUARES
        ),
        Partition("entropy", "largest answer entropy, over all codes", _kernels.SUM_N_LOG_N),
        Partition("most-parts", "Kooi: most non-empty parts, over all codes", _kernels.FEWER_PARTS),
    )
}


def get_strategy(name: str) -> Strategy:
    """The strategy registered as ``name``."""
    if name not in STRATEGIES:
        raise MastermindError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)}")
    return STRATEGIES[name]
