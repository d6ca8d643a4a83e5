"""The density lab: the Hard shooter's density d for any board marked by hand, the exact
number of layouts that put a ship on each cell, fleets drawn exactly uniformly from those
that fit, and the Expert level's next shot.

The page sends misses, hits and sunk ships; the engine checks them against the rules and
answers d for every unshot cell (as decimal strings: d can exceed 2^53), the best cells,
w and the cells known to be water. Contradictory marks get the engine's text as a 400.
"""

from __future__ import annotations

import secrets
from contextlib import nullcontext
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, StringConstraints

import hamle.battleship as bs

from .battleship import EXPERT_SHOOTERS
from .common import Route, Strict, any_case, client_of
from .slots import HEAVY, Kept

router = APIRouter(prefix="/api/battleship", tags=["battleship lab"], route_class=Route)

RULES = {"classic": bs.Rules.classic(), "russian": bs.Rules.russian()}
MOST_CELLS = max(rules.cells for rules in RULES.values())
MOST_SHIPS = max(len(rules.fleet) for rules in RULES.values())
LONGEST = max(max(rules.rows, rules.cols) for rules in RULES.values())

CellName = Annotated[str, StringConstraints(max_length=8)]
Cells = Annotated[list[CellName], Field(max_length=MOST_CELLS)]
ShipCells = Annotated[list[CellName], Field(min_length=1, max_length=LONGEST)]
Length = Annotated[int, Field(strict=True, ge=1, le=LONGEST)]


class Marks(Strict):
    """A board marked by hand: cell names like ``E5``; each sunk ship as its cells."""

    rules: any_case(Literal["classic", "russian"]) = "classic"
    miss: Cells = Field(default_factory=list)
    hit: Cells = Field(default_factory=list)
    sunk: Annotated[list[ShipCells], Field(max_length=MOST_SHIPS)] = Field(default_factory=list)
    afloat: Annotated[list[Length], Field(max_length=MOST_SHIPS)] | None = Field(
        default=None,
        description="Lengths of the ships afloat (default: fleet minus sunk); a ship "
        "neither sunk nor listed is taken as gone, as one removed by hand",
    )

    def observation(self) -> bs.Observation:
        """The board these marks describe, as the engine reads and checks it."""
        return bs.Observation.from_marks(
            RULES[self.rules], self.miss, self.hit, self.sunk, self.afloat
        )


class ShipInfo(BaseModel):
    name: str
    length: int


SAMPLE_MOST = 1000  # fleets one request draws at most (a Russian fleet is about 340 bytes of JSON)
SEED_MOST = 2**63 - 1  # (the command takes any seed from 0; a request, a 64-bit integer)
FRESH_SEED_BITS = 53  # a seed the site draws is one JavaScript reads back whole


class SampleRequest(Marks):
    """Marks, as the counts take them, and how many fleets to draw from what seed."""

    count: int = Field(10, strict=True, ge=1, le=SAMPLE_MOST, description="How many fleets to draw")
    seed: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=SEED_MOST,
        description="Seed of the draws (default: a fresh one, given in the answer); the same "
        "marks, seed and count draw the same fleets, as `hamle battleship sample` does",
    )


class DrawnShip(BaseModel):
    length: int
    cells: list[str]


class Sample(BaseModel):
    """Fleets of the afloat ships, each drawn exactly uniformly and independently from
    all that fit the marks (ships labelled), and what they were drawn under: the rules,
    board and fleet, the marks as the engine read them (``afloat`` in the order each
    fleet lists its ships), the seed and the count."""

    rules: str
    rows: int
    cols: int
    touching: bool
    fleet: list[ShipInfo]
    miss: list[str]
    hit: list[str]
    sunk: list[list[str]]
    afloat: list[int]
    seed: int
    count: int
    fleets: list[list[DrawnShip]]


class Density(BaseModel):
    """d per unshot cell as a decimal string, its share of the best d (0..1) for
    colouring, the best cells, w, the afloat lengths and the cells known to be water."""

    rules: str
    rows: int
    cols: int
    w: int
    density: dict[str, str]
    heat: dict[str, float]
    best: list[str]
    best_d: str
    afloat: list[int]
    water: list[str]


class Exact(BaseModel):
    """How many layouts fit the marks (``total``, equal ships alike; ``fleets``, ships
    labelled) and how many put a ship on each unshot cell (decimal strings), each cell's
    probability, its share of the best (0..1), the best cells, the afloat lengths and
    the cells known to be water."""

    rules: str
    rows: int
    cols: int
    total: str
    fleets: str
    counts: dict[str, str]
    probability: dict[str, float]
    heat: dict[str, float]
    best: list[str]
    best_count: str
    afloat: list[int]
    water: list[str]


class WeighedCell(BaseModel):
    """A cell the expert rolled out: the mean shots to finish firing it first (that shot
    included) over ``fleets`` fleets, and how many more than the chosen cell needs on the
    same fleets (``behind``) with the standard error of that difference."""

    cell: str
    shots: float
    fleets: int
    behind: float
    stderr: float


class Hint(BaseModel):
    """The Expert level's next shot at the marks, how it found it (``bs.Decision.how``:
    opening, exact, base, density, endgame or rollouts) and the cells it rolled out, the
    chosen first; ``strategy`` names its shooter with its settings, and
    ``hamle battleship hint --strategy STRATEGY`` gives the same answer."""

    rules: str
    strategy: str
    cell: str
    how: str
    weighed: list[WeighedCell]


class RulesInfo(BaseModel):
    name: str
    rows: int
    cols: int
    touching: bool
    fleet: list[ShipInfo]


@router.get("/lab/rules")
def lab_rules() -> list[RulesInfo]:
    """The rule sets the lab offers, with their fleets in order."""
    return [
        RulesInfo(
            name=name,
            rows=rules.rows,
            cols=rules.cols,
            touching=rules.touching,
            fleet=[ShipInfo(name=ship.name, length=ship.length) for ship in rules.fleet],
        )
        for name, rules in RULES.items()
    ]


# A density map and the search for a layout that fits take a millisecond or two, but marks
# the search cannot decide are counted exactly, as /exact counts: in one of its slots, off
# the event loop in a worker thread.
@router.post("/density", response_model=Density)
def density(marks: Marks, request: Request) -> Response:
    """The density map of a marked board (400 with the engine's text if the marks
    contradict the rules; 409 while the exact counter is busy, should they need it)."""
    rules = RULES[marks.rules]
    observation = marks.observation()
    report = bs.density(observation, count=False)
    if report.undecided:
        with HEAVY.taken(client_of(request)):
            report = bs.density(observation)
    grid = observation.grid
    unshot = [int(cell) for cell in observation.unshot]
    top = int(report.d[report.best[0]]) if report.best else 0
    values = {grid.name(cell): int(report.d[cell]) for cell in unshot}
    known = _marked(grid, marks).union(unshot)
    answer = Density(
        rules=marks.rules,
        rows=rules.rows,
        cols=rules.cols,
        w=report.w,
        density={name: str(d) for name, d in values.items()},
        heat={name: round(d / top, 4) if top else 0.0 for name, d in values.items()},
        best=report.best_names,
        best_d=str(top),
        afloat=list(observation.afloat),
        water=[grid.name(cell) for cell in range(rules.cells) if cell not in known],
    )
    # Serialised once here instead of validated again by FastAPI: this endpoint is
    # benchmarked for latency under load.
    return Response(answer.model_dump_json(), media_type="application/json")


# An exact map takes up to several seconds of one core, so it takes one of the heavy work's
# slots (slots.HEAVY). Maps already worked out and marks the engine refuses are answered at
# once, busy or not.
EXACT_KEPT = 512
_exact_answers = Kept(EXACT_KEPT)  # the latest maps
_hints = Kept(EXACT_KEPT)  # and hints


@router.post("/exact", response_model=Exact)
def exact(marks: Marks, request: Request) -> Exact:
    """Exact layout counts of a marked board (400 with the engine's text for
    contradictory marks or a board out of reach; 409 while the counter is busy)."""
    observation = marks.observation()
    given = _marked(observation.grid, marks)
    key = _board(marks.rules, observation, given)
    if (kept := _exact_answers.get(key)) is not None:
        return kept
    with HEAVY.taken(client_of(request)):
        answer = _exact(marks.rules, observation, given)
    _exact_answers.put(key, answer)
    return answer


# The expert's rollouts take every core for up to a second, so a hint takes a heavy slot
# (unless it is the expert's stored opening, given at once). The same marks always get the
# same hint (its draws seeded with 0): hints given are kept.
@router.post("/hint", response_model=Hint)
def hint(marks: Marks, request: Request) -> Hint:
    """Where the Expert level would fire next at a marked board (400 with the engine's text
    for contradictory marks or a board with no ship afloat; 409 while the slots are busy)."""
    observation = marks.observation()
    key = _board(marks.rules, observation, _marked(observation.grid, marks))
    if (kept := _hints.get(key)) is not None:
        return kept
    shooter = EXPERT_SHOOTERS[marks.rules]
    heavy = nullcontext() if shooter.instant(observation) else HEAVY.taken(client_of(request))
    with heavy:
        decision = bs.hint(observation, shooter)
    name = observation.grid.name
    answer = Hint(
        rules=marks.rules,
        strategy=shooter.name,
        cell=name(decision.cell),
        how=decision.how,
        weighed=[WeighedCell(**{**w._asdict(), "cell": name(w.cell)}) for w in decision.weighed],
    )
    _hints.put(key, answer)
    return answer


# Drawing fleets walks the exact count's forward pass back: as heavy as the counts.
@router.post("/sample", response_model=Sample)
def sample(body: SampleRequest, request: Request) -> Sample:
    """Fleets drawn exactly uniformly from those that fit a marked board (400 with the
    engine's text for contradictory marks or a board out of reach; 409 while the slots
    are busy); ``hamle battleship sample --seed SEED --count COUNT`` draws the same."""
    observation = body.observation()
    seed = secrets.randbits(FRESH_SEED_BITS) if body.seed is None else body.seed
    with HEAVY.taken(client_of(request)):
        fleets = bs.sample(observation, body.count, np.random.default_rng(seed))
    rules, name = RULES[body.rules], observation.grid.name
    return Sample(
        rules=body.rules,
        **rules.as_dict(),
        **observation.as_dict(),
        seed=seed,
        count=body.count,
        fleets=[
            [DrawnShip(length=len(ship), cells=[name(c) for c in ship]) for ship in fleet]
            for fleet in fleets
        ],
    )


def _board(rules: str, observation: bs.Observation, given: set[int]) -> tuple:
    """A marked board as the engine read it, so that " e5 " and "E5" are one board."""
    return (
        rules,
        observation.marks.tobytes(),
        tuple(sorted(ship.cells for ship in observation.sunk)),
        observation.afloat,
        tuple(sorted(given)),
    )


def _marked(grid, marks: Marks) -> set[int]:
    """The cells ``marks`` mark (the others the engine rules out are water)."""
    names = (*marks.miss, *marks.hit, *(name for ship in marks.sunk for name in ship))
    return {grid.index(name) for name in names}


def _exact(name: str, observation: bs.Observation, given: set[int]) -> Exact:
    rules = RULES[name]
    report = bs.exact(observation)
    grid = observation.grid
    data = report.as_dict()  # (the counts and probabilities of the unshot cells, as the CLI's)
    values, top = data["counts"], data["best_count"]
    known = given.union(int(cell) for cell in observation.unshot)
    return Exact(
        rules=name,
        rows=rules.rows,
        cols=rules.cols,
        total=str(report.total),
        fleets=str(report.fleets),
        counts={cell: str(n) for cell, n in values.items()},
        probability=data["probability"],
        heat={cell: round(n / top, 4) if top else 0.0 for cell, n in values.items()},
        best=data["best"],
        best_count=str(top),
        afloat=list(observation.afloat),
        water=[grid.name(cell) for cell in range(rules.cells) if cell not in known],
    )


def warm_up() -> None:
    """Build the placement tables and load the density kernel before the first request."""
    for rules in RULES.values():
        bs.density(bs.Observation.from_marks(rules, hit=["E5"]))
    bs.exact(bs.Observation.start(bs.Rules.custom(4, [2, 1], touching=False)))
