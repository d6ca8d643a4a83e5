"""Numba kernels of the Mastermind engine, for code spaces too big for ``_vector``.

``pack`` turns each code into words: ``digits`` (colours as 4-bit lanes), ``places`` (one
bit per peg and colour, so black = popcount(places_a & places_b)) and ``unary`` (each
colour's count as a run of bits in a lane of its own, so black + white =
popcount(unary_a & unary_b)). An answer is ``black * (pegs + 1) + white``.

Partition strategies score 64 guesses at once: one pass over the candidates counts, for
every answer and each of the 64 guesses, the candidates that give it (loops the compiler
turns into vector code); the values then follow from these counts alone.

>>> import numpy as np
>>> codes = np.array([[0, 0, 1, 2], [2, 1, 0, 0]], np.uint8)
>>> counts = np.array([[2, 1, 1], [2, 1, 1]], np.uint8)
>>> packed = pack(codes, counts, 4)
>>> int(answer_row(packed, 4, 0, np.array([1]))[0])  # 0 black, 4 white
4
"""

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from ._vector import FEWER_PARTS, MAX_PART, SUM_N_LOG_N, SUM_SQUARES, TIE

# Numba's cache knows this file only: what is compiled in from another changes this line
# (tests/test_kernel_caches.py), so that cached kernels are compiled again.
# numba cache stamp of hamle.mastermind._vector: b91116c3545501be

LANES = 64  # guesses scored together; the packed code arrays carry LANES spare entries
SYMMETRY_DEPTH = 3  # look for peg symmetries of histories of at most this many guesses
POOL_LEVELS = 4  # pools kept for the first levels of a subtree (deeper ones are made anew)

_NIBBLE_LOW = np.uint64(0x1111111111111111)


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64 (one instruction where the CPU has it)."""

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))

    return types.int64(types.uint64), codegen


@njit(cache=True)
def pack(codes, counts, width):
    """Per code: its colours as 4-bit lanes; the word black is counted on (one bit per
    peg and colour where they fit in 64 bits, else the 4-bit lanes); its colour counts
    in unary in lanes of ``width`` bits; and the set of its colours as a bit mask."""
    n, pegs = codes.shape
    colours = counts.shape[1]
    digits = np.zeros(n, np.uint64)
    places = np.zeros(n, np.uint64)
    unary = np.zeros(n, np.uint64)
    sets = np.zeros(n, np.int64)
    for i in range(n):
        for j in range(pegs):
            digits[i] |= np.uint64(codes[i, j]) << np.uint64(4 * j)
            places[i] |= np.uint64(1) << np.uint64(j * colours + codes[i, j])
            sets[i] |= np.int64(1) << np.int64(codes[i, j])
        if pegs * colours > 64:
            places[i] = digits[i]
        for c in range(counts.shape[1]):
            run = (np.uint64(1) << np.uint64(counts[i, c])) - np.uint64(1)
            unary[i] |= run << np.uint64(width * c)
    return digits, places, unary, sets


@njit(cache=True, inline="always")
def _answer(da, ua, db, ub, pegs, onehot):
    """black * (pegs + 1) + white = black * pegs + (black + white)."""
    if onehot:
        return popcount(da & db) * pegs + popcount(ua & ub)
    x = da ^ db
    differ = (x | (x >> np.uint64(1)) | (x >> np.uint64(2)) | (x >> np.uint64(3))) & _NIBBLE_LOW
    black = pegs - popcount(differ)
    return black * pegs + popcount(ua & ub)


@njit(cache=True, inline="always")
def _onehot(digits, places):
    """Whether black is counted on one bit per peg and colour (``pack`` keeps the 4-bit
    lanes where those bits do not fit in a word, and they differ for code 0)."""
    return places[0] != digits[0]


@njit(cache=True)
def answer_row(packed, pegs, guess, targets):
    """Answers of ``guess`` against each code in ``targets``."""
    digits, places, unary, _ = packed
    onehot = _onehot(digits, places)
    out = np.empty(targets.shape[0], np.uint8)
    gp, gu = places[guess], unary[guess]
    for j in range(targets.shape[0]):
        t = targets[j]
        out[j] = _answer(gp, gu, places[t], unary[t], pegs, onehot)
    return out


@njit(cache=True)
def feedback_table(packed, pegs):
    """The full table of answers, every code against every code."""
    n = packed[0].shape[0] - LANES
    out = np.empty((n, n), np.uint8)
    targets = np.arange(n)
    for a in range(n):
        out[a] = answer_row(packed, pegs, a, targets)
    return out


@njit(cache=True, inline="always")
def _digit(d, j):
    return np.int64((d >> np.uint64(4 * j)) & np.uint64(15))


@njit(cache=True, inline="always")
def _limit(best):
    """Values at or above this cannot replace ``best`` (they tie or are worse)."""
    return best - TIE * max(1.0, abs(best))


@njit(cache=True)
def lower_bound(criterion, n, answers):
    """The best value a guess with at most ``answers`` possible answers could reach on n
    candidates: parts as even as they allow."""
    parts = min(n, answers)
    small = n // parts
    extra = n - small * parts
    if criterion == MAX_PART:
        return float(small + 1 if extra else small)
    if criterion == SUM_SQUARES:
        return float(extra * (small + 1) ** 2 + (parts - extra) * small * small)
    if criterion == SUM_N_LOG_N:
        total = 0.0
        for _ in range(extra):
            total += (small + 1) * np.log(small + 1)
        if small > 1:
            for _ in range(parts - extra):
                total += small * np.log(small)
        return total
    return -float(parts)


@njit(cache=True, inline="always")
def _canonical(d, pegs, free):
    """Whether the free colours (a bit mask) first appear in increasing order in ``d``."""
    seen = 0
    for j in range(pegs):
        bit = np.int64(1) << _digit(d, j)
        if free & bit and not seen & bit:
            waiting = free & ~seen
            if bit != waiting & -waiting:
                return False
            seen |= bit
    return True


@njit(cache=True)
def _orbit_least(d, pegs, free, perms, taus, m, image, relabel, free_list):
    """Whether the free-canonical code ``d`` is the least of its orbit under the m
    symmetries combined with any permutation of the free colours."""
    for e in range(m):
        for j in range(pegs):
            c = _digit(d, j)
            image[perms[e, j]] = taus[e, c] if taus[e, c] >= 0 else c
        relabel[:] = -1
        fresh = 0
        for j in range(pegs):
            c = image[j]
            if free & (np.int64(1) << c):
                if relabel[c] < 0:
                    relabel[c] = free_list[fresh]
                    fresh += 1
                c = relabel[c]
            x = _digit(d, j)
            if c < x:
                return False
            if c > x:
                break
    return True


@njit(cache=True)
def symmetries(path, length, pegs, colours, all_perms, perms, taus):
    """The peg permutations that, with the colour map they force, turn every guess of
    ``path[:length]`` into itself; their count, the identity left out. Such a map keeps
    every answer, so guesses it relates split the candidates alike."""
    m = 0
    tau = np.empty(colours, np.int64)
    inverse = np.empty(colours, np.int64)
    for q in range(all_perms.shape[0]):
        pi = all_perms[q]
        moved = False
        for j in range(pegs):
            moved |= pi[j] != j
        if not moved:
            continue
        tau[:] = -1
        inverse[:] = -1
        ok = True
        for i in range(length):
            for j in range(pegs):
                a = _digit(path[i], j)
                b = _digit(path[i], pi[j])
                if tau[a] < 0 and inverse[b] < 0:
                    tau[a] = b
                    inverse[b] = a
                elif tau[a] != b:
                    ok = False
            if not ok:
                break
        if ok:
            perms[m] = pi
            taus[m] = tau
            m += 1
    return m


@njit(cache=True, inline="always")
def _count_block(gp, gu, g0, cp, cu, n, pegs, onehot, answers, lane_answers, counts):
    """counts[k, t]: how many candidates give guess g0 + t the answer answers[k]."""
    counts[:] = 0
    for j in range(n):
        p = cp[j]
        u = cu[j]
        for t in range(LANES):
            lane_answers[t] = _answer(gp[g0 + t], gu[g0 + t], p, u, pegs, onehot)
        for k in range(answers.shape[0]):
            a = answers[k]
            for t in range(LANES):
                counts[k, t] += lane_answers[t] == a


@njit(cache=True, inline="always")
def _count_parts(gp, gu, g0, cp, cu, n, pegs, onehot, masks, values):
    """values[t]: minus the number of answers guess g0 + t gets from the candidates
    (answers as bits of one word, so pegs * (pegs + 1) < 64)."""
    masks[:] = 0
    for j in range(n):
        p = cp[j]
        u = cu[j]
        for t in range(LANES):
            masks[t] |= np.uint64(1) << np.uint64(
                _answer(gp[g0 + t], gu[g0 + t], p, u, pegs, onehot)
            )
    for t in range(LANES):
        values[t] = -np.float64(popcount(masks[t]))


@njit(cache=True, inline="always")
def _block_values(criterion, counts, n_log_n, values):
    """Each lane's value (lower is better): the largest part, Σ part², Σ part·ln(part),
    or minus the number of parts; sums run over the answers in order."""
    values[:] = 0.0
    rows = counts.shape[0]
    if criterion == MAX_PART:
        for k in range(rows):
            for t in range(LANES):
                values[t] = max(values[t], np.float64(counts[k, t]))
    elif criterion == SUM_SQUARES:
        for k in range(rows):
            for t in range(LANES):
                c = np.float64(counts[k, t])
                values[t] += c * c
    elif criterion == SUM_N_LOG_N:
        for k in range(rows):
            for t in range(LANES):
                values[t] += n_log_n[counts[k, t]]
    else:
        for k in range(rows):
            for t in range(LANES):
                values[t] -= np.float64(counts[k, t] > 0)


@njit(cache=True)
def _fill_pool(packed, pegs, free, symmetric, perms, taus, pool, scratch):
    """Put in ``pool`` (ids, places, unary) the codes worth scoring after a history: the
    least code of each class of codes equal up to the free colours and the first
    ``symmetric`` symmetries (a class shares one value, and the first best code is the
    least of its class). Returns how many, or -1 when that is every code."""
    if free == 0 and symmetric == 0:
        return -1
    digits, places, unary, _ = packed
    ids, gp, gu = pool
    image, relabel, free_list = scratch
    fresh = 0
    for c in range(16):
        if free & (np.int64(1) << c):
            free_list[fresh] = c
            fresh += 1
    total = 0
    for g in range(digits.shape[0] - LANES):
        d = digits[g]
        if _canonical(d, pegs, free) and _orbit_least(
            d, pegs, free, perms, taus, symmetric, image, relabel, free_list
        ):
            ids[total] = g
            gp[total] = places[g]
            gu[total] = unary[g]
            total += 1
    return total


@njit(cache=True)
def _choose(packed, candidates, pegs, criterion, from_all, pool, pooled, work):
    """The guess a partition strategy plays: the first candidate of least value, unless
    (``from_all``) a code is strictly better; then the first such code. Only the codes
    of ``pool`` (its first ``pooled``; if ``pooled`` < 0, every code but those with a
    dead colour other than the lowest, see ``_fill_live``) are scored."""
    digits, places, unary, _ = packed
    marks, stamp, answers, cp, cu, gp, gu, ids, n_log_n, counts, lanes, values = work[:12]
    masks = work[15]
    colours = work[14].shape[0]
    onehot = _onehot(digits, places)
    by_mask = criterion == FEWER_PARTS and pegs * (pegs + 1) < 64
    n = candidates.shape[0]
    stamp[0] += 1
    mark = stamp[0]
    for j in range(n):
        c = candidates[j]
        cp[j] = places[c]
        cu[j] = unary[c]
        marks[c] = mark
    # The candidates worth scoring are those in the pool.
    listed = 0
    for j in range(n):
        c = candidates[j]
        if pooled < 0 or _in_pool(pool[0], pooled, c):
            ids[listed] = c
            gp[listed] = places[c]
            gu[listed] = unary[c]
            listed += 1
    # A code that is no candidate never gets the answer "all black": one answer fewer.
    answers_possible = pegs * (pegs + 3) // 2
    bound = lower_bound(criterion, n, answers_possible)
    enough = bound + TIE * max(1.0, abs(bound))
    outside = lower_bound(criterion, n, answers_possible - 1)
    enough_outside = outside + TIE * max(1.0, abs(outside))
    best = np.inf
    chosen = -1
    for phase in range(2):
        if phase == 1 and (not from_all or best <= enough_outside):
            break
        if phase == 1:
            enough = enough_outside
        direct = False
        if phase == 0:
            total, pool_ids, pool_p, pool_u = listed, ids, gp, gu
        elif pooled >= 0:
            total, pool_ids, pool_p, pool_u = pooled, pool[0], pool[1], pool[2]
        else:
            pool_ids, pool_p, pool_u = ids, gp, gu
            total = _fill_live(packed, candidates, pegs, colours, ids, gp, gu)
            if total < 0:  # every code
                direct = True
                total, pool_p, pool_u = digits.shape[0] - LANES, places, unary
        for g0 in range(0, total, LANES):
            if by_mask:
                _count_parts(pool_p, pool_u, g0, cp, cu, n, pegs, onehot, masks, values)
            else:
                _count_block(pool_p, pool_u, g0, cp, cu, n, pegs, onehot, answers, lanes, counts)
                _block_values(criterion, counts, n_log_n, values)
            width = min(LANES, total - g0)
            lowest = np.inf
            for t in range(width):
                lowest = min(lowest, values[t])
            if lowest >= _limit(best):
                continue
            for t in range(width):
                if values[t] >= _limit(best):
                    continue
                g = g0 + t if direct else pool_ids[g0 + t]
                if phase == 1 and marks[g] == mark:
                    continue
                best = values[t]
                chosen = g
                if best <= enough:
                    return chosen
    return chosen


@njit(cache=True)
def _fill_live(packed, candidates, pegs, colours, ids, gp, gu):
    """With repetition, colours no candidate has ("dead") add nothing to any answer, so
    codes equal up to which dead colour sits on a peg split the candidates alike, and the
    lowest has only the lowest dead colour. Put those codes in ``ids`` (and their words),
    in order, and return how many; -1 when fewer than two colours are dead."""
    digits, places, unary, sets = packed
    if digits.shape[0] - LANES != colours**pegs:
        return -1
    live = 0
    for j in range(candidates.shape[0]):
        live |= sets[candidates[j]]
    dead = ((1 << colours) - 1) & ~live
    if dead & (dead - 1) == 0:
        return -1
    alphabet = np.empty(colours, np.int64)
    letters = 0
    for c in range(colours):
        if live & (1 << c) or c == _lowest(dead):
            alphabet[letters] = c
            letters += 1
    digit = np.zeros(pegs, np.int64)
    total = 0
    while True:
        code = 0
        for j in range(pegs):
            code = code * colours + alphabet[digit[j]]
        ids[total] = code
        gp[total] = places[code]
        gu[total] = unary[code]
        total += 1
        j = pegs - 1
        while j >= 0 and digit[j] == letters - 1:
            digit[j] = 0
            j -= 1
        if j < 0:
            return total
        digit[j] += 1


@njit(cache=True, inline="always")
def _lowest(mask):
    c = 0
    while not mask & (1 << c):
        c += 1
    return c


@njit(cache=True, inline="always")
def _in_pool(ids, count, code):
    """Whether ``code`` is among the sorted ``ids[:count]``."""
    at = np.searchsorted(ids[:count], code)
    return at < count and ids[at] == code


@njit(cache=True)
def workspace(size, colours, pegs, answers, n_log_n, counts, marks, stamp):
    """Scratch arrays for ``_choose`` on a code space of ``size`` codes; ``counts`` has a
    row per answer and LANES columns, of a type that holds the largest part; ``marks``
    (zeros, one per code) and ``stamp`` (its last mark) may be shared. The rest is written
    before it is read: left uninitialised, its pages are never touched in vain."""
    spare = size + LANES
    return (
        marks,
        stamp,
        answers,
        np.empty(spare, np.uint64),
        np.empty(spare, np.uint64),
        np.empty(spare, np.uint64),
        np.empty(spare, np.uint64),
        np.empty(spare, np.int64),
        n_log_n,
        counts,
        np.zeros(LANES, np.uint8),
        np.zeros(LANES, np.float64),
        np.zeros(pegs, np.int64),
        np.zeros(colours, np.int64),
        np.zeros(colours, np.int64),
        np.zeros(LANES, np.uint64),
    )


@njit(cache=True)
def _symmetry_buffers(all_perms, pegs, colours):
    rows = max(all_perms.shape[0], 1)
    return np.zeros((rows, pegs), np.int64), np.zeros((rows, colours), np.int64)


@njit(cache=True)
def choose(packed, pegs, colours, criterion, from_all, candidates, path, free, tables):
    """The guess of a partition strategy after the guesses ``path`` (packed digits;
    ``free``: the colours none of them uses), with ``tables`` = (answers, n log n, peg
    permutations); the code arrays carry LANES spare entries at the end."""
    answers, n_log_n, all_perms = tables
    size = packed[0].shape[0] - LANES
    counts = np.zeros((answers.shape[0], LANES), np.uint32)
    work = workspace(
        size,
        colours,
        pegs,
        answers,
        n_log_n,
        counts,
        np.zeros(size, np.int64),
        np.zeros(1, np.int64),
    )
    perms, taus = _symmetry_buffers(all_perms, pegs, colours)
    symmetric = 0
    if path.shape[0] <= SYMMETRY_DEPTH:
        symmetric = symmetries(path, path.shape[0], pegs, colours, all_perms, perms, taus)
    pool = _pool_buffers(size)
    pooled = _fill_pool(packed, pegs, free, symmetric, perms, taus, pool, work[12:15])
    return _choose(packed, candidates, pegs, criterion, from_all, pool, pooled, work)


@njit(cache=True)
def _pool_buffers(size):
    spare = size + LANES
    return np.empty(spare, np.int64), np.empty(spare, np.uint64), np.empty(spare, np.uint64)


@njit(cache=True, nogil=True)
def play(packed, pegs, colours, criterion, from_all, candidates, path, free, tables):
    """Guesses per secret below a node: ``histogram[k]`` of the ``candidates`` take k
    guesses in all, the guesses ``path`` (packed digits, leaving the colours ``free``)
    already made.

    The node's candidates are kept in one array; splitting a node by the answers to its
    guess reorders its slice stably, so every child is a sorted slice of its own.
    """
    digits, places, unary, sets = packed
    answers, n_log_n, all_perms = tables
    onehot = _onehot(digits, places)
    total = candidates.shape[0]
    size = digits.shape[0] - LANES
    made = path.shape[0]
    solved = pegs * (pegs + 1)
    slots = (pegs + 1) * (pegs + 1)
    rows = answers.shape[0]
    marks = np.zeros(size, np.int64)
    stamp = np.zeros(1, np.int64)
    work8 = workspace(
        size, colours, pegs, answers, n_log_n, np.zeros((rows, LANES), np.uint8), marks, stamp
    )
    work16 = workspace(
        size, colours, pegs, answers, n_log_n, np.zeros((rows, LANES), np.uint16), marks, stamp
    )
    work32 = workspace(
        size, colours, pegs, answers, n_log_n, np.zeros((rows, LANES), np.uint32), marks, stamp
    )
    perms, taus = _symmetry_buffers(all_perms, pegs, colours)
    pool_ids = np.empty((POOL_LEVELS, size + LANES), np.int64)
    pool_p = np.empty((POOL_LEVELS, size + LANES), np.uint64)
    pool_u = np.empty((POOL_LEVELS, size + LANES), np.uint64)
    pooled = np.zeros(POOL_LEVELS, np.int64)
    pool_of = np.full(POOL_LEVELS, -2, np.int64)
    histogram = np.zeros(made + total + 2, np.int64)
    segment = candidates.copy()
    spare = np.empty(total, np.int64)
    node_answers = np.empty(total, np.int64)
    offsets = np.zeros(slots + 1, np.int64)
    # pending nodes: slice start and length, guesses made, free colours, parent record
    pending = np.empty((total + 1, 5), np.int64)
    # one record per node played: its parent record and its guess
    parents = np.empty(2 * total + 2, np.int64)
    guesses = np.empty(2 * total + 2, np.int64)
    trail = np.empty(made + total + 2, np.uint64)
    trail[:made] = path
    records = 0
    top = 0
    pending[0] = (0, total, made, free, -1)
    while top >= 0:
        start, n, depth, free_now, parent = pending[top]
        top -= 1
        if n == 1:
            histogram[depth + 1] += 1
            continue
        # Siblings share their history, hence their pool: one pool per depth is kept.
        level = min(depth - made, POOL_LEVELS - 1)
        if depth - made >= POOL_LEVELS or pool_of[level] != parent:
            symmetric = 0
            if depth <= SYMMETRY_DEPTH:
                at, r = depth, parent
                while r >= 0:
                    at -= 1
                    trail[at] = digits[guesses[r]]
                    r = parents[r]
                symmetric = symmetries(trail, depth, pegs, colours, all_perms, perms, taus)
            pool = (pool_ids[level], pool_p[level], pool_u[level])
            pooled[level] = _fill_pool(
                packed, pegs, free_now, symmetric, perms, taus, pool, work8[12:15]
            )
            pool_of[level] = parent
        node = segment[start : start + n]
        pool = (pool_ids[level], pool_p[level], pool_u[level])
        args = (node, pegs, criterion, from_all, pool, pooled[level])
        if n < 256:
            guess = _choose(packed, *args, work8)
        elif n < 65536:
            guess = _choose(packed, *args, work16)
        else:
            guess = _choose(packed, *args, work32)
        parents[records] = parent
        guesses[records] = guess
        gp, gu = places[guess], unary[guess]
        offsets[:] = 0
        for j in range(n):
            c = node[j]
            a = _answer(gp, gu, places[c], unary[c], pegs, onehot)
            node_answers[j] = a
            offsets[a + 1] += 1
        if offsets[solved + 1]:
            histogram[depth + 1] += 1
        for s in range(slots):
            offsets[s + 1] += offsets[s]
        for s in range(slots):
            part = offsets[s + 1] - offsets[s]
            if part and s != solved:
                top += 1
                pending[top] = (
                    start + offsets[s],
                    part,
                    depth + 1,
                    free_now & ~sets[guess],
                    records,
                )
        records += 1
        for j in range(n):
            a = node_answers[j]
            spare[offsets[a]] = node[j]
            offsets[a] += 1
        segment[start : start + n] = spare[:n]
    return histogram


@njit(cache=True)
def guess_bounds(table, pool, candidates, slots, solved, least):
    """For each guess of ``pool`` on ``candidates``: the least cost of playing it (the
    candidates' number plus each part's ``least`` total; -1 for a guess that splits
    nothing), whether it is a candidate itself, and its largest part."""
    n = len(candidates)
    bounds = np.empty(len(pool), np.int64)
    solves = np.zeros(len(pool), np.bool_)
    largest = np.zeros(len(pool), np.int64)
    counts = np.zeros(slots, np.int64)
    for i in range(len(pool)):
        row = table[pool[i]]
        counts[:] = 0
        for c in candidates:
            counts[row[c]] += 1
        solves[i] = counts[solved] > 0
        counts[solved] = 0
        total = n
        for a in range(slots):
            if counts[a] == n:
                total = -1
                break
            total += least[counts[a]]
            largest[i] = max(largest[i], counts[a])
        bounds[i] = total
    return bounds, solves, largest


@njit(cache=True, inline="always")
def _worth_trying(digits, code, free, absent, repeat):
    """Whether ``code`` is the one code tried of its class: codes equal up to permuting
    the colours in ``free`` (a bit mask of colours no guess has used) or the colours in
    ``absent`` (no candidate has them) split the candidates alike, and so do codes with
    repeated colours that differ only in which absent colours they hold. The free and the
    absent colours a code holds must first appear in increasing order, lowest first; with
    repeated colours allowed, its absent colours must all be the lowest one."""
    free &= ~absent
    for colour in digits[code]:
        bit = np.int64(1) << colour
        if absent & bit:
            if colour != _lowest(absent):
                return False
            if not repeat:
                absent &= ~bit
        elif free & bit:
            if colour != _lowest(free):
                return False
            free &= ~bit
    return True


@njit(cache=True, inline="always")
def _score_block(table, node, pool, direct, g0, width, answers, least, scratch):
    """For the guesses g0 .. g0 + width - 1 (of ``pool`` unless ``direct``): the least
    cost of playing each on ``node`` (unsolvable if it splits nothing), whether it splits
    the others into single codes and whether it is a candidate, in ``scratch[2:5]``.
    ``answers`` lists the answers a code can get, the solving one last."""
    tally, lane, totals, singles, hits, masks, counts = scratch
    n, last, solved = len(node), len(answers) - 1, answers[len(answers) - 1]
    unsolvable = np.int64(1) << 40
    if n <= last + 1 and answers.max() < 64:
        # no part can be larger than the answers: each part of k costs at least 2k - 1,
        # so the least cost is 3n - 2 (if a candidate) - the number of parts
        masks[:] = 0
        for c in node:
            row = table[c]  # answers are symmetric: row c holds c's answer to each guess
            if direct:
                for t in range(LANES):
                    masks[t] |= np.uint64(1) << np.uint64(row[g0 + t])
            else:
                for t in range(width):
                    masks[t] |= np.uint64(1) << np.uint64(row[pool[g0 + t]])
        for t in range(width):
            hits[t] = (masks[t] >> np.uint64(solved)) & np.uint64(1)
            parts = popcount(masks[t]) - hits[t]
            totals[t] = 3 * n - 2 * hits[t] - parts if parts > 1 or hits[t] else unsolvable
            singles[t] = parts == n - hits[t]
        return
    if n < 256:  # the answers of 64 guesses to each candidate, counted in bytes
        tally[:] = 0
        for c in node:
            row = table[c]
            if direct:
                for t in range(LANES):
                    lane[t] = row[g0 + t]
            else:
                for t in range(width):
                    lane[t] = row[pool[g0 + t]]
            for k in range(len(answers)):
                a = answers[k]
                for t in range(LANES):
                    tally[k, t] += lane[t] == a
        for t in range(LANES):
            totals[t], singles[t], hits[t] = n, 0, tally[last, t]
        for k in range(last):
            for t in range(LANES):
                part = np.int64(tally[k, t])
                totals[t] += least[part]
                singles[t] = max(singles[t], part)  # the largest part, for now
        for t in range(width):
            totals[t] = unsolvable if singles[t] == n else totals[t]
            singles[t] = singles[t] <= 1
        return
    for t in range(width):
        g = g0 + t if direct else pool[g0 + t]
        counts[:] = 0
        for c in node:
            counts[table[c, g]] += 1
        totals[t], singles[t], hits[t] = n, 0, counts[solved]
        for k in range(last):
            part = counts[answers[k]]
            totals[t] += least[part]
            singles[t] = max(singles[t], part)
        totals[t] = unsolvable if singles[t] == n else totals[t]
        singles[t] = singles[t] <= 1


@njit(cache=True, inline="always")
def _sift_down(heap, base, count, at):
    """Restore the least-first heap ``heap[base : base + count]`` below entry ``at``."""
    key = heap[base + at]
    while True:
        child = 2 * at + 1
        if child >= count:
            break
        if child + 1 < count and heap[base + child + 1] < heap[base + child]:
            child += 1
        if heap[base + child] >= key:
            break
        heap[base + at] = heap[base + child]
        at = child
    heap[base + at] = key


@njit(cache=True)
def _grown(array, needed):
    """A copy of ``array`` with room for at least ``needed`` entries."""
    bigger = np.empty(max(needed, 2 * len(array)), array.dtype)
    bigger[: len(array)] = array
    return bigger


@njit(cache=True)
def _obvious(table, work, start, n, solved, depth, counts):
    """Whether some candidate of the ``n`` at ``work[start:]`` splits the others into
    parts of one, or else (with three guesses left) of one and a single part of two; if
    so, leaves the first such candidate in ``counts[0]`` and its parts of two in
    ``counts[1]``."""
    best, pairs = -1, 2
    for i in range(n):
        row = table[work[start + i]]
        counts[:] = 0
        doubles = 0
        for j in range(n):
            counts[row[work[start + j]]] += 1
        counts[solved] = 0
        for a in range(len(counts)):
            if counts[a] > 2:
                doubles = 2
                break
            doubles += counts[a] == 2
        if doubles < pairs:
            best, pairs = work[start + i], doubles
            if doubles == 0:
                break
    if pairs > 1 or (pairs == 1 and depth < 3):
        return False
    counts[0], counts[1] = best, pairs
    return True


@njit(cache=True, nogil=True)
def optimal_cost(
    table,
    slots,
    answers,
    digits,
    repeat,
    colour_sets,
    candidates,
    pool,
    free,
    collapse,
    depth,
    limit,
    least,
    reach,
    tally,
):
    """The optimal search (``optimal._Search.cost``) of a set whose history no peg
    permutation keeps, without recursion or memo: the least cost of ``candidates`` within
    ``depth`` guesses and the first guess of a strategy reaching it, if that cost is below
    ``limit``; otherwise some number at least ``limit`` and -1. The first guess is one of
    ``pool``, later ones what ``_worth_trying`` keeps of the codes (``digits``, with
    ``repeat`` and ``colour_sets`` as bit masks); ``free`` is the bit mask of the colours
    no guess has used; absent colours count as one only if ``collapse``. ``reach[d]`` is
    the most codes d guesses can solve. ``tally[0]`` counts the sets searched as it goes
    (a progress display may read it from another thread); another thread sets ``tally[1]``
    to give the search up, which then returns at its next set with ``limit`` and -1.
    """
    size, solved, n0 = table.shape[0], table[0, 0], len(candidates)
    scratch = (
        np.zeros((len(answers), LANES), np.uint8),
        np.zeros(LANES, np.uint8),
        np.zeros(LANES, np.int64),
        np.zeros(LANES, np.int64),
        np.zeros(LANES, np.int64),
        np.zeros(LANES, np.uint64),
        np.zeros(slots, np.int64),
    )
    everything = np.int64(0)
    for colours in colour_sets:
        everything |= colours
    levels = n0 + 2  # every part is smaller than its set
    unsolvable = np.int64(1) << 40
    work = np.empty(8 * n0, np.int32)  # each level's set, then its guess's parts
    work[:n0] = candidates
    f_start = np.empty(levels, np.int64)
    f_region = np.empty(levels, np.int64)  # where the parts of the level's guess go
    f_n = np.empty(levels, np.int64)
    f_depth = np.empty(levels, np.int64)
    f_free = np.empty(levels, np.int64)
    f_limit = np.empty(levels, np.int64)
    f_lower = np.empty(levels, np.int64)
    f_best = np.empty(levels, np.int64)
    f_chosen = np.empty(levels, np.int64)
    f_count = np.empty(levels, np.int64)
    f_guess = np.empty(levels, np.int64)
    f_acc = np.empty(levels, np.int64)
    f_parts = np.empty(levels, np.int64)
    f_part = np.empty(levels, np.int64)
    f_state = np.empty(levels, np.int64)
    part_start = np.zeros((levels, slots), np.int64)
    part_n = np.zeros((levels, slots), np.int64)
    f_kept = np.empty(levels, np.int64)  # where the level's heap of guesses starts
    heap = np.empty(4 * size, np.int64)  # keys (bound, not a candidate, code, ones or not)
    shelves = np.full(61, -1, np.int64)  # the (free, absent) colours of each row of worth
    worth = np.empty((len(shelves), size), np.bool_)
    counts = np.zeros(slots, np.int64)
    offsets = np.zeros(slots + 1, np.int64)
    spare = np.empty(n0, np.int32)

    level = 0
    f_start[0], f_n[0], f_depth[0], f_free[0], f_limit[0] = 0, n0, depth, free, limit
    f_region[0], f_kept[0] = n0, 0
    entering, returning, result = True, False, np.int64(0)
    while True:
        if entering:
            entering = False
            n, d, lim = f_n[level], f_depth[level], f_limit[level]
            returning = True
            f_chosen[level] = work[f_start[level]]
            if n == 1:
                result = 1 if d >= 1 else unsolvable
            elif n == 2:
                result = 3 if d >= 2 else unsolvable
            elif d < 2 or n > reach[min(d, len(reach) - 1)]:
                result = unsolvable
            elif least[n] >= lim:
                result = least[n]
            elif n < slots and _obvious(table, work, f_start[level], n, solved, d, counts):
                # a candidate that splits the rest into ones (or into ones and one pair, if
                # no candidate does better) is a best guess: nothing splits wider
                result = 2 * n - 1 + counts[1]
                f_chosen[level] = counts[0]
            else:
                returning = False
                tally[0] += 1
                if tally[1] != 0:
                    return limit, -1
                if f_region[level] + n > len(work):
                    work = _grown(work, f_region[level] + n)
                if f_kept[level] + size > len(heap):
                    heap = _grown(heap, f_kept[level] + size)
                node = work[f_start[level] : f_start[level] + n]
                absent = everything if collapse else 0
                for c in node:
                    absent &= ~colour_sets[c]
                lowest, kept = unsolvable, 0
                direct = level > 0  # below the first guess, every code (but the filtered)
                if direct:  # which codes are worth trying, kept for the last few colour sets
                    shelf = (f_free[level] * 1031 + absent) % len(shelves)
                    if shelves[shelf] != f_free[level] << 32 | absent:
                        shelves[shelf] = f_free[level] << 32 | absent
                        for g in range(size):
                            worth[shelf, g] = _worth_trying(
                                digits, g, f_free[level], absent, repeat
                            )
                count = size if direct else len(pool)
                for g0 in range(0, count, LANES):
                    width = min(LANES, count - g0)
                    _score_block(table, node, pool, direct, g0, width, answers, least, scratch)
                    totals, singles, hits = scratch[2], scratch[3], scratch[4]
                    for t in range(width):
                        g = g0 + t if direct else pool[g0 + t]
                        if direct and not worth[shelf, g]:
                            continue
                        total = totals[t]
                        lowest = min(lowest, total)
                        if total < lim:  # by bound, then candidates first, then code
                            key = ((total * 2 + 1 - hits[t]) * size + g) * 2 + 1 - singles[t]
                            heap[f_kept[level] + kept] = key
                            kept += 1
                f_lower[level] = max(least[n], lowest)
                if kept == 0:
                    result = max(f_lower[level], lim)
                    returning = True
                else:
                    for i in range(kept // 2 - 1, -1, -1):
                        _sift_down(heap, f_kept[level], kept, i)
                    f_count[level] = kept
                    f_best[level], f_chosen[level], f_state[level] = lim, -1, 0
        if returning:
            returning = False
            if level == 0:
                return result, f_chosen[0] if result < limit else -1
            level -= 1
            k = part_n[level, f_part[level]]
            floor = least[k]
            if result >= f_best[level] - (f_acc[level] - floor):
                f_state[level] = 0  # this guess cannot beat the best: the next one
            else:
                f_acc[level] += result - floor
                f_part[level] += 1
        if f_state[level] == 1:  # the parts of the guess under way, smallest first
            d = f_depth[level] - 1
            while f_part[level] < f_parts[level]:
                k = part_n[level, f_part[level]]
                if k > 2:
                    break
                cost = (1 if d >= 1 else unsolvable) if k == 1 else (3 if d >= 2 else unsolvable)
                if cost >= f_best[level] - (f_acc[level] - least[k]):
                    f_state[level] = 0
                    break
                f_acc[level] += cost - least[k]
                f_part[level] += 1
            if f_state[level] == 1:
                if f_part[level] < f_parts[level]:
                    p = f_part[level]
                    child = level + 1
                    f_start[child] = part_start[level, p]
                    f_region[child] = f_region[level] + f_n[level]
                    f_kept[child] = f_kept[level] + f_count[level]
                    f_n[child] = part_n[level, p]
                    f_depth[child] = d
                    f_free[child] = f_free[level] & ~colour_sets[f_guess[level]]
                    f_limit[child] = f_best[level] - (f_acc[level] - least[part_n[level, p]])
                    level = child
                    entering = True
                    continue
                if f_acc[level] < f_best[level]:
                    f_best[level], f_chosen[level] = f_acc[level], f_guess[level]
                f_state[level] = 0
                if f_best[level] <= f_lower[level]:
                    result = f_best[level]
                    returning = True
                    continue
        # the next guess by bound
        while True:
            base, kept = f_kept[level], f_count[level]
            if kept == 0 or heap[base] // 2 // size // 2 >= f_best[level]:
                if f_chosen[level] >= 0:
                    result = f_best[level]
                else:
                    result = max(f_lower[level], f_limit[level])
                returning = True
                break
            key = heap[base]
            heap[base] = heap[base + kept - 1]
            f_count[level] = kept - 1
            _sift_down(heap, base, kept - 1, 0)
            g, bound = key // 2 % size, key // 2 // size // 2
            if key % 2 == 0:
                if bound < f_best[level]:  # parts of one cost their least
                    f_best[level], f_chosen[level] = bound, g
                    if bound <= f_lower[level]:
                        result = bound
                        returning = True
                        break
                continue
            # split the set by g into the region after its own, parts smallest first
            start, n, region = f_start[level], f_n[level], f_region[level]
            row = table[g]
            offsets[:] = 0
            for j in range(n):
                offsets[row[work[start + j]] + 1] += 1
            for s in range(slots):
                offsets[s + 1] += offsets[s]
            parts = 0
            for s in range(slots):
                k = offsets[s + 1] - offsets[s]
                if k and s != solved:
                    part_start[level, parts] = region + offsets[s]
                    part_n[level, parts] = k
                    parts += 1
            for j in range(n):
                c = work[start + j]
                a = row[c]
                spare[offsets[a]] = c
                offsets[a] += 1
            work[region : region + n] = spare[:n]
            # insertion sort of the parts by size
            for i in range(1, parts):
                ps, pn = part_start[level, i], part_n[level, i]
                j = i - 1
                while j >= 0 and part_n[level, j] > pn:
                    part_start[level, j + 1] = part_start[level, j]
                    part_n[level, j + 1] = part_n[level, j]
                    j -= 1
                part_start[level, j + 1], part_n[level, j + 1] = ps, pn
            f_guess[level], f_acc[level] = g, bound
            f_parts[level], f_part[level], f_state[level] = parts, 0, 1
            break
