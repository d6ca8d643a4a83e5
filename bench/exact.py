"""Exact Battleship benchmark: the profile DP under Russian rules.

Measured with ``time.perf_counter`` after the numba kernels are warmed up:

- ``empty_map``: seconds for ``exact(empty Russian board)``: the first call of the
  process (``cold``: it also allocates and first touches about 0.5 GiB of count buffers)
  and the best and median of several calls after it; checked against seed 003: the
  total 1,855,545,978,831,780, a map symmetric under the board's 8 turns and flips, C1
  most and B2 least likely.
- ``count``: seconds for ``layouts(russian)`` alone (no map).
- ``baseline``: ours beside ``naive_exact`` (every layout enumerated in plain Python)
  on a small board both can finish; totals and maps must agree.
- ``game``: seconds of ``exact()`` before each shot of one full game of the ``exact``
  shooter (no decision cached; each map may reuse the game's earlier ones, as in play), so
  later shots can be compared with the first. ``empty_map`` and ``baseline`` time maps
  worked out from nothing kept.
- ``all_miss``: the best cells when every shot misses (first tied cell taken), beside
  the seed's sequence.
- ``classic``: the same under classic rules, where ships may touch: the empty map
  (30,093,975,536 labelled fleets, as enumeration counts them), one full game of the
  exact shooter shot by shot, and 1000 exact posterior draws (aims: the empty map under
  2 s, later shots under 50 ms median).
- ``kept_maps``: the ``exact`` shooter's games 1..K in one process, CPU seconds with the kept
  maps (a board that only adds misses to a kept one is worked out from it) and with them
  switched off, the two runs alternating in blocks; their ratio, and whether every game took
  the same shots.
- ``table``: ``simulate(russian, random/parity/density/exact, games=N, jobs=J)`` and the
  paired comparison of ``exact`` with ``density`` (and ``parity``) on the same games:
  mean difference in shots with its standard error, and games won, tied and lost.

Aims (``aims``): the empty-board map under 10 s, every later shot of the game faster
than the first, and ``exact`` ahead of ``density`` by more than two standard errors.

    .venv/bin/python bench/exact.py [--out FILE] [--games N] [--jobs J] [--quick]
"""

from __future__ import annotations

import math
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter, process_time

import numpy as np

import hamle.battleship as bs
from hamle.battleship.exact import _layouts, exact, layouts
from hamle.battleship.simulate import MAX_GAMES
from hamle.battleship.strategies import exact_shooter
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_exact as naive
from machine import Arguments, at_most, check_out, jobs_count, machine, report_file, write_report

SEED_TOTAL = 1_855_545_978_831_780
CLASSIC_FLEETS = 30_093_975_536
SEED_ALL_MISS = ["C1", "J8", "A8", "H1", "A4", "J4", "D10", "G10", "E1", "D2"]
AIM_MAP_SECONDS = 10


EXACT_MODULE = sys.modules["hamle.battleship.exact"]  # the package exports exact()


def unkept(observation: bs.Observation):
    """``exact(observation)`` worked out from nothing kept (no earlier map reused)."""
    EXACT_MODULE._MEMOS.clear()
    return exact(observation)


def timed(run, repeat: int) -> tuple[float, float, object]:
    """Best and median seconds of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = perf_counter()
        result = run()
        times.append(perf_counter() - start)
    return min(times), statistics.median(times), result


def symmetric(counts: list[int], n: int) -> bool:
    board = np.array(counts, dtype=object).reshape(n, n)
    turns = [board, board[::-1], board[:, ::-1], board.T]
    return all((turn == board).all() for turn in turns)


def bench_empty(rules: bs.Rules, repeat: int) -> dict:
    cold, _, _ = timed(lambda: unkept(bs.Observation.start(rules)), 1)
    best, median, report = timed(lambda: unkept(bs.Observation.start(rules)), repeat)
    counts = list(report.counts)
    grid = rules.grid
    top, bottom = max(counts), min(counts)
    return {
        "cold_seconds": round(cold, 3),
        "seconds_best": round(best, 3),
        "seconds_median": round(median, 3),
        "repetitions": repeat,
        "total": report.total,
        "total_matches_seed": report.total == SEED_TOTAL,
        "symmetric": symmetric(counts, rules.rows),
        "most_likely": [grid.name(c) for c in range(rules.cells) if counts[c] == top],
        "least_likely": [grid.name(c) for c in range(rules.cells) if counts[c] == bottom],
        "map_in_1e9": [[counts[r * 10 + c] // 10**9 for c in range(10)] for r in range(10)],
        "meets_aim": max(cold, median) < AIM_MAP_SECONDS,
    }


def bench_count(rules: bs.Rules, repeat: int) -> dict:
    def count() -> int:
        _layouts.cache_clear()  # (a count afresh, not the cached one)
        return layouts(rules)

    best, median, total = timed(count, repeat)
    return {"seconds_best": round(best, 3), "seconds_median": round(median, 3), "layouts": total}


def bench_baseline(size: int, fleet: list[int]) -> dict:
    rules = bs.Rules.custom(size, fleet, touching=False)
    ours, _, report = timed(lambda: unkept(bs.Observation.start(rules)), 3)
    start = perf_counter()
    total, counts = naive.layout_map(size, size, fleet)
    baseline = perf_counter() - start
    return {
        "rules": rules.describe(),
        "layouts": total,
        "seconds": round(ours, 5),
        "baseline_seconds": round(baseline, 3),
        "ratio_baseline_over_ours": round(baseline / ours),
        "baseline_agrees": report.total == total and list(report.counts) == counts,
    }


def bench_game(rules: bs.Rules, game: int) -> dict:
    ocean = bs.Ocean(bs.random_fleet(rules, game_stream(game, FLEET_STREAM)))
    rng = game_stream(game, SHOOTER_STREAM)
    shooter = bs.get_shooter("exact")
    seconds = []
    EXACT_MODULE._MEMOS.clear()  # the first shot's map is worked out from nothing
    while not ocean.over:
        start = perf_counter()
        exact(ocean.observation)
        seconds.append(perf_counter() - start)
        ocean.fire(shooter.choose(ocean.observation, rng))
    later = seconds[1:]
    return {
        "game": game,
        "shots": len(seconds),
        "first_shot_seconds": round(seconds[0], 3),
        "later_median_seconds": round(statistics.median(later), 4),
        "later_mean_seconds": round(statistics.fmean(later), 4),
        "later_max_seconds": round(max(later), 3),
        "game_seconds": round(sum(seconds), 2),
        "per_shot_seconds": [round(s, 4) for s in seconds],
        "later_all_faster": max(later) < seconds[0],
    }


def bench_classic(quick: bool) -> dict:
    """Classic rules (ships may touch): the empty map, the fleet count beside
    enumeration, one full game of the exact shooter, and exact posterior draws."""
    rules = bs.Rules.classic()
    exact(bs.Observation.start(bs.Rules.custom(4, [2, 1])))  # compiled before anything is timed
    cold, _, _ = timed(lambda: exact(bs.Observation.start(rules)), 1)
    best, median, report = timed(lambda: exact(bs.Observation.start(rules)), 1 if quick else 3)
    enumerated, _, count = timed(lambda: bs.count_fleets(rules), 1)
    game = bench_game(rules, 1)
    mid = bs.Observation.from_marks(rules, hit=["E5"], miss=["E4", "D5", "C3", "H7", "B8"])
    draws = {}
    for name, observation in (("empty", bs.Observation.start(rules)), ("one_hit", mid)):
        rng = np.random.default_rng(1)
        seconds, _, fleets = timed(lambda o=observation, r=rng: bs.sample(o, 1000, r), 1)
        draws[name] = {"fleets": len(fleets), "seconds": round(seconds, 3)}
    return {
        "rules": rules.describe(),
        "empty_map": {
            "cold_seconds": round(cold, 3),
            "seconds_best": round(best, 3),
            "seconds_median": round(median, 3),
            "layouts": report.total,
            "fleets": report.fleets,
            "symmetric": symmetric(list(report.counts), rules.rows),
            "most_likely": report.best_names,
        },
        "count_by_enumeration": {"seconds": round(enumerated, 3), "fleets": count.fleets},
        "game": game,
        "sample_1000": draws,
        "aims": {
            "empty_map_under_2_s": max(cold, median) < 2,
            "later_shots_median_under_50_ms": game["later_median_seconds"] < 0.05,
        },
        "checks_passed": report.fleets == count.fleets == CLASSIC_FLEETS,
    }


def bench_kept_maps(rules: bs.Rules, games: int, block: int = 2) -> dict:
    """The exact shooter's games with and without the kept maps, alternating in blocks of
    ``block`` games; each block starts with nothing kept and no decision cached."""
    limit = EXACT_MODULE.CHAIN_LIMIT
    seconds, shots = {"kept": 0.0, "fresh": 0.0}, {"kept": [], "fresh": []}
    try:
        for start in range(1, games + 1, block):
            for how in ("kept", "fresh"):
                EXACT_MODULE.CHAIN_LIMIT = limit if how == "kept" else 0
                EXACT_MODULE._MEMOS.clear()
                exact_shooter._best.cache_clear()
                cpu = process_time()
                for game in range(start, min(start + block, games + 1)):
                    shots[how].append(bs.play_game(rules, "exact", game).shots)
                seconds[how] += process_time() - cpu
    finally:
        EXACT_MODULE.CHAIN_LIMIT = limit
    return {
        "games": games,
        "cpu_seconds_kept": round(seconds["kept"], 1),
        "cpu_seconds_fresh": round(seconds["fresh"], 1),
        "ratio_fresh_over_kept": round(seconds["fresh"] / seconds["kept"], 2),
        "same_shots": shots["kept"] == shots["fresh"],
    }


def all_miss(rules: bs.Rules, shots: int) -> dict:
    observation, sequence, ties = bs.Observation.start(rules), [], []
    for _ in range(shots):
        best = exact(observation).best
        sequence.append(rules.grid.name(best[0]))
        ties.append([rules.grid.name(c) for c in best])
        observation = observation.after(best[0], "miss")
    return {"ours": sequence, "ties": ties, "seed": SEED_ALL_MISS[:shots]}


def paired(table: bs.SimulationTable, ours: str, other: str) -> dict:
    """Mean of (other's shots − ours) over the same games, its standard error, and the
    games ours needed fewer, equal and more shots."""
    results = {r.strategy: r for r in table.results}
    diffs = [b - a for a, b in zip(results[ours].shots, results[other].shots, strict=True)]
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return {
        "against": other,
        "mean_shots_saved": round(mean, 3),
        "standard_error": round(se, 3),
        "z": round(mean / se, 2) if se else None,
        "fewer": sum(d > 0 for d in diffs),
        "equal": sum(d == 0 for d in diffs),
        "more": sum(d < 0 for d in diffs),
    }


def bench_table(rules: bs.Rules, games: int, jobs: int) -> dict:
    names = ["random", "parity", "density", "exact"]
    start = perf_counter()
    table = bs.simulate(rules, names, games=games, jobs=jobs)
    seconds = perf_counter() - start
    return {
        "games": games,
        "jobs": jobs,
        "seconds": round(seconds, 1),
        "table": table.as_dict(),
        "exact_vs_density": paired(table, "exact", "density"),
        "exact_vs_parity": paired(table, "exact", "parity"),
    }


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/exact.json"
    )
    parser.add_argument(
        "--games",
        type=at_most(MAX_GAMES),
        help=f"games per shooter (default 1000, quick 20; at most {MAX_GAMES:,})",
    )
    parser.add_argument("--jobs", type=jobs_count, default=2, help="processes for the table")
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    args = parser.parse_args()
    check_out(parser, args.out)
    games = args.games if args.games is not None else (20 if args.quick else 1000)
    rules = bs.Rules.russian()
    exact(bs.Observation.start(bs.Rules.custom(4, [2, 1], touching=False)))
    layouts(rules)
    report = {
        "benchmark": "exact",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "rules": rules.describe(),
        "empty_map": bench_empty(rules, 1 if args.quick else 3),
        "count": bench_count(rules, 1 if args.quick else 3),
        "baseline": bench_baseline(5 if args.quick else 6, [3, 2, 2, 1, 1]),
        "game": bench_game(rules, 1),
        "all_miss": all_miss(rules, 3 if args.quick else len(SEED_ALL_MISS)),
        "kept_maps": bench_kept_maps(rules, 4 if args.quick else 20),
        "table": bench_table(rules, games, args.jobs),
        "classic": bench_classic(args.quick),
    }
    empty, versus = report["empty_map"], report["table"]["exact_vs_density"]
    report["aims"] = {
        "empty_map_under_10_s": empty["meets_aim"],
        "later_shots_faster": report["game"]["later_all_faster"],
        "exact_ahead_of_density_by_2_se": bool(versus["z"] and versus["z"] > 2),
    }
    report["checks_passed"] = (
        empty["total_matches_seed"]
        and empty["symmetric"]
        and empty["most_likely"][0] == "C1"
        and "B2" in empty["least_likely"]
        and report["baseline"]["baseline_agrees"]
        and report["classic"]["checks_passed"]
        and report["kept_maps"]["same_shots"]
    )
    write_report(report, args.out)
    return 0 if report["checks_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
