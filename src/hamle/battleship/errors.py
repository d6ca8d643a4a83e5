"""Battleship's exceptions: each message names the cell, ship or value at fault."""

from hamle.errors import HamleError


class BattleshipError(HamleError, ValueError):
    """Base of every error the Battleship engine raises on bad input."""


class RulesError(BattleshipError):
    """A board size or fleet that cannot be played."""


class MarksError(BattleshipError):
    """Marks on a board that contradict the rules."""


class ShotError(BattleshipError):
    """A shot that cannot be fired (off the board, already shot, game over)."""


class CountTooLargeError(BattleshipError):
    """A fleet count too large to finish by enumeration."""
