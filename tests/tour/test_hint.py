"""The hint engine (exact endgames, flat Monte Carlo, early termination, the choice rule),
the solver, the daily puzzle and the combo tracker."""

from __future__ import annotations

import datetime as dt
import functools
import importlib
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tour import reference as ref

from hamle.tour import (
    GRID,
    Combo,
    DateError,
    MoveError,
    Position,
    TourError,
    daily_puzzle,
    hint,
    solve,
    today_in_turkey,
)
from hamle.tour import _kernels as k
from hamle.tour.board import CELLS, TARGETS

hint_module = importlib.import_module("hamle.tour.hint")  # the name `hint` is the function
needs_node = ref.needs_node
UTC = dt.UTC


# --- positions -------------------------------------------------------------------------


@functools.cache
def monte_carlo_positions(n: int = 120) -> tuple[Position, ...]:
    """Positions from random games stopped mid-way where the hint runs Monte Carlo."""
    out = []
    i = 0
    while len(out) < n:
        rand = random.Random(i)
        i += 1
        position = Position(tuple(ref.random_game(rand, stop=rand.randrange(15, 60))))
        if not position.over and hint(position, "quick").rollouts > 0:
            out.append(position)
    return tuple(out)


@functools.cache
def endgame_positions(n: int = 120) -> tuple[Position, ...]:
    """Legal positions with fewer than 12 empty cells, game not over."""
    rand = random.Random(89)
    return tuple(Position(tuple(ref.endgame_path(rand, 89))) for _ in range(n))


def kernel_totals(after: Position, *counts: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """{n: (sum of the first n games, first full board among them)} for n = 30 and 120
    and ``counts``, from ``after``'s own stream, the way the spec says a candidate's
    rollouts run (one stream however the games are split into calls)."""
    state = np.array([after.seed()], np.uint64)
    proof = np.empty(100, np.int64)
    out, total, first, played = {}, 0, (), 0
    for n in sorted({30, 120, *counts}):
        t, p = k.rollouts(
            *after.words(), after.current, after.count, TARGETS, state, n - played, proof
        )
        total, played = total + int(t), n
        first = first or tuple(int(c) for c in proof[:p])
        out[n] = (total, first)
    return out


def played(cells: str) -> Position:
    """The position after a game written as its cells, start first."""
    start, *moves = cells.split()
    return Position.from_moves(start, moves)


def check_tour(position: Position, candidate) -> None:
    """The candidate's tour is legal and fills the board from the position after it."""
    after = position.play(candidate.move)
    for cell in candidate.tour:
        after = after.play(cell)
    assert after.count == 100


def check_invariants(position: Position, h) -> None:
    moves = [c.move for c in h.candidates]
    assert moves == list(position.legal_moves())
    assert h.move in moves and h.rollouts == sum(c.rollouts for c in h.candidates)
    chosen = next(c for c in h.candidates if c.move == h.move)
    assert (h.value, h.exact) == (chosen.value, chosen.exact)
    for c in h.candidates:
        assert c.degree == ref.onward_degree(set(position.path) | {c.move}, c.move)
        assert position.count + 1 <= c.value <= 100
        if c.complete:
            assert c.value == 100 and c.exact
            check_tour(position, c)
        elif c.complete is False:  # refuted: exact best count, or only the search's no
            assert c.value < 100 and c.tour == ()
        else:
            assert not c.exact and c.tour == ()
    # A move proven to allow a full board first, then a move not known not to.
    rank = {True: 0, None: 1, False: 2}
    assert rank[chosen.complete] == min(rank[c.complete] for c in h.candidates)
    if len(h.candidates) > 1 and not any(c.complete for c in h.candidates):
        assert all(c.complete is False for c in h.candidates) or h.rollouts


@given(st.integers(0, 2**32 - 1), st.integers(1, 99), st.sampled_from(["hint", "quick"]))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hint_invariants_on_random_positions(seed, stop, mode):
    position = Position(tuple(ref.random_game(random.Random(seed), stop=stop)))
    if position.over:
        with pytest.raises(MoveError):
            hint(position, mode)
        return
    h = hint(position, mode)
    assert h.mode == mode
    check_invariants(position, h)
    if h.rollouts:
        n = {"hint": 120, "quick": 30}[mode]
        # The rounds that settle a full board add their games to the moves still open.
        extra = list(itertools.accumulate(e for e, _ in hint_module.DECIDE_ROUNDS[mode]))
        assert max(c.rollouts for c in h.candidates) >= n
        assert {c.rollouts for c in h.candidates} <= {0, 30, n} | {
            base + e for base in (30, n) for e in extra
        }
        # Only moves the search did not settle are played out.
        assert all(c.exact for c in h.candidates if c.rollouts == 0)


# --- exact endgames ---------------------------------------------------------------------


def test_endgame_hints_are_exact_and_best():
    ties = {"degree": 0, "index": 0}
    below_full = 0
    for position in endgame_positions():
        h = hint(position)
        check_invariants(position, h)
        assert h.exact and h.rollouts == 0 and h.mode == "hint"
        values = {}
        for c in h.candidates:
            truth = ref.best_final_of(position.play(c.move))
            assert c.exact and c.rollouts == 0
            assert c.value == truth, (position.path, c.move)
            assert c.complete == (truth == 100)
            values[c.move] = truth
        best = max(values.values())
        assert h.value == best == ref.best_final_of(position)
        assert values[h.move] == best
        # Ties: the smaller onward degree, then the smaller cell index.
        tied = [c for c in h.candidates if c.value == best]
        assert h.move == min(tied, key=lambda c: (c.degree, c.move)).move
        if len(tied) > 1:
            ties["degree" if len({c.degree for c in tied}) > 1 else "index"] += 1
        below_full += best < 100
        # Quick mode answers the same exact hint.
        quick = hint(position, "quick")
        assert quick.mode == "quick" and quick.candidates == h.candidates
    assert ties["degree"] and ties["index"] and below_full >= 5


def test_docstring_position_and_tie_break():
    # A1 D1 D4: all seven moves allow a full board; B2 has the least onward degree (2).
    position = Position.from_moves("A1", ["D1", "D4"])
    h = hint(position, "quick")
    assert (h.move_name, h.value, h.exact, h.rollouts) == ("B2", 100, True, 0)
    check_invariants(position, h)
    complete = [c for c in h.candidates if c.complete]
    assert len(complete) == 7
    assert h.move == min(complete, key=lambda c: (c.degree, c.move)).move
    assert sorted(c.degree for c in h.candidates) == [2, 3, 4, 4, 7, 7, 7]


def budgeted_search(after: Position) -> tuple[int, bool]:
    best, finished, _ = hint_module._search(after, hint_module.EXACT_BUDGET)
    return best, finished


def test_a_full_board_found_by_search_settles_the_hint():
    # Early and middle positions: when the budgeted search proves a full board after some
    # move, the hint is a move proven so (smaller onward degree, then smaller cell index).
    # The moves the search did not settle are still valued by the mean of their rollouts
    # (a game of theirs that fills the board proves them too), never by the search's
    # partial best; the moves it settled are not played out.
    rand = random.Random(5)
    settled = mixed = 0
    for _ in range(40):
        position = Position(tuple(ref.random_game(rand, stop=rand.randrange(1, 30))))
        if position.over:
            continue
        h = hint(position)
        check_invariants(position, h)
        searched = {m: budgeted_search(position.play(m)) for m in position.legal_moves()}
        proven = [m for m, (best, _) in searched.items() if best == 100]
        if proven or all(finished for _, finished in searched.values()):
            settled += 1
            by_move = {c.move: c for c in h.candidates}
            for move, (best, finished) in searched.items():
                c = by_move[move]
                if finished or best == 100:
                    assert c.rollouts == 0 and c.exact and c.value == best
                else:
                    assert c.rollouts >= hint_module.FIRST_ROUND and (c.complete or not c.exact)
            assert set(proven) <= {c.move for c in h.candidates if c.complete}
            if proven:
                complete = [c for c in h.candidates if c.complete]
                assert h.move == min(complete, key=lambda c: (c.degree, c.move)).move
                mixed += not all(finished for _, finished in searched.values())
        else:
            assert h.rollouts > 0
    assert settled >= 5 and mixed >= 1


# --- Monte Carlo ------------------------------------------------------------------------


def test_monte_carlo_hint_mode():
    dropped = kept = 0
    for position in monte_carlo_positions():
        h = hint(position)
        check_invariants(position, h)
        assert h.mode == "hint" and h.rollouts > 0
        firsts, values = {}, {}
        for c in h.candidates:
            values[c.move] = Fraction(c.value)
            if c.rollouts == 0:
                assert c.exact  # settled by the search: no rollouts
                continue
            runs = kernel_totals(position.play(c.move), c.rollouts)
            total, proof = runs[c.rollouts]
            firsts[c.move] = Fraction(runs[30][0], 30)
            values[c.move] = Fraction(total, c.rollouts) if not c.exact else Fraction(c.value)
            if c.tour and not c.exact:
                pytest.fail("a tour is a proof: the candidate must be exact")
            if not c.exact:
                assert c.value == float(values[c.move])
                assert not proof  # a rollout that fills the board makes the value exact
            elif proof and not c.tour:
                pytest.fail("a rollout filled the board but the candidate shows no tour")
        # After 30 games, a candidate more than MARGIN (2 cells) below the leader stops.
        leader = max(firsts.values())
        for c in h.candidates:
            if c.move not in firsts:
                continue
            expected = 120 if firsts[c.move] >= leader - 2 else 30
            extra = itertools.accumulate(e for e, _ in hint_module.DECIDE_ROUNDS["hint"])
            assert c.rollouts - expected in {0, *extra}, (position.path, c.move)
            dropped += expected == 30
            kept += expected == 120
        # Choice: a proven full board first, then a move not refuted, then the highest
        # value (exact, or the mean of the rollouts), smaller onward degree, smaller cell.
        rank = {True: 0, None: 1, False: 2}
        best = min(
            h.candidates,
            key=lambda c: (rank[c.complete], -values[c.move], c.degree, c.move),
        )
        assert h.move == best.move, position.path
    assert dropped and kept


# Positions where two moves tie for the best mean and the one with the smaller onward
# degree has the larger cell index.
TIED_MEANS = [
    (
        "quick",
        "E3 H3 F1 F4 H2 J4 J1 G1 I3 F3 C3 A1 A4 D4 F2 C2 E4 H4 J2 G2 G5 J5 J8 G8 E10 H10 H7 F5 "
        "C5 E7 B7 B10 D8 D5 A5 C7 A9 D9 F7 F10 I10 I7 G9 J9 J6 G6 D6 B8 B5 E5 E8 G10 J10 J7 G7 "
        "G4 E2 C4 A6 C8",
        ("A10", "E6"),
    ),
    (
        "hint",
        "E1 C3 C6 F6 D8 D5 A5 A2 C4 F4 I4 G2 J2 H4 F2 I2 G4 J4 J1 G1 I3 F3 H5 H8 J10 G10 I8 G6 "
        "G3 E5 B5 D3 A3",
        ("A6", "C5"),
    ),
]


@pytest.mark.parametrize(("mode", "path", "pair"), TIED_MEANS)
def test_monte_carlo_ties_go_to_the_smaller_onward_degree(mode, path, pair, monkeypatch):
    # With no deciding search, the means alone choose (here they tie).
    monkeypatch.setattr(hint_module, "DECIDE_ROUNDS", {"hint": (), "quick": ()})
    position = played(path)
    h = hint(position, mode)
    assert h.rollouts > 0
    winner, loser = (next(c for c in h.candidates if GRID.name(c.move) == n) for n in pair)
    assert not winner.exact and not loser.exact
    assert winner.value == loser.value == max(c.value for c in h.candidates)
    assert winner.degree < loser.degree and winner.move > loser.move
    assert h.move == winner.move


def test_monte_carlo_quick_mode_matches_the_python_twin():
    for position in monte_carlo_positions()[:40]:
        h = hint(position, "quick")
        check_invariants(position, h)
        assert h.mode == "quick"
        played = [c for c in h.candidates if c.rollouts]
        extra = itertools.accumulate(e for e, _ in hint_module.DECIDE_ROUNDS["quick"])
        assert played and {c.rollouts for c in played} <= {30, *(30 + e for e in extra)}
        assert all(c.exact for c in h.candidates if not c.rollouts)
        assert h.rollouts == sum(c.rollouts for c in played)
        for c in played:
            after = position.play(c.move)
            total, proof = ref.rollouts(
                set(after.path),
                after.current,
                after.count,
                ref.Mulberry32(after.seed()),
                c.rollouts,
            )
            if not c.exact:
                assert c.value == total / c.rollouts and not proof
            elif proof and c.complete:
                assert len(c.tour) == 100 - after.count


def test_exact_candidates_in_monte_carlo_positions_are_exact():
    checked = 0
    for position in monte_carlo_positions():
        for c in hint(position).candidates:
            if c.exact and not c.complete:
                best, finished, _ = hint_module._search(position.play(c.move), 10**6)
                assert finished and c.value == best
                checked += 1
    assert checked


@needs_node
def test_monte_carlo_values_match_the_seed_javascript():
    requests, expected = [], []
    for position in monte_carlo_positions()[:40]:
        for c in hint(position).candidates:
            if not c.exact:
                after = position.play(c.move)
                requests.append({"op": "rollouts", "path": list(after.path), "n": c.rollouts})
                expected.append((after.seed(), c.value, c.rollouts))
    answers = ref.node_answers(requests)
    assert len(answers) > 10
    for (seed, value, n), js in zip(expected, answers, strict=True):
        assert js["seed"] == seed
        assert value == js["total"] / n


def test_hint_is_deterministic():
    for position in [*monte_carlo_positions()[:10], *endgame_positions()[:10]]:
        for mode in ("hint", "quick"):
            assert hint(position, mode) == hint(Position(tuple(position.path)), mode)


def test_same_position_by_two_move_orders_gets_the_same_hint():
    # A1 D1 D4 A4 and D4 D1 A1 A4 fill the same cells and end on A4; play on alike
    # until the hint runs Monte Carlo.
    a0 = Position.from_moves("A1", ["D1", "D4", "A4"])
    b0 = Position.from_moves("D4", ["D1", "A1", "A4"])
    for seed in range(200):
        rand = random.Random(seed)
        a, b = a0, b0
        for _ in range(rand.randrange(15, 40)):
            if a.over:
                break
            move = rand.choice(a.legal_moves())
            a, b = a.play(move), b.play(move)
        if not a.over and hint(a).rollouts > 0:
            break
    else:
        pytest.fail("no Monte Carlo position found")
    assert a.path != b.path and a.seed() == b.seed()
    assert hint(a) == hint(b) and hint(a, "quick") == hint(b, "quick")


def test_hint_errors():
    position = Position.from_moves("A1", ["D1"])
    with pytest.raises(TourError, match="'fast'"):
        hint(position, "fast")
    over = Position(tuple(ref.random_game(random.Random(3))))
    assert over.over
    with pytest.raises(MoveError, match=ref.cell_name(over.current)):
        hint(over)
    with pytest.raises(MoveError, match=ref.cell_name(over.current)):
        hint(over, "quick")


def test_a_hint_on_a_complete_tour_says_it_is_complete():
    full = solve(Position.start("A1"))
    assert full.complete
    with pytest.raises(MoveError) as done:
        hint(Position(full.path), "quick")
    assert done.value.code == "tour.done"  # as the site says it, not tour.stuck
    assert str(done.value) == "the tour is complete: every cell is filled"


# --- solve ------------------------------------------------------------------------------


@pytest.mark.parametrize("start", ["A1", "E5", "J10", "C7", "F2", "B9"])
def test_solve_fills_the_board(start):
    position = Position.start(start)
    solution = solve(position)
    assert solution.complete and solution.score == 100 and solution.proven
    assert solution.path[0] == position.current and ref.is_tour(solution.path)
    data = solution.as_dict()
    assert data["complete"] and data["score"] == 100 and data["path"][0] == start


def test_solve_keeps_the_given_moves_and_is_exact_in_endgames():
    position = Position.from_moves("A1", ["D1", "D4"])
    solution = solve(position)
    assert solution.path[:3] == position.path and ref.is_tour(solution.path)
    assert solution.complete
    below = 0
    for position in endgame_positions()[:30]:
        solution = solve(position)
        assert solution.path[: position.count] == position.path
        assert ref.is_tour(solution.path) and solution.proven
        assert solution.score == ref.best_final_of(position)
        assert not ref.legal(set(solution.path), solution.path[-1])
        below += solution.score < 100
    assert below
    over = Position(tuple(ref.random_game(random.Random(3))))
    assert solve(over).path == over.path and solve(over).proven


# --- daily puzzle -----------------------------------------------------------------------


def test_daily_puzzle_of_2026_12_01():
    puzzle = daily_puzzle("2026-12-01")
    assert (puzzle.seed, puzzle.start, puzzle.start_name) == (20261201, 28, "I3")
    assert puzzle.date == dt.date(2026, 12, 1)
    assert daily_puzzle(dt.date(2026, 12, 1)) == puzzle == daily_puzzle(" 2026-12-01 ")
    assert puzzle.as_dict() == {
        "date": "2026-12-01",
        "seed": 20261201,
        "start": 28,
        "start_name": "I3",
    }


def test_daily_puzzle_follows_the_formula():
    day = dt.date(2025, 1, 1)
    for _ in range(60):
        seed = day.year * 10000 + day.month * 100 + day.day
        assert daily_puzzle(day).seed == seed
        assert daily_puzzle(day).start == int(ref.Mulberry32(seed)() * 100)
        day += dt.timedelta(days=13)


@pytest.mark.parametrize(
    "bad", ["2026-13-01", "tomorrow", "", "2026-02-30", "01.12.2026", "20261201", "2026-W49-2"]
)
def test_bad_dates(bad):
    with pytest.raises(DateError, match=repr(bad).replace(".", r"\.")):
        daily_puzzle(bad)


@pytest.mark.parametrize(
    ("moment", "date"),
    [
        (dt.datetime(2026, 12, 1, 20, 59, 59, tzinfo=UTC), "2026-12-01"),
        (dt.datetime(2026, 12, 1, 21, 0, 0, tzinfo=UTC), "2026-12-02"),
        (dt.datetime(2026, 7, 1, 20, 59, tzinfo=UTC), "2026-07-01"),  # no summer time
        (dt.datetime(2026, 7, 1, 21, 0, tzinfo=UTC), "2026-07-02"),
        (dt.datetime(2026, 12, 31, 21, 0, tzinfo=UTC), "2027-01-01"),
        (dt.datetime(2026, 12, 1, 2, 0, tzinfo=UTC), "2026-12-01"),
        # 23:30 in New York on 1 December is 07:30 on 2 December in Istanbul.
        (
            dt.datetime(2026, 12, 1, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
            "2026-12-02",
        ),
    ],
)
def test_today_in_turkey_switches_at_2100_utc(moment, date):
    assert today_in_turkey(moment).isoformat() == date


@pytest.mark.parametrize("given", ["2026-01-01", dt.date(2026, 1, 1), 20260101])
def test_today_in_turkey_takes_a_moment_only(given):
    with pytest.raises(DateError, match=r"expected a moment \(a datetime with a time zone\)"):
        today_in_turkey(given)


@pytest.mark.parametrize(
    "moment",
    [
        dt.datetime.max.replace(tzinfo=UTC),
        dt.datetime.min.replace(tzinfo=dt.timezone(dt.timedelta(hours=14))),
    ],
)
def test_a_moment_with_no_date_in_turkey_is_a_date_error(moment):
    for call in (today_in_turkey, daily_puzzle):
        with pytest.raises(DateError, match="has no date in Turkey"):
            call(moment)


def test_today_in_turkey_default_and_naive():
    with pytest.raises(DateError):
        today_in_turkey(dt.datetime(2026, 12, 1, 12, 0))
    before = today_in_turkey()
    puzzle = daily_puzzle()
    after = today_in_turkey()
    assert puzzle.date in (before, after)
    expected = (dt.datetime.now(UTC) + dt.timedelta(hours=3)).date()
    assert abs((before - expected).days) <= 1


# --- combo ------------------------------------------------------------------------------


def test_combo_counts_moves_matching_the_quick_hint():
    # A position where the quick hint (30 games) and the full hint (120) disagree.
    for position in monte_carlo_positions():
        quick, full = hint(position, "quick").move, hint(position).move
        if quick != full:
            break
    else:
        pytest.fail("quick and full hints always agree")
    assert Combo() == Combo(0, 0)
    assert Combo().after(position, quick) == Combo(1, 1)
    assert Combo(1, 4).after(position, quick) == Combo(2, 4)
    assert Combo(4, 4).after(position, quick) == Combo(5, 5)
    assert Combo(3, 5).after(position, full) == Combo(0, 5)
    # A whole game: the combo rises along quick hints and resets on another move.
    p, combo = Position.start("E5"), Combo()
    for _ in range(3):
        q = hint(p, "quick").move
        combo = combo.after(p, q)
        p = p.play(q)
    assert combo == Combo(3, 3)
    other = next(m for m in p.legal_moves() if m != hint(p, "quick").move)
    assert combo.after(p, other) == Combo(0, 3)


def test_combo_takes_a_cell_name_or_index_and_refuses_an_illegal_move():
    start = Position.start("A1")
    assert hint(start, "quick").move_name == "D1"
    assert Combo().after(start, "D1") == Combo().after(start, " d1 ") == Combo(1, 1)
    assert Combo().after(start, 3) == Combo(1, 1)
    assert Combo(2, 4).after(start, "A4") == Combo(0, 4)
    for move, code in ((99, "tour.not_a_jump"), ("A1", "tour.filled"), ("zz", "cell.not_a_name")):
        with pytest.raises(MoveError) as refused:
            Combo().after(start, move)
        assert refused.value.code == code
    with pytest.raises(TourError, match="expected a Position"):
        Combo().after("A1", "D1")


@pytest.mark.parametrize(
    ("current", "best", "message"),
    [
        (-5, "x", "a whole number 0 or more, not -5"),
        (0, "x", "not 'x'"),
        (1.0, 1, "not 1.0"),
        (True, 1, "not True"),
        (np.True_, 1, "not np.True_"),
        (np.int64(-1), 1, "not np.int64"),
        (3, 2, r"the best combo \(2\) cannot be shorter than the current one \(3\)"),
    ],
)
def test_a_combo_is_checked_when_made(current, best, message):
    with pytest.raises(TourError, match=message):
        Combo(current, best)


def test_a_combo_takes_numpy_integers_as_plain_ones():
    combo = Combo(np.int64(1), np.int32(2))
    assert combo == Combo(1, 2) and type(combo.current) is type(combo.best) is int
    assert repr(combo) == "Combo(current=1, best=2)"


# --- keeping a full board ---------------------------------------------------------------

# A position from a person's game where the quick and the full hint once pointed at C3,
# after which the board can no longer be filled (C3 is worth 99 at best), while C9 still
# fills it.
LOST_ONCE = (
    "I2 G4 E2 H2 J4 J1 G1 D1 A1 A4 D4 B2 B5 B8 D10 F8 H10 J8 H6 H9 J7 G7 I9 I6 I3 G5 E3 C1 "
    "A3 A6 C8 A10 A7 C5 C2 F2 H4 F6 F9 D7 B9 E9 E6 C4 A2 A5 A8 D8 B6 B3 D5 D2 G2 E4 C6"
)


@pytest.mark.parametrize("mode", ["hint", "quick"])
def test_the_hint_keeps_a_full_board_that_exists(mode):
    position = played(LOST_ONCE)
    h = hint(position, mode)
    check_invariants(position, h)
    by_name = {GRID.name(c.move): c for c in h.candidates}
    assert h.move_name == "C9" and by_name["C9"].complete
    check_tour(position, by_name["C9"])
    assert by_name["C3"].complete is False and by_name["C3"].value == 99
    best, finished, _ = hint_module._search(position.play("C3"), 10**7, floor=99)
    assert finished and best == 99  # C3 really loses the full board


# Every move here is refuted; the search settles each one's best count exactly.
ALL_REFUTED = (
    "F6 D8 B10 E10 H10 J8 G8 I10 F10 C10 A8 A5 A2 C4 C1 A3 A6 A9 C7 F7 H9 J7 J10 H8 H5 J3 "
    "G3 I5 F5 D7 B9 E9 G7 G4 G1 J1 J4 H6 F4 H2 E2 B2 B5 B8 D6 D3 F1 I1 I4 I7 G9 E7 G5 I3 I6 "
    "I9 F9 H7 J9 J6 G6 I8 G10 E8 E5 C3 C6 C9 A7"
)


@pytest.mark.parametrize("mode", ["hint", "quick"])
def test_with_no_full_board_left_the_hint_maximises_the_exact_count(mode):
    position = played(ALL_REFUTED)
    h = hint(position, mode)
    check_invariants(position, h)
    assert all(c.complete is False and c.exact for c in h.candidates)
    for c in h.candidates:
        best, finished, _ = hint_module._search(position.play(c.move), 10**7)
        assert finished and c.value == best < 100
    assert h.value == max(c.value for c in h.candidates) and h.exact
    assert any(c.rollouts > 0 for c in h.candidates)  # not all settled by the first search


def test_solve_proves_the_best_count_where_no_full_board_is_left():
    position = played(ALL_REFUTED)
    solution = solve(position)
    best = max(c.value for c in hint(position).candidates)
    assert (solution.complete, solution.proven, solution.score) == (False, True, best)
    assert solution.path[: position.count] == position.path
    assert Position(solution.path).over


def test_what_is_not_a_position_is_named():
    for call in (lambda: hint("A1"), lambda: solve("A1"), lambda: hint(None, "quick")):
        with pytest.raises(TourError, match="expected a Position"):
            call()
    with pytest.raises(TourError, match="moves must be a list of cells, like"):
        Position.from_moves("A1", "D1")
    assert Position.from_moves("A1", ["D1"]).path == (0, 3)


def test_deciding_rounds_search_the_most_promising_move_first(monkeypatch):
    # A proof ends the rounds and becomes the hint, so the order the moves are searched in
    # chooses among moves that both allow a full board: the best mean first, then the
    # smaller onward degree, then the smaller cell.
    real_decide, real_search = hint_module._decide, hint_module._search
    orders = []

    def decide(after, candidates, games, mode):
        move_at = {position.path: move for move, position in after.items()}
        searched = []

        def search(position, budget, floor=0, ceiling=CELLS, seen=None):
            if floor == CELLS - 1:
                searched.append(move_at[position.path])
            return real_search(position, budget, floor, ceiling, seen)

        undecided = [c for c in candidates if c.complete is None]
        expected = [
            c.move for c in sorted(undecided, key=lambda c: (-games.mean(c.move), c.degree, c.move))
        ]
        with monkeypatch.context() as patched:
            patched.setattr(hint_module, "_search", search)
            decided = real_decide(after, candidates, games, mode)
        first_round = searched[: len(expected)]
        assert first_round == expected[: len(first_round)]
        orders.append(first_round)
        return decided

    monkeypatch.setattr(hint_module, "_decide", decide)
    for position in monte_carlo_positions()[:40]:
        hint(position, "quick")
    assert sum(len(order) >= 2 for order in orders) >= 5
