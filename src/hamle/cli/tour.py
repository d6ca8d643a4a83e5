"""``hamle tour``: daily, hint, solve, play."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from hamle.grid import items, name_key, quoted

from .common import (
    App,
    clean_errors,
    console,
    game_line,
    print_json,
    quits,
    stripped,
    visible,
)

if TYPE_CHECKING:
    import hamle.tour as tour

app = App(no_args_is_help=True)  # its help line is in hamle.cli.GAMES


def _errors() -> tuple[type[Exception], ...]:
    import hamle.tour as tour

    return (tour.TourError,)


handled = clean_errors(_errors)

START = typer.Option(..., "--start", help="The start cell, like E5.")
MOVES = typer.Option("", "--moves", help="Cells played after the start, like E8,G10.")
JSON = typer.Option(False, "--json", help="Print one JSON object.")
HELP = "Type a cell like E5; h hint, u undo, q quit."


def make_position(start: str, moves: str) -> tour.Position:
    import hamle.tour as tour

    moved = items(moves)
    if "" in moved:
        raise tour.MoveError(f"--moves has an empty item: {quoted(moves)}")
    return tour.Position.from_moves(start, moved)


@app.command()
@handled
def daily(
    date: str = typer.Option(None, "--date", help="YYYY-MM-DD (default: today in Turkey)."),
    as_json: bool = JSON,
) -> None:
    """The daily puzzle: the same start cell for everyone, changing at midnight in Turkey."""
    import hamle.tour as tour

    puzzle = tour.daily_puzzle(date)
    if as_json:
        print_json(puzzle.as_dict())
    else:
        console.print(f"{puzzle.date}: start at {puzzle.start_name} (seed {puzzle.seed})")


@app.command()
@handled
def hint(
    start: str = START,
    moves: str = MOVES,
    mode: str = typer.Option(
        "hint", "--mode", callback=stripped, help="hint (120 rollouts) or quick (30)."
    ),
    as_json: bool = JSON,
) -> None:
    """The engine's best next move, with the value of every legal move."""
    import hamle.tour as tour

    result = tour.hint(make_position(start, moves), mode)
    if as_json:
        print_json(result.as_dict())
        return
    console.print(f"play {result.move_name} ({_valued(result)})", highlight=False)
    for c in result.candidates:
        console.print(
            f"  {tour.GRID.name(c.move):<4} {c.value:>7.2f}  "
            f"{'exact' if c.exact else f'{c.rollouts} rollouts'}; {VERDICT[c.complete]}",
            highlight=False,
        )


VERDICT = {True: "full board possible", False: "no full board", None: "unknown"}


def _valued(result) -> str:
    """A hint's value as the command line says it, like ``value 93, exact``."""
    return f"value {result.value:g}, {'exact' if result.exact else 'mean of rollouts'}"


@app.command()
@handled
def solve(start: str = START, moves: str = MOVES, as_json: bool = JSON) -> None:
    """A full board from the position, or the best score found (and whether it is proven)."""
    import hamle.tour as tour

    solution = tour.solve(make_position(start, moves))
    if as_json:
        print_json(solution.as_dict())
        return
    console.print(str(tour.Position(solution.path)), highlight=False)
    state = "complete" if solution.complete else f"score {solution.score}"
    proof = "proven best" if solution.proven else "best found, not proven"
    console.print(f"{state} ({proof})")


@app.command()
@handled
def play(
    start: str = typer.Option(None, "--start", help="Free play from this cell."),
    daily: bool = typer.Option(False, "--daily", help="Today's puzzle (the default)."),
    date: str = typer.Option(None, "--date", help="The daily puzzle of this date (YYYY-MM-DD)."),
) -> None:
    """Play in the terminal: type a cell; h shows the hint, u undoes, q quits.

    Legal cells are marked *, the hinted cell ?. The combo counts moves in a row that
    match the engine's quick hint. When no jump is left, u still takes the last move back
    (unless the tour is complete), as on the site.
    """
    import hamle.tour as tour

    if start is not None and (daily or date):
        raise tour.TourError("choose either --start (free play) or --daily/--date, not both")
    puzzle = tour.daily_puzzle(date) if start is None else None
    position = tour.Position.start(start if puzzle is None else puzzle.start)
    combo, history = tour.Combo(), []
    title = (
        f"daily {puzzle.date}" if puzzle else f"free play from {tour.GRID.name(position.path[0])}"
    )
    console.print(f"Yüz Yüze, {title}. {HELP}")
    marked, hinted, undos = None, set(), 0  # (marked: the hint's cell, till the position changes)
    while position.count < tour.GRID.size:
        console.print(_board(position, marked), highlight=False)
        if position.over:
            here = tour.GRID.name(position.current)
            console.print(f"No jump from {here} reaches an empty cell: u takes it back, q ends.")
        console.print(
            f"{position.count} filled, combo {combo.current} (best {combo.best})> ", end=""
        )
        if (line := game_line()) is None:
            continue
        text = line.strip()
        command = name_key(text)
        if quits(line):
            console.print()  # (the prompt's line ends, as in the other games)
            break
        try:
            if not text or command in ("help", "?"):
                console.print(HELP)
            elif command in ("h", "hint"):
                answer = tour.hint(position)
                marked = answer.move
                hinted.add((position.visited, position.current))  # (once a position)
                chosen = next(c for c in answer.candidates if c.move == marked)
                console.print(
                    f"hint: {tour.GRID.name(marked)} (marked ?; {_valued(answer)}; "
                    f"{VERDICT[chosen.complete]})",
                    highlight=False,
                )
            elif command in ("u", "undo"):
                position, marked = position.undo(), None
                combo = history.pop() if history else combo
                undos += 1
            else:
                before, position, marked = position, position.play(text), None
                history.append(combo)
                combo = combo.after(before, position.current)
        except tour.TourError as exc:
            console.print(visible(exc), style="red", markup=False, highlight=False)
    else:  # the tour is complete: its board has not been shown yet
        console.print(_board(position, None), highlight=False)
        console.print("Complete tour! Every cell is filled.")
    result = tour.Result(
        start=position.path[0],
        score=position.count,
        hints=len(hinted),
        best_combo=combo.best,
        undos=undos,
        date=puzzle.date if puzzle else None,
    )
    console.print(str(result), highlight=False)  # (the site's line to share, in English)


def _board(position: tour.Position, marked: int | None) -> str:
    """The board with numbers, * on legal cells and ? on the hinted one."""
    import hamle.tour as tour

    numbers = {cell: str(n) for n, cell in enumerate(position.path, 1)}
    for cell in position.legal_moves():
        numbers[cell] = "*"
    if marked is not None:
        numbers[marked] = "?"
    rows = ["    " + " ".join(f"{tour.GRID.name(c)[0]:>3}" for c in range(10))]
    for r in range(10):
        rows.append(
            f"{r + 1:>3} " + " ".join(f"{numbers.get(r * 10 + c, '.'):>3}" for c in range(10))
        )
    return "\n".join(rows)
