"""Numbered games and the simulation table (spec § 2 and § 4).

Game g draws its fleet from stream 0 and the shooter's choices from stream 1 of g, so
every strategy meets the same fleets and every game replays identically.

Shooters with a game kernel (all but ``exact``) play many games in one compiled call
(``play_games``); ``play_game`` plays one game in Python, shot by shot, and the two agree.

>>> table = simulate(Rules.classic(), ["parity"], games=3)
>>> table.results[0].shots == tuple(play_game(Rules.classic(), "parity", g).shots_fired
...                                 for g in (1, 2, 3))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hamle.cluster import Cluster, checked_jobs, checked_progress, checked_sendable, local_pool
from hamle.fingerprint import fingerprint
from hamle.grid import quoted
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream
from hamle.stats import paired, summarize

from . import _kernels
from .analysis import RandomLaw
from .density import kernel_plan
from .errors import BattleshipError, ShotError
from .exact import check_countable
from .fleet import Fleet, Ocean
from .observation import HIT, MISS, PATTERN, SUNK, UNKNOWN, WATER, draw
from .placers import Placer, as_placer
from .rules import Rules, as_rules, placement_table
from .strategies import ExactShooter, Shooter, as_shooter, game_kernel
from .strategies.common import pcg_words
from .strategies.hunt_target import hunt_pattern

WITHIN = 50  # the share of games done within this many shots, on the 10×10 boards


def within_shots(rules: Rules) -> int:
    """The shots of the simulation table's "done within" column under ``rules``: half the
    board's cells (50 on 10×10), but no fewer than its ship cells, so that the column says
    something on every board.

    >>> within_shots(Rules.classic()), within_shots(Rules.custom(6, [3, 2]))
    (50, 18)
    """
    return max(rules.cells // 2, rules.ship_cells)


MAX_GAMES = 10_000_000  # games per shooter (or pairing) in one run: about a day of density
UNIFORM = as_placer("uniform")
LABELS = {
    UNKNOWN: "unknown",
    MISS: "miss",
    HIT: "hit",
    SUNK: "sunk",
    WATER: "water",
    PATTERN: "pattern",
}


@dataclass(frozen=True)
class ShotRecord:
    """One shot of a game: where, the answer, the mode (``hunt``/``target``), the sunk ship."""

    cell: int
    answer: str
    mode: str
    ship: str | None = None


@dataclass(frozen=True)
class GameRecord:
    """A whole numbered game played by one strategy against the fleet ``placer`` hid."""

    game: int
    strategy: str
    fleet: Fleet
    shots: tuple[ShotRecord, ...]
    placer: str = "uniform"

    @property
    def shots_fired(self) -> int:
        return len(self.shots)

    @property
    def hunt(self) -> int:
        return sum(shot.mode == "hunt" for shot in self.shots)

    @property
    def target(self) -> int:
        return self.shots_fired - self.hunt

    def frames(self, pattern: bool = False) -> list[tuple[str, ...]]:
        """The board before the first shot and after each shot, one label per cell:
        ``unknown``, ``miss``, ``hit`` (an open hit), ``sunk`` or ``water`` (known empty
        beside a sunk ship under no-touch rules); with ``pattern``, the unshot cells of
        the hunt pattern Λ_m of the shortest afloat ship are ``pattern``.

        >>> record = play_game(Rules.custom(3, [2]), "random", 1)
        >>> frames = record.frames(pattern=True)
        >>> len(frames) == record.shots_fired + 1, frames[0][:3]
        (True, ('pattern', 'unknown', 'pattern'))
        >>> frames[-1].count("sunk")
        2
        """
        return [tuple(LABELS[int(m)] for m in marks) for marks in self._marks(pattern)]

    def boards(self, pattern: bool = False) -> list[str]:
        """The board as text after each shot; with ``pattern``, the unshot cells of the
        hunt pattern Λ_m of the shortest afloat ship are drawn as ``+``."""
        grid = self.fleet.rules.grid
        return [draw(grid, marks) for marks in self._marks(pattern)][1:]

    def _marks(self, pattern: bool) -> list[np.ndarray]:
        """Observation marks before the first shot and after each shot."""
        ocean = Ocean(self.fleet)
        seen = [ocean.observation]
        for shot in self.shots:
            ocean.fire(shot.cell)
            seen.append(ocean.observation)
        return [_with_pattern(o) if pattern else o.marks for o in seen]

    def as_dict(self) -> dict:
        grid = self.fleet.rules.grid
        return {
            "game": self.game,
            "strategy": self.strategy,
            "rules": self.fleet.rules.describe(),
            "placer": self.placer,
            "fleet": {
                ship.name: [grid.name(c) for c in cells]
                for ship, cells in zip(self.fleet.rules.fleet, self.fleet.ships, strict=True)
            },
            "shots_fired": self.shots_fired,
            "hunt": self.hunt,
            "target": self.target,
            "shots": [
                {
                    "n": n,
                    "cell": grid.name(shot.cell),
                    "answer": shot.answer,
                    "mode": shot.mode,
                    **({"ship": shot.ship} if shot.ship else {}),
                }
                for n, shot in enumerate(self.shots, 1)
            ],
        }


def _with_pattern(observation) -> np.ndarray:
    """The marks with the unshot cells of Λ_m (m: the shortest afloat ship) as PATTERN."""
    marks = observation.marks
    if not observation.afloat:
        return marks
    rules = observation.rules
    cells = hunt_pattern(rules.rows, rules.cols, min(observation.afloat))
    return np.where(cells & (marks == UNKNOWN), PATTERN, marks)


def play_game(
    rules: Rules,
    strategy: str | Shooter,
    game: int,
    progress: Callable[[int], None] | None = None,
    placer: str | Placer = "uniform",
) -> GameRecord:
    """Play numbered game ``game`` with a strategy (a name or a shooter) against the
    fleet ``placer`` hides, to the last sunk ship; ``progress(shots)`` is called after
    every shot.

    >>> play_game(Rules.classic(), "hard", 7, 5)
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: progress is a function of (shots) or None, not 5
    """
    game = _game_number(game)
    checked_progress(progress, "shots", BattleshipError)
    return _play(as_rules(rules), as_shooter(strategy), game, progress, as_placer(placer))


def _game_number(game) -> int:
    """``game`` as a game number (a whole number from 1; NumPy's too).

    >>> _game_number(np.int64(5))
    5
    >>> _game_number("5")
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: a game number is a whole number, not '5'
    """
    if not isinstance(game, int | np.integer) or isinstance(game, bool | np.bool_):
        raise BattleshipError(f"a game number is a whole number, not {quoted(game)}")
    if game < 1:
        raise BattleshipError(f"game numbers start at 1, not {quoted(int(game))}")
    return int(game)


def _play(
    rules: Rules, shooter: Shooter, game: int, progress=None, placer: Placer = UNIFORM
) -> GameRecord:
    """Game ``game`` played shot by shot through ``shooter.choose``."""
    fleet = placer.place(rules, game_stream(game, FLEET_STREAM))
    rng = game_stream(game, SHOOTER_STREAM)
    ocean = Ocean(fleet)
    shots = []
    open_hits = 0
    while not ocean.over:
        try:
            cell = shooter.choose(ocean.observation, rng)
        except Exception as exc:
            exc.add_note(f"(the {shooter.name} shooter, in game {game})")
            raise
        try:
            shot = ocean.fire(cell)
        except ShotError as exc:
            raise exc.recast(ShotError, f"the {shooter.name} shooter, in game {game}") from None
        shots.append(
            ShotRecord(shot.cell, shot.answer, "target" if open_hits else "hunt", shot.ship)
        )
        if progress:
            progress(len(shots))
        if shot.answer == "hit":
            open_hits += 1
        elif shot.answer == "sunk":
            open_hits -= len(shot.ship_cells) - 1
    return GameRecord(game, shooter.name, fleet, tuple(shots), placer.name)


@dataclass(frozen=True)
class StrategyResult:
    """Shots, hunt shots and target shots of every game of one strategy."""

    strategy: str
    games: tuple[int, ...]
    shots: tuple[int, ...]
    hunt: tuple[int, ...]
    target: tuple[int, ...]

    def row(self, within: int = WITHIN) -> dict:
        """The summary of the shots; ``within`` is the share (0 to 1) of games done within
        ``within`` shots."""
        summary = summarize(self.shots)
        n = len(self.shots)
        return {
            "strategy": self.strategy,
            **{k: v for k, v in summary.as_dict().items() if k != "count"},
            "games": n,
            "within": sum(s <= within for s in self.shots) / n,
            "hunt_mean": sum(self.hunt) / n,
            "target_mean": sum(self.target) / n,
        }


@dataclass(frozen=True)
class SimulationTable:
    """Results of games first .. first + games - 1 for each strategy, and the exact
    random-shot law of the rules."""

    rules: Rules
    first: int
    results: tuple[StrategyResult, ...]
    placer: str = "uniform"
    placer_weights: tuple[tuple[str, float], ...] = ()  # a mixture's, as it drew

    @property
    def law(self) -> RandomLaw:
        return RandomLaw(self.rules.cells, self.rules.ship_cells)

    def versus_first(self, strategy: str) -> dict | None:
        """Mean and standard error of (shots of ``strategy``) − (shots of the first
        strategy) game by game (the same fleets: ``stats.paired``), and their ratio z;
        None for the first strategy itself.

        >>> table = simulate(Rules.classic(), ["random", "parity"], games=3)
        >>> round(table.versus_first("parity")["mean"], 2), table.versus_first("random")
        (-58.33, None)
        """
        named = {result.strategy: result for result in self.results}
        if strategy not in named:
            raise BattleshipError(f"{quoted(strategy)} was not among the strategies played")
        first = self.results[0]
        if strategy == first.strategy:
            return None
        return paired(named[strategy].shots, first.shots)

    def as_dict(self) -> dict:
        """The table as JSON gives it: per strategy its summary (``within``: the share,
        0 to 1, of games done within ``within_shots`` shots), its shots game by game
        (``shots``, in game order) and its paired difference against the first strategy
        (``versus_first``, None for the first)."""
        within = within_shots(self.rules)
        return {
            "hamle": fingerprint(),
            "rules": self.rules.describe(),
            "placer": self.placer,
            "placer_weights": dict(self.placer_weights) or None,
            "first": self.first,
            "games": len(self.results[0].shots) if self.results else 0,
            "within_shots": within,
            "strategies": {
                r.strategy: r.row(within)
                | {"versus_first": self.versus_first(r.strategy), "shots": list(r.shots)}
                for r in self.results
            },
            "exact_random": self.law.row(within),
        }


@dataclass(frozen=True, eq=False)
class PlayedGames:
    """The cells fired in numbered games of one strategy: ``cells[i, :shots[i]]`` are the
    shots of game ``games[i]`` in order (-1 after), ``hunt[i]`` how many of them were
    fired with no open hit on the board."""

    strategy: str
    games: tuple[int, ...]
    cells: np.ndarray
    shots: np.ndarray
    hunt: np.ndarray

    def fired(self, game: int) -> tuple[int, ...]:
        """The cells fired in game number ``game``, in order."""
        if game not in self.games:
            raise BattleshipError(f"game {quoted(game)} was not among the games played")
        i = self.games.index(game)
        return tuple(int(c) for c in self.cells[i, : self.shots[i]])


def play_games(
    rules: Rules, strategy: str | Shooter, games: Sequence[int], placer: str | Placer = "uniform"
) -> PlayedGames:
    """Play the numbered ``games`` with the named strategy against ``placer``'s fleets:
    the same games as ``play_game``, shot for shot, in one compiled call when the shooter
    has a game kernel.

    >>> played = play_games(Rules.classic(), "density", [743, 744])
    >>> record = play_game(Rules.classic(), "density", 743)
    >>> played.fired(743) == tuple(shot.cell for shot in record.shots)
    True
    """
    shooter = as_shooter(strategy)
    as_rules(rules)
    placer = as_placer(placer)
    if isinstance(games, str) or not hasattr(games, "__iter__"):
        raise BattleshipError(
            f"games is a list of game numbers (like range(1, 11)), not {quoted(games)}"
        )
    numbers = tuple(_game_number(game) for game in games)
    cells = np.full((len(numbers), rules.cells), -1, np.int64)
    if not _has_kernel(rules, shooter):
        records = [_play(rules, shooter, game, placer=placer) for game in numbers]
        for i, record in enumerate(records):
            cells[i, : record.shots_fired] = [shot.cell for shot in record.shots]
        shots = np.array([r.shots_fired for r in records], np.int64)
        hunt = np.array([r.hunt for r in records], np.int64)
        return PlayedGames(shooter.name, numbers, cells, shots, hunt)
    boards = np.empty((len(numbers), rules.cells), np.int64)
    pcgs = np.empty((len(numbers), 4), np.uint64)
    for i, game in enumerate(numbers):
        boards[i] = placer.place(rules, game_stream(game, FLEET_STREAM)).board()
        pcgs[i] = pcg_words(game_stream(game, SHOOTER_STREAM))
    table = placement_table(rules)
    lengths = np.array(rules.lengths, np.int64)
    shape = (game_kernel(shooter), rules.rows, rules.cols, rules.touching, lengths)
    tables = (table.cells, table.masks, table.bounds)
    shots, hunt = _kernels.play_games(*shape, boards, pcgs, *tables, cells)
    if (shots < 0).any():
        raise BattleshipError(f"the {shooter.name} shooter found no cell to fire at")
    return PlayedGames(shooter.name, numbers, cells, shots, hunt)


def _has_kernel(rules: Rules, shooter: Shooter) -> bool:
    if (kernel := game_kernel(shooter)) is None:
        return False
    # The int64 bound of kernel_plan only falls as ships sink (fewer placements, smaller w,
    # shorter longest ship), so a fleet that fits at the start fits for the whole game.
    return kernel != _kernels.SHOOT_DENSITY or kernel_plan(rules, rules.lengths).fits


def _play_chunk(
    rules: Rules, strategy: Shooter, placer: Placer, games: Sequence[int]
) -> list[tuple[int, int, int]]:
    played = play_games(rules, strategy, games, placer)
    return [
        (int(shots), int(hunt), int(shots - hunt))
        for shots, hunt in zip(played.shots, played.hunt, strict=True)
    ]


def simulate(
    rules: Rules,
    strategies: str | Shooter | Sequence[str | Shooter],
    games: int = 1000,
    first: int = 1,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    placer: str | Placer = "uniform",
    cluster: str | Cluster | None = None,
) -> SimulationTable:
    """Play games ``first .. first + games - 1`` with each strategy (a name or a shooter,
    or a sequence of them; one row per shooter, however often it is named) against
    ``placer``'s fleets in ``jobs`` processes, or on the Dask cluster whose scheduler is
    at ``cluster``; ``progress(done, total)`` is called as games finish."""
    games, first, jobs = checked_run(games, first, jobs, progress, cluster)
    placer = as_placer(placer).settled(as_rules(rules))
    shooters = unique([as_shooter(s) for s in listed(strategies, "strategy")], "shooter")
    played = play_pairings(
        rules, [(s, placer) for s in shooters], games, first, jobs, progress, cluster
    )
    results = tuple(
        StrategyResult(
            shooter.name,
            tuple(range(first, first + games)),
            tuple(r[0] for r in rows),
            tuple(r[1] for r in rows),
            tuple(r[2] for r in rows),
        )
        for shooter, rows in zip(shooters, played, strict=True)
    )
    return SimulationTable(rules, first, results, placer.name, placer.parts)


def whole_number(value) -> bool:
    """Whether ``value`` is a whole number of at least 1, NumPy's too, not a bool.

    >>> whole_number(np.int64(3)), whole_number(True), whole_number(2.0)
    (True, False, False)
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool) and bool(value >= 1)


def checked_run(games, first, jobs, progress, cluster) -> tuple[int, int, int]:
    """``games``, ``first`` and ``jobs`` as ints (NumPy's taken, booleans not), or the
    BattleshipError naming what is wrong with a run's arguments.

    >>> checked_run(np.int64(10), 1, 2, None, "tcp://127.0.0.1:8786")
    Traceback (most recent call last):
    hamle.battleship.errors.BattleshipError: give jobs or cluster, not both (jobs=2)
    """
    if not whole_number(games) or games > MAX_GAMES:
        raise BattleshipError(
            f"the number of games must be from 1 to {MAX_GAMES:,}, not {quoted(games)}"
        )
    if not whole_number(first):
        raise BattleshipError(f"game numbers start at 1, not {quoted(first)}")
    jobs = checked_jobs(jobs, BattleshipError)
    if cluster is not None and jobs != 1:
        raise BattleshipError(f"give jobs or cluster, not both (jobs={jobs})")
    checked_progress(progress, "done, total", BattleshipError)
    return int(games), int(first), int(jobs)


def play_pairings(
    rules: Rules,
    pairings: Sequence[tuple[Shooter, Placer]],
    games: int,
    first: int = 1,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | Cluster | None = None,
) -> list[list[tuple[int, int, int]]]:
    """Per (shooter, placer) pairing, (shots, hunt, target) of games ``first .. first +
    games - 1``, played in chunks by ``jobs`` processes or the workers of ``cluster``
    (all pairings' chunks at once, so no worker waits for a pairing to end)."""
    games, first, jobs = checked_run(games, first, jobs, progress, cluster)
    for shooter, placer in pairings:
        check_playable(rules, shooter)
        if jobs > 1 and cluster is None:  # (a cluster sends by cloudpickle, which can)
            checked_sendable(shooter, BattleshipError)
            checked_sendable(placer, BattleshipError)
    total, done = len(pairings) * games, 0
    outcomes: list[list] = [[] for _ in pairings]

    # A chunk of a shooter that plays outside the kernels (seconds a game) is two games, so
    # that an interrupted run leaves little work running where it cannot be stopped.
    most = 50 if all(game_kernel(shooter) is not None for shooter, _ in pairings) else 2

    def split(parallel: int) -> list[tuple[int, range]]:
        # (ranges, not lists: a run of millions of games holds hundreds of thousands)
        size = max(1, min(most, games // (4 * parallel) or 1))
        last = first + games
        chunks = [range(start, min(start + size, last)) for start in range(first, last, size)]
        return [(k, chunk) for k in range(len(pairings)) for chunk in chunks]

    def collect(k: int, chunk: list[int], rows: list) -> None:
        nonlocal done
        outcomes[k].extend(rows)
        done += len(chunk)
        if progress:
            progress(done, total)

    def work(tasks) -> list[tuple]:
        return [(rules, *pairings[k], chunk) for k, chunk in tasks]

    if cluster is not None:
        with Cluster.of(cluster) as running:
            tasks = split(running.threads)
            running.map(_play_chunk, work(tasks), lambda i, rows: collect(*tasks[i], rows))
    elif jobs == 1:
        for k, chunk in split(1):
            collect(k, chunk, _play_chunk(rules, *pairings[k], chunk))
    else:
        tasks = split(jobs)
        with local_pool(jobs, tasks=len(tasks)) as pool:
            futures = [pool.submit(_play_chunk, *task) for task in work(tasks)]
            for (k, chunk), future in zip(tasks, futures, strict=True):
                collect(k, chunk, future.result())
    return outcomes


def check_playable(rules: Rules, shooter: str | Shooter) -> None:
    """CountTooLargeError if ``shooter`` could not fire its first shot under ``rules``:
    the exact shooter on boards too wide for exact counting. Cheap, so that a game or a
    run is refused before it starts.

    >>> check_playable(Rules.custom(16, [3, 3]), "density")
    """
    if isinstance(as_shooter(shooter), ExactShooter):
        check_countable(as_rules(rules))


def listed(values, what: str) -> list:
    """``values`` as a non-empty list (one value given alone is a list of one)."""
    if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
        values = [values]
    values = list(values)
    if not values:
        raise BattleshipError(f"name at least one {what}")
    return values


def unique(values: list, what: str) -> list:
    """Each value once, in the order first given (a name is a value's identity)."""
    seen: dict[str, object] = {}
    for value in values:
        if seen.setdefault(value.name, value) != value:
            raise BattleshipError(f"two different {what}s are named {value.name!r}")
    return list(seen.values())
