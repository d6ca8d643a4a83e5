"""Mastermind: variants, feedback, candidate filtering, strategies and their evaluation.

>>> import hamle.mastermind as mm
>>> v = mm.Variant.classic()
>>> mm.score(v, v.parse("1123"), v.parse("3211"))
(0, 4)
>>> h = mm.History(v).then(v.parse("1122"), v.answer(0, 0))
>>> v.format(mm.get_strategy("minimax").next_guess(h)), len(h.candidates())
('3345', 256)
"""

from .codes import Variant, feedback_table, score
from .errors import AnswerError, CodeError, InconsistentError, MastermindError, VariantError
from .evaluate import Evaluation, evaluate
from .history import GAME_GUESSES, History, inconsistency, likely_typo
from .strategies import HEURISTICS, STRATEGIES, Optimal, Strategy, get_strategy

__all__ = [
    "GAME_GUESSES",
    "HEURISTICS",
    "STRATEGIES",
    "AnswerError",
    "CodeError",
    "Evaluation",
    "History",
    "InconsistentError",
    "MastermindError",
    "Optimal",
    "Strategy",
    "Variant",
    "VariantError",
    "evaluate",
    "feedback_table",
    "get_strategy",
    "inconsistency",
    "likely_typo",
    "score",
]
