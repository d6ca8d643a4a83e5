"""Battleship benchmark: hamle's engine beside a naive pure-Python baseline.

Measured on classic rules, one core, with ``time.perf_counter``:

- decisions: µs per ``shooter.choose(observation, rng)`` for every shooter with a baseline,
  over the observations before each shot of games 1..K played by that shooter (rebuilt by
  replaying the game in an ``Ocean``); best and median of several passes. The baseline
  (``naive_battleship``) makes the same decision on plain lists, and every one of our
  choices is checked to be among the baseline's candidate cells.
- games: seconds for ``simulate(classic, [name], games=N, jobs=1)`` and the mean shots;
  the baseline plays fewer games (``baseline_games``), extrapolated to 1000.
- count: seconds for ``count_fleets(classic)`` (checked against 30093975536), and ours
  beside the baseline's backtracking count on a smaller problem both can finish.
- density_kernel: the density decision on the positions before every shot of density
  games 1..K, three ways beside the old path (counts kernel, then d combined in NumPy):
  the bitboard kernel called in a loop from numba (no Python between decisions), the
  same kernel called once per position from Python (the wrapper's cost is the
  difference), and ``shooter.choose``; every decision is checked against the old path's.
- game_kernel: seconds for ``play_games(classic, name, 1..N)`` (whole games in one
  kernel call; the Python part, fleets and streams, timed apart), beside the old path:
  the shot-by-shot loop with the old density decision, and with the new one, over fewer
  games, extrapolated to N; the kernel's games are checked shot for shot against both.
  Ratios are taken on unrounded times; ``ratio_old_over_kernel`` is null when the
  kernel's time is too small to measure.

Aims (``meets_aim``): a density decision under 0.2 ms, 1000 density games under 15 s,
the classic count under 5 s; the density decision under 5 µs inside the kernel and
under 10 µs through ``choose``, 1000 density games under 0.5 s through the game kernel.
Numba kernels are warmed up before anything is timed.

    .venv/bin/python bench/battleship.py [--out FILE] [--games N] [--quick]
"""

from __future__ import annotations

import random
import statistics
import sys
from datetime import UTC, datetime
from functools import partial
from importlib import import_module
from pathlib import Path
from time import perf_counter

import numpy as np
from numba import njit

import hamle.battleship as bs
from hamle.battleship import _kernels
from hamle.battleship.density import best_cells, density, kernel_plan
from hamle.battleship.simulate import MAX_GAMES
from hamle.battleship.strategies.common import pcg_words, pick
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_battleship as naive
from machine import Arguments, at_most, check_out, machine, report_file, write_report

CLASSIC_FLEETS = 30093975536
AIM_DECISION_US = 200
AIM_GAMES_SECONDS = 15
AIM_COUNT_SECONDS = 5
AIM_KERNEL_DECISION_US = 5
AIM_CHOOSE_US = 10
AIM_KERNEL_GAMES_SECONDS = 0.5


def timed(run, repeat: int = 1) -> tuple[float, float]:
    """Best and median seconds of ``repeat`` calls of ``run``."""
    times = []
    for _ in range(repeat):
        start = perf_counter()
        run()
        times.append(perf_counter() - start)
    return min(times), statistics.median(times)


def observations(rules: bs.Rules, name: str, games: int) -> list[bs.Observation]:
    """The observation before every shot of games 1..games played by ``name``."""
    out = []
    for game in range(1, games + 1):
        record = bs.play_game(rules, name, game)
        ocean = bs.Ocean(record.fleet)
        for shot in record.shots:
            out.append(ocean.observation)
            ocean.fire(shot.cell)
    return out


def ours_pass(shooter, seen, rng) -> None:
    for observation in seen:
        shooter.choose(observation, rng)


def naive_pass(name, plain, rows, cols, rng) -> None:
    for marks, afloat in plain:
        naive.choose(name, marks, afloat, rows, cols, rng)


def bench_decisions(rules: bs.Rules, games: int, repeat: int) -> dict:
    rows, cols = rules.rows, rules.cols
    out = {}
    for name in naive.CANDIDATES:  # the shooters with a baseline (exact: bench/exact.py)
        shooter = bs.get_shooter(name)
        seen = observations(rules, name, games)
        plain = [(o.marks.tolist(), list(o.afloat)) for o in seen]
        rng = np.random.default_rng(0)
        disagree = sum(  # also warms up the kernels
            shooter.choose(o, rng) not in naive.CANDIDATES[name](m, a, rows, cols)
            for o, (m, a) in zip(seen, plain, strict=True)
        )
        ours = timed(partial(ours_pass, shooter, seen, rng), repeat)
        base = timed(partial(naive_pass, name, plain, rows, cols, random.Random(0)), repeat)
        us = [1e6 * t / len(seen) for t in (*ours, *base)]
        out[name] = {
            "decisions": len(seen),
            "us_per_decision": round(us[0], 2),
            "us_per_decision_median": round(us[1], 2),
            "decisions_per_second": round(1e6 / us[0]),
            "baseline_us_per_decision": round(us[2], 2),
            "baseline_us_per_decision_median": round(us[3], 2),
            "baseline_decisions_per_second": round(1e6 / us[2]),
            "ratio_baseline_over_ours": round(us[2] / us[0], 2),
            "choices_outside_baseline_candidates": disagree,
        }
    density = out["density"]
    density["aim_us"] = AIM_DECISION_US
    density["meets_aim"] = density["us_per_decision"] < AIM_DECISION_US
    return {"games": games, "repetitions": repeat, "shooters": out}


def bench_games(rules: bs.Rules, games: int, baseline_games: int) -> dict:
    out = {}
    for name in naive.CANDIDATES:
        bs.simulate(rules, [name], games=1, jobs=1)  # warm up: the first timed pays no start-up
        start = perf_counter()
        table = bs.simulate(rules, [name], games=games, jobs=1)
        seconds = perf_counter() - start
        start = perf_counter()
        shots = [
            naive.play_game(name, rules.rows, rules.cols, rules.lengths, rules.touching, seed)
            for seed in range(1, baseline_games + 1)
        ]
        baseline = perf_counter() - start
        per_1000 = seconds * 1000 / games
        extrapolated = baseline * 1000 / baseline_games
        out[name] = {
            "seconds": round(seconds, 3),
            "seconds_per_1000_games": round(per_1000, 3),
            "mean_shots": round(statistics.fmean(table.results[0].shots), 2),
            "baseline_seconds": round(baseline, 3),
            "baseline_extrapolated_seconds": round(extrapolated, 3),
            "baseline_mean_shots": round(statistics.fmean(shots), 2),
            "ratio_baseline_over_ours": round(extrapolated / per_1000, 2),
        }
    density = out["density"]
    density["aim_seconds"] = AIM_GAMES_SECONDS
    density["meets_aim"] = density["seconds_per_1000_games"] < AIM_GAMES_SECONDS
    return {"games": games, "baseline_games": baseline_games, "jobs": 1, "shooters": out}


def bench_count(small: bs.Rules, repeat: int) -> dict:
    bs.count_fleets(bs.Rules.custom(5, [3, 2, 2]))  # warm up the kernels
    ours, _ = timed(lambda: bs.count_fleets(small), repeat)
    fleets = bs.count_fleets(small).fleets
    start = perf_counter()
    naive_fleets = naive.count_fleets(small.rows, small.cols, small.lengths, small.touching)
    baseline = perf_counter() - start
    classic_seconds, _ = timed(lambda: bs.count_fleets(bs.Rules.classic()), repeat)
    classic = bs.count_fleets(bs.Rules.classic()).fleets
    return {
        "classic": {
            "fleets": classic,
            "correct": classic == CLASSIC_FLEETS,
            "seconds": round(classic_seconds, 3),
            "aim_seconds": AIM_COUNT_SECONDS,
            "meets_aim": classic_seconds < AIM_COUNT_SECONDS,
        },
        "small": {
            "rules": small.describe(),
            "fleets": fleets,
            "baseline_agrees": naive_fleets == fleets,
            "seconds": round(ours, 5),
            "baseline_seconds": round(baseline, 3),
            "ratio_baseline_over_ours": round(baseline / ours),
        },
    }


class OldDensity:
    """The density shooter's decision before the bitboard kernel: counts[k, cell] from
    ``_kernels.density_counts``, d combined in NumPy, then ``pick``."""

    name = "density"
    touching = True
    kernel = None

    def choose(self, observation: bs.Observation, rng: np.random.Generator) -> int:
        return pick(density(observation, check=False).best, rng)


@njit
def decide_in_loop(marks, cells, masks, plans, used, repeat):
    """Every position's density decision, ``repeat`` times, without leaving numba."""
    n_cells = marks.shape[1]
    d = np.empty(n_cells, np.int64)
    best = np.empty(n_cells, np.int64)
    blocked = np.empty(masks.shape[1], np.uint64)
    hits = np.empty(masks.shape[1], np.uint64)
    ties = 0
    for _ in range(repeat):
        for i in range(marks.shape[0]):
            _kernels.density_into(marks[i], cells, masks, plans[i, : used[i]], d, blocked, hits)
            ties += _kernels.best_of(marks[i], d, best)
    return ties


def kernel_pass(seen, plans) -> None:
    for observation, plan in zip(seen, plans, strict=True):
        _kernels.density_best(observation.marks, plan.cells, plan.masks, plan.groups)


def call_pass(function, seen) -> None:
    for observation in seen:
        function(observation)


def bench_density_kernel(rules: bs.Rules, games: int, repeat: int) -> dict:
    seen = observations(rules, "density", games)
    plans = [kernel_plan(rules, o.afloat) for o in seen]
    marks = np.array([o.marks for o in seen])
    width = max(len(p.groups) for p in plans)
    stacked = np.zeros((len(seen), width), np.int64)
    for i, plan in enumerate(plans):
        stacked[i, : len(plan.groups)] = plan.groups
    used = np.array([len(p.groups) for p in plans], np.int64)
    table = plans[0]
    shooter = bs.get_shooter("density")
    differ = sum(  # also warms up every kernel
        tuple(int(c) for c in best_cells(o)) != density(o, check=False).best for o in seen
    )
    decide_in_loop(marks, table.cells, table.masks, stacked, used, 1)
    loops = max(1, 20_000 // len(seen))
    inside = timed(
        lambda: decide_in_loop(marks, table.cells, table.masks, stacked, used, loops), repeat
    )
    per_call = timed(partial(kernel_pass, seen, plans), repeat)
    public = timed(partial(call_pass, best_cells, seen), repeat)
    rng = np.random.default_rng(0)
    choose = timed(partial(call_pass, lambda o: shooter.choose(o, rng), seen), repeat)
    old_decision = timed(partial(call_pass, lambda o: density(o, check=False).best, seen), repeat)
    old = OldDensity()
    old_choose = timed(partial(call_pass, lambda o: old.choose(o, rng), seen), repeat)

    def us(seconds: tuple[float, float], calls: int = len(seen)) -> float:
        return round(1e6 * seconds[0] / calls, 2)

    kernel_us = us(inside, loops * len(seen))
    choose_us = us(choose)
    return {
        "games": games,
        "positions": len(seen),
        "repetitions": repeat,
        "decisions_differing_from_old_path": differ,
        "kernel_in_numba_loop_us": kernel_us,
        "kernel_called_from_python_us": us(per_call),
        "wrapper_us": round(us(per_call) - kernel_us, 2),
        "best_cells_us": us(public),
        "choose_us": choose_us,
        "old_decision_us": us(old_decision),
        "old_choose_us": us(old_choose),
        "ratio_old_over_new_choose": round(old_choose[0] / choose[0], 1),
        "aim_kernel_us": AIM_KERNEL_DECISION_US,
        "aim_choose_us": AIM_CHOOSE_US,
        "meets_aim": kernel_us < AIM_KERNEL_DECISION_US and choose_us < AIM_CHOOSE_US,
    }


def game_setup(rules: bs.Rules, games: int) -> None:
    """The Python part of ``play_games``: fleets, boards and shooter streams."""
    for game in range(1, games + 1):
        bs.random_fleet(rules, game_stream(game, FLEET_STREAM)).board()
        pcg_words(game_stream(game, SHOOTER_STREAM))


def bench_game_kernel(rules: bs.Rules, games: int, slow_games: int) -> dict:
    play = import_module("hamle.battleship.simulate")._play
    numbers = range(1, games + 1)
    out, unrounded = {}, {}
    for name in ("random", "hunt-target", "parity", "density"):
        bs.play_games(rules, name, [1])  # warm up
        start = perf_counter()
        played = bs.play_games(rules, name, numbers)
        seconds = unrounded[name] = perf_counter() - start
        out[name] = {
            "seconds": round(seconds, 3),
            "mean_shots": round(float(played.shots.mean()), 3),
            "hunt_mean": round(float(played.hunt.mean()), 3),
        }
    setup, _ = timed(partial(game_setup, rules, games))
    density_games, kernel_seconds = out["density"], unrounded["density"]
    density_games["python_setup_seconds"] = round(setup, 3)
    played = bs.play_games(rules, "density", range(1, slow_games + 1))
    slow = {}
    same = True
    for label, shooter in (("old", OldDensity()), ("new_choose", bs.get_shooter("density"))):
        start = perf_counter()
        records = [play(rules, shooter, game) for game in range(1, slow_games + 1)]
        slow[label] = (perf_counter() - start) * games / slow_games
        same &= all(played.fired(r.game) == tuple(shot.cell for shot in r.shots) for r in records)
    density_games["shot_by_shot_games"] = slow_games
    density_games["old_path_extrapolated_seconds"] = round(slow["old"], 3)
    density_games["new_choose_loop_extrapolated_seconds"] = round(slow["new_choose"], 3)
    if kernel_seconds > 0:
        density_games["ratio_old_over_kernel"] = round(slow["old"] / kernel_seconds, 1)
    else:
        density_games["ratio_old_over_kernel"] = None
        density_games["ratio_note"] = "the kernel's time is too small to measure"
    density_games["same_shots_as_shot_by_shot"] = same
    density_games["aim_seconds_per_1000"] = AIM_KERNEL_GAMES_SECONDS
    density_games["meets_aim"] = kernel_seconds * 1000 / games < AIM_KERNEL_GAMES_SECONDS
    return {"games": games, "jobs": 1, "shooters": out}


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/battleship.json"
    )
    parser.add_argument(
        "--games",
        type=at_most(MAX_GAMES),
        help=f"games per shooter (default 1000, quick 100; at most {MAX_GAMES:,})",
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    args = parser.parse_args()
    check_out(parser, args.out)
    games = args.games if args.games is not None else (100 if args.quick else 1000)
    rules = bs.Rules.classic()
    small = bs.Rules.custom(6, [3, 3, 2]) if args.quick else bs.Rules.custom(7, [4, 3, 3, 2])
    report = {
        "benchmark": "battleship",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "rules": rules.describe(),
        "decisions": bench_decisions(rules, 3 if args.quick else 20, 2 if args.quick else 5),
        "games": bench_games(rules, games, max(1, games // 10)),
        "count": bench_count(small, 1 if args.quick else 3),
        "density_kernel": bench_density_kernel(
            rules, 3 if args.quick else 20, 3 if args.quick else 7
        ),
        "game_kernel": bench_game_kernel(rules, games, max(1, games // 10)),
    }
    decisions, played = report["decisions"]["shooters"], report["games"]["shooters"]
    report["aims"] = {
        "density_decision_under_0.2_ms": decisions["density"]["meets_aim"],
        "1000_density_games_under_15_s": played["density"]["meets_aim"],
        "classic_count_under_5_s": report["count"]["classic"]["meets_aim"],
        "density_decision_under_5_us_in_kernel_and_10_us_through_choose": report["density_kernel"][
            "meets_aim"
        ],
        "1000_density_games_under_0.5_s_in_the_game_kernel": report["game_kernel"]["shooters"][
            "density"
        ]["meets_aim"],
    }
    report["checks_passed"] = (
        report["count"]["classic"]["correct"]
        and report["count"]["small"]["baseline_agrees"]
        and not any(d["choices_outside_baseline_candidates"] for d in decisions.values())
        and report["density_kernel"]["decisions_differing_from_old_path"] == 0
        and report["game_kernel"]["shooters"]["density"]["same_shots_as_shot_by_shot"]
    )
    write_report(report, args.out)
    return 0 if report["checks_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
