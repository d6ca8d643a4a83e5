"""Optimal Battleship on small boards, and how far each shooter plays from it.

On a small board every layout of the fleet can be listed, so the least mean number of shots
any strategy can reach against a uniformly hidden fleet can be worked out exactly
(``optimal_total``), and each shooter can be played on every layout (``shooter_total``):
its exact mean, not a sample. This says how much any cleverer shooter could still gain
there, which no sample of games on the 10×10 board can.

The search: a state is the set of layouts that fit the answers so far and the cells hit (the
same in all of them); a state's value is the least total, over its layouts, of the shots
still needed. Each cell that some but not all of its layouts hold is tried (a cell none
holds is wasted; one all hold must be fired sooner or later, and firing it now loses nothing,
so it is fired alone); its answers split the layouts (miss, hit, or the ship it sinks, cells
and all, and whether that was the last). States are remembered, and a cell is dropped as
soon as the shots every layout still needs (its ship cells not hit yet) show it cannot beat
the best so far. Totals are whole numbers: the mean is exact.

Beside it, exact policy improvement (``Rounds``): the greedy shooter (the cell most
layouts hold), then STEPS rounds each firing the cell after which the round before needs
fewest shots, every fitting layout rolled out; the first round is what the expert does with
sampled fleets. On the LARGER_BOARDS, out of the search's reach, the last round stands in
for the optimum (it can only be above it). Where each round gains (``round_gains``, along its
own games, which add up to its gain) is written beside what its cells would save along the
round before's games (``round_gains_along_the_round_before``), a larger sum that is no gain.

    .venv/bin/python bench/battleship_optimal.py [--boards 4x5:2,3 ...] [--larger 6x6:2,3 ...]
                                                 [--quick] [--out FILE]

A board is "RxC:lengths", with "/apart" where ships may not touch. Defaults: BOARDS and
LARGER_BOARDS, two boards at a time on two cores (about 12 minutes); ``--quick``: QUICK_BOARDS
(about 2 minutes).
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.battleship as bs
from hamle.battleship.rules import placements, zone

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import Arguments, check_out, machine, report_file, write_report

BOARDS = ("3x4:2,2", "4x4:2,3", "4x4:1,2/apart", "4x5:2,3", "4x4:2,2,3")
LARGER_BOARDS = ("5x5:2,3", "6x6:2,3")  # out of the search's reach: the rollouts alone
QUICK_BOARDS = ("3x4:2,2", "4x4:1,2/apart")
STEPS = 2  # rounds of policy improvement on the greedy shooter
SEEDS = (1, 2, 3)
SHOOTERS = {
    "density": bs.get_shooter("density"),
    "base": bs.ExpertShooter(candidates=1, exact_targets=0),  # what the expert rolls out
    "exact": bs.get_shooter("exact"),
    "expert": bs.ExpertShooter(threads=1),
}
STATE_LIMIT = 30_000_000  # about 7 GB of remembered states
MAX_LAYOUTS = 20_000


class TooManyStates(Exception):
    """The search remembered more states than it may."""


def parse_board(text: str) -> bs.Rules:
    """Rules from "RxC:lengths[/apart]".

    >>> parse_board("4x5:2,3").describe() == bs.Rules.custom((4, 5), [2, 3]).describe()
    True
    >>> parse_board("5x5:1,2/apart").touching
    False
    """
    try:
        size, _, rest = text.partition(":")
        lengths, _, apart = rest.partition("/")
        rows, cols = (int(n) for n in size.split("x"))
        fleet = [int(n) for n in lengths.split(",")]
        if apart not in ("", "apart"):
            raise ValueError
    except ValueError:
        raise ValueError(f"{text!r} is not a board: RxC:lengths[/apart], e.g. 4x5:2,3") from None
    return bs.Rules.custom((rows, cols), fleet, touching=not apart)


def layouts(rules: bs.Rules) -> list[tuple[int, ...]]:
    """Every layout of the fleet, each a tuple of ship bitmasks (bit c: cell c), longest
    ship first; ships of equal length are not told apart.

    >>> len(layouts(bs.Rules.custom((3, 3), [2])))
    12
    >>> len(layouts(bs.Rules.custom((2, 3), [1, 1], touching=False)))
    4
    """
    lengths = sorted(rules.lengths, reverse=True)
    masks, keep_off = {}, {}
    for length in set(lengths):
        ships = [tuple(int(c) for c in p) for p in placements(rules, length)]
        masks[length] = [sum(1 << c for c in ship) for ship in ships]
        keep_off[length] = [sum(1 << c for c in zone(rules, ship)) for ship in ships]
    found = []

    def place(i: int, taken: int, ships: tuple[int, ...], previous: int) -> None:
        if i == len(lengths):
            found.append(ships)
            return
        length = lengths[i]
        first = previous + 1 if i and lengths[i - 1] == length else 0
        for k in range(first, len(masks[length])):
            if masks[length][k] & taken == 0:
                place(i + 1, taken | keep_off[length][k], (*ships, masks[length][k]), k)

    place(0, 0, (), -1)
    return found


class Tree:
    """The game tree of a board over its layouts: a state is a set of layouts (a bitmask
    over ``layouts``) and the cells hit, the same in all of them."""

    def __init__(self, rules: bs.Rules) -> None:
        self.fleets = layouts(rules)
        self.n_cells = rules.cells
        self.union = [sum(ships) for ships in self.fleets]
        self.holds = [
            sum(1 << i for i, u in enumerate(self.union) if u >> c & 1) for c in range(rules.cells)
        ]
        self.ship_at = [
            {c: m for m in ships for c in range(rules.cells) if m >> c & 1} for ships in self.fleets
        ]
        self.ship_cells = sum(rules.lengths)
        self.everything = (1 << len(self.fleets)) - 1

    def cells(self, subset: int, hit: int) -> list[int]:
        """The cells worth firing: held by some layout of ``subset`` and not hit; a sure
        hit alone if there is one. Most held first, then by index."""
        cells = []
        for c in range(self.n_cells):
            holding = self.holds[c] & subset
            if hit >> c & 1 or not holding:
                continue
            if holding == subset:
                return [c]
            cells.append(c)
        return sorted(cells, key=lambda c: -(self.holds[c] & subset).bit_count())

    def answers(self, subset: int, hit: int, c: int) -> list[tuple[int, int, bool]]:
        """(layouts, cells hit after, game over) for each answer firing ``c`` can get."""
        holding = self.holds[c] & subset
        split = [(subset & ~holding, hit, False)] if subset & ~holding else []
        after = hit | 1 << c
        groups: dict[tuple[int, bool], int] = {}
        while holding:
            low = holding & -holding
            holding ^= low
            i = low.bit_length() - 1
            ship = self.ship_at[i][c]
            key = (ship, self.union[i] & ~after == 0) if ship & ~after == 0 else (0, False)
            groups[key] = groups.get(key, 0) | low
        return split + [(group, after, over) for (_, over), group in groups.items()]


def optimal_total(rules: bs.Rules, state_limit: int = STATE_LIMIT) -> tuple[int, int, int]:
    """(least total shots over every layout, the number of layouts, states remembered);
    TooManyStates past ``state_limit``.

    >>> total, n, _ = optimal_total(bs.Rules.custom((3, 3), [2]))
    >>> total, n
    (54, 12)
    """
    tree = Tree(rules)
    memo: dict[tuple[int, int], int] = {}

    def value(subset: int, hit: int) -> int:
        known = memo.get((subset, hit))
        if known is not None:
            return known
        n = subset.bit_count()
        left = tree.ship_cells - hit.bit_count()  # each layout still needs this many hits
        best = None
        for c in tree.cells(subset, hit):
            # this shot, then the least the layouts could still need, raised answer by answer
            total = n + n * left - (tree.holds[c] & subset).bit_count()
            for group, after, over in tree.answers(subset, hit, c):
                if best is not None and total >= best:
                    break
                if not over:
                    floor = group.bit_count() * (tree.ship_cells - after.bit_count())
                    total += value(group, after) - floor
            if best is None or total < best:
                best = total
        memo[(subset, hit)] = best
        if len(memo) > state_limit:
            raise TooManyStates(f"more than {state_limit:,} states")
        return best

    return value(tree.everything, 0), len(tree.fleets), len(memo)


class Rounds:
    """Exact policy improvement on the greedy shooter (the cell most layouts hold, the
    lowest index on a tie): round k fires the cell after which round k − 1 needs the fewest
    shots, every layout that fits rolled out (the lowest index on a tie), so round 1 is the
    exact one-step rollout of the greedy shooter. Values are totals over a state's layouts.

    >>> Rounds(bs.Rules.custom((3, 3), [2])).totals(1)
    [54, 54]
    """

    def __init__(self, rules: bs.Rules) -> None:
        self.tree = Tree(rules)
        self.memo: dict[tuple[int, int, int], int] = {}

    def choice(self, k: int, subset: int, hit: int) -> int:
        cells = self.tree.cells(subset, hit)
        if k == 0:
            return cells[0]  # most held, lowest index
        return min(cells, key=lambda c: (self.after(k - 1, subset, hit, c), c))

    def after(self, k: int, subset: int, hit: int, c: int) -> int:
        """The shots round k needs in all once ``c`` is fired, that one included."""
        total = subset.bit_count()
        for group, hit_after, over in self.tree.answers(subset, hit, c):
            if not over:
                total += self.value(k, group, hit_after)
        return total

    def value(self, k: int, subset: int, hit: int) -> int:
        key = (k, subset, hit)
        if key not in self.memo:
            self.memo[key] = self.after(k, subset, hit, self.choice(k, subset, hit))
        return self.memo[key]

    def totals(self, steps: int) -> list[int]:
        """The total shots over every layout of rounds 0..``steps``."""
        return [self.value(k, self.tree.everything, 0) for k in range(steps + 1)]

    def gains(self, k: int, along: int | None = None) -> dict[str, int]:
        """Where round k + 1 gains on round k: summed over the states round ``along`` (k + 1
        unless given) reaches where the two differ, what its cell saves round k there, apart
        for states with a hit open (target) and without (hunt). By the performance
        difference lemma, along round k + 1's own games the two add up to the difference of
        the totals; along round k's games they are what its cells would save one at a time.

        >>> rounds = Rounds(bs.Rules.custom((3, 4), [2, 2]))
        >>> rounds.gains(0), rounds.gains(0, along=0)
        ({'hunt': 11, 'target': 1}, {'hunt': 20, 'target': 12})
        """
        follow = k + 1 if along is None else along
        gains = {"hunt": 0, "target": 0}
        states = [(self.tree.everything, 0)]
        while states:
            subset, hit = states.pop()
            old, new = self.choice(k, subset, hit), self.choice(k + 1, subset, hit)
            if old != new:
                ships = self.tree.fleets[(subset & -subset).bit_length() - 1]
                phase = "target" if any(m & hit and m & ~hit for m in ships) else "hunt"
                gains[phase] += self.after(k, subset, hit, old) - self.after(k, subset, hit, new)
            fired = new if follow == k + 1 else self.choice(follow, subset, hit)
            for group, hit_after, over in self.tree.answers(subset, hit, fired):
                if not over:
                    states.append((group, hit_after))
        return gains


def shooter_total(rules: bs.Rules, shooter, seed: int) -> int:
    """The shots ``shooter`` fires in all, played once on every layout, its draws from a
    generator seeded with ``seed`` afresh for each: so it plays one fixed strategy, whose
    mean cannot beat the optimum (seeding by layout instead would let lucky draws do so).

    >>> shooter_total(bs.Rules.custom((3, 3), [2]), bs.get_shooter("density"), 1)  # the optimum, 54
    54
    """
    order = sorted(range(len(rules.fleet)), key=lambda s: -rules.fleet[s].length)
    total = 0
    for ships in layouts(rules):
        placed = [()] * len(ships)
        for s, mask in zip(order, ships, strict=True):
            placed[s] = tuple(c for c in range(rules.cells) if mask >> c & 1)
        ocean = bs.Ocean(bs.Fleet(rules, tuple(placed)))
        rng = np.random.default_rng(seed)
        while not ocean.over:
            ocean.fire(shooter.choose(ocean.observation, rng))
            total += 1
    return total


def measure(board: str, solve: bool) -> dict:
    """One board's row: the optimum (when ``solve``); the greedy shooter, its STEPS rounds of
    improvement (``Rounds``) and where each gains on the one before; each of SHOOTERS
    played with each of SEEDS (the expert only where the optimum is known). Means, and
    percent above the best known play (the optimum, else the last round)."""
    rules = parse_board(board)
    n = len(layouts(rules))
    row: dict = {"board": board, "layouts": n}
    if solve:
        started = perf_counter()
        try:
            best, _, states = optimal_total(rules)
            row["optimal"] = {"mean": best / n, "states": states}
        except TooManyStates as error:
            row["optimal"] = {"error": str(error)}
            solve = False
        row["optimal"]["seconds"] = perf_counter() - started
    started = perf_counter()
    rounds = Rounds(rules)
    totals = rounds.totals(STEPS)
    if not solve:
        best = totals[-1]
    row["best_known"] = {"mean": best / n, "optimal": solve}

    def figures(total_by_seed: list[int]) -> dict:
        mean = sum(total_by_seed) / len(total_by_seed)
        return {
            "mean": mean / n,
            "by_seed": [t / n for t in total_by_seed],
            "percent_over_best": 100 * (mean - best) / best,
        }

    row["rollouts"] = [figures([t]) for t in totals]
    row["round_gains"] = [
        {phase: g / n for phase, g in rounds.gains(k).items()} for k in range(STEPS)
    ]
    row["round_gains_along_the_round_before"] = [
        {phase: g / n for phase, g in rounds.gains(k, along=k).items()} for k in range(STEPS)
    ]
    row["rollouts_seconds"] = perf_counter() - started
    row["shooters"] = {}
    for name, shooter in SHOOTERS.items():
        if name == "expert" and not solve:
            continue  # its rollouts of every fitting layout take hours on the larger boards
        started = perf_counter()
        row["shooters"][name] = figures([shooter_total(rules, shooter, seed) for seed in SEEDS])
        row["shooters"][name]["seconds"] = perf_counter() - started
    return row


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", help="boards to solve, e.g. 4x5:2,3")
    parser.add_argument(
        "--larger",
        nargs="*",
        help=f"boards for the rollouts alone (default {' '.join(LARGER_BOARDS)}, none with "
        "--quick); --larger with no board: none",
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/battleship_optimal.json"
    )
    args = parser.parse_args()
    check_out(parser, args.out)
    boards = args.boards or (QUICK_BOARDS if args.quick else BOARDS)
    larger = args.larger if args.larger is not None else (() if args.quick else LARGER_BOARDS)
    seen: dict[tuple, str] = {}
    for board in (*boards, *larger):
        try:
            rules = parse_board(board)
            n = bs.count_fleets(rules).layouts
        except (ValueError, bs.BattleshipError) as error:
            parser.error(str(error))
        key = (rules.rows, rules.cols, tuple(sorted(rules.lengths)), rules.touching)
        if key in seen:
            parser.error(f"{board} is {seen[key]} again: give each board once")
        seen[key] = board
        if not 0 < n <= MAX_LAYOUTS:
            parser.error(f"{board} has {n:,} layouts: from 1 to {MAX_LAYOUTS:,} can be listed")
    jobs = [(board, True) for board in boards] + [(board, False) for board in larger]
    with ProcessPoolExecutor(2) as pool:
        running = [pool.submit(measure, board, solve) for board, solve in jobs]
        for done in as_completed(running):
            print(json.dumps(done.result()), flush=True)
        rows = [job.result() for job in running]
    report = {
        "benchmark": "battleship_optimal",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "steps": STEPS,
        "seeds": list(SEEDS),
        "boards": rows,
    }
    write_report(report, args.out)


if __name__ == "__main__":
    main()
