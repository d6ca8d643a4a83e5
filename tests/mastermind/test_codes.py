"""Variants, codes and feedback: the packed kernels and the NumPy table against the plain
score of ``reference.py``, the properties of § 2, parsing and formatting, and bad input."""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mastermind import reference as ref

import hamle.mastermind as mm
from hamle.mastermind import _kernels, _vector
from hamle.mastermind.codes import MAX_CODES

SETTINGS = settings(max_examples=60, deadline=None)

# Small variants: every pair is checked. (pegs, colours, repeat)
SMALL = [
    (1, 3, True),
    (3, 4, True),
    (4, 6, True),
    (2, 10, True),
    (4, 5, False),
    (5, 3, True),
    (8, 2, True),
    (3, 3, False),
    (4, 4, False),
]
SMALL_IDS = [f"{p}x{k}{'' if r else '-norep'}" for p, k, r in SMALL]


def encoded(variant: mm.Variant, table: list[list[tuple[int, int]]]) -> np.ndarray:
    """The plain table as answer indices black * (pegs + 1) + white."""
    p = variant.pegs
    return np.array([[b * (p + 1) + w for b, w in row] for row in table], np.int64)


def digits(variant: mm.Variant, code: tuple[int, ...]) -> str:
    return "".join(str(c + variant.first_digit) for c in code)


# --- every pair of small variants ------------------------------------------------------


@pytest.mark.parametrize("spec", SMALL, ids=SMALL_IDS)
def test_code_table_is_the_lexicographic_enumeration(spec):
    variant = mm.Variant(*spec)
    codes = ref.plain(*spec).codes
    assert variant.size == len(codes)
    assert [tuple(int(c) for c in row) for row in variant.codes()] == codes
    assert codes == sorted(codes)
    formatted = [variant.format(i) for i in range(variant.size)]
    assert formatted == sorted(formatted)
    assert formatted == [digits(variant, code) for code in codes]
    assert [variant.parse(text) for text in formatted] == list(range(variant.size))
    counts = variant.colour_counts()
    for i in range(0, variant.size, max(1, variant.size // 50)):
        assert counts[i].tolist() == [codes[i].count(c) for c in range(variant.colours)]


@pytest.mark.parametrize("spec", SMALL, ids=SMALL_IDS)
def test_pack_puts_colours_places_and_counts_in_words(spec):
    variant = mm.Variant(*spec)
    digits, places, unary, sets = variant.packed()
    assert len(digits) == variant.size + _kernels.LANES
    width = variant.pegs if variant.repeat else 1
    onehot = variant.pegs * variant.colours <= 64
    for i, code in enumerate(ref.plain(*spec).codes[:5000]):
        word, place, tally = int(digits[i]), int(places[i]), int(unary[i])
        assert [(word >> (4 * j)) & 15 for j in range(variant.pegs)] == list(code)
        assert word >> (4 * variant.pegs) == 0
        if onehot:
            assert place == sum(1 << (j * variant.colours + c) for j, c in enumerate(code))
        else:
            assert place == word
        runs = [(tally >> (width * c)) & ((1 << width) - 1) for c in range(variant.colours)]
        assert [bin(r).count("1") for r in runs] == [code.count(c) for c in range(variant.colours)]
        assert int(sets[i]) == sum(1 << c for c in set(code))


@pytest.mark.parametrize("spec", [s for s in SMALL if len(ref.all_codes(*s)) <= 1296], ids=str)
def test_kernels_and_the_vector_table_equal_the_plain_score_on_every_pair(spec):
    variant = mm.Variant(*spec)
    expected = encoded(variant, ref.plain(*spec).table)  # expected[secret, guess]
    packed = variant.packed()
    assert np.array_equal(_kernels.feedback_table(packed, variant.pegs), expected)
    assert np.array_equal(_vector.table(variant.codes(), variant.colour_counts()), expected)
    library = mm.feedback_table(variant)
    assert library is not None and np.array_equal(library, expected)
    targets = np.arange(variant.size, dtype=np.int64)
    for guess in range(variant.size):
        row = _kernels.answer_row(packed, variant.pegs, guess, targets)
        assert np.array_equal(row, expected[:, guess]), variant.format(guess)
        assert np.array_equal(variant.feedback(guess), expected[:, guess])
    some = targets[::3][::-1].copy()
    for guess in (0, variant.size // 2, variant.size - 1):
        assert np.array_equal(variant.feedback(guess, some), expected[some, guess])


def test_kernels_score_sampled_pairs_of_a_variant_too_wide_for_one_hot_pegs():
    variant = mm.Variant(7, 10, False)
    codes = ref.all_codes(7, 10, repeat=False)
    rng = np.random.default_rng(5)
    pairs = rng.integers(variant.size, size=(2000, 2))
    row = _kernels.answer_row(variant.packed(), 7, int(pairs[0, 0]), pairs[:, 1].copy())
    want = [ref.score(codes[j], codes[int(pairs[0, 0])]) for j in pairs[:, 1].tolist()]
    assert row.tolist() == [b * 8 + w for b, w in want]
    for i, j in pairs[:300].tolist():
        b, w = ref.score(codes[i], codes[j])
        assert variant.feedback(i, np.array([j])).tolist() == [b * 8 + w]


@pytest.mark.parametrize("spec", [s for s in SMALL if len(ref.all_codes(*s)) <= 150], ids=str)
def test_score_function_equals_the_plain_score_on_every_pair(spec):
    variant = mm.Variant(*spec)
    twin = ref.plain(*spec)
    for i, secret in enumerate(twin.codes):
        for j, guess in enumerate(twin.codes):
            assert mm.score(variant, i, j) == ref.score(secret, guess)


def test_score_function_on_sampled_pairs_of_bigger_variants():
    rng = np.random.default_rng(7)
    for spec in [(4, 6, True), (4, 5, False), (8, 2, True)]:
        variant, twin = mm.Variant(*spec), ref.plain(*spec)
        for i, j in rng.integers(variant.size, size=(300, 2)).tolist():
            assert mm.score(variant, i, j) == ref.score(twin.codes[i], twin.codes[j])


def test_bulls_and_cows_sampled_pairs():
    variant = mm.Variant.named("bulls-and-cows")
    codes = ref.all_codes(4, 10, repeat=False)
    assert variant.size == len(codes) == 5040
    rng = np.random.default_rng(11)
    pairs = rng.integers(variant.size, size=(3000, 2))
    table = mm.feedback_table(variant)
    for i, j in pairs.tolist():
        b, w = ref.score(codes[i], codes[j])
        assert table[i, j] == b * 5 + w
        assert mm.score(variant, i, j) == (b, w)
    guess = int(pairs[0, 0])
    row = _kernels.answer_row(variant.packed(), 4, guess, pairs[:, 1].copy())
    want = [ref.score(codes[j], codes[guess]) for j in pairs[:, 1].tolist()]
    assert row.tolist() == [b * 5 + w for b, w in want]


# --- random pairs of big variants ------------------------------------------------------

BIG = [(5, 8), (6, 9), (8, 6), (6, 10)]


@st.composite
def big_pairs(draw):
    pegs, colours = draw(st.sampled_from(BIG))
    code = st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs).map(tuple)
    return pegs, colours, draw(code), draw(code)


@SETTINGS
@given(big_pairs())
def test_big_variants_equal_the_plain_score(case):
    pegs, colours, secret, guess = case
    variant = mm.Variant(pegs, colours)
    s, g = variant.parse(digits(variant, secret)), variant.parse(digits(variant, guess))
    assert tuple(int(c) for c in variant.codes()[s]) == secret
    assert variant.format(s) == digits(variant, secret)
    b, w = ref.score(secret, guess)
    assert mm.score(variant, s, g) == (b, w)
    assert mm.score(variant, g, s) == (b, w)
    answer = variant.answer(b, w)
    assert variant.split(answer) == (b, w)
    assert variant.feedback(g, np.array([s, g])).tolist() == [answer, variant.solved]
    row = _kernels.answer_row(variant.packed(), pegs, s, np.array([g, s], np.int64))
    assert row.tolist() == [answer, variant.solved]


def test_big_variants_have_no_table_but_a_packed_row():
    variant = mm.Variant.named("super")
    assert mm.feedback_table(variant) is None
    assert mm.feedback_table(mm.Variant.classic()) is not None
    guess = variant.parse("12345")
    row = variant.feedback(guess)
    assert row.shape == (32768,)
    twin = [ref.score(code, (0, 1, 2, 3, 4)) for code in ref.all_codes(5, 8)[:2000]]
    assert row[:2000].tolist() == [b * 6 + w for b, w in twin]


# --- properties of § 2 -------------------------------------------------------------------


@pytest.mark.parametrize("spec", SMALL, ids=SMALL_IDS)
def test_answers_are_symmetric_bounded_and_never_three_one(spec):
    variant = mm.Variant(*spec)
    table = mm.feedback_table(variant)
    assert np.array_equal(table, table.T)
    black, white = np.divmod(table.astype(np.int64), variant.pegs + 1)
    assert (black + white <= variant.pegs).all()
    assert not ((black == variant.pegs - 1) & (white == 1)).any()
    assert (np.diag(table) == variant.solved).all()
    assert ((table == variant.solved).sum(axis=1) == 1).all()  # only the code itself


@pytest.mark.parametrize(
    "spec", [(1, 3), (2, 3), (3, 3), (3, 4), (4, 4), (4, 6), (5, 3), (5, 5), (6, 4)], ids=str
)
def test_number_of_answers_is_p_times_p_plus_3_over_2(spec):
    pegs, colours = spec
    variant = mm.Variant(pegs, colours)
    seen = np.flatnonzero(np.bincount(mm.feedback_table(variant).ravel()))
    assert len(seen) == pegs * (pegs + 3) // 2
    if pegs == 4:
        assert len(seen) == 14


def test_the_seeds_banana_skin():
    # Counting common colours before exact matches would count the 1s twice.
    v = mm.Variant.classic()
    assert mm.score(v, v.parse("1123"), v.parse("3211")) == (0, 4)
    assert mm.score(v, v.parse("1111"), v.parse("1222")) == (1, 0)
    assert mm.score(v, v.parse("1122"), v.parse("1212")) == (2, 2)
    assert mm.score(v, v.parse("1234"), v.parse("5612")) == (0, 2)
    assert mm.score(v, v.parse("6543"), v.parse("6543")) == (4, 0)


VALID_ANSWER_SPECS = [
    (4, 6, True),
    (3, 4, True),
    (5, 3, True),
    (4, 5, False),
    (3, 3, False),
    (4, 10, False),
    (3, 2, True),
    (8, 2, True),
]


@pytest.mark.parametrize("spec", VALID_ANSWER_SPECS, ids=str)
def test_answer_accepts_exactly_the_answers_two_codes_give(spec):
    """The docstring: 'AnswerError if no two codes give it'."""
    variant = mm.Variant(*spec)
    occurring = {variant.split(a) for a in np.unique(mm.feedback_table(variant)).tolist()}
    accepted = set()
    for b, w in ref.possible_answers(variant.pegs):
        with contextlib.suppress(mm.AnswerError):
            accepted.add(variant.split(variant.answer(b, w)))
    assert accepted == occurring


# --- parsing and formatting --------------------------------------------------------------


def test_parse_lets_go_of_commas_and_whitespace():
    v = mm.Variant.classic()
    assert v.parse("1122") == v.parse("1 1 2 2") == v.parse("1,1,2,2") == 7
    for spaced in ("1\t1\t2\t2", "11\n22", "1\r\n122\n", "1\u00a0122", " 1, 1,\t2 2 "):
        assert v.parse(spaced) == 7, spaced
    with pytest.raises(mm.CodeError, match=r"'1\\t1\\t2' is not a code: write 4 digits 1-6"):
        v.parse("1\t1\t2")
    assert v.parse("6666") == 1295 and v.format(1295) == "6666"
    assert v.format(np.int64(7)) == "1122"


def test_bulls_and_cows_shows_digits_0_to_9():
    v = mm.Variant.named("bulls-and-cows")
    assert (v.pegs, v.colours, v.repeat, v.size) == (4, 10, False, 5040)
    assert v.format(0) == "0123" and v.format(v.size - 1) == "9876"
    assert v.parse("0123") == 0 and v.parse("9876") == 5039
    shown = [v.format(i) for i in range(v.size)]
    assert all(len(set(code)) == 4 for code in shown)
    assert set("".join(shown)) == set("0123456789")
    assert shown == sorted(shown)
    assert "0-9" in v.describe() and "5040 codes" in v.describe()
    assert v.parse(v.format(1234)) == 1234


def test_presets():
    sizes = {"classic": 1296, "4x8": 4096, "super": 32768, "5x8": 32768, "6x9": 531441}
    for name, size in sizes.items():
        assert mm.Variant.named(name).size == size
    assert mm.Variant.named("classic") == mm.Variant.classic() == mm.Variant(4, 6, True)
    assert (
        mm.Variant.classic().describe() == "4 pegs, 6 colours (1-6), repetition allowed: 1296 codes"
    )


def test_answer_index_round_trip():
    v = mm.Variant.classic()
    for b, w in ref.possible_answers(4):
        if (b, w) != (3, 1):
            assert v.split(v.answer(b, w)) == (b, w)
            assert v.parse_answer(f"{b} {w}") == v.parse_answer(f"{b},{w}") == v.answer(b, w)
            assert v.parse_answer(f"{b}{w}") == v.answer(b, w)
    assert v.solved == v.answer(4, 0)


# --- bad input ---------------------------------------------------------------------------

CLASSIC = mm.Variant.classic()
BULLS = mm.Variant.named("bulls-and-cows")


@pytest.mark.parametrize(
    ("call", "kind", "phrase"),
    [
        (lambda: CLASSIC.parse("112"), mm.CodeError, "write 4 digits 1-6"),
        (lambda: CLASSIC.parse("11223"), mm.CodeError, "is not a code"),
        (lambda: CLASSIC.parse("1127"), mm.CodeError, "colour 7 at position 4"),
        (lambda: CLASSIC.parse("0123"), mm.CodeError, "colour 0 at position 1 is not in 1-6"),
        (lambda: CLASSIC.parse("12a4"), mm.CodeError, "is not a code"),
        (lambda: CLASSIC.parse("abcd"), mm.CodeError, "is not a code"),
        (lambda: CLASSIC.parse(1122), mm.CodeError, "written as digits"),
        (lambda: BULLS.parse("1123"), mm.CodeError, "repeats 1, which"),
        (lambda: mm.Variant(4, 5, False).parse("1126"), mm.CodeError, "not in 1-5"),
        (lambda: CLASSIC.format(1296), mm.CodeError, "not in 0..1295"),
        (lambda: CLASSIC.format(-1), mm.CodeError, "not in 0..1295"),
        (lambda: mm.Variant(0, 6), mm.VariantError, "pegs must be 1 to 8"),
        (lambda: mm.Variant(9, 2), mm.VariantError, "pegs must be 1 to 8"),
        (lambda: mm.Variant(4, 1), mm.VariantError, "colours must be 2 to 10"),
        (lambda: mm.Variant(4, 11), mm.VariantError, "colours must be 2 to 10"),
        (lambda: mm.Variant(True, 6), mm.VariantError, "pegs must be 1 to 8"),
        (lambda: mm.Variant(8, 7), mm.VariantError, "at most 2,097,152"),
        (lambda: mm.Variant(5, 4, False), mm.VariantError, "need at least 5 colours"),
        (lambda: mm.Variant.named("dutch"), mm.VariantError, "unknown variant 'dutch'"),
        (lambda: CLASSIC.parse_answer("3 1"), mm.AnswerError, "cannot happen"),
        (lambda: CLASSIC.parse_answer("5 0"), mm.AnswerError, "more than 4 pegs"),
        (lambda: CLASSIC.parse_answer("3 2"), mm.AnswerError, "more than 4 pegs"),
        (lambda: CLASSIC.parse_answer("x y"), mm.AnswerError, "is not an answer"),
        (lambda: CLASSIC.parse_answer("1"), mm.AnswerError, "is not an answer"),
        (lambda: CLASSIC.parse_answer("1 2 3"), mm.AnswerError, "is not an answer"),
        (lambda: CLASSIC.answer(-1, 0), mm.AnswerError, "whole numbers"),
        (lambda: mm.Variant(4, 5, False).answer(0, 0), mm.AnswerError, "cannot happen"),
        (lambda: mm.Variant(4, 5, False).parse_answer("1 1"), mm.AnswerError, "at least 3"),
        (lambda: BULLS.answer(3, 1), mm.AnswerError, "cannot happen"),
        (lambda: mm.score(CLASSIC, -1, 0), mm.CodeError, "give its index 0-1295"),
        (lambda: mm.score(CLASSIC, 0, 1296), mm.CodeError, "give its index 0-1295"),
        (lambda: mm.score(CLASSIC, "1123", "3217"), mm.CodeError, "colour 7 at position 4"),
        (lambda: mm.score(CLASSIC, 2.0, 0), mm.CodeError, "is not a code"),
        (lambda: mm.score(CLASSIC, True, 0), mm.CodeError, "is not a code"),
        (lambda: mm.History(CLASSIC).then(7, 99), mm.AnswerError, "99 is not an answer"),
        (lambda: mm.History(CLASSIC).then(7, 19), mm.AnswerError, "19 is not an answer"),
        (lambda: mm.History(CLASSIC).then(7, (3, 1)), mm.AnswerError, "cannot happen"),
        (lambda: mm.History(CLASSIC).then(-1, 0), mm.CodeError, "is not a code"),
        (lambda: mm.History(CLASSIC, ((7, 99),)), mm.AnswerError, "99 is not an answer"),
        (lambda: mm.History(CLASSIC, (7,)), mm.CodeError, "a turn is (guess, answer)"),
        (lambda: mm.History("classic"), mm.VariantError, "needs a Variant"),
    ],
)
def test_bad_input_gets_a_clear_error(call, kind, phrase):
    with pytest.raises(kind) as caught:
        call()
    assert phrase in str(caught.value)
    assert isinstance(caught.value, mm.MastermindError)
    assert isinstance(caught.value, ValueError)


def test_codes_and_answers_are_taken_as_indices_or_as_written():
    assert mm.score(CLASSIC, "1123", "3211") == mm.score(CLASSIC, 8, CLASSIC.parse("3211"))
    assert mm.score(CLASSIC, np.int64(8), "3211") == (0, 4)
    one = mm.History(CLASSIC).then("1122", (1, 1))
    assert one == mm.History(CLASSIC).then(7, CLASSIC.answer(1, 1))
    assert one == mm.History(CLASSIC, (("1122", (1, 1)),))
    assert one.turns == ((7, 6),)


def test_largest_supported_variants_are_accepted():
    assert mm.Variant(8, 6).size == 6**8 <= MAX_CODES
    assert mm.Variant(1, 2).size == 2
    assert mm.Variant(8, 10, False).size == 1_814_400
    assert mm.Variant(4, 5, False).answer(0, 3) == 3


def test_non_ascii_digits_in_a_code_are_a_code_error():
    # '²'.isdigit() is True but int('²') fails.
    with pytest.raises(mm.CodeError):
        CLASSIC.parse("112²")


def test_non_ascii_digits_in_an_answer_are_an_answer_error():
    with pytest.raises(mm.AnswerError):
        CLASSIC.parse_answer("²1")


# --- arguments of the wrong kind name what is wrong ------------------------------------


@pytest.mark.parametrize(
    ("call", "phrase"),
    [
        (lambda: mm.Variant(4, 6, repeat="no"), "repeat must be True or False, not 'no'"),
        (lambda: mm.Variant(4, 6, repeat=None), "repeat must be True or False, not None"),
        (lambda: mm.Variant(4, 6, repeat=1), "repeat must be True or False, not 1"),
        (lambda: CLASSIC.feedback(-1), "guess -1 is not a code index 0-1295"),
        (lambda: CLASSIC.feedback(5000), "guess 5000 is not a code index 0-1295"),
        (lambda: CLASSIC.feedback("1122"), "guess '1122' is not a code index"),
        (lambda: CLASSIC.feedback(0, [3, -1]), "codes must be code indices 0-1295"),
        (lambda: CLASSIC.feedback(0, [1296]), "codes must be code indices 0-1295"),
        (lambda: CLASSIC.feedback(0, [1.5]), "codes must be a flat array of code indices"),
        (lambda: mm.evaluate("minimax", "classic"), "variant must be a Variant"),
        (lambda: mm.evaluate(None, CLASSIC), "strategy must be a Strategy or one of"),
        (lambda: mm.feedback_table("classic"), "variant must be a Variant"),
        (lambda: mm.score("classic", "1122", "1123"), "variant must be a Variant"),
        (lambda: CLASSIC.parse_answer(None), "None is not an answer"),
        (lambda: CLASSIC.format(True), "code index True is not in 0..1295"),
        (lambda: mm.History(CLASSIC, None), "turns must be a tuple of (guess, answer)"),
        (lambda: mm.History(CLASSIC, 5), "turns must be a tuple of (guess, answer)"),
        (lambda: mm.Variant.named(["classic"]), "a variant name is a string"),
        (lambda: mm.get_strategy("minimax").next_guess(None), "history must be a History"),
        (lambda: mm.get_strategy("optimal").next_guess(None), "history must be a History"),
        (lambda: mm.get_strategy("minimax").check("classic"), "variant must be a Variant"),
        (lambda: mm.inconsistency(None), "history must be a History"),
        (lambda: mm.likely_typo("1122"), "history must be a History"),
    ],
)
def test_arguments_of_the_wrong_kind_are_named(call, phrase):
    with pytest.raises(mm.MastermindError) as caught:
        call()
    assert phrase in str(caught.value)


@pytest.mark.parametrize(
    "call",
    [lambda text: CLASSIC.parse(text), lambda text: CLASSIC.parse_answer(text)],
)
def test_a_long_input_is_quoted_cut_short(call):
    with pytest.raises(mm.MastermindError) as caught:
        call("1" * 10_000)
    assert str(caught.value).startswith(f"'{'1' * 40}…' is not a")


def test_numpy_numbers_make_the_same_variant():
    variant = mm.Variant(np.int64(4), np.int32(6), np.bool_(True))
    assert variant == CLASSIC and hash(variant) == hash(CLASSIC)
    assert repr(variant) == "Variant(pegs=4, colours=6, repeat=True)"
    assert mm.Variant(4, 6, np.False_).repeat is False


def test_inconsistency_of_answers_some_secret_gives_is_none():
    consistent = mm.History(CLASSIC).then("1122", (1, 1))
    assert mm.inconsistency(consistent) is None
    wrong = consistent.then("1122", (0, 0))
    assert mm.inconsistency(wrong).conflict == (0, 1)


def test_two_codes_are_scored_without_the_code_table(monkeypatch):
    from hamle.mastermind import codes

    def no_table(*args):
        raise AssertionError("the whole code table was built")

    monkeypatch.setattr(codes, "_code_table", no_table)
    big = mm.Variant(8, 10, False)
    assert mm.score(big, "01234567", "76543210") == (0, 8)
    assert mm.score(big, big.parse("98765432"), "98765423") == (6, 2)
    assert big.format(big.parse("97531246")) == "97531246"
    assert big.format(big.size - 1) == "98765432"
    wide = mm.Variant(8, 6)
    assert mm.score(wide, "11223344", "44332211") == (0, 8)


@pytest.mark.parametrize("spec", SMALL, ids=SMALL_IDS)
def test_codes_are_read_and_written_as_the_table_lists_them(spec):
    variant = mm.Variant(*spec)
    for index, row in enumerate(variant.codes()):
        code = digits(variant, tuple(int(c) for c in row))
        assert variant.parse(code) == index and variant.format(index) == code


def test_one_peg_is_said_in_the_singular():
    one = mm.Variant(1, 2)
    assert one.describe() == "1 peg, 2 colours (1-2), repetition allowed: 2 codes"
    with pytest.raises(mm.CodeError, match=r"write 1 digit 1-2$"):
        one.parse("12")
    with pytest.raises(mm.CodeError, match=r"or 1 digit$"):
        one.index(5)
    with pytest.raises(mm.AnswerError, match=r"make more than 1 peg$"):
        one.answer(1, 1)
    with pytest.raises(mm.AnswerError, match=r"cannot happen with 1 peg$"):
        one.answer(0, 1)
    assert CLASSIC.describe().startswith("4 pegs, 6 colours")
    from hamle.mastermind import optimal

    with pytest.raises(mm.MastermindError, match="within 1 guess; allow more"):
        optimal.solve(mm.Variant(2, 3), 1)


def test_no_turn_comes_after_the_one_that_solved():
    solved = mm.History(CLASSIC).then("1122", (4, 0))
    message = "guess #1 (1122) solved the game; no turn comes after it"
    with pytest.raises(mm.MastermindError, match=re.escape(message)):
        solved.then("1111", (0, 0))  # (it would be blamed on answer #1 later)
    with pytest.raises(mm.MastermindError, match=re.escape(message)):
        mm.History(CLASSIC, (("1122", (4, 0)), ("1111", (0, 0))))
    assert mm.History(CLASSIC, (("1111", (1, 0)), ("1122", (4, 0)))).solved


def test_every_preset_is_a_variant_by_name():
    from hamle.mastermind.codes import PRESETS

    for name, spec in PRESETS.items():
        assert mm.Variant.named(name.upper()) == mm.Variant(*spec)
    assert mm.Variant.named("5x8") == mm.Variant.named("super")


def test_a_number_too_long_to_write_out_is_said_by_its_length():
    with pytest.raises(mm.VariantError, match="pegs must be 1 to 8, not a number of 5,001 digits"):
        mm.Variant(10**5000, 6)
    with pytest.raises(mm.VariantError, match="not a number of 31 digits"):
        mm.Variant(4, -(10**30))
