"""A game so far: the guesses, their answers, and the candidates they leave.

>>> v = Variant.classic()
>>> h = History(v).then(v.parse("1122"), v.answer(1, 1))
>>> len(h.candidates()), h.describe()
(208, '1122 → 1 black 1 white')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

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
            if turns and turns[-1][1] == self.variant.solved:
                _refuse_after_solved(self.variant, turns)
            turns.append((self.variant.index(turn[0]), self.variant.answer_index(turn[1])))
        object.__setattr__(self, "turns", tuple(turns))

    def then(self, guess: int | str, answer) -> History:
        """This history followed by one more turn: ``guess`` as an index or digits,
        ``answer`` as an index or (black, white); MastermindError once the game is solved.

        >>> v = Variant(2, 2)
        >>> History(v).then("11", (2, 0)).then("12", (0, 0))
        Traceback (most recent call last):
        hamle.mastermind.errors.MastermindError: guess #1 (11) solved the game; no turn \
comes after it
        """
        v = self.variant
        if self.solved:
            _refuse_after_solved(v, self.turns)
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


def _refuse_after_solved(variant: Variant, turns) -> None:
    n, guess = len(turns), variant.format(turns[-1][0])
    raise MastermindError(f"guess #{n} ({guess}) solved the game; no turn comes after it")


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


GAME_GUESSES = 30  # a game against the computer (the site's, the command line's) ends there
CONFLICT_WORK = 100_000_000  # codes filtered in the search for a smallest conflict, at most


def inconsistency(history: History) -> InconsistentError | None:
    """Explain answers no secret satisfies: the smallest set of turns that conflict (the
    first by turn numbers; past ``CONFLICT_WORK``, a set of which every turn is needed),
    and the single answer whose correction leaves candidates (the likely typo); None
    when some secret gives every answer.

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
    conflict = _conflict(variant, turns)
    correction = likely_typo(history)
    answers = [_turn(variant, i + 1, *turns[i]) for i in conflict]
    listed = ", ".join(
        f"#{a['turn']} ({a['guess']} → {a['black']} black {a['white']} white)" for a in answers
    )
    alone = len(conflict) == 1  # an answer no secret gives to its guess, whatever the rest
    template = (
        "no secret gives the answer {listed}"
        if alone
        else "no secret gives all these answers: {listed} cannot all be right"
    )
    if correction is None:
        return InconsistentError(
            template,
            conflict,
            None,
            code="mastermind.impossible" if alone else "mastermind.inconsistent",
            listed=listed,
            answers=answers,
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
        code="mastermind.impossible_typo" if alone else "mastermind.inconsistent_typo",
        listed=listed,
        answers=answers,
        turn=turn + 1,
        black=black,
        white=white,
        left=left,
    )


def _firsts(turns) -> list[int]:
    """The index of each distinct turn where it is first given: a turn given again says
    nothing new."""
    first: dict[tuple[int, int], int] = {}
    for i, turn in enumerate(turns):
        first.setdefault(turn, i)
    return list(first.values())


def _conflict(variant: Variant, turns) -> tuple[int, ...]:
    """The turns of an inconsistent history to name: the first of the smallest sets that
    conflict, or, when finding it would filter more than CONFLICT_WORK codes (the sets
    to try grow exponentially with the turns), a set of which every turn is needed."""
    everything = np.arange(variant.size)
    pool, last = _firsts(turns), len(turns) - 1
    start, required = everything, ()
    earlier = [turns[i] for i in pool if i != last]
    if len(filter_codes(variant, everything, earlier)):
        # The usual case, an answer just typed: every conflict holds the last turn.
        start, required = filter_codes(variant, everything, [turns[last]]), (last,)
        pool.remove(last)
        if not len(start):
            return required
    work = 0

    def search(begin: int, need: int, codes: np.ndarray) -> tuple[int, ...] | None:
        """The first ``need`` turns of the pool from ``begin`` on that leave no code of
        ``codes``; None if there are none, or once the work is spent."""
        nonlocal work
        for j in range(begin, len(pool) - need + 1):
            if work > CONFLICT_WORK:
                return None
            work += len(codes) + 1000  # (a filtering costs as much as 1000 codes at least)
            guess, answer = turns[pool[j]]
            left = codes[variant.answers_of(guess, codes) == answer]
            if len(left) == len(codes):
                continue  # a smaller set would conflict without it; none does
            if need == 1:
                if not len(left):
                    return (pool[j],)
            elif found := search(j + 1, need - 1, left):
                return (pool[j], *found)
        return None

    for need in range(1, len(pool) + 1):
        if found := search(0, need, start):
            return (*found, *required)
        if work > CONFLICT_WORK:
            break
    return _needed(variant, turns, [*pool, *required])


def _needed(variant: Variant, turns, chosen: list[int]) -> tuple[int, ...]:
    """A subset of the ``chosen`` turns (which conflict) that conflicts and needs every
    turn it holds: each turn, first to last, is dropped if the others still conflict."""
    after = [np.arange(variant.size)]  # after[k]: the codes the chosen turns from k on leave
    for i in reversed(chosen):
        after.append(filter_codes(variant, after[-1], [turns[i]]))
    after.reverse()
    kept: list[int] = []
    for k, i in enumerate(chosen):
        if len(filter_codes(variant, after[k + 1], [turns[j] for j in kept])):
            kept.append(i)  # without it, a code gives every other answer
    return tuple(kept)


def _turn(variant: Variant, number: int, guess: int, answer: int) -> dict:
    black, white = variant.split(answer)
    return {"turn": number, "guess": variant.format(guess), "black": black, "white": white}


def likely_typo(history: History) -> tuple[int, int, int] | None:
    """(turn, corrected answer, candidates left) for the one-answer correction closest to
    what was typed (fewest pegs changed, then most candidates left, then the latest turn);
    only the last turn may be corrected to a win."""
    check_history(history)
    variant = history.variant
    p = variant.pegs
    answers = [b * (p + 1) + w for b in range(p + 1) for w in range(p + 1 - b)]
    best, last = None, len(history.turns) - 1
    given = Counter(history.turns)  # (in the order first given)
    for turn, (guess, typed) in enumerate(history.turns):
        if given[guess, typed] > 1:
            continue  # given twice: correcting one leaves the other
        others = [other for other in given if other != (guess, typed)]
        base = filter_codes(variant, np.arange(variant.size), others)
        if len(base) == 0:
            continue
        found = variant.answers_of(guess, base)
        tb, tw = variant.split(typed)
        for answer in answers:
            left = int((found == answer).sum())
            if answer == typed or left == 0 or (answer == variant.solved and turn < last):
                continue  # (a win before the last turn would have ended the game there)
            b, w = variant.split(answer)
            key = (abs(b - tb) + abs(w - tw), -left, -turn)
            if best is None or key < best[0]:
                best = (key, (turn, answer, left))
    return None if best is None else best[1]
