"""Exact counts (spec § 5) under both rule sets: every layout of the afloat ships that
fits the marks (equal ships alike), and for every cell how many of them occupy it.

A broken-profile DP (kernels in ``_profile``) runs forward over the cells keeping the
count vectors of each row's start, and backward. A cell's count is Σ forward × backward
over the profiles that occupy it: under no-touch rules a row's start shows every cell of
the row above, so both passes keep only the rows' starts (and run side by side on two
threads), and a board that only adds misses, hits or a sunk ship to a kept map works on
from its plan and vectors (``_Memos``); with touching allowed the backward pass
recomputes each row's forward vectors, on a second thread one row ahead. Counts are kept
modulo 2**64 and, when the bound on the answer needs it, modulo primes below 2**31;
the answer is rebuilt exactly by the Chinese remainder theorem.

>>> from hamle.battleship.observation import Observation
>>> report = exact(Observation.start(Rules.custom(3, [2, 1], touching=False)))
>>> report.total, report.at("A1"), report.at("B2")
(24, 10, 0)
>>> exact(Observation.start(Rules.custom(3, [2, 1]))).fleets
84
"""

from __future__ import annotations

import contextlib
import copy
import math
import queue
import threading
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import NamedTuple

import numpy as np

from hamle.grid import quoted

from . import _profile
from .density import NO_LAYOUT, density
from .errors import BattleshipError, CountTooLargeError, MarksError
from .observation import HIT, SUNK, UNKNOWN, Observation, as_observation
from .rules import Rules, as_rules, placement_table

WRAP = 2**64
KEY_BITS = 62
# Guards against boards too big to count: profiles at one step and over the whole board
# (the 10×10 Russian board has at most 27,490 and 1.8 million), and count buffer memory.
# While profiles are built, bands from their forward bounds alone (wider than the final
# ones) bound the memory from above: past ESTIMATE_LIMIT the board is refused at once.
PROFILE_LIMIT = 600_000
TOTAL_PROFILE_LIMIT = 60_000_000
MEMORY_LIMIT = 4 * 2**30
ESTIMATE_LIMIT = 6 * 2**30
# Refusals that depend on the way the DP reads the board (not on its width or its count).
READING_REFUSALS = frozenset(
    {"battleship.too_many_profiles", "battleship.memory_estimate", "battleship.memory"}
)
SAMPLE_LIMIT = 100_000  # a call's fleets (more: call again, the stream goes on)
HELP_FROM = 2_000_000  # count entries from which a map uses a second thread
# A no-touch map is worked out from a kept one (``_Memos``) while at most CHAIN_LIMIT
# misses are marked on the kept plan rather than in its steps, and at most REUSE_ROWS ×
# rows rows are left to push or pull again (a fresh map makes its plan and pushes and
# pulls every row). Maps that keep more than KEEP_BYTES are not kept.
CHAIN_LIMIT = 6
REUSE_ROWS = 1.5
KEEP_BYTES = 2**30


@dataclass(frozen=True, eq=False)
class ExactMap:
    """``total`` layouts of the afloat ships (equal lengths alike) fit the marks;
    ``counts[cell]`` of them put a ship on the cell (hits and sunk cells: all of them;
    misses and water: none). ``fleets`` counts the afloat ships labelled."""

    observation: Observation
    total: int
    counts: tuple[int, ...]
    best: tuple[int, ...]

    def at(self, cell: str | int) -> int:
        """The count of a cell given as a name or an index; CellError for anything else.

        >>> from hamle.battleship.observation import Observation
        >>> exact(Observation.start(Rules.custom(2, [1], touching=False))).at(True)
        Traceback (most recent call last):
        hamle.grid.CellError: True is not a cell (a name like E5, or a whole-number index)
        """
        return self.counts[self.observation.grid.cell(cell)]

    def probability(self, cell: str | int) -> Fraction:
        """The exact chance that the cell holds a ship.

        >>> from hamle.battleship.observation import Observation
        >>> exact(Observation.start(Rules.custom(2, [1], touching=False))).probability("A1")
        Fraction(1, 4)
        """
        return Fraction(self.at(cell), self.total) if self.total else Fraction(0)

    @property
    def fleets(self) -> int:
        return self.total * labelled(self.observation.afloat)

    @property
    def best_names(self) -> list[str]:
        return [self.observation.grid.name(c) for c in self.best]

    def as_dict(self) -> dict:
        """The counts of the unshot cells (as ``DensityMap.as_dict`` gives d) and their
        probabilities (to six places, as the site gives them), the totals and the best cells."""
        grid = self.observation.grid
        unshot = [int(c) for c in self.observation.unshot]
        return {
            "total": self.total,
            "fleets": self.fleets,
            "counts": {grid.name(c): self.counts[c] for c in unshot},
            "probability": {grid.name(c): round(self.counts[c] / self.total, 6) for c in unshot},
            "best": self.best_names,
            "best_count": self.counts[self.best[0]] if self.best else 0,
        }


def exact(observation: Observation) -> ExactMap:
    """The exact map of an observation; marks no layout fits raise MarksError (naming
    the cell or ship when a single one is at fault)."""
    rules = as_observation(observation).rules
    marks = observation.marks
    density(observation)  # its checks name the hit or ship no placement can serve
    sunk = tuple(ship.length for ship in observation.sunk)
    total, cells = occupancy(rules, marks, observation.afloat, sunk)
    if total == 0:
        raise MarksError(NO_LAYOUT, code="battleship.no_layout")
    occupied = (marks == HIT) | (marks == SUNK)
    counts = tuple(total if occupied[c] else int(cells[c]) for c in range(rules.cells))
    unknown = np.flatnonzero(marks == UNKNOWN)
    best: tuple[int, ...] = ()
    top = max((counts[c] for c in unknown), default=0)
    if top:  # with nothing afloat no cell is worth a shot
        best = tuple(int(c) for c in unknown if counts[c] == top)
    return ExactMap(observation, total, counts, best)


def occupancy(rules: Rules, marks: np.ndarray, afloat, sunk=()) -> tuple[int, np.ndarray]:
    """The number of layouts of the ``afloat`` ships that fit ``marks`` and, per cell, how
    many put one of them there (an object array of ints). ``sunk`` lists the lengths of
    the sunk ships, which bound the answer under no-touch rules."""
    marks = np.asarray(marks)
    if not afloat:
        return int(not (marks == HIT).any()), np.zeros(rules.cells, object)
    if rules.touching:
        bound = partial(_placement_bound, rules, afloat)

        def count(board):
            return _solve(rules, board, afloat, bound, True)
    else:
        fleet = Rules.custom((rules.rows, rules.cols), sorted((*afloat, *sunk)), touching=False)

        def count(board):
            return _no_touch_map(rules, board, afloat, fleet)

    turns = symmetries(rules.rows, rules.cols)
    if not rules.touching:
        turns = _middle_first(rules, marks, turns)
    turn, (total, turned) = _read_some_way(rules, marks, count, turns)
    cells = np.empty_like(turned)
    cells[turn] = turned
    return total, cells


def _read_some_way(rules: Rules, marks: np.ndarray, attempt, turns=None) -> tuple:
    """(turn, ``attempt(marks[turn])``) for the first of the board's distinct turns and
    flips (``turns``, by default ``symmetries``) that the DP does not refuse: how many
    partial layouts it meets depends on the way it reads the board (classic rules, open
    hits E6–I6 beside a miss at D6: refused; mirrored: 4 s). Raises the first refusal if
    every reading is refused."""
    refused, tried = None, set()
    for turn in turns or symmetries(rules.rows, rules.cols):
        board = marks[turn]
        if (key := board.tobytes()) in tried:
            continue
        tried.add(key)
        try:
            return turn, attempt(board)
        except CountTooLargeError as error:
            if error.code not in READING_REFUSALS:
                raise
            refused = refused or error
    raise refused


def _middle_first(rules: Rules, marks: np.ndarray, turns) -> list:
    """``turns`` in order of how near the middle of the DP's order they put the marked
    cells, those putting them later first on a tie. A mark there prunes the most profiles:
    under no-touch rules the first maps of Russian games 31..60 took 9.26 s in the board's
    own reading, 7.12 s in this order's first and 6.91 s in each one's cheapest (under
    classic rules it gains nothing).

    >>> marks = np.zeros(9, np.uint8); marks[0] = 1  # a miss in a corner
    >>> first = _middle_first(Rules.custom(3, [1]), marks, symmetries(3, 3))[0]
    >>> int(np.flatnonzero(marks[first])[0])  # read as cell 6 of 0..8
    6
    """

    def key(turn):
        board, _ = _dp_board(rules, marks[turn])
        marked = np.flatnonzero(board != UNKNOWN)
        return np.abs(marked - (rules.cells - 1) / 2).sum(), -marked.sum()

    return sorted(turns, key=key)


def sample(observation: Observation, count: int, rng: np.random.Generator) -> tuple:
    """``count`` fleets of the afloat ships, each drawn exactly uniformly and independently
    from all that fit the marks (ships labelled): ``fleet[i]`` holds the sorted cells of
    a ship of ``observation.afloat[i]`` cells. Draws from ``rng`` (a PCG64 stream) and
    leaves it advanced, so a seeded game replays.

    >>> obs = Observation.from_marks(Rules.custom(3, [2, 1]), hit=["B2"], miss=["A1"])
    >>> fleets = sample(obs, 500, np.random.default_rng(1))
    >>> all(4 in fleet[0] + fleet[1] for fleet in fleets)
    True
    """
    from .strategies.common import pcg_words, set_pcg_words

    as_observation(observation)
    if not isinstance(count, int | np.integer) or isinstance(count, bool):
        raise BattleshipError(
            f"the number of fleets to draw must be a whole number, not {quoted(count)}"
        )
    if not 1 <= count <= SAMPLE_LIMIT:  # (0 would cost the whole count for nothing)
        raise BattleshipError(
            f"the number of fleets to draw must be 1..{SAMPLE_LIMIT}, not {quoted(int(count))}"
        )
    if not isinstance(rng, np.random.Generator):
        raise BattleshipError(
            f"rng must be a numpy Generator (np.random.default_rng), not {quoted(rng)}"
        )
    count = int(count)
    rules, marks, afloat = observation.rules, observation.marks, observation.afloat
    density(observation)  # its checks name the hit or ship no placement can serve
    if not afloat:
        return ((),) * count

    def prepare(board):
        dp, to_board = _dp(rules, board, afloat)
        return dp, to_board, dp.plan(True)

    turn, (dp, to_board, plan) = _read_some_way(rules, marks, prepare)
    to_board = turn[to_board]
    bound = _placement_bound(rules, afloat)
    if bound >= WRAP and _solve(rules, marks[turn], afloat, lambda: bound, False)[0] >= WRAP:
        raise CountTooLargeError(
            "too many layouts fit these marks to draw one exactly",
            code="battleship.too_many_layouts",
        )
    pcg = pcg_words(rng)
    with _ARENA_LOCK:
        total, paths = dp.sample(plan, count, pcg)
    if total == 0:
        raise MarksError(NO_LAYOUT, code="battleship.no_layout")
    set_pcg_words(rng, pcg)
    ships = np.zeros((count, len(afloat), 3), np.int64)
    _profile.decode(paths, dp.cols, dp.touching, ships)
    # Ships come in order of their first cell: sort them by length, shuffle those of
    # equal length, and put them where ``afloat`` lists their lengths.
    order = np.argsort(ships[:, :, 1], axis=1, kind="stable")
    ships = np.take_along_axis(ships, order[:, :, None], axis=1)
    lengths = np.sort(afloat)
    for length in np.unique(lengths):
        group = np.flatnonzero(lengths == length)
        if len(group) > 1:
            shuffle = group[np.argsort(rng.random((count, len(group))), axis=1)]
            ships[:, group] = np.take_along_axis(ships, shuffle[:, :, None], axis=1)
    placed = np.empty_like(ships)
    placed[:, np.argsort(afloat, kind="stable")] = ships
    along = np.arange(max(afloat))
    cells = to_board[placed[:, :, :1] + placed[:, :, 2:] * along * (along < placed[:, :, 1:2])]
    return tuple(
        tuple(tuple(sorted(row[:n].tolist())) for row, n in zip(fleet, afloat, strict=True))
        for fleet in cells
    )


def layouts(rules: Rules) -> int:
    """The number of layouts of the whole fleet, equal ships alike.

    >>> layouts(Rules.custom(3, [2, 1], touching=False)), layouts(Rules.custom(3, [2, 1]))
    (24, 84)
    """
    return _layouts(as_rules(rules))


@cache
def _layouts(rules: Rules) -> int:
    """``layouts`` of checked rules, counted once per rule set."""
    marks = np.zeros(rules.cells, np.uint8)
    bound = _placement_bound(rules, rules.lengths)
    total, _ = _solve(rules, marks, rules.lengths, lambda: bound, False)
    return total


def check_countable(rules: Rules) -> None:
    """CountTooLargeError if the boards of ``rules`` are too wide for exact counting at
    all; nothing is counted. (A board within reach may still be refused for the memory
    its marks would take.)

    >>> check_countable(Rules.custom(16, [3, 3]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hamle.battleship.errors.CountTooLargeError: a board 16 cells across ... too wide for exact ...
    """
    _key_bits(min(rules.rows, rules.cols), max(rules.lengths), rules.touching)


def _key_bits(cols: int, longest: int, touching: bool) -> int:
    """The bits of a cell of the DP's profile keys, if a row of ``cols`` cells fits in a
    key with ships up to ``longest`` long; else CountTooLargeError."""
    bits = (4 * longest - 1).bit_length()
    if cols * bits + (0 if touching else 1) > KEY_BITS:
        raise CountTooLargeError(
            "a board {cols} cells across with ships up to {longest} long is too wide for "
            "exact counting",
            code="battleship.too_wide",
            cols=cols,
            longest=longest,
        )
    return bits


def labelled(afloat) -> int:
    """How many fleets of labelled ships one layout of ``afloat`` stands for: m! for
    each group of m ships of one length.

    >>> labelled([5, 4, 3, 3, 2])
    2
    """
    return math.prod(math.factorial(m) for m in Counter(afloat).values())


def _placement_bound(rules: Rules, afloat) -> int:
    """A bound on the layouts of ``afloat``: each ship's placements, overlaps allowed."""
    table = placement_table(rules)
    bound = 1
    for length, m in Counter(afloat).items():
        bound *= math.comb(table.ranges[length][1] - table.ranges[length][0], m)
    return bound


def _solve(rules: Rules, marks, afloat, bound, want_map) -> tuple[int, np.ndarray]:
    """Total layouts and (if ``want_map``) per-cell occupancy, exact, as Python ints.
    ``bound()`` bounds the total. On large boards the forward pass runs beside the making
    of the profiles (``_Ahead``)."""
    dp, to_board = _dp(rules, marks, afloat)
    moduli = _moduli(bound())
    with _ARENA_LOCK:
        ahead = _Ahead(dp, moduli, dp.rows if want_map else 0)
        plan = dp.plan(want_map, ahead)
        total, occupancy = dp.run(plan, moduli, want_map, ahead.finish(plan.bands))
    cells = np.zeros(rules.cells, object)
    if want_map:
        cells[to_board] = occupancy
    return total, cells


def _dp(rules: Rules, marks, afloat) -> tuple[_Dp, np.ndarray]:
    """The DP of a board, run across its shorter side, and the board cell of each of
    its cells."""
    board, to_board = _dp_board(rules, marks)
    height, width = sorted((rules.rows, rules.cols), reverse=True)
    return _Dp(height, width, board, afloat, rules.touching), to_board


def _dp_board(rules: Rules, marks) -> tuple[np.ndarray, np.ndarray]:
    """The marks as the DP reads them (unknown, open hit or miss), in its order of cells,
    and the board cell of each."""
    board = np.asarray(marks).reshape(rules.rows, rules.cols)
    board = np.where((board == UNKNOWN) | (board == HIT), board, _profile.MISS)
    to_board = np.arange(rules.cells).reshape(rules.rows, rules.cols)
    if rules.cols > rules.rows:
        board, to_board = board.T, to_board.T
    return board.reshape(-1).astype(np.uint8), to_board.reshape(-1)


class _Memo(NamedTuple):
    """A no-touch map kept for the next one: its rules, whole fleet and afloat ships
    (``key``), the board it was worked out on (in the DP's order), the plan with the
    misses marked since it was made, the rows' vectors, and the answer."""

    key: tuple
    board: np.ndarray
    to_board: np.ndarray
    dp: _Dp
    plan: _Plan
    missed: np.ndarray
    rows: _Rows
    total: int
    occupancy: np.ndarray


class _Memos:
    """The last few no-touch maps. A game's next board differs from its last by a miss,
    a hit or a sunk ship; a board that only adds such marks to a kept one reuses that
    one's plan and vectors (``_Dp.remark``, ``_Dp.sunk``, ``_Dp.rows_map``), in whichever
    of the board's turns and flips matches."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.kept: list[_Memo] = []

    def nearest(self, rules: Rules, key: tuple, marks: np.ndarray):
        """The kept map to work from, as (memo, turn, the turned board in the DP's order,
        the DP's cells newly marked): of those this board only adds misses and hits to (and
        the cells of a ship sunk since, with that ship no longer afloat), the one with the
        fewest rows to work out again, if that is fewer than a fresh map costs. None if
        there is none."""
        found, least = None, math.inf
        afloat = Counter(key[2])
        turns = [
            (turn, *_dp_board(rules, marks[turn])) for turn in symmetries(rules.rows, rules.cols)
        ]
        for memo in self.kept:
            lost = Counter(memo.key[2]) - afloat
            if memo.key[:2] != key[:2] or afloat - Counter(memo.key[2]) or lost.total() > 1:
                continue
            for turn, board, to_board in turns:
                changed = np.flatnonzero(board != memo.board)
                was, now = memo.board[changed], board[changed]
                sunk = marks[turn][to_board][changed] == SUNK  # cells of the ship lost
                if lost and np.count_nonzero(sunk) != sum(lost.elements()):
                    continue
                if lost and (was[sunk] == _profile.HIT).all():
                    continue  # that ship was left out of the kept map: all of it open hits
                if not ((was == UNKNOWN) | (was == _profile.HIT) & sunk).all():
                    continue
                missed = 0 if lost else np.count_nonzero(now == _profile.MISS)
                if np.count_nonzero(memo.missed) + missed > CHAIN_LIMIT:
                    continue
                if not len(changed) and not lost:
                    return memo, turn, board, changed
                rows = memo.dp.rows_again(changed)
                if rows < least and rows <= REUSE_ROWS * memo.dp.rows:
                    found, least = (memo, turn, board, changed), rows
        return found

    def add(self, memo: _Memo) -> None:
        arrays = [*memo.rows.forward, *memo.rows.backward]
        arrays += [part for pair in memo.plan.profiles for part in pair]
        arrays += [part for step in memo.plan.steps for part in step]
        arrays += [part for band in memo.plan.bands or () for part in band]
        bounds = memo.rows.bounds
        arrays += [part for pair in bounds.forward + bounds.backward for part in pair]
        if sum(array.nbytes for array in arrays if array is not None) <= KEEP_BYTES:
            self.kept = [memo, *self.kept[: self.keep - 1]]

    def clear(self) -> None:
        self.kept = []


_MEMOS = _Memos(3)


def _no_touch_map(rules: Rules, marks: np.ndarray, afloat, fleet: Rules):
    """``occupancy`` under no-touch rules (``fleet``: every ship, afloat or sunk), from a
    kept map where one fits (``_Memos``)."""
    key = (rules, fleet, tuple(sorted(afloat)))
    with _ARENA_LOCK:
        found = _MEMOS.nearest(rules, key, marks)
    if found is None:
        dp, to_board = _dp(rules, marks, afloat)
        turn, board = np.arange(rules.cells), dp.marks
        plan = dp.plan(True)
        moduli = _moduli(layouts(fleet))
        missed = np.zeros(len(plan.steps), np.bool_)
        known = None
    else:
        memo, turn, board, changed = found
        dp, to_board, plan = memo.dp, memo.to_board, memo.plan
        lost = Counter(memo.key[2]) - Counter(afloat)
        entries = None
        if lost:  # the same profiles, one ship fewer to count
            dp = dp.sunk(afloat)
            entries = dp.entries_in(memo.dp), dp.entries_in(memo.dp, *lost)
        # Misses only leave out choices (``missed``); other marks make their steps again.
        misses = (board[changed] == _profile.MISS) & (memo.board[changed] == UNKNOWN)
        remarked = changed if lost else changed[~misses]
        if len(remarked):
            dp, plan = dp.remark(plan, remarked, board[remarked])
        moduli, missed = memo.rows.moduli, memo.missed.copy()
        if not lost:
            missed[changed[misses]] = True
        known = memo.rows, changed, memo.plan, entries
    if found is not None and not len(changed):
        total, image = memo.total, memo.occupancy
    else:
        with _ARENA_LOCK:
            total, occupancy, rows = dp.rows_map(plan, moduli, missed, known)
            image = np.zeros(rules.cells, object)
            image[to_board] = occupancy
            if total:  # a board no layout fits has nothing to build on
                _MEMOS.add(_Memo(key, board, to_board, dp, plan, missed, rows, total, image))
    cells = np.zeros(rules.cells, object)
    cells[turn] = image
    return total, cells


@cache
def symmetries(rows: int, cols: int) -> tuple[np.ndarray, ...]:
    """Index maps of the board's turns and flips, the identity first: cell j of a turned
    board is cell ``turn[j]`` of the original.

    >>> [turn.tolist() for turn in symmetries(1, 2)]
    [[0, 1], [0, 1], [1, 0], [1, 0]]
    """
    grid = np.arange(rows * cols).reshape(rows, cols)
    shapes = [grid, grid[::-1], grid[:, ::-1], grid[::-1, ::-1]]
    if rows == cols:
        shapes += [shape.T for shape in shapes]
    return tuple(np.ascontiguousarray(shape).reshape(-1) for shape in shapes)


def _moduli(bound: int) -> np.ndarray:
    moduli, span = [0], WRAP
    for prime in _PRIMES:
        if span > bound:
            break
        moduli.append(prime)
        span *= prime
    if span <= bound:
        raise CountTooLargeError(
            "the counts on this board could need more than {bits} bits, the most an exact "
            "count keeps",
            code="battleship.count_bits",
            bits=COUNT_BITS,
        )
    return np.array(moduli, np.uint64)


def _primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**31."""
    found, n = [], 2**31 + 1
    while len(found) < count:
        n -= 2
        if all(n % d for d in range(3, math.isqrt(n) + 1, 2)):
            found.append(n)
    return tuple(found)


_PRIMES = _primes(8)
COUNT_BITS = (WRAP * math.prod(_PRIMES)).bit_length() - 1  # (every count below 2**COUNT_BITS)


def _crt_each(residues: np.ndarray, moduli) -> list[int]:
    """``_crt`` of each row of ``residues``."""
    if len(moduli) == 1 and moduli[0] == 0:  # counts modulo 2**64 alone: as they are
        return residues[:, 0].tolist()
    return [_crt(row, moduli) for row in residues]


def _crt(residues, moduli) -> int:
    value, span = 0, 1
    for residue, modulus in zip(residues, moduli, strict=True):
        modulus = WRAP if modulus == 0 else int(modulus)
        step = (int(residue) - value) * pow(span, -1, modulus) % modulus
        value += span * step
        span *= modulus
    return value


class _Step(NamedTuple):
    """One step's transitions, grouped by the profile they leave (``_profile.expand``)."""

    first: np.ndarray
    target: np.ndarray
    code: np.ndarray
    choice: np.ndarray


def _after(steps: list, i: int) -> int:
    """The number of profiles after step i: those step i + 1 leaves, or every target."""
    if i + 1 < len(steps):
        return len(steps[i + 1].first) - 1
    return int(steps[i].target.max(initial=-1)) + 1


class _Bounds(NamedTuple):
    """The steps and missed cells a plan's bands were worked out for, and the bounds on
    counted cells before each step: ``forward[i]`` from the steps before it, ``backward[i]``
    from step i on (``_Dp._bands``)."""

    steps: list
    missed: np.ndarray
    forward: list
    backward: list


class _Plan(NamedTuple):
    """Every step's transitions, per step the band of each profile before it (and the
    bounds it came from), and for no-touch maps the profiles before each step and after
    the last (keys, tallies)."""

    steps: list
    bands: list | None
    profiles: list | None
    bounds: _Bounds | None = None


class _Band(NamedTuple):
    """The count entries each profile of a step can use: ``edges[s]`` = [lo, hi), kept
    side by side from ``offset[s]`` on (``size`` entries per lane in all)."""

    edges: np.ndarray
    offset: np.ndarray

    @property
    def size(self) -> int:
        return int(self.offset[-1])


class _Rows(NamedTuple):
    """No-touch maps: the count vectors at the start of each row (forward ones for rows
    0..rows, backward ones for rows 1..rows + 1, the last being the end; index r), the
    bands each is laid out by, their lanes' moduli, and the bounds the bands came from
    (``_Bounds``)."""

    forward: list
    backward: list
    forward_bands: list
    backward_bands: list
    moduli: np.ndarray
    bounds: _Bounds


class _Dp:
    """One board's DP: the fleet's count vector, its shift tables and the key layout.

    Count vectors are ordered by the cells of the finished ships, so the entries a
    profile can use (``band``) form one slice.
    """

    def __init__(self, rows: int, cols: int, marks: np.ndarray, afloat, touching: bool) -> None:
        self.rows, self.cols, self.marks, self.touching = rows, cols, marks, touching
        have = Counter(afloat)
        self.lmax = max(have)
        self.bits = _key_bits(cols, self.lmax, touching)
        self._count_tables(have)
        self.in_fleet = np.array([n in have for n in range(self.lmax + 1)])
        self.at_least = np.array(
            [sum(m for n, m in have.items() if n >= k) for k in range(self.lmax + 1)], np.int64
        )

    def _count_tables(self, have: Counter) -> None:
        """The count vectors' layout for the ships ``have`` (lengths up to ``lmax``): the
        shift of each ship counted, its inverse, the entry of the whole fleet, and per
        entry how many ships of each length it has counted (``ships``)."""
        lengths = sorted(have)
        strides, span = np.zeros(self.lmax + 1, np.int64), 1
        for length in lengths:
            strides[length] = span
            span *= have[length] + 1
        natural = np.arange(span)
        digits = {n: natural // strides[n] % (have[n] + 1) for n in lengths}
        cells = sum(n * digits[n] for n in lengths)
        order = np.lexsort((natural, cells))
        position = np.empty(span, np.int64)
        position[order] = natural
        self.shift = np.full((self.lmax + 1, span), -1, np.int64)
        self.shift[0] = natural
        self.ships = np.zeros((self.lmax + 1, span), np.int64)
        for n in lengths:
            grows = digits[n][order] < have[n]
            self.shift[n] = np.where(grows, position[np.minimum(order + strides[n], span - 1)], -1)
            self.ships[n] = digits[n][order]
        self.inverse = np.full_like(self.shift, -1)
        for code, row in enumerate(self.shift):
            self.inverse[code, row[row >= 0]] = natural[row >= 0]
        self.full = int(position[sum(have[n] * strides[n] for n in lengths)])
        self.fleet_cells = sum(n * m for n, m in have.items())
        self.first_with = np.searchsorted(cells[order], np.arange(self.fleet_cells + 2))
        self.width, self.strides, self.position = span, strides, position

    def sunk(self, afloat) -> _Dp:
        """This DP counting only the ships ``afloat`` (this one's less one ship), its
        profiles and their transitions unchanged: those of ships no longer afloat lead to
        no entry."""
        dp = copy.copy(self)
        dp._count_tables(Counter(afloat))
        return dp

    def entries_in(self, other: _Dp, extra: int = 0) -> np.ndarray:
        """For each count entry, the entry of ``other`` (counting more ships) with the same
        ships counted and, if ``extra``, one more of that length."""
        natural = other.strides @ self.ships + (other.strides[extra] if extra else 0)
        return other.position[natural]

    def plan(self, want_map: bool, ahead: _Ahead | None = None) -> _Plan:
        """The profiles of every step (see ``_profiles``), once their count buffers are
        known to fit in memory; each step made is offered to ``ahead``."""
        try:
            plan = self._profiles(want_map, ahead)
            self._check_memory(plan.bands, 1, want_map)
        except BaseException:
            if ahead is not None:
                ahead.close(failed=True)
            raise
        if ahead is not None:
            ahead.close()
        return plan

    def _buffer_bytes(self, entries: int, lanes: int, want_map: bool) -> int:
        """The count buffers' bytes when the largest band has ``entries`` entries."""
        if not want_map:
            slots = 2
        elif self.touching:
            slots = 5 + self.rows + 2 * self.cols
        else:
            slots = 5 + 2 * self.rows
        return entries * lanes * 8 * slots

    def _check_memory(self, bands, lanes: int, want_map: bool) -> None:
        need = self._buffer_bytes(max(band.size for band in bands), lanes, want_map)
        if need > MEMORY_LIMIT:
            raise CountTooLargeError(
                "counting this board exactly needs about {need} GiB of memory, over the "
                "{limit} GiB allowed; try a smaller board or fleet",
                code="battleship.memory",
                need=f"{need / 2**30:.1f}",
                limit=MEMORY_LIMIT // 2**30,
            )

    def run(self, plan, moduli: np.ndarray, want_map: bool, forward=None) -> tuple:
        """The total and, if ``want_map``, the occupancy of every cell. Large boards put
        the second core to work (``HELP_FROM``). ``forward``: the result of the forward
        pass if it is already done (``_Ahead.finish``)."""
        if want_map and not self.touching:
            total, occupancy, _ = self.rows_map(plan, moduli, np.zeros(len(plan.steps), bool))
            return total, occupancy
        self._check_memory(plan.bands, len(moduli), want_map)
        # Every slot a map may use exists before a second thread takes any of them.
        _ARENA.take(self._SPARE + self.rows + 2 + max(self.rows, 2 * self.cols), 0, 0)
        if forward is None:
            forward = self._forward(plan, moduli, self.rows if want_map else 0)
        total, starts = forward
        if not want_map or total == 0:
            return total, np.zeros(self.rows * self.cols, object)
        lanes = len(_moduli(total))
        starts = [start[:lanes] for start in starts]
        helped = sum(band.size for band in plan.bands) * len(moduli) > HELP_FROM
        return total, self._map_cell_by_cell(plan, moduli[:lanes], starts, helped)

    # Arena slots of touching maps: 0 and 1 for the forward pass, 2.. for the rows'
    # starts, then from rows + _SPARE on two for the backward pass and those a map keeps.
    # No-touch maps take 0 and 1 forward, 2 and 3 backward.
    _SPARE = 3

    def rows_map(self, plan, moduli: np.ndarray, missed: np.ndarray, known=None) -> tuple:
        """No-touch rules: the total, the occupancy of every cell (in the DP's order) and
        the rows' vectors (``_Rows``). Each row's start shows every cell of the row
        above, so ``_profile.row_occupancy`` turns the forward and backward vectors there
        into that row's counts. ``missed[i]`` leaves out the choices that fill cell i.

        From ``known`` = (the rows' vectors of an earlier run of this plan, the cells
        missed since), only the forward vectors after the first row with such a cell
        and the backward ones up to the last are worked out again, within bands narrowed
        to the new misses. The backward pass of a fresh map runs beside the forward one
        on large boards (``HELP_FROM``); for a map worked from a kept one a second thread
        saves no time (Russian games: 2 % less wall time for 12 % more CPU)."""
        rows, cols = self.rows, self.cols
        lanes = len(moduli)
        if known is None:
            bands, bounds = plan.bands, plan.bounds
        else:  # the kept map's bounds carry over where its steps do, if it counted this fleet
            counted = known[3] is None
            bands, bounds = self._bands(
                plan.steps, missed, kept=known[0].bounds if counted else None
            )
        self._check_memory(bands, lanes, True)
        occupancy = np.zeros(rows * cols, object)
        if known is None:
            first, last = 0, rows
            forward, backward = [None] * (rows + 1), [None] * (rows + 2)
            forward_bands, backward_bands = list(forward), list(backward)
            forward[0] = np.zeros((lanes, bands[0].size), np.uint64)
            forward[0][:, : min(bands[0].size, 1)] = 1  # the start: no ship counted yet
            backward[-1] = self._end(lanes, bands[-1])  # kept beyond this run
            forward_bands[0], backward_bands[-1] = bands[0], bands[-1]
        else:
            kept, changed, before, entries = known
            first, last = changed.min() // cols, changed.max() // cols
            if entries is not None:  # a ship is counted when the cell below it is decided
                last = min(rows, last + 1)
            forward = kept.forward[: first + 1] + [None] * (rows - first)
            forward_bands = kept.forward_bands[: first + 1] + [None] * (rows - first)
            if entries is not None:  # counted by another fleet: its entries laid out again
                for r in range(first + 1):
                    keys = plan.profiles[r * cols][0]
                    forward[r], forward_bands[r] = self._carry(
                        kept.forward[r],
                        kept.forward_bands[r],
                        keys,
                        keys,
                        bands[r * cols],
                        entries[0],
                    )
            backward, backward_bands = [None] * (rows + 2), [None] * (rows + 2)
            backward[-1], backward_bands[-1] = self._end(lanes, bands[-1]), bands[-1]
            for r in range(rows, last, -1):  # rows whose cells and those after are as kept
                carried = self._carry(
                    kept.backward[r],
                    kept.backward_bands[r],
                    before.profiles[r * cols][0],
                    plan.profiles[r * cols][0],
                    bands[r * cols],
                    None if entries is None else entries[1],
                )
                if carried is None:
                    last = r
                    break
                backward[r], backward_bands[r] = carried
        _ARENA.take(3, 0, 0)  # every slot exists before a second thread takes one
        pull = partial(
            self._pull_rows,
            plan.steps,
            bands,
            moduli,
            missed,
            backward,
            backward_bands[last + 1],
            last,
        )
        helped = known is None and sum(band.size for band in bands) * lanes > HELP_FROM
        pulled = _beside(pull) if helped else pull
        end = self._push_rows(
            plan.steps, bands, moduli, missed, forward, forward_bands[first], first
        )
        for r in range(first + 1, rows + 1):
            forward_bands[r] = bands[r * cols]
        backward_bands[1 : last + 1] = [bands[r * cols] for r in range(1, last + 1)]
        pulled()
        lo, hi = bands[-1].edges[0] if len(bands[-1].edges) else (0, 0)
        total = _crt(end[:, self.full - lo] if lo <= self.full < hi else [0] * lanes, moduli)
        rows_kept = _Rows(forward, backward, forward_bands, backward_bands, moduli, bounds)
        if total == 0:
            return total, occupancy, rows_kept
        lanes = len(_moduli(total))
        counts = np.zeros((rows, lanes, cols), np.uint64)
        for r in range(1, rows + 1):
            _profile.row_occupancy(
                plan.profiles[r * cols][0],
                forward[r][:lanes],
                forward_bands[r].edges,
                forward_bands[r].offset,
                backward[r][:lanes],
                backward_bands[r].edges,
                backward_bands[r].offset,
                moduli[:lanes],
                cols,
                self.bits,
                counts[r - 1],
            )
        occupancy[:] = _crt_each(counts.transpose(0, 2, 1).reshape(-1, lanes), moduli[:lanes])
        return total, occupancy, rows_kept

    def _carry(self, vals, band: _Band, kept_keys, keys, new_band: _Band, entries=None):
        """Kept count vectors at a row's start (``vals`` by ``band``, for the profiles
        ``kept_keys``) laid out for ``keys`` by ``new_band``; entry a was entry
        ``entries[a]`` (the same if None). Forward, a profile's counts depend only on the
        marks before it; backward, on its key and the marks after it; entries outside the
        kept bands can reach no whole fleet. None if a profile is missing from the kept
        ones (they then have to be worked out again)."""
        if keys is kept_keys and entries is None:
            return vals, band
        where = np.arange(len(keys))
        if keys is not kept_keys:
            order = np.argsort(kept_keys)
            at = np.minimum(np.searchsorted(kept_keys[order], keys), len(kept_keys) - 1)
            where = np.where(kept_keys[order][at] == keys, order[at], -1)
        if entries is None:
            entries = np.arange(self.width)
        out = np.empty((len(vals), new_band.size), np.uint64)
        if not _profile.carry(vals, band.edges, band.offset, where, entries, *new_band, out):
            return None
        return out, new_band

    def rows_again(self, changed: np.ndarray) -> int:
        """About how many rows ``rows_map`` pushes and pulls again for these cells newly
        marked."""
        return self.rows + 1 - changed.min() // self.cols + changed.max() // self.cols

    def _push_rows(self, steps, bands, moduli, missed, forward: list, band, first: int):
        """Fill ``forward[r]`` for r > ``first`` from ``forward[first]`` (laid out by
        ``band``, the rest by ``bands``); the vector after the last step."""
        cols, lanes = self.cols, len(moduli)
        vals = forward[first]
        for i in range(first * cols, len(steps)):
            if i > first * cols:
                band = bands[i]
            if (i + 1) % cols or i + 1 == len(steps):
                out = _ARENA.take(i % 2, lanes, bands[i + 1].size)
            else:  # a row's start, kept beyond this run, so not in the arena
                out = forward[(i + 1) // cols] = np.empty((lanes, bands[i + 1].size), np.uint64)
            vals = self._push(steps[i], vals, out, moduli, band, bands[i + 1], missed[i])
        return vals

    def _pull_rows(self, steps, bands, moduli, missed, backward: list, after, last: int):
        """Fill ``backward[r]`` for 1 <= r <= ``last`` from ``backward[last + 1]`` (laid out
        by ``after``, the rest by ``bands``)."""
        cols = self.cols
        later = backward[last + 1]
        nothing = np.zeros((len(moduli), 0), np.uint64)
        for i in range((last + 1) * cols - 1, cols - 1, -1):
            if i % cols:
                out = _ARENA.take(2 + i % 2, len(moduli), bands[i].size)
            else:  # a row's start, kept beyond this run, so not in the arena
                out = backward[i // cols] = np.empty((len(moduli), bands[i].size), np.uint64)
            if i < (last + 1) * cols - 1:
                after = bands[i + 1]
            later, _ = self._pull(steps[i], later, out, moduli, bands[i], after, nothing, missed[i])

    def _map_cell_by_cell(self, plan, moduli: np.ndarray, starts: list, helped: bool):
        """Touching rules: Σ forward × backward through the choices that fill each cell,
        the rows' forward vectors recomputed from their starts (by a second thread one
        row ahead when ``helped``)."""
        cells, cols = self.rows * self.cols, self.cols
        steps, bands = plan.steps, plan.bands
        lanes, spare = len(moduli), self._SPARE + self.rows
        occupancy = np.zeros(cells, object)
        later = self._end(lanes, bands[-1], spare + (cells + cols) % 2)
        nothing = np.zeros((lanes, 0), np.uint64)
        for i in range(cells + cols - 1, cells - 1, -1):
            out = _ARENA.take(spare + i % 2, lanes, bands[i].size)
            later, _ = self._pull(steps[i], later, out, moduli, bands[i], bands[i + 1], nothing)
        # Two sets of row slots: the helper fills one while the main thread reads the other.
        free, ready = threading.Semaphore(2), queue.SimpleQueue()

        def rows_forward() -> None:
            try:
                for r in range(self.rows - 1, -1, -1):
                    free.acquire()
                    slot = spare + 2 + cols * (r % 2)
                    ready.put(self._row(plan, moduli, r, starts[r], slot))
            except BaseException as error:
                ready.put(error)
                raise

        produced = _beside(rows_forward) if helped else None
        for r in range(self.rows - 1, -1, -1):
            if produced:
                row = ready.get()
                if isinstance(row, BaseException):
                    produced()  # raises the helper's error
            else:
                row = self._row(plan, moduli, r, starts[r], spare + 2)
            for i in range((r + 1) * cols - 1, r * cols - 1, -1):
                out = _ARENA.take(spare + i % 2, lanes, bands[i].size)
                forward = row[i - r * cols]
                later, counts = self._pull(
                    steps[i], later, out, moduli, bands[i], bands[i + 1], forward
                )
                occupancy[i] = _crt(counts, moduli)
            free.release()
        if produced:
            produced()
        return occupancy

    def _end(self, lanes: int, band: _Band, slot: int | None = None) -> np.ndarray:
        """The backward vectors after the last step: one way to end, with the whole fleet
        (none if no profile gets there). In arena ``slot``, or a new array without one."""
        if slot is None:
            later = np.zeros((lanes, band.size), np.uint64)
        else:
            later = _ARENA.take(slot, lanes, band.size)
            later[...] = 0
        lo, hi = band.edges[0] if len(band.edges) else (0, 0)
        if lo <= self.full < hi:
            later[:, self.full - lo] = 1
        return later

    def sample(self, plan, count: int, pcg: np.ndarray) -> tuple[int, np.ndarray]:
        """The number of layouts (modulo 2**64) and ``count`` of them drawn uniformly and
        independently (if it is below 2**64): per layout, the choice taken at each cell.
        Walks back from the end, one row at a time, through the forward counts."""
        cells, cols = self.rows * self.cols, self.cols
        steps, bands = plan.steps, plan.bands
        moduli = np.zeros(1, np.uint64)
        self._check_memory(bands, 1, True)
        total, starts = self._forward(plan, moduli, self.rows + 1)
        paths = np.zeros((count, cells), np.int8)
        if total == 0:
            return total, paths
        at = np.zeros(count, np.int64)
        index = np.full(count, self.full, np.int64)
        choice = np.zeros(count, np.int64)
        for r in range(self.rows, -1, -1):  # the extra row of misses first
            row = self._row(plan, moduli, r, starts[r], self._SPARE + self.rows)
            for i in range((r + 1) * cols - 1, r * cols - 1, -1):
                step, band = steps[i], bands[i]
                start, order, source = _profile.predecessors(
                    step.first, step.target, len(bands[i + 1].edges)
                )
                _profile.sample_back(
                    row[i - r * cols],
                    start,
                    order,
                    source,
                    step.code,
                    step.choice,
                    self.inverse,
                    band.edges,
                    band.offset,
                    at,
                    index,
                    pcg,
                    choice,
                )
                if i < cells:
                    paths[:, i] = choice
        return total, paths

    def _forward(self, plan, moduli: np.ndarray, kept: int) -> tuple[int, list]:
        """The total, and the forward vectors at the start of the first ``kept`` rows."""
        cols = self.cols
        steps, bands = plan.steps, plan.bands
        lanes = len(moduli)
        vals = _ARENA.take(0, lanes, bands[0].size)
        vals[...] = 0
        if bands[0].size:  # the start: no ship counted yet
            vals[:, 0] = 1
        starts = []
        for i, step in enumerate(steps):
            if i % cols == 0 and i // cols < kept:
                starts.append(_ARENA.take(2 + i // cols, lanes, bands[i].size, vals))
            out = _ARENA.take(1 - i % 2, lanes, bands[i + 1].size)
            vals = self._push(step, vals, out, moduli, bands[i], bands[i + 1])
        residues = np.zeros(lanes, np.uint64)
        lo, hi = bands[-1].edges[0] if len(bands[-1].edges) else (0, 0)
        if lo <= self.full < hi:
            residues = vals[:, self.full - lo].copy()
        return _crt(residues, moduli), starts

    def _row(self, plan, moduli: np.ndarray, r: int, first: np.ndarray, slot: int) -> list:
        """The forward vectors before each cell of row r, from those at its start."""
        steps, bands = plan.steps, plan.bands
        lanes, row = len(moduli), [first]
        for i in range(r * self.cols, (r + 1) * self.cols - 1):
            out = _ARENA.take(slot + i % self.cols, lanes, bands[i + 1].size)
            row.append(self._push(steps[i], row[-1], out, moduli, bands[i], bands[i + 1]))
        return row

    def _push(self, step: _Step, vals, out, moduli, band, after, miss=False) -> np.ndarray:
        return _profile.push(
            vals,
            out,
            step.first,
            step.target,
            step.code,
            step.choice,
            self.shift,
            moduli,
            band.edges,
            band.offset,
            after.edges,
            after.offset,
            miss,
        )

    def _pull(self, step: _Step, later, out, moduli, band, after, vals, miss=False) -> tuple:
        return _profile.pull(
            later,
            out,
            step.first,
            step.target,
            step.code,
            step.choice,
            self.shift,
            moduli,
            band.edges,
            band.offset,
            after.edges,
            after.offset,
            vals,
            miss,
        )

    def _profiles(self, want_map: bool, ahead: _Ahead | None = None) -> _Plan:
        """Every step's transitions, and per step the band of count entries each profile
        before it can use. Refuses the board as soon as the forward bands outgrow
        ``ESTIMATE_LIMIT``. Each step is offered to ``ahead`` as soon as it is made."""
        keys, tallies = np.zeros(1, np.int64), np.zeros(1, np.int64)
        steps, profiles, seen = [], [(keys, tallies)], 0
        forward = [(np.zeros(1, np.int64), np.zeros(1, np.int64))]
        above = {}
        for i in range(self.rows * self.cols + self.cols):
            keys, tallies, *step = self._expand(i, keys, tallies, above)
            seen += len(keys)
            if len(keys) > PROFILE_LIMIT or seen > TOTAL_PROFILE_LIMIT:
                raise CountTooLargeError(
                    "this board and fleet have too many partial layouts to count exactly; "
                    "try a smaller board or fleet",
                    code="battleship.too_many_profiles",
                )
            profiles.append((keys, tallies))
            steps.append(_Step(*step))
            forward.append(self._forward_bounds(forward[-1], steps[-1], False, len(keys)))
            if ahead is not None:
                ahead.offer(steps[-1], forward[-2], forward[-1], seen * self.width)
            if self._buffer_bytes(len(keys) * self.width, 1, want_map) <= ESTIMATE_LIMIT:
                continue  # (a band has at most ``width`` entries)
            entries = self._band(*forward[-1], *self._open(len(forward[-1][0]))).size
            if self._buffer_bytes(entries, 1, want_map) > ESTIMATE_LIMIT:
                raise CountTooLargeError(
                    "counting this board exactly needs too much memory (an estimate from "
                    "above passed {estimate} GiB, where {limit} GiB are allowed); try a "
                    "smaller board or fleet",
                    code="battleship.memory_estimate",
                    estimate=ESTIMATE_LIMIT // 2**30,
                    limit=MEMORY_LIMIT // 2**30,
                )
        missed = np.zeros(len(steps), np.bool_)
        kept = profiles if want_map and not self.touching else None  # (only rows_map reads them)
        bands, bounds = self._bands(steps, missed, forward)
        return _Plan(steps, bands, kept, bounds)

    def _expand(self, i: int, keys, tallies, above: dict) -> tuple:
        """Step i from the profiles before it (``_profile.expand``); ``above`` holds, per
        column, the step a row above: a step that reads the same profiles and mark reuses
        its transitions (an unmarked board's middle rows repeat their profiles)."""
        cols = self.cols
        mark = self.marks[i] if i < self.rows * cols else _profile.MISS
        # Under touching rules vertical ships of every length fit while lmax rows are left.
        reach = min(self.rows - i // cols, self.lmax) if self.touching else 0
        read = (mark, reach, keys)
        same = above.get(i % cols)
        if same and same[0][:2] == read[:2] and np.array_equal(same[0][2], keys):
            return same[1]
        made = _profile.expand(
            keys,
            tallies,
            i % cols,
            cols,
            self.bits,
            self.lmax,
            mark,
            self.in_fleet,
            self.at_least,
            self.touching,
            reach,
        )
        above[i % cols] = read, made
        return made

    def remark(self, plan: _Plan, cells: np.ndarray, marks: np.ndarray) -> tuple[_Dp, _Plan]:
        """The DP and plan (its bands left to ``rows_map``) of this board with ``cells``
        marked ``marks`` instead. Only the steps from the first of them on are made again,
        until the profiles come back to the plan's own after the last one: each step
        depends only on the profiles before it and its cell's mark."""
        dp = copy.copy(self)
        dp.marks = self.marks.copy()
        dp.marks[cells] = marks
        start, last = int(cells.min()), int(cells.max())
        steps, profiles = plan.steps[:start], plan.profiles[: start + 1]
        keys, tallies = profiles[-1]
        above = {}
        for i in range(start, len(plan.steps)):
            keys, tallies, *step = dp._expand(i, keys, tallies, above)
            steps.append(_Step(*step))
            if i > last and np.array_equal(keys, plan.profiles[i + 1][0]):
                steps += plan.steps[i + 1 :]
                return dp, _Plan(steps, None, profiles + plan.profiles[i + 1 :])
            profiles.append((keys, tallies))
        return dp, _Plan(steps, None, profiles)

    def _forward_bounds(self, bounds, step: _Step, miss: bool, after: int) -> tuple:
        """The forward bounds after ``step`` (to ``after`` profiles) from those before it."""
        return _profile.forward_bounds(
            *bounds, step.first, step.target, step.code, step.choice, miss, after
        )

    def _open(self, profiles: int) -> tuple:
        """Backward bounds that allow every count."""
        return np.zeros(profiles, np.int64), np.full(profiles, self.fleet_cells, np.int64)

    def _bands(self, steps: list, missed: np.ndarray, forward=None, kept=None) -> tuple:
        """Per step, the band of count entries each profile before it can use, the cells
        ``missed`` left empty, and the bounds they came from (``_Bounds``). ``forward``:
        the steps' forward bounds, if known; ``kept``: the bounds of other steps, taken
        before the first step that differs from theirs and after the last."""
        n = len(steps)
        differs = np.ones(n, bool)
        if kept is not None and len(kept.steps) == n:
            same = [step is other for step, other in zip(steps, kept.steps, strict=True)]
            differs = ~np.array(same, bool) | (missed != kept.missed)
        first = int(np.argmax(differs)) if differs.any() else n
        last = int(n - 1 - np.argmax(differs[::-1])) if differs.any() else -1
        if forward is None:
            forward = [(np.zeros(1, np.int64), np.zeros(1, np.int64))]
            if first:
                forward = kept.forward[: first + 1]
            for i in range(len(forward) - 1, n):
                after = _after(steps, i)
                forward.append(self._forward_bounds(forward[-1], steps[i], missed[i], after))
        end = np.full(len(forward[-1][0]), self.fleet_cells, np.int64)
        backward = [None] * n + [(end, end)]
        for i in range(n - 1, -1, -1):
            if i > last:
                backward[i] = kept.backward[i]
                continue
            step = steps[i]
            backward[i] = _profile.backward_bounds(
                *backward[i + 1], step.first, step.target, step.code, step.choice, missed[i]
            )
        bands = [
            self._band(*ahead, *behind) for ahead, behind in zip(forward, backward, strict=True)
        ]
        return bands, _Bounds(steps, missed.copy(), forward, backward)

    def _band(self, low, high, later_low, later_high) -> _Band:
        edges, offset = _profile.band(
            low, high, later_low, later_high, self.first_with, self.fleet_cells
        )
        return _Band(edges, offset)


class _Ahead:
    """The forward pass of a count, or of a map where ships may touch (as ``_Dp._forward``),
    on a second thread while the main one still makes the profiles: each step is pushed as
    soon as it and its forward bounds exist, within bands from those bounds alone (wider
    than the final ones, which need the backward bounds too, but holding every entry that
    can end as a whole fleet).
    It starts once the profiles made could fill ``HELP_FROM`` entries, and gives up if a
    wide band would not fit in memory; ``finish`` then returns None."""

    def __init__(self, dp: _Dp, moduli: np.ndarray, kept: int) -> None:
        self.dp, self.moduli, self.kept = dp, moduli, kept
        self.made = queue.SimpleQueue()  # (step, forward bounds before and after it)
        self.result = None
        self.failed = False

    def offer(self, step: _Step, before: tuple, after: tuple, entries: int) -> None:
        """Hand over a step made; ``entries`` bounds the count entries made so far."""
        self.made.put((step, before, after))
        uses_forward = self.dp.touching or not self.kept  # (no-touch maps go by rows)
        if self.result is None and uses_forward and entries > HELP_FROM:
            _ARENA.take(2 + self.kept, 0, 0)  # every slot exists before the thread takes one
            self.result = _beside(self._push)

    def close(self, failed: bool = False) -> None:
        """No more steps come; if the profiles failed, the thread stops and is waited for."""
        self.failed = failed
        self.made.put(None)
        if failed and self.result is not None:
            with contextlib.suppress(Exception):  # the profiles' own error is the one raised
                self.result()

    def finish(self, bands: list) -> tuple | None:
        """The total and the rows' starts laid out by the final ``bands``, as
        ``_Dp._forward`` returns them; None if the pass did not run to the end."""
        if self.result is None or (done := self.result()) is None:
            return None
        total, starts = done
        lanes, cols = len(self.moduli), self.dp.cols
        for r, wide in enumerate(starts):
            band = bands[r * cols]
            _profile.narrow(_ARENA.buffers[2 + r], lanes, wide.edges, wide.offset, *band)
            starts[r] = _ARENA.take(2 + r, lanes, band.size)
        return total, starts

    def _push(self):
        dp, moduli, lanes = self.dp, self.moduli, len(self.moduli)
        starts, band, vals, i = [], None, None, 0
        while (made := self.made.get()) is not None:
            if self.failed:
                return None
            step, before, after = made
            if band is None:
                band = dp._band(*before, *dp._open(len(before[0])))
                vals = _ARENA.take(0, lanes, band.size)
                vals[...] = 0
                vals[:, : min(band.size, 1)] = 1  # the start: no ship counted yet
            wider = dp._band(*after, *dp._open(len(after[0])))
            if dp._buffer_bytes(max(band.size, wider.size), lanes, True) > MEMORY_LIMIT:
                return None
            if i % dp.cols == 0 and i // dp.cols < self.kept:
                _ARENA.take(2 + i // dp.cols, lanes, band.size, vals)
                starts.append(band)
            out = _ARENA.take(1 - i % 2, lanes, wider.size)
            vals, band, i = dp._push(step, vals, out, moduli, band, wider), wider, i + 1
        lo, hi = band.edges[0] if len(band.edges) else (0, 0)
        ends = vals[:, dp.full - lo] if lo <= dp.full < hi else np.zeros(lanes, np.uint64)
        return _crt(ends, moduli), starts


def _beside(work):
    """Start ``work`` on a second thread; the function returned waits for its result
    (or raises its error)."""
    outcome = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as error:
            outcome.append((False, error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def result():
        thread.join()
        done, value = outcome[0]
        if not done:
            raise value
        return value

    return result


class _Arena:
    """Count buffers kept between runs: fresh memory costs a page fault per 4 KiB, more
    than the DP's own work on it."""

    def __init__(self) -> None:
        self.buffers: list[np.ndarray] = []

    def take(self, slot: int, lanes: int, size: int, copy=None) -> np.ndarray:
        """Buffer ``slot`` shaped (lanes, size), holding ``copy`` if given."""
        while len(self.buffers) <= slot:
            self.buffers.append(np.empty(0, np.uint64))
        if self.buffers[slot].size < lanes * size:
            grown = max(lanes * size, 2 * self.buffers[slot].size)
            self.buffers[slot] = np.empty(grown, np.uint64)
        view = self.buffers[slot][: lanes * size].reshape(lanes, size)
        if copy is not None:
            view[...] = copy
        return view


_ARENA = _Arena()
# One arena behind a lock: memory stays at one set of buffers however many threads (the
# site's requests) ask for counts at once; they take turns.
_ARENA_LOCK = threading.Lock()
