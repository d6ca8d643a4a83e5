"""Advantage benchmark: what a shooter's picks save on the rollouts' base, along its own games.

Whole games tell two shooters apart only to about a tenth of a shot in 4000 games (a game's
shots differ between two shooters by about 7). This measure is finer. The shooter plays the
numbered games as ``play_game`` does; at each of its decisions where its cell is not the
base's (``_kernels.best_cells``, the ranked density shooter the expert rolls out, without
the opening), both cells are fired and the base plays on to the end on ``--fleets`` fleets
drawn after the board (seeded by game and decision). A game's sum of (base cell's mean −
shooter cell's mean) has as expectation how many shots fewer the shooter needs than the base
(the performance difference lemma: the sum of the base's losses along the shooter's own
games). The opening's shots count like any other: an expert's opening decisions differ from
the base's. It is reported apart for decisions with a hit open (targets) and without
(hunt), with standard errors over games. ``--against`` measures a second shooter on the same
games and gives the difference of the two savings paired by game: how many shots fewer the
first needs than the second (``fewer_shots_than_against``; with ``--along``, only the
difference of the savings there, ``saved_more_than_against_along``).

``--along NAME`` plays another shooter's games instead (``base``: the rollouts' base
itself) and asks the shooter for its pick at each of that shooter's decisions (its draws
seeded by game and decision). The sum is then what the shooter's picks would save there one
at a time, which is not its gain: by the lemma only its own games give that, and along the
base's games the sum is larger (README, "Along whose games").

    .venv/bin/python bench/advantage.py --rules russian --shooter exact --first 41 --last 240
                                        [--fleets N] [--set NAME=VALUE ...] [--against NAME]
                                        [--along NAME] [--jobs J] [--out FILE]

``--set`` changes a field of the shooter (a JSON value), e.g. ``--set exact_targets=0``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter

import numpy as np

import hamle.battleship as bs
from hamle.battleship import _kernels
from hamle.battleship.simulate import MAX_GAMES
from hamle.battleship.strategies import get_shooter
from hamle.battleship.strategies.common import pcg_words
from hamle.battleship.strategies.expert_shooter import CORES, MAX_FLEETS, rollout_tables

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import Arguments, check_out, jobs_count, machine, report_file, write_report

RULES = {"classic": bs.Rules.classic(), "russian": bs.Rules.russian()}
DECISION_SEED = 99
PICK_SEED = 98  # the shooter's draws at another shooter's decisions (--along)
BASE = bs.ExpertShooter(candidates=1, openings=False, exact_targets=0)  # _kernels.best_cells


class Recorder:
    """A shooter that plays as ``inner`` does and keeps every board it decided on."""

    name = "recorder"
    kernel = None

    def __init__(self, inner) -> None:
        self.inner = inner
        self.decisions: list[tuple] = []

    def choose(self, observation: bs.Observation, rng: np.random.Generator) -> int:
        cell = self.inner.choose(observation, rng)
        self.decisions.append((observation, cell))
        return cell


def advantage(rules_name: str, shooter, game: int, fleets: int, along=None) -> dict:
    """One game of the shooter (of ``along`` when given): its shots and what the shooter's
    picks save on the base's cells at each of its decisions."""
    rules = RULES[rules_name]
    tables = rollout_tables(rules)
    recorder = Recorder(shooter if along is None else along)
    played = bs.play_game(rules, recorder, game)
    saved = {"hunt": 0.0, "targets": 0.0}
    differing = {"hunt": 0, "targets": 0}
    for i, (observation, cell) in enumerate(recorder.decisions):
        if along is not None:
            cell = shooter.choose(observation, np.random.default_rng([game, i, PICK_SEED]))
        afloat = np.array(sorted(observation.afloat, reverse=True), np.int64)
        base = int(_kernels.best_cells(observation.marks, afloat, tables, 1)[0])
        if base == cell:
            continue
        draws = pcg_words(np.random.default_rng([game, i, DECISION_SEED]))
        cells = np.array([base, cell], np.int64)
        means = _kernels.rollout_means(observation.marks, afloat, cells, tables, fleets, draws)
        if np.isnan(means).any():
            raise RuntimeError(f"game {game}, decision {i}: no fleets could be drawn")
        phase = "targets" if len(observation.open_hits) else "hunt"
        saved[phase] += float(means[0] - means[1])
        differing[phase] += 1
    return {"game": game, "shots": played.shots_fired, "saved": saved, "differing": differing}


def for_processes(shooter, jobs: int):
    """``shooter`` as one of ``jobs`` processes sharing this machine's cores should play it:
    an expert that would roll out on every core gets its share of them instead, so the
    processes do not crowd the cores with threads (its picks do not depend on them).

    >>> for_processes(bs.ExpertShooter(), CORES).threads
    1
    >>> for_processes(bs.ExpertShooter(threads=3), 2).threads
    3
    >>> for_processes(bs.ExpertShooter(), 1).threads is None
    True
    """
    if isinstance(shooter, bs.ExpertShooter) and shooter.threads is None and jobs > 1:
        return dataclasses.replace(shooter, threads=max(1, CORES // jobs))
    return shooter


def summary(values: list[float]) -> dict:
    """Mean and standard error (None for a single game)."""
    values = np.array(values, float)
    se = values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else None
    return {
        "mean": round(float(values.mean()), 4),
        "se": None if se is None else round(float(se), 4),
    }


def measure(rules_name: str, shooter, games: list[int], fleets: int, jobs: int, along=None) -> dict:
    """``advantage`` over ``games`` in ``jobs`` processes (in this one for one job): what the
    shooter's picks save on the base a game (hunt, targets, all), its shots (those of
    ``along`` when given), and every game's figures."""
    start = perf_counter()
    n = len(games)
    shooter = for_processes(shooter, jobs)
    along = None if along is None else for_processes(along, jobs)
    columns = ([rules_name] * n, [shooter] * n, games, [fleets] * n, [along] * n)
    if jobs == 1:
        rows = list(map(advantage, *columns))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            rows = list(pool.map(advantage, *columns))
    hunt = [row["saved"]["hunt"] for row in rows]
    targets = [row["saved"]["targets"] for row in rows]
    return {
        "shooter": repr(shooter),
        "along": None if along is None else repr(along),
        "seconds": round(perf_counter() - start, 1),
        "shots": summary([row["shots"] for row in rows]),
        "saved_on_base": {
            "hunt": summary(hunt),
            "targets": summary(targets),
            "all": summary([a + b for a, b in zip(hunt, targets, strict=True)]),
        },
        "differing_decisions_a_game": {
            phase: round(float(np.mean([row["differing"][phase] for row in rows])), 2)
            for phase in ("hunt", "targets")
        },
        "per_game": rows,
    }


def fewer_shots(first: dict, second: dict) -> dict:
    """How many shots fewer ``first`` needs than ``second`` (two ``measure`` results on the
    same games): the difference of their savings on the base, paired by game.

    >>> row = lambda game, saved: {"game": game, "saved": {"hunt": saved, "targets": 0.0}}
    >>> fewer_shots({"per_game": [row(1, 0.5), row(2, 0.3)]},
    ...             {"per_game": [row(1, 0.1), row(2, 0.1)]})
    {'games': 2, 'mean': 0.3, 'se': 0.1, 'z': 3.0}
    """
    games = [row["game"] for row in first["per_game"]]
    if games != [row["game"] for row in second["per_game"]]:
        raise ValueError("the two measures are not of the same games")
    diffs = [
        sum(a["saved"].values()) - sum(b["saved"].values())
        for a, b in zip(first["per_game"], second["per_game"], strict=True)
    ]
    result = {"games": len(games), **summary(diffs)}
    result["z"] = round(result["mean"] / result["se"], 2) if result["se"] else None
    return result


def shooter_of(name: str, settings: list[str]):
    """The registered shooter ``name`` with the ``NAME=VALUE`` fields of ``settings``."""
    try:
        shooter = get_shooter(name)
    except bs.BattleshipError as error:
        raise SystemExit(str(error)) from None
    changes = {}
    for setting in settings:
        field, sep, value = setting.partition("=")
        if not sep:
            raise SystemExit(f"--set takes NAME=VALUE, not {setting!r}")
        if field in changes:
            raise SystemExit(f"--set {field} is given twice; give it once")
        try:
            changes[field] = json.loads(value)
        except json.JSONDecodeError:
            raise SystemExit(f"--set {field}: {value!r} is not a JSON value") from None
    try:
        return dataclasses.replace(shooter, **changes) if changes else shooter
    except (TypeError, ValueError, bs.BattleshipError) as error:
        raise SystemExit(f"--set: {error}") from None


def shooters(parser, args) -> tuple:
    """The shooter, ``--against``'s and ``--along``'s (None when not given); what
    ``shooter_of`` refuses is a usage error."""
    try:
        shooter = shooter_of(args.shooter, args.set)
        against = shooter_of(args.against, []) if args.against else None
        along = None
        if args.along is not None:
            along = BASE if args.along == "base" else shooter_of(args.along, [])
    except SystemExit as refusal:
        parser.error(str(refusal))
    return shooter, against, along


def main() -> int:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=sorted(RULES), default="classic")
    parser.add_argument("--shooter", default="expert", help="a registered shooter's name")
    parser.add_argument("--set", action="append", default=[], help="a field, NAME=VALUE")
    parser.add_argument("--against", help="a second registered shooter on the same games")
    parser.add_argument("--along", help="another shooter's games (a name, or base)")
    parser.add_argument("--first", type=int, default=1, help="first game")
    parser.add_argument("--last", type=int, default=100, help="last game")
    parser.add_argument("--fleets", type=int, default=2000, help="rollout fleets a decision")
    parser.add_argument("--jobs", type=jobs_count, default=2, help="processes")
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/advantage.json"
    )
    args = parser.parse_args()
    if not 1 <= args.first <= args.last:
        parser.error(f"games run from --first to --last, at least 1: not {args.first}..{args.last}")
    if args.last - args.first >= MAX_GAMES:
        parser.error(f"--first..--last may span {MAX_GAMES:,} games at most")
    if not 1 <= args.fleets <= MAX_FLEETS:
        parser.error(f"--fleets must be 1..{MAX_FLEETS}, not {args.fleets}")
    check_out(parser, args.out)
    shooter, against, along = shooters(parser, args)
    games = list(range(args.first, args.last + 1))
    report = {
        "benchmark": "advantage",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "rules": args.rules,
        "games": [args.first, args.last],
        "fleets": args.fleets,
        "jobs": args.jobs,
        **measure(args.rules, shooter, games, args.fleets, args.jobs, along),
    }
    if against is not None:
        report["against"] = measure(args.rules, against, games, args.fleets, args.jobs, along)
        # along another shooter's games the difference of savings is not a gain in shots
        key = "fewer_shots_than_against" if along is None else "saved_more_than_against_along"
        report[key] = fewer_shots(report, report["against"])
    write_report(report, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
