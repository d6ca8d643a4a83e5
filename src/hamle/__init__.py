"""hamle — computer players and hint engines for hidden-information puzzles."""

from hamle import numba_cache

__version__ = "0.1.0"

numba_cache.make_ready()  # (before any kernel is compiled)
