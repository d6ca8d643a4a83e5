"""Plain-Python twins of the tour engine, written from ``specs/tour.md`` for obviousness,
not speed. A position here is ``(visited, current, count)``: a set of cell indices, the
current cell and the number of filled cells (the kernels do not need ``visited`` to come
from a legal path, and neither do these).

>>> rng = Mulberry32(20261201)
>>> [rng.next_uint32() for _ in range(3)]
[1214187109, 1007508439, 461233435]
>>> hex(fnv1a32(b"a"))
'0xe40c292c'
>>> [cell_name(t) for t in TARGETS[0]]
['A4', 'D1', 'C3']
"""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import string
import subprocess
from pathlib import Path

import pytest

SIDE = 10
CELLS = SIDE * SIDE
U32 = 0xFFFFFFFF

# The spec's 8 moves: 3 straight (±3, 0), (0, ±3) and 2 diagonally (±2, ±2), as
# (row step, column step), in the order hamle.tour.board.JUMPS lists them.
STRAIGHT = ((-3, 0), (3, 0), (0, -3), (0, 3))
DIAGONAL = ((-2, -2), (-2, 2), (2, -2), (2, 2))
MOVES = STRAIGHT + DIAGONAL


# --- names ------------------------------------------------------------------------------


def cell_name(cell: int) -> str:
    r, c = divmod(cell, SIDE)
    return f"{string.ascii_uppercase[c]}{r + 1}"


def cell_index(name: str) -> int:
    return (int(name[1:]) - 1) * SIDE + string.ascii_uppercase.index(name[0].upper())


# --- Mulberry32 and FNV-1a ----------------------------------------------------------------


def _imul(a: int, b: int) -> int:
    """JavaScript's Math.imul on the low 32 bits (the sign does not matter once masked)."""
    return (a * b) & U32


class Mulberry32:
    """The seed's ``mulberry32`` line by line, with every JavaScript int32 kept as its
    unsigned 32-bit pattern."""

    def __init__(self, seed: int) -> None:
        self.seed = seed & U32

    def next_uint32(self) -> int:
        self.seed = (self.seed + 0x6D2B79F5) & U32  # seed = (seed + 0x6D2B79F5) | 0
        t = self.seed
        t = _imul(t ^ (t >> 15), t | 1)
        t ^= (t + _imul(t ^ (t >> 7), t | 61)) & U32
        return (t ^ (t >> 14)) & U32

    def __call__(self) -> float:
        return self.next_uint32() / 4294967296


def random_int(rng: Mulberry32, low: int, high: int) -> int:
    return low + int(rng() * (high - low))


def fnv1a32(data: bytes) -> int:
    h = 0x811C9DC5
    for byte in data:
        h ^= byte
        h = (h * 16777619) & U32
    return h


def position_seed(visited, current: int) -> int:
    """FNV-1a over the visited set's 13 little-endian bytes, then the current cell."""
    data = bytearray(13)
    for cell in visited:
        data[cell // 8] |= 1 << (cell % 8)
    return fnv1a32(bytes(data) + bytes([current]))


# --- the move table and play --------------------------------------------------------------


def _targets(cell: int) -> tuple[int, ...]:
    r, c = divmod(cell, SIDE)
    out = []
    for dr, dc in MOVES:
        if 0 <= r + dr < SIDE and 0 <= c + dc < SIDE:
            out.append((r + dr) * SIDE + (c + dc))
    return tuple(out)


TARGETS = tuple(_targets(cell) for cell in range(CELLS))


def legal(visited, current: int) -> list[int]:
    return [t for t in TARGETS[current] if t not in visited]


def is_tour(path) -> bool:
    """Each cell one jump from the one before it and no cell twice."""
    return len(set(path)) == len(path) and all(b in TARGETS[a] for a, b in itertools.pairwise(path))


def is_continuation(visited, current: int, moves) -> bool:
    """``moves`` are legal jumps played one after another from the position."""
    seen = set(visited)
    for move in moves:
        if move in seen or move not in TARGETS[current]:
            return False
        seen.add(move)
        current = move
    return True


# --- Warnsdorff and rollouts ----------------------------------------------------------


def onward_degree(visited, move: int) -> int:
    """Legal moves from ``move`` once it is played (a cell is never its own target)."""
    return sum(1 for t in TARGETS[move] if t not in visited)


def warnsdorff_pick(visited, current: int, rng: Mulberry32) -> int | None:
    """The seed's warnsdorffPick: least onward degree, ties by candidates[randomInt]."""
    min_degree = None
    candidates: list[int] = []
    for m in legal(visited, current):
        deg = onward_degree(visited, m)
        if min_degree is None or deg < min_degree:
            min_degree, candidates = deg, [m]
        elif deg == min_degree:
            candidates.append(m)
    if not candidates:
        return None
    return candidates[random_int(rng, 0, len(candidates))]


def finish(visited, current: int, count: int, rng: Mulberry32) -> tuple[int, list[int]]:
    """(final count, the moves played) of one Warnsdorff game from the position."""
    visited = set(visited)
    moves = []
    while True:
        nxt = warnsdorff_pick(visited, current, rng)
        if nxt is None:
            return count, moves
        visited.add(nxt)
        current = nxt
        moves.append(nxt)
        count += 1


def rollouts(visited, current: int, count: int, rng: Mulberry32, n: int):
    """(sum of the final counts of n games, moves of the first full-board game or [])."""
    total, proof = 0, []
    for _ in range(n):
        final, moves = finish(visited, current, count, rng)
        total += final
        if final == CELLS and not proof:
            proof = moves
    return total, proof


# --- brute force -----------------------------------------------------------------------


def best_final(visited, current: int, count: int) -> int:
    """The highest final count over every way to go on (plain exhaustive search)."""
    best = count
    for m in legal(visited, current):
        visited.add(m)
        best = max(best, best_final(visited, m, count + 1))
        visited.remove(m)
    return best


def best_final_of(position) -> int:
    """``best_final`` of a hamle.tour.Position."""
    return best_final(set(position.path), position.current, position.count)


# --- positions for tests ---------------------------------------------------------------


def random_game(rand: random.Random, start: int | None = None, stop: int = CELLS) -> list[int]:
    """A path of uniformly random legal moves, stopped once ``stop`` cells are filled."""
    path = [rand.randrange(CELLS) if start is None else start]
    seen = set(path)
    while len(path) < stop:
        options = legal(seen, path[-1])
        if not options:
            break
        path.append(rand.choice(options))
        seen.add(path[-1])
    return path


def warnsdorff_game(seed: int, start: int) -> list[int]:
    """The path of one Warnsdorff game from ``start`` with mulberry32(seed)."""
    _, moves = finish({start}, start, 1, Mulberry32(seed))
    return [start, *moves]


def endgame_path(rand: random.Random, min_count: int) -> list[int]:
    """A legal path of at least ``min_count`` cells that is not over (game still on):
    a Warnsdorff game cut somewhere, then random moves, retried until it fits."""
    while True:
        start = rand.randrange(CELLS)
        full = warnsdorff_game(rand.getrandbits(32), start)
        if len(full) < min_count + 1:
            continue
        cut = rand.randrange(min_count - 8, len(full))
        path = full[:cut]
        seen = set(path)
        while len(path) < CELLS:
            options = legal(seen, path[-1])
            if not options:
                break
            if len(path) >= min_count and rand.random() < 0.35:
                return path
            path.append(rand.choice(options))
            seen.add(path[-1])


def random_endgame(rand: random.Random, empty: int) -> tuple[set[int], int]:
    """(visited, current) with ``empty`` empty cells grown as one jump-connected patch
    around the current cell; the visited set need not come from a legal path."""
    current = rand.randrange(CELLS)
    patch: list[int] = []
    while len(patch) < empty:
        frontier = sorted(
            {t for c in [current, *patch] for t in TARGETS[c]} - set(patch) - {current}
        )
        if not frontier:
            break
        patch.append(rand.choice(frontier))
    return set(range(CELLS)) - set(patch), current


def words(visited) -> tuple[int, int]:
    """The visited set as the kernels' two 64-bit words (cells 0-63, 64-99)."""
    lo = sum(1 << c for c in visited if c < 64)
    hi = sum(1 << (c - 64) for c in visited if c >= 64)
    return lo, hi


# --- the seed's own JavaScript under Node.js -------------------------------------------

NODE = shutil.which("node")
SEED_JS = Path(__file__).with_name("seed.js")
# Skipped without node, but where $HAMLE_NODE_REQUIRED is set (CI) they run and fail.
needs_node = pytest.mark.skipif(
    NODE is None and not os.environ.get("HAMLE_NODE_REQUIRED"), reason="node is not on PATH"
)


def node_answers(requests: list[dict]) -> list:
    """Answers of tests/tour/seed.js (the seed's JavaScript) to ``requests``."""
    if NODE is None:
        pytest.fail("node is missing (Debian package nodejs), and $HAMLE_NODE_REQUIRED is set")
    done = subprocess.run(
        [NODE, str(SEED_JS)],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)
