"""Cell names for rectangular grids: columns are letters, rows are numbers.

A cell is the row-major index ``cols * r + c`` (0-based r, c).

>>> grid = Grid(10, 10)
>>> grid.index("E5"), grid.name(44), grid.name(99)
(44, 'E5', 'J10')
"""

from __future__ import annotations

import math
import operator
import re
import string
from dataclasses import dataclass

from hamle.errors import HamleError

_CELL = re.compile(r"^\s*([A-Za-z]+)\s*([0-9]+)\s*$")
_TURKISH_I = str.maketrans({"İ": "i", "ı": "i"})  # (a Turkish keyboard's two i's)
MAX_SIDE = 26
QUOTED_AT_MOST = 40  # characters of text quoted in a message


class CellError(HamleError, ValueError):
    """A cell name or index that is not on the board."""


@dataclass(frozen=True)
class Grid:
    """A rows × cols board of named cells (at most 26 columns, A–Z).

    >>> import numpy as np
    >>> Grid(np.int64(3), 4)
    Grid(rows=3, cols=4)
    """

    rows: int
    cols: int

    def __post_init__(self) -> None:
        for side in ("rows", "cols"):  # NumPy's whole numbers too, kept as ints
            value = getattr(self, side)
            if is_whole(value) and not isinstance(value, int):
                object.__setattr__(self, side, int(value))
        if not _side(self.rows):
            raise CellError(
                "a board needs 1 to {most} rows, not {value}",
                code="cell.rows",
                most=MAX_SIDE,
                value=quoted(self.rows),
            )
        if not _side(self.cols):
            raise CellError(
                "a board needs 1 to {most} columns, not {value}",
                code="cell.columns",
                most=MAX_SIDE,
                value=quoted(self.cols),
            )

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def index(self, name: str) -> int:
        """The index of a cell name such as ``"E5"`` (case and spaces ignored, a Turkish
        İ or ı read as I).

        >>> Grid(10, 10).index("a1"), Grid(10, 10).index("J1"), Grid(10, 10).index("ı2")
        (0, 9, 18)
        """
        match = _CELL.match(name.translate(_TURKISH_I)) if isinstance(name, str) else None
        if not match:
            raise CellError(
                "{name} is not a cell name (write a column letter and a row number, like E5)",
                code="cell.not_a_name",
                name=quoted(name),
            )
        letters, digits = match.groups()
        if len(letters) != 1:
            raise CellError(
                "{name} is not a cell name (one column letter, like E5)",
                code="cell.one_letter",
                name=quoted(name),
            )
        col = string.ascii_uppercase.index(letters.upper())
        digits = digits.lstrip("0") or "0"  # A07 is A7
        row = int(digits) - 1 if len(digits) <= 3 else self.rows  # (no board is that tall)
        if col >= self.cols or not 0 <= row < self.rows:
            shown = name.strip().upper()
            shown = shown if len(shown) <= 12 else f"{shown[:12]}…"
            raise CellError(
                "{cell} is off the {rows}×{cols} board",
                code="cell.off_board",
                cell=shown,
                rows=self.rows,
                cols=self.cols,
            )
        return row * self.cols + col

    def name(self, index: int) -> str:
        """The name of a cell index (any integer type).

        >>> Grid(10, 10).name(10)
        'A2'
        """
        row, col = divmod(self._checked(index), self.cols)
        return f"{string.ascii_uppercase[col]}{row + 1}"

    def cell(self, cell: str | int) -> int:
        """The index of a cell given as a name (as ``index`` reads it) or as an index (any
        integer type, as ``name`` takes it); CellError for anything else.

        >>> Grid(10, 10).cell("E5"), Grid(10, 10).cell(44)
        (44, 44)
        >>> Grid(10, 10).cell(-1)
        Traceback (most recent call last):
        hamle.grid.CellError: cell index -1 is off the 10×10 board
        """
        return self.index(cell) if isinstance(cell, str) else self._checked(cell)

    def _checked(self, index) -> int:
        """``index`` as an int if it is a whole number on the board, else CellError."""
        original = index
        try:
            index = operator.index(index) if not isinstance(index, bool) else None
        except TypeError:
            index = None
        if index is None:
            raise CellError(
                "{index} is not a cell (a name like E5, or a whole-number index)",
                code="cell.not_a_cell",
                index=quoted(original),
            )
        if not 0 <= index < self.size:
            raise CellError(
                "cell index {index} is off the {rows}×{cols} board",
                code="cell.index_off_board",
                index=quoted(original),
                rows=self.rows,
                cols=self.cols,
            )
        return index

    def parse_cells(self, text: str) -> tuple[int, ...]:
        """Indices of a comma- or space-separated list of cell names, in order given; a
        CellError for an empty item (``A1,,B2``: a cell left out?).

        >>> Grid(10, 10).parse_cells("E5, F5 A1")
        (44, 45, 0)
        """
        return tuple(self.index(part) for part in cell_items(text))

    def neighbours(self, index: int) -> tuple[int, ...]:
        """Orthogonal neighbours (up, down, left, right order).

        >>> Grid(10, 10).neighbours(0)
        (10, 1)
        """
        row, col = divmod(index, self.cols)
        out = []
        if row > 0:
            out.append(index - self.cols)
        if row < self.rows - 1:
            out.append(index + self.cols)
        if col > 0:
            out.append(index - 1)
        if col < self.cols - 1:
            out.append(index + 1)
        return tuple(out)

    def surroundings(self, index: int) -> tuple[int, ...]:
        """The up to eight cells touching a cell, diagonals included.

        >>> Grid(10, 10).surroundings(0)
        (1, 10, 11)
        """
        row, col = divmod(index, self.cols)
        return tuple(
            r * self.cols + c
            for r in range(max(row - 1, 0), min(row + 2, self.rows))
            for c in range(max(col - 1, 0), min(col + 2, self.cols))
            if (r, c) != (row, col)
        )


def is_whole(value) -> bool:
    """Whether ``value`` is a whole number (Python's or NumPy's), not a boolean."""
    try:
        operator.index(value)  # (NumPy's booleans refuse it)
    except TypeError:
        return False
    return not isinstance(value, bool)


def name_key(text: str) -> str:
    """A name as hamle's lists of names read it: without the spaces around it, in lower
    case, a Turkish dotted İ or dotless ı read as i (a Turkish keyboard types RUSSİAN).

    >>> name_key(" RUSSİAN "), name_key("parıty")
    ('russian', 'parity')
    """
    return text.strip().translate(_TURKISH_I).lower()


def cut(text: str) -> str:
    """``text`` cut short after 40 characters, as a message shows what was typed.

    >>> cut("1" * 41)
    '1111111111111111111111111111111111111111…'
    """
    return text if len(text) <= QUOTED_AT_MOST else text[:QUOTED_AT_MOST] + "…"


def items(text: str) -> list[str]:
    """The items of a list written with commas or spaces between them, an empty one where
    two commas have nothing between them (or a comma starts or ends the list); none in
    blank text.

    >>> items(" E5, F5 A1"), items("5,,4,"), items(" ")
    (['E5', 'F5', 'A1'], ['5', '', '4', ''], [])
    """
    text = text.strip()
    return re.split(r"\s*,\s*|\s+", text) if text else []


def cell_items(text: str) -> list[str]:
    """``items`` of a list of cells (names or ranges); a CellError for an empty one
    (``A1,,B2``: a cell left out?).

    >>> cell_items("A1-A3, C5")
    ['A1-A3', 'C5']
    """
    parts = items(text)
    if "" in parts:
        raise CellError(
            "{text} has an empty item; write one comma between two cells",
            code="cell.empty_item",
            text=quoted(text),
        )
    return parts


def quoted(value) -> str:
    """``repr(value)`` as a message quotes it: text cut short after 40 characters, and a
    whole number of more than 30 digits said by its length (Python writes out none past
    4300 digits, and a caller may give anything).

    >>> quoted("1" * 41), quoted(-(10**40)), quoted(2.5)
    ("'1111111111111111111111111111111111111111…'", 'a number of 41 digits', '2.5')
    """
    if isinstance(value, str):
        return repr(cut(value))
    if is_whole(value) and abs(value) >= 10**30:
        size = abs(int(value))
        digits = int(size.bit_length() * math.log10(2))  # the number of digits, or one less
        digits += size >= 10**digits
        return f"a number of {digits:,} digits"
    try:
        text = repr(value)
    except ValueError:  # a number past 4300 digits inside
        return f"a {type(value).__name__} holding a number too long to write out"
    return text if len(text) <= 2 * QUOTED_AT_MOST else text[: 2 * QUOTED_AT_MOST] + "…"


def _side(value) -> bool:
    return is_whole(value) and 1 <= value <= MAX_SIDE
