"""Plain-Python twins of the Battleship numba kernels, written for obviousness, not speed.

Each function follows the spec (``specs/battleship.md``) or the kernel's algorithm
literally, with Python ints (masked to 64 bits where the kernel uses uint64), so the
tests can compare the fast code with these exactly.

>>> state = [0]
>>> hex(splitmix64(state))
'0xe220a8397b1dcdaf'
>>> len(fleets(Rules.custom(3, [3, 3])))
12
"""

from __future__ import annotations

from collections import Counter
from math import factorial, prod, sqrt

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from hamle.battleship.count import count_fleets
from hamle.battleship.fleet import Ocean, random_fleet
from hamle.battleship.observation import HIT, MISS, SUNK, UNKNOWN, WATER, Observation
from hamle.battleship.rules import Rules, placements, zone

MASK = (1 << 64) - 1
# Rule sets the kernel tests share: presets, small, rectangular, no-touch.
RULESETS = [
    Rules.classic(),
    Rules.russian(),
    Rules.custom(5, [3, 2]),
    Rules.custom(4, [2, 2, 1], touching=False),
    Rules.custom((3, 7), [3, 3, 2]),
    Rules.custom((6, 5), [4, 3, 1, 1], touching=False),
    Rules.custom(8, [5, 4, 4, 2, 1]),
]
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


# --- random numbers and the fleet sampler -------------------------------------------


def splitmix64(state: list[int]) -> int:
    """Advance ``state`` (a one-element list holding a 64-bit int) and return 64 bits."""
    state[0] = (state[0] + GOLDEN) & MASK
    z = state[0]
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def below(state: list[int], n: int) -> int:
    """A uniform integer in [0, n): reject draws at or above the last multiple of n."""
    limit = MASK - (MASK % n)
    while True:
        x = splitmix64(state)
        if x < limit:
            return x % n


def ship_placements(rules: Rules) -> list[list[tuple[int, ...]]]:
    """Per ship of the fleet (in fleet order), its placements as tuples of cells."""
    return [[tuple(p) for p in placements(rules, ship.length).tolist()] for ship in rules.fleet]


def sample_fleet(rules: Rules, seed: int, tries: int = 1_000_000) -> tuple[int, ...] | None:
    """Per ship, the index (into ``placements(rules, length)``) of its placement in the
    fleet the kernel draws from ``seed``; None when no fleet is found within ``tries``.

    Ship after ship takes a uniform placement; as soon as a ship meets an earlier one
    (overlap, or touch when touching is forbidden) the whole fleet is drawn again.
    """
    state = [seed & MASK]
    options = ship_placements(rules)
    zones = {p: zone(rules, p) for ship_options in options for p in ship_options}
    for _ in range(tries):
        occupied: set[int] = set()
        chosen = []
        for ship_options in options:
            index = below(state, len(ship_options))
            cells = ship_options[index]
            if not zones[cells].isdisjoint(occupied):
                break
            occupied.update(cells)
            chosen.append(index)
        else:
            return tuple(chosen)
    return None


PCG_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def pcg64(state: list[int], increment: int) -> int:
    """numpy's PCG64 ``random_raw``: step the 128-bit LCG in ``state`` (a one-element list),
    then output XSL-RR of the new state: (high ^ low) rotated right by the top 6 bits."""
    state[0] = (state[0] * PCG_MULTIPLIER + increment) % 2**128
    high, low = state[0] >> 64, state[0] & MASK
    rotation = high >> 58
    x = high ^ low
    return ((x >> rotation) | (x << (64 - rotation))) & MASK


# --- density (spec § 3, Hard) --------------------------------------------------------


def weight(afloat) -> int:
    """w = 1 + 2 · (sum of the afloat ships' lengths)."""
    return 1 + 2 * sum(afloat)


def forbidden_cells(obs: Observation) -> set[int]:
    """Cells no afloat ship may cover: misses, sunk-ship cells, known water, and under
    no-touch rules every cell next to a sunk ship."""
    marks = [int(m) for m in obs.marks]
    out = {cell for cell, mark in enumerate(marks) if mark in (MISS, SUNK, WATER)}
    for ship in obs.sunk:
        out.update(ship.cells)
        if not obs.rules.touching:
            out.update(zone(obs.rules, ship.cells))
    return out


def consistent_placements(obs: Observation, length: int) -> list[tuple[list[int], int]]:
    """The consistent placements of an afloat ship of ``length`` with their k: on the
    board, covering no forbidden cell, and not made only of open hits."""
    marks = [int(m) for m in obs.marks]
    forbidden = forbidden_cells(obs)
    out = []
    for placement in placements(obs.rules, length).tolist():
        if any(cell in forbidden for cell in placement):
            continue
        k = sum(1 for cell in placement if marks[cell] == HIT)
        if k < length:
            out.append((placement, k))
    return out


def hit_counts(obs: Observation) -> list[list[int]]:
    """counts[k][cell]: consistent placements (of every afloat ship separately) that
    cover ``cell`` with k open hits, for k below the longest afloat length; every cell,
    shot or not."""
    counts = [[0] * obs.rules.cells for _ in range(max(obs.afloat))]
    for length in obs.afloat:
        for placement, k in consistent_placements(obs, length):
            for cell in placement:
                counts[k][cell] += 1
    return counts


def density(obs: Observation) -> tuple[int, list[int], tuple[int, ...]]:
    """(w, d per cell, best cells): d sums w**k over the consistent placements of every
    afloat ship (each ship separately) that cover the cell, k = open hits covered.
    d is reported for unshot cells only (0 elsewhere); best = unshot cells of max d."""
    marks = [int(m) for m in obs.marks]
    w = weight(obs.afloat)
    d = [0] * obs.rules.cells
    for length in obs.afloat:
        for placement, k in consistent_placements(obs, length):
            for cell in placement:
                d[cell] += w**k
    unshot = [cell for cell, mark in enumerate(marks) if mark == UNKNOWN]
    d = [value if marks[cell] == UNKNOWN else 0 for cell, value in enumerate(d)]
    best: tuple[int, ...] = ()
    if unshot:
        top = max(d[cell] for cell in unshot)
        best = tuple(cell for cell in unshot if d[cell] == top)
    return w, d, best


# --- brute-force fleets (spec § 2) ---------------------------------------------------


def fleets(rules: Rules) -> list[tuple[tuple[int, ...], ...]]:
    """Every legal fleet, ships labelled: tuples of placements (one per ship, in fleet
    order) that are pairwise legal. Same as filtering ``itertools.product`` of the
    ships' placements, but a prefix with an illegal pair is not extended."""
    options = ship_placements(rules)
    zones = {p: zone(rules, p) for ship_options in options for p in ship_options}
    out: list[tuple[tuple[int, ...], ...]] = []

    def legal(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return zones[a].isdisjoint(b) and zones[b].isdisjoint(a)

    def extend(prefix: list[tuple[int, ...]]) -> None:
        if len(prefix) == len(options):
            out.append(tuple(prefix))
            return
        for placement in options[len(prefix)]:
            if all(legal(placement, earlier) for earlier in prefix):
                extend([*prefix, placement])

    extend([])
    return out


def layouts(rules: Rules, all_fleets) -> int:
    """Distinct fleets once ships of equal length are interchangeable: the number of
    different sets of (length, cells)."""
    return len({frozenset(fleet) for fleet in all_fleets})


def symmetry(rules: Rules) -> int:
    """Π m! over groups of m equal-length ships."""
    return prod(factorial(m) for m in Counter(rules.lengths).values())


def placement_product(rules: Rules) -> int:
    """The number of tuples brute force would inspect without pruning."""
    return prod(len(placements(rules, ship.length)) for ship in rules.fleet)


def exact_map(obs: Observation) -> tuple[int, list[int]]:
    """(layouts, occupancy) under no-touch rules by enumeration: every set of placements
    of the afloat ships (equal lengths alike) that avoid forbidden cells and each other's
    zones, cover every open hit, and include no ship made only of open hits. Occupancy
    counts the layouts that put a ship on the cell; sunk cells count every layout."""
    marks = [int(m) for m in obs.marks]
    hits = {cell for cell, mark in enumerate(marks) if mark == HIT}
    lengths = sorted(obs.afloat, reverse=True)
    options = {n: [tuple(p) for p, _ in consistent_placements(obs, n)] for n in set(lengths)}
    counts = [0] * obs.rules.cells
    total = 0

    def extend(i: int, chosen: list[tuple[int, ...]], first: int) -> None:
        nonlocal total
        if i == len(lengths):
            covered = {cell for ship in chosen for cell in ship}
            if hits <= covered:
                total += 1
                for cell in covered:
                    counts[cell] += 1
            return
        same = i > 0 and lengths[i] == lengths[i - 1]
        for k in range(first if same else 0, len(options[lengths[i]])):
            ship = options[lengths[i]][k]
            if all(zone(obs.rules, other).isdisjoint(ship) for other in chosen):
                extend(i + 1, [*chosen, ship], k + 1)

    extend(0, [], 0)
    for ship in obs.sunk:
        for cell in ship.cells:
            counts[cell] = total
    return total, counts


# --- hunt and target (spec § 3, Normal) ----------------------------------------------


def hunt_target(obs: Observation, parity: bool) -> tuple[str, set[int]]:
    """The rule that applies (line, target or hunt) and its candidate cells, from the
    spec's words. "Unshot" means not fired at and not known water (mark UNKNOWN)."""
    rules = obs.rules
    rows, cols = rules.rows, rules.cols
    marks = [int(m) for m in obs.marks]

    def at(r: int, c: int) -> int | None:
        return marks[r * cols + c] if 0 <= r < rows and 0 <= c < cols else None

    def unshot(r: int, c: int) -> bool:
        return at(r, c) == UNKNOWN

    hits = [(r, c) for r in range(rows) for c in range(cols) if at(r, c) == HIT]

    # Line: maximal runs of >= 2 open hits, horizontal and vertical.
    line: set[int] = set()
    for dr, dc in ((0, 1), (1, 0)):
        for r, c in hits:
            if at(r - dr, c - dc) == HIT:
                continue  # not the start of a maximal run
            end = (r, c)
            length = 1
            while at(end[0] + dr, end[1] + dc) == HIT:
                end = (end[0] + dr, end[1] + dc)
                length += 1
            if length < 2:
                continue
            for cell in ((r - dr, c - dc), (end[0] + dr, end[1] + dc)):
                if unshot(*cell):
                    line.add(cell[0] * cols + cell[1])
    if line:
        return "line", line

    # Target: unshot orthogonal neighbours of open hits.
    target = {
        (r + dr) * cols + (c + dc)
        for r, c in hits
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if unshot(r + dr, c + dc)
    }
    if target:
        return "target", target

    # Hunt.
    every = {r * cols + c for r in range(rows) for c in range(cols) if unshot(r, c)}
    if parity:
        m = min(obs.afloat)
        pattern = {r * cols + c for r in range(rows) for c in range(cols) if (r + c) % m == 0}
        if pattern & every:
            return "hunt", pattern & every
    return "hunt", every


# --- boards to test on ----------------------------------------------------------------


def partial_game(rules: Rules, seed: int, shots: int, focus: float) -> Observation:
    """The observation after up to ``shots`` random shots at a random fleet (never the
    final, game-ending one). With probability ``focus`` a shot goes next to an open hit,
    so lines of hits and sunk ships show up."""
    rng = np.random.default_rng(seed)
    ocean = Ocean(random_fleet(rules, rng))
    for _ in range(shots):
        before = ocean.observation
        unshot = before.unshot
        if len(unshot) == 0:
            break
        near = _near_open_hits(before)
        pool = near if len(near) and rng.random() < focus else unshot
        ocean.fire(int(pool[rng.integers(len(pool))]))
        if ocean.over:
            return before
    return ocean.observation


def _near_open_hits(obs: Observation) -> np.ndarray:
    grid = obs.grid
    cells = {n for h in obs.open_hits.tolist() for n in grid.neighbours(h)}
    return np.array(sorted(c for c in cells if obs.marks[c] == UNKNOWN), np.int64)


# --- uniformity (spec § 2) ------------------------------------------------------------

Z_999 = 3.090232306167813  # standard normal quantile at 0.999


def chi_square_critical(df: int, z: float = Z_999) -> float:
    """Upper critical value of chi-square with ``df`` degrees of freedom
    (Wilson–Hilferty: (X/df)^(1/3) is about normal with mean 1 − 2/(9df))."""
    h = 2 / (9 * df)
    return df * (1 - h + z * sqrt(h)) ** 3


def chi_square(draws: list, fleets: list) -> float:
    """Pearson's statistic of ``draws`` against the uniform law on ``fleets``."""
    counts = Counter(draws)
    assert set(counts) <= set(fleets), "a drawn fleet is not legal"
    expected = len(draws) / len(fleets)
    return sum((counts[f] - expected) ** 2 / expected for f in fleets)


# --- hypothesis strategies -------------------------------------------------------------


@st.composite
def small_rules(draw) -> Rules:
    """Rules of either kind on boards of 1..5 × 1..6 cells with a fleet that fits."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    longest = max(rows, cols)
    fleet = draw(st.lists(st.integers(1, min(4, longest)), min_size=1, max_size=4))
    assume(sum(fleet) <= rows * cols)
    touching = draw(st.booleans())
    return Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=touching)


@st.composite
def marked(draw, symbols: str = "..mh") -> Observation:
    """Misses (m) and hits (h) strewn at random over a small board, each cell drawn from
    ``symbols`` ("." leaves it unknown): often no layout fits them."""
    rules = draw(small_rules())
    marks = draw(st.lists(st.sampled_from(symbols), min_size=rules.cells, max_size=rules.cells))
    names = [rules.grid.name(c) for c in range(rules.cells)]
    return Observation.from_marks(
        rules,
        miss=[n for n, m in zip(names, marks, strict=True) if m == "m"],
        hit=[n for n, m in zip(names, marks, strict=True) if m == "h"],
    )


@st.composite
def played(draw) -> Observation:
    """The observation after one shot or more at a random legal fleet, never the last: a
    ship is left afloat, so there is something to count."""
    rules = draw(small_rules())
    count = count_fleets(rules)
    assume(count.fleets >= count.product / 1000)  # else too rare for the rejection sampler
    ocean = Ocean(random_fleet(rules, np.random.default_rng(draw(st.integers(0, 2**32)))))
    board = ocean.fleet.board()
    cells = draw(st.permutations(range(rules.cells)))
    for cell in cells[: draw(st.integers(1, rules.cells))]:
        marks = ocean.observation.marks
        unhit = (board >= 0) & (marks == UNKNOWN)
        if marks[cell] == UNKNOWN and not (unhit[cell] and unhit.sum() == 1):
            ocean.fire(cell)
    return ocean.observation
