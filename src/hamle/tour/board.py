"""The 10 × 10 number tour: moves, positions, play and undo.

From each cell the player may jump 3 cells straight or 2 cells diagonally to an
unvisited cell; the game ends when no such jump is left. Score = cells filled.

>>> p = Position.start("A1")
>>> [GRID.name(c) for c in p.legal_moves()]
['A4', 'D1', 'C3']
>>> p.play("D1").play("D4").count
3
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from functools import cached_property
from itertools import islice, pairwise

import numpy as np

from hamle.grid import CellError, Grid
from hamle.rng import fnv1a32

from .errors import MoveError, TourError

SIDE = 10
CELLS = SIDE * SIDE
GRID = Grid(SIDE, SIDE)
# Jump order (also the order moves are listed and tried): up, down, left, right, then the
# diagonals up-left, up-right, down-left, down-right.
JUMPS = ((-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (-2, 2), (2, -2), (2, 2))


def _targets() -> np.ndarray:
    table = np.full((CELLS, len(JUMPS)), -1, np.int64)
    for cell in range(CELLS):
        r, c = divmod(cell, SIDE)
        for k, (dr, dc) in enumerate(JUMPS):
            if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
                table[cell, k] = (r + dr) * SIDE + c + dc
    table.flags.writeable = False
    return table


TARGETS = _targets()
TARGET_LISTS = tuple(tuple(int(t) for t in row if t >= 0) for row in TARGETS)


def cell_index(cell: str | int) -> int:
    """A cell given by name (``E5``) or index, checked."""
    try:
        if isinstance(cell, str):
            return GRID.index(cell)
        GRID.name(cell)
        return operator.index(cell)
    except CellError as exc:
        raise exc.recast(MoveError) from None


def in_order(cells) -> bool:
    """Whether ``cells`` can be cells in the order played: a list, a tuple, a flat array or
    another iterable, but not text or bytes (their items are no cells) nor a set or a
    dict (they have no order).

    >>> in_order(["E5", 47]), in_order({44, 47}), in_order(b"E8")
    (True, False, False)
    """
    if isinstance(cells, np.ndarray):
        return cells.ndim == 1
    text = isinstance(cells, str | bytes | bytearray | memoryview)
    return isinstance(cells, Iterable) and not text and not isinstance(cells, Set | Mapping)


@dataclass(frozen=True)
class Position:
    """The cells filled so far, in order: ``path[0]`` holds 1, ``path[-1]`` the current."""

    path: tuple[int, ...]

    def __post_init__(self) -> None:
        if not in_order(self.path):
            raise MoveError(
                f"a position is a sequence of cells in the order filled, like ['E5', 'E8'], "
                f"not {self.path!r}"
            )
        # (one cell past the board's is a cell filled twice: an endless iterable is read no
        # further, and refused)
        path = tuple(cell_index(cell) for cell in islice(self.path, CELLS + 1))
        if not path:
            raise MoveError("a position needs at least its start cell")
        seen = {path[0]}
        for here, there in pairwise(path):
            if there in seen:
                raise MoveError("{cell} is filled twice", code="tour.filled", cell=GRID.name(there))
            if there not in TARGET_LISTS[here]:
                raise MoveError(
                    "{cell} is not one jump from {here} (3 cells straight or 2 diagonally)",
                    code="tour.not_a_jump",
                    cell=GRID.name(there),
                    here=GRID.name(here),
                )
            seen.add(there)
        object.__setattr__(self, "path", path)

    @classmethod
    def _unchecked(cls, path: tuple[int, ...]) -> Position:
        """A position the engine knows to be legal, built without the checks."""
        position = object.__new__(cls)
        object.__setattr__(position, "path", path)
        return position

    @classmethod
    def start(cls, cell: str | int) -> Position:
        return cls._unchecked((cell_index(cell),))

    @classmethod
    def from_moves(cls, start: str | int, moves) -> Position:
        """The position after playing ``moves`` (names or indices) from ``start``.

        >>> Position.from_moves("A1", ["D1", 33]).path
        (0, 3, 33)
        """
        if isinstance(moves, str):
            raise TourError(f"moves must be a list of cells, like ['D1'], not the text {moves!r}")
        if not in_order(moves):
            raise TourError(f"moves must be a list of cells, like ['D1'], not {moves!r}")
        position = cls.start(start)
        for move in moves:
            position = position.play(move)
        return position

    @property
    def current(self) -> int:
        return self.path[-1]

    @property
    def count(self) -> int:
        """Cells filled: the score if the game ended here."""
        return len(self.path)

    @cached_property
    def visited(self) -> int:
        """The visited set as a 100-bit integer (bit i = cell i)."""
        bits = 0
        for cell in self.path:
            bits |= 1 << cell
        return bits

    def legal_moves(self) -> tuple[int, ...]:
        """Unvisited cells one jump away, in jump order."""
        visited = self.visited
        return tuple(t for t in TARGET_LISTS[self.current] if not visited >> t & 1)

    @property
    def over(self) -> bool:
        return not self.legal_moves()

    def play(self, cell: str | int) -> Position:
        """The position after jumping to ``cell``; MoveError names an illegal move."""
        target = cell_index(cell)
        name, here = GRID.name(target), GRID.name(self.current)
        if self.visited >> target & 1:
            raise MoveError("{cell} is already filled", code="tour.filled", cell=name)
        if target not in TARGET_LISTS[self.current]:
            raise MoveError(
                "{cell} is not one jump from {here} (3 cells straight or 2 diagonally)",
                code="tour.not_a_jump",
                cell=name,
                here=here,
            )
        return Position._unchecked((*self.path, target))

    def undo(self) -> Position:
        """The position before the last move; MoveError at the start cell."""
        if len(self.path) == 1:
            raise MoveError(
                "nothing to undo: only the start cell is filled", code="tour.nothing_to_undo"
            )
        return Position._unchecked(self.path[:-1])

    def seed(self) -> int:
        """FNV-1a over the visited set's 13 little-endian bytes and the current cell: the
        same for every move order reaching this position."""
        return fnv1a32(self.visited.to_bytes(13, "little") + bytes([self.current]))

    def words(self) -> tuple[np.uint64, np.uint64]:
        """The visited set as two 64-bit words (cells 0-63, 64-99) for the kernels."""
        return np.uint64(self.visited & (2**64 - 1)), np.uint64(self.visited >> 64)

    def __str__(self) -> str:
        numbers = {cell: n for n, cell in enumerate(self.path, 1)}
        header = "    " + " ".join(f"{GRID.name(c)[0]:>3}" for c in range(SIDE))
        rows = [header]
        for r in range(SIDE):
            line = " ".join(f"{numbers.get(r * SIDE + c, '.'):>3}" for c in range(SIDE))
            rows.append(f"{r + 1:>3} {line}")
        return "\n".join(rows)


def need_position(position) -> Position:
    """``position`` itself, or a TourError if it is not a Position.

    >>> need_position("E5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.tour.errors.TourError: expected a Position (like Position.start('E5')), not 'E5'
    """
    if not isinstance(position, Position):
        raise TourError(f"expected a Position (like Position.start('E5')), not {position!r}")
    return position
