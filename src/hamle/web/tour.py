"""Yüz Yüze over HTTP: the daily puzzle, games (daily or free play), moves, undo and hints.

A game's state is its filled cells, the combo after each move (so undo restores it), the
hints used and the hint shown for the current position. The engine does all the thinking;
this module only stores games and shapes the answers.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

import hamle.tour as tour
from hamle.tour.board import CELLS

from .common import GameId, Refused, Route, Strict, any_case, created, game_count, store_of
from .slots import Kept
from .store import Store, StoreBusy

router = APIRouter(prefix="/api/tour", tags=["tour"], route_class=Route)
HINTED_POSITIONS_KEPT = 2 * CELLS  # the latest positions hinted, each counted once
HINT_ANSWERS_KEPT = 1024  # hints answered again without a search (each a few kB at most)
_hints = Kept(HINT_ANSWERS_KEPT)  # (visited, current cell, mode): the hint there

KIND = "tour"
FIRST_DATE = dt.date(2000, 1, 1)  # the last is today in Turkey: no puzzle before its day
CellName = Field(min_length=1, max_length=8, description="A cell name, like E5", examples=["E5"])
DateText = Field(
    None, max_length=32, description="YYYY-MM-DD, today in Turkey at the latest (the default)"
)


class NewTourGame(Strict):
    """The daily puzzle (today in Turkey, or ``date``) or free play (from ``start``, or a
    random cell when it is left out)."""

    kind: any_case(Literal["daily", "free"]) = "daily"
    date: str | None = DateText
    start: str | None = Field(None, min_length=1, max_length=8, description="Free play start")

    @model_validator(mode="after")
    def one_kind(self) -> NewTourGame:
        if self.kind == "daily" and self.start is not None:
            raise PydanticCustomError(
                "daily_start", "the daily puzzle has its own start cell; use kind free to choose"
            )
        if self.kind == "free" and self.date is not None:
            raise PydanticCustomError(
                "free_date", "a date chooses a daily puzzle; free play takes a start cell"
            )
        return self


# A move or a hint names the current cell it is meant for (``from``), and an undo the move it
# takes back: a page left behind by another tab is refused (409), not answered for a position
# it never showed. The current cell alone misses a tab that took moves back and played to the
# same cell another way, so each may also name the game's ``turn``.
Turn = game_count("turn", 3)
From = Field(
    alias="from",
    min_length=1,
    max_length=8,
    description="The current cell the request is meant for; refused (409) if the game is elsewhere",
    examples=["E8"],  # (a jump to E5, the cell's example)
)


class Move(Strict):
    """A jump to ``cell`` from the current cell ``from``."""

    cell: str = CellName
    from_: str = From
    turn: int | None = Turn


class Undo(Strict):
    """Take back the move to ``cell``, the last filled cell."""

    cell: str = Field(
        min_length=1, max_length=8, description="The last filled cell", examples=["D1"]
    )
    turn: int | None = Turn


class HintRequest(Strict):
    """A hint for the position at the current cell ``from``."""

    mode: any_case(Literal["hint", "quick"]) = Field(
        "hint",
        description="hint: 120 rollouts (the button); quick: 30 (the combo tracker); any case",
    )
    from_: str = From
    turn: int | None = Turn


class Daily(BaseModel):
    date: str
    seed: int
    start: str


class ComboView(BaseModel):
    current: int = Field(description="Moves in a row that matched the engine's quick hint")
    best: int = Field(description="The longest such run of the game")


class Shown(BaseModel):
    """The hint shown for the current position (cleared by a move or an undo)."""

    cell: str
    mode: str
    value: float
    exact: bool


class Share(BaseModel):
    en: str
    tr: str


class Summary(BaseModel):
    score: int
    complete: bool
    hints: int
    best_combo: int
    undos: int
    share: Share = Field(description="The shareable result line, in English and Turkish")


class TourGame(BaseModel):
    id: str
    kind: Literal["daily", "free"]
    date: str | None = Field(description="The daily puzzle's date; null in free play")
    start: str
    moves: list[str] = Field(description="Every filled cell in order: moves[i] holds i + 1")
    count: int
    turn: int = Field(description="Moves and undos so far: each adds one")
    current: str
    legal: list[str] = Field(description="Cells the next move may jump to")
    over: bool
    combo: ComboView
    hints: int = Field(description="Positions at which a hint was asked for")
    undos: int
    hint: Shown | None
    summary: Summary | None = Field(description="The result, once the game is over")


class CandidateView(BaseModel):
    cell: str
    value: float
    exact: bool
    complete: bool | None = Field(description="Whether a full board is still possible")
    rollouts: int
    tour: list[str] | None = Field(
        None, description="Where a full board is possible: the cells after this move that fill it"
    )


class HintView(BaseModel):
    cell: str
    value: float
    exact: bool
    mode: str
    rollouts: int
    candidates: list[CandidateView]
    hints: int


@router.get("/daily", response_model=Daily)
def daily(date: str | None = Query(None, max_length=32)) -> dict:
    """The daily puzzle of ``date`` (default: today in Turkey; a later date is refused,
    ``tour.not_yet``, as a game of it is)."""
    puzzle = _puzzle(date)
    return {"date": puzzle.date.isoformat(), "seed": puzzle.seed, "start": puzzle.start_name}


@router.post("/games", response_model=TourGame, status_code=201)
def new_game(request: Request, response: Response, body: NewTourGame) -> dict:
    """Start a game; the answer's ``id`` names it in the other calls."""
    if body.kind == "daily":
        puzzle = _puzzle(body.date)
        date, start = puzzle.date.isoformat(), puzzle.start
    else:
        date = None
        start = secrets.randbelow(tour.GRID.size) if body.start is None else body.start
        start = tour.Position.start(start).current
    state = {
        "kind": body.kind,
        "date": date,
        "path": [start],
        "combos": [],
        "hints": 0,
        "hint": None,
        "undos": 0,
    }
    game_id = created(request, response, KIND, state)
    return _view(game_id, state)


@router.get("/games/{game_id}", response_model=TourGame)
def game(request: Request, game_id: GameId) -> dict:
    """The game as it is now: its path, its legal moves, its combo and the hint shown."""
    return _view(game_id, store_of(request).load(KIND, game_id))


@router.post("/games/{game_id}/moves", response_model=TourGame)
def play(request: Request, game_id: GameId, body: Move) -> dict:
    """Jump to ``cell`` from ``from`` (409 ``tour.not_current`` if the game is elsewhere,
    even when another page filled ``cell`` meanwhile, ``tour.changed`` if it is past
    ``turn``); the combo grows when it is the engine's quick hint."""
    with store_of(request).update(KIND, game_id) as state:
        before = _position(state)
        tour.GRID.index(body.cell)  # (a name that is no cell is said to be so first)
        _refuse_unless_current(before, body.from_)
        _refuse_if_over(before)
        after = before.play(body.cell)
        _refuse_unless_turn(state, body.turn)
        combo = _combo(state).after(before, after.current)
        state["path"].append(after.current)
        state["combos"].append([combo.current, combo.best])
        state["hint"] = None
    return _view(game_id, state)


@router.post("/games/{game_id}/undo", response_model=TourGame)
def undo(request: Request, game_id: GameId, body: Undo) -> dict:
    """Take back the move to ``cell``, the last one (also the one that ended the game,
    unless it completed the tour; 409 ``tour.changed`` if the game is past ``turn``); the
    combo goes back to what it was before it."""
    with store_of(request).update(KIND, game_id) as state:
        position = _position(state)
        _refuse_unless_current(position, body.cell)
        _refuse_unless_turn(state, body.turn)
        if position.count == CELLS:
            raise Refused(
                "the tour is complete: there is nothing to take back", code="tour.complete"
            )
        if position.count == 1:
            raise Refused(
                "nothing to undo: only the start cell is filled", code="tour.nothing_to_undo"
            )
        state["path"].pop()
        state["combos"].pop()
        state["hint"] = None
        state["undos"] += 1
    return _view(game_id, state)


# A hint takes well under a millisecond at the median, but tens of milliseconds where no move
# is proven to allow a full board and its rounds of games and searches run (a hundred or more
# on a busy machine). So it is worked out on a thread (its kernels let go of the GIL), never
# on the event loop, where it would stall every request. (Held to a client's turn, as the
# Expert's moves are, hints cost a page behind a shared address refusals and doubled the
# site's p99 under load, for work of a tenth of a second at most.) A hint is the same for a
# position wherever it is reached, so the latest HINT_ANSWERS_KEPT are answered again at
# once, on the event loop: a reload, a hint asked again, everyone's first moves of the day.
# The store is read and written there too (a thread per request cost more than most hints);
# a write that would wait (for another request on the game, or a write held by another
# server, for seconds) goes to a thread.
# A move can land between the load and the update: the hint is then not saved.
@router.post("/games/{game_id}/hint", response_model=HintView)
async def hint(request: Request, game_id: GameId, body: HintRequest) -> dict:
    """The engine's best next move from ``from`` (409 ``tour.not_current`` if the game is
    elsewhere, ``tour.changed`` if it is past ``turn``) and every candidate's value. The
    first hint at a position counts as a hint used; asking again there does not."""
    mode = body.mode
    store = store_of(request)
    state = store.load(KIND, game_id)
    position = _position(state)
    _refuse_unless_current(position, body.from_)
    _refuse_unless_turn(state, body.turn)
    _refuse_if_over(position)
    answer = await _hint(position, mode)
    cell = answer.move_name
    shown = {"cell": cell, "mode": mode, "value": answer.value, "exact": answer.exact}
    if state["hint"] != shown:  # the same hint again changes nothing: no write
        try:
            state = _save_hint(store, game_id, state["path"], shown, wait=False)
        except StoreBusy:
            state = await run_in_threadpool(_save_hint, store, game_id, state["path"], shown)
    candidates = [
        {
            "cell": tour.GRID.name(c.move),
            "value": c.value,
            "exact": c.exact,
            "complete": c.complete,
            "rollouts": c.rollouts,
            "tour": [tour.GRID.name(cell) for cell in c.tour] if c.tour else None,
        }
        for c in answer.candidates
    ]
    return {
        "cell": cell,
        "value": answer.value,
        "exact": answer.exact,
        "mode": mode,
        "rollouts": answer.rollouts,
        "candidates": candidates,
        "hints": state["hints"],
    }


async def _hint(position: tour.Position, mode: str) -> tour.Hint:
    """The engine's hint at ``position``: one kept, else worked out on a thread."""
    key = (position.visited, position.current, mode)
    if (kept := _hints.get(key)) is not None:
        return kept
    answer = await run_in_threadpool(tour.hint, position, mode)
    _hints.put(key, answer)
    return answer


def warm_up() -> None:
    """Compile (or load) the hint kernels so the first player does not wait."""
    tour.hint(tour.Position.start(0), "quick")


def _puzzle(date: str | None) -> tour.DailyPuzzle:
    """The puzzle of ``date`` (default: today in Turkey), from 2000-01-01 to today there:
    a later puzzle is not out yet, so that no one sees or plays it before its day."""
    today = tour.today_in_turkey()
    puzzle = tour.daily_puzzle(today if date is None else date)
    if puzzle.date < FIRST_DATE:
        raise tour.DateError(
            "there is no daily puzzle for {date}; choose a date from {first} to {last}",
            code="tour.no_puzzle",
            date=puzzle.date.isoformat(),
            first=FIRST_DATE.isoformat(),
            last=today.isoformat(),
        )
    if puzzle.date > today:
        raise tour.DateError(
            "the daily puzzle of {date} is not out yet: it is {today} in Turkey, and each "
            "puzzle comes out at midnight there",
            code="tour.not_yet",
            date=puzzle.date.isoformat(),
            today=today.isoformat(),
        )
    return puzzle


def _position(state: dict) -> tour.Position:
    return tour.Position(tuple(state["path"]))


def _combo(state: dict) -> tour.Combo:
    return tour.Combo(*state["combos"][-1]) if state["combos"] else tour.Combo()


def _refuse_unless_current(position: tour.Position, cell: str) -> None:
    """Refuse a request meant for another current cell: the page that sent it is behind
    the game (another tab played on or took a move back)."""
    if (index := tour.GRID.index(cell)) == position.current:
        return
    raise Refused(
        "the game is at {current} now, not {cell}: it changed in another page",
        code="tour.not_current",
        cell=tour.GRID.name(index),
        current=tour.GRID.name(position.current),
    )


def _save_hint(store: Store, game_id: str, path: list, shown: dict, wait: bool = True) -> dict:
    """Keep ``shown`` as the hint at ``path`` (a first hint at its position counts as one
    used, also where a move was taken back to it), unless the game has moved on meanwhile;
    the state saved (StoreBusy unless ``wait``, as ``Store.update``)."""
    position = tour.Position(tuple(path))
    key = f"{position.visited:x} {position.current}"  # (the position, however reached)
    with store.update(KIND, game_id, wait) as state:
        if state["path"] != path:
            raise Refused(
                "the game moved on while the hint was worked out; ask again", code="tour.moved"
            )
        hinted = state.setdefault("hinted", [])  # (games stored before keep none)
        if state["hint"] is None and key not in hinted:
            state["hints"] += 1
        if key in hinted:
            hinted.remove(key)  # (the latest hinted go last)
        hinted.append(key)
        del hinted[:-HINTED_POSITIONS_KEPT]  # (a game's row stays small)
        state["hint"] = shown
    return state


def _turn(state: dict) -> int:
    """Moves and undos so far: a move adds a cell, an undo takes one away and counts itself."""
    return len(state["path"]) - 1 + 2 * state["undos"]


def _refuse_unless_turn(state: dict, turn: int | None) -> None:
    """Refuse a request meant for another turn: another tab took moves back and reached the
    same cell another way (checked after the current cell, whose refusal says more)."""
    if turn is None or turn == (now := _turn(state)):
        return
    raise Refused(
        "the game changed in another page since turn {turn} (it is at turn {now})",
        code="tour.changed",
        turn=turn,
        now=now,
    )


def _refuse_if_over(position: tour.Position) -> None:
    if position.count == CELLS:
        raise Refused("the tour is complete: every cell is filled", code="tour.done")
    if position.over:
        here = tour.GRID.name(position.current)
        raise Refused(
            "the game is over: no jump from {cell} reaches an empty cell",
            code="tour.stuck",
            cell=here,
        )


def _view(game_id: str, state: dict) -> dict:
    position = _position(state)
    names = [tour.GRID.name(c) for c in position.path]
    combo = _combo(state)
    return {
        "id": game_id,
        "kind": state["kind"],
        "date": state["date"],
        "start": names[0],
        "moves": names,
        "count": position.count,
        "turn": _turn(state),
        "current": names[-1],
        "legal": [tour.GRID.name(c) for c in position.legal_moves()],
        "over": position.over,
        "combo": {"current": combo.current, "best": combo.best},
        "hints": state["hints"],
        "undos": state["undos"],
        "hint": state["hint"],
        "summary": _summary(state, position, combo) if position.over else None,
    }


def _summary(state: dict, position: tour.Position, combo: tour.Combo) -> dict:
    result = tour.Result(
        start=position.path[0],
        score=position.count,
        hints=state["hints"],
        best_combo=combo.best,
        undos=state["undos"],
        date=state["date"],
    )
    return {
        "score": result.score,
        "complete": result.score == tour.GRID.size,
        "hints": result.hints,
        "best_combo": result.best_combo,
        "undos": result.undos,
        "share": result.share(),
    }
