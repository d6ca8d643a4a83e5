"""Tournament benchmark: shooters × placers on the same numbered games.

- ``matrix``: under classic rules, random, parity and density against every placer on
  games 1..``--games``, and ``expert`` (the strongest shooter that has landed) on games
  1..``--expert-games`` (its games cost about two seconds each): mean shots, standard error,
  median, worst, and per shooter the paired difference against ``uniform``.
- ``russian``: the same for random, parity, density and ``exact`` (the site's strongest
  shooter there) on games 1..``--russian-games`` (``exact`` on ``--exact-games``).
- ``strongest``: per rule set, the placer of one law (not a mixture) that raises the
  strongest shooter's mean most.
- ``wall_seconds``: one fixed tournament (parity and density × every placer, games
  1..``--timed-games``) with ``--jobs 1``, ``--jobs 2`` and on a local Dask cluster of two
  one-thread worker processes, alternated ``--repeat`` times.

Aims (``aims``): an adversarial placer raises density's mean by at least 1.5 shots, more
than 3 standard errors above zero; the cluster run within 15 % of ``--jobs 2``.

The full run takes hours (an expert game costs about 2 core-seconds), so the matrices'
games are kept in blocks of ``BLOCK`` in ``--store`` as they finish: a run that is
stopped goes on where it stopped. A stored pairing is used only where it was played under
what decides this run's games (``pairing_key``: the same hamle source, NumPy, rules,
shooter and placer with its settings) and not edited since; otherwise it is played again,
and the run says why. ``--matrices-only`` fills the store and the matrices and leaves the
timing out; ``--rules classic`` or ``russian`` plays one rule set's matrix only.

    .venv/bin/python bench/tournament.py [--games N] [--expert-games M] [--quick]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import hamle.battleship as bs
from hamle.battleship.simulate import MAX_GAMES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import Arguments, at_most, check_out, jobs_count, machine, report_file, write_report

PLACERS = list(bs.PLACERS)
AIM_ADDED = 1.5


BLOCK = 50  # games per stored block of a pairing
# sizes of a full run and of --quick, for the options not given
FULL = {"games": 2000, "expert_games": 2000, "russian_games": 2000, "exact_games": 2000}
FULL |= {"timed_games": 500, "repeat": 3}
QUICK = {"games": 100, "expert_games": 20, "russian_games": 100, "exact_games": 20}
QUICK |= {"timed_games": 100, "repeat": 1}


class Store:
    """Shots of finished blocks, per rule set, shooter and placer, in a JSON file: each
    pairing's blocks under the key of what decides its games (``pairing_key``) and a
    digest of the key and the blocks, so that blocks played by other code or settings, or
    edited since, are told apart."""

    def __init__(self, path: Path) -> None:
        """ValueError naming the fault if ``path`` holds anything but such blocks."""
        self.path = path
        self.data = {}
        if path.exists() and path.stat().st_size:
            try:
                self.data = json.loads(path.read_text())
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise ValueError(f"{path} is not JSON ({exc})") from None
        if _is_store(self.data, pairing=_is_blocks):  # (from before keys: none trusted)
            self.data = _nested(self.data, lambda blocks: {"key": None, "blocks": blocks})
        if not _is_store(self.data):
            raise ValueError(
                f"{path} is not a store of tournament games (rules → shooter → placer → "
                "key, digest and blocks: first game → shots); give another --store"
            )

    def pairing(self, rules: bs.Rules, shooter: str, placer: str) -> dict:
        where = self.data.setdefault(rules.describe(), {}).setdefault(shooter, {})
        return where.setdefault(placer, {"key": None, "blocks": {}})

    def blocks(self, rules: bs.Rules, shooter: str, placer: str) -> dict:
        return self.pairing(rules, shooter, placer)["blocks"]

    def save(self) -> None:
        for by_shooter in self.data.values():
            for by_placer in by_shooter.values():
                for stored in by_placer.values():
                    stored["digest"] = _digest(stored["key"], stored["blocks"])
        partial = self.path.with_suffix(".partial")
        partial.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(self.data))
        os.replace(partial, self.path)  # a run killed while saving keeps the old file

    def trusted(self, rules: bs.Rules, shooter: str, placer: str) -> None:
        """Drop the pairing's blocks, saying so, unless they were played under the key of
        this run (the same hamle, NumPy, rules, shooter and placer) and not edited since;
        the pairing then has this run's key."""
        stored = self.pairing(rules, shooter, placer)
        key = pairing_key(rules, shooter, placer)
        if stored["blocks"]:
            why = None
            if stored["key"] != key:
                changed = sorted(
                    name for name in key if (stored["key"] or {}).get(name) != key[name]
                )
                why = f"played under another {', '.join(changed)}"
            elif stored.get("digest") != _digest(stored["key"], stored["blocks"]):
                why = "edited since they were played"
            if why:
                print(
                    f"{shooter} × {placer}: stored games {why}, playing them again",
                    file=sys.stderr,
                )
                stored["blocks"].clear()
        stored["key"] = key


def pairing_key(rules: bs.Rules, shooter: str, placer: str) -> dict:
    """What decides a pairing's games besides their numbers (each block's first game and
    length): the hamle that plays them, NumPy (whose generators draw them), Numba and
    Python (whose arithmetic the rollouts' means come from), the rules, the shooter with its
    settings and the placer with its strength or weights under ``rules``."""
    import platform

    import numba
    import numpy as np

    from hamle.fingerprint import fingerprint

    hider = bs.get_placer(placer).settled(rules)
    return {
        "hamle": fingerprint(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "python": platform.python_version(),
        "rules": rules.as_dict(),
        "shooter": bs.get_shooter(shooter).name,
        "placer": {
            "name": hider.name,
            "kind": hider.kind,
            "strength": hider.strength,
            "weights": dict(hider.parts),
        },
    }


def _digest(key, blocks: dict) -> str:
    """A hash of a pairing's key and blocks, which an edit of either changes."""
    import hashlib

    text = json.dumps([key, blocks], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _is_blocks(data) -> bool:
    """Whether ``data`` is first game → list of shots."""
    return isinstance(data, dict) and all(
        isinstance(shots, list) and all(type(shot) is int for shot in shots)
        for shots in data.values()
    )


def _is_pairing(data) -> bool:
    """Whether ``data`` is a stored pairing: its key (None before one is given), the
    digest once saved, and its blocks."""
    return (
        isinstance(data, dict)
        and set(data) - {"digest"} == {"key", "blocks"}
        and (data["key"] is None or isinstance(data["key"], dict))
        and _is_blocks(data["blocks"])
    )


def _is_store(data, depth: int = 3, pairing=_is_pairing) -> bool:
    """Whether ``data`` is rules → shooter → placer → a stored ``pairing``."""
    if depth == 0:
        return pairing(data)
    return isinstance(data, dict) and all(_is_store(v, depth - 1, pairing) for v in data.values())


def _nested(data: dict, change, depth: int = 3) -> dict:
    """``data`` (rules → shooter → placer → value) with ``change`` applied to each value."""
    if depth == 0:
        return change(data)
    return {name: _nested(value, change, depth - 1) for name, value in data.items()}


def matrix(rules: bs.Rules, shooters: dict[str, int], jobs: int, store: Store) -> dict:
    """Each shooter (name → games) against every placer, merged into one matrix; blocks
    of games found in ``store`` are not played again, and new ones are stored."""
    merged: dict = {"rules": rules.describe(), "games": dict(shooters), "matrix": {}}
    for shooter, games in shooters.items():
        for placer in PLACERS:
            store.trusted(rules, shooter, placer)
        started = perf_counter()
        for start in range(1, games + 1, BLOCK):
            size = min(BLOCK, games + 1 - start)
            missing = [
                placer
                for placer in PLACERS
                if len(store.blocks(rules, shooter, placer).get(str(start), ())) < size
            ]
            if missing:
                table = bs.tournament(rules, [shooter], missing, games=size, first=start, jobs=jobs)
                for placer in missing:
                    shots = list(table.cell(shooter, placer).shots)
                    store.blocks(rules, shooter, placer)[str(start)] = shots
                store.save()
        pairings = tuple(
            bs.Pairing(shooter, placer, 1, _stored(store, rules, shooter, placer, games))
            for placer in PLACERS
        )
        table = bs.TournamentTable(rules, (shooter,), tuple(PLACERS), 1, pairings)
        merged["matrix"] |= table.as_dict()["matrix"]
        merged.setdefault("seconds", {})[shooter] = round(perf_counter() - started, 1)
        print(f"{rules.describe()}: {shooter} done", file=sys.stderr)
    return merged


def _stored(store: Store, rules: bs.Rules, shooter: str, placer: str, games: int) -> tuple:
    blocks = store.blocks(rules, shooter, placer)
    shots = [shot for start in range(1, games + 1, BLOCK) for shot in blocks[str(start)]]
    return tuple(shots[:games])


def strongest(result: dict, shooter: str) -> dict:
    """The placer of one law that adds most shots to ``shooter``'s mean against uniform.

    A mixture is left out: against a fixed shooter its mean is the weighted mean of its
    parts' means, so it can lead the strongest part only by chance."""
    added = {
        placer: row["versus_uniform"]
        for placer, row in result["matrix"][shooter].items()
        if placer != "uniform" and bs.get_placer(placer).kind != "mixture"
    }
    best = max(added, key=lambda placer: added[placer]["mean"])
    return {"shooter": shooter, "placer": best, **added[best]}


def wall_seconds(games: int, repeat: int) -> dict:
    """Seconds for one fixed tournament with one and two processes and on a two-worker
    local cluster, alternated; the medians and the cluster's over ``--jobs 2``."""
    from distributed import LocalCluster

    rules, seconds = bs.Rules.classic(), {"jobs_1": [], "jobs_2": [], "cluster_2": []}
    args = (rules, ["parity", "density"], PLACERS)
    bs.placers.tuned_weights(rules)  # tuned once in this process, as every run would
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        bs.tournament(*args, games=8, cluster=cluster.scheduler_address)  # a cluster runs warm
        for _ in range(repeat):
            for way, options in (
                ("jobs_1", {"jobs": 1}),
                ("jobs_2", {"jobs": 2}),
                ("cluster_2", {"cluster": cluster.scheduler_address}),
            ):
                started = perf_counter()
                bs.tournament(*args, games=games, **options)
                seconds[way].append(round(perf_counter() - started, 2))
    medians = {way: statistics.median(times) for way, times in seconds.items()}
    return {
        "games": games,
        "shooters": ["parity", "density"],
        "placers": PLACERS,
        **seconds,
        "median": medians,
        "cluster_over_jobs_2": round(medians["cluster_2"] / medians["jobs_2"], 3),
    }


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    for name in FULL:
        option = "--" + name.replace("_", "-")
        parser.add_argument(
            option,
            type=at_most(MAX_GAMES),
            help=f"default {FULL[name]}, quick {QUICK[name]}, at most {MAX_GAMES:,}",
        )
    parser.add_argument("--jobs", type=jobs_count, default=2)
    parser.add_argument(
        "--quick", action="store_true", help="smaller sizes for the options not given"
    )
    parser.add_argument("--matrices-only", action="store_true", help="no timing, no aims")
    parser.add_argument(
        "--rules", choices=("both", "classic", "russian"), default="both", help="matrices to play"
    )
    results = Path(__file__).parent / "results"
    parser.add_argument("--out", type=report_file, default=results / "tournament.json")
    parser.add_argument("--store", type=report_file, default=results / "tournament_games.json")
    args = parser.parse_args()
    if args.out.resolve() == args.store.resolve():
        parser.error(
            f"--out and --store are the same file ({args.out}): the report would wipe the store"
        )
    check_out(parser, args.out)
    check_out(parser, args.store, "--store")
    preset = QUICK if args.quick else FULL
    for name, size in preset.items():
        if getattr(args, name) is None:
            setattr(args, name, size)
    report = {
        "benchmark": "tournament",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "jobs": args.jobs,
        "sizes": {name: getattr(args, name) for name in FULL},
        "machine": machine(),
    }
    try:
        store = Store(args.store)
    except ValueError as exc:
        parser.error(str(exc))
    if args.rules != "russian":
        wide = {"random": args.games, "parity": args.games, "density": args.games}
        report["classic"] = matrix(
            bs.Rules.classic(), wide | {"expert": args.expert_games}, args.jobs, store
        )
    if args.rules != "classic":
        wide = dict.fromkeys(("random", "parity", "density"), args.russian_games)
        report["russian"] = matrix(
            bs.Rules.named("russian"), wide | {"exact": args.exact_games}, args.jobs, store
        )
    if args.rules != "both":  # a piece of the run, filling the store
        write_report(report, args.out)
        return
    report["strongest"] = {
        "classic": strongest(report["classic"], "expert"),
        "russian": strongest(report["russian"], "exact"),
        "against_density": strongest(report["classic"], "density"),
    }
    if args.matrices_only:
        write_report(report, args.out)
        return
    report["wall_seconds"] = wall_seconds(args.timed_games, args.repeat)
    against = report["strongest"]["against_density"]
    report["aims"] = {
        "placer_adds_1_5_shots_to_density": against["mean"] >= AIM_ADDED
        and against["stderr"] is not None  # (none over one game)
        and against["mean"] > 3 * against["stderr"],
        "cluster_within_15_percent_of_jobs_2": report["wall_seconds"]["cluster_over_jobs_2"]
        <= 1.15,
    }
    write_report(report, args.out)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted: the store keeps every finished block", file=sys.stderr)
        sys.exit(130)
