"""Optimal Mastermind benchmark: hamle's exact search beside fancidev's optimal solver.

For each case, ``optimal.solve`` from nothing remembered (the feedback table and the
kernels are made first, untimed): seconds, sets searched, the total, and whether the tree
passes ``tree.verify`` with that total; a search still running after ``--limit`` seconds
is stopped and reported with its sets searched and its bounds then. Beside it, in the
same run, fancidev/mastermind's ``mmstrat -r RULES -s optimal -S -q -mt 1`` (built by
``bash ../shared/peers/mastermind/fancidev/build.sh``), its process wall time; its runs
alternate with ours: one thread each, then two (``jobs=2``, ``-mt 2``). The aims are
taken on two threads, the cores of the machine they were set for.

Then the same search with symmetry switched off (every code tried at every set; the
whole search then runs in the kernel, which keeps no memo, so this is also the run with
both off) and with the memo switched off. One that does not finish within ``--limit``
is extrapolated by sampling: once the optimum is found, the search tries every first
guess whose bound is below it, each against that optimum; the mean seconds of that
search for first guesses drawn at random (seeded; 2 to 32 of them, as many as
``--budget`` seconds allow), times the number of such guesses, estimate its time (an
underestimate: the search before the optimum is found, with looser limits, is left out).

Cases: classic 4×6 (aim: total 5625; under 0.15 s of search), classic with at most 5
guesses (5626), 4×7 (11228; aim: under 20 s) and Bulls and Cows (26274; aim: under 10
minutes). ``--quick``: the classic cases only; ``--cases`` given with it wins.

    .venv/bin/python bench/mastermind_optimal.py [--out FILE] [--limit S] [--quick] [--cases ...]
        [--budget S] [--fancidev FILE]
"""

from __future__ import annotations

import json
import multiprocessing
import queue
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.mastermind as mm
from hamle.mastermind import _kernels, optimal
from hamle.mastermind.tree import tree_json, verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import (
    Arguments,
    at_most,
    check_out,
    machine,
    no_repeats,
    positive_float,
    report_file,
    write_report,
)
from peers import fancidev_run, missing

SHARED = Path(__file__).resolve().parents[2] / "shared/peers/mastermind"
# name: (variant, max guesses, published optimum, fancidev rules or None)
CASES = {
    "classic": (mm.Variant.classic(), None, 5625, "mm"),
    "classic-at-most-5": (mm.Variant.classic(), 5, 5626, None),
    "4x7": (mm.Variant(4, 7), None, 11228, "p4c7r"),
    "bulls-and-cows": (mm.Variant.named("bulls-and-cows"), None, 26274, "bc"),
}


SWITCHED = {"symmetry_off": {"symmetry": False}, "memo_off": {"memo": False}}
WEEK = 7 * 24 * 3600  # the most seconds --limit and --budget take (a wait's timeout overflows)


def ours(variant: mm.Variant, cap: int | None, limit: float, jobs=1, **switches) -> dict:
    """One search, in a child process stopped ``limit`` seconds after the search starts
    (the whole search may run in one kernel call, which nothing stops from inside)."""
    context = multiprocessing.get_context("fork")
    messages = context.Queue()
    child = context.Process(target=_search, args=(messages, variant, cap, jobs, switches))
    child.start()
    seen: dict = {}
    try:
        messages.get(timeout=600)  # the table and the kernels, made untimed
        deadline = perf_counter() + limit
        while True:
            kind, data = messages.get(timeout=max(deadline - perf_counter(), 0.01))
            if kind == "done":
                return data
            seen.update(data)
    except queue.Empty:
        return {"finished": False, "after_seconds": limit, **seen}
    finally:
        child.kill()
        child.join()


def _search(messages, variant: mm.Variant, cap, jobs: int, switches: dict) -> None:
    mm.feedback_table(variant)
    optimal.solve(mm.Variant(3, 3))  # the kernels, compiled or loaded
    messages.put(("started", None))

    def progress(nodes: int, lower: int, upper: int | None) -> None:
        messages.put(("progress", {"nodes": nodes, "lower": lower, "upper": upper}))

    solution = optimal.solve(variant, cap, progress, jobs=jobs, **switches)
    check = verify(tree_json(solution.tree, variant, "optimal", cap))
    result = {
        "finished": True,
        "seconds": round(solution.seconds, 3),
        "sets_searched": solution.nodes,
        "total": solution.total,
        "worst": check.maximum,
        "first_guess": variant.format(solution.tree.guess),
        "tree_verified": check.total == solution.total,
    }
    messages.put(("done", result))


def sampled(variant: mm.Variant, cap, optimum: int, budget: float, **switches) -> dict:
    """The seconds of the switched-off search estimated as the module docstring says,
    from 2 to 32 first guesses sampled, as many as ``budget`` seconds allow; a sample
    still running then is stopped and counted at the seconds it had (a lower bound)."""
    flags = {"symmetric": switches.get("symmetry", True), "remember": switches.get("memo", True)}
    search = optimal._Search(variant, cap, **flags)
    everything = np.arange(variant.size, dtype=np.int32)
    symmetry = optimal.Symmetry.of(variant) if search.symmetric else search.plain
    pool = optimal._pool(variant, symmetry)
    bounds, _, _ = _kernels.guess_bounds(
        search.table, pool, everything, variant.answer_slots, search.win, search.least
    )
    tried = [(int(g), int(b)) for g, b in zip(pool, bounds, strict=True) if 0 <= b < optimum]
    drawn = random.Random(1).sample(tried, min(32, len(tried)))
    depth = cap or variant.size
    seconds, cut = [], False
    context = multiprocessing.get_context("fork")
    for guess, bound in drawn:
        if (len(seconds) >= 2 and sum(seconds) > budget) or cut:
            break

        def one(messages, guess=guess, bound=bound) -> None:
            search = optimal._Search(variant, cap, **flags)
            start = perf_counter()
            search._guess_cost(everything, guess, symmetry, depth, optimum, bound)
            messages.put(perf_counter() - start)

        messages = context.Queue()
        child = context.Process(target=one, args=(messages,))
        child.start()
        left = max(budget - sum(seconds), 1.0)
        try:
            seconds.append(messages.get(timeout=left))
        except queue.Empty:  # stopped: the sample took at least the time left
            seconds.append(left)
            cut = True
        finally:
            child.kill()
            child.join()
    mean = sum(seconds) / len(seconds)
    return {
        "estimated_seconds": round(mean * len(tried), 1),
        "estimate_is_a_lower_bound": cut,
        "first_guesses_below_the_optimum": len(tried),
        "sampled": [variant.format(g) for g, _ in drawn[: len(seconds)]],
        "sample_seconds": [round(x, 3) for x in seconds],
    }


def report(cases: dict, limit: float, budget: float, quick: bool) -> dict:
    """The JSON report of the cases run so far."""

    def under(name: str, seconds: float) -> bool | None:
        """Whether the case ran within ``seconds`` on two threads (None: not run)."""
        if name not in cases:
            return None
        return cases[name]["hamle_two_threads"].get("seconds", float("inf")) < seconds

    return {
        "benchmark": "mastermind_optimal",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": quick,
        "machine": machine(),
        "limit_seconds": limit,
        "budget_seconds": budget,
        "cases": cases,
        "aims": {
            "classic_under_0.15_s": under("classic", 0.15),
            "4x7_under_20_s": under("4x7", 20),
            "bulls_and_cows_under_600_s": under("bulls-and-cows", 600),
        },
    }


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/mastermind_optimal.json"
    )
    seconds = at_most(WEEK, positive_float, " seconds (a week)")
    parser.add_argument(
        "--limit", type=seconds, default=600, help="seconds per search (at most a week)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the classic cases only (unless --cases is given)"
    )
    parser.add_argument("--cases", nargs="+", choices=list(CASES), help="these cases only")
    parser.add_argument(
        "--budget", type=seconds, default=120, help="seconds of sampling (at most a week)"
    )
    parser.add_argument("--fancidev", type=Path, default=Path("/tmp/peers/fancidev/mmstrat"))
    args = parser.parse_args()
    check_out(parser, args.out)
    if args.cases is not None:
        no_repeats(parser, "--cases", args.cases)
        names = args.cases
    else:
        names = ["classic", "classic-at-most-5"] if args.quick else list(CASES)
    gone = missing(args.fancidev, f"bash {SHARED / 'fancidev/build.sh'}")
    cases, settings = {}, (args.limit, args.budget, args.quick)
    for name in names:
        variant, cap, published, rules = CASES[name]
        print(f"{name} ...", file=sys.stderr, flush=True)
        row = {"variant": variant.describe(), "max_guesses": cap, "published_total": published}
        for threads, suffix in ((1, ""), (2, "_two_threads")):
            if rules is not None:
                peer = gone or fancidev_run(args.fancidev, rules, "optimal", threads)
                row["fancidev" + suffix] = peer
            run = row["hamle" + suffix] = ours(variant, cap, args.limit, threads)
            if rules is not None and run["finished"] and "seconds" in peer:
                ratio = round(peer["seconds"] / run["seconds"], 2)
                row["ratio_fancidev_over_hamle" + suffix] = ratio
        row["total_matches_published"] = row["hamle"].get("total") == published
        for label, switches in SWITCHED.items():
            print(f"{name}, {label} ...", file=sys.stderr, flush=True)
            run = ours(variant, cap, args.limit, **switches)
            if not run["finished"]:
                run.update(sampled(variant, cap, published, args.budget, **switches))
            row[label] = run
        cases[name] = row
        write_report(report(cases, *settings), args.out)  # kept as each case ends

    print(json.dumps(report(cases, *settings)["aims"]), file=sys.stderr)
    ok = all(row["total_matches_published"] for row in cases.values() if row["hamle"]["finished"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
