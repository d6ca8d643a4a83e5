"""Expert: plans the hunt by playing it out (one-step rollouts over sampled fleets).

While no hit is open, the best ``candidates`` cells of the ranked density (``_kernels``)
race: each is fired, then the ranked density shooter plays to the end, on the same
``fleets`` fleets drawn from the posterior, for up to ``rounds`` rounds (one by default);
after each, cells clearly worse than the leader (by ``z`` standard errors of the paired
difference) drop out, and the race ends early when no cell left could beat the leader by
more than ``tolerance`` shots, or before a round that would take it past ``budget`` rollout
shots. The cell of least mean total wins. Before its first hit it plays its opening
(``openings``), worked out once with far more rollouts, where one is stored for the rules
(unless ``openings`` is False). With a hit open it fires the ranked density shot (or, with
``target_rollouts``, races there too, on fleets drawn over the open hits), but where ships
may not touch and at most ``exact_targets`` ships are afloat, the exact map's best cell.
Where ships may touch and at most ``endgame_ships`` are afloat, hunting or not, it rolls out
every fleet that fits the marks instead of drawn ones, from up to ENDGAME_CANDIDATES cells,
when fleets × cells stay within ``endgame_rollouts`` for three cells at least (unless
``candidates`` is 1: then no cell races, and it plays its base). A decision's
fleets are drawn on one thread and rolled out on ``threads`` (by default every core), which
leaves its pick as it is.
The fixed rank makes a rollout's length a function of the fleet alone, so the comparison
between cells carries no tie-break noise.
"""

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from hamle.grid import quoted

from .. import _kernels
from ..density import INT64_LIMIT, kernel_plan
from ..errors import BattleshipError, CountTooLargeError
from ..named import said, written_named
from ..observation import Observation
from ..rules import Rules, placement_table
from .common import check_choice, pcg_words, pick, set_pcg_words
from .density_shooter import DensityShooter
from .exact_shooter import best_cells
from .openings import opening_shot

RANK_SEED = 2026
ROOM_SCALE = 2**32  # fixed point of the room weights: sums stay exact and order-free
ROOM_BETA = 0.2  # per unknown cell in a placement's zone (README, "The Russian base")
MAX_THREADS = 64
MAX_ROLLOUT_SHIPS = 127  # afloat ships a rollout board numbers (an int8 a cell)
MAX_WEIGHT_BITS = 480  # a drawn fleet's weight at most 2**480: squares and sums stay finite
MAX_CANDIDATES = 100  # cells a race may roll out: rounds × fleets × 100 shots at most
ENDGAME_CANDIDATES = 8  # cells an endgame decision rolls out at most (README, "The endgame")
MAX_ENDGAME_SHIPS = 3  # the most afloat ships whose fleets ``endgame_fleets`` writes out
MAX_FLEETS = 1_000_000  # a decision's rollout fleets (rounds × fleets): 8 MB a candidate, and
# a round's drawn fleets a byte a cell and 8 a ship each
# The endgame keeps endgame_rollouts // 3 fleets (so that three cells race): MAX_FLEETS at most.
MAX_ENDGAME_ROLLOUTS = 3 * MAX_FLEETS
TOUCHING_FLEETS = 6000  # a decision's default where ships may touch (README, "How many fleets")
APART_FLEETS = 8000  # where they may not, a third more pay (README, "Fewer cells, more fleets")
# The threads a decision's rollouts share by default: the cores this process may use.
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class Weighed(NamedTuple):
    """A cell the expert rolled out: the mean shots to finish the game firing it first
    (that shot included) over ``fleets`` fleets, and how many more than the chosen cell
    on the same fleets (``behind``), with the standard error of that paired difference
    (0 where every fleet that fits was rolled out: the means are then exact)."""

    cell: int
    shots: float
    fleets: int
    behind: float
    stderr: float


class Decision(NamedTuple):
    """The expert's shot and how it found it: ``how`` is "opening" (its stored opening),
    "exact" (the exact map's best cell), "base" (the ranked density shot), "density" (the
    Hard shooter's, on boards too large for the ranked density or fleets too large for the
    rollouts), "endgame" (every fleet that fits rolled out) or "rollouts" (fleets drawn and
    rolled out);
    ``weighed`` lists the cells rolled out, the chosen first, then by ``behind`` (in the
    endgame only those some fleet that fits puts a ship on: the others are sure misses)."""

    cell: int
    how: str
    weighed: tuple[Weighed, ...] = ()


def _weighed(cells, shots, weights, fleets_of, best) -> tuple[Weighed, ...]:
    """The ``Weighed`` of each of ``cells`` (columns of ``shots``, rows weighed by
    ``weights``; column j filled on its first ``fleets_of[j]`` rows) against column ``best``."""
    weighed = []
    for j, cell in enumerate(cells):  # (exact sums: the figures are the same on any CPU)
        n = int(fleets_of[j])
        w, total = weights[:n], math.fsum(weights[:n])
        gap = shots[:n, j] - shots[:n, best]
        behind = math.fsum(w * gap) / total
        spread = math.sqrt(math.fsum((w * (gap - behind)) ** 2)) / total
        weighed.append(Weighed(int(cell), math.fsum(w * shots[:n, j]) / total, n, behind, spread))
    return tuple(sorted(weighed, key=lambda row: (row.cell != cells[best], row.behind)))


@dataclass(frozen=True)
class ExpertShooter:
    """Fires where the rollouts of the ranked density shooter end soonest.

    >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"])
    >>> obs.grid.name(ExpertShooter().choose(obs, np.random.default_rng(0)))
    'G5'
    """

    # Its name and the settings it does not have by default, as get_shooter names it.
    name: str = field(default="expert", init=False, repr=False)
    candidates: int = 3  # (README, "Fewer cells, more fleets")
    fleets: int | None = None  # None: TOUCHING_FLEETS or APART_FLEETS by the rules
    rounds: int = 1  # (a race of more rounds: README, "The race")
    z: float = 2.0
    tolerance: float = 0.02
    budget: int = 350_000  # a race's rollout shots at most (with rounds above one)
    target_rollouts: bool = False  # with a hit open too (README, "Why not with a hit open")
    openings: bool = True
    exact_targets: int = 9  # (README, "Exact targets")
    endgame_ships: int = 2  # (README, "The endgame")
    endgame_rollouts: int = 24_000
    threads: int | None = None  # None: every core this process may use (CORES)

    def __post_init__(self):
        for what, least in (
            ("candidates", 1),
            *([("fleets", 1)] if self.fleets is not None else []),
            ("rounds", 1),
            ("budget", 1),
            ("exact_targets", 0),
            ("endgame_ships", 0),
            ("endgame_rollouts", ENDGAME_CANDIDATES),
            *([("threads", 1)] if self.threads is not None else []),
        ):
            value = getattr(self, what)
            if isinstance(value, np.integer):  # NumPy's whole numbers, as elsewhere
                value = int(value)
                object.__setattr__(self, what, value)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise BattleshipError(
                    f"{what} must be a whole number of at least {least}, not {said(value)}"
                )
        for what in ("z", "tolerance"):
            value = getattr(self, what)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise BattleshipError(f"{what} must be a number of at least 0, not {said(value)}")
            if value >= 2**1024:  # infinite or past every float (inf's name reads back as none)
                raise BattleshipError(f"{what} must be a finite number, not {said(value)}")
            # z=2 is the default z=2.0, and z=-0.0 is z=0.0 (one name, one row of a table)
            object.__setattr__(self, what, float(value) + 0.0)
        for what in ("target_rollouts", "openings"):
            if not isinstance(getattr(self, what), bool):
                raise BattleshipError(
                    f"{what} must be true or false, not {said(getattr(self, what))}"
                )
        if self.endgame_ships > MAX_ENDGAME_SHIPS:
            raise BattleshipError(
                f"endgame_ships must be at most {MAX_ENDGAME_SHIPS}, "
                f"not {quoted(self.endgame_ships)}"
            )
        if self.endgame_rollouts > MAX_ENDGAME_ROLLOUTS:
            raise BattleshipError(
                f"endgame_rollouts must be at most {MAX_ENDGAME_ROLLOUTS:,}, "
                f"not {_shown(self.endgame_rollouts)}"
            )
        if self.candidates > MAX_CANDIDATES:
            raise BattleshipError(
                f"candidates must be at most {MAX_CANDIDATES}, not {_shown(self.candidates)}"
            )
        if self.threads is not None and self.threads > MAX_THREADS:
            raise BattleshipError(
                f"threads must be at most {MAX_THREADS}, not {_shown(self.threads)}"
            )
        # (fleets left to the rules may be the larger default: the shooter plays either)
        fleets = APART_FLEETS if self.fleets is None else self.fleets
        if self.rounds * fleets > MAX_FLEETS:
            default = f" ({APART_FLEETS:,} fleets where ships may not touch)" * (
                self.fleets is None
            )
            raise BattleshipError(
                f"rounds × fleets{default} must be at most {MAX_FLEETS:,}, "
                f"not {_shown(self.rounds * fleets)}"
            )
        # Named by the settings it does not have by default, in the fields' order:
        # ExpertShooter(fleets=1000) is get_shooter("expert(fleets=1000)"), named alike (a
        # subclass after its own default name).
        named = {f.name: f for f in fields(self)}
        settings = {
            f.name: getattr(self, f.name)
            for f in named.values()
            if f.init and (type(f.default), f.default) != (type(v := getattr(self, f.name)), v)
        }
        object.__setattr__(self, "name", written_named(named["name"].default, settings))

    def choose(self, observation: Observation, rng: np.random.Generator) -> int:
        return self._decide(observation, rng, weigh=False).cell

    def instant(self, observation: Observation) -> bool:
        """Whether its decision at ``observation`` is its stored opening's, made at once.

        >>> ExpertShooter().instant(Observation.start(Rules.classic()))
        True
        """
        return self.openings and opening_shot(observation) is not None

    def decide(self, observation: Observation, rng: np.random.Generator) -> Decision:
        """The cell ``choose`` fires, with how it was found and the cells it weighed.

        >>> obs = Observation.from_marks(Rules.classic(), hit=["E5", "F5"], miss=["D5"])
        >>> decision = ExpertShooter(fleets=300).decide(obs, np.random.default_rng(0))
        >>> obs.grid.name(decision.cell), decision.how
        ('G5', 'base')
        """
        return self._decide(observation, rng, weigh=True)

    def _decide(self, observation: Observation, rng: np.random.Generator, weigh: bool) -> Decision:
        check_choice(observation, rng)
        if self.openings and (cell := opening_shot(observation)) is not None:
            return Decision(cell, "opening")
        if self._exact_target(observation):
            try:
                return Decision(pick(best_cells(observation), rng), "exact")
            except CountTooLargeError:
                pass  # out of the exact count's reach: the ranked density shot below
        rules = observation.rules
        tables = rollout_tables(rules)
        afloat = np.array(sorted(observation.afloat, reverse=True), np.int64)
        bound = kernel_plan(rules, observation.afloat).bound * int(tables.room_weight[0])
        if bound >= INT64_LIMIT or not rollouts_fit(tables, afloat.shape[0]):
            # d could outgrow int64 here, or the rollouts' ship numbers and weights theirs
            return Decision(DensityShooter().choose(observation, rng), "density")
        if self.candidates > 1 and rules.touching and len(afloat) <= self.endgame_ships:
            decision = self._endgame(observation.marks, afloat, tables, weigh)
            if decision is not None:
                return decision
        cells = _kernels.expert_candidates(
            observation.marks, afloat, tables, self.candidates, self.target_rollouts
        )
        if cells.shape[0] == 0:
            raise BattleshipError("ships are afloat but no cell is left to fire at")
        if cells.shape[0] == 1:
            return Decision(int(cells[0]), "base")
        pcg = pcg_words(rng)
        decision = self._race(
            observation.marks, afloat, cells, tables, self.fleets_for(rules), pcg, weigh
        )
        set_pcg_words(rng, pcg)
        return decision

    def _race(self, marks, afloat, cells, tables, n_fleets, pcg, weigh) -> Decision:
        """The cell of least mean rollout shots. Each round rolls out the cells still in
        the race on ``fleets`` more fleets, then drops those whose mean over every fleet so
        far is above the least by more than ``z`` standard errors of the paired difference.
        The race ends once it is settled (so with one cell left), after ``rounds`` rounds,
        or before a round that would take the rollout shots past ``budget``; the earlier
        cell wins a tie, the first (the ranked density shot) when the draws fail."""
        shots = np.empty((self.rounds * n_fleets, cells.shape[0]))
        weights = np.empty(self.rounds * n_fleets)
        fleets_of = np.zeros(cells.shape[0], np.int64)  # the fleets each cell was rolled out on
        racing = np.arange(cells.shape[0])
        n = spent = 0
        for _ in range(self.rounds):
            stage = np.empty((n_fleets, racing.shape[0]))
            cost = rollouts(
                marks, afloat, cells[racing], tables, pcg, stage, weights[n:], self.threads or CORES
            )
            if cost < 0:
                break
            shots[n : n + n_fleets, racing] = stage
            n += n_fleets
            fleets_of[racing] = n
            spent += cost
            before = racing.shape[0]
            racing, settled = _kernels.still_racing(
                shots[:n], weights[:n], racing, float(self.z), float(self.tolerance)
            )
            if settled or spent + cost * racing.shape[0] / before > self.budget:
                break
        if n == 0:
            return Decision(int(cells[0]), "base")
        means = _kernels.weighted_means(shots[:n], weights[:n], racing)
        best = int(racing[np.argmin(means)])
        weighed = _weighed(cells, shots, weights, fleets_of, best) if weigh else ()
        return Decision(int(cells[best]), "rollouts", weighed)

    def _endgame(self, marks, afloat, tables, weigh) -> Decision | None:
        """With few ships afloat: every fleet that fits the marks (``endgame_fleets``) rolled
        out from each of the best ENDGAME_CANDIDATES cells (fewer, down to three, when
        fleets × cells would pass ``endgame_rollouts``), hunting or with a hit open; the
        cell of least mean, the better ranked on a tie. None when too many fleets fit."""
        room = self.endgame_rollouts // 3
        boards = np.empty((room, marks.shape[0]), np.int8)
        lefts = np.empty((room, afloat.shape[0]), np.int64)
        n = _kernels.endgame_fleets(marks, afloat, tables, boards, lefts)
        if n <= 0:
            return None  # too many to roll out (or none: the default path says why)
        k = min(ENDGAME_CANDIDATES, self.endgame_rollouts // n)
        cells = _kernels.best_cells(marks, afloat, tables, k)
        if cells.shape[0] < 2:
            return Decision(int(cells[0]), "base") if cells.shape[0] else None
        shots = np.empty((n, cells.shape[0]))
        roll_out(marks, afloat, cells, tables, boards[:n], lefts[:n], shots, self.threads or CORES)
        best = int(np.argmin(shots.mean(axis=0)))
        if not weigh:
            return Decision(int(cells[best]), "endgame")
        weights, fleets_of = np.ones(n), np.full(cells.shape[0], n)
        # A cell no layout puts a ship on is a sure miss, not a contender a shot behind:
        # it is rolled out all the same (the choice stays), but not shown.
        held = set(cells[(boards[:n, cells] >= 0).any(axis=0)].tolist())
        exact = tuple(
            w._replace(stderr=0.0)  # (no draws: no error)
            for w in _weighed(cells, shots, weights, fleets_of, best)
            if w.cell in held or w.cell == cells[best]
        )
        return Decision(int(cells[best]), "endgame", exact)

    def fleets_for(self, rules: Rules) -> int:
        """Rollout fleets a cell per round under ``rules``.

        >>> expert = ExpertShooter()
        >>> expert.fleets_for(Rules.classic()), expert.fleets_for(Rules.russian())
        (6000, 8000)
        >>> ExpertShooter(fleets=50).fleets_for(Rules.russian())
        50
        """
        if self.fleets is not None:
            return self.fleets
        return TOUCHING_FLEETS if rules.touching else APART_FLEETS

    def _exact_target(self, observation: Observation) -> bool:
        """Whether to fire the exact map's best cell: a hit is open, ships may not touch
        and at most ``exact_targets`` ships are afloat."""
        return (
            len(observation.open_hits) > 0
            and not observation.rules.touching
            and len(observation.afloat) <= self.exact_targets
        )


def rollouts(marks, afloat, cells, tables, pcg, shots, weights, threads=1) -> int:
    """``_kernels.rollout_shots`` for as many fleets as ``shots`` has rows: the fleets are
    drawn on this thread, then rolled out on ``threads`` threads, each a share of them. A
    fleet's rollouts depend on it alone, so the shots do not depend on ``threads``.

    >>> obs = Observation.from_marks(Rules.classic(), miss=["E5"])
    >>> afloat = np.array(obs.rules.lengths, np.int64)
    >>> cells = np.array([obs.grid.index("F5"), obs.grid.index("D4")])
    >>> shots, weights = np.empty((50, 2)), np.empty(50)
    >>> tables = rollout_tables(obs.rules)
    >>> rng = np.random.default_rng(1)
    >>> rollouts(obs.marks, afloat, cells, tables, pcg_words(rng), shots, weights, 2) > 0
    True
    >>> bool(((17 <= shots) & (shots <= 99)).all())
    True
    """
    n = shots.shape[0]
    boards = np.empty((n, marks.shape[0]), np.int8)
    lefts = np.empty((n, afloat.shape[0]), np.int64)
    if not _kernels.draw_fleets(marks, afloat, tables, pcg, boards, lefts, weights[:n]):
        return -1
    return roll_out(marks, afloat, cells, tables, boards, lefts, shots, threads)


def roll_out(marks, afloat, cells, tables, boards, lefts, shots, threads=1) -> int:
    """``_kernels.roll_fleets`` of the fleets ``boards`` and ``lefts`` on ``threads``
    threads, each a share of them; the shots simulated."""
    n = shots.shape[0]
    if threads == 1:
        return _kernels.roll_fleets(marks, afloat, cells, tables, boards, lefts, shots)
    bounds = [n * part // threads for part in range(threads + 1)]
    spent = [
        _pool(threads, os.getpid()).submit(
            _kernels.roll_fleets, marks, afloat, cells, tables, boards[a:b], lefts[a:b], shots[a:b]
        )
        for a, b in pairwise(bounds)
        if b > a
    ]
    return sum(part.result() for part in spent)


@cache
def _pool(threads: int, pid: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads for process ``pid`` (a forked child makes its own)."""
    return ThreadPoolExecutor(threads, thread_name_prefix="rollouts")


class RolloutTables(NamedTuple):
    """What the rollout kernels need of a rule set. ``zone[p]`` lists the cells placement p
    keeps from other ships (its own, and their surroundings when ships may not touch) and
    ``forbid[p]`` is their bitboard; ``through[c]`` and ``near[c]`` list the placements
    covering cell c and those whose zone holds it; ``ranges[n]`` gives the start and stop
    of the placements of length n, ``order`` the cells by a fixed rank, the tie-break
    (``checker_order`` those with r + c even) and ``keys`` a random
    64-bit key per cell (to hash sets of cells). ``room_weight[z]`` weighs a
    placement with z unknown cells in its zone: 1 where ships may touch, else
    ROOM_SCALE · e^(−ROOM_BETA · z) rounded (1 if that could outgrow int64). ``checker``:
    the hunt keeps to the cells with r + c even while the shortest ship afloat has two cells
    (where ships may touch). Lists are padded with -1."""

    rows: int
    cols: int
    touching: bool
    cells: np.ndarray
    lengths: np.ndarray
    masks: np.ndarray
    zone: np.ndarray
    forbid: np.ndarray
    through: np.ndarray
    near: np.ndarray
    ranges: np.ndarray
    order: np.ndarray
    checker_order: np.ndarray
    keys: np.ndarray
    room_weight: np.ndarray
    checker: bool


@cache
def rollout_tables(rules: Rules) -> RolloutTables:
    """The rollout tables of ``rules`` (computed once per rule set).

    >>> rollout_tables(Rules.classic()).through.shape
    (100, 28)
    """
    table = placement_table(rules)
    cells = table.cells.astype(np.int64)
    lengths = table.lengths.astype(np.int64)
    zone = table.zone.astype(np.int64)
    rng = np.random.default_rng(RANK_SEED)
    order = np.argsort(rng.permutation(rules.cells)).astype(np.int64)
    keys = rng.integers(0, 2**64, rules.cells, np.uint64, endpoint=False)
    room = np.arange(zone.shape[1] + 1)
    room_weight = np.ones_like(room)
    if not rules.touching and kernel_plan(rules, rules.lengths).bound * ROOM_SCALE < INT64_LIMIT:
        room_weight = np.rint(ROOM_SCALE * np.exp(-ROOM_BETA * room)).astype(np.int64)
    return RolloutTables(
        rows=rules.rows,
        cols=rules.cols,
        touching=rules.touching,
        cells=cells,
        lengths=lengths,
        masks=table.masks,
        zone=zone,
        forbid=table.zone_masks,
        through=_inverse(cells, rules.cells),
        near=_inverse(zone, rules.cells),
        ranges=table.bounds,
        order=order,
        checker_order=order[(order // rules.cols + order % rules.cols) % 2 == 0],
        keys=keys,
        room_weight=room_weight,
        checker=rules.touching,
    )


def rollouts_fit(tables: RolloutTables, ships: int) -> bool:
    """Whether the rollouts can draw fleets of ``ships`` afloat ships: a board numbers them in
    an int8, and a fleet's weight, a product of one choice count a ship, must stay far enough
    below float64's largest (about 2**1024) to be squared and summed over a million fleets.

    >>> tables = rollout_tables(Rules.classic())
    >>> rollouts_fit(tables, 5), rollouts_fit(tables, 127), rollouts_fit(tables, 128)
    (True, False, False)
    """
    choices = max(tables.cells.shape[0], tables.through.shape[1] * ships)
    return ships <= MAX_ROLLOUT_SHIPS and ships * math.log2(choices) <= MAX_WEIGHT_BITS


def _inverse(lists: np.ndarray, n_cells: int) -> np.ndarray:
    """Per cell, the rows of ``lists`` (cells padded with -1) that hold it, padded with -1."""
    rows = [[] for _ in range(n_cells)]
    for p, cells in enumerate(lists):
        for cell in cells[cells >= 0]:
            rows[cell].append(p)
    out = np.full((n_cells, max(map(len, rows))), -1, np.int64)
    for cell, held in enumerate(rows):
        out[cell, : len(held)] = held
    return out


def _shown(count: int) -> str:
    """A whole number as a message writes it: with thousands separators, or ``quoted``
    when it is too long to write out."""
    return f"{count:,}" if abs(count) < 10**30 else quoted(count)
