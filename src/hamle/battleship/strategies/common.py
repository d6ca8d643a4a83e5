"""What every shooter shares."""

import numpy as np

from hamle.grid import quoted

from ..errors import BattleshipError, ShotError
from ..observation import as_observation

_SPAN = 2**64
_LOW64 = _SPAN - 1


def pick(cells, rng: np.random.Generator) -> int:
    """One of ``cells`` (sorted indices), uniformly from the game's stream.

    Draws one raw 64-bit word (redrawn in the rare biased tail): much cheaper than
    ``rng.integers`` for a single small choice.

    >>> pick([3, 7, 9], np.random.default_rng(0))
    9
    """
    n = len(cells)
    if not n:
        raise BattleshipError("there is no cell to choose from")
    limit = _SPAN - _SPAN % n
    while True:
        word = int(rng.bit_generator.random_raw())
        if word < limit:
            return int(cells[word % n])


def check_choice(observation, rng) -> None:
    """A clear error unless ``observation`` is an Observation with a ship afloat and
    ``rng`` a numpy Generator: what every shooter's ``choose`` takes.

    >>> check_choice("E5", np.random.default_rng(0))
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: expected an Observation (like ...), not 'E5'
    >>> from hamle.battleship.observation import Observation
    >>> from hamle.battleship.rules import Rules
    >>> check_choice(Observation.from_marks(Rules.classic(), afloat=[]), np.random.default_rng())
    Traceback (most recent call last):
    hamle.battleship.errors.ShotError: no ship is afloat; there is nothing left to fire at
    """
    as_observation(observation)
    if not isinstance(rng, np.random.Generator):
        raise BattleshipError(
            f"rng must be a numpy Generator (np.random.default_rng), not {quoted(rng)}"
        )
    if len(observation.sunk) == len(observation.rules.lengths):
        raise ShotError(
            "every ship is sunk; there is nothing left to fire at", code="battleship.all_sunk"
        )
    if not observation.afloat:  # (the ships neither sunk nor afloat were taken as gone)
        raise ShotError(
            "no ship is afloat; there is nothing left to fire at", code="battleship.none_afloat"
        )


def pcg_words(rng: np.random.Generator) -> np.ndarray:
    """The PCG64 state of ``rng`` as the kernels' ``pcg64_next`` takes it: uint64
    [state high, state low, increment high, increment low].

    >>> pcg_words(np.random.default_rng(0)).dtype
    dtype('uint64')
    """
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise BattleshipError(
            "the random stream must be a PCG64 one, as np.random.default_rng(seed) gives, "
            f"not {state['bit_generator']}"
        )
    value, increment = state["state"]["state"], state["state"]["inc"]
    words = [value >> 64, value & _LOW64, increment >> 64, increment & _LOW64]
    return np.array(words, np.uint64)


def set_pcg_words(rng: np.random.Generator, words: np.ndarray) -> None:
    """Put the state ``words`` (as ``pcg_words`` gives them) back into ``rng``.

    >>> rng = np.random.default_rng(0)
    >>> words = pcg_words(rng)
    >>> first = int(rng.integers(100))
    >>> set_pcg_words(rng, words)
    >>> int(rng.integers(100)) == first
    True
    """
    state = rng.bit_generator.state
    high, low, inc_high, inc_low = (int(w) for w in words)
    state["state"] = {"state": high << 64 | low, "inc": inc_high << 64 | inc_low}
    state["has_uint32"] = state["uinteger"] = 0  # a buffered half word is stale now
    rng.bit_generator.state = state
