"""Peers benchmark: hamle beside public solvers of the same puzzles, in the same run.

Each row times hamle and its peer one after the other, interleaved (hamle, peer, hamle,
peer, … ``--repeat`` times), and reports every run, the best and the median, and the
ratio peer / hamle (above 1: hamle is faster; taken on the best runs, the median ratio
beside it). A peer binary that is missing gives ``"built": false`` and how to build it;
hamle is measured all the same. The peers are built outside the repository (under
``$TMPDIR/peers``, default ``/tmp/peers``) and nothing of them is committed.

- ``super-1``: Super Mastermind 5×8, one thread. hamle: a fresh ``python -c`` process
  imports ``hamle.mastermind`` (nothing warmed up in it) and times
  ``evaluate(strategy, Variant.named("super"), jobs=1)`` with ``perf_counter``
  (``seconds``; ``Evaluation.seconds`` beside it as ``evaluation_seconds``); the process
  wall time is ``process_seconds``. Peer: mikemag/Mastermind's CPU solver
  (``mm_5p8c_{Knuth,ExpectedSize,Entropy,MostParts}``, run from its ``run/`` folder);
  its own "Elapsed time" line is ``seconds`` (it excludes process start, like ours) and
  its process wall time ``process_seconds``; average and worst turns are parsed from its
  output, the total from the ``mastermind_run_stats.json`` it writes. ``ratio`` =
  peer seconds / hamle seconds, ``ratio_process`` = the two process wall times. Extra,
  outside the aim (full runs only): fancidev/mastermind's ``mmstrat -mt 1``, one run.
- ``super-2``: the same with two: hamle ``jobs=2`` against fancidev's ``mmstrat -r lg
  -s {minmax|minavg|entropy|parts} -S -q -mt 2``, which prints only ``total:max:count
  at max``, so its ``seconds`` is its process wall time (its start-up, ``mmstrat -v``,
  is reported as ``peer_start_seconds``: a few milliseconds).
- ``classic``: Mastermind 4×6, whole processes: ``hamle mastermind evaluate --strategy S
  --json`` against mikemag's ``mm_4p6c_*`` and fancidev's ``mmstrat -r mm ... -mt 1``.
- ``battleship``: one density decision on classic rules. hamle's figures come from
  ``bench/battleship.py``: ``bench_density_kernel`` (positions before every shot of
  density games 1..K: the decision in a numba loop, and through ``Shooter.choose``) and
  ``bench_game_kernel`` (1000 games through ``play_games``, one core; only the density
  shooter's figures are kept). Peer: Jeimel/Battleship (Rust, 128-bit bitboards): a
  harness, built apart and not committed (``--jeimel PATH`` or ``HAMLE_PEER_JEIMEL``),
  times its ``Board::max_density_index`` and prints JSON with ``decision_us`` (positions
  before every shot of K games it plays itself), fixed positions (empty board, misses,
  one or two open hits) and ``games_seconds`` for 1000 of its games. Its density is a
  simpler one (every placement clear of misses, +100 beside each hit), so the ratio
  compares speed of a decision, not its quality (mean shots are given beside).
- ``startup``: wall time of ``hamle --help`` and ``hamle mastermind score 1122 1234``,
  median of at least 5 runs (no peer).

Before the timed runs one process loads (or compiles) hamle's Mastermind kernels into
numba's on-disk cache; a timed hamle run during which the cache was written (a kernel
compiled, here or in another process sharing the cache) is kept with ``"discarded":
true`` and run again, once (a second such run counts, flagged ``compiled_during_run``).
Each process command is run once untimed before its row. Aims (``meets_aim``): hamle
faster than mikemag on every 5×8 strategy with one thread and than fancidev with two
(best runs); every 4×6 evaluation process under 0.3 s (median); the density decision
under 5 µs in the kernel and 10 µs through ``choose``, 1000 density games under 0.5 s
(best); both start-ups under 0.25 s (median). ``--repeat N``: runs of each (default 3,
and 1 on 5×8). ``--quick``: only minimax and most-parts on 5×8, one run of each, fewer
Battleship positions, no fancidev ``-mt 1``.

    .venv/bin/python bench/peers.py [--out FILE] [--quick] [--rows super-1,classic,...]
        [--repeat N] [--mikemag DIR] [--fancidev FILE] [--jeimel FILE]
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import (
    Arguments,
    check_out,
    machine,
    no_repeats,
    positive_int,
    report_file,
    write_report,
)

HERE = Path(__file__).resolve().parent

PEERS = Path(os.environ.get("TMPDIR") or "/tmp") / "peers"
SHARED = Path("/work/shared/peers/mastermind")
ROWS = ("super-1", "super-2", "classic", "battleship", "startup")
STRATEGIES = {  # hamle name: (mikemag algorithm, fancidev strategy)
    "minimax": ("Knuth", "minmax"),
    "expected-size": ("ExpectedSize", "minavg"),
    "entropy": ("Entropy", "entropy"),
    "most-parts": ("MostParts", "parts"),
}
QUICK_STRATEGIES = ("minimax", "most-parts")
AIM_CLASSIC_PROCESS_SECONDS = 0.3
AIM_KERNEL_DECISION_US = 5
AIM_CHOOSE_US = 10
AIM_GAMES_SECONDS = 0.5
AIM_STARTUP_SECONDS = 0.25
STARTUP_RUNS = 5
TIMEOUT = 1800

HAMLE_EVALUATE = """
import json, sys
from time import perf_counter
started = perf_counter()
import hamle.mastermind as mm
imported = perf_counter()
result = mm.evaluate(sys.argv[2], mm.Variant.named(sys.argv[1]), jobs=int(sys.argv[3]))
seconds = perf_counter() - imported
print(json.dumps({
    "seconds": seconds, "evaluation_seconds": result.seconds,
    "import_seconds": imported - started, "total": result.total,
    "average": result.average, "max": result.maximum, "first_guess": result.first_guess,
}))
"""

PRIME = """
import numpy as np
import hamle.mastermind as mm
for name in mm.HEURISTICS:
    mm.evaluate(name, mm.Variant(3, 4))
    mm.evaluate(name, mm.Variant.classic())
mm.evaluate("most-parts", mm.Variant(3, 4), jobs=2)
mm.Variant(5, 8).feedback(0, np.arange(2))
"""


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def hamle_command() -> list[str]:
    """The ``hamle`` console script of this interpreter's environment."""
    beside = Path(sys.executable).with_name("hamle")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("hamle")
    return [found] if found else [sys.executable, "-c", "from hamle.cli import main; main()"]


def cache_stamp() -> tuple[int, float]:
    """(files, newest mtime) of numba's on-disk cache for hamle: changes when a kernel
    compiles."""
    roots = [Path(os.environ["NUMBA_CACHE_DIR"])] if os.environ.get("NUMBA_CACHE_DIR") else []
    spec = importlib.util.find_spec("hamle")
    if spec and spec.submodule_search_locations:
        roots += [Path(p) for p in spec.submodule_search_locations]
    files = [f for root in roots for ext in ("nbi", "nbc") for f in root.rglob(f"*.{ext}")]
    return len(files), max((f.stat().st_mtime for f in files), default=0.0)


def process(command: list[str], cwd: Path | None = None) -> dict:
    """Run ``command``; its wall time, stdout, and an error when it failed."""
    start = perf_counter()
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"process_seconds": round(perf_counter() - start, 4), "error": str(error)}
    out = {"process_seconds": round(perf_counter() - start, 4), "stdout": done.stdout}
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        out["error"] = f"exit {done.returncode}: " + " | ".join(tail)
    return out


def hamle_run(command: list[str], parse) -> dict:
    """One timed hamle process; run again (once) if numba's cache was written during it
    (a kernel compiled: by this run, or by another process sharing the cache)."""
    runs = []
    for attempt in range(2):
        before = cache_stamp()
        run = process(command)
        compiled = cache_stamp() != before
        if "error" not in run:
            try:
                run.update(parse(run["stdout"]))
            except (ValueError, KeyError) as error:
                run["error"] = f"unreadable output: {error}"
        run.pop("stdout")
        runs.append(run)
        if compiled:
            run["compiled_during_run"] = True
        if not compiled or "error" in run or attempt == 1:
            break
        run["discarded"] = True
    return runs


def hamle_json(text: str) -> dict:
    data = json.loads(text.strip().splitlines()[-1])
    out = {
        key: round(data[key], 4) if isinstance(data[key], float) else data[key]
        for key in ("seconds", "evaluation_seconds", "import_seconds", "total", "average", "max")
        if key in data
    }
    out["first_guess"] = data["first_guess"]
    return out


def cli_json(text: str) -> dict:
    data = json.loads(text)
    return {
        "evaluation_seconds": round(data["seconds"], 4),
        "total": data["total"],
        "average": round(data["average"], 4),
        "max": data["max"],
        "first_guess": data["first_guess"],
    }


def mikemag_run(binary: Path) -> dict:
    run_dir = binary.parent / "run"
    stats = run_dir / "mastermind_run_stats.json"
    started = datetime.now().timestamp()
    run = process([str(binary)], cwd=run_dir)
    text = run.pop("stdout", "")
    if "error" in run:
        return run
    patterns = {
        "seconds": r"Elapsed time ([\d.]+)\s*s",
        "average": r"Average number of turns was ([\d.]+)",
        "max": r"Maximum number of turns over all possible secrets was (\d+)",
        "first_guess": r"Initial guess: (\d+)",
    }
    for key, pattern in patterns.items():
        found = re.search(pattern, text)
        if not found:
            run["error"] = f"no {key!r} in its output"
            return run
        run[key] = found.group(1) if key == "first_guess" else float(found.group(1))
    run["max"] = int(run["max"])
    run["verified"] = "Verified solution" in text
    if stats.exists() and stats.stat().st_mtime >= started - 1:
        try:
            figures = [e["run"] for e in json.loads(stats.read_text()) if "run" in e][-1]
            run["total"] = figures["Total Turns"]
            run["seconds"] = round(figures["Elapsed (s)"], 4)
        except (ValueError, KeyError, IndexError):
            pass
    return run


def fancidev_run(binary: Path, rules: str, strategy: str, threads: int) -> dict:
    command = [str(binary), "-r", rules, "-s", strategy, "-S", "-q", "-mt", str(threads)]
    run = process(command)
    text = run.pop("stdout", "")
    if "error" in run:
        return run
    found = re.search(r"(\d+):(\d+):(\d+)\s*$", text)
    if not found:
        run["error"] = f"unexpected output {text.strip()[-80:]!r}"
        return run
    total, worst, at_worst = (int(x) for x in found.groups())
    run.update(seconds=run["process_seconds"], total=total, max=worst, count_at_max=at_worst)
    return run


def summary(runs: list[dict], key: str = "seconds") -> dict:
    """Best and median of ``key`` (and of process_seconds) over the kept runs."""
    kept = [r for r in runs if not r.get("discarded")]
    if not kept or any("error" in r for r in kept):
        errors = [r["error"] for r in kept if "error" in r]
        return {"runs": runs, "error": errors[0] if errors else "no run"}
    out: dict = {"runs": runs}
    for name in dict.fromkeys((key, "process_seconds")):
        values = [r[name] for r in kept]
        out[f"best_{name}"] = round(min(values), 4)
        out[f"median_{name}"] = round(statistics.median(values), 4)
    for name in ("total", "average", "max", "first_guess", "verified"):
        if name in kept[-1]:
            out[name] = kept[-1][name]
    return out


def ratios(hamle: dict, peer: dict, key: str = "seconds") -> dict:
    """peer / hamle on the best and the median runs, and on process wall times."""
    if "error" in hamle or "error" in peer:
        return {"ratio": None}
    out = {
        "ratio": round(peer[f"best_{key}"] / hamle[f"best_{key}"], 3),
        "ratio_median": round(peer[f"median_{key}"] / hamle[f"median_{key}"], 3),
    }
    if key != "process_seconds":
        out["ratio_process"] = round(
            peer["best_process_seconds"] / hamle["best_process_seconds"], 3
        )
    return out


def missing(path: Path, how: str) -> dict | None:
    if path.is_file() and os.access(path, os.X_OK):
        return None
    return {"built": False, "path": str(path), "how": how}


def mikemag_how() -> str:
    return f"bash {SHARED / 'mikemag/build.sh'}"


def fancidev_how() -> str:
    return f"bash {SHARED / 'fancidev/build.sh'}"


def prime() -> dict:
    """Load (or compile) hamle's Mastermind kernels into numba's cache, untimed."""
    start = perf_counter()
    run = process([sys.executable, "-c", PRIME])
    out = {"seconds": round(perf_counter() - start, 2)}
    if "error" in run:
        out["error"] = run["error"]
    return out


def bench_super(
    strategies, jobs: int, repeat: int, mikemag: Path, fancidev: Path, extra: bool
) -> dict:
    """Row super-1 (``jobs=1`` against mikemag) or super-2 (``jobs=2`` against fancidev)."""
    if jobs == 1:
        peer_name, how = "mikemag", mikemag_how()
        gone = {a: missing(mikemag / f"mm_5p8c_{a}", how) for a, _ in STRATEGIES.values()}
    else:
        peer_name, how = "fancidev", fancidev_how()
        gone = dict.fromkeys((f for _, f in STRATEGIES.values()), missing(fancidev, how))
    out: dict = {
        "variant": "super (5 pegs, 8 colours, repetition)",
        "jobs": jobs,
        "peer": peer_name,
        "peer_command": (
            f"cd {mikemag}/run && ../mm_5p8c_<Knuth|ExpectedSize|Entropy|MostParts>"
            if jobs == 1
            else f"{fancidev} -r lg -s <minmax|minavg|entropy|parts> -S -q -mt 2"
        ),
        "repetitions": repeat,
        "strategies": {},
    }
    if jobs == 2 and not gone["parts"]:
        start = process([str(fancidev), "-v"])
        out["peer_start_seconds"] = start["process_seconds"]
    for name in strategies:
        algorithm, strategy = STRATEGIES[name]
        peer_key = algorithm if jobs == 1 else strategy
        hamle_runs, peer_runs = [], []
        command = [sys.executable, "-c", HAMLE_EVALUATE, "super", name, str(jobs)]
        for _ in range(repeat):
            hamle_runs += hamle_run(command, hamle_json)
            say(f"  5×8 jobs={jobs} {name}: hamle {hamle_runs[-1].get('seconds')} s")
            if gone[peer_key]:
                continue
            if jobs == 1:
                peer_runs.append(mikemag_run(mikemag / f"mm_5p8c_{algorithm}"))
            else:
                peer_runs.append(fancidev_run(fancidev, "lg", strategy, 2))
            say(f"  5×8 jobs={jobs} {name}: {peer_name} {peer_runs[-1].get('seconds')} s")
        hamle = summary(hamle_runs)
        row = {"hamle": hamle}
        if gone[peer_key]:
            row[peer_name] = gone[peer_key]
            row.update(ratio=None, meets_aim=None)
        else:
            peer = summary(peer_runs)
            row[peer_name] = peer | {"built": True}
            row.update(ratios(hamle, peer))
            row["meets_aim"] = None if row["ratio"] is None else row["ratio"] > 1
            if "error" in hamle:
                row["meets_aim"] = False
        if jobs == 1 and extra:
            if missing(fancidev, fancidev_how()):
                row["extra_fancidev_mt1"] = missing(fancidev, fancidev_how())
            else:
                one = summary([fancidev_run(fancidev, "lg", strategy, 1)])
                say(f"  5×8 {name}: fancidev -mt 1 {one.get('best_seconds')} s (extra)")
                row["extra_fancidev_mt1"] = one | ratios(hamle, one)
        out["strategies"][name] = row
    verdicts = [s["meets_aim"] for s in out["strategies"].values()]
    out["aim"] = f"hamle faster than {peer_name} on every strategy (best runs)"
    out["meets_aim"] = None if None in verdicts else all(verdicts)
    return out


def bench_classic(strategies, repeat: int, mikemag: Path, fancidev: Path) -> dict:
    hamle = hamle_command()
    out: dict = {
        "variant": "classic (4 pegs, 6 colours, repetition)",
        "hamle_command": "hamle mastermind evaluate --strategy S --json",
        "repetitions": repeat,
        "aim_process_seconds": AIM_CLASSIC_PROCESS_SECONDS,
        "strategies": {},
    }
    for name in strategies:
        algorithm, strategy = STRATEGIES[name]
        command = [*hamle, "mastermind", "evaluate", "--strategy", name, "--json"]
        binary = mikemag / f"mm_4p6c_{algorithm}"
        gone = {
            "mikemag": missing(binary, mikemag_how()),
            "fancidev": missing(fancidev, fancidev_how()),
        }
        process(command)  # untimed: file cache and numba cache
        runs: dict[str, list] = {"hamle": [], "mikemag": [], "fancidev": []}
        for _ in range(repeat):
            runs["hamle"] += hamle_run(command, cli_json)
            if not gone["mikemag"]:
                runs["mikemag"].append(mikemag_run(binary))
            if not gone["fancidev"]:
                runs["fancidev"].append(fancidev_run(fancidev, "mm", strategy, 1))
        ours = summary(runs["hamle"], "process_seconds")
        row: dict = {"hamle": ours}
        for peer in ("mikemag", "fancidev"):
            if gone[peer]:
                row[peer] = gone[peer]
                continue
            theirs = summary(runs[peer], "process_seconds")
            row[peer] = theirs | {"built": True}
            row[f"ratio_{peer}"] = ratios(ours, theirs, "process_seconds")["ratio"]
        median = ours.get("median_process_seconds")
        row["meets_aim"] = median is not None and median < AIM_CLASSIC_PROCESS_SECONDS
        say(f"  4×6 {name}: hamle process {median} s")
        out["strategies"][name] = row
    out["aim"] = f"every hamle process under {AIM_CLASSIC_PROCESS_SECONDS} s (median)"
    out["meets_aim"] = all(s["meets_aim"] for s in out["strategies"].values())
    return out


def jeimel_run(binary: Path, games: int, repeat: int) -> dict:
    run = process([str(binary), "--games", str(games), "--repeat", str(repeat)])
    text = run.pop("stdout", "")
    if "error" not in run:
        try:
            run.update(json.loads(text))
        except ValueError as error:
            run["error"] = f"unreadable output: {error}"
    return run


def bench_battleship(repeat: int, quick: bool, jeimel: Path) -> dict:
    games, inner, slow_games = (3, 2, 2) if quick else (20, 5, 10)
    out: dict = {
        "rules": "classic",
        "repetitions": repeat,
        "games_for_positions": games,
        "inner_repetitions": inner,
        "aim_kernel_us": AIM_KERNEL_DECISION_US,
        "aim_choose_us": AIM_CHOOSE_US,
        "aim_1000_games_seconds": AIM_GAMES_SECONDS,
    }
    gone = None
    if not (jeimel.is_file() and os.access(jeimel, os.X_OK)):
        gone = {
            "built": False,
            "path": str(jeimel),
            "how": "a Rust harness timing Jeimel/Battleship's Board::max_density_index, "
            "built apart (not committed); pass its path with --jeimel or HAMLE_PEER_JEIMEL",
        }
    try:
        bench = importlib.import_module("battleship")  # bench/battleship.py
        rules = bench.bs.Rules.classic()
    except Exception as error:  # someone's half-made change must not stop the other rows
        bench, failure = None, f"bench/battleship.py did not import: {error!r}"
    hamle_runs, peer_runs = [], []
    for _ in range(repeat):
        run: dict = {}
        if bench is None:
            run["error"] = failure
        else:
            try:
                kernel = bench.bench_density_kernel(rules, games, inner)
                played = bench.bench_game_kernel(rules, 1000, slow_games)["shooters"]["density"]
                run = {
                    key: kernel[key]
                    for key in (
                        "positions",
                        "kernel_in_numba_loop_us",
                        "kernel_called_from_python_us",
                        "best_cells_us",
                        "choose_us",
                        "decisions_differing_from_old_path",
                    )
                } | {"games_seconds": played["seconds"], "mean_shots": played["mean_shots"]}
            except Exception as error:
                run["error"] = f"bench/battleship.py failed: {error!r}"
        hamle_runs.append(run)
        say(f"  battleship: hamle {run.get('kernel_in_numba_loop_us')} µs in the kernel")
        if gone:
            continue
        peer_runs.append(jeimel_run(jeimel, games, inner))
        say(f"  battleship: jeimel {peer_runs[-1].get('decision_us')} µs")
    out["hamle"] = hamle = fold(
        hamle_runs, ("kernel_in_numba_loop_us", "choose_us", "games_seconds")
    )
    if "error" not in hamle:
        hamle["meets_aim"] = (
            hamle["best_kernel_in_numba_loop_us"] < AIM_KERNEL_DECISION_US
            and hamle["best_choose_us"] < AIM_CHOOSE_US
            and hamle["best_games_seconds"] < AIM_GAMES_SECONDS
        )
    if gone:
        out["jeimel"] = gone
    else:
        peer = fold(peer_runs, ("decision_us", "games_seconds")) | {"built": True}
        out["jeimel"] = peer
        if "error" not in hamle and "error" not in peer:
            decision = peer["best_decision_us"]
            out["ratio_over_kernel"] = round(decision / hamle["best_kernel_in_numba_loop_us"], 2)
            out["ratio_over_choose"] = round(decision / hamle["best_choose_us"], 2)
            out["ratio_games"] = round(peer["best_games_seconds"] / hamle["best_games_seconds"], 2)
    out["aim"] = (
        "decision under 5 µs in the kernel and 10 µs through choose; 1000 games under 0.5 s"
    )
    out["meets_aim"] = hamle.get("meets_aim", False)
    return out


def fold(runs: list[dict], keys) -> dict:
    """Every run, and best and median of each of ``keys``."""
    errors = [r["error"] for r in runs if "error" in r]
    if errors or not runs:
        return {"runs": runs, "error": errors[0] if errors else "no run"}
    out: dict = {"runs": runs}
    for key in keys:
        values = [r[key] for r in runs]
        out[f"best_{key}"] = min(values)
        out[f"median_{key}"] = round(statistics.median(values), 4)
    return out


def bench_startup(runs: int) -> dict:
    hamle = hamle_command()
    commands = {
        "help": [*hamle, "--help"],
        "score": [*hamle, "mastermind", "score", "1122", "1234"],
    }
    for command in commands.values():
        process(command)  # untimed
    times: dict[str, list] = {name: [] for name in commands}
    errors = {}
    for _ in range(runs):
        for name, command in commands.items():
            run = process(command)
            times[name].append(run["process_seconds"])
            if "error" in run:
                errors[name] = run["error"]
    out: dict = {"runs": runs, "aim_seconds": AIM_STARTUP_SECONDS}
    for name, command in commands.items():
        median = round(statistics.median(times[name]), 4)
        out[name] = {
            "command": " ".join(["hamle", *command[len(hamle) :]]),
            "seconds": times[name],
            "best_seconds": min(times[name]),
            "median_seconds": median,
            "meets_aim": name not in errors and median < AIM_STARTUP_SECONDS,
        }
        if name in errors:
            out[name]["error"] = errors[name]
        say(f"  start-up {name}: {median} s")
    out["aim"] = f"both under {AIM_STARTUP_SECONDS} s (median)"
    out["meets_aim"] = all(out[name]["meets_aim"] for name in commands)
    return out


def cell(value, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:.3g}{unit}" if isinstance(value, float) else f"{value}{unit}"


def figure(figures: dict, key: str, unit: str) -> str:
    """One figure of a summary for the table, or why there is none."""
    if figures.get("built") is False:
        return "not built"
    return "error" if "error" in figures else cell(figures.get(key), unit)


def table(rows: dict) -> str:
    """A short table of the report for people."""
    lines = [f"{'row':<11} {'case':<16} {'hamle':>10} {'peer':>10} {'ratio':>7}  aim"]

    def line(row, case, ours, theirs, ratio, aim):
        verdict = {True: "yes", False: "NO", None: "?"}[aim]
        lines.append(f"{row:<11} {case:<16} {ours:>10} {theirs:>10} {cell(ratio):>7}  {verdict}")

    for key in ("super-1", "super-2"):
        if key not in rows:
            continue
        row = rows[key]
        for name, s in row["strategies"].items():
            peer = s[row["peer"]]
            line(
                key,
                name,
                figure(s["hamle"], "best_seconds", " s"),
                figure(peer, "best_seconds", " s"),
                s.get("ratio"),
                s["meets_aim"],
            )
    if "classic" in rows:
        for name, s in rows["classic"]["strategies"].items():
            peer = s["mikemag"]
            line(
                "classic",
                name,
                figure(s["hamle"], "median_process_seconds", " s"),
                figure(peer, "median_process_seconds", " s"),
                s.get("ratio_mikemag"),
                s["meets_aim"],
            )
    if "battleship" in rows:
        b = rows["battleship"]
        ours, peer = b["hamle"], b["jeimel"]
        kernel, choose, games = (
            "best_kernel_in_numba_loop_us",
            "best_choose_us",
            "best_games_seconds",
        )
        for what, mine, theirs, unit, ratio in (
            ("decision kernel", kernel, "best_decision_us", " µs", "ratio_over_kernel"),
            ("decision choose", choose, "best_decision_us", " µs", "ratio_over_choose"),
            ("1000 games", games, games, " s", "ratio_games"),
        ):
            line(
                "battleship",
                what,
                figure(ours, mine, unit),
                figure(peer, theirs, unit),
                b.get(ratio),
                b["meets_aim"],
            )
    if "startup" in rows:
        for name in ("help", "score"):
            s = rows["startup"][name]
            line("startup", name, cell(s["median_seconds"], " s"), "-", None, s["meets_aim"])
    lines += [
        "ratio = peer / hamle (above 1: hamle faster); best runs, classic and startup medians.",
        "peers: super-1 mikemag (its elapsed time), super-2 fancidev -mt 2 (process),",
        "classic mikemag (process; fancidev in the JSON), battleship Jeimel/Battleship (Rust).",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=report_file, default=HERE / "results/peers.json")
    parser.add_argument("--quick", action="store_true", help="a small smoke-test run")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"comma-separated, of: {', '.join(ROWS)}"
    )
    parser.add_argument(
        "--repeat", type=positive_int, help="runs of each (default 3; 1 on 5×8 and with --quick)"
    )
    parser.add_argument(
        "--mikemag",
        type=Path,
        default=Path(os.environ.get("HAMLE_PEER_MIKEMAG") or PEERS / "mikemag"),
        help="folder of mikemag's binaries (env HAMLE_PEER_MIKEMAG)",
    )
    parser.add_argument(
        "--fancidev",
        type=Path,
        default=Path(os.environ.get("HAMLE_PEER_FANCIDEV") or PEERS / "fancidev/mmstrat"),
        help="fancidev's mmstrat (env HAMLE_PEER_FANCIDEV)",
    )
    parser.add_argument(
        "--jeimel",
        type=Path,
        default=Path(os.environ.get("HAMLE_PEER_JEIMEL") or PEERS / "jeimel/jeimel-density"),
        help="the Jeimel/Battleship timing harness (env HAMLE_PEER_JEIMEL)",
    )
    args = parser.parse_args()
    chosen = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in chosen if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {', '.join(unknown)}; choose from {', '.join(ROWS)}")
    if not chosen:
        parser.error(f"--rows names no row; choose from {', '.join(ROWS)}")
    no_repeats(parser, "--rows", chosen)
    check_out(parser, args.out)
    fast = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    slow = args.repeat if args.repeat is not None else 1
    strategies = QUICK_STRATEGIES if args.quick else tuple(STRATEGIES)
    started = perf_counter()
    report: dict = {
        "benchmark": "peers",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "machine": machine(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "peers": {
            "mikemag": str(args.mikemag),
            "fancidev": str(args.fancidev),
            "jeimel": str(args.jeimel),
        },
    }
    if {"super-1", "super-2", "classic"} & set(chosen):
        say("priming hamle's Mastermind kernels")
        report["prime"] = prime()
    rows: dict = {}
    for row in chosen:
        say(f"{row}:")
        if row in ("super-1", "super-2"):
            jobs = 1 if row == "super-1" else 2
            extra = not args.quick
            rows[row] = bench_super(strategies, jobs, slow, args.mikemag, args.fancidev, extra)
        elif row == "classic":
            rows[row] = bench_classic(tuple(STRATEGIES), fast, args.mikemag, args.fancidev)
        elif row == "battleship":
            rows[row] = bench_battleship(fast, args.quick, args.jeimel)
        else:
            rows[row] = bench_startup(max(STARTUP_RUNS, fast))
    report["rows"] = rows
    report["aims"] = {row: rows[row]["meets_aim"] for row in chosen}
    report["meets_aim"] = all(v is True for v in report["aims"].values())
    report["benchmark_seconds"] = round(perf_counter() - started, 1)
    write_report(report, args.out)
    print()
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
