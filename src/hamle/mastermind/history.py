"""A game so far: the guesses, their answers, and the candidates they leave.

>>> v = Variant.classic()
>>> h = History(v).then(v.parse("1122"), v.answer(1, 1))
>>> len(h.candidates()), h.describe()
(208, '1122 → 1 black 1 white')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from .codes import Variant
from .errors import CodeError, InconsistentError, MastermindError, VariantError


@dataclass(frozen=True)
class History:
    """The variant and the (guess, answer) turns played so far, as indices."""

    variant: Variant
    turns: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            raise VariantError(f"a history needs a Variant, not {self.variant!r}")
        if not isinstance(self.turns, tuple | list):
            raise CodeError(f"turns must be a tuple of (guess, answer) turns, not {self.turns!r}")
        turns = []
        for turn in self.turns:
            if not isinstance(turn, tuple | list) or len(turn) != 2:
                raise CodeError(f"a turn is (guess, answer), not {turn!r}")
            turns.append((self.variant.index(turn[0]), self.variant.answer_index(turn[1])))
        object.__setattr__(self, "turns", tuple(turns))

    def then(self, guess: int | str, answer) -> History:
        """This history followed by one more turn: ``guess`` as an index or digits,
        ``answer`` as an index or (black, white)."""
        v = self.variant
        later = object.__new__(History)  # the earlier turns are checked already
        object.__setattr__(later, "variant", v)
        object.__setattr__(later, "turns", (*self.turns, (v.index(guess), v.answer_index(answer))))
        return later

    def candidates(self) -> np.ndarray:
        """Codes consistent with every answer (sorted indices); InconsistentError if none."""
        found = _candidates(self)
        if len(found) == 0:
            raise inconsistency(self)
        return found

    @property
    def solved(self) -> bool:
        return bool(self.turns) and self.turns[-1][1] == self.variant.solved

    def describe(self) -> str:
        v = self.variant
        return "; ".join(f"{v.format(g)} → {_say(v, a)}" for g, a in self.turns)


def check_history(value) -> None:
    """MastermindError unless ``value`` is a History.

    >>> check_history(None)
    Traceback (most recent call last):
    hamle.mastermind.errors.MastermindError: history must be a History, like \
History(Variant.classic()), not None
    """
    if not isinstance(value, History):
        raise MastermindError(
            f"history must be a History, like History(Variant.classic()), not {value!r}"
        )


def _say(variant: Variant, answer: int) -> str:
    black, white = variant.split(answer)
    return f"{black} black {white} white"


def filter_codes(variant: Variant, codes: np.ndarray, turns) -> np.ndarray:
    """The codes among ``codes`` that give every answer of ``turns``."""
    for guess, answer in turns:
        codes = codes[variant.answers_of(guess, codes) == answer]
    return codes


@lru_cache(maxsize=1024)
def _candidates(history: History) -> np.ndarray:
    variant = history.variant
    found = filter_codes(variant, np.arange(variant.size), history.turns)
    found.flags.writeable = False
    return found


def inconsistency(history: History) -> InconsistentError | None:
    """Explain answers no secret satisfies: the smallest set of turns that conflict, and
    the single answer whose correction leaves candidates (the likely typo); None when
    some secret gives every answer.

    >>> v = Variant.classic()
    >>> error = inconsistency(History(v, (("1122", (0, 0)), ("1111", (1, 0)))))
    >>> error.conflict, error.correction  # turns #1 and #2; #2 should be 0 0
    ((0, 1), (1, 0, 256))
    >>> inconsistency(History(v, (("1122", (0, 0)),))) is None
    True
    """
    check_history(history)
    if len(_candidates(history)):
        return None
    variant = history.variant
    turns = history.turns
    everything = np.arange(variant.size)
    conflict = ()
    for size in range(1, len(turns) + 1):
        for chosen in combinations(range(len(turns)), size):
            if len(filter_codes(variant, everything, [turns[i] for i in chosen])) == 0:
                conflict = chosen
                break
        if conflict:
            break
    correction = likely_typo(history)
    answers = [_turn(variant, i + 1, *turns[i]) for i in conflict]
    listed = ", ".join(
        f"#{a['turn']} ({a['guess']} → {a['black']} black {a['white']} white)" for a in answers
    )
    template = "no secret gives all these answers: {listed} cannot all be right"
    if correction is None:
        return InconsistentError(
            template, conflict, None, code="mastermind.inconsistent", listed=listed, answers=answers
        )
    turn, answer, left = correction
    template += (
        "; most likely answer #{turn} should be {black} black {white} white ({left} "
        + ("candidate" if left == 1 else "candidates")
        + " would remain)"
    )
    black, white = variant.split(answer)
    return InconsistentError(
        template,
        conflict,
        correction,
        code="mastermind.inconsistent_typo",
        listed=listed,
        answers=answers,
        turn=turn + 1,
        black=black,
        white=white,
        left=left,
    )


def _turn(variant: Variant, number: int, guess: int, answer: int) -> dict:
    black, white = variant.split(answer)
    return {"turn": number, "guess": variant.format(guess), "black": black, "white": white}


def likely_typo(history: History) -> tuple[int, int, int] | None:
    """(turn, corrected answer, candidates left) for the one-answer correction closest to
    what was typed (fewest pegs changed, then most candidates left, then the latest turn)."""
    check_history(history)
    variant = history.variant
    p = variant.pegs
    answers = [b * (p + 1) + w for b in range(p + 1) for w in range(p + 1 - b)]
    best = None
    for turn, (guess, typed) in enumerate(history.turns):
        others = history.turns[:turn] + history.turns[turn + 1 :]
        base = filter_codes(variant, np.arange(variant.size), others)
        if len(base) == 0:
            continue
        found = variant.answers_of(guess, base)
        tb, tw = variant.split(typed)
        for answer in answers:
            left = int((found == answer).sum())
            if answer == typed or left == 0:
                continue
            b, w = variant.split(answer)
            key = (abs(b - tb) + abs(w - tw), -left, -turn)
            if best is None or key < best[0]:
                best = (key, (turn, answer, left))
    return None if best is None else best[1]
