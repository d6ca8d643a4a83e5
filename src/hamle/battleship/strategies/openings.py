"""Openings: the expert's hunt shots before its first hit, worked out once with far more
rollouts than a decision can afford.

Until a shot hits, the board holds only the expert's own misses, so those shots are one
fixed sequence per rule set: its opening. Each cell of it is the one, of the ranked
density's ``candidates`` best cells at the board the opening has reached, whose rollouts
(the cell, then the ranked density shooter) take the fewest shots on average, found by
successive halving from ``fleets`` fleets a cell, scaled by how often games reach the board
(at least a tenth of it). The opening goes on while the board it reaches comes up in at
least ``reach`` of games (exact counts). ``openings.json`` holds the openings of the
classic and Russian rules; ``bench/openings.py`` works them out again.
"""

import json
import math
from functools import cache
from pathlib import Path

import numpy as np

from .. import _kernels
from ..exact import occupancy
from ..observation import MISS, UNKNOWN, Observation
from ..rules import Rules
from .common import pcg_words

OPENINGS_FILE = Path(__file__).with_name("openings.json")
SETTINGS = {"candidates": 16, "fleets": 50_000, "reach": 0.01, "seed": 2026}


@cache
def openings() -> dict[str, tuple[str, ...]]:
    """The stored openings by rule set (``Rules.game``).

    >>> openings()[Rules.classic().describe()][:2]
    ('C5', 'D4')
    """
    stored = json.loads(OPENINGS_FILE.read_text(encoding="utf-8"))
    return {rules: tuple(cells) for rules, cells in stored["openings"].items()}


@cache
def opening_cells(rules: Rules) -> np.ndarray:
    """The opening of ``rules`` as cell indices, read-only (empty where none is stored).

    >>> opening_cells(Rules.custom(4, [2])).size
    0
    """
    names = openings().get(rules.game, ())
    cells = np.array([rules.grid.index(name) for name in names], np.int64)
    cells.flags.writeable = False
    return cells


def opening_shot(observation: Observation) -> int | None:
    """The opening's next cell when ``observation`` is a board the opening reaches (only its
    misses so far), else None.

    >>> obs = Observation.from_marks(Rules.classic(), miss=["C5"])
    >>> obs.grid.name(opening_shot(obs))
    'D4'
    >>> opening_shot(Observation.from_marks(Rules.classic(), miss=["E5"])) is None
    True
    """
    marks = observation.marks
    if not np.all((marks == UNKNOWN) | (marks == MISS)):
        return None
    cells = opening_cells(observation.rules)
    fired = np.flatnonzero(marks == MISS)
    if fired.size >= cells.size or set(fired.tolist()) != set(cells[: fired.size].tolist()):
        return None
    return int(cells[fired.size])


def work_out_opening(rules: Rules, settings: dict = SETTINGS, log=None) -> list[int]:
    """The opening of ``rules`` under ``settings`` (see the module's docstring); ``log``
    is called with a line per cell."""
    from .expert_shooter import rollout_tables  # (the expert imports this module)

    tables = rollout_tables(rules)
    afloat = np.array(sorted(rules.lengths, reverse=True), np.int64)
    marks = np.zeros(rules.cells, np.uint8)
    everything, _ = occupancy(rules, marks, rules.lengths)
    total = everything
    opening = []
    while total >= settings["reach"] * everything:
        cells = _kernels.best_cells(marks, afloat, tables, settings["candidates"])
        if cells.size == 0:
            break
        reach = total / everything
        fleets = max(round(settings["fleets"] * reach), settings["fleets"] // 10)
        cell, saved = _halve(marks, afloat, cells, tables, fleets, settings, len(opening))
        if log:
            log(
                f"{len(opening) + 1}: {rules.grid.name(cell)} (reached in {reach:.1%} of games;"
                f" {saved:+.3f} shots on the ranked density's {rules.grid.name(int(cells[0]))})"
            )
        opening.append(cell)
        marks[cell] = MISS
        total, _ = occupancy(rules, marks, rules.lengths)
    return opening


def _halve(marks, afloat, cells, tables, fleets, settings, step) -> tuple[int, float]:
    """The cell of ``cells`` of least mean rollout shots by successive halving: every cell
    left is rolled out on ``fleets`` more fleets, the worse half drops out, and the fleets
    double; with what it saves on ``cells[0]`` over the fleets they both met."""
    left = np.arange(cells.size)
    totals = np.zeros(cells.size)
    weight = 0.0
    saved = 0.0
    for round_ in range(cells.size):
        pcg = pcg_words(np.random.default_rng([settings["seed"], step, round_]))
        shots = np.empty((fleets, left.size))
        weights = np.empty(fleets)
        drawn = _kernels.rollout_shots(
            marks, afloat, cells[left], tables, fleets, pcg, shots, weights
        )
        if drawn < 0:
            raise RuntimeError("the rollout fleets could not be drawn")
        # (exact sums: which cell wins does not hang on the CPU's rounding)
        totals[left] += [math.fsum(weights * column) for column in shots.T]
        weight += math.fsum(weights)
        order = left[np.argsort(totals[left], kind="stable")]
        if left[0] == 0:
            saved = (totals[0] - totals[order[0]]) / weight
        if left.size == 1:
            return int(cells[left[0]]), saved
        left = np.sort(order[: (left.size + 1) // 2])
        fleets *= 2
    raise AssertionError("unreachable")
