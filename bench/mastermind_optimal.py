"""Optimal Mastermind benchmark: hamle's exact search beside fancidev's optimal solver.

For each case, ``optimal.solve`` from nothing remembered (the feedback table and the
kernels are made first, untimed): seconds, sets searched, the total, and whether the tree
passes ``tree.verify`` with that total; a search still running after ``--limit`` seconds
is stopped and reported with its sets searched and its bounds then. Beside it, in the
same run, fancidev/mastermind's ``mmstrat -r RULES -s optimal -S -q -mt 1`` (built by
``bash ../shared/peers/mastermind/fancidev/build.sh``), its process wall time; its runs
alternate with ours.

Cases: classic 4×6 (aim: total 5625; under 0.15 s of search), classic with at most 5
guesses (5626), and with ``--all`` 4×7 (11228) and Bulls and Cows (26274).

    .venv/bin/python bench/mastermind_optimal.py [--out FILE] [--limit S] [--all]
        [--fancidev FILE]
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import hamle.mastermind as mm
from hamle.mastermind import optimal
from hamle.mastermind.tree import tree_json, verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, write_report
from peers import fancidev_run, missing

SHARED = Path(__file__).resolve().parents[2] / "shared/peers/mastermind"
# name: (variant, max guesses, published optimum, fancidev rules or None)
CASES = {
    "classic": (mm.Variant.classic(), None, 5625, "mm"),
    "classic-at-most-5": (mm.Variant.classic(), 5, 5626, None),
    "4x7": (mm.Variant(4, 7), None, 11228, "p4c7r"),
    "bulls-and-cows": (mm.Variant.named("bulls-and-cows"), None, 26274, "bc"),
}


class Stopped(Exception):
    pass


def ours(variant: mm.Variant, cap: int | None, limit: float) -> dict:
    mm.feedback_table(variant)
    optimal.solve(mm.Variant(3, 3))  # the kernels, compiled or loaded
    start = perf_counter()
    seen: dict = {}

    def progress(nodes: int, lower: int, upper: int | None) -> None:
        seen.update(nodes=nodes, lower=lower, upper=upper)
        if perf_counter() - start > limit:
            raise Stopped

    try:
        solution = optimal.solve(variant, cap, progress)
    except Stopped:
        return {"finished": False, "after_seconds": limit, **seen}
    check = verify(tree_json(solution.tree, variant, "optimal", cap))
    return {
        "finished": True,
        "seconds": round(solution.seconds, 3),
        "sets_searched": solution.nodes,
        "total": solution.total,
        "worst": check.maximum,
        "first_guess": variant.format(solution.tree.guess),
        "tree_verified": check.total == solution.total,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results/mastermind_optimal.json"
    )
    parser.add_argument("--limit", type=float, default=600, help="seconds per search")
    parser.add_argument("--all", action="store_true", help="also 4×7 and Bulls and Cows")
    parser.add_argument("--fancidev", type=Path, default=Path("/tmp/peers/fancidev/mmstrat"))
    args = parser.parse_args()
    names = list(CASES) if args.all else ["classic", "classic-at-most-5"]
    gone = missing(args.fancidev, f"bash {SHARED / 'fancidev/build.sh'}")
    cases = {}
    for name in names:
        variant, cap, published, rules = CASES[name]
        print(f"{name} ...", file=sys.stderr, flush=True)
        row = {"variant": variant.describe(), "max_guesses": cap, "published_total": published}
        if rules is not None:
            row["fancidev"] = gone or fancidev_run(args.fancidev, rules, "optimal", 1)
        row["hamle"] = ours(variant, cap, args.limit)
        row["total_matches_published"] = row["hamle"].get("total") == published
        peer = row.get("fancidev", {})
        if row["hamle"]["finished"] and "seconds" in peer:
            row["ratio_hamle_over_fancidev"] = round(row["hamle"]["seconds"] / peer["seconds"], 1)
        cases[name] = row
    report = {
        "benchmark": "mastermind_optimal",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "limit_seconds": args.limit,
        "cases": cases,
        "aims": {
            "classic_under_0.15_s": cases["classic"]["hamle"].get("seconds", 1e9) < 0.15,
        },
    }
    write_report(report, args.out)
    ok = all(row["total_matches_published"] for row in cases.values() if row["hamle"]["finished"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
