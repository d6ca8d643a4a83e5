"""Naive baseline for the exact count: every no-touch layout enumerated in plain Python.

Ships go longest first, equal ships on increasing placements; a placement is legal when
it avoids every cell next to or under the ships already placed. Each complete layout
adds one to the cells it covers.
"""

from __future__ import annotations

from collections import Counter


def placements(rows: int, cols: int, length: int) -> list[tuple[int, ...]]:
    out = set()
    for r in range(rows):
        for c in range(cols):
            if c + length <= cols:
                out.add(tuple(r * cols + c + k for k in range(length)))
            if r + length <= rows:
                out.add(tuple((r + k) * cols + c for k in range(length)))
    return sorted(out)


def halo(rows: int, cols: int, cells: tuple[int, ...]) -> set[int]:
    around = set()
    for cell in cells:
        r, c = divmod(cell, cols)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    around.add((r + dr) * cols + c + dc)
    return around


def layout_map(rows: int, cols: int, fleet: list[int]) -> tuple[int, list[int]]:
    """(layouts with equal ships alike, per-cell occupancy counts)."""
    lengths = sorted(fleet, reverse=True)
    options = {n: placements(rows, cols, n) for n in Counter(lengths)}
    counts = [0] * (rows * cols)
    total = 0
    chosen: list[tuple[int, ...]] = []

    def place(i: int, blocked: set[int], first: int) -> None:
        nonlocal total
        if i == len(lengths):
            total += 1
            for ship in chosen:
                for cell in ship:
                    counts[cell] += 1
            return
        same = i + 1 < len(lengths) and lengths[i + 1] == lengths[i]
        for k in range(first, len(options[lengths[i]])):
            ship = options[lengths[i]][k]
            if blocked.isdisjoint(ship):
                chosen.append(ship)
                place(i + 1, blocked | halo(rows, cols, ship), k + 1 if same else 0)
                chosen.pop()

    place(0, set(), 0)
    return total, counts
