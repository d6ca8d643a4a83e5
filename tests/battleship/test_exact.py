"""Exact counts (spec § 5) under both rule sets: the profile DP against enumeration on
small boards, seed 003's figures on the Russian board, the classic fleet count,
invariants, errors, and the exact shooter."""

from __future__ import annotations

import contextlib
import importlib
import math
import threading
from fractions import Fraction

import numpy as np
import pytest
from battleship import reference as ref
from battleship.reference import marked, played
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hamle.battleship import (
    CountTooLargeError,
    MarksError,
    Observation,
    Rules,
    _profile,
    count_fleets,
    density,
    exact,
    get_shooter,
    layouts,
    play_game,
)
from hamle.battleship.exact import symmetries
from hamle.battleship.fleet import Ocean, random_fleet
from hamle.battleship.observation import HIT, MISS, SUNK, UNKNOWN, SunkShip
from hamle.battleship.strategies.exact_shooter import best_cells

exact_module = importlib.import_module("hamle.battleship.exact")  # the package exports exact()
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
RUSSIAN = Rules.russian()
CLASSIC = Rules.classic()
SEED_TOTAL = 1_855_545_978_831_780
# Seed 003's empty-board map, every count divided by 10^9 (rows 1..10, columns A..J).
SEED_MAP = [
    [438487, 418064, 475795, 466986, 459000, 459000, 466986, 475795, 418064, 438487],
    [418064, 273993, 311381, 287231, 287065, 287065, 287231, 311381, 273993, 418064],
    [475795, 311381, 378334, 357367, 361127, 361127, 357367, 378334, 311381, 475795],
    [466986, 287231, 357367, 330652, 334756, 334756, 330652, 357367, 287231, 466986],
    [459000, 287065, 361127, 334756, 338709, 338709, 334756, 361127, 287065, 459000],
]


def wide_bands(dp, plan) -> list:
    """Per step of ``plan``, the bands from its forward bounds alone (as the memory
    estimate and the forward pass ahead make them)."""
    forward = [(np.zeros(1, np.int64), np.zeros(1, np.int64))]
    for i, step in enumerate(plan.steps):
        after = exact_module._after(plan.steps, i)
        forward.append(dp._forward_bounds(forward[-1], step, False, after))
    return [dp._band(*bounds, *dp._open(len(bounds[0]))) for bounds in forward]


@SETTINGS
@given(played())
def test_small_boards_agree_with_enumeration(obs):
    total, counts = ref.exact_map(obs)
    if total == 0:
        with pytest.raises(MarksError):
            exact(obs)
        return
    report = exact(obs)
    assert report.total == total
    assert list(report.counts) == counts
    unknown = [c for c in range(obs.rules.cells) if obs.marks[c] == UNKNOWN]
    top = max((counts[c] for c in unknown), default=0)
    assert report.best == tuple(c for c in unknown if counts[c] == top > 0)


@SETTINGS
@given(marked())
def test_arbitrary_marks_agree_with_enumeration_or_are_refused(obs):
    total, counts = ref.exact_map(obs)
    if total == 0:
        with pytest.raises(MarksError):
            exact(obs)
    else:
        assert list(exact(obs).counts) == counts


@SETTINGS
@given(played())
def test_counts_add_up_to_total_times_ship_cells(obs):
    # Every layout puts the afloat ships on their cells and the sunk ones on theirs.
    try:
        report = exact(obs)
    except MarksError:
        return
    cells = sum(obs.afloat) + sum(ship.length for ship in obs.sunk)
    assert sum(report.counts) == report.total * cells
    assert all(report.counts[c] == report.total for c in np.flatnonzero(obs.marks == HIT))
    assert all(report.counts[c] == report.total for c in np.flatnonzero(obs.marks == SUNK))


@SETTINGS
@given(played())
def test_cached_best_cells_follow_the_board_through_turns_and_flips(obs):
    try:
        expected = exact(obs).best
    except MarksError:
        return
    assert best_cells(obs) == expected
    for turn in symmetries(obs.rules.rows, obs.rules.cols):
        assert best_cells(turned(obs, turn)) == tuple(
            sorted(int(np.flatnonzero(turn == c)[0]) for c in expected)
        )


@pytest.mark.parametrize(
    "rules",
    [
        Rules.custom(4, [2, 2, 1], touching=False),
        Rules.custom((3, 7), [3, 2, 1], touching=False),
        Rules.custom((7, 3), [3, 2, 1], touching=False),
        Rules.custom(5, [3, 2, 2, 1], touching=False),
        Rules.custom(6, [4, 3, 2, 1], touching=False),
        Rules.custom(4, [2, 2, 1]),
        Rules.custom((3, 6), [3, 2, 2]),
        Rules.custom(5, [4, 3, 2, 1]),
    ],
    ids=lambda r: r.describe(),
)
def test_fleet_counts_agree_with_brute_force(rules):
    fleets = ref.fleets(rules)
    result = count_fleets(rules)
    assert result.fleets == len(fleets)
    assert result.layouts == ref.layouts(rules, fleets) == layouts(rules)


def test_extra_lanes_give_the_same_numbers():
    # Counts beyond 2**64 need prime lanes and the Chinese remainder theorem; forcing
    # more lanes than needed must not change a thing.
    marks = np.zeros(36, np.uint8)
    marks[[7, 20]] = [1, 2]
    for touching in (False, True):
        dp = exact_module._Dp(6, 6, marks, (3, 2, 2, 1), touching)
        one = dp.run(dp.plan(True), np.array([0], np.uint64), True)
        three = dp.run(dp.plan(True), np.array([0, *exact_module._PRIMES[:2]], np.uint64), True)
        assert one[0] == three[0] and list(one[1]) == list(three[1])


@pytest.mark.parametrize("touching, kept", [(True, 6), (True, 0), (False, 0)])
def test_the_forward_pass_ahead_of_the_plan_leaves_what_the_plain_one_does(
    touching, kept, monkeypatch
):
    # With HELP_FROM at 0 the forward pass runs on a second thread while the profiles
    # are made, within wider bands; laid out again, its rows' starts and total must be
    # the plain pass's, with one lane or three.
    monkeypatch.setattr(exact_module, "HELP_FROM", 0)
    marks = np.zeros(36, np.uint8)
    marks[[7, 20, 22]] = [1, 2, 1]
    dp = exact_module._Dp(6, 6, marks, (3, 2, 2, 1), touching)
    for moduli in ([0], [0, *exact_module._PRIMES[:2]]):
        moduli = np.array(moduli, np.uint64)
        with exact_module._ARENA_LOCK:
            ahead = exact_module._Ahead(dp, moduli, kept)
            plan = dp.plan(kept > 0, ahead)
            total, starts = ahead.finish(plan.bands)
            starts = [start.copy() for start in starts]
            plain_total, plain_starts = dp._forward(plan, moduli, kept)
        assert total == plain_total > 0
        assert len(starts) == len(plain_starts) == kept
        assert all(np.array_equal(a, b) for a, b in zip(starts, plain_starts, strict=True))


def test_the_forward_pass_ahead_gives_way_when_its_wide_bands_would_not_fit(monkeypatch):
    # Its bands, from the forward bounds alone, are wider than the final ones: with the
    # memory for the final bands but not for the wide ones, the pass ahead stops and the
    # plain one gives the same map.
    monkeypatch.setattr(exact_module, "HELP_FROM", 0)
    marks = np.zeros(36, np.uint8)
    marks[[7, 20, 22]] = [1, 2, 1]
    dp = exact_module._Dp(6, 6, marks, (3, 2, 2, 1), True)
    moduli = np.array([0], np.uint64)
    plain = dp.plan(True)
    expected = dp.run(plain, moduli, True)
    wide = max(band.size for band in wide_bands(dp, plain))
    narrow = max(band.size for band in plain.bands)
    assert wide > narrow
    limit = dp._buffer_bytes((wide + narrow) // 2, 1, True)
    monkeypatch.setattr(exact_module, "MEMORY_LIMIT", limit)
    with exact_module._ARENA_LOCK:
        ahead = exact_module._Ahead(dp, moduli, dp.rows)
        plan = dp.plan(True, ahead)
        assert ahead.finish(plan.bands) is None
    total, counts = dp.run(plan, moduli, True)
    assert total == expected[0] and list(counts) == list(expected[1])


@SETTINGS
@given(played())
def test_maps_with_the_forward_pass_ahead_agree_with_enumeration(obs):
    total, counts = ref.exact_map(obs)
    assume(total)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(exact_module, "HELP_FROM", 0)
        report = exact(obs)
    assert report.total == total
    assert list(report.counts) == counts


def test_a_board_refused_while_the_forward_pass_runs_ahead_leaves_no_thread(monkeypatch):
    monkeypatch.setattr(exact_module, "HELP_FROM", 0)
    monkeypatch.setattr(exact_module, "TOTAL_PROFILE_LIMIT", 2000)
    threads = threading.active_count()
    with pytest.raises(CountTooLargeError, match="too many partial layouts"):
        exact(Observation.start(Rules.custom(8, [3, 2, 2, 1])))
    assert threading.active_count() == threads
    assert exact(Observation.start(Rules.custom(3, [2, 1]))).fleets == 84  # the arena is free


def test_counts_beyond_64_bits():
    # 16 boats on a 13 × 13 board: more than 2**64 layouts, so prime lanes carry the
    # count. Two different sets of primes must rebuild the same number.
    rules = Rules.custom(13, [1] * 16, touching=False)
    total = layouts(rules)
    assert total > 2**64
    dp = exact_module._Dp(13, 13, np.zeros(169, np.uint8), rules.lengths, False)
    primes = exact_module._PRIMES
    plan = dp.plan(False)
    assert dp.run(plan, np.array([0, primes[3], primes[4]], np.uint64), False)[0] == total
    assert dp.run(plan, np.array([0], np.uint64), False)[0] == total % 2**64


def test_maps_beyond_64_bits():
    # The per-cell counts of 16 boats on 13 × 13 need prime lanes too. Touching boats
    # are any 16 cells; under both rules every layout covers 16 cells, and the corners
    # are alike.
    for touching in (False, True):
        rules = Rules.custom(13, [1] * 16, touching=touching)
        total, cells = exact_module.occupancy(rules, np.zeros(169, np.uint8), rules.lengths)
        assert total > 2**64
        assert sum(cells) == 16 * total
        assert cells[0] == cells[12] == cells[156] == cells[168]
        if touching:
            assert total == math.comb(169, 16) and set(cells) == {math.comb(168, 15)}


def fresh(obs: Observation, count=exact):
    """``count(obs)`` (``exact`` by default) worked out from nothing kept."""
    kept = exact_module._MEMOS.kept
    exact_module._MEMOS.clear()
    try:
        return count(obs)
    finally:
        exact_module._MEMOS.kept = kept


def assert_as_fresh(obs: Observation) -> None:
    """``exact(obs)``, from whatever map is kept, is the map worked out from nothing."""
    report, expected = exact(obs), fresh(obs)
    assert report.total == expected.total
    assert report.counts == expected.counts


def sink(obs: Observation, ship: tuple[int, ...]) -> Observation:
    """``obs`` with ``ship`` marked sunk as the lab marks it, however much of it was hit
    (``after`` sinks only a ship whose other cells are open hits)."""
    marks = obs.marks
    return Observation.from_marks(
        obs.rules,
        miss=np.flatnonzero(marks == MISS).tolist(),
        hit=[c for c in np.flatnonzero(marks == HIT).tolist() if c not in ship],
        sunk=[*(s.cells for s in obs.sunk), ship],
    )


def turned(obs: Observation, turn: np.ndarray) -> Observation:
    """The observation with its marks and sunk ships turned (cell j of the result is
    ``turn[j]``)."""
    where = np.argsort(turn)  # where each cell goes
    sunk = tuple(SunkShip(s.length, [int(where[c]) for c in s.cells]) for s in obs.sunk)
    return Observation(obs.rules, obs.marks[turn], sunk, obs.afloat)


@SETTINGS
@given(
    st.integers(2, 6),
    st.integers(2, 6),
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
    st.lists(st.tuples(st.integers(0, 35), st.sampled_from("mmmh"), st.integers(0, 7)), max_size=8),
)
def test_maps_from_kept_ones_agree_with_fresh_ones(rows, cols, fleet, shots):
    # Under no-touch rules a board that only adds misses and hits to a kept map is worked
    # out from that one, whichever way the board is turned: the answer must be the same.
    assume(sum(fleet) * 2 <= rows * cols)
    rules = Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=False)
    obs = Observation.start(rules)
    exact_module._MEMOS.clear()
    for cell, kind, which in shots:
        cell %= rules.cells
        if obs.marks[cell] != UNKNOWN:
            continue
        parent = obs
        obs = obs.after(cell, "miss" if kind == "m" else "hit")
        turns = symmetries(rows, cols)
        shown = turned(obs, turns[which % len(turns)])
        try:
            expected = fresh(shown)
        except MarksError:
            with pytest.raises(MarksError):
                exact(shown)
            obs = parent
            continue
        kept = exact_module._MEMOS.kept[0] if exact_module._MEMOS.kept else None
        report = exact(shown)
        assert report.total == expected.total
        assert report.counts == expected.counts
        if kind == "m" and kept and kept.total and kept.missed.sum() < exact_module.CHAIN_LIMIT:
            assert exact_module._MEMOS.kept[0].plan is kept.plan  # worked out from the kept one
        if kind == "h" and kept and kept.total:  # from the kept one's first row on
            assert exact_module._MEMOS.kept[0].rows.forward[0] is kept.rows.forward[0]


@SETTINGS
@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
    st.integers(0, 2**32),
    st.permutations(range(36)),
    st.lists(st.integers(0, 7), min_size=36, max_size=36),
)
def test_kept_maps_agree_with_fresh_ones_through_whole_games(rows, cols, fleet, seed, order, turns):
    # Hits and sinkings between the misses, each board shown turned.
    assume(sum(fleet) * 3 <= rows * cols)
    rules = Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=False)
    ocean = Ocean(random_fleet(rules, np.random.default_rng(seed)))
    exact_module._MEMOS.clear()
    symmetric = symmetries(rows, cols)
    for cell, which in zip(order, turns, strict=True):
        if ocean.over or cell >= rules.cells or ocean.observation.marks[cell] != UNKNOWN:
            continue
        ocean.fire(cell)
        shown = turned(ocean.observation, symmetric[which % len(symmetric)])
        assert_as_fresh(shown)


@pytest.mark.parametrize(
    "size, shots",
    [
        # A single ship sunk on the last row.
        (5, [("C3", "miss", ()), ("E5", "sunk", ("E5",))]),
        # A vertical ship whose cells below were missed before.
        (
            6,
            [
                ("A5", "miss", ()),
                ("B5", "miss", ()),
                ("A3", "hit", ()),
                ("A4", "sunk", ("A3", "A4")),
            ],
        ),
        # A hit, a miss, the sinking and a miss, each from the map before.
        (
            7,
            [
                ("C4", "hit", ()),
                ("C3", "miss", ()),
                ("D4", "sunk", ("C4", "D4")),
                ("A7", "miss", ()),
            ],
        ),
    ],
)
def test_maps_after_a_sinking_from_kept_ones_agree_with_fresh_ones(size, shots):
    # One ship fewer afloat: the kept map's profiles are counted by the ships left.
    rules = Rules.custom(size, [2, 1, 1], touching=False)
    obs = Observation.start(rules)
    exact_module._MEMOS.clear()
    exact(obs)
    for name, answer, ship in shots:
        kept = exact_module._MEMOS.kept[0]
        cells = tuple(rules.grid.index(cell) for cell in ship)
        obs = obs.after(rules.grid.index(name), answer, cells)
        assert_as_fresh(obs)
        if answer != "miss":  # worked out from the kept map, whose profiles it shares
            assert exact_module._MEMOS.kept[0].dp.in_fleet is kept.dp.in_fleet


@SETTINGS
@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
    st.integers(0, 2**32),
    st.integers(0, 3),
    st.lists(st.integers(0, 35), max_size=6),
)
def test_a_ship_marked_sunk_over_its_open_hits_is_counted_afresh(
    rows, cols, fleet, seed, which, misses
):
    # In the lab a ship may be marked as open hits, then sunk: the map of the hits left out
    # that very ship (all of it hit, it would have been sunk), so no later map builds on it.
    assume(sum(fleet) * 3 <= rows * cols)
    rules = Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=False)
    ships = random_fleet(rules, np.random.default_rng(seed)).ships
    ship = ships[which % len(ships)]
    taken = {cell for other in ships for cell in other}
    obs = Observation.start(rules)
    for cell in misses:
        if cell < rules.cells and cell not in taken and obs.marks[cell] == UNKNOWN:
            obs = obs.after(cell, "miss")
    hits = obs
    for cell in ship:
        hits = hits.after(cell, "hit")
    exact_module._MEMOS.clear()
    with contextlib.suppress(MarksError):  # no longer ship may hold the hits
        exact(hits)
    sunk = sink(obs, ship)
    assert_as_fresh(sunk)


def occupancy_of(obs: Observation):
    """``occupancy`` of an observation: no checks, so boards no layout fits count 0."""
    sunk = tuple(ship.length for ship in obs.sunk)
    return exact_module.occupancy(obs.rules, obs.marks, obs.afloat, sunk)


@SETTINGS
@given(
    st.integers(3, 6),
    st.integers(3, 6),
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
    st.integers(0, 2**32),
    st.lists(st.tuples(st.sampled_from("mhs"), st.integers(0, 99), st.integers(0, 7)), max_size=12),
)
def test_maps_agree_with_fresh_ones_whatever_order_marks_come_in(rows, cols, fleet, seed, steps):
    # As a player marks a board in the lab: misses, hits on any cell of a ship (its last
    # too, a board no layout may fit) and ships sunk, each board shown turned.
    assume(sum(fleet) * 3 <= rows * cols)
    rules = Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=False)
    ships = list(random_fleet(rules, np.random.default_rng(seed)).ships)
    taken = {cell for ship in ships for cell in ship}
    obs = Observation.start(rules)
    exact_module._MEMOS.clear()
    for kind, at, which in steps:
        if kind == "m":
            empty = [int(c) for c in obs.unshot if c not in taken]
            if not empty:
                continue
            obs = obs.after(empty[at % len(empty)], "miss")
        elif not ships:
            continue
        elif kind == "h":
            ship = ships[at % len(ships)]
            left = [c for c in ship if obs.marks[c] == UNKNOWN]
            obs = obs.after(left[which % len(left)], "hit") if left else obs
        else:
            ship = ships.pop(at % len(ships))
            obs = sink(obs, ship)
        shown = turned(obs, symmetries(rows, cols)[which % len(symmetries(rows, cols))])
        total, cells = occupancy_of(shown)
        expected_total, expected_cells = fresh(shown, occupancy_of)
        assert total == expected_total
        assert list(cells) == list(expected_cells)


def test_a_board_no_layout_fits_is_not_built_on():
    # A6 and C6 cannot both be open with a 2 and a 1 afloat, nor A6 once C5-C6 is sunk:
    # the second board must be counted (none) without the first one's empty vectors.
    rules = Rules.custom((6, 3), [2, 2, 1, 1], touching=False)
    boards = [
        Observation.from_marks(rules, hit=["A6", "C6"], sunk=[["C1"], ["B3", "C3"]]),
        Observation.from_marks(rules, hit=["A6"], sunk=[["C1"], ["B3", "C3"], ["C5", "C6"]]),
    ]
    exact_module._MEMOS.clear()
    for board in boards:
        total, cells = occupancy_of(board)
        assert total == 0
        assert not any(cells)


@pytest.mark.parametrize(
    "hits, misses",
    [(["A1", "A2"], ["E5"]), (["D4"], ["E5", "C3"]), (["B2", "B3", "B4"], [])],
)
def test_russian_ships_marked_sunk_over_their_open_hits_are_counted_afresh(hits, misses):
    exact_module._MEMOS.clear()
    exact(Observation.from_marks(RUSSIAN, miss=misses, hit=hits))
    sunk = Observation.from_marks(RUSSIAN, miss=misses, sunk=[hits])
    assert_as_fresh(sunk)


def test_a_ship_sunk_is_counted_in_the_row_below_it():
    # B2 is sunk with the cell below it missed before, so the sinking changes nothing
    # below row 2; yet the kept map counted the ship only at C2, in row 3. At the start of
    # row 3 no kept layout had counted a ship yet: the single on E2 must not be lost there.
    rules = Rules.custom(5, [1, 1], touching=False)
    unknown = {"B2", "C2", "E2", "D4"}
    names = [rules.grid.name(c) for c in range(rules.cells)]
    obs = Observation.from_marks(rules, miss=[c for c in names if c not in unknown])
    exact_module._MEMOS.clear()
    exact(obs)
    kept = exact_module._MEMOS.kept[0]
    obs = obs.after(rules.grid.index("B2"), "sunk", (rules.grid.index("B2"),))
    report = exact(obs)
    assert exact_module._MEMOS.kept[0].dp.in_fleet is kept.dp.in_fleet  # from the kept map
    assert report.total == 2 and report.at("E2") == report.at("D4") == 1


def test_a_kept_map_whose_open_hit_is_now_a_miss_is_not_worked_from():
    # One ship fewer afloat, but the kept map's open hit on B2 is a plain miss here (a map
    # kept from another game): that is no sinking, so the board is worked out afresh.
    rules = Rules.custom(7, [2, 1, 1], touching=False)
    exact_module._MEMOS.clear()
    exact(Observation.from_marks(rules, hit=["B2"]))
    kept = exact_module._MEMOS.kept[0]
    e2 = rules.grid.index("E2")
    obs = Observation.from_marks(rules, miss=["B2"]).after(e2, "sunk", (e2,))
    report, expected = exact(obs), fresh(obs)
    assert exact_module._MEMOS.kept[0].dp.in_fleet is not kept.dp.in_fleet
    assert report.total == expected.total and report.counts == expected.counts


def test_russian_maps_from_kept_ones_agree_with_fresh_ones():
    # The same on the Russian board, where the backward pass runs on a second thread.
    obs = Observation.from_marks(RUSSIAN, miss=["C1", "J8", "A8"])
    exact_module._MEMOS.clear()
    exact(obs)
    turns = symmetries(10, 10)
    for k, name in enumerate(["H1", "E5", "B9"]):
        obs = obs.after(RUSSIAN.grid.index(name), "miss")
        shown = turned(obs, turns[(2, 5, 7)[k]])
        assert_as_fresh(shown)


@SETTINGS
@given(
    st.integers(2, 9),
    st.integers(2, 5),
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.booleans(),
    st.lists(st.integers(0, 44), max_size=3),
)
def test_repeated_rows_of_a_plan_are_what_expand_makes(rows, cols, fleet, touching, misses):
    # A step whose row above read the same profiles and mark reuses that row's step.
    assume(sum(fleet) <= rows * cols and max(fleet) <= max(rows, cols))
    rules = Rules.custom((rows, cols), sorted(fleet, reverse=True), touching=touching)
    marks = np.zeros(rules.cells, np.uint8)
    marks[[m % rules.cells for m in misses]] = _profile.MISS
    dp, _ = exact_module._dp(rules, marks, fleet)
    plan = dp._profiles(True)
    keys, tallies = np.zeros(1, np.int64), np.zeros(1, np.int64)
    for i, step in enumerate(plan.steps):
        mark = dp.marks[i] if i < len(dp.marks) else _profile.MISS
        keys, tallies, *made = _profile.expand(
            keys,
            tallies,
            i % dp.cols,
            dp.cols,
            dp.bits,
            dp.lmax,
            mark,
            dp.in_fleet,
            dp.at_least,
            touching,
            dp.rows - i // dp.cols,
        )
        for part, expected in zip(step, made, strict=True):
            assert np.array_equal(part, expected)


def test_an_unmarked_board_reuses_its_middle_rows():
    for touching in (False, True):
        rules = Rules.custom((9, 4), [3, 2], touching=touching)
        dp, _ = exact_module._dp(rules, np.zeros(rules.cells, np.uint8), (3, 2))
        steps = dp._profiles(True).steps
        assert len({id(step.first) for step in steps}) < len(steps) - 8


def test_russian_empty_board_is_seed_003():
    report = exact(Observation.start(RUSSIAN))
    assert report.total == SEED_TOTAL == layouts(RUSSIAN)
    board = np.array(report.counts, dtype=object).reshape(10, 10)
    assert (board // 10**9)[:5].tolist() == SEED_MAP
    for turned in (board[::-1], board[:, ::-1], board.T):
        assert (turned == board).all()
    assert report.best_names == ["C1", "H1", "A3", "J3", "A8", "J8", "C10", "H10"]
    least = min(report.counts)
    assert [c for c in range(100) if report.counts[c] == least] == [11, 18, 81, 88]  # B2 …
    assert report.probability("C1") == Fraction(report.at("C1"), SEED_TOTAL)


def test_classic_empty_board_counts_every_fleet():
    # The figure count_fleets finds by enumeration, and a map symmetric under the turns.
    report = exact(Observation.start(CLASSIC))
    assert report.fleets == 30_093_975_536 == count_fleets(CLASSIC).fleets
    assert report.total == 30_093_975_536 // 2
    board = np.array(report.counts, dtype=object).reshape(10, 10)
    for turned in (board[::-1], board[:, ::-1], board.T):
        assert (turned == board).all()
    assert sum(report.counts) == 17 * report.total
    assert report.best_names == ["E5", "F5", "E6", "F6"]
    assert report.as_dict()["fleets"] == report.fleets


def test_russian_all_miss_sequence_starts_as_in_the_seed():
    obs = Observation.start(RUSSIAN).after(RUSSIAN.grid.index("C1"), "miss")
    report = exact(obs)
    assert report.best_names == ["J8"]
    assert report.at("A1") // 10**9 == 292453 and report.at("J10") // 10**9 == 334105
    obs = obs.after(RUSSIAN.grid.index("J8"), "miss")
    assert exact(obs).best_names == ["A8", "C10"]


def test_open_hits_never_make_a_whole_ship():
    # A 2-cell ship on the two hits would have been reported sunk, so the hits belong to
    # a longer ship: only A3 can finish it.
    rules = Rules.custom(3, [3, 2], touching=False)
    obs = Observation.from_marks(rules, hit=["A1", "A2"], afloat=[3])
    report = exact(obs)
    assert report.total == 1 and report.best_names == ["A3"]
    with pytest.raises(MarksError, match="no layout"):
        exact(Observation.from_marks(rules, hit=["A1", "A2"], miss=["A3"], afloat=[3, 2]))


def test_sunk_ships_and_their_water():
    obs = Observation.from_marks(RUSSIAN, sunk=[["A1", "A2", "A3", "A4"]], miss=["J10"])
    report = exact(obs)
    assert report.at("A1") == report.total and report.at("B2") == report.at("A5") == 0
    as_json = report.as_dict()  # counts of the unshot cells, as the density map gives d
    assert as_json["total"] == report.total and as_json["best"] == report.best_names
    water_and_shot = {"A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "J10"}
    assert set(as_json["counts"]) == {obs.grid.name(int(c)) for c in obs.unshot}
    assert len(as_json["counts"]) == 100 - len(water_and_shot)
    assert set(as_json["counts"]) == set(density(obs).as_dict()["density"])
    assert all(as_json["counts"][name] == report.at(name) for name in as_json["counts"])
    assert as_json["probability"].keys() == as_json["counts"].keys()
    assert all(
        abs(as_json["probability"][name] - float(report.probability(name))) < 5e-7
        for name in as_json["counts"]
    )


def test_with_nothing_afloat_no_cell_is_best():
    rules = Rules.custom(4, [2])
    obs = Observation.from_marks(rules, sunk=[["A1", "A2"]], miss=["C3"])
    report = exact(obs)
    assert report.total == 1 and report.best == () and report.as_dict()["best_count"] == 0
    assert set(report.counts) == {0, 1}


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: exact(
                Observation.from_marks(RUSSIAN, hit=["A1"], miss=["A2", "B1"], afloat=[2])
            ),
            MarksError,
            "hit at A1",
        ),
        (
            lambda: exact(Observation.from_marks(RUSSIAN, hit=["A1", "C1"], afloat=[1])),
            MarksError,
            "2 open hits",
        ),
        (
            lambda: layouts(Rules.custom(26, [4, 1], touching=False)),
            CountTooLargeError,
            "too wide",
        ),
        (
            lambda: layouts(Rules.custom(15, [4, 3, 3, 2, 2, 2, 1, 1, 1, 1], touching=False)),
            CountTooLargeError,
            "too many partial layouts",
        ),
        (lambda: layouts(Rules.custom(13, [5, 4, 3, 3, 2])), CountTooLargeError, "too wide"),
        (  # (the message said 300, where the counts kept reach 311)
            lambda: exact(Observation.start(Rules.custom(26, [1] * 70))),
            CountTooLargeError,
            "could need more than 311 bits, the most an exact count keeps",
        ),
        (
            lambda: layouts(Rules.custom(12, [5, 4, 3, 3, 2, 2])),
            CountTooLargeError,
            "too many partial layouts",
        ),
        (
            lambda: exact(Observation.from_marks(CLASSIC, hit=["A1"], miss=["A2", "B1"])),
            MarksError,
            "hit at A1",
        ),
    ],
)
def test_bad_input_gets_a_clear_error(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_count_fleets_refused_by_the_dp_and_too_long_to_enumerate_keeps_the_dps_words():
    rules = Rules.custom(26, [1] * 70)
    with pytest.raises(CountTooLargeError) as dp:
        layouts(rules)
    with pytest.raises(CountTooLargeError) as counted:
        count_fleets(rules)
    assert str(counted.value).startswith(f"{dp.value}; enumerating the fleets instead")
    assert (counted.value.code, counted.value.params["bits"]) == ("battleship.count_bits", 311)


def test_a_board_that_would_not_fit_in_memory_is_refused(monkeypatch):
    monkeypatch.setattr(exact_module, "MEMORY_LIMIT", 10_000)
    with pytest.raises(CountTooLargeError, match="GiB of memory"):
        exact(Observation.start(Rules.custom(6, [3, 2, 1], touching=False)))


def test_a_board_far_too_big_is_refused_before_its_bands_are_worked_out(monkeypatch):
    monkeypatch.setattr(exact_module, "ESTIMATE_LIMIT", 100_000)
    monkeypatch.setattr(exact_module._Dp, "_bands", lambda *_: pytest.fail("bands worked out"))
    with pytest.raises(CountTooLargeError, match="too much memory"):
        exact(Observation.start(Rules.custom(8, [3, 2, 2, 1], touching=False)))


def test_the_memory_estimate_bounds_the_bands_from_above():
    for rules in (Rules.custom(7, [3, 2, 2, 1], touching=False), Rules.custom(6, [3, 2, 2])):
        dp, _ = exact_module._dp(rules, np.zeros(rules.cells, np.uint8), rules.lengths)
        plan = dp.plan(True)
        for wide, band in zip(wide_bands(dp, plan), plan.bands, strict=True):
            assert wide.size >= band.size
        assert max(band.size for band in plan.bands) > 1


@pytest.mark.parametrize("touching", [False, True])
def test_exact_shooter_plays_whole_games_and_replays_them(touching):
    rules = Rules.custom(7, [3, 2, 2, 1, 1], touching=touching)
    for game in (1, 2):
        record = play_game(rules, "exact", game)
        cells = [shot.cell for shot in record.shots]
        assert len(set(cells)) == len(cells)
        assert sum(shot.answer == "sunk" for shot in record.shots) == 5
        assert record == play_game(rules, "exact", game)


def test_exact_shooter_fires_at_a_best_cell():
    obs = Observation.from_marks(RUSSIAN, hit=["E5"], miss=["C1", "J8", "A8"])
    best = set(exact(obs).best)
    shooter = get_shooter("exact")
    assert {shooter.choose(obs, np.random.default_rng(s)) for s in range(10)} <= best


def test_a_board_refused_read_one_way_is_counted_in_another():
    # Classic game 157 after six shots, mirrored: the DP reading it left to right is refused.
    rules = Rules.classic()
    obs = Observation.from_marks(rules, hit=["E6", "F6", "G6", "H6", "I6"], miss=["D6"])
    afloat = tuple(sorted(obs.afloat))
    bound = exact_module._placement_bound(rules, afloat)
    with pytest.raises(CountTooLargeError, match="too many partial layouts"):
        exact_module._solve(rules, obs.marks, afloat, lambda: bound, True)
    mirror = symmetries(rules.rows, rules.cols)[2]
    mirrored_total, mirrored = exact_module._solve(
        rules, obs.marks[mirror], afloat, lambda: bound, True
    )
    total, counts = exact_module.occupancy(rules, obs.marks, afloat, ())
    assert total == mirrored_total == 9_918_781
    assert counts[mirror].tolist() == mirrored.tolist()
    unknown = np.flatnonzero(obs.marks == 0)
    top = max(counts[c] for c in unknown)
    assert best_cells(obs) == tuple(int(c) for c in unknown if counts[c] == top)
    assert exact(obs).counts == tuple(  # the lab, CLI and API count it too
        total if obs.marks[c] == HIT else int(counts[c]) for c in range(rules.cells)
    )
    # Drawn in the mirror's reading too: every fleet covers the hits, and each cell is held
    # about as often as its count says (a fleet left in the mirror's cells would miss them).
    fleets = exact_module.sample(obs, 2000, np.random.default_rng(157))
    held = np.zeros(rules.cells)
    for fleet in fleets:
        cells = [c for ship in fleet for c in ship]
        assert set(np.flatnonzero(obs.marks == HIT)) <= set(cells)
        held[cells] += 1
    share = np.array([int(n) for n in counts]) / total
    assert np.abs(held / len(fleets) - share)[obs.marks == UNKNOWN].max() < 0.06
