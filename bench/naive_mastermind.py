"""A naive pure-Python Mastermind solver: the baseline the benchmark compares against.

Written the way a typical public solver is (and the way the seed tutorial writes it):
codes are tuples, scoring is the seed's ``puanla`` (exact matches, then a ``Counter``
intersection of what is left), the candidates are a plain list filtered after every
answer, and each game is played on its own, one secret at a time: no grouping of games
by history, no feedback table, no pruning, no symmetry. Only NumPy's generator is used,
by ``random-consistent``, so that its draws are the same as ``hamle``'s.

The decision rules are those of ``hamle.mastermind`` (spec § 4): a lone candidate is
played; the criterion strategies score every code (or every candidate, for
``minimax-candidates``) by the partition of the candidates by answer and take the best,
ties going to a candidate, then to the lowest code in lexicographic order.

>>> puanla((0, 0, 1, 2), (2, 1, 0, 0))
(0, 4)
>>> play_game("minimax", (0, 0, 0, 0), 4, 6, first=(0, 0, 1, 1))
[(0, 0, 1, 1), (0, 1, 2, 3), (0, 2, 0, 4), (0, 0, 0, 0)]
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import product

import numpy as np

TIE = 1e-9  # entropy values closer than this (relative) count as equal, as in hamle


def puanla(gizli: tuple, tahmin: tuple) -> tuple[int, int]:
    """(black, white) of ``tahmin`` against ``gizli``: the seed's scoring function."""
    tam = sum(a == b for a, b in zip(gizli, tahmin, strict=True))
    kalan_gizli = [a for a, b in zip(gizli, tahmin, strict=True) if a != b]
    kalan_tahmin = [b for a, b in zip(gizli, tahmin, strict=True) if a != b]
    yanlis_yer = sum((Counter(kalan_gizli) & Counter(kalan_tahmin)).values())
    return tam, yanlis_yer


def all_codes(pegs: int, colours: int, repeat: bool = True) -> list[tuple]:
    """Every code as a tuple of colours 0..colours-1, in lexicographic order."""
    codes = product(range(colours), repeat=pegs)
    return [c for c in codes if repeat or len(set(c)) == pegs]


def filter_candidates(candidates: list, guess: tuple, answer: tuple[int, int]) -> list:
    return [code for code in candidates if puanla(code, guess) == answer]


# --- criteria: a value of the partition of the candidates by answer, lower is better --


def largest_part(sizes) -> float:
    return max(sizes)


def sum_of_squares(sizes) -> float:
    return sum(k * k for k in sizes)


def minus_entropy(sizes) -> float:
    n = sum(sizes)
    return sum(k / n * math.log(k / n) for k in sizes)


def minus_parts(sizes) -> float:
    return -len(sizes)


CRITERIA = {
    "minimax": largest_part,
    "minimax-candidates": largest_part,
    "expected-size": sum_of_squares,
    "entropy": minus_entropy,
    "most-parts": minus_parts,
}


def partition_guess(name: str, candidates: list, codes: list) -> tuple:
    """The best guess for ``name``: score every code of the pool by the sizes of the
    parts of the candidates; of the best, a candidate first, then the lowest code."""
    criterion = CRITERIA[name]
    pool = candidates if name == "minimax-candidates" else codes
    values = []
    for guess in pool:
        parts = Counter(puanla(secret, guess) for secret in candidates)
        values.append(criterion(list(parts.values())))
    best = min(values)
    tied = [g for g, v in zip(pool, values, strict=True) if v <= best + TIE * max(1, abs(best))]
    inside = set(candidates)
    return next((g for g in tied if g in inside), tied[0])


def next_guess(name, candidates, codes, turns, pegs, colours) -> tuple:
    """The guess ``name`` plays given the candidates left and the turns so far."""
    if len(candidates) == 1:
        return candidates[0]
    if name == "first-consistent":
        return candidates[0]
    if name == "random-consistent":
        # hamle seeds the draw with the history: code indices, answers black*(p+1)+white
        flat = []
        for guess, (black, white) in turns:
            flat += [code_index(guess, codes, colours), black * (pegs + 1) + white]
        rng = np.random.default_rng([0, len(flat), *flat])
        return candidates[int(rng.integers(len(candidates)))]
    return partition_guess(name, candidates, codes)


def code_index(code: tuple, codes: list, colours: int) -> int:
    if len(codes) == colours ** len(code):
        return sum(c * colours**i for i, c in enumerate(reversed(code)))
    return codes.index(code)


def first_guess(name: str, pegs: int, colours: int, repeat: bool = True) -> tuple:
    """The opening guess: the strategy's own choice over the whole code space."""
    codes = all_codes(pegs, colours, repeat)
    return next_guess(name, codes, codes, [], pegs, colours)


def play_game(name, secret, pegs, colours, repeat=True, first=None) -> list[tuple]:
    """The guesses ``name`` makes to find ``secret``; the last one is the secret.
    ``first`` is the opening guess, if already known (it is the same in every game)."""
    codes = all_codes(pegs, colours, repeat)
    candidates = list(codes)
    turns, guesses = [], []
    while True:
        if not turns and first is not None:
            guess = first
        else:
            guess = next_guess(name, candidates, codes, turns, pegs, colours)
        guesses.append(guess)
        if guess == secret:
            return guesses
        answer = puanla(secret, guess)
        turns.append((guess, answer))
        candidates = filter_candidates(candidates, guess, answer)


if __name__ == "__main__":
    import doctest

    doctest.testmod()
