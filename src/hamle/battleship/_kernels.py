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
def sample_fleet(cells, check, starts, counts, n_cells, seed, tries=MAX_FLEET_TRIES):
    """Placement indices of a uniformly random legal fleet, or -1s after ``tries`` tries.

    Ship i takes a uniform placement in ``starts[i] .. starts[i] + counts[i]``; the whole
    fleet is redrawn as soon as a ship's ``check`` cells meet an occupied cell, which keeps
    every legal fleet equally likely.
    """
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed)
    n = starts.shape[0]
    occupied = np.zeros(n_cells, np.bool_)
    chosen = np.full(n, -1, np.int64)
    for _ in range(tries):
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
def _add_weighted(d, cells, p, length, multiplicity, w, k):
    """Add multiplicity · w^k to d on each cell of placement p."""
    weight = multiplicity
    for _ in range(k):
        weight *= w
    for j in range(length):
        d[cells[p, j]] += weight


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
            if clear and k < length:
                _add_weighted(d, cells, p, length, multiplicity, w, k)


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


# --- the expert: rollouts of the ranked density shooter over sampled fleets ---------------
#
# The ranked density shooter fires at a cell of greatest d, the tie broken by a fixed rank
# of the cells rather than at random, so a rollout's length depends on the fleet alone. Its
# d is the density's, but where ships may not touch (under Russian rules the plain density
# is a poor base) it leaves out the placements with an open hit around them (that hit's
# ship would touch them) and weighs each placement by ``t.room_weight`` of the unknown
# cells in its zone: a placement hemmed in by fewer unknown cells takes less room from the
# other ships, so more fleets hold it. ``alive[p]`` says placement p covers no marked cell
# and has no open hit around it, ``room[p]`` counts the unknown cells in its zone (kept up
# to date only where ships may not touch; elsewhere every weight is 1), and ``base[c]``
# sums mult · room_weight[room[p]] over the alive placements p through c (their weight
# w^0), kept up to date shot by shot, so a decision only adds the placements through open
# hits.


@njit(cache=True)
def _clear(p, marks, t):
    """Placement p covers no marked cell and has no open hit in its zone."""
    for j in range(t.lengths[p]):
        if marks[t.cells[p, j]] != 0:
            return False
    for j in range(t.zone.shape[1]):
        cell = t.zone[p, j]
        if cell < 0:
            break
        if marks[cell] == 2:
            return False
    return True


@njit(cache=True)
def track_start(marks, t, mult, alive, room, base):
    """Fill ``alive``, ``room`` and ``base`` for ``marks``, with ``mult[n]`` ships of length
    n afloat."""
    base[:] = 0
    for p in range(t.cells.shape[0]):
        alive[p] = _clear(p, marks, t)
        room[p] = 0
        for j in range(t.zone.shape[1]):
            cell = t.zone[p, j]
            if cell < 0:
                break
            room[p] += marks[cell] == 0
        length = t.lengths[p]
        if alive[p] and mult[length]:
            weight = mult[length] * t.room_weight[room[p]]
            for j in range(length):
                base[t.cells[p, j]] += weight


@njit(cache=True, inline="always")  # (a call passing the tables costs rollouts ~10 %)
def _track_mark(cell, hit, t, mult, alive, room, base):
    """Update the tracked state for ``cell``, just marked: kill the alive placements it
    rules out (those through it, or when it is a hit, those whose zone holds it); the
    others whose zone holds it have one unknown cell less around them."""
    for k in range(t.near.shape[1]):
        p = t.near[cell, k]
        if p < 0:
            break
        if not alive[p]:
            continue
        length = t.lengths[p]
        m = mult[length]
        if t.touching:  # the zone is the placement
            alive[p] = False
            change = -m
        else:
            before = t.room_weight[room[p]]
            if hit or t.masks[p, cell >> 6] >> np.uint64(cell & 63) & np.uint64(1):
                alive[p] = False
                change = -m * before
            else:
                room[p] -= 1
                change = m * (t.room_weight[room[p]] - before)
        for j in range(length):
            base[t.cells[p, j]] += change


@njit(cache=True, inline="always")
def _track_sink(length, t, mult, alive, room, base):
    """One ship of ``length`` fewer afloat."""
    mult[length] -= 1
    for p in range(t.ranges[length, 0], t.ranges[length, 1]):
        if alive[p]:
            weight = t.room_weight[room[p]]
            for j in range(length):
                base[t.cells[p, j]] -= weight


@njit(cache=True, inline="always")  # (inlined into rollouts: measured 4-7 % faster)
def ranked_density(marks, base, hits, n_hits, w, t, mult, d):
    """The ranked density shooter's d: ``base`` plus, for each placement through the
    ``n_hits`` open ``hits`` (counted from its first hit) that is clear of other marks and of
    open hits around it, mult · w^k · room_weight[z] on its cells, k = its hits and z the
    unknown cells in its zone."""
    cells, lengths, masks, zone = t.cells, t.lengths, t.masks, t.zone
    d[:] = base
    for a in range(n_hits):
        hit = hits[a]
        for e in range(t.through.shape[1]):
            p = t.through[hit, e]
            if p < 0:
                break
            length = lengths[p]
            if mult[length] == 0:
                continue
            k = 0
            for j in range(length):
                mark = marks[cells[p, j]]
                if mark == 2 and cells[p, j] >= hit:
                    k += 1
                elif mark != 0:
                    k = -1
                    break
            if k <= 0 or k == length:
                continue
            z = 0
            for j in range(0 if t.touching else zone.shape[1]):
                cell = zone[p, j]
                if cell < 0:
                    break
                own = masks[p, cell >> 6] >> np.uint64(cell & 63) & np.uint64(1)
                if marks[cell] == 2 and not own:
                    k = -1
                    break
                z += marks[cell] == 0
            if k >= 0:
                _add_weighted(d, cells, p, length, mult[length] * t.room_weight[z], w, k)


@njit(cache=True)
def ranked_best(marks, d, order):
    """The unknown cell of greatest d, of least rank among equals (``order`` lists the
    cells by rank); -1 if none."""
    top = -1  # the greatest d first: a loop without branches
    for cell in range(marks.shape[0]):
        top = max(top, d[cell] if marks[cell] == 0 else -1)
    for cell in order:  # then the first by rank to have it
        if d[cell] == top and marks[cell] == 0:
            return cell
    return -1


@njit(cache=True)
def hunt_best(marks, d, t, mult):
    """The ranked density shooter's shot with no hit open: ``ranked_best``, except that
    where ``t.checker`` holds and the shortest ship afloat has two cells it takes the best
    of the cells with r + c even (``t.checker_order``), if any has d > 0 (README, "The
    checkerboard")."""
    if t.checker and mult.shape[0] > 2 and mult[1] == 0 and mult[2] > 0:
        top = 0
        for cell in t.checker_order:
            top = max(top, d[cell] if marks[cell] == 0 else 0)
        if top > 0:
            for cell in t.checker_order:
                if d[cell] == top and marks[cell] == 0:
                    return cell
    return ranked_best(marks, d, t.order)


@njit(cache=True)
def rollout(
    first, board, ship_lengths, left, marks, alive, room, base, mult, hits, n_hits, t, d, trails, j
):
    """Fire ``first``, then the ranked density shooter until every ship of ``board`` (ship
    index per cell, -1 for water; ``left[s]`` cells of ship s not hit yet) is sunk, from
    the tracked state of ``marks`` and its ``n_hits`` open ``hits``, updating all of it in
    place; the shots fired.

    The cells fired decide the state, so rollouts on one fleet that have fired the same
    cells go on alike: row j of ``trails`` holds the shots this rollout takes, how many
    shots it played itself, then the hash of the cells fired after each shot; once the hash
    equals that of an earlier rollout r < j after as many shots, this one ends as r does.
    A hash XORs 64-bit random keys of the cells (``t.keys``).
    """
    rows, cols = t.rows, t.cols
    trail = np.uint64(0)
    afloat_cells = 0  # the cells of the ships afloat, hit or not
    for ship in range(left.shape[0]):
        if left[ship]:
            afloat_cells += ship_lengths[ship]
    cell = first
    shots = 0
    while True:
        shots += 1
        trail ^= t.keys[cell]
        trails[j, 1 + shots] = trail
        for r in range(j):
            if shots <= trails[r, 1] and trails[r, 1 + shots] == trail:
                trails[j, 0], trails[j, 1] = trails[r, 0], shots
                return np.int64(trails[r, 0])
        ship = board[cell]
        marks[cell] = 1 if ship < 0 else 2
        _track_mark(cell, ship >= 0, t, mult, alive, room, base)
        if ship >= 0:
            left[ship] -= 1
            if left[ship]:
                hits[n_hits] = cell
                n_hits += 1
            else:
                kept = 0
                for a in range(n_hits):
                    if board[hits[a]] != ship:
                        hits[kept] = hits[a]
                        kept += 1
                n_hits = kept
                for part in range(board.shape[0]):
                    if board[part] != ship:
                        continue
                    marks[part] = 3
                    if t.touching:
                        continue
                    r, c = part // cols, part % cols
                    for nr in range(max(r - 1, 0), min(r + 2, rows)):
                        for nc in range(max(c - 1, 0), min(c + 2, cols)):
                            if marks[nr * cols + nc] == 0:
                                marks[nr * cols + nc] = 4
                                _track_mark(nr * cols + nc, False, t, mult, alive, room, base)
                _track_sink(ship_lengths[ship], t, mult, alive, room, base)
                afloat_cells -= ship_lengths[ship]
                if afloat_cells == 0:
                    trails[j, 0] = trails[j, 1] = shots
                    return shots
        if n_hits:
            ranked_density(marks, base, hits, n_hits, 1 + 2 * afloat_cells, t, mult, d)
            cell = ranked_best(marks, d, t.order)
        else:  # d is the base
            cell = hunt_best(marks, base, t, mult)


@njit(cache=True)
def ranked_games(boards, afloat, t, opening):
    """The shots of whole games of the ranked density shooter, one per row of ``boards``
    (ship index per cell, -1 for water; ship s has ``afloat[s]`` cells), from the empty
    board, firing the cells of ``opening`` first until one hits: the
    ``ExpertShooter(candidates=1, exact_targets=0)`` games of those fleets (``opening``
    empty without its opening)."""
    n_cells = boards.shape[1]
    empty = np.zeros(n_cells, np.uint8)
    mult, alive, room, base, hits, _, d = _start(empty, afloat, t)
    trails = np.empty((1, n_cells + 2), np.uint64)
    shots = np.empty(boards.shape[0], np.int64)
    for g in range(boards.shape[0]):
        state = (empty.copy(), alive.copy(), room.copy(), base.copy(), mult.copy(), hits.copy())
        marks, game_alive, game_room, game_base, game_mult = state[:5]
        misses = 0
        first = -1
        for cell in opening:
            if boards[g, cell] >= 0:
                first = cell
                break
            marks[cell] = 1
            _track_mark(cell, False, t, game_mult, game_alive, game_room, game_base)
            misses += 1
        if first < 0:
            first = hunt_best(marks, game_base, t, game_mult)
        left = afloat.copy()
        shots[g] = misses + rollout(first, boards[g], afloat, left, *state, 0, t, d, trails, 0)
    return shots


@njit(cache=True)
def _covers(p, marks, occupied, t):
    """The open hits placement p would explain, -1 if it may not lie there: over an
    occupied zone or a miss, sunk ship or water, with every cell a hit (that ship would
    have sunk), or, where ships may not touch, beside another ship's open hit."""
    for word in range(occupied.shape[0]):
        if t.forbid[p, word] & occupied[word]:
            return -1
    length = t.lengths[p]
    k = 0
    for j in range(length):
        mark = marks[t.cells[p, j]]
        if mark == 2:
            k += 1
        elif mark != 0:
            return -1
    if k == length:
        return -1
    for j in range(0 if t.touching else t.zone.shape[1]):
        cell = t.zone[p, j]
        if cell < 0:
            break
        own = t.masks[p, cell >> 6] >> np.uint64(cell & 63) & np.uint64(1)
        if marks[cell] == 2 and not own:
            return -1
    return k


@njit(cache=True)
def _place(p, ship, t, occupied, board):
    """Put ``ship`` on placement p: its cells on ``board``, its mask in ``occupied``."""
    for word in range(occupied.shape[0]):
        occupied[word] |= t.masks[p, word]
    for j in range(t.lengths[p]):
        board[t.cells[p, j]] = ship


@njit(cache=True)
def _draw_fleet(afloat, alive, marks, hits, n_hits, t, pcg, occupied, board, left, choice, ships):
    """Place the ``afloat`` ships, each uniformly among its legal choices given the ships
    before it: first, for each of the ``n_hits`` open ``hits`` no ship covers yet, a ship
    not placed yet and a placement of it over that hit, then the other ships in order, each
    among the alive placements (clear of every mark) that no earlier ship forbids. Writes
    ``board`` (ship index per cell) and ``left`` (each ship's cells not hit yet) and returns
    the importance weight (the product of the numbers of choices), 0 when stuck. A fleet
    comes from one sequence of choices only, so weighted draws are uniform over fleets."""
    ranges, forbid, cells = t.ranges, t.forbid, t.cells
    occupied[:] = 0
    board[:] = -1
    left[:] = 0
    weight = 1.0
    for a in range(n_hits):
        hit = hits[a]
        if board[hit] >= 0:
            continue
        n = 0
        for e in range(t.through.shape[1]):
            p = t.through[hit, e]
            if p < 0:
                break
            if _covers(p, marks, occupied, t) < 0:
                continue
            for ship in range(afloat.shape[0]):
                if not left[ship] and afloat[ship] == t.lengths[p]:
                    choice[n], ships[n] = p, ship
                    n += 1
        if n == 0:
            return 0.0
        pick = pick_index(pcg, n)
        weight *= n
        p, ship = choice[pick], ships[pick]
        _place(p, ship, t, occupied, board)
        left[ship] = afloat[ship]
        for j in range(afloat[ship]):
            left[ship] -= marks[cells[p, j]] == 2
    for ship in range(afloat.shape[0]):
        if left[ship]:
            continue
        length = afloat[ship]
        n = 0
        for p in range(ranges[length, 0], ranges[length, 1]):
            if not alive[p]:
                continue
            free = True
            for word in range(occupied.shape[0]):
                if forbid[p, word] & occupied[word]:
                    free = False
                    break
            if free:
                choice[n] = p
                n += 1
        if n == 0:
            return 0.0
        p = choice[pick_index(pcg, n)]
        weight *= n
        _place(p, ship, t, occupied, board)
        left[ship] = length
    return weight


@njit(cache=True)
def _put_fleet(chosen, ships, marks, t, board, left):
    """Write the first ``ships`` placements of ``chosen`` as a fleet: ``board`` (ship index
    per cell, -1 for water) and ``left`` (each ship's cells not hit yet)."""
    board[:] = -1
    for ship in range(ships):
        p = chosen[ship]
        left[ship] = 0
        for j in range(t.lengths[p]):
            board[t.cells[p, j]] = ship
            left[ship] += marks[t.cells[p, j]] == 0


@njit(cache=True)
def _following(afloat, ship, previous, t):
    """The placements ship ``ship`` of ``afloat`` may take after ``previous`` of the ship
    before it (later ones only when the two are equal, so equal ships come once), as a
    start and stop; (-1, 0) when there is no such ship: one pass with no placement."""
    if ship >= afloat.shape[0]:
        return -1, 0
    if afloat[ship] == afloat[ship - 1]:
        return previous + 1, t.ranges[afloat[ship], 1]
    return t.ranges[afloat[ship], 0], t.ranges[afloat[ship], 1]


@njit(cache=True)
def endgame_fleets(marks, afloat, t, boards, lefts):
    """Every fleet of the one to three ``afloat`` ships (longest first) that fits ``marks``
    and explains each open hit, ships of equal length once (so every fleet weighs alike):
    row i of ``boards`` (ship index per cell, -1 for water) and of ``lefts`` (each ship's
    cells not hit yet). Their number, or -1 when more than ``boards`` has rows."""
    n_hits = 0
    for cell in range(marks.shape[0]):
        n_hits += marks[cell] == 2
    occupied = np.zeros(t.masks.shape[1], np.uint64)
    chosen = np.zeros(3, np.int64)
    n = 0
    for p in range(t.ranges[afloat[0], 0], t.ranges[afloat[0], 1]):
        occupied[:] = 0
        k = _covers(p, marks, occupied, t)
        if k < 0:
            continue
        chosen[0] = p
        start, stop = _following(afloat, 1, p, t)
        for q in range(start, stop):
            occupied[:] = t.masks[p]
            kq = _covers(q, marks, occupied, t) if q >= 0 else 0
            if kq < 0:
                continue
            chosen[1] = q
            if q >= 0:
                occupied |= t.masks[q]
            first, last = _following(afloat, 2, q, t)
            for r in range(first, last):
                kr = _covers(r, marks, occupied, t) if r >= 0 else 0
                if kr < 0 or k + kq + kr != n_hits:
                    continue
                if n == boards.shape[0]:
                    return -1
                chosen[2] = r
                _put_fleet(chosen, afloat.shape[0], marks, t, boards[n], lefts[n])
                n += 1
    return n


@njit(cache=True)
def _start(marks, afloat, t):
    """The tracked state of ``marks``: (mult, alive, room, base, open hits, their number,
    d)."""
    n_cells = marks.shape[0]
    mult = np.zeros(t.ranges.shape[0], np.int64)
    afloat_cells = 0
    for length in afloat:
        mult[length] += 1
        afloat_cells += length
    alive = np.empty(t.cells.shape[0], np.bool_)
    room = np.empty(t.cells.shape[0], np.int16)
    base = np.empty(n_cells, np.int64)
    track_start(marks, t, mult, alive, room, base)
    hits = np.empty(n_cells, np.int64)
    n_hits = 0
    for cell in range(n_cells):
        if marks[cell] == 2:
            hits[n_hits] = cell
            n_hits += 1
    d = np.empty(n_cells, np.int64)
    w = 1 + 2 * afloat_cells
    ranked_density(marks, base, hits, n_hits, w, t, mult, d)
    return mult, alive, room, base, hits, n_hits, d


@njit(cache=True, nogil=True)
def draw_fleets(marks, afloat, t, pcg, boards, lefts, weights):
    """Fill row i of ``boards`` (ship index per cell, -1 for water) and of ``lefts`` (each
    ship's cells not hit yet) with fleet i drawn after ``marks`` (``_draw_fleet``), and
    ``weights[i]`` with its importance weight to the uniform posterior, for every row;
    draws come from ``pcg``. False when fewer come out of 100 times as many tries."""
    cells = t.cells
    _, alive, _, _, hits, n_hits, _ = _start(marks, afloat, t)
    board = np.empty(marks.shape[0], np.int64)
    occupied = np.empty(t.masks.shape[1], np.uint64)
    choice = np.empty(max(cells.shape[0], afloat.shape[0] * t.through.shape[1]), np.int64)
    ships = np.empty_like(choice)
    n_fleets = boards.shape[0]
    drawn = 0
    for _ in range(100 * n_fleets):
        if drawn == n_fleets:
            break
        weight = _draw_fleet(
            afloat, alive, marks, hits, n_hits, t, pcg, occupied, board, lefts[drawn], choice, ships
        )
        if weight > 0.0:
            weights[drawn] = weight
            boards[drawn] = board
            drawn += 1
    return drawn == n_fleets


@njit(cache=True, nogil=True)
def roll_fleets(marks, afloat, candidates, t, boards, lefts, shots):
    """Fill row i of ``shots`` with the shots to sink every ship of fleet i (row i of
    ``boards`` and ``lefts``, from ``draw_fleets``) when each candidate is fired first and
    the ranked density shooter plays on from ``marks``; the shots the rollouts simulated
    (those that end as an earlier one of the same fleet does stop there). A fleet's
    rollouts depend on it alone, so the fleets may be shared out among threads."""
    mult, alive, room, base, hits, n_hits, d = _start(marks, afloat, t)
    k = candidates.shape[0]
    trial_marks = np.empty_like(marks)
    trial_alive = np.empty_like(alive)
    trial_room = room.copy()
    trial_base = np.empty_like(base)
    trial_mult = np.empty_like(mult)
    trial_hits = np.empty_like(hits)
    left = np.empty(afloat.shape[0], np.int64)
    trails = np.empty((k, marks.shape[0] + 2), np.uint64)
    spent = 0
    for i in range(boards.shape[0]):
        for j in range(k):
            trial_marks[:] = marks
            trial_alive[:] = alive
            if not t.touching:  # (rooms change only where ships may not touch)
                trial_room[:] = room
            trial_base[:] = base
            trial_mult[:] = mult
            trial_hits[:] = hits
            left[:] = lefts[i]
            shots[i, j] = rollout(
                candidates[j],
                boards[i],
                afloat,
                left,
                trial_marks,
                trial_alive,
                trial_room,
                trial_base,
                trial_mult,
                trial_hits,
                n_hits,
                t,
                d,
                trails,
                j,
            )
            spent += trails[j, 1]
    return spent


@njit(cache=True)
def rollout_shots(marks, afloat, candidates, t, n_fleets, pcg, shots, weights):
    """``draw_fleets`` then ``roll_fleets`` on one thread: fills ``shots`` and ``weights``
    for ``n_fleets`` fleets and returns the shots simulated, or -1 when the draws fail."""
    boards = np.empty((n_fleets, marks.shape[0]), np.int8)
    lefts = np.empty((n_fleets, afloat.shape[0]), np.int64)
    if not draw_fleets(marks, afloat, t, pcg, boards, lefts, weights[:n_fleets]):
        return -1
    return roll_fleets(marks, afloat, candidates, t, boards, lefts, shots)


@njit(cache=True)
def weighted_means(shots, weights, columns):
    """The ``weights``-weighted mean of each of ``columns`` of ``shots``."""
    means = np.zeros(columns.shape[0])
    for i in range(weights.shape[0]):
        for j in range(columns.shape[0]):
            means[j] += weights[i] * shots[i, columns[j]]
    return means / weights.sum()


@njit(cache=True)
def rollout_means(marks, afloat, candidates, t, n_fleets, pcg):
    """Per candidate, the weighted mean of ``rollout_shots`` over ``n_fleets`` fleets;
    all NaN when the draws fail."""
    shots = np.empty((n_fleets, candidates.shape[0]))
    weights = np.empty(n_fleets)
    if rollout_shots(marks, afloat, candidates, t, n_fleets, pcg, shots, weights) < 0:
        return np.full(candidates.shape[0], np.nan)
    return weighted_means(shots, weights, np.arange(candidates.shape[0]))


@njit(cache=True)
def still_racing(shots, weights, racing, z, tolerance):
    """Those of ``racing`` (columns of ``shots``) whose weighted mean is not above the least
    by more than ``z`` standard errors of their paired difference with it, and whether the
    race is settled: none of them could beat the least by more than ``tolerance`` shots at
    ``z`` standard errors."""
    means = weighted_means(shots, weights, racing)
    best = np.argmin(means)
    total = weights.sum()
    kept = np.zeros(racing.shape[0], np.bool_)
    kept[best] = settled = True
    for j in range(racing.shape[0]):
        if j == best:
            continue
        gap = means[j] - means[best]
        spread = shots[:, racing[j]] - shots[:, racing[best]] - gap
        reach = z * np.sqrt(np.sum((weights * spread) ** 2)) / total
        kept[j] = gap <= reach
        settled &= not kept[j] or reach - gap <= tolerance
    return racing[kept], settled


@njit(cache=True)
def top_cells(marks, d, t, mult, n_hits, n):
    """The ``n`` best cells of the ranked density at ``marks``, best first (fewer if fewer
    are unknown): the shots its shooter would fire if each missed."""
    cells = np.empty(n, np.int64)
    shown = marks.copy()
    k = 0
    while k < n:
        cell = ranked_best(shown, d, t.order) if n_hits else hunt_best(shown, d, t, mult)
        if cell < 0:
            break
        cells[k] = cell
        shown[cell] = 1
        k += 1
    return cells[:k]


@njit(cache=True)
def best_cells(marks, afloat, t, n):
    """``top_cells`` of ``marks`` with the ``afloat`` ships (longest first)."""
    mult, _, _, _, _, n_hits, d = _start(marks, afloat, t)
    return top_cells(marks, d, t, mult, n_hits, n)


@njit(cache=True)
def expert_candidates(marks, afloat, t, n_candidates, on_hits):
    """The cells the expert rolls out at ``marks``: the ``n_candidates`` best by (d, rank),
    or with one candidate, or with a hit open unless ``on_hits``, only the ranked density
    shot; empty when no cell is unknown."""
    mult, _, _, _, _, n_hits, d = _start(marks, afloat, t)
    if n_candidates < 2 or (n_hits and not on_hits):
        cell = ranked_best(marks, d, t.order) if n_hits else hunt_best(marks, d, t, mult)
        return np.full(1 if cell >= 0 else 0, cell, np.int64)
    return top_cells(marks, d, t, mult, n_hits, n_candidates)
