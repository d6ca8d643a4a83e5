"""``hamle mastermind``: score, evaluate, tree, verify, solve, play."""

from __future__ import annotations

import functools
import json
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING

import typer

from hamle.grid import name_key

from .common import (
    CLUSTER,
    App,
    WholeNumber,
    clean_errors,
    console,
    errors,
    game_line,
    listing,
    one_way,
    out_problem,
    print_json,
    progress_bar,
    quits,
    stripped,
    visible,
    write_whole,
)

if TYPE_CHECKING:
    import numpy as np

    import hamle.mastermind as mm

app = App(no_args_is_help=True)  # its help line is in hamle.cli.GAMES


def _errors() -> tuple[type[Exception], ...]:
    import hamle.mastermind as mm

    return (mm.MastermindError,)


def _strategies() -> list[str]:
    import hamle.mastermind as mm

    return list(mm.STRATEGIES)


def _variants() -> list[str]:
    """The presets as the help lists them: ``super (5×8)``, ``4x8``."""
    from hamle.mastermind.codes import PRESETS

    named = []
    for name, (pegs, colours, repeat) in PRESETS.items():
        shape = f"{pegs}×{colours}" if repeat else f"{pegs} of {colours} colours, no repetition"
        named.append(name if name == f"{pegs}x{colours}" and repeat else f"{name} ({shape})")
    return named


def _vector_limit() -> list[str]:
    from hamle.mastermind._vector import VECTOR_LIMIT

    return [f"{VECTOR_LIMIT:,}"]


handled = clean_errors(_errors)
with_variants = listing(variants=_variants)
with_strategies = listing(names=_strategies, variants=_variants, vector_limit=_vector_limit)

VARIANT = typer.Option("classic", "--variant", callback=stripped, help="Preset: {variants}.")
PEGS = typer.Option(None, "--pegs", help="Pegs per code, overriding the preset.")
COLOURS = typer.Option(None, "--colours", help="Colours, overriding the preset (10: digits 0-9).")
NO_REPEAT = typer.Option(False, "--no-repeat", help="A colour may appear only once per code.")
STRATEGY = typer.Option("minimax", "--strategy", callback=stripped, help="One of: {names}.")
JSON = typer.Option(False, "--json", help="Print one JSON object.")
MAX_GUESSES = typer.Option(
    None,
    "--max-guesses",
    click_type=WholeNumber(1),
    help="optimal only: the best strategy never needing more guesses.",
)
SEED = typer.Option(
    None,
    "--seed",
    click_type=WholeNumber(0),
    help="random-consistent only: the seed of its draws (0 unless given); reports name it.",
)
JOBS = typer.Option(
    1,
    "--jobs",
    min=1,
    max=64,
    help="Workers sharing the games: processes, but threads for the scoring strategies "
    "(minimax to most-parts) on more than {vector_limit} codes; the optimal search first "
    "runs on as many threads.",
)
TREE_JOBS = typer.Option(
    1,
    "--jobs",
    min=1,
    max=64,
    help="Threads for the optimal search; the other strategies' trees are built in one.",
)
LIST_AT_MOST = 12
NAME_AT_MOST = 60  # characters of a strategy's name, as a tree file gives it, that are shown
THINKING_FROM = 20_000  # codes from which choosing a guess can take a second or more


def make_variant(name: str, pegs: int | None, colours: int | None, no_repeat: bool) -> mm.Variant:
    """The preset ``name`` with pegs, colours and repetition overridden."""
    import hamle.mastermind as mm

    preset = mm.Variant.named(name)
    return mm.Variant(
        preset.pegs if pegs is None else pegs,
        preset.colours if colours is None else colours,
        preset.repeat and not no_repeat,
    )


@app.command(cls=with_variants)
@handled
def score(
    secret: str = typer.Argument(..., help="The secret code, like 1123."),
    guess: str = typer.Argument(..., help="The guess, like 3211."),
    variant: str = VARIANT,
    pegs: int = PEGS,
    colours: int = COLOURS,
    no_repeat: bool = NO_REPEAT,
    as_json: bool = JSON,
) -> None:
    """Black (right colour, right place) and white (right colour, wrong place)."""
    import hamle.mastermind as mm

    chosen = make_variant(variant, pegs, colours, no_repeat)
    codes = chosen.parse(secret), chosen.parse(guess)
    black, white = mm.score(chosen, *codes)
    if as_json:
        secret, guess = (chosen.format(code) for code in codes)  # as read: "1,1 2 3" is 1123
        print_json({"secret": secret, "guess": guess, "black": black, "white": white})
    else:
        console.print(f"{black} black, {white} white", highlight=False)


@app.command(cls=with_strategies)
@handled
def evaluate(
    strategy: str = STRATEGY,
    variant: str = VARIANT,
    pegs: int = PEGS,
    colours: int = COLOURS,
    no_repeat: bool = NO_REPEAT,
    jobs: int = JOBS,
    cluster: str = CLUSTER,
    max_guesses: int = MAX_GUESSES,
    seed: int = SEED,
    as_json: bool = JSON,
) -> None:
    """Play every secret with one strategy: total, average, worst case, histogram."""
    import hamle.mastermind as mm

    one_way(jobs, cluster)
    chosen = make_variant(variant, pegs, colours, no_repeat)
    started = perf_counter()
    breaker = _strategy(strategy, chosen, max_guesses, jobs, seed)
    solving = perf_counter() - started  # optimal's tree: solved or read before the games
    with progress_bar("evaluating", enabled=chosen.size > 5000) as update:
        result = mm.evaluate(breaker, chosen, jobs=jobs, progress=update, cluster=cluster)
    data = result.as_dict()
    seconds, tree_seconds, kept = result.seconds, None, None
    capped = ""
    if isinstance(breaker, mm.Optimal):
        from hamle.mastermind import optimal

        seconds, tree_seconds = seconds + solving, solving
        cap = optimal.effective_cap(chosen, max_guesses)  # (None where it caps nothing, as tree)
        kept = optimal.read_from(chosen, cap)  # (a tree read is trusted: say whence)
        data.update(
            seconds=seconds,
            tree_seconds=tree_seconds,
            max_guesses=cap,
            tree_file=None if kept is None else str(kept),
        )
        capped = "" if cap is None else f" (at most {cap} guesses a secret)"
    if as_json:
        print_json(data)
        return
    from rich.table import Table

    console.print(f"{result.label}{capped} on {chosen.describe()}", highlight=False)
    of_it = ""
    if tree_seconds is not None:
        how = "to solve the tree" if kept is None else f"to read the tree kept in {kept}"
        of_it = f" ({tree_seconds:.2f} s of it {how})"
    console.print(
        f"first guess {result.first_guess}; total {result.total}, average {result.average:.4f}, "
        f"worst {result.maximum}; {seconds:.2f} s{of_it}",
        highlight=False,
    )
    table = Table("guesses", "secrets")
    for n, count in result.histogram.items():
        table.add_row(str(n), str(count))
    console.print(table)


def _strategy(
    name: str, variant: mm.Variant, max_guesses: int | None, jobs=1, seed: int | None = None
) -> mm.Strategy:
    """The strategy ``name`` (capped for optimal, seeded for random-consistent), checked
    against the variant; optimal's tree is solved (or read from the cache) first, showing
    the search's progress."""
    import hamle.mastermind as mm

    strategy = _seeded(mm.get_strategy(name), seed)
    strategy.check(variant)
    if not isinstance(strategy, mm.Optimal):
        if max_guesses is not None:
            raise mm.MastermindError("--max-guesses applies to the optimal strategy only")
        return strategy
    from hamle.mastermind import optimal  # (imports numba, which small heuristic runs avoid)

    _say_if_not_kept()
    with search_status() as update:
        optimal.cached_tree(variant, max_guesses, update, jobs)
    return mm.Optimal(strategy.name, strategy.summary, max_guesses)


def _seeded(strategy: mm.Strategy, seed: int | None) -> mm.Strategy:
    """``strategy`` with ``--seed`` where it is given; refused for a strategy that draws
    nothing at random."""
    import hamle.mastermind as mm

    if seed is None:
        return strategy
    if strategy.seed is None:
        seeded = ", ".join(n for n, s in mm.STRATEGIES.items() if s.seed is not None)
        raise mm.MastermindError(f"--seed applies to {seeded} only, which draws at random")
    return strategy.with_seed(seed)


@functools.cache  # (once a run)
def _say_if_not_kept() -> None:
    """Say on stderr that the optimal trees solved are not kept for later runs, where there
    is no cache directory to keep them in."""
    from hamle.mastermind import optimal

    if optimal.cache_dir() is None:
        errors.print(
            "solved trees are not kept for later runs: no cache directory (HOME is unset, "
            "empty or relative, and the user has no home); HAMLE_CACHE_DIR names one",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


@contextmanager
def search_status():
    """A status line on stderr for a search, from its first report on (a second in, from
    another thread): sets searched, bounds on the total."""
    shown = []

    def update(nodes: int, lower: int, upper: int | None) -> None:
        found = "none yet" if upper is None else f"at most {upper:,}"
        text = f"searching: {nodes:,} sets, total at least {lower:,}, {found}"
        if shown:
            shown[0].update(text)
        else:
            shown.append(errors.get().status(text))
            shown[0].start()

    try:
        yield update
    finally:
        if shown:
            shown[0].stop()


def _next_guess(strategy: mm.Strategy, history: mm.History) -> int:
    """The strategy's guess after ``history``, with a status line while it takes a while:
    the optimal search's (a tree to solve, or a position off it), or a plain one among
    many codes."""
    import hamle.mastermind as mm

    if isinstance(strategy, mm.Optimal):
        from hamle.mastermind import optimal

        _say_if_not_kept()
        with search_status() as update:
            return optimal.next_guess(history, strategy.max_guesses, update)
    with thinking(history.variant):
        return strategy.next_guess(history)


@app.command(cls=with_strategies)
@handled
def tree(
    out: Path = typer.Option(..., "--out", help="The JSON file to write."),
    strategy: str = STRATEGY,
    variant: str = VARIANT,
    pegs: int = PEGS,
    colours: int = COLOURS,
    no_repeat: bool = NO_REPEAT,
    max_guesses: int = MAX_GUESSES,
    seed: int = SEED,
    jobs: int = TREE_JOBS,
) -> None:
    """Write a strategy's whole decision tree as JSON (format in the README)."""
    from hamle.mastermind import MastermindError, optimal
    from hamle.mastermind.tree import strategy_tree, tree_json, verify

    if wrong := out_problem(out, "--out", (".json",)):
        raise MastermindError(wrong)
    chosen = make_variant(variant, pegs, colours, no_repeat)
    breaker = _strategy(strategy, chosen, max_guesses, jobs, seed)
    if breaker.name == "optimal":
        data = optimal.cached_tree(chosen, max_guesses)
    else:
        with thinking(chosen):
            tree_of = strategy_tree(breaker, chosen)
            data = tree_json(tree_of, chosen, breaker.name, seed=breaker.seed)
    check = verify(data)
    _write(out, json.dumps(data, separators=(",", ":")) + "\n")
    console.print(
        f"{breaker.label} on {chosen.describe()}: total {check.total}, worst {check.maximum}; "
        f"written to {visible(out)}",
        markup=False,
        highlight=False,
    )


def _write(out: Path, text: str) -> None:
    """Write ``text`` to ``out`` whole or not at all; an OS error is one clear error."""
    from hamle.mastermind import MastermindError

    try:
        write_whole(out, text)
    except OSError as exc:
        raise MastermindError(f"--out: cannot write {out}: {exc.strerror}") from None


@app.command()
@handled
def verify(
    path: Path = typer.Argument(..., help="A tree file written by 'tree' (or another solver)."),
    as_json: bool = JSON,
) -> None:
    """Replay every secret through a tree file: total, average, worst case, histogram."""
    from hamle.mastermind.strategies import labelled
    from hamle.mastermind.tree import load
    from hamle.mastermind.tree import verify as check_tree

    check = check_tree(load(path))
    if as_json:
        print_json(check.as_dict())
        return
    name = visible(check.strategy, longest=NAME_AT_MOST) if check.strategy else "a strategy"
    name = labelled(name, check.seed)
    console.print(
        f"{name} on {check.variant.describe()}: every secret found; "
        f"total {check.total}, average {check.average:.4f}, worst {check.maximum}",
        markup=False,
        highlight=False,
    )
    console.print(
        "guesses: " + ", ".join(f"{n}×{k}" for n, k in check.histogram.items()), highlight=False
    )


def _say(variant: mm.Variant, answer: int) -> str:
    black, white = variant.split(answer)
    return f"{black} black {white} white"


def _show_candidates(variant: mm.Variant, candidates: np.ndarray) -> None:
    n = len(candidates)
    shown = " ".join(variant.format(int(c)) for c in candidates[:LIST_AT_MOST])
    more = "" if n <= LIST_AT_MOST else " …"
    console.print(f"{n} candidate{'s' if n != 1 else ''} left: {shown}{more}", highlight=False)


def _read(prompt: str) -> str:
    """The line typed at ``prompt``, stripped; a blank line (an Enter too many) or one too
    long to be a guess or an answer (a careless paste) asks again, and the end of the
    input is ''."""
    while True:
        console.print(prompt, end="")
        if (line := game_line()) is None:
            continue
        if not line or line.strip():
            return line.strip()


@app.command(cls=with_strategies)
@handled
def solve(
    strategy: str = STRATEGY,
    variant: str = VARIANT,
    pegs: int = PEGS,
    colours: int = COLOURS,
    no_repeat: bool = NO_REPEAT,
    seed: int = SEED,
) -> None:
    """You hold the secret; answer each guess with black and white, like 2 1.

    Also: 'undo' takes back the last answer, 'fix N B W' corrects answer N, 'q' quits.
    """
    import hamle.mastermind as mm

    chosen = make_variant(variant, pegs, colours, no_repeat)
    breaker = _seeded(mm.get_strategy(strategy), seed)
    breaker.check(chosen)
    console.print(f"{chosen.describe()}; strategy {breaker.label}.", highlight=False)
    console.print("Answer each guess with black and white (like 2 1); undo, fix N B W, q.")
    history = mm.History(chosen)
    guess = _next_guess(breaker, history)
    while True:
        line = _read(f"guess {len(history.turns) + 1}: {chosen.format(guess)}  answer> ")
        if quits(line):
            console.print("\nstopped")
            return
        try:
            attempt = _apply(chosen, history, guess, line)
            candidates = attempt.candidates()
        except mm.InconsistentError as exc:
            console.print(f"inconsistent: {exc}", style="red", markup=False, highlight=False)
            continue
        except mm.MastermindError as exc:
            console.print(visible(exc), style="red", markup=False, highlight=False)
            continue
        history = attempt
        if history.solved:
            n, last = len(history.turns), history.turns[-1][0]
            console.print(f"solved in {n} guess{'es' if n != 1 else ''}: {chosen.format(last)}")
            return
        _show_candidates(chosen, candidates)
        guess = _next_guess(breaker, history)


@contextmanager
def thinking(variant: mm.Variant):
    """A status line on stderr while a guess is chosen among many codes (a second or more)."""
    if variant.size <= THINKING_FROM:
        yield
        return
    with errors.get().status(f"thinking over {variant.size:,} codes…"):
        yield


def _apply(variant: mm.Variant, history: mm.History, guess: int, line: str) -> mm.History:
    """The history after a typed answer or command (undo, fix N B W)."""
    import hamle.mastermind as mm

    words = name_key(line).split()
    if words == ["undo"]:
        if not history.turns:
            raise mm.MastermindError("nothing to undo")
        return mm.History(variant, history.turns[:-1])
    if words and words[0] == "fix":
        if len(words) < 3 or not re.fullmatch(r"[0-9]+", words[1]):
            raise mm.MastermindError("write fix N B W, like fix 2 1 0")
        turn = int(words[1]) - 1
        if not 0 <= turn < len(history.turns):
            raise mm.MastermindError(f"there is no answer #{turn + 1} to fix")
        answer = variant.parse_answer(" ".join(words[2:]))
        turns = list(history.turns)
        turns[turn] = (turns[turn][0], answer)
        if answer == variant.solved:  # that guess was the secret: the game ended there
            del turns[turn + 1 :]
        return mm.History(variant, tuple(turns))
    return history.then(guess, variant.parse_answer(line))


@app.command(cls=with_strategies)
@handled
def play(
    strategy: str = STRATEGY,
    game: int = typer.Option(None, "--game", min=1, help="Game number (default: a new one)."),
    variant: str = VARIANT,
    pegs: int = PEGS,
    colours: int = COLOURS,
    no_repeat: bool = NO_REPEAT,
    seed: int = SEED,
) -> None:
    """The computer holds the secret; type guesses (30 at most, as on the site). '?' shows
    the candidates left and a suggestion (Ctrl-C stops a long one), 'q' quits."""
    import numpy as np

    import hamle.mastermind as mm

    chosen = make_variant(variant, pegs, colours, no_repeat)
    helper = _seeded(mm.get_strategy(strategy), seed)
    number = game if game is not None else secrets.randbelow(999_999) + 1
    secret = int(np.random.default_rng([number, 0]).integers(chosen.size))
    keys = f"type a guess of {chosen.pegs} digits; ? lists the codes left and a suggestion; q quits"
    console.print(f"game {number}: {chosen.describe()}. Guess the secret: {keys}.")
    again = f"replay with --game {number} --pegs {chosen.pegs} --colours {chosen.colours}"
    again += "" if chosen.repeat else " --no-repeat"  # (the secret is drawn from these alone)
    history = mm.History(chosen)
    while True:
        line = _read(f"guess {len(history.turns) + 1}> ")
        if quits(line):
            console.print(f"\nthe secret was {chosen.format(secret)}; {again}")
            return
        if name_key(line) in ("help", "h"):
            console.print(keys, highlight=False)
            continue
        if line == "?":
            try:  # (a long count or search: Ctrl-C gives the game back, not ends it)
                _show_candidates(chosen, history.candidates())
                helper.check(chosen)
                suggestion = _next_guess(helper, history)
            except mm.MastermindError as exc:
                console.print(f"no suggestion: {exc}", style="red", markup=False, highlight=False)
            except KeyboardInterrupt:
                console.print("\nno suggestion: stopped; the game goes on", highlight=False)
            else:
                console.print(
                    f"{helper.label} suggests {chosen.format(suggestion)}", highlight=False
                )
            continue
        try:
            guess = chosen.parse(line)
        except mm.CodeError as exc:
            console.print(visible(exc), style="red", markup=False, highlight=False)
            continue
        made = [g for g, _ in history.turns]
        if guess in made:  # (its answer would say nothing new, and cost a guess)
            already = f"{chosen.format(guess)} is guess {made.index(guess) + 1} already"
            console.print(already, style="red", highlight=False)
            continue
        black, white = mm.score(chosen, secret, guess)
        history = history.then(guess, chosen.answer(black, white))
        console.print(f"  {black} black {white} white", highlight=False)
        if history.solved:
            n = len(history.turns)
            console.print(f"solved in {n} guess{'es' if n != 1 else ''}! {again}")
            return
        if len(history.turns) == mm.GAME_GUESSES:
            console.print(
                f"out of guesses ({mm.GAME_GUESSES}): the secret was {chosen.format(secret)}; "
                + again
            )
            return
