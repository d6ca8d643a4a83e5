"""What every shooter shares."""

import numpy as np

_SPAN = 2**64


def pick(cells, rng: np.random.Generator) -> int:
    """One of ``cells`` (sorted indices), uniformly from the game's stream.

    Draws one raw 64-bit word (redrawn in the rare biased tail): much cheaper than
    ``rng.integers`` for a single small choice.

    >>> pick([3, 7, 9], np.random.default_rng(0))
    9
    """
    n = len(cells)
    limit = _SPAN - _SPAN % n
    while True:
        word = int(rng.bit_generator.random_raw())
        if word < limit:
            return int(cells[word % n])
