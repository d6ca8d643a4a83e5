"""hamle — computer players and hint engines for hidden-information puzzles."""

__version__ = "0.1.0"
