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

Aims (``meets_aim``): a density decision under 0.2 ms, 1000 density games under 15 s,
the classic count under 5 s. Numba kernels are warmed up before anything is timed.

    .venv/bin/python bench/battleship.py [--out FILE] [--games N] [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.battleship as bs

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_battleship as naive
from machine import machine, write_report

CLASSIC_FLEETS = 30093975536
AIM_DECISION_US = 200
AIM_GAMES_SECONDS = 15
AIM_COUNT_SECONDS = 5


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results/battleship.json"
    )
    parser.add_argument("--games", type=int, help="games per shooter (default 1000, quick 100)")
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    args = parser.parse_args()
    games = args.games or (100 if args.quick else 1000)
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
    }
    decisions, played = report["decisions"]["shooters"], report["games"]["shooters"]
    report["aims"] = {
        "density_decision_under_0.2_ms": decisions["density"]["meets_aim"],
        "1000_density_games_under_15_s": played["density"]["meets_aim"],
        "classic_count_under_5_s": report["count"]["classic"]["meets_aim"],
    }
    report["checks_passed"] = (
        report["count"]["classic"]["correct"]
        and report["count"]["small"]["baseline_agrees"]
        and not any(d["choices_outside_baseline_candidates"] for d in decisions.values())
    )
    write_report(report, args.out)
    return 0 if report["checks_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
