"""Naive baseline for the exact count: every no-touch layout enumerated in plain Python.

Ships go longest first, equal ships on increasing placements; a placement is legal when
it avoids every cell next to or under the ships already placed (placements and zones from
``naive_battleship``). Each complete layout adds one to the cells it covers.
"""

from __future__ import annotations

from naive_battleship import placements, zone


def layout_map(rows: int, cols: int, fleet: list[int]) -> tuple[int, list[int]]:
    """(layouts with equal ships alike, per-cell occupancy counts)."""
    lengths = sorted(fleet, reverse=True)
    options = {n: [tuple(p) for p in placements(rows, cols, n)] for n in set(lengths)}
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
                place(i + 1, blocked.union(zone(rows, cols, ship)), k + 1 if same else 0)
                chosen.pop()

    place(0, set(), 0)
    return total, counts
