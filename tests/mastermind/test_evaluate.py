"""Evaluation against the one-game-at-a-time twin and the published classic figures;
inconsistent histories (spec § 3): the smallest conflict and the likely typo."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mastermind import reference as ref

import hamle.mastermind as mm
from hamle.mastermind import history as history_module
from hamle.mastermind.evaluate import EVALUATE_LIMIT
from hamle.mastermind.strategies import Partition

SMALL = [(3, 4, True), (4, 4, True), (3, 5, False), (2, 6, True), (2, 3, True)]


def replay(strategy: mm.Strategy, variant: mm.Variant, secret: int) -> int:
    """Guesses ``strategy`` needs for ``secret``, one next_guess at a time."""
    history = mm.History(variant)
    while not history.solved:
        guess = strategy.next_guess(history)
        history = history.then(guess, variant.answer(*mm.score(variant, secret, guess)))
        assert len(history.turns) <= 12
    return len(history.turns)


# --- against the twin ------------------------------------------------------------------


@pytest.mark.parametrize("spec", SMALL, ids=str)
@pytest.mark.parametrize("name", ref.TWIN_STRATEGIES)
def test_evaluation_equals_the_twins_game_by_game_evaluation(spec, name):
    variant = mm.Variant(*spec)
    result = mm.evaluate(name, variant)
    assert result.histogram == ref.evaluate(name, *spec)
    assert sum(result.histogram.values()) == variant.size
    assert list(result.histogram) == sorted(result.histogram)


@pytest.mark.parametrize("name", sorted(mm.STRATEGIES))
def test_grouped_evaluation_equals_replaying_every_secret(name):
    variant = mm.Variant(4, 4)
    strategy = mm.get_strategy(name)
    counts: dict[int, int] = {}
    for secret in range(variant.size):
        n = replay(strategy, variant, secret)
        counts[n] = counts.get(n, 0) + 1
    assert mm.evaluate(name, variant).histogram == dict(sorted(counts.items()))


# --- the classic figures ---------------------------------------------------------------

PUBLISHED = [
    # name, first guess, total, worst (None: not pinned)
    ("minimax", "1122", 5801, 5),  # Knuth 1977: average 4.476
    ("expected-size", "1123", 5696, None),  # Kooi 2005
    ("entropy", "1234", 5722, None),  # Kooi 2005
    ("most-parts", "1123", 5668, None),  # Kooi 2005
    ("first-consistent", "1111", 7471, None),
]


@pytest.mark.parametrize(("name", "first", "total", "worst"), PUBLISHED)
def test_published_classic_figures(name, first, total, worst):
    variant = mm.Variant.classic()
    result = mm.evaluate(name, variant)
    assert result.first_guess == first
    assert result.total == total
    assert sum(result.histogram.values()) == 1296
    assert result.histogram[1] == 1
    assert result.average == pytest.approx(total / 1296)
    if worst is not None:
        assert result.maximum == worst
    data = result.as_dict()
    assert data["total"] == total and data["codes"] == 1296 and data["first_guess"] == first
    assert data["histogram"] == {str(n): c for n, c in result.histogram.items()}
    assert data["max"] == result.maximum and data["strategy"] == name
    assert result.seconds >= 0


def test_knuth_histogram():
    # Knuth (1977): 1, 6, 62, 533, 694 secrets in 1..5 guesses.
    result = mm.evaluate("minimax", mm.Variant.classic())
    assert result.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}


def test_replaying_a_handful_of_classic_secrets_matches_the_evaluation():
    variant = mm.Variant.classic()
    strategy = mm.get_strategy("minimax")
    result = mm.evaluate(strategy, variant)
    rng = np.random.default_rng(5)
    secrets = [0, 7, 1295, *rng.integers(variant.size, size=25).tolist()]
    for secret in secrets:
        assert 1 <= replay(strategy, variant, secret) <= result.maximum
    assert replay(strategy, variant, variant.parse("1122")) == 1


@pytest.mark.parametrize("name", sorted(mm.HEURISTICS))
def test_replaying_every_classic_secret_gives_the_grouped_histogram(name):
    variant = mm.Variant.classic()
    strategy = mm.get_strategy(name)
    counts: dict[int, int] = {}
    for secret in range(variant.size):
        n = replay(strategy, variant, secret)
        counts[n] = counts.get(n, 0) + 1
    assert mm.evaluate(strategy, variant).histogram == dict(sorted(counts.items()))


def test_jobs_give_the_same_histogram():
    variant = mm.Variant.classic()
    for name in ("minimax", "random-consistent"):
        one = mm.evaluate(name, variant, jobs=1)
        two = mm.evaluate(name, variant, jobs=2)
        assert two.histogram == one.histogram and two.first_guess == one.first_guess


def test_progress_counts_every_subtree():
    calls = []
    mm.evaluate("expected-size", mm.Variant(3, 4), progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1]
    assert [d for d, _ in calls] == list(range(1, len(calls) + 1))


def test_evaluate_accepts_a_strategy_object():
    variant = mm.Variant(3, 4)
    by_object = mm.evaluate(mm.get_strategy("entropy"), variant)
    assert by_object.histogram == mm.evaluate("entropy", variant).histogram
    assert by_object.strategy == "entropy"


def test_scoring_strategies_refuse_huge_code_spaces():
    with pytest.raises(mm.MastermindError) as caught:
        mm.evaluate("minimax", mm.Variant.named("6x9"))
    message = str(caught.value)
    assert "531,441 codes" in message and f"up to {EVALUATE_LIMIT:,} codes" in message
    with pytest.raises(mm.MastermindError, match="would take hours"):
        mm.evaluate("entropy", mm.Variant(6, 9))


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", 65, True, np.bool_(True), np.int64(0)])
def test_bad_jobs(jobs):
    # The library's words: no option's dashes.
    with pytest.raises(mm.MastermindError, match=r"^jobs must be from 1 to 64, not "):
        mm.evaluate("first-consistent", mm.Variant(2, 3), jobs=jobs)


def test_jobs_may_be_a_numpy_integer():
    variant = mm.Variant(2, 3)
    result = mm.evaluate("first-consistent", variant, jobs=np.int64(2))
    assert result.histogram == mm.evaluate("first-consistent", variant).histogram


def test_unknown_strategy():
    with pytest.raises(mm.MastermindError, match="unknown strategy 'knuth'"):
        mm.evaluate("knuth", mm.Variant(2, 3))


# --- inconsistent answers (§ 3) ----------------------------------------------------------


def twin_left(variant: mm.Variant, turns) -> int:
    """How many codes give every answer of ``turns`` (index pairs), by the twin."""
    twin = ref.plain(variant.pegs, variant.colours, variant.repeat)
    history = [(twin.codes[g], variant.split(a)) for g, a in turns]
    return len(ref.candidates(twin.codes, history, twin.score))


def single_corrections(variant: mm.Variant, turns) -> list[tuple[int, int, int]]:
    """Every (turn, answer, left) that changes one answer and leaves candidates (a win
    only at the last turn)."""
    out = []
    for t, (guess, typed) in enumerate(turns):
        for b, w in ref.possible_answers(variant.pegs):
            answer = b * (variant.pegs + 1) + w
            if answer == typed or (b == variant.pegs and t < len(turns) - 1):
                continue
            fixed = list(turns)
            fixed[t] = (guess, answer)
            left = twin_left(variant, fixed)
            if left:
                out.append((t, answer, left))
    return out


def check_inconsistency(history: mm.History) -> mm.InconsistentError:
    """The error's conflict is a smallest conflicting set and its correction works."""
    variant, turns = history.variant, history.turns
    assert twin_left(variant, turns) == 0
    with pytest.raises(mm.InconsistentError) as caught:
        history.candidates()
    error = caught.value
    conflict = tuple(error.conflict)
    assert conflict and all(0 <= i < len(turns) for i in conflict)
    assert list(conflict) == sorted(set(conflict))
    assert twin_left(variant, [turns[i] for i in conflict]) == 0
    for size in range(1, len(conflict)):
        for subset in itertools.combinations(range(len(turns)), size):
            assert twin_left(variant, [turns[i] for i in subset]) > 0, subset
    message = str(error)
    opening = "all these answers: " if len(conflict) > 1 else "the answer "
    assert message.startswith("no secret gives " + opening)
    assert ("cannot all be right" in message) == (len(conflict) > 1)
    for i in conflict:
        assert f"#{i + 1} ({variant.format(turns[i][0])}" in message
    possible = single_corrections(variant, turns)
    if not possible:
        assert error.correction is None
        return error
    turn, answer, left = error.correction
    assert (turn, answer, left) in possible
    fixed = list(turns)
    fixed[turn] = (turns[turn][0], answer)
    assert len(mm.History(variant, tuple(fixed)).candidates()) == left

    # Fewest pegs changed, then most candidates left, then the latest turn (as documented).
    def rank(t, a, left):
        (b0, w0), (b1, w1) = variant.split(turns[t][1]), variant.split(a)
        return abs(b0 - b1) + abs(w0 - w1), -left, -t

    assert rank(turn, answer, left) == min(rank(*option) for option in possible)
    assert f"answer #{turn + 1} should be" in message and f"{left} candidate" in message
    return error


def test_impossible_single_answer_is_its_own_conflict():
    v = mm.Variant.classic()
    history = mm.History(v).then(v.parse("1111"), v.answer(0, 1))
    error = check_inconsistency(history)
    assert error.conflict == (0,)
    assert error.correction == (0, v.answer(0, 0), 625)  # one peg off: no 1 at all
    assert error.code == "mastermind.impossible_typo"  # (not "all these answers")
    assert str(error).startswith("no secret gives the answer #1 (1111 → 0 black 1 white); ")


def test_two_answers_that_contradict_each_other():
    v = mm.Variant.classic()
    history = (
        mm.History(v)
        .then(v.parse("1122"), v.answer(2, 0))
        .then(v.parse("3456"), v.answer(0, 1))
        .then(v.parse("1212"), v.answer(0, 0))  # no 1 and no 2 at all
    )
    error = check_inconsistency(history)
    assert set(error.conflict) == {0, 2}
    assert isinstance(error, mm.MastermindError)
    assert error.code.startswith("mastermind.inconsistent")
    assert str(error).startswith("no secret gives all these answers: #1 (1122 → 2 black ")


def test_three_answers_conflict_although_every_two_agree():
    v = mm.Variant.classic()
    turns = tuple(
        (v.parse(code), v.answer(*answer))
        for code, answer in [("1122", (0, 0)), ("1234", (0, 1)), ("3456", (1, 0))]
    )
    for pair in itertools.combinations(turns, 2):
        assert twin_left(v, pair) > 0
    error = check_inconsistency(mm.History(v, turns))
    assert error.conflict == (0, 1, 2)


def test_a_mistyped_answer_among_several_is_found():
    # Knuth's game for 5122: 1122 → 3 0, 1223 → 1 2, 1145 → 1 1, 4122 → 3 0, then 5122.
    # The person types 1 0 instead of 1 2 for 1223; only that answer can be corrected.
    v = mm.Variant.classic()
    true = [("1122", (3, 0)), ("1223", (1, 2)), ("1145", (1, 1)), ("4122", (3, 0))]
    secret = (4, 0, 1, 1)  # 5122
    for code, answer in true:
        guess = tuple(int(c) - 1 for c in code)
        assert ref.score(secret, guess) == answer
    typed = [(v.parse(code), v.answer(*answer)) for code, answer in true]
    typed[1] = (typed[1][0], v.answer(1, 0))
    history = mm.History(v, tuple(typed))
    assert single_corrections(v, history.turns) == [(1, v.answer(1, 2), 1)]
    error = check_inconsistency(history)
    assert error.correction == (1, v.answer(1, 2), 1)
    assert 1 in error.conflict
    assert "most likely answer #2 should be 1 black 2 white (1 candidate would remain)" in str(
        error
    )
    assert mm.likely_typo(history) == error.correction


def test_of_two_corrections_alike_the_later_turn_is_named():
    """11 → 0 0 then 11 → 1 0: either answer changed by one peg leaves 4 candidates, and
    the later turn is the likelier typo."""
    variant = mm.Variant(2, 3)
    history = mm.History(variant, ((variant.parse("11"), 0), (variant.parse("11"), 3)))
    assert mm.likely_typo(history) == (1, 0, 4)
    assert "answer #2 should be 0 black 0 white" in str(check_inconsistency(history))


@cache
def possible_answers(variant: mm.Variant) -> frozenset[int]:
    """The answers some two codes give, by scoring every pair."""
    codes = range(variant.size)
    return frozenset(variant.answer(*mm.score(variant, s, g)) for s in codes for g in codes)


@settings(max_examples=40, deadline=None, database=None)
@given(
    st.sampled_from([(3, 4, True), (4, 4, True), (3, 5, False)]),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=4),
)
def test_random_histories_candidates_or_a_sound_explanation(spec, raw):
    variant = mm.Variant(*spec)
    answers = [a for a in range(variant.answer_slots) if sum(variant.split(a)) <= variant.pegs]
    turns = tuple((g % variant.size, answers[a % len(answers)]) for g, a in raw)
    if any(answer not in possible_answers(variant) for _, answer in turns):
        # an answer no two codes give is refused at once (unless a turn after a win is first)
        with pytest.raises(mm.MastermindError, match=r"is not an answer|no turn comes after"):
            mm.History(variant, turns)
        turns = tuple((g, a) for g, a in turns if a in possible_answers(variant))
    answers = [a for _, a in turns]
    if variant.solved in answers[:-1]:  # a turn after the game was won is refused
        with pytest.raises(mm.MastermindError, match="solved the game; no turn comes after it"):
            mm.History(variant, turns)
        turns = turns[: answers.index(variant.solved) + 1]
    history = mm.History(variant, turns)
    left = twin_left(variant, turns)
    if left:
        assert len(history.candidates()) == left
    else:
        check_inconsistency(history)


def lexically_first_smallest_conflict(variant: mm.Variant, turns) -> tuple[int, ...]:
    """Every set of turns by size, then by turn numbers, counted by the twin."""
    for size in range(1, len(turns) + 1):
        for chosen in itertools.combinations(range(len(turns)), size):
            if twin_left(variant, [turns[i] for i in chosen]) == 0:
                return chosen
    raise AssertionError("the turns leave candidates")


@settings(max_examples=60, deadline=None, database=None)
@given(
    st.sampled_from([(2, 3, True), (3, 4, True), (3, 5, False), (1, 6, True)]),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=2, max_size=8),
    st.lists(st.integers(0, 7), max_size=4),
)
def test_longer_histories_with_repeated_turns_name_the_first_smallest_conflict(spec, raw, repeated):
    variant = mm.Variant(*spec)
    answers = sorted(possible_answers(variant) - {variant.solved})
    turns = [(g % variant.size, answers[a % len(answers)]) for g, a in raw]
    turns += [turns[i % len(turns)] for i in repeated]  # a turn given again says nothing new
    if twin_left(variant, turns):
        return
    error = mm.inconsistency(mm.History(variant, tuple(turns)))
    assert error.conflict == lexically_first_smallest_conflict(variant, turns)


def digits_ruled_out(repeats: int) -> tuple:
    """1 peg of 10 colours: 0 answered 0 0 ``repeats`` times, then each of 1-9: no digit is
    left, and only all ten turns together say so."""
    return (("0", (0, 0)),) * repeats + tuple((str(d), (0, 0)) for d in range(1, 10))


@pytest.mark.parametrize("repeats", [10, 24, 500])
def test_an_inconsistency_among_many_turns_is_explained_at_once(repeats, monkeypatch):
    variant = mm.Variant(1, 10)
    history = mm.History(variant, digits_ruled_out(repeats))
    scored = 0
    answers_of = mm.Variant.answers_of

    def counted(self, *args):
        nonlocal scored
        scored += 1
        return answers_of(self, *args)

    monkeypatch.setattr(mm.Variant, "answers_of", counted)
    with pytest.raises(mm.InconsistentError) as caught:
        history.candidates()
    # (every set of turns by size: 19 turns had taken 17 s, 24 over two minutes)
    assert scored < 10_000
    assert caught.value.conflict == (0, *range(repeats, repeats + 9))
    assert caught.value.correction == (repeats + 8, variant.answer(1, 0), 1)  # the secret: 9


def pairs_ruled_out(seed: int) -> tuple:
    """2 pegs of 8 colours, every pair of colours answered 0 0 in a shuffled order: four
    turns at least rule out every colour."""
    pairs = [f"{a}{b}" for a, b in itertools.combinations("12345678", 2)]
    random.Random(seed).shuffle(pairs)
    return tuple((pair, (0, 0)) for pair in pairs)


def test_past_its_work_the_search_names_turns_that_are_all_needed(monkeypatch):
    variant = mm.Variant(2, 8)
    turns = mm.History(variant, pairs_ruled_out(0)).turns
    smallest = mm.inconsistency(mm.History(variant, turns)).conflict
    assert smallest == (0, 2, 3, 17) == lexically_first_smallest_conflict(variant, turns)
    monkeypatch.setattr(history_module, "CONFLICT_WORK", 50_000)
    conflict = mm.inconsistency(mm.History(variant, turns)).conflict
    assert conflict == mm.inconsistency(mm.History(variant, turns)).conflict  # deterministic
    assert conflict != smallest and list(conflict) == sorted(set(conflict))
    assert twin_left(variant, [turns[i] for i in conflict]) == 0
    for i in conflict:  # every one of them is needed
        assert twin_left(variant, [turns[j] for j in conflict if j != i]) > 0


@dataclass(frozen=True)
class Returns(mm.Strategy):
    """A user's own strategy that always chooses ``guess``."""

    guess: object = 0

    def choose(self, history, candidates):
        return candidates[-1] if self.guess == "last" else self.guess


@pytest.mark.parametrize(
    ("guess", "message"),
    [
        (0, r"stuck chose 111, which tells none of the \d+ candidates apart"),
        (1.5, r"stuck chose 1.5, not a code of the variant \(a whole number from 0 to 26\)"),
        (-5, "stuck chose -5, not a code of the variant"),
    ],
)
@pytest.mark.parametrize("run", ["evaluate", "evaluate-jobs", "tree"])
def test_a_strategy_that_would_never_end_a_game_is_named_not_played_for_ever(guess, message, run):
    """A guess that tells no candidates apart left them as they were: the game ran for
    ever (evaluate) or until the stack ran out (strategy_tree)."""
    from hamle.mastermind.tree import strategy_tree

    stuck, variant = Returns("stuck", "", guess), mm.Variant(3, 3)
    calls = {
        "evaluate": lambda: mm.evaluate(stuck, variant),
        "evaluate-jobs": lambda: mm.evaluate(stuck, variant, jobs=2),
        "tree": lambda: strategy_tree(stuck, variant),
    }
    with pytest.raises(mm.MastermindError, match=message):
        calls[run]()


def test_a_strategy_of_ones_own_that_ends_every_game_is_played():
    last = Returns("last", "", "last")  # a NumPy number, the last candidate
    result = mm.evaluate(last, mm.Variant(3, 3))
    assert sum(result.histogram.values()) == 27 and result.total == 89


def test_progress_that_cannot_be_called_is_named():
    from hamle.mastermind.optimal import solve

    variant = mm.Variant(2, 3)
    for call in (
        lambda: mm.evaluate("minimax", variant, progress=5),
        lambda: solve(variant, progress=5),
    ):
        with pytest.raises(mm.MastermindError, match=r"progress is a function of .* not 5"):
            call()


@dataclass(frozen=True)
class LazyPartition(Partition):
    """A subclass of the scoring strategies that plays the first candidate."""

    def choose(self, history, candidates):
        return int(candidates[0])


def test_a_subclass_of_a_scoring_strategy_is_played_through_its_own_choose():
    """On a variant past the vectors' limit, evaluate played the built-in kernel's
    guesses below the subclass's first one."""
    from hamle.mastermind.tree import strategy_tree, tree_json, verify

    variant = mm.Variant.named("4x8")
    lazy = LazyPartition("lazy", "", 0, True)
    total = mm.evaluate(lazy, variant).total
    assert total == mm.evaluate("first-consistent", variant).total == 29544
    data = tree_json(strategy_tree(lazy, variant), variant, "lazy")
    assert verify(data).total == total


def test_a_strategy_that_cannot_go_to_other_processes_is_named_before_the_run():
    @dataclass(frozen=True)
    class Local(mm.Strategy):
        def choose(self, history, candidates):
            return int(candidates[0])

    with pytest.raises(mm.MastermindError, match="local cannot be sent to other processes"):
        mm.evaluate(Local("local", ""), mm.Variant(3, 3), jobs=2)
    assert mm.evaluate(Local("local", ""), mm.Variant(3, 3)).total > 0


def test_a_strategy_that_cannot_be_hashed_is_played_all_the_same():
    """Its first guess was kept in a cache by the strategy: TypeError, unhashable."""

    class Unhashable(mm.Strategy):
        __hash__ = None

        def __init__(self):
            super().__init__("unhashable", "the first candidate")

        def choose(self, history, candidates):
            return int(candidates[0])

    variant = mm.Variant(3, 3)
    assert (
        mm.evaluate(Unhashable(), variant).total == mm.evaluate("first-consistent", variant).total
    )
