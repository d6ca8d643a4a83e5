"""Random streams. Game number g owns independent, reproducible NumPy streams.

>>> a = game_stream(743, FLEET_STREAM).integers(1000)
>>> b = game_stream(743, FLEET_STREAM).integers(1000)
>>> bool(a == b)
True
"""

from __future__ import annotations

import numpy as np

FLEET_STREAM = 0
SHOOTER_STREAM = 1
PLAYER_FLEET_STREAM = 2


def game_stream(game: int, stream: int) -> np.random.Generator:
    """The stream ``stream`` of game number ``game`` (``default_rng([game, stream])``)."""
    if not isinstance(game, int) or isinstance(game, bool) or game < 0:
        raise ValueError(f"a game number is a whole number ≥ 0, not {game!r}")
    return np.random.default_rng([game, stream])
