"""Rules: board size, fleet and touching policy; the placements of each ship.

>>> rules = Rules.classic()
>>> [len(placements(rules, ship.length)) for ship in rules.fleet]
[120, 140, 160, 160, 180]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np

from hamle.grid import CellError, Grid, name_key, quoted

from .errors import RulesError

CLASSIC_FLEET = (
    ("Carrier", 5),
    ("Battleship", 4),
    ("Cruiser", 3),
    ("Submarine", 3),
    ("Destroyer", 2),
)
RUSSIAN_FLEET = (
    ("Battleship", 4),
    ("Cruiser 1", 3),
    ("Cruiser 2", 3),
    ("Destroyer 1", 2),
    ("Destroyer 2", 2),
    ("Destroyer 3", 2),
    ("Boat 1", 1),
    ("Boat 2", 1),
    ("Boat 3", 1),
    ("Boat 4", 1),
)


@dataclass(frozen=True)
class Ship:
    """One ship of a fleet: a name and a length in cells."""

    name: str
    length: int


def _ships(fleet) -> tuple[Ship, ...]:
    """A fleet given as ships or lengths (``[5, 4, 3]``), as ships; lengths are named by
    length and count, past the names of the ships given.

    >>> [ship.name for ship in _ships([Ship("2-cell ship 1", 3), 2])]
    ['2-cell ship 1', '2-cell ship 2']
    """
    if isinstance(fleet, str | bytes) or not hasattr(fleet, "__iter__"):
        raise RulesError(f"a fleet is a sequence of ship lengths, not {quoted(fleet)}")
    fleet = list(fleet)
    taken = {ship.name for ship in fleet if isinstance(ship, Ship) and isinstance(ship.name, str)}
    seen: Counter[int] = Counter()
    ships = []
    for ship in fleet:
        if isinstance(ship, Ship):
            length = ship.length
            name = ship.name if isinstance(ship.name, str) else quoted(ship.name)
            if isinstance(length, bool | np.bool_) or not isinstance(length, int | np.integer):
                raise RulesError(f"{name}: a ship length is a whole number, not {quoted(length)}")
            ships.append(Ship(name, int(length)))
        elif isinstance(ship, int | np.integer) and not isinstance(ship, bool | np.bool_):
            # (a length too long to write out is refused by Rules all the same)
            name = f"{ship}-cell ship" if abs(ship) < 10**30 else "ship"
            seen[int(ship)] += 1
            while f"{name} {seen[int(ship)]}" in taken:
                seen[int(ship)] += 1
            ships.append(Ship(f"{name} {seen[int(ship)]}", int(ship)))
        else:
            raise RulesError(f"a ship length is a whole number, not {quoted(ship)}")
    return tuple(ships)


@dataclass(frozen=True)
class Rules:
    """Board size, fleet (ships in order) and whether ships may touch.

    >>> Rules.custom(size=6, fleet=[3, 2, 2], touching=False).describe()
    '6×6, fleet 3,2,2, no touching'
    >>> Rules(np.int64(5), 5, [2]).rows
    5
    """

    rows: int
    cols: int
    fleet: tuple[Ship, ...]
    touching: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "fleet", _ships(self.fleet))
        for side in ("rows", "cols"):  # NumPy's whole numbers as Rules.custom takes them
            if isinstance(getattr(self, side), np.integer):
                object.__setattr__(self, side, int(getattr(self, side)))
        if not isinstance(self.touching, bool | np.bool_):
            raise RulesError(f"touching is True or False, not {quoted(self.touching)}")
        try:
            Grid(self.rows, self.cols)
        except CellError as exc:
            raise RulesError(str(exc)) from None
        if not self.fleet:
            raise RulesError("a fleet needs at least one ship")
        names = [ship.name for ship in self.fleet]
        if any(not name.strip() for name in names):
            raise RulesError("a ship's name may not be blank")
        if len(set(names)) < len(names):
            twice = next(name for name in names if names.count(name) > 1)
            raise RulesError(
                f"two ships are named {quoted(twice)}; each needs a name of its own "
                "(answers and records name the ship sunk)"
            )
        longest = max(self.rows, self.cols)
        for ship in self.fleet:
            if not isinstance(ship.length, int) or not 1 <= ship.length <= longest:
                raise RulesError(
                    f"ship {quoted(ship.name)} has length {quoted(ship.length)}; on a "
                    f"{self.rows}×{self.cols} board a ship is 1 to {longest} cells long"
                )
        if self.ship_cells > self.rows * self.cols:
            raise RulesError(
                f"the fleet has {self.ship_cells} cells but the board only {self.rows * self.cols}"
            )

    @classmethod
    def classic(cls) -> Rules:
        """10×10, Carrier 5, Battleship 4, Cruiser 3, Submarine 3, Destroyer 2; touching allowed."""
        return cls(10, 10, tuple(Ship(n, length) for n, length in CLASSIC_FLEET), touching=True)

    @classmethod
    def russian(cls) -> Rules:
        """10×10, fleet 4, 3, 3, 2, 2, 2, 1, 1, 1, 1; ships may not touch, even diagonally."""
        return cls(10, 10, tuple(Ship(n, length) for n, length in RUSSIAN_FLEET), touching=False)

    @classmethod
    def custom(cls, size: int | tuple[int, int], fleet, touching: bool = True) -> Rules:
        """Any board (``size`` or ``(rows, cols)``) and fleet given as lengths.

        >>> Rules.custom((3, 4), [2]).describe()
        '3×4, fleet 2, touching allowed'
        >>> Rules.custom("10", [2])
        Traceback (most recent call last):
        hamle.battleship.errors.RulesError: a board size is a whole number or (rows, cols), not '10'
        """
        whole = int | np.integer
        if isinstance(size, whole) and not isinstance(size, bool):
            size = (size, size)
        if isinstance(size, tuple | list) and len(size) == 2:
            rows, cols = (
                int(n) if isinstance(n, whole) and not isinstance(n, bool) else n for n in size
            )
            return cls(rows, cols, fleet, touching)
        raise RulesError(f"a board size is a whole number or (rows, cols), not {quoted(size)}")

    @classmethod
    def named(cls, name: str) -> Rules:
        """A preset by name: ``classic`` or ``russian`` (case ignored).

        >>> Rules.named("Russian").touching
        False
        """
        presets = {"classic": cls.classic, "russian": cls.russian}
        key = name_key(name) if isinstance(name, str) else None
        if key not in presets:
            raise RulesError(f"unknown rules {quoted(name)}; choose one of: {', '.join(presets)}")
        return presets[key]()

    @property
    def grid(self) -> Grid:
        return _grid(self.rows, self.cols)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(ship.length for ship in self.fleet)

    @property
    def ship_cells(self) -> int:
        return sum(ship.length for ship in self.fleet)

    def describe(self) -> str:
        return self._said(self.lengths)

    def as_dict(self) -> dict:
        """The board, the fleet in order and the touching policy, as JSON gives them.

        >>> Rules.custom((3, 4), [2, 1], touching=False).as_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'rows': 3, 'cols': 4, 'touching': False,
         'fleet': [{'name': '2-cell ship 1', 'length': 2}, {'name': '1-cell ship 1', 'length': 1}]}
        """
        return {
            "rows": self.rows,
            "cols": self.cols,
            "touching": self.touching,
            "fleet": [{"name": ship.name, "length": ship.length} for ship in self.fleet],
        }

    @property
    def game(self) -> str:
        """The game these rules play, whatever the order of their ships: what stored
        openings and tuned weights are kept by.

        >>> Rules.custom(10, [2, 3, 3, 4, 5]).game == Rules.classic().describe()
        True
        """
        return self._said(sorted(self.lengths, reverse=True))

    def _said(self, lengths) -> str:
        touch = "touching allowed" if self.touching else "no touching"
        fleet = ",".join(str(length) for length in lengths)
        return f"{self.rows}×{self.cols}, fleet {fleet}, {touch}"


def placements(rules: Rules, length: int) -> np.ndarray:
    """Every placement of a ship of ``length``: an array (placements, length) of cells.

    Horizontal placements come first, row-major by first cell, then vertical ones;
    a one-cell ship has one placement per cell.

    >>> placements(Rules.classic(), 5)[0].tolist()
    [0, 1, 2, 3, 4]
    """
    as_rules(rules)
    if isinstance(length, bool | np.bool_) or not isinstance(length, int | np.integer):
        raise RulesError(f"a ship length is a whole number, not {quoted(length)}")
    if length < 1:
        raise RulesError(f"a ship length is at least 1, not {quoted(length)}")
    longest = max(rules.rows, rules.cols)
    if length > longest:  # (no placement; and numpy has no rows of 10**5000 cells)
        raise RulesError(
            f"on a {rules.rows}×{rules.cols} board a ship is 1 to {longest} cells long, "
            f"not {quoted(length)}"
        )
    return _placements(rules.rows, rules.cols, int(length))


@cache
def _placements(rows: int, cols: int, length: int) -> np.ndarray:
    out = []
    for r in range(rows):
        for c in range(cols - length + 1):
            out.append([r * cols + c + i for i in range(length)])
    if length > 1:
        for r in range(rows - length + 1):
            for c in range(cols):
                out.append([(r + i) * cols + c for i in range(length)])
    table = np.array(out, dtype=np.int32).reshape(len(out), length)
    table.flags.writeable = False
    return table


def zone(rules: Rules, cells) -> frozenset[int]:
    """Cells another ship may not cover: the cells themselves, plus their
    surroundings when touching is forbidden.

    >>> sorted(zone(Rules.russian(), [0]))
    [0, 1, 10, 11]
    """
    out = set(cells)
    if not rules.touching:
        grid = rules.grid
        for cell in cells:
            out.update(grid.surroundings(cell))
    return frozenset(out)


def segment(rules: Rules, cells) -> tuple[int, ...]:
    """The cells sorted, if they form one straight unbroken line; else RulesError.

    >>> segment(Rules.classic(), [2, 0, 1])
    (0, 1, 2)
    """
    ordered = tuple(sorted(set(cells)))
    names = ",".join(rules.grid.name(c) for c in sorted(cells))  # (a cell twice shown twice)
    if not ordered or len(ordered) != len(cells):
        raise RulesError(
            "a ship needs distinct cells, got {cells}",
            code="battleship.distinct_cells",
            cells=names or "none",
        )
    rows = {c // rules.cols for c in ordered}
    cols = {c % rules.cols for c in ordered}
    n = len(ordered)
    if (len(rows) == 1 and max(cols) - min(cols) == n - 1) or (
        len(cols) == 1 and max(rows) - min(rows) == n - 1
    ):
        return ordered
    raise RulesError(
        "{cells} is not a straight unbroken line of cells",
        code="battleship.not_a_line",
        cells=names,
    )


@dataclass(frozen=True, eq=False)
class PlacementTable:
    """Every placement of every ship length of a rule set, as flat arrays for kernels.

    ``cells[p]`` lists placement p's cells and ``zone[p]`` the cells no other ship may
    cover (both padded with -1); ``masks[p]`` and ``zone_masks[p]`` are the same as
    bitboards (cell c is bit c % 64 of word c // 64); ``ranges[length]`` is the slice of
    placements of that length, and ``bounds[length]`` the same as an array row (0, 0 for
    lengths without placements).
    """

    cells: np.ndarray
    zone: np.ndarray
    masks: np.ndarray
    zone_masks: np.ndarray
    lengths: np.ndarray
    ranges: dict[int, tuple[int, int]]
    bounds: np.ndarray


def as_rules(rules) -> Rules:
    """``rules`` itself if it is a Rules; else RulesError saying what is expected.

    >>> as_rules(Rules.classic()).describe()
    '10×10, fleet 5,4,3,3,2, touching allowed'
    """
    if not isinstance(rules, Rules):
        raise RulesError(f"expected Rules (like Rules.classic()), not {quoted(rules)}")
    return rules


@cache
def placement_table(rules: Rules) -> PlacementTable:
    """The placement table of ``rules`` (computed once per rule set).

    >>> table = placement_table(Rules.classic())
    >>> table.ranges[2], table.cells.shape, table.masks.shape
    ((420, 600), (600, 5), (600, 2))
    """
    distinct = sorted(set(rules.lengths), reverse=True)
    longest = distinct[0]
    rows, zones, lengths, ranges = [], [], [], {}
    for length in distinct:
        start = len(rows)
        for placement in placements(rules, length).tolist():
            rows.append(placement + [-1] * (longest - length))
            zones.append(sorted(zone(rules, placement)))
            lengths.append(length)
        ranges[length] = (start, len(rows))
    widest = max(len(z) for z in zones)
    zone_table = np.array([z + [-1] * (widest - len(z)) for z in zones], dtype=np.int32)
    bounds = np.zeros((longest + 1, 2), np.int64)
    for length, (start, stop) in ranges.items():
        bounds[length] = start, stop
    return PlacementTable(
        cells=np.array(rows, dtype=np.int32),
        zone=zone_table,
        masks=_bitboards([row[:n] for row, n in zip(rows, lengths, strict=True)], rules.cells),
        zone_masks=_bitboards(zones, rules.cells),
        lengths=np.array(lengths, dtype=np.int32),
        ranges=ranges,
        bounds=bounds,
    )


def _bitboards(groups: list[list[int]], n_cells: int) -> np.ndarray:
    """Each group of cells as a bitboard row of 64-bit words."""
    out = np.zeros((len(groups), (n_cells + 63) // 64), dtype=np.uint64)
    for row, cells in enumerate(groups):
        for cell in cells:
            out[row, cell // 64] |= np.uint64(1 << (cell % 64))
    return out


@cache
def _grid(rows: int, cols: int) -> Grid:
    """The board of ``rows`` × ``cols``, made once (a Grid is immutable, and the checks
    of marks ask for it cell by cell)."""
    return Grid(rows, cols)
