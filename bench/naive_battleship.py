"""A naive pure-Python Battleship engine: the baseline the benchmark compares against.

Written the way a typical public solver is: the board is a flat list of marks, ships are
lists of cells, everything is plain loops over Python lists and ints (no NumPy), and the
density shooter sums Python-int weights cell by cell. The decision rules are those of
spec § 3, so the same observation gives the same candidate cells as ``hamle``.

Marks: 0 unknown, 1 miss, 2 open hit, 3 sunk, 4 water (as in ``hamle``).
"""

from __future__ import annotations

import random

UNKNOWN, MISS, HIT, SUNK, WATER = 0, 1, 2, 3, 4
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def placements(rows: int, cols: int, length: int) -> list[list[int]]:
    """Every placement of a ship of ``length``: horizontal ones first, then vertical."""
    out = []
    for r in range(rows):
        for c in range(cols - length + 1):
            out.append([r * cols + c + i for i in range(length)])
    if length > 1:
        for r in range(rows - length + 1):
            for c in range(cols):
                out.append([(r + i) * cols + c for i in range(length)])
    return out


def zone(rows: int, cols: int, cells: list[int]) -> list[int]:
    """The cells and their eight neighbours (what no other ship may touch)."""
    out = set()
    for cell in cells:
        r, c = divmod(cell, cols)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    out.add((r + dr) * cols + c + dc)
    return sorted(out)


# --- the shooters' candidate cells -------------------------------------------------


def random_candidates(marks, afloat, rows, cols):
    return [cell for cell in range(rows * cols) if marks[cell] == UNKNOWN]


def hunt_target_candidates(marks, afloat, rows, cols, parity=False):
    """Line, else target, else hunt (on the pattern of the shortest afloat ship)."""
    line, target = set(), set()
    for cell in range(rows * cols):
        if marks[cell] != HIT:
            continue
        r, c = divmod(cell, cols)
        for dr, dc in DIRECTIONS:
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            if marks[nr * cols + nc] == UNKNOWN:
                target.add(nr * cols + nc)
            elif marks[nr * cols + nc] == HIT:
                # walk along the run of hits to the cell beyond its end
                while 0 <= nr < rows and 0 <= nc < cols and marks[nr * cols + nc] == HIT:
                    nr, nc = nr + dr, nc + dc
                if 0 <= nr < rows and 0 <= nc < cols and marks[nr * cols + nc] == UNKNOWN:
                    line.add(nr * cols + nc)
    if line:
        return sorted(line)
    if target:
        return sorted(target)
    unshot = random_candidates(marks, afloat, rows, cols)
    if parity:
        m = min(afloat)
        pattern = [cell for cell in unshot if (cell // cols + cell % cols) % m == 0]
        if pattern:
            return pattern
    return unshot


def parity_candidates(marks, afloat, rows, cols):
    return hunt_target_candidates(marks, afloat, rows, cols, parity=True)


def density_map(marks, afloat, rows, cols):
    """d per cell: the weights w^k of the consistent placements of each afloat ship."""
    w = 1 + 2 * sum(afloat)
    d = [0] * (rows * cols)
    for length in afloat:
        for cells in placements(rows, cols, length):
            hits = 0
            ok = True
            for cell in cells:
                if marks[cell] == HIT:
                    hits += 1
                elif marks[cell] != UNKNOWN:
                    ok = False
                    break
            if ok and hits < length:
                weight = w**hits
                for cell in cells:
                    d[cell] += weight
    return d


def density_candidates(marks, afloat, rows, cols):
    d = density_map(marks, afloat, rows, cols)
    unshot = random_candidates(marks, afloat, rows, cols)
    top = max(d[cell] for cell in unshot)
    return [cell for cell in unshot if d[cell] == top]


CANDIDATES = {
    "random": random_candidates,
    "hunt-target": hunt_target_candidates,
    "parity": parity_candidates,
    "density": density_candidates,
}


def choose(name: str, marks, afloat, rows, cols, rng: random.Random) -> int:
    """The cell the shooter ``name`` fires at."""
    return rng.choice(CANDIDATES[name](marks, afloat, rows, cols))


# --- whole games ---------------------------------------------------------------------


def random_fleet(rows, cols, lengths, touching, rng: random.Random) -> list[list[int]]:
    """A uniformly random legal fleet: draw every ship, redraw all on a clash."""
    tables = [placements(rows, cols, length) for length in lengths]
    while True:
        blocked = set()
        fleet = []
        for table in tables:
            cells = rng.choice(table)
            if blocked.intersection(cells):
                break
            blocked.update(cells if touching else zone(rows, cols, cells))
            fleet.append(cells)
        else:
            return fleet


def play_game(name, rows, cols, lengths, touching, seed) -> int:
    """Play one game with shooter ``name``; the number of shots it took."""
    rng = random.Random(seed)
    fleet = random_fleet(rows, cols, lengths, touching, rng)
    ship_at = [-1] * (rows * cols)
    for i, cells in enumerate(fleet):
        for cell in cells:
            ship_at[cell] = i
    left = list(lengths)
    afloat = list(lengths)
    marks = [UNKNOWN] * (rows * cols)
    shots = 0
    while afloat:
        cell = choose(name, marks, afloat, rows, cols, rng)
        shots += 1
        ship = ship_at[cell]
        if ship < 0:
            marks[cell] = MISS
            continue
        marks[cell] = HIT
        left[ship] -= 1
        if left[ship] == 0:
            if not touching:
                for other in zone(rows, cols, fleet[ship]):
                    if marks[other] == UNKNOWN:
                        marks[other] = WATER
            for other in fleet[ship]:
                marks[other] = SUNK
            afloat.remove(lengths[ship])
    return shots


# --- counting ------------------------------------------------------------------------


def count_fleets(rows, cols, lengths, touching=True) -> int:
    """The number of legal fleets (ships labelled), by plain backtracking."""
    tables = [placements(rows, cols, length) for length in lengths]
    zones = [[cells if touching else zone(rows, cols, cells) for cells in t] for t in tables]
    blocked = [0] * (rows * cols)

    def place(i: int) -> int:
        if i == len(tables):
            return 1
        total = 0
        for cells, around in zip(tables[i], zones[i], strict=True):
            if any(blocked[cell] for cell in cells):
                continue
            for cell in around:
                blocked[cell] += 1
            total += place(i + 1)
            for cell in around:
                blocked[cell] -= 1
        return total

    return place(0)
