"""Battleship API: play against the computer, replay numbered games, and the simulation
table with its P(done within t shots) curves.

A game against the computer is stored as its rules, level, the player's fleet, the
player's shots and a secret seed. The computer's fleet and every choice it makes come
from the seed's numbered streams, so replaying the stored shots rebuilds the game exactly,
also after a restart. Neither the seed nor the computer's fleet leaves the server before
the game is over.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

import hamle.battleship as bs
from hamle.rng import FLEET_STREAM, PLAYER_FLEET_STREAM, SHOOTER_STREAM, game_stream

from .common import GameId, Refused, Route, Strict, any_case, client_of, created, store_of
from .slots import HEAVY, Kept, Turns
from .store import Store

router = APIRouter(prefix="/api/battleship", tags=["battleship"], route_class=Route)

KIND = "battleship"
RULE_NAMES = ("classic", "russian")
LEVELS = bs.LEVELS
RuleName = any_case(Literal[RULE_NAMES])
Level = any_case(Literal[LEVELS])
Strategy = any_case(
    Literal["random", "hunt-target", "parity", "density", "expert", "easy", "normal", "hard"]
)
# The Expert level's shooter by rules, named with its settings, so that
# `hamle battleship replay --strategy NAME` plays the site's games.
EXPERT_SHOOTERS: dict[str, bs.Shooter] = {
    name: bs.level_shooter("expert", bs.Rules.named(name)) for name in RULE_NAMES
}
# The shooter of games stored before, by level, rules and the shooter's stored name: without
# a name (nor the computer's shots, which are decided again) the Russian Expert level played
# exact, the classic one the expert before its endgame (README, "The endgame"); "expert"
# under Russian rules was the budgeted expert, named so before it was named by its settings.
EARLIER_SHOOTERS: dict[tuple[str, str, str | None], bs.Shooter] = {
    ("expert", "russian", None): bs.get_shooter("exact"),
    ("expert", "classic", None): bs.ExpertShooter(endgame_ships=0),
    ("expert", "russian", "expert"): EXPERT_SHOOTERS["russian"],
}
# The exact shooter needs seconds for its first shots, too slow for statistics on demand.
SITE_SHOOTERS = ("random", "hunt-target", "parity", "density")
# Replays: those and the Expert level's shooter, whose game takes seconds of every core (in
# a heavy slot; the latest REPLAYS_KEPT of its games are kept).
REPLAY_SHOOTERS = (*SITE_SHOOTERS, "expert")
REPLAYS_KEPT = 64
# The Expert level's replies, each on every core: two are worked out at once, and one of
# each client, so that one client's many games crowd out neither the rest of the site nor
# other players' replies.
EXPERT_MOVES = Turns(2)
CellName = Annotated[str, Field(min_length=2, max_length=8, examples=["E5"])]
MAX_GAME = 10**9
MIN_GAMES, MAX_GAMES, DEFAULT_GAMES = 10, 2000, 1000
MAX_JOBS = 2
SEED_BITS = 128
STATS_VERSION = 3
# The statistics page's tournament: every site shooter against every placer on the first
# TOURNAMENT_GAMES games (or fewer), about half a minute on one core.
TOURNAMENT_GAMES = 500
SITE_PLACERS = ("uniform", "edges", "anti-density", "spread", "clustered")  # (no tuning)


class NewBattleshipGame(Strict):
    """A game against the computer: the rules, the level and your fleet."""

    rules: RuleName = "classic"
    level: Level = "normal"
    fleet: list[Annotated[list[CellName], Field(min_length=1, max_length=10)]] = Field(
        min_length=1,
        max_length=10,
        description="Your ships in fleet order (see /options), each as its cells.",
        examples=[
            [
                ["A1", "A2", "A3", "A4", "A5"],
                ["C1", "D1", "E1", "F1"],
                ["H1", "H2", "H3"],
                ["J5", "J6", "J7"],
                ["C5", "D5"],
            ]
        ],
    )


class Target(Strict):
    """The cell you fire at."""

    cell: CellName


class StatsJob(Strict):
    """Which simulation table to compute."""

    rules: RuleName = "classic"
    games: int = Field(DEFAULT_GAMES, ge=MIN_GAMES, le=MAX_GAMES, strict=True)


class ShotOut(BaseModel):
    cell: str
    answer: Literal["miss", "hit", "sunk"]
    ship: str | None = Field(None, description="The sunk ship, on a sunk answer.")
    cells: list[str] = Field([], description="The sunk ship's cells, on a sunk answer.")


class ShipOut(BaseModel):
    name: str
    length: int
    cells: list[str]


class FleetOut(BaseModel):
    rules: str
    fleet: list[ShipOut]


class ShipKind(BaseModel):
    name: str
    length: int


class RulesOut(BaseModel):
    name: str
    describe: str = Field(description="The rules in words, like 10×10, fleet 5,4,3,3,2, …")
    rows: int
    cols: int
    touching: bool = Field(description="Whether ships may touch (classic) or not (Russian)")
    fleet: list[ShipKind]


class LevelOut(BaseModel):
    level: str
    shooter: str = Field(description="The computer's shooter under classic rules")
    shooters: dict[str, str] = Field(description="The computer's shooter under each rule set")
    placers: dict[str, str] = Field(description="Where it hides its fleet under each rule set")


class Bounds(BaseModel):
    min: int
    max: int
    default: int


class OptionsOut(BaseModel):
    levels: list[LevelOut]
    strategies: list[str] = Field(description="The shooters a replay may show")
    rules: list[RulesOut]
    games: Bounds = Field(description="The statistics' games per strategy")
    max_game: int = Field(description="The largest game number a replay takes")


class ReplayShot(BaseModel):
    n: int
    cell: str
    answer: Literal["miss", "hit", "sunk"]
    mode: Literal["hunt", "target"] = Field(description="hunt: fired with no hit open")
    ship: str | None = Field(None, description="The ship sunk (on sunk shots only)")


class ReplayOut(BaseModel):
    game: int
    strategy: str = Field(description="The shooter, named with its settings")
    rules: str = Field(description="The rules in words (preset: their name)")
    fleet: dict[str, list[str]] = Field(description="Each ship's cells, by ship name")
    shots_fired: int
    hunt: int
    target: int
    shots: list[ReplayShot]
    preset: str
    rows: int
    cols: int
    pattern: bool
    frames: list[list[str]] = Field(
        description="The marks before the first shot and after each (unknown, miss, hit, "
        "sunk, water, pattern), row by row"
    )


class SideOut(BaseModel):
    """One board as its shooter sees it."""

    marks: list[str] = Field(description="Per cell, row by row: unknown, miss, hit, sunk, water.")
    shots: list[ShotOut]
    sunk: list[ShipOut]
    afloat: int
    ships: int


class GameOut(BaseModel):
    id: str
    rules: str
    level: str
    shooter: str
    rows: int
    cols: int
    touching: bool
    turn: int = Field(description="Shots you have fired.")
    over: bool
    winner: Literal["you", "computer"] | None
    enemy: SideOut = Field(description="Your shots on the computer's waters.")
    own: SideOut = Field(description="The computer's shots on your waters.")
    fleet: list[ShipOut] = Field(description="Your fleet.")
    enemy_fleet: list[ShipOut] | None = Field(description="Shown only once the game is over.")


class FireOut(BaseModel):
    you: ShotOut
    computer: ShotOut | None = Field(description="The computer's reply; none if you just won.")
    game: GameOut


class HeatOut(BaseModel):
    w: int
    d: list[str] = Field(description="The density d per cell, as decimal text (it can be huge).")
    heat: list[float] = Field(description="d relative to the greatest d, 0 to 1.")
    best: list[str]
    best_d: str


class Progress(BaseModel):
    rules: str
    games: int
    state: Literal["missing", "running", "ready", "failed"]
    done: int
    total: int
    detail: str = ""


class StatsOut(BaseModel):
    """The statistics once computed (``state: ready``), else how far their job has come
    (``running``, ``failed``, ``missing``: the fields of ``Progress``)."""

    rules: str
    games: int
    state: Literal["missing", "running", "ready", "failed"]
    done: int | None = Field(None, description="Games played so far (not once ready).")
    total: int | None = Field(None, description="Games the job plays (not once ready).")
    detail: str | None = Field(None, description="Why it failed, or how to compute it.")
    cells: int | None = Field(None, description="The board's cells.")
    ship_cells: int | None = Field(None, description="The fleet's cells.")
    table: dict | None = Field(None, description="Every shooter's shots on the same games.")
    curves: dict[str, list[float]] | None = Field(
        None, description="Per shooter, the share of games done within t shots, t = 0..cells."
    )
    exact: list[float] | None = Field(
        None, description="The same for random shooting, from its exact law."
    )
    tournament: dict | None = Field(None, description="Every shooter against every placer.")


def level_shooter(level: str, rules: str) -> bs.Shooter:
    """The computer's shooter at ``level`` under the named rules.

    >>> level_shooter("hard", "russian").name, level_shooter("expert", "classic").name
    ('density', 'expert')
    >>> level_shooter("expert", "russian").name
    'expert(fleets=2000, rounds=4, z=1000000000.0, tolerance=0.0, budget=600000)'
    """
    return bs.level_shooter(level, bs.Rules.named(rules))


def game_shooter(state: dict) -> bs.Shooter:
    """The computer's shooter in a stored game: its level's, unless the game was started
    with another (``state["shooter"]``, else ``EARLIER_SHOOTERS``)."""
    stored = state.get("shooter")
    if (earlier := EARLIER_SHOOTERS.get((state["level"], state["rules"], stored))) is not None:
        return earlier
    shooter = level_shooter(state["level"], state["rules"])
    return shooter if stored in (None, shooter.name) else bs.get_shooter(stored)


def level_placer(level: str, rules: str) -> bs.Placer:
    """Where the computer hides its fleet at ``level`` under the named rules.

    >>> level_placer("normal", "classic").name, level_placer("hard", "classic").name
    ('uniform', 'anti-density')
    """
    return bs.level_placer(level, bs.Rules.named(rules))


class Match:
    """A game against the computer, rebuilt from its stored state."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.rules = bs.Rules.named(state["rules"])
        self.shooter = game_shooter(state)
        seed = state["seed"]
        placer = bs.get_placer(state.get("placer", "uniform"))  # (games stored before placers)
        self.theirs = bs.Ocean(placer.place(self.rules, game_stream(seed, FLEET_STREAM)))
        self.yours = bs.Ocean(bs.Fleet.from_cells(self.rules, state["fleet"]))
        self.rng = game_stream(seed, SHOOTER_STREAM)
        self.mine: list[bs.Shot] = []
        self.replies: list[bs.Shot] = []
        # The computer's shots are kept with the stream after them, so a request replays
        # them instead of deciding each again (games stored without them decide again).
        kept = state.get("replies", [])
        if kept:
            self.rng.bit_generator.state = state["shooter_rng"]
        for turn, cell in enumerate(state["shots"]):
            if turn < len(kept):
                self.mine.append(self.theirs.fire(self.rules.grid.index(cell), stored=True))
                self.replies.append(self.yours.fire(self.rules.grid.index(kept[turn])))
            else:
                self.fire(cell, stored=True)

    @property
    def winner(self) -> str | None:
        if self.theirs.over:
            return "you"
        return "computer" if self.yours.over else None

    def fire(self, name: str, stored: bool = False) -> tuple[bs.Shot, bs.Shot | None]:
        """Your shot at the named cell, then the computer's reply (none if you won);
        ``stored``: a shot of the stored game replayed (``Ocean.fire``)."""
        if self.winner:
            if self.winner == "you":
                raise Refused("the game is over: you won", code="battleship.you_won")
            raise Refused("the game is over: the computer won", code="battleship.computer_won")
        shot = self.theirs.fire(self.rules.grid.index(name), stored=stored)
        self.mine.append(shot)
        if self.theirs.over:
            return shot, None
        reply = self.yours.fire(self.shooter.choose(self.yours.observation, self.rng))
        self.replies.append(reply)
        return shot, reply

    def view(self, game_id: str) -> GameOut:
        over = self.winner is not None
        return GameOut(
            id=game_id,
            rules=self.state["rules"],
            level=self.state["level"],
            shooter=self.shooter.name,
            rows=self.rules.rows,
            cols=self.rules.cols,
            touching=self.rules.touching,
            turn=len(self.mine),
            over=over,
            winner=self.winner,
            enemy=side(self.theirs, self.mine),
            own=side(self.yours, self.replies),
            fleet=ships(self.yours.fleet),
            enemy_fleet=ships(self.theirs.fleet) if over else None,
        )


def side(ocean: bs.Ocean, shots: list[bs.Shot]) -> SideOut:
    """What the shooter knows of one ocean: marks, shots, sunk ships, ships afloat."""
    grid = ocean.fleet.rules.grid
    marks = ["water"] * grid.size  # cells neither unshot nor fired at: water by a sunk ship
    for cell in ocean.observation.unshot.tolist():
        marks[cell] = "unknown"
    for shot in shots:  # a ship's sinking shot comes after its hits
        marks[shot.cell] = shot.answer
        for cell in shot.ship_cells:
            marks[cell] = "sunk"
    sunk = [s for s in shots if s.answer == "sunk"]
    return SideOut(
        marks=marks,
        shots=[shot_out(grid, s) for s in shots],
        sunk=[
            ShipOut(name=s.ship, length=len(s.ship_cells), cells=names(grid, s.ship_cells))
            for s in sunk
        ],
        afloat=len(ocean.observation.afloat),
        ships=len(ocean.fleet.ships),
    )


def shot_out(grid, shot: bs.Shot) -> ShotOut:
    return ShotOut(
        cell=grid.name(shot.cell),
        answer=shot.answer,
        ship=shot.ship,
        cells=names(grid, shot.ship_cells),
    )


def ships(fleet: bs.Fleet) -> list[ShipOut]:
    grid = fleet.rules.grid
    return [
        ShipOut(name=ship.name, length=ship.length, cells=names(grid, cells))
        for ship, cells in zip(fleet.rules.fleet, fleet.ships, strict=True)
    ]


def names(grid, cells) -> list[str]:
    return [grid.name(c) for c in cells]


def rules_info(name: str) -> dict:
    rules = bs.Rules.named(name)
    return {
        "name": name,
        "describe": rules.describe(),
        "rows": rules.rows,
        "cols": rules.cols,
        "touching": rules.touching,
        "fleet": [{"name": s.name, "length": s.length} for s in rules.fleet],
    }


@router.get("/options")
def options() -> OptionsOut:
    """Levels (with the shooter each one uses), strategies, rule sets and their fleets,
    and the bounds of the replay and statistics parameters."""
    return {
        "levels": [
            {
                "level": lv,
                "shooter": level_shooter(lv, "classic").name,
                "shooters": {name: level_shooter(lv, name).name for name in RULE_NAMES},
                "placers": {name: level_placer(lv, name).name for name in RULE_NAMES},
            }
            for lv in LEVELS
        ],
        "strategies": list(REPLAY_SHOOTERS),
        "rules": [rules_info(name) for name in RULE_NAMES],
        "games": {"min": MIN_GAMES, "max": MAX_GAMES, "default": DEFAULT_GAMES},
        "max_game": MAX_GAME,
    }


@router.get("/fleet")
def random_fleet(rules: RuleName = "classic") -> FleetOut:
    """A fleet drawn uniformly from all legal fleets, new on every request."""
    chosen = bs.Rules.named(rules)
    fleet = bs.random_fleet(chosen, game_stream(secrets.randbits(64), PLAYER_FLEET_STREAM))
    return {"rules": rules, "fleet": [s.model_dump() for s in ships(fleet)]}


@router.post("/games", status_code=201)
def new_game(request: Request, response: Response, body: NewBattleshipGame) -> GameOut:
    """Start a game with your fleet (checked by the engine) against the level's shooter."""
    fleet = bs.Fleet.from_cells(bs.Rules.named(body.rules), body.fleet)
    state = {
        "rules": body.rules,
        "level": body.level,
        "placer": level_placer(body.level, body.rules).name,
        "shooter": level_shooter(body.level, body.rules).name,
        "seed": secrets.randbits(SEED_BITS),
        "fleet": [s.cells for s in ships(fleet)],
        "shots": [],
    }
    match = Match(state)
    return match.view(created(request, response, KIND, state))


@router.get("/games/{game_id}")
def get_game(request: Request, game_id: GameId) -> GameOut:
    """The game as both sides see it now (the computer's fleet once it is over)."""
    return Match(store_of(request).load(KIND, game_id)).view(game_id)


@router.post("/games/{game_id}/shots")
async def fire(request: Request, game_id: GameId, body: Target) -> FireOut:
    """Fire at a cell; the answer comes with the computer's reply (none if you won). The
    Expert level's replies, on every core for up to a few tenths of a second, wait their
    turn: a client's one at a time, with one more waiting (a third is refused, 409)."""
    store = store_of(request)
    level = (await run_in_threadpool(store.load, KIND, game_id))["level"]
    if level != "expert":
        return await run_in_threadpool(_fire, store, game_id, body)
    async with EXPERT_MOVES.turn(client_of(request)):
        return await run_in_threadpool(_fire, store, game_id, body)


def _fire(store: Store, game_id: str, body: Target) -> FireOut:
    with store.update(KIND, game_id) as state:
        match = Match(state)
        shot, reply = match.fire(body.cell)
        grid = match.rules.grid
        state["shots"].append(grid.name(shot.cell))
        state["replies"] = [grid.name(answer.cell) for answer in match.replies]
        state["shooter_rng"] = match.rng.bit_generator.state
        state["shooter"] = match.shooter.name
    return FireOut(
        you=shot_out(grid, shot),
        computer=None if reply is None else shot_out(grid, reply),
        game=match.view(game_id),
    )


@router.get("/games/{game_id}/heat")
def heat(request: Request, game_id: GameId) -> HeatOut:
    """Hard level only: the computer's density d over your board as it sees it now."""
    match = Match(store_of(request).load(KIND, game_id))
    if match.shooter.name != "density":
        raise Refused(
            "the heat map shows the Hard level's thinking; this game is not on Hard",
            code="battleship.heat_not_hard",
        )
    report = bs.density(match.yours.observation, check=False)
    d = [int(x) for x in report.d]
    top = max(d)
    return HeatOut(
        w=report.w,
        d=[str(x) for x in d],
        heat=[round(x / top, 4) if top else 0.0 for x in d],
        best=report.best_names,
        best_d=str(top),
    )


@router.get("/replay", response_model_exclude_none=True)  # (ship on sunk shots alone)
def replay(
    request: Request,
    game: Annotated[int, Query(ge=1, le=MAX_GAME, description="Game number.")],
    strategy: Strategy = "parity",
    rules: RuleName = "classic",
    pattern: bool = False,
) -> ReplayOut:
    """Numbered game ``game`` played by ``strategy``: the fleet, every shot (answer, mode
    hunt/target) and the board before and after each shot (with the hunt pattern). The
    expert is the Expert level's shooter; its game takes seconds (409 while the heavy
    slots are busy)."""
    chosen = bs.Rules.named(rules)
    if bs.get_shooter(strategy).name == "expert":
        record = _expert_game(client_of(request), rules, game)
    else:
        record = bs.play_game(chosen, strategy, game)
    return {
        **record.as_dict(),
        "preset": rules,
        "rows": chosen.rows,
        "cols": chosen.cols,
        "pattern": pattern,
        "frames": [list(frame) for frame in record.frames(pattern)],
    }


_expert_games = Kept(REPLAYS_KEPT)


def _expert_game(client: str, rules: str, game: int) -> bs.GameRecord:
    """Game ``game`` of the Expert level's shooter under the named rules, played in a heavy
    slot unless it is among the latest REPLAYS_KEPT played."""
    key = (rules, game)
    if (kept := _expert_games.get(key)) is not None:
        return kept
    with HEAVY.taken(client):
        record = bs.play_game(bs.Rules.named(rules), EXPERT_SHOOTERS[rules], game)
    _expert_games.put(key, record)
    return record


# Statistics: computed in a background thread, one job per (rules, games), cached.


@dataclass
class Job:
    total: int
    client: str  # the address that started it: one running job per client
    done: int = 0
    state: str = "running"
    detail: str = ""


_jobs_lock = threading.Lock()


def stats_key(rules: str, games: int) -> str:
    return f"battleship/stats/v{STATS_VERSION}/{rules}/{games}"


def _jobs(request: Request) -> dict[str, Job]:
    state = request.app.state
    with _jobs_lock:
        if not hasattr(state, "battleship_jobs"):
            state.battleship_jobs = {}
        return state.battleship_jobs


def compute_stats(rules_name: str, games: int, progress: Callable[[int, int], None]) -> dict:
    """The simulation table of every shooter, the P(done within t) curves and the
    tournament of the shooters against every placer."""
    rules = bs.Rules.named(rules_name)
    table = bs.simulate(rules, list(SITE_SHOOTERS), games=games, progress=progress)
    played = len(SITE_SHOOTERS) * games
    matrix = bs.tournament(
        rules,
        list(SITE_SHOOTERS),
        list(SITE_PLACERS),
        games=min(games, TOURNAMENT_GAMES),
        progress=lambda done, total: progress(played + done, played + total),
    )
    law = table.law
    return {
        "rules": rules_name,
        "games": games,
        "cells": rules.cells,
        "ship_cells": rules.ship_cells,
        "table": table.as_dict(),
        "curves": {r.strategy: within(r.shots, rules.cells) for r in table.results},
        "exact": [round(float(law.cdf(t)), 6) for t in range(rules.cells + 1)],
        "tournament": matrix.as_dict(),
    }


def stats_total(games: int) -> int:
    """The games a statistics job plays: the table's, then the tournament's."""
    return len(SITE_SHOOTERS) * (games + len(SITE_PLACERS) * min(games, TOURNAMENT_GAMES))


def within(shots: tuple[int, ...], cells: int) -> list[float]:
    """Share of games over within t shots, for t = 0 .. cells."""
    finished = [0] * (cells + 1)
    for n in shots:
        finished[n] += 1
    out, total = [], 0
    for count in finished:
        total += count
        out.append(round(total / len(shots), 6))
    return out


def _run(job: Job, store, key: str, rules: str, games: int) -> None:
    def progress(done: int, total: int) -> None:
        job.done = done

    try:
        store.remember(key, compute_stats(rules, games, progress))
        job.state = "ready"
    except Exception as exc:  # reported through the progress endpoint, not lost in a thread
        job.state, job.detail = "failed", f"the computation failed: {exc}"


def _progress(request: Request, rules: str, games: int) -> Progress:
    key = stats_key(rules, games)
    job = _jobs(request).get(key)
    total = stats_total(games)
    if job and job.state == "running":
        return Progress(rules=rules, games=games, state="running", done=job.done, total=total)
    if store_of(request).cached(key) is not None:
        return Progress(rules=rules, games=games, state="ready", done=total, total=total)
    if job and job.state == "failed":
        return Progress(
            rules=rules, games=games, state="failed", done=job.done, total=total, detail=job.detail
        )
    return Progress(
        rules=rules,
        games=games,
        state="missing",
        done=0,
        total=total,
        detail=f"not computed yet: POST /api/battleship/stats to compute {games} games",
    )


Games = Annotated[int, Query(ge=MIN_GAMES, le=MAX_GAMES, description="Games per strategy.")]


@router.get("/stats", response_model=StatsOut, response_model_exclude_none=True)
def stats(request: Request, rules: RuleName = "classic", games: Games = DEFAULT_GAMES) -> dict:
    """The cached simulation table and curves (``state: ready``), or the job's progress
    (``running``, ``failed``) or ``missing`` when not computed yet."""
    cached = store_of(request).cached(stats_key(rules, games))
    if cached is not None:
        return {"state": "ready", **cached}
    return _progress(request, rules, games).model_dump()


@router.get("/stats/progress")
def stats_progress(
    request: Request, rules: RuleName = "classic", games: Games = DEFAULT_GAMES
) -> Progress:
    """How far the statistics job for these rules and games has come (its state, games
    done of the total)."""
    return _progress(request, rules, games)


@router.post(
    "/stats",
    status_code=202,
    responses={200: {"model": Progress, "description": "The table is computed already"}},
)
def start_stats(request: Request, response: Response, body: StatsJob) -> Progress:
    """Start computing the table in the background (202, joining a running job for the
    same rules and games); follow it with /stats/progress. A table computed already is
    ready (200): the games are numbered, so computing it again would give it again. At
    most MAX_JOBS run at once, no two started by one client (409)."""
    key = stats_key(body.rules, body.games)
    if store_of(request).cached(key) is not None:
        response.status_code = 200
        return _progress(request, body.rules, body.games)
    jobs, client = _jobs(request), client_of(request)
    with _jobs_lock:
        job = jobs.get(key)
        if job is None or job.state != "running":
            running = [j for j in jobs.values() if j.state == "running"]
            if any(j.client == client for j in running):
                raise Refused(
                    "a statistics computation from your address is still running; try again "
                    "when it is done",
                    code="battleship.stats_yours_busy",
                )
            if len(running) >= MAX_JOBS:
                raise Refused(
                    "{running} statistics computations are running; try again when one is done",
                    code="battleship.stats_busy",
                    running=len(running),
                )
            job = jobs[key] = Job(total=stats_total(body.games), client=client)
            worker = threading.Thread(
                target=_run,
                args=(job, store_of(request), key, body.rules, body.games),
                name=f"stats {body.rules} {body.games}",
                daemon=True,
            )
            worker.start()
    return _progress(request, body.rules, body.games)


def warm_up() -> None:
    """Compile the kernels a game needs (a random fleet, one density decision, one expert
    decision in each mode, its endgame included, an exact map where ships may not touch)."""
    rules = bs.Rules.classic()
    fleet = bs.random_fleet(rules, game_stream(0, FLEET_STREAM))
    ocean = bs.Ocean(fleet)
    shooter = bs.get_shooter("hard")
    ocean.fire(shooter.choose(ocean.observation, game_stream(0, SHOOTER_STREAM)))
    expert = bs.ExpertShooter(fleets=2)
    endgame = bs.Observation.start(bs.Rules.custom(4, [2, 1]))  # two afloat: every fleet
    for observation in (ocean.observation, bs.Observation.from_marks(rules, hit=["E5"]), endgame):
        expert.choose(observation, game_stream(0, SHOOTER_STREAM))
    russian = bs.Observation.from_marks(bs.Rules.russian(), sunk=[["A1"]], hit=["E5"])
    level_shooter("expert", "russian").choose(russian, game_stream(0, SHOOTER_STREAM))
    bs.play_game(rules, "parity", 1).frames(pattern=True)
