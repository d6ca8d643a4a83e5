"""``hamle battleship``: count, simulate, replay, density, sample, play."""

from __future__ import annotations

import json
import re
import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import typer

from hamle.grid import (
    MAX_SIDE,
    QUOTED_AT_MOST,
    CellError,
    Grid,
    cell_items,
    items,
    name_key,
    quoted,
)

from .common import (
    CLUSTER,
    App,
    ParamType,
    WholeNumber,
    clean_errors,
    console,
    counted,
    errors,
    game_line,
    listing,
    one_way,
    out_problem,
    print_json,
    progress_bar,
    quits,
    speaks_unicode,
    stripped,
    visible,
    write_whole,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    import click

    import hamle.battleship as bs

app = App(no_args_is_help=True)  # its help line is in hamle.cli.GAMES


def _errors() -> tuple[type[Exception], ...]:
    import hamle.battleship as bs

    return bs.BattleshipError, CellError


def _shooters() -> list[str]:
    """The shooters' names with their aliases, as the help lists them: ``random (easy)``."""
    import hamle.battleship as bs

    aliases = {name: [a for a, n in bs.ALIASES.items() if n == name] for name in bs.SHOOTERS}
    return [f"{name} ({', '.join(also)})" if also else name for name, also in aliases.items()]


def _placers() -> list[str]:
    """The placers' names, as the help lists them."""
    import hamle.battleship as bs

    return list(bs.placers.PLACERS)


def _sample_limit() -> int:
    from hamle.battleship.exact import SAMPLE_LIMIT

    return SAMPLE_LIMIT


handled = clean_errors(_errors)


class Size(NamedTuple):
    """A board size as ``--size`` gives it."""

    rows: int
    cols: int

    def __str__(self) -> str:
        """As ``--size`` takes it: ``10`` for a square board, else ``8x10``."""
        return str(self.rows) if self.rows == self.cols else f"{self.rows}x{self.cols}"


class BoardSize(ParamType):
    """``--size``: a side (``10``, a square board) or rows by columns (``8x10``: 8 rows,
    10 columns A–J); the rules say whether the board can be played.

    >>> BoardSize().convert(" 8 x 10", None, None), BoardSize().convert("7", None, None)
    (Size(rows=8, cols=10), Size(rows=7, cols=7))
    """

    name = "size"

    def convert(self, value, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, Size):  # (already converted)
            return value
        text = str(value).strip()
        sides = re.fullmatch(r"([+-]?[0-9]+)(?:\s*[x×X]\s*([+-]?[0-9]+))?", text)
        if sides is None:
            self.fail(
                f"{quoted(str(value))} is not a board size: a side like 10 (a square board) "
                "or rows by columns like 8x10 (digits 0-9).",
                param,
                ctx,
            )
        rows, cols = sides.group(1), sides.group(2) or sides.group(1)
        if any(len(side.lstrip("+-").lstrip("0")) > len(str(MAX_SIDE)) for side in (rows, cols)):
            self.fail(
                f"{quoted(text)} is not a board size: a board has 1 to {MAX_SIDE} rows and "
                "columns.",
                param,
                ctx,
            )
        return Size(int(rows), int(cols))


RULES = typer.Option("classic", "--rules", callback=stripped, help="Preset: classic or russian.")
SIZE = typer.Option(
    None,
    "--size",
    click_type=BoardSize(),
    help="Board size, overriding the preset: a side N (an N×N board) or rows by columns "
    "like 8x10 (8 rows, columns A–J).",
)
FLEET = typer.Option(
    None,
    "--fleet",
    help="Ship lengths, like 5,4,3,3,2, overriding the preset; their order is part of the "
    "game (game g places the ships in that order).",
)
NO_TOUCH = typer.Option(False, "--no-touch", help="Ships may not touch, not even diagonally.")
JSON = typer.Option(False, "--json", help="Print one JSON object.")
STRATEGY_HELP = "One of: {names}. Settings in brackets, like 'expert(fleets=1000)'."
PLACER_HELP = (
    "Where the fleets hide, one of: {placers}. A tilted one takes a strength, like "
    "'edges(strength=6)', and mixed its weights, like 'mixed(edges=3, spread=1)'."
)
MISS = typer.Option("", "--miss", help="Missed cells, like A1,B2.")
HIT = typer.Option("", "--hit", help="Open hits (on ships not yet sunk).")
SUNK = typer.Option(
    "",
    "--sunk",
    help="Sunk ships: ranges like A1-A3 and cells, each group of cells that touch one ship; "
    "or ships separated by ';' (A1-A5;A6-A7).",
)
AFLOAT = typer.Option(
    None,
    "--afloat",
    help="Afloat ship lengths (default: the fleet less the sunk ships); a ship neither sunk "
    "nor listed is taken as gone.",
)


def make_rules(name: str, size: Size | None, fleet: str | None, no_touch: bool) -> bs.Rules:
    """The preset ``name`` with the board size (rows, cols), fleet and touching policy
    overridden."""
    import hamle.battleship as bs

    preset = bs.Rules.named(name)
    rows, cols = (preset.rows, preset.cols) if size is None else size
    ships = preset.fleet
    if fleet is not None:
        ships = bs.Rules.custom((rows, cols), parse_lengths(fleet, "--fleet")).fleet
    return bs.Rules(rows, cols, ships, touching=preset.touching and not no_touch)


def marked(rules: bs.Rules, miss: str, hit: str, sunk: str, afloat: str | None) -> bs.Observation:
    """The observation the mark options describe."""
    import hamle.battleship as bs

    grid = rules.grid
    return bs.Observation.from_marks(
        rules,
        miss=grid.parse_cells(miss),
        hit=grid.parse_cells(hit),
        sunk=parse_sunk(grid, sunk, max(rules.lengths)) if sunk.strip() else (),
        afloat=None if afloat is None else parse_lengths(afloat, "--afloat"),
    )


def parse_lengths(text: str, option: str) -> list[int]:
    import hamle.battleship as bs

    parts = items(text)
    if not parts or not all(re.fullmatch(r"[0-9]{1,3}", p) for p in parts):
        raise bs.RulesError(f"{option} takes ship lengths like 5,4,3,3,2, not {quoted(text)}")
    return [int(p) for p in parts]


def parse_sunk(grid: Grid, text: str, longest: int) -> list[list[int]]:
    """Sunk ships from text: ships separated by ';', or else each range (A1-A3) is a ship
    and the other cells form one ship per orthogonally connected group (spaces around a
    range's dash are allowed); a group longer than ``longest`` is an error saying how to
    write ships that touch apart.

    >>> parse_sunk(Grid(10, 10), "A1 - A3, C5", 5)
    [[0, 10, 20], [42]]
    """
    import hamle.battleship as bs

    text = re.sub(r"\s*-\s*", "-", text)
    if ";" in text:
        parts = text.split(";")
        if not all(part.strip() for part in parts):
            raise bs.MarksError(
                f"{quoted(text)} has an empty ship; write one ';' between two ships"
            )
        return [_cells(grid, part) for part in parts]
    ships, singles = [], []
    for token in cell_items(text):
        if "-" in token:
            ships.append(_cells(grid, token))
        else:
            singles.append(grid.index(token))
    left = set(singles)
    while left:
        group, todo = [], [min(left)]
        left.discard(todo[0])
        while todo:
            cell = todo.pop()
            group.append(cell)
            for near in grid.neighbours(cell):
                if near in left:
                    left.discard(near)
                    todo.append(near)
        if len(group) > longest:
            raise bs.MarksError(
                f"the sunk cells {','.join(grid.name(c) for c in sorted(group))} touch, so they "
                f"are one ship of {len(group)} cells, longer than any in the fleet; write "
                "ships that touch apart with ';', like A1-A5;A6-A7"
            )
        ships.append(sorted(group))
    return ships


def _cells(grid: Grid, text: str) -> list[int]:
    import hamle.battleship as bs

    out = []
    for token in cell_items(text):
        if "-" in token:
            ends = token.split("-")
            if len(ends) != 2 or not all(ends):
                raise bs.MarksError(f"{quoted(token)} is not a range like A1-A3")
            a, b = (grid.index(e) for e in ends)
            (ra, ca), (rb, cb) = divmod(a, grid.cols), divmod(b, grid.cols)
            if ra != rb and ca != cb:
                raise bs.MarksError(
                    f"{visible(token, QUOTED_AT_MOST)} is not a straight range (same row or column)"
                )
            out.extend(
                r * grid.cols + c
                for r in range(min(ra, rb), max(ra, rb) + 1)
                for c in range(min(ca, cb), max(ca, cb) + 1)
            )
        else:
            out.append(grid.index(token))
    return out


@app.command()
@handled
def count(
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    jobs: int = typer.Option(
        1,
        "--jobs",
        min=1,
        max=64,
        help="Processes to enumerate fleets on (a count by the layout DP, as under no-touch "
        "rules or on big boards, runs in one).",
    ),
    as_json: bool = JSON,
) -> None:
    """Count every legal fleet exactly (ships labelled, and equal ships alike)."""
    from rich.table import Table

    import hamle.battleship as bs

    chosen = make_rules(rules, size, fleet, no_touch)
    started = time.perf_counter()
    with progress_bar("counting", enabled=not as_json) as update:
        result = bs.count_fleets(chosen, jobs=jobs, progress=update)
    seconds = time.perf_counter() - started
    if as_json:
        print_json({**result.as_dict(), "seconds": seconds})
        return
    table = Table(title=f"Fleets under {chosen.describe()}")
    table.add_column("ship")
    table.add_column("length", justify="right")
    table.add_column("placements", justify="right")
    for ship, n in zip(chosen.fleet, result.placements, strict=True):
        table.add_row(ship.name, str(ship.length), f"{n:,}")
    console.print(table)
    console.print(f"overlap-allowed product  {result.product:,}")
    console.print(
        f"legal fleets (labelled)  {result.fleets:,}  ({_percent(result.ratio)} of the product)"
    )
    console.print(f"layouts (equal ships alike)  {result.layouts:,}")
    console.print(f"[dim]{seconds:.2f} s[/dim]")


@app.command(cls=listing(names=_shooters, placers=_placers))
@handled
def simulate(
    strategies: str = typer.Option(
        "random,hunt-target,parity,density",
        "--strategies",
        "--shooters",
        help="Comma-separated shooters, of: {names}. Settings in brackets, like "
        "'expert(fleets=1000)'.",
    ),
    games: int = typer.Option(1000, "--games", min=1, max=1_000_000, help="Games per strategy."),
    first: int = typer.Option(1, "--first", min=1, help="Number of the first game."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=64, help="Processes to use."),
    cluster: str = CLUSTER,
    chart: Path = typer.Option(None, "--chart", help="Write the P(done within t) chart here."),
    placer: str = typer.Option(
        "uniform",
        "--placer",
        callback=stripped,
        help=PLACER_HELP,
    ),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """Play numbered games with each shooter and tabulate the shots they need."""
    import hamle.battleship as bs

    one_way(jobs, cluster)
    chosen = make_rules(rules, size, fleet, no_touch)
    names = [bs.get_shooter(name).name for name in _names(strategies, "--strategies")]
    if len(_names(placer, "--placer")) > 1:
        raise bs.BattleshipError(
            f"--placer names one placer, not {quoted(placer)}; `tournament --placers` plays several"
        )
    hider = bs.get_placer(placer)
    _check_path(chart, "--chart", bs.CHART_SUFFIXES)
    with progress_bar("playing", enabled=games * len(names) >= 200) as update:
        table = bs.simulate(chosen, names, games, first, jobs, update, hider, cluster)
    data = table.as_dict()
    # (the figures first: a chart that cannot be written, after a long run, loses nothing)
    if as_json:
        print_json(data)
    else:
        print_table(data)
    _save([(chart, "the chart to ", lambda: bs.chart(table, chart))], quiet=as_json)


@app.command()
@handled
def tournament(
    shooters: str = typer.Option(
        "random,parity,density",
        "--shooters",
        "--strategies",
        help="Comma-separated shooters; settings in brackets, like 'expert(fleets=1000)'.",
    ),
    placers: str = typer.Option(
        "uniform,edges,anti-density,spread,clustered,mixed",
        "--placers",
        help="Comma-separated placers (where the fleets hide); settings in brackets, like "
        "'edges(strength=6)' or 'mixed(edges=3, spread=1)'.",
    ),
    games: int = typer.Option(1000, "--games", min=1, max=1_000_000, help="Games per pairing."),
    first: int = typer.Option(1, "--first", min=1, help="Number of the first game."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=64, help="Processes to use."),
    cluster: str = CLUSTER,
    out: Path = typer.Option(None, "--out", help="Write the JSON result to this file."),
    chart: Path = typer.Option(None, "--chart", help="Write the matrix as a heat map here."),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """Every shooter against every placer on the same numbered games: mean shots, and
    what each placer adds against uniform fleets."""
    import numpy as np

    import hamle.battleship as bs
    from hamle.stats import plus_minus

    one_way(jobs, cluster)
    chosen = make_rules(rules, size, fleet, no_touch)
    shooter_names = [bs.get_shooter(n).name for n in _names(shooters, "--shooters")]
    placer_names = [bs.get_placer(n).name for n in _names(placers, "--placers")]
    _check_path(out, "--out", (".json",))
    _check_path(chart, "--chart", bs.CHART_SUFFIXES)
    for placer in placer_names:  # a fleet that cannot be placed fails before any game
        bs.get_placer(placer).place(chosen, np.random.default_rng(0))
    total = games * len(shooter_names) * len(placer_names)
    with progress_bar("playing", enabled=total >= 200) as update:
        table = bs.tournament(
            chosen, shooter_names, placer_names, games, first, jobs, update, cluster
        )
    data = table.as_dict()
    saves = [
        (out, "", lambda: write_whole(out, json.dumps(data, indent=2, ensure_ascii=False) + "\n")),
        (chart, "the chart to ", lambda: table.chart(chart)),
    ]
    if as_json:
        print_json(data)
        _save(saves, quiet=True)
        return
    spread = " ± standard error" if data["games"] > 1 else ""  # (unknown over one game)
    console.print(f"Mean shots{spread}, {games_span(data)}, {data['rules']}")
    console.print(table.text(ascii_only=not speaks_unicode(sys.stdout)), markup=False)
    if "uniform" in data["placers"] and len(data["placers"]) > 1:
        for shooter in data["shooters"]:
            added = [
                f"{placer} {versus['mean']:+.2f}{plus_minus(versus['stderr'])}"
                for placer, row in data["matrix"][shooter].items()
                if placer != "uniform" and (versus := row["versus_uniform"])
            ]
            console.print(f"{shooter} against uniform: " + ", ".join(added), markup=False)
    _save(saves)


def _percent(ratio: float) -> str:
    """``ratio`` as a percentage, to two significant digits below 0.1 %.

    >>> _percent(0.658), _percent(2.3e-6), _percent(0.0)
    ('65.8%', '0.00023%', '0.0%')
    """
    return f"{ratio:.1%}" if ratio >= 0.001 or ratio == 0 else f"{100 * ratio:.2g}%"


def _check_path(path: Path | None, option: str, suffixes: tuple[str, ...]) -> None:
    """BattleshipError if ``path`` is given and is no file of ``option`` (``out_problem``)."""
    import hamle.battleship as bs

    if path is not None and (wrong := out_problem(path, option, suffixes)):
        raise bs.BattleshipError(wrong)


def _save(saves: list[tuple[Path | None, str, Callable[[], object]]], quiet: bool = False) -> None:
    """Write each file asked for (path, what it holds, its writer; a path None is not asked
    for), saying so unless ``quiet``; then one error naming each that could not be."""
    import hamle.battleship as bs

    failed = []
    for path, what, write in saves:
        if path is None:
            continue
        try:
            write()
        except OSError as exc:
            failed.append(f"cannot write {what}{path}: {exc.strerror}")
        except bs.BattleshipError as exc:
            failed.append(f"cannot write {what}{path}: {exc}")
        else:
            if not quiet:
                console.print(f"written to {visible(path)}", markup=False, highlight=False)
    if failed:
        raise bs.BattleshipError("; ".join(failed))


def _names(text: str, option: str) -> list[str]:
    """The names of a comma-separated option, a name's settings in brackets kept whole."""
    from hamle.battleship.named import split_names

    names = split_names(text)
    if not any(names):
        raise typer.BadParameter(f"{option} names nothing")
    if "" in names:
        raise typer.BadParameter(f"{option} has an empty name: {quoted(text)}")
    return names


def games_span(data: dict) -> str:
    """How many games a table's figures are of, and which.

    >>> games_span({"games": 20, "first": 1}), games_span({"games": 1, "first": 7})
    ('20 games (1..20)', '1 game (7)')
    """
    first, last = data["first"], data["first"] + data["games"] - 1
    return f"{counted(data['games'], 'game')} ({first if first == last else f'{first}..{last}'})"


def print_table(data: dict) -> None:
    """The simulation table as a rich table, then each strategy's paired difference
    against the first."""
    from rich import box
    from rich.table import Table

    from hamle.stats import plus_minus

    title = f"Shots to sink the whole fleet, {games_span(data)}, {data['rules']}"
    if data["placer"] != "uniform":
        title += f", fleets hidden by {data['placer']}"
    # Where the terminal is narrow the names fold and the figures stay whole: none is cut.
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("strategy", overflow="fold")
    # (else ± and ≤ written as the output would write them, see PLAIN, so that the columns
    # are as wide as written)
    unicode = speaks_unicode(sys.stdout)
    within = ("≤" if unicode else "<=") + str(data["within_shots"])
    spread = "±se" if unicode else "+/-se"
    for column in ("mean", "median", "p10–p90", "best", "worst", spread, within, "hunt/target"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in data["strategies"].values():
        table.add_row(
            row["strategy"],
            f"{row['mean']:.1f}",
            f"{row['median']:g}",
            f"{row['p10']}–{row['p90']}",
            str(row["best"]),
            str(row["worst"]),
            "—" if row["stderr"] is None else f"{row['stderr']:.2f}",
            f"{row['within']:.0%}",
            f"{row['hunt_mean']:.1f}/{row['target_mean']:.1f}",
        )
    exact = data["exact_random"]
    table.add_row(
        "random (exact law)",
        f"{exact['mean']:.2f}",
        str(exact["median"]),
        f"{exact['p10']}–{exact['p90']}",
        str(exact["best"]),
        str(exact["worst"]),
        "",
        f"{exact['within']:.0%}",
        "",
        style="dim",
    )
    console.print(table)
    rows = list(data["strategies"].values())
    if len(rows) > 1:  # (the first one's shots taken from each other's, game by game)
        versus = [
            f"{row['strategy']} {row['versus_first']['mean']:+.2f}"
            f"{plus_minus(row['versus_first']['stderr'])}"
            for row in rows[1:]
        ]
        line = f"paired against {rows[0]['strategy']}, on the same games: " + ", ".join(versus)
        console.print(
            line if unicode else line.replace("±", "+/-"),
            markup=False,
            highlight=False,
        )


@app.command(cls=listing(names=_shooters, placers=_placers))
@handled
def replay(
    game: int = typer.Argument(..., min=1, help="Game number (1, 2, …)."),
    strategy: str = typer.Option(
        ...,
        "--strategy",
        callback=stripped,
        help=STRATEGY_HELP,
    ),
    boards: bool = typer.Option(False, "--boards", help="Draw the board after every shot."),
    pattern: bool = typer.Option(
        None,
        "--pattern/--no-pattern",
        help="Mark the hunt pattern on the boards --boards draws (default: on for parity).",
    ),
    placer: str = typer.Option("uniform", "--placer", callback=stripped, help=PLACER_HELP),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """Replay one numbered game shot by shot (compare parity with hunt-target: the same
    game with the pattern on and off; under Russian rules, while a 1-cell ship is afloat,
    the pattern is every cell)."""
    import hamle.battleship as bs

    if pattern is not None and not boards:  # (the last board has nothing afloat to hunt)
        flag = "--pattern" if pattern else "--no-pattern"
        raise typer.BadParameter(f"{flag} marks the boards --boards draws; give --boards too")
    chosen = make_rules(rules, size, fleet, no_touch)
    with errors.get().status(f"playing game {game}") as status:
        record = bs.play_game(
            chosen,
            strategy,
            game,
            lambda n: status.update(f"playing game {game}: {counted(n, 'shot')}"),
            bs.get_placer(placer),
        )
    pictures = record.boards(pattern=record.strategy == "parity" if pattern is None else pattern)
    if as_json:
        data = record.as_dict()
        if boards:
            for shot, picture in zip(data["shots"], pictures, strict=True):
                shot["board"] = picture
        print_json(data)
        return
    grid = record.fleet.rules.grid
    hidden = f", fleet hidden by {record.placer}" if record.placer != "uniform" else ""
    console.print(
        f"game {record.game}, {record.strategy}{hidden}: "
        f"{counted(record.shots_fired, 'shot')} ({record.hunt} hunt, {record.target} target)"
    )
    for n, (shot, picture) in enumerate(zip(record.shots, pictures, strict=True), 1):
        sunk = f" ({shot.ship})" if shot.ship else ""
        line = f"{n:>3}  {grid.name(shot.cell):<4} {shot.answer:<5}{sunk}  {shot.mode}"
        console.print(line, highlight=False)
        if boards:
            console.print(picture, highlight=False)
    if not boards:
        console.print(pictures[-1], highlight=False)


@app.command()
@handled
def density(
    miss: str = MISS,
    hit: str = HIT,
    sunk: str = SUNK,
    afloat: str = AFLOAT,
    exact: bool = typer.Option(
        False, "--exact", help="Exact layout counts and probabilities instead of d."
    ),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """The Hard shooter's density d for every unshot cell of a marked board, or with
    --exact how many layouts fitting the marks put a ship on each cell."""
    import hamle.battleship as bs

    chosen = make_rules(rules, size, fleet, no_touch)
    observation = marked(chosen, miss, hit, sunk, afloat)
    report = bs.exact(observation) if exact else bs.density(observation)
    if as_json:
        print_json(
            {"rules": chosen.describe(), "afloat": list(observation.afloat), **report.as_dict()}
        )
        return
    if exact:
        values = [f"{100 * float(report.probability(c)):.1f}" for c in range(chosen.cells)]
        top = report.counts[report.best[0]] if report.best else 0
        summary = f"{counted(report.fleets, 'fleet')} ({counted(report.total, 'layout')}) fit; "
        summary += f"best: {', '.join(report.best_names) or 'none'}"
        if report.best:
            summary += f" ({counted(top, 'layout')}, {100 * top / report.total:.2f} %)"
    else:
        values = [str(int(d)) for d in report.d]
        top = int(report.d[report.best[0]]) if report.best else 0
        summary = f"w = {report.w}; best: {', '.join(report.best_names) or 'none'} (d = {top})"
        if report.undecided:
            summary += "\nUndecided: no layout was found to fit these marks, nor could they be"
            summary += " counted, so it may be that none fits."
    console.print(_heat(observation, values, set(report.best)), highlight=False)
    console.print(summary, highlight=False)


@app.command()
@handled
def sample(
    miss: str = MISS,
    hit: str = HIT,
    sunk: str = SUNK,
    afloat: str = AFLOAT,
    count: int = typer.Option(
        10, "--count", click_type=WholeNumber(1, _sample_limit), help="How many fleets to draw."
    ),
    seed: int = typer.Option(
        None,
        "--seed",
        help="Seed of the draws (default: a fresh one): the same seed and --count draw the "
        "same fleets (fleets are drawn side by side, so another --count draws others).",
    ),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """Draw fleets of the afloat ships exactly uniformly from all that fit the marks."""
    import numpy as np

    import hamle.battleship as bs

    chosen = make_rules(rules, size, fleet, no_touch)
    observation = marked(chosen, miss, hit, sunk, afloat)
    if seed is None:
        seed = secrets.randbits(63)
    if seed < 0:
        raise bs.BattleshipError(f"--seed must be 0 or more, not {seed}")
    fleets = bs.sample(observation, count, np.random.default_rng(seed))
    grid = chosen.grid
    named = [
        [{"length": len(ship), "cells": [grid.name(c) for c in ship]} for ship in drawn]
        for drawn in fleets
    ]
    if as_json:
        # (self-describing: the board, fleet and marks the fleets were drawn under)
        print_json(
            {
                "rules": chosen.describe(),
                **chosen.as_dict(),
                **observation.as_dict(),
                "seed": seed,
                "count": count,
                "fleets": named,
            }
        )
        return
    for drawn in named:
        ships = "  ".join(_span(ship["cells"]) for ship in drawn)
        console.print(ships or "(no ship afloat: the empty fleet)", highlight=False)
    console.print(f"seed {seed}", highlight=False)


@app.command(cls=listing(names=_shooters))
@handled
def hint(
    miss: str = MISS,
    hit: str = HIT,
    sunk: str = SUNK,
    afloat: str = AFLOAT,
    strategy: str = typer.Option(
        "expert",
        "--strategy",
        callback=stripped,
        help=STRATEGY_HELP,
    ),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the shooter's draws."),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
    as_json: bool = JSON,
) -> None:
    """Where a shooter fires next on a marked board; the expert says how it chose, and
    lists the cells it rolled out with the shots each needs on average to finish."""
    import numpy as np

    import hamle.battleship as bs

    chosen = make_rules(rules, size, fleet, no_touch)
    observation = marked(chosen, miss, hit, sunk, afloat)
    shooter = bs.get_shooter(strategy)
    decision = bs.hint(observation, shooter, np.random.default_rng(seed))
    grid = chosen.grid
    if as_json:
        print_json(
            {
                "rules": chosen.describe(),
                "afloat": list(observation.afloat),
                "strategy": shooter.name,
                "seed": seed,
                "cell": grid.name(decision.cell),
                "how": decision.how,
                "weighed": [{**w._asdict(), "cell": grid.name(w.cell)} for w in decision.weighed],
            }
        )
        return
    values = ["." if c != decision.cell else "*" for c in range(chosen.cells)]
    console.print(_heat(observation, values, {decision.cell}), highlight=False)
    console.print(
        f"{shooter.name} fires {grid.name(decision.cell)} ({decision.how})", highlight=False
    )
    every = decision.how == "endgame"  # (every layout that fits: exact means, no error)
    for w in decision.weighed:
        behind = f"  {w.behind:+.3f}" if w.cell != decision.cell else ""
        behind += f" ± {w.stderr:.3f}" if behind and not every else ""
        played = counted(w.fleets, "layout" if every else "fleet")
        line = f"  {grid.name(w.cell):<4} {w.shots:7.3f} shots to finish ({played}){behind}"
        console.print(line, highlight=False)


def _span(cells: list[str]) -> str:
    """A ship as ``--sunk`` takes it: ``A1-A3``, or ``G6`` for a one-cell ship."""
    return cells[0] if len(cells) == 1 else f"{cells[0]}-{cells[-1]}"


def _heat(observation: bs.Observation, values: list[str], best: set[int]) -> str:
    """The board with a value on each unshot cell, the best cells highlighted."""
    grid = observation.grid
    width = max(2, *(len(v) for v in values))
    symbols = {1: "o", 2: "X", 3: "#", 4: "~"}
    lines = ["    " + " ".join(f"{grid.name(c)[0]:>{width}}" for c in range(grid.cols))]
    for r in range(grid.rows):
        cells = []
        for c in range(r * grid.cols, (r + 1) * grid.cols):
            mark = int(observation.marks[c])
            text = f"{symbols[mark]:>{width}}" if mark else f"{values[c]:>{width}}"
            cells.append(f"[bold yellow]{text}[/bold yellow]" if c in best else text)
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    return "\n".join(lines)


@app.command()
@handled
def play(
    level: str = typer.Option(
        "normal",
        "--level",
        callback=stripped,
        help="easy, normal, hard or expert, as on the site (or a shooter name: its fleet "
        "hidden uniformly).",
    ),
    game: int = typer.Option(None, "--game", min=1, help="Game number (default: a new one)."),
    rules: str = RULES,
    size: Size = SIZE,
    fleet: str = FLEET,
    no_touch: bool = NO_TOUCH,
) -> None:
    """Play against the computer: type a cell (like E5) to fire; q quits.

    A level plays as on the site: its shooter, and on hard and expert the fleet hidden by
    the placer that costs the strongest shooter most. --game N gives the computer's fleet,
    your fleet and the computer's choices, so the same game number and moves replay the
    same game.
    """
    import hamle.battleship as bs
    from hamle.battleship.simulate import check_playable
    from hamle.rng import FLEET_STREAM, PLAYER_FLEET_STREAM, SHOOTER_STREAM, game_stream

    chosen = make_rules(rules, size, fleet, no_touch)
    if name_key(level) in bs.LEVELS:
        shooter, placer = bs.level_shooter(level, chosen), bs.level_placer(level, chosen)
    else:
        shooter, placer = bs.get_shooter(level), bs.get_placer("uniform")
    check_playable(chosen, shooter)
    number = game if game is not None else secrets.randbelow(999_999) + 1
    theirs = bs.Ocean(placer.place(chosen, game_stream(number, FLEET_STREAM)))
    yours = bs.Ocean(bs.random_fleet(chosen, game_stream(number, PLAYER_FLEET_STREAM)))
    rng = game_stream(number, SHOOTER_STREAM)
    grid = chosen.grid
    # Decided before the first prompt, so a board the shooter cannot count is refused there.
    reply_cell = shooter.choose(yours.observation, rng)
    hidden = "" if placer.name == "uniform" else f", its fleet hidden by {placer.name}"
    console.print(f"game {number}: you against {shooter.name}{hidden}, {chosen.describe()}")
    console.print(
        f"{PLAY_KEY}; you fire at the left board, the computer at yours (right)", highlight=False
    )
    options = ["--game", str(number), "--level", level]
    if name_key(rules) != "classic":
        options += ["--rules", rules]
    if size is not None:
        options += ["--size", str(size)]
    if fleet is not None:
        options += ["--fleet", fleet]
    if no_touch:
        options.append("--no-touch")
    again = f"replay with {shlex.join(options)}"  # (every option that shapes the game)
    label = shooter.name.partition("(")[0]  # (its settings said once, at the start)
    turns = 0

    def stopped() -> None:
        console.print(f"\nstopped after {counted(turns, 'shot')}; {again}", highlight=False)
        console.print(_fleet_of(theirs), highlight=False)

    try:
        while True:
            console.print(_boards(theirs, yours), highlight=False)
            console.print("your shot: ", end="")
            if (line := game_line()) is None:
                continue
            if quits(line):
                stopped()
                raise typer.Exit(0)
            if name_key(line) in ("", "help", "h", "?"):
                console.print(
                    f"type a cell (like E5) to fire, q to quit; {PLAY_KEY}", highlight=False
                )
                continue
            try:
                shot = theirs.fire(grid.index(line.strip()))
            except (CellError, bs.ShotError) as exc:
                console.print(visible(exc), style="red", markup=False, highlight=False)
                continue
            turns += 1
            console.print(f"you: {grid.name(shot.cell)} {_answer(shot)}", highlight=False)
            if theirs.over:
                console.print(_boards(theirs, yours), highlight=False)
                console.print(f"[bold green]you win in {counted(turns, 'shot')}![/bold green]")
                console.print(again, highlight=False)
                return
            reply = yours.fire(reply_cell)
            console.print(f"{label}: {grid.name(reply.cell)} {_answer(reply)}", highlight=False)
            if yours.over:
                console.print(_boards(theirs, yours), highlight=False)
                console.print(f"[bold red]{label} wins in {counted(turns, 'shot')}.[/bold red]")
                console.print(_fleet_of(theirs), highlight=False)
                console.print(again, highlight=False)
                return
            reply_cell = shooter.choose(yours.observation, rng)
    except KeyboardInterrupt:  # (Ctrl-C: as q, then "interrupted" and status 130)
        stopped()
        raise


PLAY_KEY = ". not fired at, o miss, X hit, # sunk, ~ water beside a sunk ship, S your ship"


def _fleet_of(ocean: bs.Ocean) -> str:
    """Where the ships of ``ocean`` lie, as a game's end shows them."""
    fleet = ocean.fleet
    grid = fleet.rules.grid
    placed = zip(fleet.rules.fleet, fleet.ships, strict=True)
    where = [
        f"{ship.name} {grid.name(cells[0])}" + (f"–{grid.name(cells[-1])}" if cells[1:] else "")
        for ship, cells in placed
    ]
    return "the computer's fleet: " + ", ".join(where)


def _answer(shot: bs.Shot) -> str:
    return f"sunk ({shot.ship})" if shot.answer == "sunk" else shot.answer


def _boards(theirs: bs.Ocean, yours: bs.Ocean) -> str:
    """Your view of the enemy's waters beside your own fleet under fire."""
    import hamle.battleship as bs

    enemy = bs.draw(theirs.fleet.rules.grid, theirs.observation.marks).splitlines()
    marks = yours.observation.marks.copy()
    ships = yours.fleet.board() >= 0
    marks[(marks == 0) & ships] = 5
    own = bs.draw(yours.fleet.rules.grid, marks).splitlines()
    width = len(enemy[0])
    lines = [f"{'enemy waters':<{width}}    your fleet"]
    lines += [f"{a:<{width}}    {b}" for a, b in zip(enemy, own, strict=True)]
    return "\n".join(lines)
