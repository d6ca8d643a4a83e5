"""Mastermind's exceptions: each message names the code, answer or value at fault."""


class MastermindError(ValueError):
    """Base of every error the Mastermind engine raises on bad input."""


class VariantError(MastermindError):
    """Pegs, colours or repetition outside what the engine supports."""


class CodeError(MastermindError):
    """A code that is not a code of the variant."""


class AnswerError(MastermindError):
    """An answer (black, white) that no code can give."""


class InconsistentError(MastermindError):
    """Answers that no secret can satisfy all at once."""

    def __init__(self, message: str, conflict: tuple[int, ...], correction=None):
        super().__init__(message)
        self.conflict = conflict
        self.correction = correction
