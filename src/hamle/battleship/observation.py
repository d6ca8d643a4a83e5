"""What a shooter sees: misses, hits, sunk ships and the ships still afloat.

>>> obs = Observation.from_marks(Rules.classic(), miss=["A1"], hit=["E5"])
>>> obs.grid.name(int(obs.open_hits[0])), len(obs.unshot), obs.afloat
('E5', 98, (5, 4, 3, 3, 2))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from hamle.grid import MAX_SIDE, CellError, Grid, is_whole, quoted

from .errors import MarksError, RulesError
from .rules import Rules, as_rules, segment, zone

UNKNOWN, MISS, HIT, SUNK, WATER = 0, 1, 2, 3, 4
# SHIP and PATTERN are for drawing only: a player's own ship, an unshot hunt-pattern cell.
SHIP, PATTERN = 5, 6
LABELS = {MISS: "miss", HIT: "hit", SUNK: "sunk"}  # the marks a shot leaves
SYMBOLS = {UNKNOWN: ".", MISS: "o", HIT: "X", SUNK: "#", WATER: "~", SHIP: "S", PATTERN: "+"}


@dataclass(frozen=True)
class SunkShip:
    """A sunk ship: its length and the cells it occupied (kept sorted). What needs the
    board (the cells on it, in a line) is checked by the Observation holding the ship.

    >>> SunkShip(2, [11, 1])
    SunkShip(length=2, cells=(1, 11))
    >>> SunkShip(3, (0, 1))
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: a sunk ship of length 3 covers 3 cells, not the 2 given
    """

    length: int
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if not is_whole(self.length) or not 1 <= self.length <= MAX_SIDE:
            raise MarksError(
                f"a sunk ship's length is a whole number from 1 to {MAX_SIDE} (a board's "
                f"longest side), not {quoted(self.length)}"
            )
        cells = tuple(listed_cells(self.cells))
        for cell in cells:
            if not is_whole(cell) or cell < 0:
                raise MarksError(
                    f"a sunk ship's cells are cell indices (whole numbers from 0), "
                    f"not {quoted(cell)}"
                )
        if len(cells) != self.length:
            raise MarksError(
                f"a sunk ship of length {self.length} covers {self.length} cells, "
                f"not the {len(cells)} given"
            )
        object.__setattr__(self, "length", int(self.length))
        object.__setattr__(self, "cells", tuple(sorted(int(cell) for cell in cells)))

    def named(self, grid: Grid) -> str:
        """Its first and last cells as messages name a ship.

        >>> SunkShip(3, [2, 0, 1]).named(Grid(10, 10)), SunkShip(1, [5]).named(Grid(10, 10))
        ('A1–C1', 'F1')
        """
        first, last = grid.name(self.cells[0]), grid.name(self.cells[-1])
        return first if first == last else f"{first}–{last}"


@dataclass(frozen=True, eq=False)
class Observation:
    """The board as the shooter knows it. ``marks`` holds one of UNKNOWN, MISS, HIT
    (an open hit), SUNK or WATER (known empty because it touches a sunk ship under
    no-touch rules) per cell; ``afloat`` lists the lengths of the ships not yet sunk."""

    rules: Rules
    marks: np.ndarray
    sunk: tuple[SunkShip, ...]
    afloat: tuple[int, ...]

    def __post_init__(self) -> None:
        rules, marks = as_rules(self.rules), self.marks
        if not (
            isinstance(marks, np.ndarray)
            and marks.dtype == np.uint8
            and marks.shape == (rules.cells,)
        ):
            got = f"{marks.dtype} {marks.shape}" if isinstance(marks, np.ndarray) else quoted(marks)
            raise MarksError(
                f"marks must be a uint8 array of the board's {rules.cells} cells, not {got} "
                "(Observation.from_marks builds one)"
            )
        if marks.max(initial=0) > WATER:
            raise MarksError(
                f"marks are 0..{WATER} (unknown, miss, hit, sunk, water), not {marks.max()}"
            )
        listed = not isinstance(self.sunk, str | bytes) and isinstance(self.sunk, Iterable)
        sunk = tuple(self.sunk) if listed else None
        if sunk is None or not all(isinstance(ship, SunkShip) for ship in sunk):
            raise MarksError(f"sunk is a tuple of SunkShip, not {quoted(self.sunk)}")
        object.__setattr__(self, "sunk", sunk)
        object.__setattr__(self, "afloat", afloat_list(self.afloat))
        left = _sunk_taken(rules, sunk)
        _take_afloat(left, self.afloat)
        _check_sunk_marks(rules, marks, sunk)

    @classmethod
    def start(cls, rules: Rules) -> Observation:
        """The empty board before the first shot."""
        rules = as_rules(rules)
        return cls(rules, _frozen(np.zeros(rules.cells, np.uint8)), (), rules.lengths)

    @property
    def grid(self) -> Grid:
        return self.rules.grid

    @property
    def unshot(self) -> np.ndarray:
        """Cells that may still hold a ship and have not been fired at."""
        return (self.marks == UNKNOWN).nonzero()[0]

    @property
    def open_hits(self) -> np.ndarray:
        """Hits on ships not yet sunk."""
        return (self.marks == HIT).nonzero()[0]

    def after(self, cell: int, answer: str, sunk_cells: tuple[int, ...] = ()) -> Observation:
        """The observation after a shot at ``cell`` answered ``miss``, ``hit`` or ``sunk``
        (with the sunk ship's cells, a straight line through ``cell`` of an afloat length
        whose other cells are open hits). An answer the board contradicts is refused.

        >>> obs = Observation.start(Rules.classic()).after(1, "hit").after(0, "sunk", (0, 1))
        >>> obs.afloat, obs.grid.name(obs.sunk[0].cells[1])
        ((5, 4, 3, 3), 'B1')
        >>> obs.after(-1, "miss")
        Traceback (most recent call last):
        hamle.battleship.errors.MarksError: cell index -1 is off the 10×10 board
        >>> obs.after(1, "miss")
        Traceback (most recent call last):
        hamle.battleship.errors.MarksError: B1 is marked twice (sunk and miss)
        """
        cell = _parse(self.grid, [cell])[0]
        if answer in ("miss", "hit"):
            self._unshot(cell, answer)
            marks = self.marks.copy()
            marks[cell] = MISS if answer == "miss" else HIT
            return self._unchecked(self.rules, _frozen(marks), self.sunk, self.afloat)
        sunk = _parse(self.grid, sunk_cells) if answer == "sunk" else []
        if cell not in sunk:
            raise MarksError(
                "unknown answer {answer} for {cell}",
                code="battleship.bad_answer",
                answer=f"sunk {quoted(tuple(sunk_cells))}" if answer == "sunk" else quoted(answer),
                cell=self.grid.name(cell),
            )
        ship = _sunk_ship(self.rules, sunk)
        if ship.length not in self.afloat:
            raise MarksError(
                "the sunk ship {cells} ({length} cells) is not one of the ships afloat",
                code="battleship.sunk_not_afloat",
                cells=",".join(self.grid.name(c) for c in ship.cells),
                length=ship.length,
            )
        self._unshot(cell, answer)
        marks = self.marks.copy()
        for other in ship.cells:
            if other != cell and marks[other] != HIT:
                if marks[other] in LABELS:
                    raise _twice(self.grid, other, LABELS[marks[other]], "sunk")
                raise MarksError(
                    "the sunk ship {cells} covers {cell}, which was never hit",
                    code="battleship.sunk_not_hit",
                    cells=",".join(self.grid.name(c) for c in ship.cells),
                    cell=self.grid.name(other),
                )
        for other in zone(self.rules, ship.cells):
            if marks[other] == UNKNOWN:
                marks[other] = WATER
            elif marks[other] in (HIT, SUNK) and other not in ship.cells:
                raise _touching(self.grid, other, LABELS[marks[other]], ship)
        marks[list(ship.cells)] = SUNK
        afloat = list(self.afloat)
        afloat.remove(ship.length)
        return self._unchecked(self.rules, _frozen(marks), (*self.sunk, ship), tuple(afloat))

    @classmethod
    def _unchecked(cls, rules: Rules, marks: np.ndarray, sunk: tuple, afloat: tuple) -> Observation:
        """The observation of parts ``after`` or ``from_marks`` has checked, without
        checking them again in ``__post_init__`` (games call ``after`` on every shot)."""
        out = object.__new__(cls)
        out.__dict__.update(rules=rules, marks=marks, sunk=sunk, afloat=afloat)
        return out

    def _unshot(self, cell: int, answer: str) -> None:
        """MarksError unless ``cell`` may take ``answer``: it has not been shot, and (for
        a hit or a sinking) is not water beside a sunk ship, and some ship is afloat."""
        mark = int(self.marks[cell])
        if mark in LABELS:
            raise _twice(self.grid, cell, LABELS[mark], answer)
        if answer == "miss":
            return
        if not self.afloat:
            raise MarksError(
                "hit at {cell}, but no ship is afloat to explain it",
                code="battleship.hit_none_afloat",
                cell=self.grid.name(cell),
            )
        if mark == WATER:
            near = next((s for s in self.sunk if cell in zone(self.rules, s.cells)), None)
            if near is None:  # water marked by hand, with no sunk ship beside it
                raise MarksError(f"{self.grid.name(cell)} is water, so it cannot be a {answer}")
            raise _touching(self.grid, cell, answer, near)

    @classmethod
    def from_marks(
        cls,
        rules: Rules,
        miss: Iterable[str | int] = (),
        hit: Iterable[str | int] = (),
        sunk: Iterable[Iterable[str | int]] = (),
        afloat: Iterable[int] | None = None,
    ) -> Observation:
        """A board marked by hand (cell names or indices), checked against the rules.

        ``sunk`` lists the sunk ships, each as its cells. ``afloat`` defaults to the
        fleet minus the sunk ships.

        >>> Observation.from_marks(Rules.classic(), sunk=[["A1", "A2"]]).afloat
        (5, 4, 3, 3)
        >>> Observation.from_marks(Rules.classic(), miss=["A1"], hit=["A1"])
        Traceback (most recent call last):
        ...
        hamle.battleship.errors.MarksError: A1 is marked twice (miss and hit)
        """
        grid = as_rules(rules).grid
        marks = np.zeros(rules.cells, np.uint8)
        marked_as: dict[int, str] = {}

        def put(cell: int, mark: int, label: str) -> None:
            if cell in marked_as:
                raise _twice(grid, cell, marked_as[cell], label)
            marked_as[cell] = label
            marks[cell] = mark

        ships = []
        for group in listed_cells(sunk):
            cells = _parse(grid, group)
            ships.append(_sunk_ship(rules, cells))
            for cell in cells:
                put(cell, SUNK, "sunk")
        for cell in _parse(grid, miss):
            put(cell, MISS, "miss")
        for cell in _parse(grid, hit):
            put(cell, HIT, "hit")

        left = _sunk_taken(rules, ships)
        if afloat is None:
            afloat_lengths = tuple(length for length in rules.lengths if _take(left, length))
        else:
            afloat_lengths = afloat_list(afloat)
            _take_afloat(left, afloat_lengths)
        if not rules.touching:
            for ship in ships:
                for other in zone(rules, ship.cells) - set(ship.cells):
                    label = marked_as.get(other)
                    if label in ("sunk", "hit"):
                        raise _touching(grid, other, label, ship)
                    if label is None:
                        marks[other] = WATER
        return cls._unchecked(rules, _frozen(marks), tuple(ships), afloat_lengths)

    def as_dict(self) -> dict:
        """The marks by cell name, as ``from_marks`` takes them (water beside a sunk ship is
        left out: ``from_marks`` works it out), and the afloat lengths.

        >>> obs = Observation.from_marks(Rules.classic(), miss=["B1", "A9"], sunk=[["J1", "J2"]])
        >>> obs.as_dict()
        {'miss': ['B1', 'A9'], 'hit': [], 'sunk': [['J1', 'J2']], 'afloat': [5, 4, 3, 3]}
        """
        grid = self.grid
        return {
            "miss": [grid.name(int(c)) for c in np.flatnonzero(self.marks == MISS)],
            "hit": [grid.name(int(c)) for c in self.open_hits],
            "sunk": [[grid.name(c) for c in ship.cells] for ship in self.sunk],
            "afloat": list(self.afloat),
        }

    def __str__(self) -> str:
        return draw(self.grid, self.marks)


def as_observation(observation) -> Observation:
    """``observation`` itself if it is an Observation; else MarksError saying what is
    expected.

    >>> as_observation("E5")
    Traceback (most recent call last):
    hamle.battleship.errors.MarksError: expected an Observation (like ...), not 'E5'
    """
    if not isinstance(observation, Observation):
        like = 'Observation.from_marks(Rules.classic(), hit=["E5"])'
        raise MarksError(f"expected an Observation (like {like}), not {quoted(observation)}")
    return observation


def draw(grid: Grid, marks: np.ndarray) -> str:
    """The marks as text, one row per line, with column letters and row numbers.

    >>> print(draw(Grid(2, 3), np.array([0, 1, 2, 3, 4, 6])))
        A B C
      1 . o X
      2 # ~ +
    """
    header = "    " + " ".join(grid.name(c)[0] for c in range(grid.cols))
    rows = [header]
    for r in range(grid.rows):
        line = " ".join(SYMBOLS[int(m)] for m in marks[r * grid.cols : (r + 1) * grid.cols])
        rows.append(f"{r + 1:>3} {line}")
    return "\n".join(rows)


def _twice(grid: Grid, cell: int, first: str, second: str) -> MarksError:
    """The error for a cell marked ``first`` and then ``second``."""
    if first == second == "sunk":
        return MarksError(
            "two sunk ships overlap at {cell}", code="battleship.sunk_overlap", cell=grid.name(cell)
        )
    if first == second:
        return MarksError(
            "{cell} is given twice as a {mark}",
            code="battleship.given_twice",
            cell=grid.name(cell),
            mark=first,
        )
    return MarksError(
        "{cell} is marked twice ({first} and {second})",
        code="battleship.marked_twice",
        cell=grid.name(cell),
        first=first,
        second=second,
    )


def _touching(grid: Grid, cell: int, label: str, ship: SunkShip) -> MarksError:
    """The error for a ``label`` mark at ``cell`` beside the sunk ``ship`` under no-touch
    rules."""
    return MarksError(
        "{cell} ({mark}) touches the sunk ship {ship}, but ships may not touch",
        code="battleship.touches_sunk",
        cell=grid.name(cell),
        mark=label,
        ship=ship.named(grid),
    )


def afloat_list(afloat) -> tuple:
    """``afloat`` as a tuple, NumPy whole numbers as ints (the items are not checked);
    MarksError unless it is a list of lengths (any iterable but text).

    >>> afloat_list([np.int64(3), 2])
    (3, 2)
    """
    if isinstance(afloat, str | bytes) or not isinstance(afloat, Iterable):
        raise MarksError(
            "afloat is a list of ship lengths, not {value}",
            code="battleship.afloat_not_a_list",
            value=quoted(afloat),
        )
    whole = int | np.integer
    return tuple(int(n) if isinstance(n, whole) and not isinstance(n, bool) else n for n in afloat)


def _take_afloat(left: Counter, afloat) -> None:
    """Take each afloat length out of ``left`` (the fleet less the sunk ships); a
    MarksError names the first one that is not there."""
    for length in afloat:
        if not isinstance(length, int) or isinstance(length, bool):
            raise MarksError(
                "an afloat ship's length is written as a whole number, like 5, not {value}",
                code="battleship.afloat_not_whole",
                value=quoted(length),
            )
        if not _take(left, length):
            raise MarksError(
                "an afloat ship of length {length} is not in the fleet once the sunk "
                "ships are taken out",
                code="battleship.afloat_not_in_fleet",
                length=quoted(length),
            )


def _take(left: Counter, length: int) -> bool:
    if left[length] > 0:
        left[length] -= 1
        return True
    return False


def listed_cells(cells):
    """``cells`` if it is a list (any iterable but text); else MarksError naming it."""
    if isinstance(cells, str | bytes):
        raise MarksError(
            "expected a list of cells, got the text {text!r}",
            code="battleship.cells_as_text",
            text=cells,
        )
    if not isinstance(cells, Iterable):
        raise MarksError(
            "expected a list of cells, not {value}",
            code="battleship.cells_not_a_list",
            value=quoted(cells),
        )
    return cells


def _parse(grid: Grid, cells: Iterable[str | int]) -> list[int]:
    out = []
    for cell in listed_cells(cells):
        try:
            out.append(grid.cell(cell))
        except CellError as exc:
            raise exc.recast(MarksError) from None
    return out


def _sunk_ship(rules: Rules, cells: list[int]) -> SunkShip:
    try:
        ordered = segment(rules, cells)
    except RulesError as exc:
        raise exc.recast(MarksError, "sunk ship") from None
    if len(ordered) not in rules.lengths:
        raise MarksError(
            "sunk ship {cells} has length {length}; no ship in the fleet has it",
            code="battleship.sunk_length",
            cells=",".join(rules.grid.name(c) for c in ordered),
            length=len(ordered),
        )
    return SunkShip(len(ordered), ordered)


def _sunk_taken(rules: Rules, sunk: Iterable[SunkShip]) -> Counter:
    """The fleet's lengths less the sunk ships' (each checked on the board: in a line,
    of a length the fleet has, not over another); MarksError naming the first at fault."""
    left, covered = Counter(rules.lengths), set()
    if not sunk:
        return left
    grid = rules.grid
    for ship in sunk:
        ordered = _sunk_ship(rules, _parse(grid, ship.cells)).cells
        if clash := covered.intersection(ordered):
            raise _twice(grid, min(clash), "sunk", "sunk")
        covered.update(ordered)
        if left[len(ordered)] == 0:
            raise MarksError(
                "too many sunk ships of length {length} (at {cell}): the fleet has {have}",
                code="battleship.too_many_sunk",
                length=len(ordered),
                cell=grid.name(ordered[0]),
                have=Counter(rules.lengths)[len(ordered)],
            )
        left[len(ordered)] -= 1
    return left


def _check_sunk_marks(rules: Rules, marks: np.ndarray, sunk: tuple[SunkShip, ...]) -> None:
    """MarksError unless the SUNK marks are the sunk ships' cells and, where ships may not
    touch, the cells around each are water or misses (as ``from_marks`` marks them)."""
    marked = (marks == SUNK).nonzero()[0]
    if not sunk and not len(marked):
        return
    grid = rules.grid
    covered = set()
    for ship in sunk:
        covered.update(ship.cells)
        for cell in ship.cells:
            if marks[cell] != SUNK:
                raise MarksError(
                    f"the sunk ship {','.join(grid.name(c) for c in ship.cells)} covers "
                    f"{grid.name(cell)}, which is not marked sunk"
                )
    for cell in marked.tolist():
        if cell not in covered:
            raise MarksError(f"{grid.name(cell)} is marked sunk, but no sunk ship covers it")
    if rules.touching:
        return
    for ship in sunk:
        for cell in sorted(zone(rules, ship.cells) - set(ship.cells)):
            if marks[cell] in (HIT, SUNK):
                raise _touching(grid, cell, LABELS[int(marks[cell])], ship)
            if marks[cell] == UNKNOWN:
                raise MarksError(
                    f"{grid.name(cell)} touches the sunk ship {ship.named(grid)}, "
                    "so it is water, not unknown (ships may not touch)"
                )


def _frozen(marks: np.ndarray) -> np.ndarray:
    marks.flags.writeable = False
    return marks
