"""Variants, codes and feedback.

A code is stored as its index in the lexicographic enumeration of the code space (the
default tie-break everywhere). Colours are digits 1..k, or 0..9 when k = 10 (Bulls and
Cows). An answer (black, white) is stored as ``black * (pegs + 1) + white``.

>>> v = Variant.classic()
>>> v.size, v.format(0), v.parse("1122"), score(v, v.parse("1123"), v.parse("3211"))
(1296, '1111', 7, (0, 4))
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from hamle.grid import cut, name_key, quoted

from . import _vector
from .errors import AnswerError, CodeError, VariantError

MAX_PEGS = 8
MAX_CODES = 2**21
TABLE_LIMIT = 2**28  # feedback tables up to 256 MB
# The variants known by name: pegs, colours, repeat.
PRESETS = {
    "classic": (4, 6, True),
    "4x8": (4, 8, True),
    "super": (5, 8, True),
    "5x8": (5, 8, True),
    "6x9": (6, 9, True),
    "bulls-and-cows": (4, 10, False),
}


@dataclass(frozen=True)
class Variant:
    """Pegs, colours and whether a colour may repeat.

    >>> Variant.named("bulls-and-cows").describe()
    '4 pegs, 10 colours (0-9), no repetition: 5040 codes'
    """

    pegs: int
    colours: int
    repeat: bool = True

    def __post_init__(self) -> None:
        for what, value, low, high in (
            ("pegs", self.pegs, 1, MAX_PEGS),
            ("colours", self.colours, 2, 10),
        ):
            if not is_whole(value) or not low <= value <= high:
                raise VariantError(f"{what} must be {low} to {high}, not {quoted(value)}")
            object.__setattr__(self, what, int(value))  # a NumPy integer as a plain int
        if not isinstance(self.repeat, bool | np.bool_):
            raise VariantError(f"repeat must be True or False, not {quoted(self.repeat)}")
        object.__setattr__(self, "repeat", bool(self.repeat))
        if not self.repeat and self.colours < self.pegs:
            raise VariantError(
                f"without repetition {self.pegs} pegs need at least {self.pegs} colours, "
                f"not {self.colours}"
            )
        if self.size > MAX_CODES:
            raise VariantError(
                f"{self.pegs} pegs and {self.colours} colours make {self.size:,} codes; "
                f"at most {MAX_CODES:,} are supported"
            )

    @classmethod
    def classic(cls) -> Variant:
        return cls(4, 6)

    @classmethod
    def named(cls, name: str) -> Variant:
        """A preset of ``PRESETS``: classic (4×6), 4x8, super (5×8), 6x9, bulls-and-cows (4
        of 0-9); case and surrounding spaces do not matter.

        >>> Variant.named(" Super ") == Variant(5, 8)
        True
        """
        if not isinstance(name, str):
            raise VariantError(f"a variant name is a string, like 'classic', not {quoted(name)}")
        key = name_key(name)
        if key not in PRESETS:
            raise VariantError(f"unknown variant {name!r}; choose one of: {', '.join(PRESETS)}")
        return cls(*PRESETS[key])

    @property
    def size(self) -> int:
        if self.repeat:
            return self.colours**self.pegs
        return math.perm(self.colours, self.pegs)

    @property
    def first_digit(self) -> int:
        return 0 if self.colours == 10 else 1

    @property
    def answer_slots(self) -> int:
        """Size of the answer index space, (pegs + 1)²."""
        return (self.pegs + 1) ** 2

    @property
    def solved(self) -> int:
        """The answer index of ``pegs`` black."""
        return self.pegs * (self.pegs + 1)

    def describe(self) -> str:
        digits = f"{self.first_digit}-{self.first_digit + self.colours - 1}"
        rep = "repetition allowed" if self.repeat else "no repetition"
        pegs = counted(self.pegs, "peg")
        return f"{pegs}, {self.colours} colours ({digits}), {rep}: {self.size} codes"

    def as_dict(self) -> dict:
        """The variant as JSON gives it, in tree files and in every ``--json`` output.

        >>> Variant.named("bulls-and-cows").as_dict()
        {'pegs': 4, 'colours': 10, 'repeat': False}
        """
        return {"pegs": self.pegs, "colours": self.colours, "repeat": self.repeat}

    def codes(self) -> np.ndarray:
        """Every code as a row of colours 0..k-1, in lexicographic order."""
        return _code_table(self.pegs, self.colours, self.repeat)

    def parse(self, text: str) -> int:
        """The index of a code written as digits, like ``1122``, ``1 1 2 2`` or ``1,1,2,2``:
        commas and whitespace of any kind (tabs, line ends) between digits are let go, as
        ``parse_answer`` lets them go between numbers.

        >>> Variant.classic().parse("1\\t1\\n2, 2")
        7
        """
        if not isinstance(text, str):
            raise CodeError(
                "a code is written as digits, not {value}",
                code="mastermind.not_digits",
                value=repr(text),
            )
        digits = "".join(text.replace(",", " ").split())
        low, high = self.first_digit, self.first_digit + self.colours - 1
        if len(digits) != self.pegs or not all(d in "0123456789" for d in digits):
            raise CodeError(
                "{guess!r} is not a code: write {digits} {low}-{high}",
                code="mastermind.not_a_code",
                pegs=self.pegs,
                digits=counted(self.pegs, "digit"),
                low=low,
                high=high,
                guess=cut(text),
            )
        colours = [int(d) - low for d in digits]
        for position, colour in enumerate(colours, 1):
            if not 0 <= colour < self.colours:
                raise CodeError(
                    "{guess!r}: colour {colour} at position {position} is not in {low}-{high}",
                    code="mastermind.colour_range",
                    colour=colour + low,
                    position=position,
                    low=low,
                    high=high,
                    guess=cut(text),
                )
        if not self.repeat and len(set(colours)) != len(colours):
            repeated = next(d for d in digits if digits.count(d) > 1)
            raise CodeError(
                "{guess!r} repeats {repeated}, which this variant does not allow",
                code="mastermind.repeats",
                repeated=int(repeated),
                guess=cut(text),
            )
        return _index_of(self, colours)

    def index(self, code) -> int:
        """The index of ``code``, given as an index (0 to size - 1) or as digits.

        >>> Variant.classic().index("1123"), Variant.classic().index(8)
        (8, 8)
        """
        if isinstance(code, str):
            return self.parse(code)
        if is_whole(code) and 0 <= code < self.size:
            return int(code)
        raise CodeError(
            "{value} is not a code of {variant}: give its index 0-{last} or {digits}",
            code="mastermind.not_a_code_of",
            value=repr(code),
            variant=self.describe(),
            last=self.size - 1,
            pegs=self.pegs,
            digits=counted(self.pegs, "digit"),
        )

    def answer_index(self, answer) -> int:
        """An answer given as its index or as (black, white); AnswerError if no two codes
        give it.

        >>> Variant.classic().answer_index((1, 1)), Variant.classic().answer_index(6)
        (6, 6)
        """
        if isinstance(answer, tuple | list) and len(answer) == 2:
            return self.answer(*answer)
        if is_whole(answer) and int(answer) in possible_answers(self):
            return int(answer)
        raise AnswerError(
            "{value} is not an answer of {variant}: give (black, white) or the index of an "
            "answer that can happen",
            code="mastermind.not_an_answer_of",
            value=repr(answer),
            variant=self.describe(),
        )

    def format(self, index: int) -> str:
        """The digits of the code at ``index``."""
        if not is_whole(index) or not 0 <= index < self.size:
            raise CodeError(f"code index {index!r} is not in 0..{self.size - 1}")
        return "".join(str(c + self.first_digit) for c in _colours_at(self, int(index)))

    def answer(self, black: int, white: int) -> int:
        """The index of the answer (black, white); AnswerError if no two codes give it."""
        if not all(is_whole(x) and x >= 0 for x in (black, white)):
            raise AnswerError(
                "black and white are whole numbers ≥ 0, not {black} {white}",
                code="mastermind.answer_numbers",
                black=repr(black),
                white=repr(white),
            )
        p = self.pegs
        if black + white > p:
            raise AnswerError(
                "{black} black and {white} white make more than {counted}",
                code="mastermind.too_many_pegs",
                black=black,
                white=white,
                pegs=p,
                counted=counted(p, "peg"),
            )
        if black == p - 1 and white == 1:
            raise AnswerError(
                "{black} black and 1 white cannot happen with {counted}",
                code="mastermind.one_white",
                black=black,
                pegs=p,
                counted=counted(p, "peg"),
            )
        least = 2 * p - self.colours
        if not self.repeat and black + white < least:
            raise AnswerError(
                "{black} black and {white} white cannot happen: without repetition two codes "
                "share at least {least} colours",
                code="mastermind.share_colours",
                black=black,
                white=white,
                least=least,
            )
        index = int(black) * (p + 1) + int(white)
        if index not in possible_answers(self):
            raise AnswerError(
                "{black} black and {white} white cannot happen with {variant}",
                code="mastermind.cannot_happen",
                black=black,
                white=white,
                variant=self.describe(),
            )
        return index

    def parse_answer(self, text: str) -> int:
        """An answer typed as ``2 1``, ``2,1`` or ``21`` (black, then white)."""
        if not isinstance(text, str):
            raise AnswerError(
                "{text} is not an answer: type black and white, like 2 1",
                code="mastermind.answer_text",
                text=repr(text),
            )
        parts = text.replace(",", " ").split()
        if len(parts) == 1 and len(parts[0]) == 2:
            parts = list(parts[0])
        if len(parts) != 2 or not all(len(p) == 1 and p in "0123456789" for p in parts):
            raise AnswerError(
                "{text!r} is not an answer: type black and white, like 2 1",
                code="mastermind.answer_text",
                text=cut(text),
            )
        return self.answer(int(parts[0]), int(parts[1]))

    def split(self, answer: int) -> tuple[int, int]:
        """(black, white) of an answer index."""
        return divmod(int(answer), self.pegs + 1)

    def colour_counts(self) -> np.ndarray:
        """counts[i, c]: how often colour c occurs in code i."""
        return _colour_counts(self.pegs, self.colours, self.repeat)

    def feedback(self, guess: int, codes: np.ndarray | None = None) -> np.ndarray:
        """Answer indices of ``guess`` against ``codes`` (default: every code), all given
        as indices.

        >>> Variant(2, 2).feedback(1).tolist(), Variant(2, 2).feedback(1, [0]).tolist()
        ([3, 6, 2, 3], [3])
        """
        if not (is_whole(guess) and 0 <= guess < self.size):
            raise CodeError(f"feedback: guess {guess!r} is not a code index 0-{self.size - 1}")
        if codes is None:
            targets = np.arange(self.size)
        else:
            targets = np.asarray(codes)
            if targets.ndim != 1 or (targets.size and targets.dtype.kind not in "iu"):
                raise CodeError("feedback: codes must be a flat array of code indices")
            targets = targets.astype(np.int64, copy=False)
            if targets.size and not 0 <= targets.min() <= targets.max() < self.size:
                raise CodeError(f"feedback: codes must be code indices 0-{self.size - 1}")
        return self.answers_of(int(guess), targets)

    def answers_of(self, guess: int, codes: np.ndarray) -> np.ndarray:
        """``feedback`` unchecked, for the engine's own loops: ``guess`` an index below
        ``size``, ``codes`` an int64 array of such indices."""
        table = feedback_table(self)
        if table is not None:
            return table[guess, codes]
        from . import _kernels

        return _kernels.answer_row(self.packed(), self.pegs, guess, codes)

    def packed(self) -> tuple[np.ndarray, ...]:
        """The codes packed for the kernels (see ``_kernels.pack``), with LANES spare
        entries after the last code."""
        return _packed(self.pegs, self.colours, self.repeat)


def is_whole(value) -> bool:
    """An int or numpy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_variant(value, what: str = "variant") -> None:
    """VariantError naming ``what`` unless ``value`` is a Variant.

    >>> check_variant("classic")
    Traceback (most recent call last):
    hamle.mastermind.errors.VariantError: variant must be a Variant, like \
Variant.named('classic'), not 'classic'
    """
    if not isinstance(value, Variant):
        raise VariantError(
            f"{what} must be a Variant, like Variant.named('classic'), not {value!r}"
        )


def score(variant: Variant, secret: int | str, guess: int | str) -> tuple[int, int]:
    """(black, white) of ``guess`` against ``secret`` (code indices or digits); CodeError
    for anything else.

    >>> score(Variant.classic(), "1123", "3211")
    (0, 4)
    """
    check_variant(variant)
    # two codes by arithmetic: the code table of a big variant takes seconds to build
    secret = _colours_at(variant, variant.index(secret))
    guess = _colours_at(variant, variant.index(guess))
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def feedback_table(variant: Variant) -> np.ndarray | None:
    """The full table of answers (uint8) when it fits in TABLE_LIMIT entries, else None."""
    check_variant(variant)
    if variant.size**2 > TABLE_LIMIT:
        return None
    return _table(variant.pegs, variant.colours, variant.repeat)


@cache
def _table(pegs: int, colours: int, repeat: bool) -> np.ndarray:
    variant = Variant(pegs, colours, repeat)
    if variant.size <= _vector.VECTOR_LIMIT:
        table = _vector.table(variant.codes(), variant.colour_counts())
    else:
        from . import _kernels

        table = _kernels.feedback_table(variant.packed(), pegs)
    table.flags.writeable = False
    return table


ANSWER_SCAN_LIMIT = 2 * 10**8


@cache
def possible_answers(variant: Variant) -> frozenset[int]:
    """Every answer some pair of codes gives: every code against one guess of each class
    of codes equal up to permuting colours (all answers when that is too long a scan).

    >>> sorted(possible_answers(Variant(2, 3)))  # 1 black and 1 white cannot happen
    [0, 1, 2, 3, 6]
    """
    guesses = canonical_guesses(variant)
    if len(guesses) * variant.size > ANSWER_SCAN_LIMIT:
        p = variant.pegs
        return frozenset(b * (p + 1) + w for b in range(p + 1) for w in range(p + 1 - b))
    return frozenset(int(a) for g in guesses for a in np.unique(variant.feedback(int(g))))


@cache
def _packed(pegs: int, colours: int, repeat: bool) -> tuple[np.ndarray, ...]:
    from . import _kernels

    variant = Variant(pegs, colours, repeat)
    words = _kernels.pack(variant.codes(), variant.colour_counts(), pegs if repeat else 1)
    padded = [np.concatenate([w, np.zeros(_kernels.LANES, w.dtype)]) for w in words[:3]]
    for array in (*padded, words[3]):
        array.flags.writeable = False
    return (*padded, words[3])


@cache
def _code_table(pegs: int, colours: int, repeat: bool) -> np.ndarray:
    if repeat:
        rows = itertools.product(range(colours), repeat=pegs)
    else:
        rows = itertools.permutations(range(colours), pegs)  # also lexicographic
    table = np.array(list(rows), dtype=np.uint8).reshape(-1, pegs)
    table.flags.writeable = False
    return table


@cache
def _colour_counts(pegs: int, colours: int, repeat: bool) -> np.ndarray:
    codes = _code_table(pegs, colours, repeat)
    counts = np.zeros((len(codes), colours), np.uint8)
    for position in range(pegs):
        counts[np.arange(len(codes)), codes[:, position]] += 1
    counts.flags.writeable = False
    return counts


def _index_of(variant: Variant, colours: list[int]) -> int:
    """The index of a code given as its colours (0-based), in lexicographic order.

    >>> _index_of(Variant(3, 4, False), [3, 2, 1]), _index_of(Variant(3, 4), [3, 2, 1])
    (23, 57)
    """
    index = 0
    if variant.repeat:
        for colour in colours:
            index = index * variant.colours + colour
        return index
    left = list(range(variant.colours))
    for at, colour in enumerate(colours):  # codes with a lower colour at this peg come first
        index += left.index(colour) * _arrangements(variant, at)
        left.remove(colour)
    return index


def _colours_at(variant: Variant, index: int) -> list[int]:
    """The colours (0-based) of the code at ``index``: ``_index_of`` undone.

    >>> _colours_at(Variant(3, 4, False), 23), _colours_at(Variant(3, 4), 57)
    ([3, 2, 1], [3, 2, 1])
    """
    if variant.repeat:
        colours = []
        for _ in range(variant.pegs):
            index, colour = divmod(index, variant.colours)
            colours.append(colour)
        return colours[::-1]
    left, colours = list(range(variant.colours)), []
    for at in range(variant.pegs):
        place, index = divmod(index, _arrangements(variant, at))
        colours.append(left.pop(place))
    return colours


def _arrangements(variant: Variant, at: int) -> int:
    """How many ways the pegs after ``at`` can be filled without repetition."""
    return math.perm(variant.colours - at - 1, variant.pegs - at - 1)


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless n is 1: ``1 peg``, ``2 pegs``, ``3 guesses``."""
    plural = word + ("es" if word.endswith("s") else "s")
    return f"{n} {word}" if n == 1 else f"{n} {plural}"


def canonical_guesses(
    variant: Variant, used=frozenset(), free: tuple[int, ...] | None = None
) -> np.ndarray:
    """The lowest code of each class of codes equal up to permuting the colours that no
    code in ``used`` contains (or the ``free`` colours): free colours must first appear
    in increasing order.

    >>> v = Variant.classic()
    >>> [v.format(g) for g in canonical_guesses(v, frozenset())]
    ['1111', '1112', '1121', '1122', '1123', '1211', '1212', '1213', '1221', '1222', '1223', \
'1231', '1232', '1233', '1234']
    """
    return _canonical(variant, free_colours(variant, used) if free is None else free)


def free_colours(variant: Variant, guesses) -> tuple[int, ...]:
    """The colours (0-based) that none of ``guesses`` contains."""
    seen = np.zeros(variant.colours, bool)
    for guess in guesses:
        seen[variant.codes()[guess]] = True
    return tuple(np.flatnonzero(~seen).tolist())


@cache
def _canonical(variant: Variant, free: tuple[int, ...]) -> np.ndarray:
    codes = variant.codes()
    rank = np.full(variant.colours, -1)
    rank[list(free)] = np.arange(len(free))
    n = len(codes)
    valid = np.ones(n, bool)
    next_free = np.zeros(n, np.int64)
    met = np.zeros((n, variant.colours), bool)
    rows = np.arange(n)
    for position in range(variant.pegs):
        colour = codes[:, position]
        new = (rank[colour] >= 0) & ~met[rows, colour]
        valid &= ~new | (rank[colour] == next_free)
        next_free += new
        met[rows, colour] = True
    out = np.flatnonzero(valid)
    out.flags.writeable = False
    return out
