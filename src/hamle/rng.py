"""Random streams: per-game-number NumPy streams, and Mulberry32 for the tour (whose
numbers must match the JavaScript original bit for bit).

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


class Mulberry32:
    """Bit-exact port of the JavaScript ``mulberry32(seed)`` generator.

    >>> rng = Mulberry32(20261201)
    >>> [rng.next_uint32() for _ in range(3)]
    [1214187109, 1007508439, 461233435]
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def next_uint32(self) -> int:
        """The next 32-bit output (what JavaScript's ``rng()`` multiplies by 2³²)."""
        self.state = (self.state + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return (t ^ (t >> 14)) & 0xFFFFFFFF

    def random(self) -> float:
        """A float in [0, 1): uint32 / 2³²."""
        return self.next_uint32() / 4294967296

    def random_int(self, low: int, high: int) -> int:
        """``randomInt(low, high)`` = low + floor(random() · (high − low))."""
        return low + int(self.random() * (high - low))


def fnv1a32(data: bytes) -> int:
    """32-bit FNV-1a hash.

    >>> hex(fnv1a32(b"a"))
    '0xe40c292c'
    """
    h = 0x811C9DC5
    for byte in data:
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h
