"""Numba kernels of the Battleship engine. Each has a plain-Python twin in the tests.

Marks follow ``observation``: 0 unknown, 1 miss, 2 open hit, 3 sunk, 4 water.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
MAX_FLEET_TRIES = 20_000_000
# The shooters the game kernel plays (``play_games``).
SHOOT_RANDOM, SHOOT_HUNT_TARGET, SHOOT_PARITY, SHOOT_DENSITY = 0, 1, 2, 3


@njit(cache=True)
def splitmix64(state):
    """Advance ``state`` (a one-element uint64 array) and return the next 64 bits."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def below(state, n):
    """A uniform integer in [0, n), without modulo bias."""
    bound = np.uint64(n)
    limit = _ALL - (_ALL % bound)
    while True:
        x = splitmix64(state)
        if x < limit:
            return np.int64(x % bound)


@njit(cache=True)
def sample_fleet(cells, check, starts, counts, n_cells, seed):
    """Placement indices of a uniformly random legal fleet, or -1s after too many tries.

    Ship i takes a uniform placement in ``starts[i] .. starts[i] + counts[i]``; the whole
    fleet is redrawn as soon as a ship's ``check`` cells meet an occupied cell, which keeps
    every legal fleet equally likely.
    """
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed)
    n = starts.shape[0]
    occupied = np.zeros(n_cells, np.bool_)
    chosen = np.full(n, -1, np.int64)
    for _ in range(MAX_FLEET_TRIES):
        occupied[:] = False
        ok = True
        for i in range(n):
            p = starts[i] + below(state, counts[i])
            for j in range(check.shape[1]):
                c = check[p, j]
                if c < 0:
                    break
                if occupied[c]:
                    ok = False
                    break
            if not ok:
                break
            for j in range(cells.shape[1]):
                c = cells[p, j]
                if c < 0:
                    break
                occupied[c] = True
            chosen[i] = p
        if ok:
            return chosen
    chosen[:] = -1
    return chosen


@njit(cache=True)
def density_counts(cells, lengths, starts, stops, multiplicity, marks, top):
    """counts[k, cell]: consistent placements covering ``cell`` with k open hits, each ship
    counted ``multiplicity`` times, over the placement ranges of the afloat lengths; and
    the number of consistent placements per range."""
    counts = np.zeros((top + 1, marks.shape[0]), np.int64)
    consistent = np.zeros(starts.shape[0], np.int64)
    for g in range(starts.shape[0]):
        weight = multiplicity[g]
        for p in range(starts[g], stops[g]):
            length = lengths[p]
            k = 0
            ok = True
            for j in range(length):
                mark = marks[cells[p, j]]
                if mark == 2:
                    k += 1
                elif mark != 0:
                    ok = False
                    break
            if not ok or k == length:
                continue
            consistent[g] += 1
            for j in range(length):
                counts[k, cells[p, j]] += weight
    return counts, consistent


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _disjoint(a, b):
    for w in range(a.shape[0]):
        if a[w] & b[w]:
            return False
    return True


@njit(cache=True)
def _count_pairs(blocked, low, occ, starts, stops, conflicts, scratch):
    """Pairs (a, b) for the last two ships, both clear of ``blocked`` and of each other;
    a starts at ``low``. ``conflicts[a]`` is a bitset over b's placements that a excludes."""
    n = starts.shape[0]
    start_a, stop_a = starts[n - 2], stops[n - 2]
    start_b, stop_b = starts[n - 1], stops[n - 1]
    scratch[:] = 0
    for b in range(start_b, stop_b):
        if _disjoint(occ[b], blocked):
            bit = b - start_b
            scratch[bit >> 6] |= np.uint64(1) << np.uint64(bit & 63)
    total = 0
    for a in range(low, stop_a):
        if _disjoint(occ[a], blocked):
            row = conflicts[a - start_a]
            for w in range(scratch.shape[0]):
                total += _popcount(scratch[w] & ~row[w])
    return total


@njit(cache=True)
def count_from_first(first, occ, zone, starts, stops, after_previous, conflicts):
    """Fleets (at least two ships) whose first ship takes placement ``first``.

    Ships come longest first; a ship of the same length as the one before it takes a
    later placement (``after_previous``), so equal ships are counted once per set.
    ``occ`` and ``zone`` are cell bitsets per placement.
    """
    n = starts.shape[0]
    words = occ.shape[1]
    scratch = np.zeros(conflicts.shape[1], np.uint64)
    if n == 2:
        total = 0
        low = first + 1 if after_previous[1] else starts[1]
        for b in range(low, stops[1]):
            if _disjoint(occ[b], zone[first]):
                total += 1
        return total
    blocked = np.zeros((n, words), np.uint64)
    blocked[1] = zone[first]
    if n == 3:
        low = first + 1 if after_previous[1] else starts[1]
        return _count_pairs(blocked[1], low, occ, starts, stops, conflicts, scratch)
    position = np.zeros(n, np.int64)
    position[1] = first if after_previous[1] else starts[1] - 1
    depth = 1
    total = 0
    while depth >= 1:
        position[depth] += 1
        p = position[depth]
        if p >= stops[depth]:
            depth -= 1
            continue
        if not _disjoint(occ[p], blocked[depth]):
            continue
        for w in range(words):
            blocked[depth + 1, w] = blocked[depth, w] | zone[p, w]
        if depth + 1 == n - 2:
            low = p + 1 if after_previous[n - 2] else starts[n - 2]
            total += _count_pairs(blocked[depth + 1], low, occ, starts, stops, conflicts, scratch)
        else:
            depth += 1
            position[depth] = p if after_previous[depth] else starts[depth] - 1
    return total


# --- PCG64: numpy's default bit generator, bit for bit -----------------------------------

_LOW32 = np.uint64(0xFFFFFFFF)
PCG_MULT_HIGH = np.uint64(0x2360ED051FC65DA4)
PCG_MULT_LOW = np.uint64(0x4385DF649FCCF645)


@njit(cache=True)
def _mul_high(a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    a_low, a_high = a & _LOW32, a >> np.uint64(32)
    b_low, b_high = b & _LOW32, b >> np.uint64(32)
    cross_1 = a_low * b_high
    cross_2 = a_high * b_low
    middle = ((a_low * b_low) >> np.uint64(32)) + (cross_1 & _LOW32) + (cross_2 & _LOW32)
    return (
        a_high * b_high
        + (cross_1 >> np.uint64(32))
        + (cross_2 >> np.uint64(32))
        + (middle >> np.uint64(32))
    )


@njit(cache=True)
def pcg64_next(pcg):
    """Advance ``pcg`` (uint64 [state high, state low, increment high, increment low]) and
    return its next 64-bit output, as numpy's ``PCG64.random_raw()`` does: the 128-bit LCG
    steps first, then the XSL-RR output of the new state."""
    high, low = pcg[0], pcg[1]
    new_high = _mul_high(low, PCG_MULT_LOW) + low * PCG_MULT_HIGH + high * PCG_MULT_LOW
    new_low = low * PCG_MULT_LOW
    low = new_low + pcg[3]
    high = new_high + pcg[2] + (np.uint64(1) if low < new_low else np.uint64(0))
    pcg[0], pcg[1] = high, low
    x = high ^ low
    rotation = high >> np.uint64(58)
    return (x >> rotation) | (x << ((np.uint64(64) - rotation) & np.uint64(63)))


@njit(cache=True)
def pick_index(pcg, n):
    """An index in [0, n) as ``strategies.common.pick`` draws it: a raw word, redrawn when
    it falls in the last, incomplete block of n."""
    bound = np.uint64(n)
    tail = (np.uint64(0) - bound) % bound  # 2**64 mod n
    while True:
        word = pcg64_next(pcg)
        if word <= _ALL - tail:
            return np.int64(word % bound)


# --- the density decision on bitboards ----------------------------------------------------


@njit(cache=True)
def _bitboards(marks, blocked, hits):
    """Cells no placement may cover (miss, sunk, water) and open hits, as bitboards;
    whether there is an open hit."""
    blocked[:] = 0
    hits[:] = 0
    any_hit = False
    for cell in range(marks.shape[0]):
        mark = marks[cell]
        if mark == 0:
            continue
        bit = np.uint64(1) << np.uint64(cell & 63)
        if mark == 2:
            hits[cell >> 6] |= bit
            any_hit = True
        else:
            blocked[cell >> 6] |= bit
    return any_hit


@njit(cache=True)
def density_into(marks, cells, masks, plan, d, blocked, hits):
    """d[cell] = Σ mult · w^k over the consistent placements covering the cell, in int64.

    ``plan`` is [w, then start, stop, multiplicity, length for each afloat length]; the
    caller makes sure d cannot overflow. ``blocked`` and ``hits`` are scratch bitboards.
    """
    words = masks.shape[1]
    any_hit = _bitboards(marks, blocked, hits)
    d[:] = 0
    w = plan[0]
    for group in range((plan.shape[0] - 1) // 4):
        at = 1 + 4 * group
        multiplicity, length = plan[at + 2], plan[at + 3]
        for p in range(plan[at], plan[at + 1]):
            clear = True
            k = 0
            for word in range(words):
                mask = masks[p, word]
                if mask & blocked[word]:
                    clear = False
                    break
                if any_hit:
                    k += _popcount(mask & hits[word])
            if not clear or k == length:
                continue
            weight = multiplicity
            for _ in range(k):
                weight *= w
            for j in range(length):
                d[cells[p, j]] += weight


@njit(cache=True)
def best_of(marks, d, best):
    """Write the unknown cells of greatest d to ``best`` in increasing order; their number."""
    top = np.int64(-1)
    n = 0
    for cell in range(marks.shape[0]):
        if marks[cell] != 0:
            continue
        if d[cell] > top:
            top = d[cell]
            n = 0
        if d[cell] == top:
            best[n] = cell
            n += 1
    return n


@njit(cache=True)
def density_best(marks, cells, masks, plan):
    """The unknown cells of greatest density d (see ``density_into``), in increasing order."""
    words = masks.shape[1]
    d = np.empty(marks.shape[0], np.int64)
    density_into(
        marks, cells, masks, plan, d, np.empty(words, np.uint64), np.empty(words, np.uint64)
    )
    best = np.empty(marks.shape[0], np.int64)
    return best[: best_of(marks, d, best)]


# --- whole games ----------------------------------------------------------------------------

_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@njit(cache=True)
def unknown_cells(marks, out):
    """Write the unknown cells to ``out`` in increasing order; their number."""
    n = 0
    for cell in range(marks.shape[0]):
        if marks[cell] == 0:
            out[n] = cell
            n += 1
    return n


@njit(cache=True)
def hunt_target_cells(marks, rows, cols, parity, shortest, flags, out):
    """``hunt_target.candidates`` on plain arrays: the cells beyond a line of open hits,
    else the unknown neighbours of open hits, else the hunt cells (on the pattern of the
    ``shortest`` afloat ship when ``parity``), written to ``out`` in increasing order;
    their number. ``flags`` is per-cell scratch."""
    flags[:] = 0
    want = 0
    for hit in range(marks.shape[0]):
        if marks[hit] != 2:
            continue
        r, c = hit // cols, hit % cols
        for dr, dc in _STEPS:
            if not (0 <= r + dr < rows and 0 <= c + dc < cols):
                continue
            ahead = (r + dr) * cols + c + dc
            if marks[ahead] != 0:
                continue
            flags[ahead] |= 1
            want = max(want, 1)
            if 0 <= r - dr < rows and 0 <= c - dc < cols and marks[(r - dr) * cols + c - dc] == 2:
                flags[ahead] |= 2
                want = 2
    n = 0
    if want:
        for cell in range(marks.shape[0]):
            if flags[cell] & want:
                out[n] = cell
                n += 1
        return n
    if parity:
        for cell in range(marks.shape[0]):
            if marks[cell] == 0 and (cell // cols + cell % cols) % shortest == 0:
                out[n] = cell
                n += 1
        if n:
            return n
    return unknown_cells(marks, out)


@njit(cache=True)
def _density_plan(afloat, ranges, plan):
    """Fill ``plan`` for ``density_into`` from the number of afloat ships of each length;
    the number of entries used."""
    used = 1
    cells = 0
    for length in range(afloat.shape[0] - 1, 0, -1):
        if afloat[length]:
            plan[used] = ranges[length, 0]
            plan[used + 1] = ranges[length, 1]
            plan[used + 2] = afloat[length]
            plan[used + 3] = length
            used += 4
            cells += afloat[length] * length
    plan[0] = 1 + 2 * cells
    return used


@njit(cache=True)
def _sink(marks, board, ship, rows, cols, touching):
    """Mark the cells of ``ship`` sunk and, when ships may not touch, the unknown cells
    around them water."""
    for cell in range(board.shape[0]):
        if board[cell] != ship:
            continue
        if not touching:
            r, c = cell // cols, cell % cols
            for nr in range(max(r - 1, 0), min(r + 2, rows)):
                for nc in range(max(c - 1, 0), min(c + 2, cols)):
                    if marks[nr * cols + nc] == 0:
                        marks[nr * cols + nc] = 4
        marks[cell] = 3


@njit(cache=True)
def play_games(
    shooter, rows, cols, touching, ship_lengths, boards, pcgs, cells, masks, ranges, fired
):
    """Play one game per row of ``boards`` (the ship index on each cell, -1 for water) with
    ``shooter`` (a SHOOT_* code), drawing its choices from that game's PCG64 words
    ``pcgs[g]`` exactly as ``pick`` draws them. Writes the cells fired to ``fired[g]`` and
    returns (shots, hunt shots) per game; shots is -1 where a shooter had no cell to fire at.
    ``cells``, ``masks`` and ``ranges`` (start and stop per length) are the placement table's.
    """
    n_cells = rows * cols
    games = boards.shape[0]
    longest = ship_lengths.max()
    shots = np.zeros(games, np.int64)
    hunt = np.zeros(games, np.int64)
    marks = np.empty(n_cells, np.uint8)
    left = np.empty(ship_lengths.shape[0], np.int64)
    afloat = np.empty(longest + 1, np.int64)
    plan = np.empty(1 + 4 * longest, np.int64)
    d = np.empty(n_cells, np.int64)
    choices = np.empty(n_cells, np.int64)
    flags = np.empty(n_cells, np.uint8)
    blocked = np.empty(masks.shape[1], np.uint64)
    hits = np.empty(masks.shape[1], np.uint64)
    pcg = np.empty(4, np.uint64)
    for g in range(games):
        board = boards[g]
        marks[:] = 0
        left[:] = ship_lengths
        afloat[:] = 0
        for length in ship_lengths:
            afloat[length] += 1
        pcg[:] = pcgs[g]
        ships_afloat = ship_lengths.shape[0]
        open_hits = 0
        used = _density_plan(afloat, ranges, plan)
        while ships_afloat:
            if shooter == SHOOT_DENSITY:
                density_into(marks, cells, masks, plan[:used], d, blocked, hits)
                n = best_of(marks, d, choices)
            elif shooter == SHOOT_RANDOM:
                n = unknown_cells(marks, choices)
            else:
                shortest = 1
                while afloat[shortest] == 0:
                    shortest += 1
                parity = shooter == SHOOT_PARITY
                n = hunt_target_cells(marks, rows, cols, parity, shortest, flags, choices)
            if n == 0:
                shots[g] = -1
                break
            cell = choices[pick_index(pcg, n)]
            fired[g, shots[g]] = cell
            shots[g] += 1
            if open_hits == 0:
                hunt[g] += 1
            ship = board[cell]
            if ship < 0:
                marks[cell] = 1
                continue
            left[ship] -= 1
            marks[cell] = 2
            if left[ship]:
                open_hits += 1
                continue
            _sink(marks, board, ship, rows, cols, touching)
            open_hits -= ship_lengths[ship] - 1
            afloat[ship_lengths[ship]] -= 1
            ships_afloat -= 1
            used = _density_plan(afloat, ranges, plan)
    return shots, hunt
