"""Tour benchmark: the hint engine's quality and latency, beside a naive Python baseline.

The baseline is pure Python; beside it, the seed's algorithm written plainly in
JavaScript (run by Node.js).

Measured on one core, with ``time.perf_counter`` (Python) and ``process.hrtime.bigint``
(Node.js):

- quality: from each of the 100 start cells, a whole game following
  ``hint(position, "hint")``: how many fill the board (100), and which starts do not;
  beside Warnsdorff alone (``_kernels.finish`` once from the start position with its own
  Mulberry32 stream, state = ``position.seed()``): 80 of the 100 starts in the last run.
- speed: latency of ``hint(position, mode)`` for modes ``hint`` (120 rollouts) and
  ``quick`` (30), over the position before every move of a fixed, seeded set of games
  that are not all on winning paths: a human-like player (70 % of moves one of least
  onward degree, else a random legal move; start and choices from
  ``default_rng([game, 0])``) and the quick hint (start from ``default_rng([game, 1])``).
  Each call gets a freshly built ``Position`` (nothing cached); median, 95th percentile,
  mean and max in ms, after numba is warmed up.
  - baseline (``naive_tour.py``): the same algorithm in plain Python, timed on every
    k-th position; it must return the same move, value, exactness and rollout count as
    ours on each (``baseline_agrees``; the run exits 1 after printing a disagreement).
  - node peer (``tour_peer.js``): the seed's flat Monte Carlo (no exact search), timed
    by Node.js on every position after a JIT warm-up; where our answer came from Monte
    Carlo with no candidate proven complete, it must choose the same move (same
    streams, same rule). ``null`` with a reason when ``node`` is missing.
  - ratios: baseline median / ours (on the baseline's positions), node median / ours.

- keeps_tours: 2000 positions (``--keep-positions``) from mixed games (from a random
  start, each move random or of least onward degree with even odds, stopped 5 to 85
  moves deep; ``default_rng([game, 2])``). Whether a full board is still possible is
  decided before the hint and after its move (2000 Warnsdorff games, then a full-board
  search of ``PROOF_NODES``); per mode: ``lost`` (possible before, refuted after), the
  positions still undecided after, the hints given without a proof, and the latency
  (median, p99) over all positions. Aims: 0 lost; hint median under 2 ms and p99 under
  50 ms, quick under 1 ms and 20 ms.

The machine's load average (start, end) is recorded: other processes on a small machine
show up in the max and p95 more than in the median.

Aims: hint median under 2 ms, quick median under 1 ms, all 100 starts filled by the hint.

    .venv/bin/python bench/tour.py [--out FILE] [--quick] [--only-keep] [--keep-positions N]

``--quick`` measures 100 keeping positions unless ``--keep-positions`` is given.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.tour as tour
from hamle.tour import _kernels
from hamle.tour.board import CELLS, TARGETS
from hamle.tour.hint import ROLLOUTS, _search

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive_tour as naive
from machine import Arguments, at_most, check_out, machine, report_file, write_report

MODES = ("hint", "quick")
HUMAN_STREAM, HINT_STREAM = 0, 1
GREEDY_SHARE = 0.7
AIM_MS = {"hint": 2.0, "quick": 1.0}
KEEP_STREAM = 2
PROOF_NODES = 10_000_000
MAX_KEEP_POSITIONS = 100_000  # 50 times the 2000 of a full run, all built before the first
KEEP_AIM_MS = {"hint": {"median": 2.0, "p99": 50.0}, "quick": {"median": 1.0, "p99": 20.0}}
PEER = Path(__file__).resolve().parent / "tour_peer.js"


def latency(seconds: list[float]) -> dict:
    ms = np.array(seconds) * 1e3
    return {
        "median_ms": round(float(np.median(ms)), 4),
        "p95_ms": round(float(np.percentile(ms, 95)), 4),
        "mean_ms": round(float(ms.mean()), 4),
        "max_ms": round(float(ms.max()), 4),
    }


def warm_up() -> None:
    """Compile (or load from cache) every kernel the hint engine uses."""
    for path in ([0], [44, 47, 77], list(tour.solve(tour.Position.start(0)).path[:95])):
        for mode in MODES:
            tour.hint(tour.Position(tuple(path)), mode)
    start = tour.Position.start(0)
    _kernels.finish(
        *start.words(), 0, 1, TARGETS, np.array([1], np.uint64), np.empty(CELLS, np.int64)
    )


# --- quality -----------------------------------------------------------------------


def warnsdorff_alone(cell: int) -> int:
    position = tour.Position.start(cell)
    state = np.array([position.seed()], np.uint64)
    path = np.empty(CELLS, np.int64)
    return int(_kernels.finish(*position.words(), cell, 1, TARGETS, state, path))


def hint_game(cell: int, mode: str = "hint") -> tour.Position:
    position = tour.Position.start(cell)
    while not position.over:
        position = position.play(tour.hint(position, mode).move)
    return position


def bench_quality() -> dict:
    start = perf_counter()
    scores = {cell: hint_game(cell).count for cell in range(CELLS)}
    seconds = perf_counter() - start
    alone = {cell: warnsdorff_alone(cell) for cell in range(CELLS)}

    def summary(found: dict) -> dict:
        failing = [cell for cell, score in found.items() if score < CELLS]
        return {
            "complete": CELLS - len(failing),
            "failing_starts": [tour.GRID.name(c) for c in failing],
            "failing_scores": [found[c] for c in failing],
            "mean_score": round(statistics.fmean(found.values()), 2),
        }

    return {
        "starts": CELLS,
        "hint": {**summary(scores), "seconds": round(seconds, 3), "mode": "hint"},
        "warnsdorff_alone": summary(alone),
    }


# --- speed -------------------------------------------------------------------------


def human_game(game: int) -> list[tuple[int, ...]]:
    """Positions before each move of a human-like game (see the module docstring)."""
    rng = np.random.default_rng([game, HUMAN_STREAM])
    position = tour.Position.start(int(rng.integers(CELLS)))
    seen = []
    while not position.over:
        seen.append(position.path)
        moves = position.legal_moves()
        if rng.random() < GREEDY_SHARE:
            degrees = [len(position.play(m).legal_moves()) for m in moves]
            moves = [m for m, d in zip(moves, degrees, strict=True) if d == min(degrees)]
        position = position.play(moves[int(rng.integers(len(moves)))])
    return seen


def quick_hint_game(game: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng([game, HINT_STREAM])
    end = hint_game(int(rng.integers(CELLS)), "quick")
    return [end.path[:n] for n in range(1, end.count)]


def build_positions(human_games: int, hint_games: int) -> tuple[list, dict]:
    human = [p for g in range(1, human_games + 1) for p in human_game(g)]
    hinted = [p for g in range(1, hint_games + 1) for p in quick_hint_game(g)]
    counts = [len(p) for p in human + hinted]
    return human + hinted, {
        "human_like_games": human_games,
        "quick_hint_games": hint_games,
        "positions": len(counts),
        "from_human_like_games": len(human),
        "from_quick_hint_games": len(hinted),
        "filled_cells_median": statistics.median(counts),
        "filled_cells_range": [min(counts), max(counts)],
    }


def run_ours(paths: list, mode: str) -> tuple[list[float], list[tuple]]:
    """Seconds per call, and each answer as (move, value, exact, rollouts, chosen by
    rollout means alone: the rule the node peer also follows)."""
    seconds, answers = [], []
    gc.collect()
    for path in paths:
        position = tour.Position(path)  # fresh: its visited set is not cached yet
        start = perf_counter()
        h = tour.hint(position, mode)
        seconds.append(perf_counter() - start)
        # Comparable with the peer's flat Monte Carlo: every move was played out, and
        # the rounds that settle a full board (which play more games) did not run.
        n = ROLLOUTS[mode]
        pure = all(0 < c.rollouts <= n and c.complete is None for c in h.candidates)
        answers.append((h.move, h.value, h.exact, h.rollouts, pure))
    return seconds, answers


def bench_baseline(paths: list, ours: dict, every: int) -> dict:
    out = {"every_kth_position": every}
    disagreements = []
    for mode in MODES:
        picked = range(0, len(paths), every)
        seconds = []
        for i in picked:
            start = perf_counter()
            answer = naive.hint(list(paths[i]), mode)
            seconds.append(perf_counter() - start)
            h = ours[mode][1][i]
            if answer != h[:4]:
                disagreements.append(
                    {
                        "mode": mode,
                        "path": [tour.GRID.name(c) for c in paths[i]],
                        "ours": [tour.GRID.name(h[0]), *h[1:4]],
                        "baseline": [tour.GRID.name(answer[0]), *answer[1:]],
                    }
                )
        base = latency(seconds)
        mine = latency([ours[mode][0][i] for i in picked])
        out[mode] = {
            "positions": len(seconds),
            "baseline": base,
            "ours_same_positions": mine,
            "ratio_baseline_over_ours_median": round(base["median_ms"] / mine["median_ms"], 1),
        }
    out["disagreements"] = disagreements
    out["baseline_agrees"] = not disagreements
    return out


def node_version() -> str | None:
    node = shutil.which("node")
    if node is None:
        return None
    return subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()


def bench_node(paths: list, ours: dict, warmup: int) -> dict | None:
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "positions.json"
        data = {"positions": [list(p) for p in paths], "modes": list(MODES), "warmup": warmup}
        file.write_text(json.dumps(data))
        run = subprocess.run([node, str(PEER), str(file)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"node {PEER.name} failed:\n{run.stderr}")
    peer = json.loads(run.stdout)
    out = {"node": peer["node"], "positions": peer["positions"], "warmup_positions": warmup}
    for mode in MODES:
        figures = peer["modes"][mode]
        answers = ours[mode][1]
        comparable = [i for i, h in enumerate(answers) if h[4]]
        same = sum(figures["moves"][i] == answers[i][0] for i in comparable)
        mine = latency(ours[mode][0])
        out[mode] = {
            "median_ms": round(figures["median_ms"], 4),
            "p95_ms": round(figures["p95_ms"], 4),
            "mean_ms": round(figures["mean_ms"], 4),
            "ratio_node_over_ours_median": round(figures["median_ms"] / mine["median_ms"], 1),
            "same_move_as_ours": sum(
                m == h[0] for m, h in zip(figures["moves"], answers, strict=True)
            ),
            "pure_monte_carlo_positions": len(comparable),
            "same_move_where_ours_is_pure_monte_carlo": same,
        }
    out["agrees_where_comparable"] = all(
        out[m]["same_move_where_ours_is_pure_monte_carlo"] == out[m]["pure_monte_carlo_positions"]
        for m in MODES
    )
    return out


# --- keeping a full board -----------------------------------------------------------------


def mixed_position(game: int) -> tour.Position:
    """A position a person reaches: from a random start, each move random or of least
    onward degree with even odds, stopped 5 to 85 moves deep (a game over before that
    is replaced by the next draw of the same stream)."""
    rng = np.random.default_rng([game, KEEP_STREAM])
    while True:
        depth = int(rng.integers(5, 86))
        position = tour.Position.start(int(rng.integers(CELLS)))
        while position.count <= depth and not position.over:
            moves = position.legal_moves()
            if rng.random() < 0.5:
                degrees = [len(position.play(m).legal_moves()) for m in moves]
                moves = [m for m, d in zip(moves, degrees, strict=True) if d == min(degrees)]
            position = position.play(moves[int(rng.integers(len(moves)))])
        if position.count == depth + 1 and not position.over:
            return position


def fillable(position: tour.Position) -> bool | None:
    """Whether the board can still be filled: True with a full board found, False when
    the search refutes it, None when ``PROOF_NODES`` do not decide."""
    if position.count == CELLS:
        return True
    if position.over:
        return False
    state = np.array([position.seed()], np.uint64)
    proof = np.empty(CELLS, np.int64)
    words = (*position.words(), position.current, position.count, TARGETS)
    if _kernels.rollouts(*words, state, 2_000, proof)[1]:
        return True
    best, finished, _ = _search(position, PROOF_NODES, floor=CELLS - 1)
    return True if best == CELLS else (False if finished else None)


def bench_keeps_tours(count: int) -> dict:
    """Per mode, over ``count`` mixed positions: where a full board was possible before
    the hint and not after it (lost), and the latency of the hint."""
    positions = [mixed_position(game) for game in range(1, count + 1)]
    before = [fillable(p) for p in positions]
    out = {
        "positions": count,
        "filled_cells_median": statistics.median(p.count for p in positions),
        "fillable_before": {str(k): before.count(k) for k in (True, False, None)},
        "proof_nodes": PROOF_NODES,
    }
    for mode in MODES:
        seconds, lost, undecided, unproven = [], [], 0, 0
        gc.collect()
        for position, possible in zip(positions, before, strict=True):
            fresh = tour.Position(position.path)
            start = perf_counter()
            h = tour.hint(fresh, mode)
            seconds.append(perf_counter() - start)
            if possible is not True:
                continue
            chosen = next(c for c in h.candidates if c.move == h.move)
            unproven += chosen.complete is None
            after = fillable(position.play(h.move))
            undecided += after is None
            if after is False:
                lost.append(" ".join(tour.GRID.name(c) for c in position.path))
        out[mode] = {
            "lost": len(lost),
            "lost_positions": lost[:20],
            "undecided_after": undecided,
            "hint_without_proof": unproven,
            **latency(seconds),
            "p99_ms": round(float(np.percentile(np.array(seconds) * 1e3, 99)), 4),
            "aim_ms": KEEP_AIM_MS[mode],
            "meets_aim": len(lost) == 0
            and float(np.median(seconds)) * 1e3 < KEEP_AIM_MS[mode]["median"]
            and float(np.percentile(seconds, 99)) * 1e3 < KEEP_AIM_MS[mode]["p99"],
        }
    return out


def bench_speed(paths: list, baseline_every: int, node_warmup: int) -> dict:
    ours = {mode: run_ours(paths, mode) for mode in MODES}
    out = {}
    for mode in MODES:
        seconds, answers = ours[mode]
        monte_carlo = [s for s, h in zip(seconds, answers, strict=True) if h[3]]
        out[mode] = {
            **latency(seconds),
            "aim_median_ms": AIM_MS[mode],
            "meets_aim": float(np.median(seconds)) * 1e3 < AIM_MS[mode],
            "monte_carlo_positions": len(monte_carlo),
            "monte_carlo_positions_latency": latency(monte_carlo) if monte_carlo else None,
        }
    out["baseline"] = bench_baseline(paths, ours, baseline_every)
    node = bench_node(paths, ours, node_warmup)
    out["node_peer"] = node
    if node is None:
        out["node_peer_missing"] = "node (Node.js) is not on PATH"
    return out


def machine_with_node() -> dict:
    return {**machine(), "node": node_version()}


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/tour.json"
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    parser.add_argument(
        "--keep-positions",
        type=at_most(MAX_KEEP_POSITIONS),
        help=f"keeping positions (default 2000, quick 100; at most {MAX_KEEP_POSITIONS:,})",
    )
    parser.add_argument("--only-keep", action="store_true", help="only the keeping section")
    args = parser.parse_args()
    check_out(parser, args.out)
    human_games, hint_games = (6, 2) if args.quick else (60, 12)
    keep = args.keep_positions if args.keep_positions is not None else (100 if args.quick else 2000)
    if args.only_keep:
        warm_up()
        report = {
            "benchmark": "tour",
            "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
            "quick": args.quick,
            "only_keep": True,
            "machine": machine(),
            "keeps_tours": bench_keeps_tours(keep),
        }
        write_report(report, args.out)
        return 0
    warm_up()
    paths, games = build_positions(human_games, hint_games)
    report = {
        "benchmark": "tour",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine_with_node(),
        "quality": bench_quality(),
        "speed": {
            "games": games,
            **bench_speed(paths, 4 if args.quick else 12, 100 if args.quick else 500),
        },
    }
    report["keeps_tours"] = bench_keeps_tours(keep)
    report["machine"]["load_average_1_min_at_end"] = round(os.getloadavg()[0], 2)
    quality, speed = report["quality"], report["speed"]
    report["aims"] = {
        "hint_median_under_2_ms": speed["hint"]["meets_aim"],
        "quick_median_under_1_ms": speed["quick"]["meets_aim"],
        "all_100_starts_reach_100": quality["hint"]["complete"] == CELLS,
        "no_full_board_lost_hint": report["keeps_tours"]["hint"]["meets_aim"],
        "no_full_board_lost_quick": report["keeps_tours"]["quick"]["meets_aim"],
    }
    baseline, node = speed["baseline"], speed["node_peer"]
    report["checks_passed"] = baseline["baseline_agrees"] and (
        node is None or node["agrees_where_comparable"]
    )
    write_report(report, args.out)
    for row in baseline["disagreements"]:
        print(f"baseline disagrees: {json.dumps(row, ensure_ascii=False)}", file=sys.stderr)
    return 0 if report["checks_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
