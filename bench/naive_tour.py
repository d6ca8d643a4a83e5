"""A naive pure-Python tour hint engine: the baseline the tour benchmark compares against.

The same algorithm as ``hamle.tour.hint`` (spec § 4), written the straightforward way:
the visited set is one plain Python int (bit i = cell i), moves are lists, the search is
a recursive function and the Mulberry32 / FNV-1a code is inlined here (no NumPy, no
numba, nothing imported from ``hamle``). Same candidates (legal moves in jump order),
same exact search (least onward degree first, the same bound, the same node budget of
1000 per move, none in the endgame), same Warnsdorff rollouts from the same Mulberry32
stream per candidate (seeded by FNV-1a of the position after it), same early
termination (after 30 games, a move more than 2 cells below the leader's mean is
dropped) and the same choice and tie-break. So it must return the same answer.

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


def search(visited: int, cell: int, count: int, budget: int | None) -> tuple[int, bool, list]:
    """(best final count, finished within ``budget`` nodes, best continuation).

    Depth-first, least onward degree first; a branch is cut when ``count + empty - dead
    - max(ends - 1, 0)`` cannot beat the best so far, where ``near[u]`` counts the
    neighbours of empty cell u among the empty cells and the current one (dead: none,
    ends: one). A full board stops the search.
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
    best = [count, []]
    nodes = [0]
    path = []

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
                    if best[0] == CELLS:
                        raise _Stop(True)
            elif count + len(path) + e - d - max(en - 1, 0) > best[0]:
                visit(after, move, onward, e, d, en)
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
    if all(f[1] for f in found) or any(f[0] == CELLS for f in found):
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
    rows = []
    for m, (value, exact, _) in zip(moves, found, strict=True):
        if not exact:
            if proven[m]:
                value, exact = CELLS, True
            else:
                value = Fraction(totals[m], runs[m])
        complete = value == CELLS and exact
        shown = value if exact else float(value)
        rows.append((not complete, -value, degrees[m], m, shown, exact))
    best = min(rows)
    return best[3], best[4], best[5], sum(runs.values())
