"""The numba strategy kernels against the NumPy path and brute force: the same guess after
random histories, the same evaluation, and peg symmetries that are exactly the maps
keeping every guess."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hamle.mastermind as mm
from hamle.mastermind import _kernels
from hamle.mastermind.codes import free_colours
from hamle.mastermind.evaluate import _play, _play_kernel
from hamle.mastermind.strategies import Partition, colour_mask, kernel_tables

PARTITIONS = [name for name, s in mm.STRATEGIES.items() if isinstance(s, Partition)]
VARIANTS = [(3, 4, True), (4, 4, True), (3, 5, False), (4, 6, True), (5, 3, True)]
NO_SYMMETRY = np.zeros((0, 1), np.int64)


def kernel_guess(variant: mm.Variant, name: str, history: mm.History, symmetric=True) -> int:
    """The kernel's guess, with the peg symmetries or without them."""
    args = list(mm.get_strategy(name).kernel_arguments(history, history.candidates()))
    answers, logs, perms = args[-1]
    args[-1] = (answers, logs, perms if symmetric else NO_SYMMETRY.repeat(variant.pegs, 1))
    return int(_kernels.choose(*args))


def random_history(variant: mm.Variant, secret: int, guesses: list[int]) -> mm.History:
    history = mm.History(variant)
    for g in guesses:
        if not history.solved:  # (no turn comes after the one that finds the secret)
            history = history.then(g, int(variant.feedback(g, np.array([secret]))[0]))
    return history


@pytest.mark.parametrize("spec", VARIANTS, ids=str)
def test_kernel_and_vector_paths_pick_the_same_guess(spec):
    variant = mm.Variant(*spec)

    @settings(max_examples=25, deadline=None, database=None)
    @given(
        st.integers(0, variant.size - 1),
        st.lists(st.integers(0, variant.size - 1), min_size=0, max_size=3),
    )
    def run(secret, guesses):
        history = random_history(variant, secret, guesses)
        candidates = history.candidates()
        if len(candidates) < 2:
            return
        for name in PARTITIONS:
            want = mm.get_strategy(name).choose(history, candidates)  # the NumPy path
            assert kernel_guess(variant, name, history) == want, (name, history.describe())
            assert kernel_guess(variant, name, history, symmetric=False) == want

    run()


@pytest.mark.parametrize("spec", [(3, 4, True), (4, 4, True), (3, 5, False)], ids=str)
@pytest.mark.parametrize("name", PARTITIONS)
def test_kernel_evaluation_equals_the_node_by_node_one(spec, name):
    variant = mm.Variant(*spec)
    strategy = mm.get_strategy(name)
    root = mm.History(variant)
    everything = np.arange(variant.size)
    assert _play_kernel(strategy, root, everything) == _play(strategy, root, everything)
    first = strategy.first_guess(variant)
    for answer in np.unique(variant.feedback(first)):
        if answer == variant.solved:
            continue
        node = root.then(first, int(answer))
        codes = node.candidates()
        assert _play_kernel(strategy, node, codes) == _play(strategy, node, codes)


def test_super_mastermind_totals_stay_as_published_by_earlier_runs():
    """The 5×8 totals of every strategy before the 64-lane kernels (one strategy here,
    the others in bench/mastermind.py, which checks them all)."""
    result = mm.evaluate("most-parts", mm.Variant.named("super"), jobs=1)
    assert (result.total, result.maximum, result.first_guess) == (181834, 8, "11223")


def brute_symmetries(variant: mm.Variant, guesses: list[int]) -> set[tuple[int, ...]]:
    """Peg permutations π for which some colour map τ sends every guess to itself."""
    codes = variant.codes()
    found = set()
    for pi in itertools.permutations(range(variant.pegs)):
        if pi == tuple(range(variant.pegs)):
            continue
        for tau in itertools.permutations(range(variant.colours)):
            if all(
                all(tau[codes[g][j]] == codes[g][pi[j]] for j in range(variant.pegs))
                for g in guesses
            ):
                found.add(pi)
                break
    return found


@settings(max_examples=40, deadline=None, database=None)
@given(st.lists(st.integers(0, 4**4 - 1), min_size=1, max_size=3))
def test_symmetries_are_exactly_the_maps_keeping_every_guess(guesses):
    variant = mm.Variant(4, 4)
    packed = variant.packed()
    _, _, all_perms = kernel_tables(variant)
    perms = np.zeros((24, 4), np.int64)
    taus = np.zeros((24, 4), np.int64)
    path = packed[0][np.asarray(guesses, np.int64)]
    m = _kernels.symmetries(path, len(guesses), 4, 4, all_perms, perms, taus)
    assert {tuple(int(x) for x in perms[e]) for e in range(m)} == brute_symmetries(variant, guesses)


@settings(max_examples=30, deadline=None, database=None)
@given(st.lists(st.integers(0, 5**4 - 1), min_size=0, max_size=2))
def test_only_the_least_code_of_each_class_is_kept(guesses):
    """Brute force: a code is kept exactly when no symmetry of the history combined with
    a permutation of the free colours turns it into a lower code."""
    variant = mm.Variant(4, 5)
    codes = variant.codes()
    packed = variant.packed()
    free = free_colours(variant, guesses)
    _, _, all_perms = kernel_tables(variant)
    perms = np.zeros((24, 4), np.int64)
    taus = np.zeros((24, 5), np.int64)
    path = packed[0][np.asarray(guesses, np.int64)]
    m = _kernels.symmetries(path, len(guesses), 4, 5, all_perms, perms, taus)
    maps = [(tuple(range(4)), tuple(range(5)))]
    for e in range(m):
        tau = [int(t) if t >= 0 else c for c, t in enumerate(taus[e])]
        maps.append((tuple(int(p) for p in perms[e]), tuple(tau)))
    index = {tuple(int(c) for c in row): i for i, row in enumerate(codes)}
    mask = colour_mask(free)
    work = (np.zeros(4, np.int64), np.zeros(5, np.int64), np.array(free + (0,) * 5))
    for x in range(variant.size):
        orbit = []
        for pi, tau in maps:
            image = [0] * 4
            for j in range(4):
                image[pi[j]] = tau[codes[x][j]]
            for shuffle in itertools.permutations(free):
                relabel = dict(zip(free, shuffle, strict=True))
                orbit.append(index[tuple(relabel.get(c, c) for c in image)])
        least = min(orbit) == x
        d = packed[0][x]
        kept = _kernels._canonical(d, 4, mask) and _kernels._orbit_least(
            d, 4, mask, perms, taus, m, *work
        )
        assert kept == least, (variant.format(x), [variant.format(g) for g in guesses])


def test_kernel_histograms_count_every_secret_once():
    variant = mm.Variant(4, 6)
    strategy = mm.get_strategy("expected-size")
    out = _play_kernel(strategy, mm.History(variant), np.arange(variant.size))
    assert sum(out.values()) == variant.size
    assert out == Counter(mm.evaluate("expected-size", variant).histogram)
