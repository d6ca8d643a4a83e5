"""Mastermind on the web: break the server's secret, or let a strategy break yours.

Codebreaker: the server draws the secret (``secrets``), keeps it in the stored state and
shows it only once the game is over. Codemaker: the player keeps a code in mind and
answers the strategy's guesses; an answer that contradicts the earlier ones is refused
with the engine's explanation and not recorded, so the candidates never run out.

Only variant × strategy pairs whose guesses take well under a second are offered (each
``next_guess`` measured on this machine, worst case over many histories): every
strategy for classic, 4x8 and Bulls and Cows; for Super Mastermind the three that stay
under 0.1 s (the partition strategies over all codes reach 0.4-0.5 s there). 6x9 is not
offered: its guesses take seconds and each candidate list can take megabytes. The optimal
strategy plays codemaker games on a variant whose solved tree this server holds (or could
solve within seconds); its search takes minutes on classic, so elsewhere the variant says
why it is not offered.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Body, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

import hamle.mastermind as mm
from hamle.grid import name_key
from hamle.mastermind import optimal

from .common import (
    GameId,
    Refused,
    Route,
    Strict,
    Unoffered,
    any_case,
    created,
    game_count,
    store_of,
)

router = APIRouter(prefix="/api/mastermind", tags=["mastermind"], route_class=Route)

KIND = "mastermind"
INLINE_CODES = 5040
MAX_LISTED = 100
FEW_LISTED = 12  # codes left a codemaker game lists (as `hamle mastermind solve` does)
FAST = ("first-consistent", "random-consistent", "minimax-candidates")
OFFERED: dict[str, tuple[str, ...]] = {
    "classic": mm.HEURISTICS,
    "4x8": mm.HEURISTICS,
    "bulls-and-cows": mm.HEURISTICS,
    "super": FAST,
}
PREFERRED = ("minimax", "minimax-candidates")
QUICK_OPTIMAL = 1296  # codes: the optimal search takes under a second up to classic 4×6
VARIANTS = {name: mm.Variant.named(name) for name in OFFERED}

Mode = Literal["breaker", "maker"]
# a variant offered (/variants) or another name of it (5x8 for super); a strategy; any case
Name = Annotated[str, Field(min_length=1, max_length=40)]
# Black or white: more than the game's pegs is refused by the engine for that variant
# (400 ``mastermind.too_many_pegs``), whatever the number, not as malformed here.
Count = Annotated[int, Field(strict=True, ge=0)]
# A move may name the game's ``changes`` it is meant for, so that a page left behind by
# another tab (or a request sent twice) is refused rather than applied to a game it never
# showed: an undo in one tab would otherwise take back an answer given in another.
Changes = game_count("changes", 2)
# The same for a question about the game (a suggestion, the candidates left), so that a
# page left behind is not answered for guesses it never showed.
ChangesQuery = Annotated[
    int | None,
    Query(
        ge=0,
        le=10**9,
        description="The game's changes the question is about; refused (409) if it has moved on",
    ),
]


class VariantInfo(BaseModel):
    name: str
    pegs: int
    colours: int
    repeat: bool
    codes: int
    first_digit: int
    strategies: list[str]
    default_strategy: str
    maker_strategies: list[str] = Field(
        description="offered too when the computer breaks your code"
    )
    not_offered: dict[str, Literal["too-big", "not-solved"]] = Field(
        description="strategies not offered for this variant, and why"
    )


class StrategyInfo(BaseModel):
    name: str
    summary: str


class NewMastermindGame(Strict):
    """A new game: ``breaker`` (you guess the server's secret) or ``maker`` (the
    strategy guesses yours); ``strategy`` suggests guesses or plays them."""

    variant: Name = "classic"
    mode: any_case(Mode) = "breaker"
    strategy: Name | None = None


class Guess(Strict):
    guess: Annotated[str, Field(max_length=40, description="Digits, like 1122", examples=["1122"])]
    changes: int | None = Changes


class Answer(Strict):
    model_config = ConfigDict(
        json_schema_extra={"examples": [{"guess": "1122", "black": 1, "white": 0}]}
    )

    guess: Annotated[
        str,
        Field(
            max_length=40,
            description="The computer's guess this answers, like 1122",
            examples=["1122"],
        ),
    ]
    black: Count
    white: Count
    changes: int | None = Changes


class Expected(Strict):
    """The body of an undo or a give-up, which may be left out: the game's changes the
    request is meant for."""

    changes: int | None = Changes


class Turn(BaseModel):
    guess: str
    black: int
    white: int


class MastermindGame(BaseModel):
    """A game as the player may see it: the secret only once a codebreaker game is
    over; ``proposal`` is the computer's guess awaiting an answer in a codemaker game."""

    id: str
    mode: Mode
    strategy: str
    variant: VariantInfo
    turns: list[Turn]
    turn: int = Field(description="Guesses so far")
    changes: int = Field(
        description="How many times the game has changed: each answered guess and each undo "
        "adds one (an undo takes a turn away and counts two)"
    )
    solved: bool
    over: bool
    gave_up: bool
    secret: str | None = None
    proposal: str | None = None
    candidates: int | None = None
    codes_left: list[str] | None = Field(
        None,
        description="In a codemaker game, the codes that still fit your answers while at most "
        f"{FEW_LISTED} do, as `hamle mastermind solve` lists them",
    )


class Candidates(BaseModel):
    count: int
    codes: list[str]
    more: bool


class Suggestion(BaseModel):
    strategy: str
    guess: str


def _optimal_missing(name: str) -> str | None:
    """Why the optimal strategy cannot play this variant here (None: it can)."""
    variant = VARIANTS[name]
    if name not in OFFERED or OFFERED[name] != mm.HEURISTICS or mm.feedback_table(variant) is None:
        return "too-big"
    if variant.size > QUICK_OPTIMAL and optimal.stored_tree(variant) is None:
        return "not-solved"
    return None


def _info(name: str) -> VariantInfo:
    variant = VARIANTS[name]
    offered = OFFERED[name]
    missing = _optimal_missing(name)
    return VariantInfo(
        name=name,
        pegs=variant.pegs,
        colours=variant.colours,
        repeat=variant.repeat,
        codes=variant.size,
        first_digit=variant.first_digit,
        strategies=list(offered),
        default_strategy=next(s for s in PREFERRED if s in offered),
        maker_strategies=[] if missing else ["optimal"],
        not_offered={"optimal": missing} if missing else {},
    )


def _history(state: dict) -> mm.History:
    turns = tuple((guess, answer) for guess, answer in state["turns"])
    return mm.History(VARIANTS[state["variant"]], turns)


def _next_guess(state: dict) -> int:
    turns = tuple((guess, answer) for guess, answer in state["turns"])
    return _remembered_guess(state["variant"], state["strategy"], turns)


@lru_cache(maxsize=4096)
def _remembered_guess(variant: str, strategy: str, turns: tuple) -> int:
    """The strategy's guess after ``turns``; common openings are asked for again and
    again, and a partition strategy takes milliseconds per guess."""
    return mm.get_strategy(strategy).next_guess(mm.History(VARIANTS[variant], turns))


def _view(game_id: str, state: dict) -> MastermindGame:
    variant = VARIANTS[state["variant"]]
    history = _history(state)
    maker = state["mode"] == "maker"
    turns = []
    for guess, answer in history.turns:
        black, white = variant.split(answer)
        turns.append(Turn(guess=variant.format(guess), black=black, white=white))
    over = state["over"]
    left = history.candidates() if maker else None
    return MastermindGame(
        id=game_id,
        mode=state["mode"],
        strategy=state["strategy"],
        variant=_info(state["variant"]),
        turns=turns,
        turn=len(turns),
        changes=_changes(state),
        solved=history.solved,
        over=over,
        gave_up=state["gave_up"],
        secret=variant.format(state["secret"]) if not maker and over else None,
        proposal=variant.format(state["proposal"]) if maker and not over else None,
        candidates=len(left) if maker else None,
        codes_left=[variant.format(c) for c in left] if maker and len(left) <= FEW_LISTED else None,
    )


def _changes(state: dict) -> int:
    """Guesses, answers and undos so far: an undo takes a turn away and counts itself, so
    the count only rises (games stored before undos were counted have none)."""
    return len(state["turns"]) + 2 * state.get("undos", 0)


def _refuse_unless_changes(state: dict, changes: int | None) -> None:
    """Refuse a request meant for another state of the game: another page (or the same
    request sent before) changed it (checked after the refusals that say more)."""
    if changes is None or changes == (now := _changes(state)):
        return
    raise Refused(
        "the game changed in another page since change {changes} (it is at {now})",
        code="mastermind.changed",
        changes=changes,
        now=now,
    )


def _need(state: dict, mode: str) -> None:
    """Refuse a move of the other mode, or any move once the game is over."""
    if state["mode"] == "breaker" != mode:
        raise Refused("this is a codebreaker game: you guess", code="mastermind.you_guess")
    if state["mode"] == "maker" != mode:
        raise Refused(
            "this is a codemaker game: the computer guesses", code="mastermind.computer_guesses"
        )
    if state["over"]:
        raise Refused("this game is over; start a new one", code="mastermind.over")


@router.get("/variants")
def variants() -> list[VariantInfo]:
    """The variants offered, each with the strategies fast enough to play it here."""
    return [_info(name) for name in OFFERED]


@router.get("/strategies")
def strategies() -> list[StrategyInfo]:
    """Every strategy: its name and what it optimises."""
    return [StrategyInfo(name=s.name, summary=s.summary) for s in mm.STRATEGIES.values()]


def _offered_name(given: str) -> str:
    """The name the site offers the variant ``given`` under (any name the library takes);
    Unoffered naming the variants offered if it offers none."""
    try:
        variant = mm.Variant.named(given)
    except mm.VariantError:
        variant = None
    for name, offered in VARIANTS.items():
        if offered == variant:
            return name
    raise Unoffered(
        "variant {variant!r} is not offered here; choose one of: {offered}",
        code="mastermind.variant_not_offered",
        variant=given,
        offered=", ".join(OFFERED),
    )


@router.post("/games", status_code=201)
def new_game(body: NewMastermindGame, request: Request, response: Response) -> MastermindGame:
    """Start a game. Codebreaker: the server draws a secret. Codemaker: the view's
    ``proposal`` is the strategy's first guess for your code. Names of variants and
    strategies are read as the library reads them (in any case)."""
    name = _offered_name(body.variant)
    info = _info(name)
    offered = [*info.strategies, *(info.maker_strategies if body.mode == "maker" else [])]
    strategy = body.strategy or info.default_strategy
    if (key := name_key(strategy)) in mm.STRATEGIES:
        strategy = key
    if strategy == "optimal" and body.mode == "breaker":
        raise Unoffered(
            "the optimal strategy plays only when the computer breaks your code",
            code="mastermind.optimal_maker_only",
        )
    if strategy == "optimal" and info.not_offered:
        if info.not_offered["optimal"] == "too-big":
            raise Unoffered(
                "the optimal strategy is not offered: {variant} is out of the optimal "
                "search's reach",
                code="mastermind.optimal_too_big",
                variant=name,
            )
        raise Unoffered(
            "the optimal strategy is not offered: its tree for {variant} is not solved on "
            "this server yet (a search of minutes)",
            code="mastermind.optimal_not_solved",
            variant=name,
        )
    if strategy not in offered:
        raise Unoffered(
            "strategy {strategy!r} is not offered for {variant}; choose one of: {offered}",
            code="mastermind.strategy_not_offered",
            strategy=strategy,
            variant=name,
            offered=", ".join(offered),
        )
    variant = VARIANTS[name]
    state = {
        "variant": name,
        "mode": body.mode,
        "strategy": strategy,
        "turns": [],
        "over": False,
        "gave_up": False,
        "secret": secrets.randbelow(variant.size) if body.mode == "breaker" else None,
        "proposal": None,
        "undos": 0,
    }
    if body.mode == "maker":
        state["proposal"] = _next_guess(state)
    game_id = created(request, response, KIND, state)
    return _view(game_id, state)


@router.get("/games/{game_id}")
def game(game_id: GameId, request: Request) -> MastermindGame:
    """The game as the player may see it."""
    return _view(game_id, store_of(request).load(KIND, game_id))


@router.post("/games/{game_id}/guess")
def guess(game_id: GameId, body: Guess, request: Request) -> MastermindGame:
    """Codebreaker: score a guess against the secret. The game ends when solved or
    after the last allowed guess; 409 ``mastermind.changed`` if it is past ``changes``,
    ``mastermind.guessed`` for a code guessed already (it would cost a guess for nothing)."""
    with store_of(request).update(KIND, game_id) as state:
        _need(state, "breaker")
        variant = VARIANTS[state["variant"]]
        code = variant.parse(body.guess)
        _refuse_unless_changes(state, body.changes)
        made = [guessed for guessed, _ in state["turns"]]
        if code in made:  # (its answer would say nothing new, and cost a guess)
            raise Refused(
                "{guess} is guess {number} already",
                code="mastermind.guessed",
                guess=variant.format(code),
                number=made.index(code) + 1,
            )
        black, white = mm.score(variant, state["secret"], code)
        state["turns"].append([code, variant.answer(black, white)])
        state["over"] = black == variant.pegs or len(state["turns"]) >= mm.GAME_GUESSES
        return _view(game_id, state)


# Suggestions for variants of at most INLINE_CODES take at most ~10 ms with any strategy, so
# they are answered on the event loop (no thread hop, no lock contention; a read of the store
# waits for no write); larger ones go to a thread.
@router.get("/games/{game_id}/suggest")
async def suggest(game_id: GameId, request: Request, changes: ChangesQuery = None) -> Suggestion:
    """Codebreaker: the strategy's next guess after your guesses so far (409
    ``mastermind.changed`` if the game is past ``changes``)."""
    state = store_of(request).load(KIND, game_id)
    _need(state, "breaker")
    _refuse_unless_changes(state, changes)
    variant = VARIANTS[state["variant"]]
    if variant.size <= INLINE_CODES:
        guess = _next_guess(state)
    else:
        guess = await run_in_threadpool(_next_guess, state)
    return Suggestion(strategy=state["strategy"], guess=variant.format(guess))


@router.get("/games/{game_id}/candidates")
def candidates(
    game_id: GameId,
    request: Request,
    limit: Annotated[int, Query(ge=0, le=MAX_LISTED)] = 50,
    changes: ChangesQuery = None,
) -> Candidates:
    """How many codes still fit every answer, and the first ``limit`` of them (409
    ``mastermind.changed`` if the game is past ``changes``)."""
    state = store_of(request).load(KIND, game_id)
    _refuse_unless_changes(state, changes)
    variant = VARIANTS[state["variant"]]
    found = _history(state).candidates()
    listed = [variant.format(int(code)) for code in found[:limit]]
    return Candidates(count=len(found), codes=listed, more=len(found) > limit)


@router.post("/games/{game_id}/give-up")
def give_up(
    game_id: GameId, request: Request, body: Annotated[Expected | None, Body()] = None
) -> MastermindGame:
    """Codebreaker: end the game and reveal the secret (409 ``mastermind.changed`` if it is
    past ``changes``)."""
    with store_of(request).update(KIND, game_id) as state:
        _need(state, "breaker")
        _refuse_unless_changes(state, body.changes if body else None)
        state["over"] = state["gave_up"] = True
        return _view(game_id, state)


@router.post("/games/{game_id}/answer")
def answer(game_id: GameId, body: Answer, request: Request) -> MastermindGame:
    """Codemaker: black and white for the computer's guess. An answer no code could
    give together with the earlier ones is refused (400, with the conflicting answers
    and the likely typo) and not recorded; so is an answer to a guess already answered (a
    request sent twice), 409, and one meant for an earlier state (``changes``), 409."""
    with store_of(request).update(KIND, game_id) as state:
        _need(state, "maker")
        if len(state["turns"]) >= mm.GAME_GUESSES:
            raise Refused(
                "the computer has had its {most} guesses",
                code="mastermind.out_of_guesses",
                most=mm.GAME_GUESSES,
            )
        variant = VARIANTS[state["variant"]]
        if variant.parse(body.guess) != state["proposal"]:
            raise Refused(
                "this answer is for {answered}, but the guess awaiting an answer is {guess}",
                code="mastermind.not_the_guess",
                answered=body.guess,
                guess=variant.format(state["proposal"]),
            )
        _refuse_unless_changes(state, body.changes)
        history = _history(state).then(state["proposal"], variant.answer(body.black, body.white))
        history.candidates()  # raises InconsistentError with the explanation
        state["turns"] = [list(turn) for turn in history.turns]
        state["over"] = history.solved
        state["proposal"] = None if history.solved else _next_guess(state)
        return _view(game_id, state)


@router.post("/games/{game_id}/undo")
def undo(
    game_id: GameId, request: Request, body: Annotated[Expected | None, Body()] = None
) -> MastermindGame:
    """Codemaker: take back the last answer (also the one that solved the game; 409
    ``mastermind.changed`` if the game is past ``changes``)."""
    with store_of(request).update(KIND, game_id) as state:
        if state["mode"] != "maker":
            raise Refused(
                "only a codemaker game can take back an answer", code="mastermind.undo_maker_only"
            )
        if not state["turns"]:
            raise Refused("there is no answer to take back", code="mastermind.nothing_to_undo")
        _refuse_unless_changes(state, body.changes if body else None)
        last_guess, _ = state["turns"].pop()
        state["proposal"] = last_guess
        state["over"] = False
        state["undos"] = state.get("undos", 0) + 1
        return _view(game_id, state)


def warm_up() -> None:
    """Load the scoring and partition code paths: a classic suggestion (NumPy alone), one
    on 4×7 (the kernels, with a feedback table) and a 5×8 answer (no table); and the
    classic optimal tree, solved unless the cache directory holds it."""
    strategy = mm.get_strategy("minimax")
    for variant in (mm.Variant.classic(), mm.Variant(4, 7)):
        first = strategy.next_guess(mm.History(variant))
        history = mm.History(variant).then(first, variant.answer(1, 1))
        strategy.next_guess(history)
        mm.score(variant, 0, first)
    mm.Variant.named("super").feedback(0, np.arange(2))
    optimal.cached_tree(mm.Variant.classic())
