"""What every shooter shares."""

import numpy as np


def pick(cells: np.ndarray, rng: np.random.Generator) -> int:
    """One of ``cells`` (sorted indices), uniformly from the game's stream.

    >>> pick(np.array([3, 7, 9]), np.random.default_rng(0))
    9
    """
    return int(cells[rng.integers(len(cells))])
