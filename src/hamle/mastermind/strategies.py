"""Guessing strategies, registered by name. Each picks the next guess from a history.

Criterion strategies score every guess in their pool by the partition of the candidates
by answer; ties go to a candidate, then to the lowest code (Knuth's rule). Codes that
split the candidates alike by construction (up to colours no guess has used yet, and in
the kernels also peg symmetries and colours no candidate has) are scored once, through
the lowest of them: the result is the same, found faster.

>>> v = Variant.classic()
>>> [v.format(STRATEGIES[name].first_guess(v)) for name in ("minimax", "expected-size",
...  "entropy", "most-parts", "first-consistent")]
['1122', '1123', '1234', '1123', '1111']
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from functools import cache
from typing import ClassVar

import numpy as np

from hamle.grid import name_key

from . import _vector
from ._vector import FEWER_PARTS, MAX_PART, SUM_N_LOG_N, SUM_SQUARES, TIE
from .codes import (
    MAX_CODES,
    TABLE_LIMIT,
    Variant,
    canonical_guesses,
    check_variant,
    feedback_table,
    free_colours,
    is_whole,
    quoted,
)
from .errors import MastermindError
from .history import History, check_history


@dataclass(frozen=True)
class Strategy:
    """A named way to pick the next guess; subclasses define ``choose``."""

    name: str
    summary: str
    largest: ClassVar[int] = MAX_CODES  # the most codes it plays on in reasonable time
    seed: ClassVar[int | None] = None  # a seeded strategy's seed (random-consistent's field)

    @property
    def label(self) -> str:
        """The name as reports give it: with the seed of a seeded strategy, so that runs
        with two seeds can be told apart and either one repeated.

        >>> get_strategy("random-consistent").with_seed(2).label, get_strategy("minimax").label
        ('random-consistent (seed 2)', 'minimax')
        """
        return labelled(self.name, self.seed)

    def with_seed(self, seed: int) -> Strategy:
        """This strategy drawing with ``seed`` (a whole number from 0 on); MastermindError
        for a strategy that draws nothing at random.

        >>> get_strategy("random-consistent").with_seed(1).seed
        1
        """
        if self.seed is None:
            raise MastermindError(
                f"{self.name} draws nothing at random, so it takes no seed; "
                f"{', '.join(n for n, s in STRATEGIES.items() if s.seed is not None)} does"
            )
        return replace(self, seed=seed)

    def check(self, variant: Variant) -> None:
        """MastermindError unless ``variant`` has at most ``largest`` codes.

        >>> STRATEGIES["minimax"].largest, STRATEGIES["first-consistent"].largest
        (100000, 2097152)
        """
        check_variant(variant)
        if variant.size > self.largest:
            raise MastermindError(
                f"{self.name} on {variant.size:,} codes would take hours; it is supported "
                f"up to {self.largest:,} codes"
            )

    def first_guess(self, variant: Variant) -> int:
        """The opening guess: this strategy's own choice over the whole code space."""
        check_variant(variant)
        try:
            hash(self)
        except TypeError:  # (a strategy of one's own that cannot be a key of the cache)
            return _first_guess.__wrapped__(self, variant)
        return _first_guess(self, variant)

    def next_guess(self, history: History) -> int:
        """The guess to play after ``history`` (a lone candidate is always played)."""
        check_history(history)
        if not history.turns:
            return self.first_guess(history.variant)
        candidates = history.candidates()
        if len(candidates) == 1:
            return int(candidates[0])
        return checked_choice(self, history, candidates)

    def choose(self, history: History, candidates: np.ndarray) -> int:
        """The guess among or beyond ``candidates`` (two or more) after ``history``."""
        raise MastermindError(
            f"Strategy is a base class and chooses no guess: subclass it with a choose method, "
            f"or use a registered strategy like get_strategy({self.name!r})"
        )


def labelled(name: str, seed: int | None) -> str:
    """A strategy's name as reports give it: with its seed where it has one."""
    return name if seed is None else f"{name} (seed {seed})"


@cache
def _first_guess(strategy: Strategy, variant: Variant) -> int:
    return checked_choice(strategy, History(variant), np.arange(variant.size))


def checked_choice(strategy: Strategy, history: History, candidates: np.ndarray) -> int:
    """``strategy.choose(history, candidates)``, checked to be a code of the variant:
    MastermindError names a strategy that breaks this (one of a user's own, as the
    registered never do). ``evaluate.split_by_guess`` checks that it tells some of the
    candidates apart.

    >>> v = Variant(2, 2)
    >>> checked_choice(get_strategy("first-consistent"), History(v), np.arange(v.size))
    0
    """
    guess = strategy.choose(history, candidates)
    if not is_whole(guess) or not 0 <= guess < history.variant.size:
        raise MastermindError(
            f"{strategy.name} chose {quoted(guess)}, not a code of the variant (a whole number "
            f"from 0 to {history.variant.size - 1:,})"
        )
    return int(guess)


@dataclass(frozen=True)
class FirstConsistent(Strategy):
    def choose(self, history: History, candidates: np.ndarray) -> int:
        return int(candidates[0])


@dataclass(frozen=True)
class RandomConsistent(Strategy):
    """Uniform over the candidates; the stream is seeded by the history, so the same
    history always gets the same guess."""

    seed: int = 0

    def __post_init__(self) -> None:
        if not is_whole(self.seed) or self.seed < 0:
            raise MastermindError(
                f"{self.name}'s seed must be a whole number from 0 on, not {quoted(self.seed)}"
            )

    def choose(self, history: History, candidates: np.ndarray) -> int:
        flat = [x for turn in history.turns for x in turn]
        rng = np.random.default_rng([self.seed, len(flat), *flat])
        return int(candidates[rng.integers(len(candidates))])


@dataclass(frozen=True)
class Partition(Strategy):
    """Minimise a value of the partition of the candidates, over all codes or over the
    candidates only."""

    criterion: int = MAX_PART
    from_all_codes: bool = True
    largest: ClassVar[int] = 100_000

    def choose(self, history: History, candidates: np.ndarray) -> int:
        variant = history.variant
        if variant.size <= _vector.VECTOR_LIMIT:
            free = free_colours(variant, [g for g, _ in history.turns])
            candidates = np.asarray(candidates, np.int64)
            return _choose_vector(variant, candidates, free, self.criterion, self.from_all_codes)
        from . import _kernels

        return int(_kernels.choose(*self.kernel_arguments(history, candidates)))

    def kernel_arguments(self, history: History, candidates) -> tuple:
        """What ``_kernels.choose`` and ``_kernels.play`` take for this strategy at the
        node ``history`` with these candidates."""
        variant = history.variant
        guesses = [g for g, _ in history.turns]
        packed = variant.packed()
        return (
            packed,
            variant.pegs,
            variant.colours,
            self.criterion,
            self.from_all_codes,
            np.array(candidates, np.int64),  # a writable copy: one compiled signature
            packed[0][np.asarray(guesses, np.int64)],
            colour_mask(free_colours(variant, guesses)),
            kernel_tables(variant),
        )


def _choose_vector(variant: Variant, candidates, free, criterion: int, from_all: bool) -> int:
    """``Partition.choose`` in NumPy: the same scan as the kernels, value by value."""
    table = feedback_table(variant)
    listed, logs = _vector_tables(variant)
    answers = variant.pegs * (variant.pegs + 3) // 2
    enough = _enough(lower_bound(criterion, len(candidates), answers))
    # A code that is no candidate never gets the answer "all black": one answer fewer.
    enough_outside = _enough(lower_bound(criterion, len(candidates), answers - 1))
    # The lowest of equally good codes is canonical, so candidates outside the pool
    # can be skipped; a non-candidate must do strictly better, as candidates win ties.
    first = candidates[_membership(variant, free)[candidates]]
    scores = _vector.values(table, first, candidates, criterion, listed, logs)
    at, value = _vector.first_best(scores, np.inf, enough)
    if value <= enough_outside or not from_all:
        return int(first[at])
    pool = canonical_guesses(variant, free=free)
    scores = _vector.values(table, pool, candidates, criterion, listed, logs)
    better, _ = _vector.first_best(scores, value, enough_outside)
    return int(pool[better] if better >= 0 else first[at])


@cache
def _vector_tables(variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    return _vector.answers(variant.pegs), _vector.n_log_n(variant.size)


@cache
def kernel_tables(variant: Variant) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the kernels need beside the codes: the answers, k ln k, the peg permutations."""
    perms = np.array(list(itertools.permutations(range(variant.pegs))), np.int64)
    return (*_vector_tables(variant), perms)


def colour_mask(colours) -> int:
    """The colours as bits of an int."""
    return sum(1 << c for c in colours)


@cache
def _membership(variant: Variant, free: tuple[int, ...]) -> np.ndarray:
    inside = np.zeros(variant.size, bool)
    inside[canonical_guesses(variant, free=free)] = True
    return inside


def _enough(bound: float) -> float:
    return bound + TIE * max(1.0, abs(bound))


def lower_bound(criterion: int, n: int, answers: int) -> float:
    """The best value a guess with at most ``answers`` possible answers could reach on n
    candidates: parts as even as they allow (p(p + 3)/2 answers for p pegs).

    >>> lower_bound(MAX_PART, 1296, 14), lower_bound(FEWER_PARTS, 5, 14)
    (93.0, -5.0)
    """
    parts = min(n, answers)
    small, extra = divmod(n, parts)
    sizes = [small + 1] * extra + [small] * (parts - extra)
    if criterion == MAX_PART:
        return float(max(sizes))
    if criterion == SUM_SQUARES:
        return float(sum(k * k for k in sizes))
    if criterion == SUM_N_LOG_N:
        return float(sum(k * np.log(k) for k in sizes if k > 1))
    return -float(parts)


@dataclass(frozen=True)
class Optimal(Strategy):
    """Least total guesses over all secrets, never more than ``max_guesses`` for one when
    set (``optimal.solve``); answers from the solved tree, kept in the cache directory.
    Ties go to the guess of least bound, then to a candidate, then to the lowest code."""

    max_guesses: int | None = None
    largest: ClassVar[int] = int(TABLE_LIMIT**0.5)  # the search needs the whole table

    def next_guess(self, history: History) -> int:
        check_history(history)
        if history.turns:
            return self.choose(history, history.candidates())
        from .optimal import next_guess

        return next_guess(history, self.max_guesses)

    def choose(self, history: History, candidates: np.ndarray) -> int:
        if len(candidates) == 1:
            return int(candidates[0])
        from .optimal import next_guess

        return next_guess(history, self.max_guesses, candidates=candidates)


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
        Partition("expected-size", "Irving: smallest Σ part², over all codes", SUM_SQUARES),
        Partition("entropy", "largest answer entropy, over all codes", SUM_N_LOG_N),
        Partition("most-parts", "Kooi: most non-empty parts, over all codes", FEWER_PARTS),
        Optimal("optimal", "least total guesses over all secrets (exact search)"),
    )
}


# The one-step strategies: every one but ``optimal``, whose search takes minutes on 4×6.
HEURISTICS: tuple[str, ...] = tuple(n for n, s in STRATEGIES.items() if not isinstance(s, Optimal))


def get_strategy(name: str) -> Strategy:
    """The strategy registered as ``name`` (in any case, spaces around it ignored).

    >>> get_strategy(" MiniMax").name
    'minimax'
    """
    key = name_key(name) if isinstance(name, str) else None
    if key not in STRATEGIES:
        raise MastermindError(f"unknown strategy {name!r}; choose one of: {', '.join(STRATEGIES)}")
    return STRATEGIES[key]


def as_strategy(value: str | Strategy) -> Strategy:
    """A strategy given by its name or as itself; MastermindError for anything else.

    >>> as_strategy("minimax") is as_strategy(STRATEGIES["minimax"])
    True
    """
    if isinstance(value, Strategy):
        return value
    if isinstance(value, str):
        return get_strategy(value)
    raise MastermindError(
        f"strategy must be a Strategy or one of: {', '.join(STRATEGIES)}; not {value!r}"
    )
