"""Strategies against the plain twins of ``reference.py`` on random histories, the
canonical-guess reduction by brute force, documented first guesses, random-consistent."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mastermind import reference as ref

import hamle.mastermind as mm
from hamle.mastermind.strategies import canonical_guesses

# (pegs, colours, repeat, examples): histories of 1-3 random turns on each.
HISTORY_VARIANTS = [
    (3, 4, True, 100),
    (4, 4, True, 60),
    (3, 5, False, 100),
    (4, 6, True, 8),
]
SPEC_NAMES = {
    "first-consistent",
    "random-consistent",
    "minimax",
    "minimax-candidates",
    "expected-size",
    "entropy",
    "most-parts",
    "optimal",
}


def library_history(variant: mm.Variant, turns) -> mm.History:
    """A History from (guess index, (black, white)) pairs."""
    return mm.History(variant, tuple((g, variant.answer(b, w)) for g, (b, w) in turns))


def twin_turns(twin: ref.Plain, turns):
    return tuple((twin.codes[g], answer) for g, answer in turns)


def check_against_twins(spec, turns) -> None:
    """Every twinned strategy picks the twin's guess after ``turns``."""
    variant, twin = mm.Variant(*spec), ref.plain(*spec)
    history = library_history(variant, turns)
    history_twin = twin_turns(twin, turns)
    cands_twin = ref.candidates(twin.codes, history_twin, twin.score)
    cands = history.candidates()
    assert [twin.codes[i] for i in cands.tolist()] == cands_twin
    for name in ref.TWIN_STRATEGIES:
        strategy = mm.get_strategy(name)
        want = ref.strategy_guess(name, twin.codes, cands_twin, history_twin, twin.score)
        got = strategy.next_guess(history)
        assert twin.codes[got] == want, (name, history.describe())
        if len(cands) > 1:
            assert strategy.choose(history, cands) == got


@pytest.mark.parametrize("spec", HISTORY_VARIANTS, ids=lambda s: f"{s[0]}x{s[1]}-{s[2]}")
def test_strategies_equal_their_twins_on_random_histories(spec):
    pegs, colours, repeat, examples = spec
    twin = ref.plain(pegs, colours, repeat)
    n = len(twin.codes)

    @settings(max_examples=examples, deadline=None, database=None)
    @given(st.integers(0, n - 1), st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    def run(secret, guesses):
        if secret in guesses:  # the game ends there
            guesses = guesses[: guesses.index(secret) + 1]
        turns = [(g, ref.score(twin.codes[secret], twin.codes[g])) for g in guesses]
        check_against_twins((pegs, colours, repeat), turns)

    run()


@pytest.mark.parametrize(
    "spec", [(3, 4, True), (4, 4, True), (3, 5, False), (2, 6, True), (4, 5, False)], ids=str
)
def test_first_guesses_equal_their_twins(spec):
    variant, twin = mm.Variant(*spec), ref.plain(*spec)
    for name in ref.TWIN_STRATEGIES:
        strategy = mm.get_strategy(name)
        want = ref.strategy_guess(name, twin.codes, twin.codes, (), twin.score)
        assert twin.codes[strategy.first_guess(variant)] == want, name
        assert strategy.next_guess(mm.History(variant)) == strategy.first_guess(variant)


def test_knuths_second_guesses_on_classic():
    # A few well-known positions after Knuth's 1122 (first guesses over all codes).
    v = mm.Variant.classic()
    minimax = mm.get_strategy("minimax")
    history = mm.History(v).then(v.parse("1122"), v.answer(0, 0))
    assert len(history.candidates()) == 256
    assert v.format(minimax.next_guess(history)) == "3345"
    history = mm.History(v).then(v.parse("1122"), v.answer(1, 1))
    assert len(history.candidates()) == 208


def test_strategies_on_classic_positions_equal_their_twins():
    # Positions that minimax play reaches after one and two turns.
    v, twin = mm.Variant.classic(), ref.plain(4, 6)
    minimax = mm.get_strategy("minimax")
    for secret in np.random.default_rng(3).integers(v.size, size=3).tolist():
        turns = []
        for _ in range(2):
            guess = minimax.next_guess(library_history(v, turns))
            turns.append((guess, ref.score(twin.codes[secret], twin.codes[guess])))
            check_against_twins((4, 6, True), turns)


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("minimax", "1122"),
        ("minimax-candidates", "1122"),  # on the empty history every code is a candidate
        ("expected-size", "1123"),
        ("entropy", "1234"),
        ("most-parts", "1123"),
        ("first-consistent", "1111"),
    ],
)
def test_documented_first_guesses_on_classic(name, first):
    v = mm.Variant.classic()
    strategy = mm.get_strategy(name)
    assert v.format(strategy.first_guess(v)) == first
    assert v.format(strategy.next_guess(mm.History(v))) == first


def test_bulls_and_cows_first_guesses():
    v = mm.Variant.named("bulls-and-cows")
    assert v.format(mm.get_strategy("first-consistent").first_guess(v)) == "0123"
    assert v.format(mm.get_strategy("minimax").first_guess(v)) == "0123"  # all alike


# --- canonical guesses ----------------------------------------------------------------


def orbit_minima(twin: ref.Plain, used: list[int]) -> set[int]:
    """Index of the lowest code of each class of codes equal up to a permutation of the
    colours no used code contains."""
    seen = {c for g in used for c in twin.codes[g]}
    free = [c for c in range(twin.colours) if c not in seen]
    maps = []
    for perm in itertools.permutations(free):
        mapping = dict(zip(free, perm, strict=True))
        maps.append([mapping.get(c, c) for c in range(twin.colours)])
    lowest = set()
    for code in twin.codes:
        lowest.add(min(tuple(m[c] for c in code) for m in maps))
    return {twin.index[code] for code in lowest}


@pytest.mark.parametrize(
    ("spec", "used"),
    [
        ((4, 6, True), ()),
        ((4, 6, True), ("1122",)),
        ((4, 6, True), ("1234", "5611")),
        ((4, 6, True), ("6543",)),
        ((3, 4, True), ()),
        ((3, 4, True), ("232",)),
        ((4, 5, False), ()),
        ((4, 5, False), ("5132",)),
        ((3, 5, False), ("241",)),
        ((2, 10, True), ("09", "12", "34")),
    ],
    ids=str,
)
def test_canonical_guesses_are_the_lowest_of_each_class(spec, used):
    variant, twin = mm.Variant(*spec), ref.plain(*spec)
    used_indices = [variant.parse(text) for text in used]
    got = canonical_guesses(variant, frozenset(used_indices))
    assert np.all(np.diff(got) > 0)
    assert set(got.tolist()) == orbit_minima(twin, used_indices)


def test_canonical_guesses_on_classic_counts():
    v = mm.Variant.classic()
    assert len(canonical_guesses(v, frozenset())) == 15  # the Bell-number patterns of 4
    everything = frozenset([v.parse("1234"), v.parse("5611")])
    assert len(canonical_guesses(v, everything)) == v.size  # no free colours


# --- random-consistent and the lone candidate ----------------------------------------


@settings(max_examples=40, deadline=None, database=None)
@given(st.integers(0, 1295), st.lists(st.integers(0, 1295), min_size=1, max_size=3))
def test_random_consistent_is_reproducible_and_consistent(secret, guesses):
    v = mm.Variant.classic()
    strategy = mm.get_strategy("random-consistent")
    history = mm.History(v)
    for g in guesses:
        if not history.solved:
            history = history.then(g, v.answer(*mm.score(v, secret, g)))
    cands = history.candidates()
    guess = strategy.next_guess(history)
    assert guess in cands.tolist()
    assert strategy.next_guess(mm.History(v, tuple(history.turns))) == guess
    assert strategy.next_guess(history) == guess


def test_random_consistent_is_not_always_the_first_candidate():
    v = mm.Variant.classic()
    strategy = mm.get_strategy("random-consistent")
    picks = []
    for g in range(0, 1296, 97):
        secret = (g * 7 + 5) % v.size
        history = mm.History(v).then(g, v.answer(*mm.score(v, secret, g)))
        picks.append(strategy.next_guess(history) == history.candidates()[0])
    assert not all(picks)
    first = strategy.first_guess(v)
    assert first == strategy.next_guess(mm.History(v)) and 0 <= first < v.size


def test_a_seed_is_set_named_and_kept_in_the_evaluation():
    strategy = mm.get_strategy("random-consistent")
    seeded = strategy.with_seed(1)
    assert strategy.seed == 0 and seeded.seed == 1 and seeded.name == "random-consistent"
    assert (strategy.label, seeded.label) == (
        "random-consistent (seed 0)",
        "random-consistent (seed 1)",
    )
    v = mm.Variant.classic()
    default, other = mm.evaluate(strategy, v), mm.evaluate(seeded, v)
    assert (default.total, default.seed, default.label) == (6151, 0, "random-consistent (seed 0)")
    assert (other.total, other.seed, other.as_dict()["seed"]) == (5992, 1, 1)
    minimax = mm.evaluate("minimax", mm.Variant(3, 3))
    assert (minimax.seed, minimax.label, minimax.as_dict()["seed"]) == (None, "minimax", None)


@pytest.mark.parametrize("seed", [-1, True, 1.0, "1", None])
def test_a_seed_that_is_no_whole_number_from_0_on_is_refused(seed):
    with pytest.raises(mm.MastermindError, match="seed must be a whole number from 0 on"):
        mm.get_strategy("random-consistent").with_seed(seed)


def test_a_strategy_that_draws_nothing_at_random_takes_no_seed():
    with pytest.raises(mm.MastermindError, match="minimax draws nothing at random, so it takes no"):
        mm.get_strategy("minimax").with_seed(1)


def lone_candidate_history(spec) -> tuple[list, int]:
    """Two turns leaving exactly one candidate that is neither guess (found with the
    twin), and that candidate's index."""
    twin = ref.plain(*spec)
    for a, b in itertools.combinations(range(1, len(twin.codes)), 2):
        groups: dict[tuple, list[int]] = {}
        for c in range(len(twin.codes)):
            groups.setdefault((twin.table[c][a], twin.table[c][b]), []).append(c)
        for members in groups.values():
            if len(members) == 1 and members[0] not in (a, b):
                secret = members[0]
                return [(g, twin.table[secret][g]) for g in (a, b)], secret
    raise AssertionError("no such history")


@pytest.mark.parametrize("spec", [(3, 4, True), (4, 6, True)], ids=str)
def test_a_lone_candidate_is_always_played(spec):
    variant = mm.Variant(*spec)
    turns, secret = lone_candidate_history(spec)
    history = library_history(variant, turns)
    assert history.candidates().tolist() == [secret]
    for name in mm.STRATEGIES:
        assert mm.get_strategy(name).next_guess(history) == secret, name


# --- the registry -----------------------------------------------------------------------


def test_registry_names_and_summaries():
    assert set(mm.STRATEGIES) == SPEC_NAMES
    assert set(mm.HEURISTICS) == SPEC_NAMES - {"optimal"}
    for name, strategy in mm.STRATEGIES.items():
        assert strategy.name == name and strategy.summary
        assert mm.get_strategy(name) is strategy


def test_unknown_strategy_is_a_clear_error():
    with pytest.raises(mm.MastermindError, match="unknown strategy 'knuth'; choose one of"):
        mm.get_strategy("knuth")


def test_next_guess_on_inconsistent_history_raises():
    v = mm.Variant.classic()
    history = mm.History(v).then(v.parse("1111"), v.answer(0, 1))
    with pytest.raises(mm.InconsistentError):
        mm.get_strategy("minimax").next_guess(history)


def test_each_strategy_says_how_many_codes_it_plays_on():
    big = mm.Variant.named("6x9")
    for name, strategy in mm.STRATEGIES.items():
        if strategy.largest >= big.size:
            strategy.check(big)
        else:
            with pytest.raises(mm.MastermindError, match=f"{name} on 531,441 codes"):
                strategy.check(big)
    limits = {name: s.largest for name, s in mm.STRATEGIES.items()}
    assert limits["first-consistent"] == 2**21 and limits["minimax"] == 100_000
    assert limits["optimal"] == 16_384


def test_the_base_class_says_it_chooses_no_guess():
    with pytest.raises(mm.MastermindError, match=r"^Strategy is a base class .*get_strategy"):
        mm.evaluate(mm.Strategy("minimax", "mine"), mm.Variant(2, 3))
