"""A naive pure-Python tour hint engine: the baseline the tour benchmark compares against.

The same algorithm as ``hamle.tour.hint`` (spec § 4), written the straightforward way:
the visited set is one plain Python int (bit i = cell i), moves are lists, the search is
a recursive function and the Mulberry32 / FNV-1a code is inlined here (no NumPy, no
numba, nothing imported from ``hamle``). Same candidates (legal moves in jump order),
same exact search (least onward degree first, the same bound, the same memory of
positions searched in full, the same node budget of 1000 per move, none in the
endgame), same Warnsdorff rollouts from the same Mulberry32 stream per candidate (seeded
by FNV-1a of the position after it), same early termination (after 30 games, a move
more than 2 cells below the leader's mean is dropped), the same rounds that settle
whether a move still allows a full board, and the same choice and tie-break. So it must
return the same answer.

>>> hint([0, 3, 33], "quick")[:3]
(11, 100, True)
"""

from __future__ import annotations

from fractions import Fraction

SIDE = 10
CELLS = 100
JUMPS = ((-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (-2, 2), (2, -2), (2, 2))
ROLLOUTS = {"hint": 120, "quick": 30}
FIRST_ROUND = 30
MARGIN = 2
ENDGAME = 12
EXACT_BUDGET = 1000
DECIDE_ROUNDS = {
    "hint": ((60, 4_000), (120, 40_000), (240, 300_000)),
    "quick": ((30, 2_000), (60, 20_000), (120, 120_000)),
}
SCORE_NODES = {"hint": 60_000, "quick": 20_000}
SEEN_ROWS = 1 << 17
SEEN_EMPTY = 10
ENDGAME_NODES = 1 << 12

TARGETS = []
for _cell in range(CELLS):
    _r, _c = divmod(_cell, SIDE)
    TARGETS.append(
        [
            (_r + dr) * SIDE + _c + dc
            for dr, dc in JUMPS
            if 0 <= _r + dr < SIDE and 0 <= _c + dc < SIDE
        ]
    )


class Mulberry32:
    """The seed's ``mulberry32``: 32-bit state, float = uint32 / 2³²."""

    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def random(self) -> float:
        self.state = (self.state + 0x6D2B79F5) & 0xFFFFFFFF
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


def position_seed(visited: int, cell: int) -> int:
    """FNV-1a over the visited set's 13 little-endian bytes, then the current cell."""
    h = 0x811C9DC5
    for i in range(13):
        h = ((h ^ ((visited >> (8 * i)) & 0xFF)) * 0x01000193) & 0xFFFFFFFF
    return ((h ^ cell) * 0x01000193) & 0xFFFFFFFF


def legal(visited: int, cell: int) -> list[int]:
    return [t for t in TARGETS[cell] if not visited >> t & 1]


def degree(visited: int, cell: int) -> int:
    return len(legal(visited, cell))


def ordered(visited: int, cell: int) -> list[int]:
    """Legal moves, least onward degree first (stable, so jump order among equals)."""
    return sorted(legal(visited, cell), key=lambda t: degree(visited, t))


def finish(visited: int, cell: int, count: int, rng: Mulberry32) -> tuple[int, list[int]]:
    """Warnsdorff to the end: the final count and the moves played."""
    moves = []
    while True:
        least, picks = 99, []
        for t in legal(visited, cell):
            d = degree(visited, t)
            if d < least:
                least, picks = d, [t]
            elif d == least:
                picks.append(t)
        if not picks:
            return count, moves
        cell = picks[int(rng.random() * len(picks))]
        visited |= 1 << cell
        moves.append(cell)
        count += 1


class _Stop(Exception):
    pass


def table_rows(budget: int, most: int = SEEN_ROWS) -> int:
    """Rows of the engine's table of searched positions for ``budget`` nodes."""
    return min(1 << max(4, min(most, 2 * budget).bit_length()), most)


def search(
    visited: int,
    cell: int,
    count: int,
    budget: int | None,
    floor: int = 0,
    ceiling: int = CELLS,
    seen: set | None = None,
    rows: int | None = None,
) -> tuple[int, bool, list]:
    """(best final count above ``floor``, finished within ``budget`` nodes, best
    continuation); reaching ``ceiling`` stops the search.

    Depth-first, least onward degree first; a branch is cut when ``count + empty - dead
    - max(ends - 1, 0)`` cannot beat the best so far, where ``near[u]`` counts the
    neighbours of empty cell u among the empty cells and the current one (dead: none,
    ends: one), or when it reaches a position already searched in full; positions with
    at least ``SEEN_EMPTY`` empty cells are remembered in ``seen`` (new by default)
    while fewer than half its ``rows`` (the engine's table for the budget by default)
    are taken.
    """
    near = [0] * CELLS
    empty = dead = ends = 0
    for u in range(CELLS):
        if visited >> u & 1:
            continue
        empty += 1
        near[u] = sum(1 for t in TARGETS[u] if t == cell or not visited >> t & 1)
        if near[u] == 0:
            dead += 1
        elif near[u] == 1:
            ends += 1
    best = [max(count, floor), []]
    nodes = [0]
    path = []
    seen = set() if seen is None else seen
    room = (rows or table_rows(ENDGAME_NODES if budget is None else budget)) // 2

    def visit(visited, cell, options, empty, dead, ends):
        for move in options:
            nodes[0] += 1
            if budget is not None and nodes[0] > budget:
                raise _Stop(False)
            after = visited | 1 << move
            e, d, en = empty - 1, dead, ends
            if near[move] == 1:
                en -= 1
            lost = [t for t in TARGETS[cell] if not after >> t & 1]
            for t in lost:
                near[t] -= 1
                if near[t] == 0:
                    en -= 1
                    d += 1
                elif near[t] == 1:
                    en += 1
            path.append(move)
            onward = ordered(after, move)
            if not onward:
                if count + len(path) > best[0]:
                    best[0], best[1] = count + len(path), list(path)
                    if best[0] >= ceiling:
                        raise _Stop(True)
            elif count + len(path) + e - d - max(en - 1, 0) > best[0] and (
                e < SEEN_EMPTY or (after, move) not in seen
            ):
                visit(after, move, onward, e, d, en)
            if e >= SEEN_EMPTY and len(seen) < room:
                seen.add((after, move))
            path.pop()
            for t in lost:
                near[t] += 1

    try:
        visit(visited, cell, ordered(visited, cell), empty, dead, ends)
        finished = True
    except _Stop as stop:
        finished = stop.args[0]
    return best[0], finished, best[1]


def hint(path: list[int], mode: str = "hint") -> tuple[int, float, bool, int]:
    """(move, value, exact, rollouts run) for the position after ``path``."""
    visited = 0
    for c in path:
        visited |= 1 << c
    cell, count = path[-1], len(path)
    moves = legal(visited, cell)
    if not moves:
        raise ValueError("the game is over")
    budget = None if CELLS - count < ENDGAME else EXACT_BUDGET
    found = [search(visited | 1 << m, m, count + 1, budget) for m in moves]
    degrees = {m: degree(visited | 1 << m, m) for m in moves}
    if all(f[1] for f in found):
        rows = [(m, value, exact) for m, (value, exact, _) in zip(moves, found, strict=True)]
        settled = [r for r in rows if r[1] == CELLS] or rows
        move, value, exact = min(settled, key=lambda r: (-r[1], degrees[r[0]], r[0]))
        return move, value, exact, 0

    n = ROLLOUTS[mode]
    open_moves = [m for m, (_, exact, _) in zip(moves, found, strict=True) if not exact]
    rngs = {m: Mulberry32(position_seed(visited | 1 << m, m)) for m in open_moves}
    totals = dict.fromkeys(open_moves, 0)
    runs = dict.fromkeys(open_moves, 0)
    proven = dict.fromkeys(open_moves, False)

    def play(move, games):
        for _ in range(games):
            final, _ = finish(visited | 1 << move, move, count + 1, rngs[move])
            totals[move] += final
            proven[move] = proven[move] or final == CELLS
        runs[move] += games

    first = min(FIRST_ROUND, n)
    for m in open_moves:
        play(m, first)
    leader = max(Fraction(totals[m], runs[m]) for m in open_moves)
    for m in open_moves:
        if n > first and Fraction(totals[m], runs[m]) >= leader - MARGIN:
            play(m, n - first)
    # complete: True (a full board found), False (refuted), None (not known)
    value = {m: v for m, (v, exact, _) in zip(moves, found, strict=True) if exact}
    complete = {
        m: value[m] == CELLS if m in value else (True if proven[m] else None) for m in moves
    }
    for m in open_moves:
        if proven[m]:
            value[m] = CELLS
    if len(moves) > 1 and not any(complete.values()):
        decide(visited, count, moves, degrees, value, complete, runs, totals, proven, play, mode)

    def key(m):
        rank = {True: 0, None: 1, False: 2}[complete[m]]
        return (
            rank,
            -(Fraction(value[m]) if m in value else Fraction(totals[m], runs[m])),
            degrees[m],
            m,
        )

    best = min(moves, key=key)
    shown = value[best] if best in value else float(Fraction(totals[best], runs[best]))
    return best, shown, best in value, sum(runs.values())


def decide(visited, count, moves, degrees, value, complete, runs, totals, proven, play, mode):
    """The engine's rounds for moves not known to allow a full board: more games, then
    a search for a full board shared among them; with every move refuted, the exact best
    count of each within the score budget. Updates ``value`` and ``complete``."""
    undecided = sorted(
        (m for m in moves if complete[m] is None),
        key=lambda m: (-Fraction(totals[m], runs[m]), degrees[m], m),
    )
    seen, rows = set(), table_rows(sum(nodes for _, nodes in DECIDE_ROUNDS[mode]))
    for extra, nodes in DECIDE_ROUNDS[mode]:
        if not undecided:
            break
        for m in undecided:
            play(m, extra)
            if proven[m]:
                value[m], complete[m] = CELLS, True
                return
        still = []
        for m in undecided:
            share = nodes // len(undecided)
            best, finished, _ = search(
                visited | 1 << m, m, count + 1, share, CELLS - 1, CELLS, seen, rows
            )
            if best == CELLS:
                value[m], complete[m] = CELLS, True
                return
            if finished:
                complete[m] = False
            else:
                still.append(m)
        undecided = still
    if not undecided:
        inexact = [m for m in moves if m not in value]
        for m in inexact:
            best, finished, _ = search(
                visited | 1 << m, m, count + 1, SCORE_NODES[mode] // len(inexact), ceiling=CELLS - 1
            )
            if finished:
                value[m] = best
