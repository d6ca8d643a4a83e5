"""Mastermind benchmark: hamle's evaluation beside a naive pure-Python baseline.

Measured with ``time.perf_counter`` around ``evaluate(name, variant, jobs=...)`` for every
strategy in ``HEURISTICS`` (each run once, all secrets of the variant played):

- evaluations: seconds, total, average and worst number of guesses, and first guess on
  4×6 (classic), 4×8 and Bulls and Cows with one process, and 5×8 with two threads
  (``jobs=2``, the aim) and with one. The NumPy path is warmed up first on 3×4 and the
  numba kernels on 4×7 (and the on-the-fly scoring on one 5×8 code), and each variant's
  feedback table is built before its runs and timed apart (``table_seconds``), so neither
  compile time nor the table counts in a strategy's seconds (``bench/peers.py`` times
  fresh processes instead).
- ``same_totals_as_before``: every strategy's total on 4×8, Bulls and Cows and 5×8 equals
  the engine's before its 64-lane kernels (``EARLIER_TOTALS``); the run exits 1 if not.
- baseline on 4×6 (``naive_mastermind``): the seed's ``Counter`` scoring, a list of
  candidates, the same criterion and tie-break scanning every code (every candidate for
  ``minimax-candidates``), one game at a time. Its opening guess is computed once per
  strategy (``baseline_first_guess_seconds``), then it plays every ``baseline_stride``-th
  secret (``baseline_secrets`` of them); ``baseline_extrapolated_seconds`` = opening +
  sample × 1296 / ``baseline_secrets``. On each sampled secret the baseline's guesses
  must be hamle's (played turn by turn with ``Strategy.next_guess``), else the run
  prints the secret and exits 1. ``ratio_baseline_over_ours`` = extrapolated / ours.
- published 4×6 totals (Knuth 5801, Irving 5696, entropy 5722, Kooi 5668) beside ours.

Aims (``meets_aim``): every 4×6 evaluation under 1 s; every 5×8 evaluation with
``jobs=2`` under 10 s. ``--quick`` skips the 5×8 one-process runs, gives the baseline
hamle's opening guesses instead of computing them, and plays fewer sampled secrets.

    .venv/bin/python bench/mastermind.py [--out FILE] [--quick]
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.mastermind as mm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_mastermind as naive
from machine import Arguments, check_out, machine, report_file, write_report

AIM_CLASSIC_SECONDS = 1
AIM_SUPER_SECONDS = 10
SUPER_JOBS = 2
PUBLISHED_CLASSIC = {  # total guesses over the 1296 secrets of 4×6
    "minimax": 5801,  # Knuth 1977
    "expected-size": 5696,  # Irving 1978
    "entropy": 5722,  # Neuwirth 1982 / Kooi 2005
    "most-parts": 5668,  # Kooi 2005
}
# Totals of every strategy on the bigger variants as the engine gave them before its
# 64-lane kernels: a faster engine must play the very same games.
EARLIER_TOTALS = {
    "4x8": {
        "first-consistent": 29544,
        "random-consistent": 22204,
        "minimax": 21230,
        "minimax-candidates": 21295,
        "expected-size": 20725,
        "entropy": 20688,
        "most-parts": 20896,
    },
    "bulls-and-cows": {
        "first-consistent": 28024,
        "random-consistent": 27532,
        "minimax": 27139,
        "minimax-candidates": 26983,
        "expected-size": 26551,
        "entropy": 26424,
        "most-parts": 26751,
    },
    "5x8": {
        "first-consistent": 250116,
        "random-consistent": 192116,
        "minimax": 183966,
        "minimax-candidates": 184723,
        "expected-size": 180287,
        "entropy": 179863,
        "most-parts": 181834,
    },
}
STRIDE, QUICK_STRIDE = 125, 431  # prime to 6, so the sample spreads over every colour


def warm_up() -> float:
    """Compile (or load) every kernel on small inputs; returns the seconds it took."""
    start = perf_counter()
    for name in mm.HEURISTICS:
        mm.evaluate(name, mm.Variant(3, 4))  # NumPy alone
        mm.evaluate(name, mm.Variant(4, 7))  # 2401 codes: the kernels
    mm.Variant(5, 8).feedback(0, np.arange(2))  # scoring without a table
    return perf_counter() - start


def run(variant: mm.Variant, name: str, jobs: int, aim: float | None = None) -> dict:
    start = perf_counter()
    result = mm.evaluate(name, variant, jobs=jobs)
    seconds = perf_counter() - start
    out = {
        "seconds": round(seconds, 4),
        "evaluate_seconds": round(result.seconds, 4),
        "total": result.total,
        "average": round(result.average, 4),
        "max": result.maximum,
        "first_guess": result.first_guess,
    }
    if aim is not None:
        out["aim_seconds"] = aim
        out["meets_aim"] = seconds < aim
    return out


def bench_variant(variant: mm.Variant, jobs: int, aim: float | None = None) -> dict:
    start = perf_counter()
    table = mm.feedback_table(variant)
    table_seconds = perf_counter() - start
    strategies = {}
    for name in mm.HEURISTICS:
        strategies[name] = run(variant, name, jobs, aim)
        seconds = strategies[name]["seconds"]
        label = f"{variant.pegs}×{variant.colours}{'' if variant.repeat else ' no repeat'}"
        print(f"  {label} jobs={jobs} {name}: {seconds} s", file=sys.stderr, flush=True)
    out = {
        "variant": variant.describe(),
        "codes": variant.size,
        "jobs": jobs,
        "feedback_table": table is not None,
        "table_seconds": round(table_seconds, 4) if table is not None else None,
        "strategies": strategies,
    }
    if aim is not None:
        out["aim_seconds"] = aim
        out["meets_aim"] = all(s["meets_aim"] for s in strategies.values())
    return out


def our_guesses(variant: mm.Variant, name: str, secret: int) -> list[tuple[int, ...]]:
    """hamle's guesses for ``secret``, one turn at a time through the public API."""
    strategy = mm.get_strategy(name)
    history = mm.History(variant)
    codes = variant.codes()
    guesses = []
    while True:
        guess = strategy.next_guess(history)
        guesses.append(tuple(int(c) for c in codes[guess]))
        if guess == secret:
            return guesses
        history = history.then(guess, variant.answer(*mm.score(variant, secret, guess)))


def written(guesses) -> str:
    """Classic codes (colours 0-based tuples) as the digits a player reads."""
    return " ".join("".join(str(c + 1) for c in guess) for guess in guesses)


def bench_baseline(classic: dict, stride: int, compute_first: bool) -> dict:
    variant = mm.Variant.classic()
    p, k = variant.pegs, variant.colours
    secrets = list(range(0, variant.size, stride))
    codes = variant.codes()
    out = {}
    for name in mm.HEURISTICS:
        ours = classic["strategies"][name]
        start = perf_counter()
        if compute_first:
            first = naive.first_guess(name, p, k)
        else:
            first = tuple(int(c) for c in codes[variant.parse(ours["first_guess"])])
        first_seconds = perf_counter() - start if compute_first else 0.0
        start = perf_counter()
        played = [
            naive.play_game(name, tuple(int(c) for c in codes[s]), p, k, first=first)
            for s in secrets
        ]
        sample_seconds = perf_counter() - start
        for secret, theirs in zip(secrets, played, strict=True):
            mine = our_guesses(variant, name, secret)
            if len(mine) != len(theirs) or mine != theirs:
                print(
                    f"baseline disagrees on {name}, secret {variant.format(secret)}: "
                    f"hamle {len(mine)} guesses ({written(mine)}), "
                    f"baseline {len(theirs)} ({written(theirs)})",
                    file=sys.stderr,
                )
                sys.exit(1)
        extrapolated = first_seconds + sample_seconds * variant.size / len(secrets)
        out[name] = {
            "seconds": ours["seconds"],
            "baseline_first_guess": written([first]),
            "baseline_first_guess_seconds": round(first_seconds, 3) if compute_first else None,
            "baseline_sample_seconds": round(sample_seconds, 3),
            "baseline_sample_guesses": sum(len(g) for g in played),
            "baseline_extrapolated_seconds": round(extrapolated, 1),
            "baseline_agrees": True,
            "ratio_baseline_over_ours": round(extrapolated / ours["seconds"]),
        }
        print(f"  baseline {name}: {extrapolated:.1f} s", file=sys.stderr, flush=True)
    return {
        "variant": variant.describe(),
        "baseline_stride": stride,
        "baseline_secrets": len(secrets),
        "baseline_sample": [variant.format(s) for s in secrets],
        "baseline_first_guess_computed": compute_first,
        "strategies": out,
    }


def published(classic: dict) -> dict:
    out = {}
    for name, figure in PUBLISHED_CLASSIC.items():
        ours = classic["strategies"][name]
        out[name] = {
            "published_total": figure,
            "total": ours["total"],
            "first_guess": ours["first_guess"],
            "matches_published": ours["total"] == figure,
        }
    return out


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/mastermind.json"
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    args = parser.parse_args()
    check_out(parser, args.out)
    started = perf_counter()
    report = {
        "benchmark": "mastermind",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "warmup_seconds": round(warm_up(), 3),
    }
    super_ = mm.Variant(5, 8)
    runs = {
        "4x6": bench_variant(mm.Variant.classic(), 1, AIM_CLASSIC_SECONDS),
        "4x8": bench_variant(mm.Variant(4, 8), 1),
        "bulls-and-cows": bench_variant(mm.Variant.named("bulls-and-cows"), 1),
        "5x8": bench_variant(super_, SUPER_JOBS, AIM_SUPER_SECONDS),
    }
    if not args.quick:
        runs["5x8-jobs-1"] = bench_variant(super_, 1)
    report["evaluations"] = runs
    report["same_totals_as_before"] = {
        key: all(runs[key]["strategies"][n]["total"] == t for n, t in totals.items())
        for key, totals in EARLIER_TOTALS.items()
    }
    classic = runs["4x6"]
    stride = QUICK_STRIDE if args.quick else STRIDE
    report["baseline"] = bench_baseline(classic, stride, compute_first=not args.quick)
    report["published"] = published(classic)
    report["matches_published"] = all(p["matches_published"] for p in report["published"].values())
    report["aims"] = {
        "every_4x6_evaluation_under_1_s": classic["meets_aim"],
        "every_5x8_evaluation_jobs_2_under_10_s": runs["5x8"]["meets_aim"],
    }
    report["meets_aim"] = all(report["aims"].values())
    report["baseline_agrees"] = all(
        s["baseline_agrees"] for s in report["baseline"]["strategies"].values()
    )
    report["benchmark_seconds"] = round(perf_counter() - started, 1)
    write_report(report, args.out)
    same = all(report["same_totals_as_before"].values())
    return 0 if report["baseline_agrees"] and same else 1


if __name__ == "__main__":
    sys.exit(main())
