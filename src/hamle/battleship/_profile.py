"""Numba kernels of the exact counts: a cell-by-cell (broken profile) DP.

Under no-touch rules:

Cells are visited row by row. A *profile* key packs, for every column, the cell of the
frontier in that column (the current row left of the cursor, the row above from the
cursor on) as one field of ``bits`` bits, plus one bit at ``cols * bits`` for the
occupancy of the cell up and to the left of the cursor, which its column's field no
longer holds. Field values:

- ``EMPTY`` and ``DONE`` (a cell of a horizontal ship, which cannot grow downwards);
- ``VERTICAL + 2(k-1) + h``: the lowest cell of a ship of k cells still open downwards
  (k = 1 also means open to the right while it is the cell just left of the cursor);
- ``horizontal(lmax) + 2(k-2) + h``: the right end of a horizontal run of k ≥ 2 cells,
  still open to the right;

where h = 1 while every cell of that ship is an open hit: such a ship would have been
answered "sunk", so it may not be closed.

Under touching rules a ship is counted when its first cell is decided, and a field only
holds how many cells it still owes (``transition_touching``).

Each profile carries counts indexed by the ships counted so far (mixed radix over the
fleet's lengths, ordered by their cells), of which it keeps only its band: the entries
that can still end as a whole fleet (see ``push``). One row per lane; lane modulus 0
means arithmetic modulo 2**64, others are primes below 2**31.

Marks follow ``observation``: 0 unknown, 1 miss, 2 open hit, 3 sunk, 4 water.
"""

import numpy as np
from numba import njit

from ._kernels import pcg64_next

# Numba's cache knows this file only: what is compiled in from another changes this line
# (tests/test_kernel_caches.py), so that cached kernels are compiled again.
# numba cache stamp of hamle.battleship._kernels: 37a963ed815ef17b

EMPTY, DONE, VERTICAL = 0, 1, 2
UNKNOWN, MISS, HIT = 0, 1, 2
_GOLDEN = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer
TALLY_TOP = 14  # the tally's top 4-bit slot: ships of this length or longer


@njit(cache=True, nogil=True)
def _horizontal(lmax):
    return VERTICAL + 2 * lmax


@njit(cache=True, nogil=True)
def _length(value, lmax):
    """Ship length so far of an open field value (0 for EMPTY or DONE)."""
    if value < VERTICAL:
        return 0
    if value < _horizontal(lmax):
        return (value - VERTICAL) // 2 + 1
    return (value - _horizontal(lmax)) // 2 + 2


@njit(cache=True, nogil=True)
def transition(key, c, cols, bits, lmax, mark, in_fleet):
    """The keys after deciding the cursor cell empty or occupied, with the length of the
    ship each choice closes (0: none). A key of -1 means the choice is illegal."""
    mask = (1 << bits) - 1
    diag_at = cols * bits
    up = (key >> (c * bits)) & mask
    left = (key >> ((c - 1) * bits)) & mask if c > 0 else 0
    up_right = (key >> ((c + 1) * bits)) & mask if c < cols - 1 else 0
    up_left = (key >> diag_at) & 1
    horizontal = _horizontal(lmax)
    base = key & ~(mask << (c * bits)) & ~(1 << diag_at)
    diag = (1 << diag_at) if (up != EMPTY and c < cols - 1) else 0
    left_done = (base & ~(mask << ((c - 1) * bits))) | (DONE << ((c - 1) * bits)) if c > 0 else 0

    empty_key, empty_closes = -1, 0
    if mark != HIT:
        legal, closes, k2 = True, 0, base
        if up >= VERTICAL:  # the ship above ends here
            closes = _length(up, lmax)
            legal = up % 2 == 0
        elif left >= horizontal:  # the run on the left ends here
            closes = _length(left, lmax)
            legal = left % 2 == 0
            k2 = left_done
        if legal and (closes == 0 or in_fleet[closes]):
            empty_key, empty_closes = k2 | diag, closes

    full_key, full_closes = -1, 0
    if mark in (UNKNOWN, HIT) and up_left == 0 and up_right == EMPTY and up != DONE:
        hit = 1 if mark == HIT else 0
        legal, new, k2 = True, 0, base
        if up >= VERTICAL:  # grow the ship above
            k = _length(up, lmax) + 1
            legal = k <= lmax
            new = VERTICAL + 2 * (k - 1) + (up & 1 & hit)
        elif left >= VERTICAL:  # grow the run on the left (a lone cell becomes a run)
            k = _length(left, lmax) + 1
            legal = k <= lmax and (left >= horizontal or left < VERTICAL + 2)
            new = horizontal + 2 * (k - 2) + (left & 1 & hit)
            k2 = left_done
        elif left == DONE:
            legal = False
        else:
            new = VERTICAL + hit
        closes = 0
        if legal and c == cols - 1 and new >= horizontal:  # a run ends at the edge
            closes = _length(new, lmax)
            legal = new % 2 == 0
            new = DONE
        if legal and (closes == 0 or in_fleet[closes]):
            full_key, full_closes = k2 | (new << (c * bits)) | diag, closes
    return empty_key, empty_closes, full_key, full_closes


@njit(cache=True, nogil=True)
def _pending(value, lmax):
    """Cells still owed by a touching-rules field value: (vertical, horizontal)."""
    if value == EMPTY:
        return 0, 0
    if value <= 2 * (lmax - 1):
        return (value - 1) // 2 + 1, 0
    return 0, (value - 2 * lmax + 1) // 2 + 1


@njit(cache=True, nogil=True)
def _open_length(value, lmax, touching):
    """The least length of the ship a field value leaves unfinished (0: none)."""
    if touching:
        below, right = _pending(value, lmax)
        return below + right + 1 if below or right else 0
    return _length(value, lmax)


@njit(cache=True, nogil=True)
def _tally(value, lmax, touching):
    """A field value's part of a profile's tally: one in the 4-bit slot of the least
    length of its unfinished ship (lengths above ``TALLY_TOP`` share the top slot)."""
    length = _open_length(value, lmax, touching)
    return (1 << (4 * min(length, TALLY_TOP))) if length else 0


@njit(cache=True, nogil=True)
def _fits(tally, at_least, lmax):
    """Whether the unfinished ships of a tally can each still become a different ship
    of the fleet: for each k, no more of length ≥ k than ships of length ≥ k."""
    running = 0
    for k in range(min(lmax, TALLY_TOP), 0, -1):
        running += (tally >> (4 * k)) & 15
        if running > at_least[k]:
            return False
    return True


@njit(cache=True, nogil=True)
def transition_touching(key, c, cols, bits, lmax, mark, in_fleet, rows_left, keys, codes):
    """Touching rules: fill ``keys`` with the choices for the cursor cell (-1: illegal)
    and ``codes`` with the length of the ship each one starts (0: none). Slot 0 leaves
    the cell empty, slot 1 fills a cell a ship already owes, slots 2L and 2L + 1 start
    a ship of L cells downwards and to the right.

    A ship is counted when it starts, so a field only says how many more cells it owes:
    ``1 + 2(r-1) + h`` r cells below (the column's own field), ``2 lmax - 1 + 2(r-1) +
    h`` r cells to the right (the field just left of the cursor, which no vertical ship
    can need then). h = 1 while every cell of the ship is an open hit: such a ship
    would have been answered "sunk", so it may not end."""
    mask = (1 << bits) - 1
    up = (key >> (c * bits)) & mask
    left = (key >> ((c - 1) * bits)) & mask if c > 0 else 0
    below, _ = _pending(up, lmax)
    _, right = _pending(left, lmax)
    base = key & ~(mask << (c * bits))
    if right:
        base &= ~(mask << ((c - 1) * bits))
    keys[:] = -1
    codes[:] = 0
    hit = 1 if mark == HIT else 0
    if below or right:  # the cell is owed to a ship: fill it
        if (below and right) or mark == MISS:
            return
        owed = below + right - 1
        flag = ((up if below else left) - 1) & 1 & hit
        if owed == 0:
            if flag == 0:
                keys[1] = base
        elif below:
            keys[1] = base | ((1 + 2 * (owed - 1) + flag) << (c * bits))
        elif c < cols - 1:
            keys[1] = base | ((2 * lmax - 1 + 2 * (owed - 1) + flag) << (c * bits))
        return
    if mark != HIT:
        keys[0] = base
    if mark == MISS:
        return
    for length in range(1, lmax + 1):
        if not in_fleet[length]:
            continue
        if length == 1:
            if hit == 0:
                keys[2], codes[2] = base, 1
            continue
        if length <= rows_left:
            value = 1 + 2 * (length - 2) + hit
            keys[2 * length], codes[2 * length] = base | (value << (c * bits)), length
        if c + length <= cols:
            value = 2 * lmax - 1 + 2 * (length - 2) + hit
            keys[2 * length + 1] = base | (value << (c * bits))
            codes[2 * length + 1] = length


@njit(cache=True, nogil=True)
def expand(keys, tallies, c, cols, bits, lmax, mark, in_fleet, at_least, touching, rows_left):
    """One step of the profile DP on keys alone: the next keys (in order of first
    appearance) with their tallies of unfinished ships (see ``_tally``), and the
    transitions, grouped by source: those of key s are ``first[s] : first[s + 1]``,
    each with its ``target`` (index of the next key), its ``code`` (no-touch: the
    length of the ship it closes; touching: of the ship it starts; 0: none) and its
    ``choice`` (no-touch: 0 empty, 1 occupied; touching: see ``transition_touching``;
    every choice but 0 fills the cell).

    A transition reads and writes only a few fields around the cursor (its *shape*),
    so each shape's choices are worked out once, when it first turns up."""
    n = len(keys)
    choices = 2 * lmax + 2 if touching else 2
    mask = (1 << bits) - 1
    at, left_at, diag_at = c * bits, (c - 1) * bits, cols * bits
    region = mask << at
    if c > 0:
        region |= mask << left_at
    if not touching:
        region |= 1 << diag_at
    shapes = 1 << (2 * bits if touching else 2 * bits + 2)
    known = np.zeros(shapes, np.bool_)
    count = np.zeros(shapes, np.int64)
    put = np.empty((shapes, choices), np.int64)  # the bits of ``region`` after the choice
    delta = np.empty((shapes, choices), np.int64)  # the change to the tally
    extra = np.empty((shapes, choices), np.int64)  # -1: no check; else added for the check
    codes = np.empty((shapes, choices), np.int8)
    picks = np.empty((shapes, choices), np.int8)
    options = np.empty(choices, np.int64)
    option_codes = np.empty(choices, np.int64)

    first = np.empty(n + 1, np.int64)
    target = np.empty(choices * n, np.int32)
    code = np.empty(choices * n, np.int8)
    choice = np.empty(choices * n, np.int8)
    size = 16
    while size < 2 * n:
        size *= 2
    table = np.full(2 * size, -1, np.int64)  # (key, index) pairs side by side
    nxt = np.empty(max(16, n), np.int64)
    nxt_tally = np.empty(max(16, n), np.int64)
    m, edges = 0, 0
    for s in range(n):
        first[s] = edges
        key = keys[s]
        up = (key >> at) & mask
        left = (key >> left_at) & mask if c > 0 else 0
        shape = up | (left << bits)
        if not touching:
            up_right = (key >> ((c + 1) * bits)) & mask if c < cols - 1 else 0
            shape |= (1 if up_right else 0) << (2 * bits) | ((key >> diag_at) & 1) << (2 * bits + 1)
        if not known[shape]:
            known[shape] = True
            sample = key & region
            if not touching and up_right:
                sample |= DONE << ((c + 1) * bits)
            if touching:
                transition_touching(
                    sample, c, cols, bits, lmax, mark, in_fleet, rows_left, options, option_codes
                )
            else:
                ke, ce, kf, cf = transition(sample, c, cols, bits, lmax, mark, in_fleet)
                options[0], option_codes[0], options[1], option_codes[1] = ke, ce, kf, cf
            before = _tally(up, lmax, touching) + _tally(left, lmax, touching)
            k = 0
            for j in range(choices):
                if options[j] < 0:
                    continue
                new_up = (options[j] >> at) & mask
                new_left = (options[j] >> left_at) & mask if c > 0 else 0
                put[shape, k] = options[j] & region
                delta[shape, k] = _tally(new_up, lmax, touching) + _tally(new_left, lmax, touching)
                delta[shape, k] -= before
                if not touching:
                    extra[shape, k] = 0
                elif j >= 2:  # a new ship; one of a single cell owes nothing, so count it
                    extra[shape, k] = 1 << 4 if option_codes[j] == 1 else 0
                else:
                    extra[shape, k] = -1
                codes[shape, k], picks[shape, k] = option_codes[j], j
                k += 1
            count[shape] = k
        rest = key & ~region
        for j in range(count[shape]):
            tally = tallies[s] + delta[shape, j]
            if extra[shape, j] >= 0 and not _fits(tally + extra[shape, j], at_least, lmax):
                if touching:  # new ships come shortest first: no longer one fits either
                    break
                continue
            key_next = rest | put[shape, j]
            if 2 * m >= size:  # keep the table at most half full
                size *= 2
                table = np.full(2 * size, -1, np.int64)
                for i in range(m):
                    h = ((nxt[i] * _GOLDEN) >> 20) & (size - 1)
                    while table[2 * h] >= 0:
                        h = (h + 1) & (size - 1)
                    table[2 * h], table[2 * h + 1] = nxt[i], i
            h = ((key_next * _GOLDEN) >> 20) & (size - 1)
            while table[2 * h] >= 0 and table[2 * h] != key_next:
                h = (h + 1) & (size - 1)
            if table[2 * h] < 0:
                if m == len(nxt):
                    nxt = np.concatenate((nxt, np.empty(m, np.int64)))
                    nxt_tally = np.concatenate((nxt_tally, np.empty(m, np.int64)))
                table[2 * h], table[2 * h + 1] = key_next, m
                nxt[m], nxt_tally[m] = key_next, tally
                m += 1
            target[edges], code[edges], choice[edges] = (
                table[2 * h + 1],
                codes[shape, j],
                picks[shape, j],
            )
            edges += 1
    first[n] = edges
    return (
        nxt[:m].copy(),
        nxt_tally[:m].copy(),
        first,
        target[:edges].copy(),
        code[:edges].copy(),
        choice[:edges].copy(),
    )


@njit(cache=True, nogil=True)
def predecessors(first, target, n_next):
    """The transitions into each next profile: ``order[start[t] : start[t + 1]]`` are
    those (by index) that lead to t, and ``source`` the profile each one leaves."""
    start = np.zeros(n_next + 1, np.int64)
    for e in range(len(target)):
        start[target[e] + 1] += 1
    for t in range(n_next):
        start[t + 1] += start[t]
    fill = start[:-1].copy()
    order = np.empty(len(target), np.int32)
    source = np.empty(len(target), np.int32)
    for s in range(len(first) - 1):
        for e in range(first[s], first[s + 1]):
            source[e] = s
            t = target[e]
            order[fill[t]] = e
            fill[t] += 1
    return start, order, source


@njit(cache=True, nogil=True)
def _add(x, y, modulus):
    if modulus == 0:
        return x + y
    z = x + y
    return z - modulus if z >= modulus else z


@njit(cache=True, nogil=True, inline="always")
def _add_rows(into, source):
    """``into += source``, modulo 2**64."""
    for i in range(into.shape[0]):
        into[i] += source[i]


@njit(cache=True, nogil=True, inline="always")
def _add_rows_dot(into, source, weights):
    """``into += source``; Σ weights × source, modulo 2**64."""
    total = np.uint64(0)
    for i in range(into.shape[0]):
        into[i] += source[i]
        total += weights[i] * source[i]
    return total


@njit(cache=True, nogil=True)
def forward_bounds(low, high, first, target, code, choice, miss, n_next):
    """The least and greatest number of cells of counted ships over the partial layouts
    reaching each next profile (an empty range, low > high, when none does); ``miss``
    leaves out the choices that fill the cell, as in ``push``."""
    next_low = np.full(n_next, 1 << 40, np.int64)
    next_high = np.full(n_next, -1, np.int64)
    for s in range(len(first) - 1):
        for e in range(first[s], first[s + 1]):
            if miss and choice[e] != 0:
                continue
            t, counted = target[e], code[e]  # a code is the cells of the ship it counts
            next_low[t] = min(next_low[t], low[s] + counted)
            next_high[t] = max(next_high[t], high[s] + counted)
    return next_low, next_high


@njit(cache=True, nogil=True)
def backward_bounds(next_low, next_high, first, target, code, choice, miss):
    """The least and greatest number of cells of counted ships from which a profile can
    still end as a whole fleet, from those of the next profiles (``miss`` as in
    ``forward_bounds``)."""
    n = len(first) - 1
    low = np.full(n, 1 << 40, np.int64)
    high = np.full(n, -1, np.int64)
    for s in range(n):
        for e in range(first[s], first[s + 1]):
            if miss and choice[e] != 0:
                continue
            t, counted = target[e], code[e]  # a code is the cells of the ship it counts
            if next_low[t] <= next_high[t]:
                low[s] = min(low[s], next_low[t] - counted)
                high[s] = max(high[s], next_high[t] - counted)
    return low, high


@njit(cache=True, nogil=True)
def band(low, high, later_low, later_high, first_with, top):
    """The count entries each profile can use, from the least and greatest cells of
    counted ships it can have so far and still end with (``top``: the fleet's cells):
    those of ``first_with[a] : first_with[b + 1]`` for the range [a, b] both allow,
    laid side by side from ``offset[s]`` on."""
    n = len(low)
    edges = np.empty((n, 2), np.int64)
    offset = np.empty(n + 1, np.int64)
    offset[0] = 0
    for s in range(n):
        a = min(max(low[s], later_low[s], 0), top + 1)
        b = min(high[s], later_high[s], top)
        edges[s, 0] = first_with[a]
        edges[s, 1] = first_with[b + 1] if b >= a else edges[s, 0]
        offset[s + 1] = offset[s] + edges[s, 1] - edges[s, 0]
    return edges, offset


@njit(cache=True, nogil=True)
def push(
    vals,
    out,
    first,
    target,
    code,
    choice,
    shift,
    moduli,
    band,
    offset,
    next_band,
    next_offset,
    miss,
):
    """Forward: fill ``out`` with the count vectors of the next step's profiles, spread
    from each profile in turn. A profile keeps only the entries of its band (those
    outside can never reach a whole fleet): entry a of profile s, lane l, is
    ``vals[l, offset[s] + a - band[s, 0]]``. With ``miss`` set, the choices that fill
    the cell are left out (a miss marked since the transitions were worked out)."""
    out[:, : next_offset[-1]] = 0
    for lane in range(vals.shape[0]):  # lane by lane on rows: the plain sums vectorise
        m, into, source = moduli[lane], out[lane], vals[lane]
        for s in range(len(first) - 1):
            lo, hi, at = band[s, 0], band[s, 1], offset[s]
            if hi <= lo:
                continue
            for e in range(first[s], first[s + 1]):
                if miss and choice[e] != 0:
                    continue
                t, k = target[e], code[e]
                t_lo, t_hi = next_band[t, 0], next_band[t, 1]
                src, dst = at - lo, next_offset[t] - t_lo  # where entry 0 would be
                if m == 0 and k == 0:
                    a, b = max(lo, t_lo), min(hi, t_hi)
                    if a < b:  # (else a negative slice end would count from the end)
                        _add_rows(into[dst + a : dst + b], source[src + a : src + b])
                else:
                    row = shift[k]
                    for a in range(lo, hi):
                        b = row[a]
                        if t_lo <= b < t_hi:
                            into[dst + b] = _add(into[dst + b], source[src + a], m)
    return out


@njit(cache=True, nogil=True)
def narrow(flat, lanes, wide, wide_offset, band, offset):
    """Lay count vectors out again, in place in ``flat``, from the bands ``wide`` (lanes
    side by side, see ``push``) to ``band``, within them: the entries left out cannot end
    as a whole fleet. Every entry moves down or stays, so ascending order overwrites only
    entries already moved."""
    size, wide_size = offset[-1], wide_offset[-1]
    for lane in range(lanes):
        for s in range(len(offset) - 1):
            lo, hi = band[s, 0], band[s, 1]
            src = lane * wide_size + wide_offset[s] - wide[s, 0]
            dst = lane * size + offset[s] - lo
            for a in range(lo, hi):
                flat[dst + a] = flat[src + a]


@njit(cache=True, nogil=True)
def pull(
    later,
    out,
    first,
    target,
    code,
    choice,
    shift,
    moduli,
    band,
    offset,
    next_band,
    next_offset,
    vals,
    miss,
):
    """Backward: fill ``out`` with, per profile of this step, the number of completions
    for each entry of its band, from those of the next step (laid out as in ``push``,
    ``miss`` too). With the forward vectors ``vals`` of this step (an empty array skips
    it), also the number of whole layouts, per lane, that occupy this step's cell:
    Σ forward × backward through the choices that fill it (all but choice 0)."""
    occupied = np.zeros(later.shape[0], np.uint64)
    counting = vals.shape[1] > 0
    for lane in range(later.shape[0]):  # lane by lane, as in ``push``
        m, into, source = moduli[lane], out[lane], later[lane]
        total = np.uint64(0)
        for s in range(len(first) - 1):
            lo, hi, at = band[s, 0], band[s, 1], offset[s]
            into[at : at + hi - lo] = 0
            if hi <= lo:
                continue
            for e in range(first[s], first[s + 1]):
                if miss and choice[e] != 0:
                    continue
                t, k = target[e], code[e]
                t_lo, t_hi = next_band[t, 0], next_band[t, 1]
                src, dst = next_offset[t] - t_lo, at - lo  # where entry 0 would be
                part = np.uint64(0)  # (one pass reads ``later`` for both sums)
                if m == 0 and k == 0:
                    a, b = max(lo, t_lo), min(hi, t_hi)  # (as in ``push``)
                    if a < b and counting and choice[e] >= 1:
                        part = _add_rows_dot(
                            into[dst + a : dst + b],
                            source[src + a : src + b],
                            vals[lane, dst + a : dst + b],
                        )
                    elif a < b:
                        _add_rows(into[dst + a : dst + b], source[src + a : src + b])
                else:
                    fills = counting and choice[e] >= 1
                    row = shift[k]
                    for a in range(lo, hi):
                        b = row[a]
                        if t_lo <= b < t_hi:
                            x = source[src + b]
                            into[dst + a] = _add(into[dst + a], x, m)
                            if fills:
                                product = vals[lane, dst + a] * x
                                part = _add(part, product % m if m else product, m)
                total = _add(total, part, m)
        occupied[lane] = total
    return out, occupied


@njit(cache=True, nogil=True)
def carry(vals, band, offset, where, entries, new_band, new_offset, out):
    """Fill ``out`` (laid out by ``new_band``, lanes as in ``push``) from ``vals`` (by
    ``band``): profile s was profile ``where[s]`` and its entry a was ``entries[a]``, zero
    outside the band it had. False if a profile with entries was not there (-1)."""
    for s in range(len(where)):
        lo, hi = new_band[s, 0], new_band[s, 1]
        if hi <= lo:
            continue
        was = where[s]
        if was < 0:
            return False
        old_lo, old_hi = band[was, 0], band[was, 1]
        src, dst = offset[was] - old_lo, new_offset[s] - lo
        for lane in range(vals.shape[0]):
            for a in range(lo, hi):
                b = entries[a]
                out[lane, dst + a] = vals[lane, src + b] if old_lo <= b < old_hi else 0
    return True


@njit(cache=True, nogil=True)
def row_occupancy(
    keys, vals, band, offset, later, later_band, later_offset, moduli, cols, bits, out
):
    """No-touch rules, at the start of a row: add to ``out[lane, c]`` the layouts that
    put a ship on column c of the row just finished, from the forward ``vals`` and
    backward ``later`` vectors there (each laid out by its own bands, as in ``push``).
    Each field of a profile then says whether that cell holds a ship (any value but
    EMPTY), so Σ forward × backward per profile is all a whole row needs."""
    mask = (1 << bits) - 1
    for s in range(len(keys)):
        lo = max(band[s, 0], later_band[s, 0])
        hi = min(band[s, 1], later_band[s, 1])
        if hi <= lo:
            continue
        src, dst = offset[s] - band[s, 0], later_offset[s] - later_band[s, 0]
        for lane in range(vals.shape[0]):
            m = moduli[lane]
            through = np.uint64(0)
            for a in range(lo, hi):
                product = vals[lane, src + a] * later[lane, dst + a]
                through = _add(through, product % m if m else product, m)
            for c in range(cols):
                if (keys[s] >> (c * bits)) & mask != EMPTY:
                    out[lane, c] = _add(out[lane, c], through, m)


@njit(cache=True, nogil=True)
def _below(pcg, bound):
    """A uniform uint64 in [0, bound): a raw word, redrawn in the last, incomplete block."""
    tail = (np.uint64(0) - bound) % bound  # 2**64 mod bound
    while True:
        word = pcg64_next(pcg)
        if word <= np.uint64(0xFFFFFFFFFFFFFFFF) - tail:
            return word % bound


@njit(cache=True, nogil=True)
def sample_back(
    vals, start, order, source, code, choice, inverse, band, offset, at, index, pcg, taken
):
    """One step back for every sample: sample k stands at profile ``at[k]``, count entry
    ``index[k]`` after the step; draw where it came from, in proportion to the forward
    counts ``vals`` (lane 0, exact below 2**64) before the step, and store that profile,
    entry and the choice taken in ``at``, ``index`` and ``taken``. Every layout through
    the sample's state is then equally likely, so a walk from the end is uniform."""
    for k in range(len(at)):
        t, b = at[k], index[k]
        total = np.uint64(0)
        for e in order[start[t] : start[t + 1]]:
            s, a = source[e], inverse[code[e], b]
            if a >= 0 and band[s, 0] <= a < band[s, 1]:
                total += vals[0, offset[s] + a - band[s, 0]]
        r = _below(pcg, total)
        for e in order[start[t] : start[t + 1]]:
            s, a = source[e], inverse[code[e], b]
            if a < 0 or not band[s, 0] <= a < band[s, 1]:
                continue
            weight = vals[0, offset[s] + a - band[s, 0]]
            if r < weight:
                at[k], index[k], taken[k] = s, a, choice[e]
                break
            r -= weight


@njit(cache=True, nogil=True)
def decode(paths, width, touching, ships):
    """The ships of drawn layouts: for path k (the choice taken at each cell), fill
    ``ships[k, i]`` with (first cell, length, step to the next cell) of its i-th ship by
    first cell. Touching rules: choice 2L starts L cells downwards, 2L + 1 to the right;
    no-touch: choice 1 fills a cell, and ships, which never touch, are the runs."""
    count, cells = paths.shape
    for k in range(count):
        i = 0
        for c in range(cells):
            choice = paths[k, c]
            if touching:
                if choice >= 2:
                    ships[k, i, 0], ships[k, i, 1] = c, choice // 2
                    ships[k, i, 2] = 1 if choice % 2 else width
                    i += 1
                continue
            if choice != 1 or (c % width and paths[k, c - 1] == 1):
                continue  # empty, or inside a horizontal run
            if c >= width and paths[k, c - width] == 1:
                continue  # inside a vertical run
            across = (c + 1) % width != 0 and paths[k, c + 1] == 1
            step = 1 if across else width
            length = 1
            while True:
                nxt = c + step * length
                if nxt >= cells or paths[k, nxt] != 1 or (across and nxt % width == 0):
                    break
                length += 1
            ships[k, i, 0], ships[k, i, 1], ships[k, i, 2] = c, length, step
            i += 1
