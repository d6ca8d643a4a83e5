"""Plain-Python twins of the Mastermind engine, written from ``specs/mastermind.md``
for obviousness, not speed.

A code is a tuple of colours 0..k-1; an answer is a tuple (black, white). Nothing here
imports ``hamle``: the tests compare the fast engine with these twins exactly.

>>> score((0, 0, 1, 2), (2, 1, 0, 0))
(0, 4)
>>> score((0, 0, 0, 1), (0, 1, 1, 1))
(2, 0)
>>> codes = all_codes(3, 4)
>>> strategy_guess("minimax", codes, codes, ()), strategy_guess("entropy", codes, codes, ())
((0, 1, 2), (0, 1, 2))
>>> evaluate("first-consistent", 2, 2)
{1: 1, 2: 2, 3: 1}
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

Code = tuple[int, ...]
Answer = tuple[int, int]

CRITERION_STRATEGIES = (
    "minimax",
    "minimax-candidates",
    "expected-size",
    "entropy",
    "most-parts",
)
TWIN_STRATEGIES = (*CRITERION_STRATEGIES, "first-consistent")
TIE = 1e-9  # entropies closer than this (relative) are equal


# --- § 2 feedback ----------------------------------------------------------------------


def score(secret: Code, guess: Code) -> Answer:
    """(black, white): exact matches first, then the common colours of what is left."""
    black = 0
    rest_secret: list[int] = []
    rest_guess: list[int] = []
    for s, g in zip(secret, guess, strict=True):
        if s == g:
            black += 1
        else:
            rest_secret.append(s)
            rest_guess.append(g)
    white = sum((Counter(rest_secret) & Counter(rest_guess)).values())
    return black, white


def all_codes(pegs: int, colours: int, repeat: bool = True) -> list[Code]:
    """Every code in lexicographic order."""
    rows = itertools.product(range(colours), repeat=pegs)
    return [row for row in rows if repeat or len(set(row)) == pegs]


def possible_answers(pegs: int) -> list[Answer]:
    """Every (black, white) with black + white ≤ pegs (impossible ones included)."""
    return [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b)]


@dataclass(frozen=True)
class Plain:
    """A variant with its codes and the plain score of every pair, computed once."""

    pegs: int
    colours: int
    repeat: bool = True

    @property
    def codes(self) -> list[Code]:
        return _codes(self.pegs, self.colours, self.repeat)

    @property
    def index(self) -> dict[Code, int]:
        return _index(self.pegs, self.colours, self.repeat)

    @property
    def table(self) -> list[list[Answer]]:
        """table[i][j] = score(codes[i], codes[j])."""
        return _table(self.pegs, self.colours, self.repeat)

    def score(self, secret: Code, guess: Code) -> Answer:
        index = self.index
        return self.table[index[secret]][index[guess]]


@cache
def plain(pegs: int, colours: int, repeat: bool = True) -> Plain:
    return Plain(pegs, colours, repeat)


@cache
def _codes(pegs: int, colours: int, repeat: bool) -> list[Code]:
    return all_codes(pegs, colours, repeat)


@cache
def _index(pegs: int, colours: int, repeat: bool) -> dict[Code, int]:
    return {code: i for i, code in enumerate(_codes(pegs, colours, repeat))}


@cache
def _table(pegs: int, colours: int, repeat: bool) -> list[list[Answer]]:
    codes = _codes(pegs, colours, repeat)
    # The score is symmetric (§ 2), so each pair is scored once; one tuple object per
    # answer keeps the table small.
    same: dict[Answer, Answer] = {}
    table: list[list[Answer]] = [[None] * len(codes) for _ in codes]  # type: ignore[list-item]
    for i, secret in enumerate(codes):
        for j in range(i, len(codes)):
            answer = score(secret, codes[j])
            table[i][j] = table[j][i] = same.setdefault(answer, answer)
    return table


# --- § 3 candidates -------------------------------------------------------------------


def candidates(
    codes: Sequence[Code], history: Sequence[tuple[Code, Answer]], score=score
) -> list[Code]:
    """The codes that would have produced every answer of ``history``."""
    return [c for c in codes if all(score(c, g) == a for g, a in history)]


# --- § 4 strategies -------------------------------------------------------------------


def partition(guess: Code, cands: Sequence[Code], score=score) -> Counter[Answer]:
    """How many candidates give each answer to ``guess``."""
    return Counter(score(c, guess) for c in cands)


def entropy(parts: Counter[Answer]) -> float:
    n = sum(parts.values())
    return -sum(k / n * math.log(k / n) for k in parts.values())


def criterion(name: str, parts: Counter[Answer]) -> float:
    """The value of a partition; lower is better (maximised criteria are negated)."""
    sizes = list(parts.values())
    if name in ("minimax", "minimax-candidates"):
        return max(sizes)
    if name == "expected-size":
        return sum(k * k for k in sizes)
    if name == "entropy":
        return -entropy(parts)
    if name == "most-parts":
        return -len(sizes)
    raise ValueError(f"no twin for {name!r}")


def _equal(a: float, b: float) -> bool:
    return abs(a - b) <= TIE * max(1.0, abs(a), abs(b))


@lru_cache(maxsize=16)
def _partitions(pool: tuple[Code, ...], cands: tuple[Code, ...], score: Callable):
    return {g: partition(g, cands, score) for g in pool}


def strategy_guess(
    name: str,
    variant_codes: Sequence[Code],
    cands: Sequence[Code] | None,
    history: Sequence[tuple[Code, Answer]],
    score: Callable[[Code, Code], Answer] = score,
) -> Code:
    """The guess ``name`` plays: a lone candidate; else the best of the pool by the
    criterion, ties to a candidate, then to the lowest code."""
    if cands is None:
        cands = candidates(variant_codes, history, score)
    if not cands:
        raise ValueError("no candidates")
    if len(cands) == 1:
        return cands[0]
    if name == "first-consistent":
        return min(cands)
    pool = cands if name == "minimax-candidates" else variant_codes
    parts = _partitions(tuple(pool), tuple(cands), score)
    values = {g: criterion(name, parts[g]) for g in pool}
    best = min(values.values())
    tied = [g for g in pool if _equal(values[g], best)]
    inside = set(cands)
    tied_candidates = [g for g in tied if g in inside]
    return min(tied_candidates or tied)


# --- § 5 evaluation -------------------------------------------------------------------


def evaluate(name: str, pegs: int, colours: int, repeat: bool = True) -> dict[int, int]:
    """{guesses: secrets}, playing every secret one game at a time with the twin."""
    variant = plain(pegs, colours, repeat)
    codes = variant.codes
    chosen: dict[tuple, Code] = {}  # the same history always gets the same guess
    histogram: Counter[int] = Counter()
    for secret in codes:
        history: tuple[tuple[Code, Answer], ...] = ()
        left = codes
        while True:
            if history not in chosen:
                chosen[history] = strategy_guess(name, codes, left, history, variant.score)
            guess = chosen[history]
            answer = score(secret, guess)
            history = (*history, (guess, answer))
            if guess == secret:
                break
            left = [c for c in left if variant.score(c, guess) == answer]
            assert secret in left and len(history) < 30
        histogram[len(history)] += 1
    return dict(sorted(histogram.items()))
