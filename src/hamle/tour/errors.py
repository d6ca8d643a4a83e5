"""The tour's exceptions: each message names the cell, move or date at fault."""

from hamle.errors import HamleError


class TourError(HamleError, ValueError):
    """Base of every error the tour engine raises on bad input."""


class MoveError(TourError):
    """A move that cannot be played from the position."""


class DateError(TourError):
    """A date that is not a calendar date."""
