"""Expert Battleship benchmark: ``expert`` beside ``density`` and ``exact`` on the same games.

Every shooter plays the numbered games (the same fleets and streams as ``play_game``),
shot by shot, each decision timed with ``time.perf_counter``, in ``--jobs`` processes:

- ``classic``: games 1..``--games`` of ``density`` and ``expert``, games 1..``--exact-games``
  of ``exact`` (seconds per game make 10,000 out of reach for it): mean shots with standard
  errors, the paired difference ``expert − density`` (and ``expert − exact`` on the games both
  played) with its standard error, and the decision time median, p99 and maximum;
  ``exact_map``: the empty classic map and one exact game shot by shot (from
  ``bench/exact.py``).
- ``russian``: the same on games 1..``--russian-games``, with the exact shooter's core
  minutes for the run.
- ``russian_exact_run``: the exact shooter alone on Russian games 1..``--exact-run-games``
  in one process, where its decision cache serves every game (in ``--jobs`` processes each
  one works out again the opening boards the others have already met).
- ``russian_advantage`` and ``classic_advantage``: what the picks of ``expert`` (and of
  ``exact`` under Russian rules) save on the rollouts' base along their own games
  1..``--advantage-games`` (``bench/advantage.py``, 4000 fleets a decision); the base's
  whole-game mean (``base``, without its opening) minus that saving, a mean far finer than
  whole games give; how many shots fewer than ``density`` that is (the saving plus what the
  base saves on ``density`` in ``base``); and under Russian rules the savings' difference
  paired by game: how many shots fewer ``expert`` needs than ``exact``.
- ``thread_times``: the expert's decisions on games 1..``--thread-games`` of each rule set
  in one process alone, as on the site, on one thread and on every core (its default; the
  picks are the same), interleaved game by game: median, p99, maximum and the speed-up.
- ``site_moves``: games 1..``--site-games`` at the site's Expert level of each rule set,
  every move request (your shot and the computer's reply) timed through the site's API.
  ``--speed-only`` writes these two alone (``results/expert_speed.json``, minutes).
  ``--classic-only`` leaves out every Russian part but the speed figures (the slower half).
- ``base``: the rollouts' base (``ExpertShooter(candidates=1, exact_targets=0)``) on games
  1..``--base-games`` of each rule set, whole games in one kernel call, beside the same base
  without its opening (``strategies/openings.py``) and without the classic checkerboard
  either, and ``density`` on the same games, paired.

Aims (``aims``): ``expert`` at most 43.5 shots under classic rules (by whole games, and by
the finer mean), ``expert − density`` below zero by more than 3 standard errors (by whole
games, and by the finer measure), median
decision under 100 ms, the site's Expert moves within 300 ms at the 99th percentile; under
Russian rules ``expert`` ahead of ``exact`` (by whole games, and
by the finer measure); the empty classic map under 2 s and later exact shots under 50 ms
median; the Russian 1000-game exact run under 10 core-minutes.

    .venv/bin/python bench/expert.py [--out FILE] [--games N] [--exact-games M]
                                     [--russian-games R] [--exact-run-games E]
                                     [--base-games B] [--advantage-games A]
                                     [--thread-games T] [--site-games S] [--jobs J]
                                     [--quick] [--speed-only] [--classic-only]
"""

from __future__ import annotations

import math
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter, process_time

import numpy as np
from fastapi.testclient import TestClient

import hamle.battleship as bs
from hamle import stats
from hamle.battleship import _kernels
from hamle.battleship.fleet import Ocean, random_fleet
from hamle.battleship.simulate import MAX_GAMES
from hamle.battleship.strategies import get_shooter
from hamle.battleship.strategies.expert_shooter import CORES, rollout_tables
from hamle.battleship.strategies.openings import opening_cells
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream
from hamle.web import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))
import advantage as advantage_bench
import exact as exact_bench
from machine import Arguments, check_out, jobs_count, machine, report_file, write_report

AIM_CLASSIC_MEAN = 43.5
AIM_MEDIAN_MS = 100
AIM_SITE_MS = 300  # a computer shot on the site, at the 99th percentile
AIM_EXACT_CORE_MINUTES = 10
ADVANTAGE_FLEETS = 4000


def play_timed(rules: bs.Rules, strategy, games: list[int]) -> dict:
    """Play ``games`` with ``strategy`` (a name or a shooter) as ``play_game`` does; shots
    per game, every decision's seconds and the process's CPU seconds."""
    shooter = get_shooter(strategy) if isinstance(strategy, str) else strategy
    small = bs.Rules.custom(4, [2, 1], touching=rules.touching)
    shooter.choose(bs.Observation.start(small), np.random.default_rng(0))  # compile first
    # and a hit open, with the shortest ship sunk along the first row (exact targets)
    sunk = [list(range(min(rules.lengths)))]
    target = bs.Observation.from_marks(rules, sunk=sunk, hit=[rules.cells - 1])
    shooter.choose(target, np.random.default_rng(0))
    shots, times = [], []
    cpu = process_time()
    for game in games:
        ocean = Ocean(random_fleet(rules, game_stream(game, FLEET_STREAM)))
        rng = game_stream(game, SHOOTER_STREAM)
        fired = 0
        while not ocean.over:
            start = perf_counter()
            cell = shooter.choose(ocean.observation, rng)
            times.append(perf_counter() - start)
            ocean.fire(cell)
            fired += 1
        shots.append(fired)
    return {"shots": shots, "times": times, "cpu": process_time() - cpu}


def thread_times(rules: bs.Rules, games: int) -> dict:
    """The expert's decisions on games 1..games in this process alone, on one thread and on
    every core (``CORES``), the two interleaved game by game (each game's first by turns):
    median, p99 and maximum, and how many times sooner every core makes the decisions.
    The picks are the same, so the shots must be too."""
    counts = tuple(sorted({1, CORES}))
    timed = {threads: {"shots": [], "times": []} for threads in counts}
    for game in range(1, games + 1):
        for threads in counts if game % 2 else counts[::-1]:
            shooter = bs.ExpertShooter(threads=threads)
            part = play_timed(rules, shooter, [game])
            timed[threads]["shots"] += part["shots"]
            timed[threads]["times"] += part["times"]
    if timed[1]["shots"] != timed[CORES]["shots"]:
        raise SystemExit("the expert's shots changed with its threads")
    rows = {}
    for threads, part in timed.items():
        times = np.array(part["times"]) * 1e3
        rows[f"threads_{threads}"] = {
            "decisions": len(times),
            "total_seconds": round(float(times.sum()) / 1e3, 2),
            **_ms(times),
        }
    one, every = rows["threads_1"], rows[f"threads_{CORES}"]
    return {
        "games": [1, games],
        "cores": CORES,
        **rows,
        "speedup": round(one["total_seconds"] / every["total_seconds"], 2),
        "p99_speedup": round(one["p99"] / every["p99"], 2),
    }


def site_moves(rules_name: str, games: int) -> dict:
    """Games 1..games at the site's Expert level under ``rules_name``, played through its
    API in this process (the app, its SQLite store and JSON, no network): the seconds of
    every move request, your shot and the computer's reply. Your fleet is game g's uniform
    fleet, the computer's seed is g, and you fire in an order drawn from g (skipping known
    water), so the computer finishes first and every one of its shots is timed."""
    rules = bs.Rules.named(rules_name)
    times = []
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(Path(folder) / "db")) as client,
    ):
        store = client.app.state.store
        for game in range(1, games + 1):
            fleet = random_fleet(rules, game_stream(game, FLEET_STREAM))
            cells = [[rules.grid.name(cell) for cell in ship] for ship in fleet.ships]
            body = {"rules": rules_name, "level": "expert", "fleet": cells}
            made = client.post("/api/battleship/games", json=body).json()
            with store.update("battleship", made["id"]) as state:
                state["seed"] = game
            order = np.random.default_rng(game).permutation(rules.cells)
            marks = made["enemy"]["marks"]
            for cell in order:
                if marks[cell] == "water":  # beside a sunk ship: the site refuses it
                    continue
                start = perf_counter()
                answer = client.post(
                    f"/api/battleship/games/{made['id']}/shots",
                    json={"cell": rules.grid.name(int(cell))},
                )
                times.append(perf_counter() - start)
                if answer.status_code != 200:
                    raise SystemExit(f"the site refused a move: {answer.text}")
                if answer.json()["game"]["over"]:
                    break
                marks = answer.json()["game"]["enemy"]["marks"]
    return {
        "games": [1, games],
        "shooter": made["shooter"],
        "moves": len(times),
        **_ms(np.array(times) * 1e3),
    }


def _ms(times: np.ndarray) -> dict:
    """Median, p99 and maximum of ``times`` (milliseconds), and their unit."""
    return {
        "unit": "ms",
        "median": round(float(np.median(times)), 3),
        "p99": round(float(np.percentile(times, 99)), 3),
        "max": round(float(times.max()), 3),
    }


def run(rules: bs.Rules, strategy: str, games: int, jobs: int) -> dict:
    """``play_timed`` over games 1..games in ``jobs`` processes (games dealt round robin;
    an expert rolls out on its process's share of the cores)."""
    chunks = [list(range(1 + j, games + 1, jobs)) for j in range(jobs)]
    shooter = advantage_bench.for_processes(get_shooter(strategy), jobs)
    start = perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(play_timed, [rules] * jobs, [shooter] * jobs, chunks))
    wall = perf_counter() - start
    shots = np.zeros(games, np.int64)
    for chunk, part in zip(chunks, parts, strict=True):
        shots[np.array(chunk) - 1] = part["shots"]
    times = np.concatenate([part["times"] for part in parts]) * 1e3
    return {
        "strategy": strategy,
        "games": games,
        "mean": round(float(shots.mean()), 3),
        "standard_error": round(float(shots.std(ddof=1) / math.sqrt(games)), 3),
        "median_shots": float(np.median(shots)),
        "decisions": len(times),
        "decision_ms": _ms(times),
        "wall_seconds": round(wall, 1),
        "core_minutes": round(sum(part["cpu"] for part in parts) / 60, 2),
        "shots": shots.tolist(),
    }


def paired(ours: dict, other: dict) -> dict:
    """Mean of (ours − other) shots over the games both played, its standard error and z
    (``hamle.stats.paired``: None over one game, and z where the games differ alike), and
    the games ours needed fewer, equal and more shots."""
    n = min(ours["games"], other["games"])
    diffs = np.array(ours["shots"][:n]) - np.array(other["shots"][:n])
    difference = stats.paired(ours["shots"][:n], other["shots"][:n])
    return {
        "games": n,
        "against": other["strategy"],
        "mean_difference": round(difference["mean"], 3),
        "standard_error": _rounded(difference["stderr"], 3),
        "z": _rounded(difference["z"], 2),
        "fewer": int((diffs < 0).sum()),
        "equal": int((diffs == 0).sum()),
        "more": int((diffs > 0).sum()),
    }


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def base_games(rules: bs.Rules, games: int) -> dict:
    """The rollouts' base (``ExpertShooter(candidates=1, exact_targets=0)``) on games 1..games,
    whole games in one kernel call, beside the same base without its opening and without the
    checkerboard either, and ``density`` (paired)."""
    fleets = [random_fleet(rules, game_stream(game, FLEET_STREAM)) for game in range(1, games + 1)]
    boards = np.array([fleet.board() for fleet in fleets])
    afloat = np.array([len(ship) for ship in fleets[0].ships], np.int64)
    tables = rollout_tables(rules)
    opening, none = opening_cells(rules), np.empty(0, np.int64)
    rows = {}

    def add(name: str, play, *args) -> None:
        start = process_time()
        shots = play(*args)
        rows[name] = {
            "strategy": name,
            "games": games,
            "mean": round(float(shots.mean()), 3),
            "standard_error": round(float(shots.std(ddof=1) / math.sqrt(games)), 3),
            "cpu_seconds": round(process_time() - start, 2),
            "shots": shots.tolist(),
        }

    for name, checker, cells in (
        ("base", tables.checker, opening),
        ("without_opening", tables.checker, none),
        ("without_checkerboard", False, none),
    ):
        add(name, _kernels.ranked_games, boards, afloat, tables._replace(checker=checker), cells)
    add("density", lambda: bs.play_games(rules, "density", range(1, games + 1)).shots)
    return {
        **rows,
        "opening": [rules.grid.name(int(cell)) for cell in opening],
        "opening_difference": paired(rows["base"], rows["without_opening"]),
        "checkerboard_difference": paired(rows["without_opening"], rows["without_checkerboard"]),
        "density_difference": paired(rows["density"], rows["without_opening"]),
    }


def table(rules: bs.Rules, counts: dict[str, int], jobs: int) -> dict:
    rows = {name: run(rules, name, games, jobs) for name, games in counts.items()}
    expert = rows["expert"]
    return {
        "rules": rules.describe(),
        "shooters": rows,
        "expert_vs_density": paired(expert, rows["density"]),
        "expert_vs_exact": paired(expert, rows["exact"]),
    }


def advantage_table(rules_name: str, names: list[str], games: int, jobs: int, base: dict) -> dict:
    """What the picks of each shooter of ``names`` save on the rollouts' base along its own
    games 1..games (``bench/advantage.py``), and the mean shots that puts it at: the base's
    whole-game mean (``base_games``, without its opening) minus the saving; and how many
    shots fewer than ``density`` that is: the saving plus what the base saves on
    ``density`` along the same games as its mean, paired."""
    without_opening = base["without_opening"]
    on_density = base["density_difference"]
    numbers = list(range(1, games + 1))
    table = {"games": [1, games], "fleets": ADVANTAGE_FLEETS}
    for name in names:
        row = advantage_bench.measure(
            rules_name, get_shooter(name), numbers, ADVANTAGE_FLEETS, jobs
        )
        saved = row["saved_on_base"]["all"]
        row["mean_shots"] = {
            "mean": round(without_opening["mean"] - saved["mean"], 3),
            "se": round(math.hypot(without_opening["standard_error"], saved["se"]), 3),
        }
        fewer = saved["mean"] + on_density["mean_difference"]
        spreads = (saved["se"], on_density["standard_error"])  # (None over one game)
        se = None if None in spreads else math.hypot(*spreads)
        row["fewer_than_density"] = {
            "mean": round(fewer, 3),
            "se": _rounded(se, 3),
            "z": round(fewer / se, 2) if se else None,
        }
        table[name] = row
    return table


def russian_part(report: dict, games: int, exact_run_games: int, advantage_games: int, jobs: int):
    """The Russian table, the exact shooter's run in one process and the finer means."""
    russian = bs.Rules.russian()
    counts = dict.fromkeys(("density", "expert", "exact"), games)
    report["russian"] = table(russian, counts, jobs)
    report["russian_exact_run"] = run(russian, "exact", exact_run_games, 1)
    advantage = advantage_table(
        "russian",
        ["expert", "exact"],
        advantage_games,
        jobs,
        report["base"]["russian"],
    )
    advantage["expert_fewer_than_exact"] = advantage_bench.fewer_shots(
        advantage["expert"], advantage["exact"]
    )
    report["russian_advantage"] = advantage


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=report_file,
        help="default results/expert.json (expert_speed.json with --speed-only)",
    )
    parser.add_argument("--games", type=int, help="classic games of density and expert")
    parser.add_argument("--exact-games", type=int, help="classic games of exact")
    parser.add_argument("--russian-games", type=int, help="Russian games of every shooter")
    parser.add_argument("--exact-run-games", type=int, help="Russian games of exact in one process")
    parser.add_argument("--base-games", type=int, help="games of the rollouts' base per rules")
    parser.add_argument("--advantage-games", type=int, help="games of the finer means per rules")
    parser.add_argument("--thread-games", type=int, help="games per rules timed alone")
    parser.add_argument("--jobs", type=jobs_count, default=2, help="processes")
    parser.add_argument("--site-games", type=int, help="games per rules through the site")
    parser.add_argument(
        "--speed-only",
        action="store_true",
        help="only thread_times and site_moves (minutes, not hours)",
    )
    parser.add_argument(
        "--classic-only",
        action="store_true",
        help="no Russian games (the speed figures still cover both rule sets)",
    )
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    args = parser.parse_args()
    sizes = ("games", "exact_games", "russian_games", "exact_run_games", "base_games")
    sizes += ("advantage_games", "thread_games", "site_games")
    for name in sizes:  # two at least, for a standard error
        option = f"--{name.replace('_', '-')}"
        if (value := getattr(args, name)) is not None and value < 2:
            parser.error(f"{option} must be at least 2, not {value}")
        if value is not None and value > MAX_GAMES:
            parser.error(f"{option} must be at most {MAX_GAMES:,}, not {value}")
    if args.speed_only and (unused := [name for name in sizes[:-2] if getattr(args, name)]):
        options = ", ".join(f"--{name.replace('_', '-')}" for name in unused)
        parser.error(f"--speed-only times only --thread-games and --site-games, not {options}")
    games = args.games or (20 if args.quick else 10_000)
    exact_games = args.exact_games or (4 if args.quick else 1000)
    russian_games = args.russian_games or (4 if args.quick else 1000)
    exact_run_games = args.exact_run_games or (4 if args.quick else 1000)
    base = args.base_games or (200 if args.quick else 100_000)
    advantage_games = args.advantage_games or (2 if args.quick else 400)
    thread_games = args.thread_games or (2 if args.quick else 10)
    site_games = args.site_games or (2 if args.quick else 10)
    file_name = "expert_speed.json" if args.speed_only else "expert.json"
    out = args.out or Path(__file__).parent / "results" / file_name
    check_out(parser, out)
    classic, russian = bs.Rules.classic(), bs.Rules.russian()
    report = {
        "benchmark": "expert",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "classic_only": args.classic_only,
        "jobs": args.jobs,
        "machine": machine(),
        "thread_times": {
            "classic": thread_times(classic, thread_games),
            "russian": thread_times(russian, thread_games),
        },
        "site_moves": {name: site_moves(name, site_games) for name in ("classic", "russian")},
    }
    report["aims"] = {
        "site_expert_move_p99_within_300_ms": all(
            moves["p99"] <= AIM_SITE_MS for moves in report["site_moves"].values()
        ),
    }
    if args.speed_only:
        write_report(report, out)
        return 0
    report["base"] = {"classic": base_games(classic, base)}
    if not args.classic_only:
        report["base"]["russian"] = base_games(russian, base)
    report["exact_map"] = exact_bench.bench_classic(quick=True)
    if not args.classic_only:
        russian_part(report, russian_games, exact_run_games, advantage_games, args.jobs)
        write_report(report, out)  # the part done so far, should a long run be cut short
    counts = {"density": games, "expert": games, "exact": exact_games}
    report["classic"] = table(classic, counts, args.jobs)
    report["classic_advantage"] = advantage_table(
        "classic",
        ["expert"],
        advantage_games,
        args.jobs,
        report["base"]["classic"],
    )
    c = report["classic"]
    tables = [c] if args.classic_only else [c, report["russian"]]
    exact_map = report["exact_map"]
    report["aims"] |= {
        "classic_expert_at_most_43_5": c["shooters"]["expert"]["mean"] <= AIM_CLASSIC_MEAN,
        "classic_expert_at_most_43_5_by_advantage": (
            report["classic_advantage"]["expert"]["mean_shots"]["mean"] <= AIM_CLASSIC_MEAN
        ),
        "classic_expert_below_density_by_3_se": bool(
            c["expert_vs_density"]["z"] and c["expert_vs_density"]["z"] < -3
        ),
        "classic_expert_below_density_by_3_se_by_advantage": bool(
            (z := report["classic_advantage"]["expert"]["fewer_than_density"]["z"]) and z > 3
        ),
        "expert_median_decision_under_100_ms": all(
            t["shooters"]["expert"]["decision_ms"]["median"] < AIM_MEDIAN_MS for t in tables
        ),
        **exact_map["aims"],
    }
    if not args.classic_only:
        r = report["russian"]
        report["aims"] |= {
            "russian_expert_ahead_of_exact": r["expert_vs_exact"]["mean_difference"] < 0,
            "russian_expert_ahead_of_exact_by_advantage": (
                report["russian_advantage"]["expert_fewer_than_exact"]["mean"] > 0
            ),
            "russian_exact_run_under_10_core_minutes": (
                report["russian_exact_run"]["games"] >= 1000
                and report["russian_exact_run"]["core_minutes"] < AIM_EXACT_CORE_MINUTES
            ),
        }
    report["checks_passed"] = exact_map["checks_passed"]
    write_report(report, out)
    return 0 if report["checks_passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
