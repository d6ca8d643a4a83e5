"""Mastermind's exceptions: each message names the code, answer or value at fault."""

from hamle.errors import HamleError


class MastermindError(HamleError, ValueError):
    """Base of every error the Mastermind engine raises on bad input."""


class VariantError(MastermindError):
    """Pegs, colours or repetition outside what the engine supports."""


class CodeError(MastermindError):
    """A code that is not a code of the variant."""


class AnswerError(MastermindError):
    """An answer (black, white) that no code can give."""


class InconsistentError(MastermindError):
    """Answers that no secret can satisfy all at once."""

    def __init__(self, template: str, conflict: tuple[int, ...], correction=None, **coded):
        super().__init__(template, **coded)
        self.conflict = conflict
        self.correction = correction
