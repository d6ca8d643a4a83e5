"""The tour's numba kernels (and Mulberry32) against the plain-Python twins in
``reference.py`` and against the seed's own JavaScript run by Node.js (``seed.js``)."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tour import reference as ref

from hamle.rng import Mulberry32, fnv1a32
from hamle.tour import JUMPS, Position, daily_puzzle
from hamle.tour import _kernels as k
from hamle.tour.board import TARGETS

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
needs_node = ref.needs_node
U32 = 0xFFFFFFFF
BIG = np.iinfo(np.int64).max

# Seeds as JavaScript numbers (negative ones are what `| 0` leaves of large ones).
JS_SEEDS = [0, 1, 20261201, 2**31 - 1, 2**31, 2**32 - 1, -1, -(2**31), -123456789, 987654321]


# --- the move table ---------------------------------------------------------------------


def test_jumps_are_the_spec_moves():
    assert set(JUMPS) == {(3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (2, -2), (-2, 2), (-2, -2)}
    assert JUMPS == ref.MOVES  # the order the twins (and seed.js) use


def test_targets_table_matches_twin():
    assert TARGETS.shape == (100, 8)
    for cell in range(100):
        row = [int(t) for t in TARGETS[cell] if t >= 0]
        assert tuple(row) == ref.TARGETS[cell]
        # -1 marks exactly the jumps that leave the board, in jump order.
        r, c = divmod(cell, 10)
        for j, (dr, dc) in enumerate(JUMPS):
            inside = 0 <= r + dr < 10 and 0 <= c + dc < 10
            assert (TARGETS[cell, j] >= 0) == inside
    assert (
        sum(len(t) for t in ref.TARGETS)
        == int((TARGETS >= 0).sum())
        == 2 * (2 * 10 * 7 + 2 * 8 * 8)
    )


# --- Mulberry32 and FNV-1a ----------------------------------------------------------------


def kernel_words(visited) -> tuple[np.uint64, np.uint64]:
    lo, hi = ref.words(visited)
    return np.uint64(lo), np.uint64(hi)


def kernel_stream(seed: int, n: int) -> list[int]:
    state = np.array([seed & U32], np.uint64)
    out = []
    for _ in range(n):
        x = k._random(state) * 4294967296.0
        assert x == int(x)
        out.append(int(x))
    return out


@pytest.mark.parametrize("seed", JS_SEEDS)
def test_mulberry32_three_ways_agree(seed):
    ours, twin = Mulberry32(seed), ref.Mulberry32(seed)
    expected = [twin.next_uint32() for _ in range(300)]
    assert [ours.next_uint32() for _ in range(300)] == expected
    assert kernel_stream(seed, 300) == expected
    again = Mulberry32(seed)
    assert [again.random() * 2**32 for _ in range(5)] == expected[:5]


def test_mulberry32_known_vectors():
    # Produced by the seed's JavaScript (node tests/tour/seed.js), kept for machines
    # without node.
    rng = ref.Mulberry32(20261201)
    assert [rng.next_uint32() for _ in range(3)] == [
        1214187109,
        1007508439,
        461233435,
    ]
    assert int(Mulberry32(20261201).random() * 100) == 28


def test_random_int_is_floor_of_product():
    a, b = Mulberry32(7), ref.Mulberry32(7)
    for n in range(1, 60):
        assert a.random_int(0, n) == ref.random_int(b, 0, n)
    assert Mulberry32(5).random_int(10, 20) == 10 + ref.random_int(ref.Mulberry32(5), 0, 10)


@needs_node
def test_mulberry32_matches_node_bit_for_bit():
    requests = [{"op": "stream", "seed": s, "n": 1000} for s in JS_SEEDS]
    for seed, js in zip(JS_SEEDS, ref.node_answers(requests), strict=True):
        assert all(isinstance(x, int) and 0 <= x <= U32 for x in js)
        ours = Mulberry32(seed)
        assert [ours.next_uint32() for _ in range(1000)] == js, seed
        assert kernel_stream(seed, 1000) == js, seed


@needs_node
def test_daily_start_matches_node():
    days = [dt.date(2024, 1, 1) + dt.timedelta(days=d) for d in range(0, 1200, 3)]
    days += [dt.date(2028, 2, 29), dt.date(2026, 12, 31), dt.date(2027, 1, 1), dt.date(2026, 12, 1)]
    (starts,) = ref.node_answers(
        [{"op": "daily", "dates": [[d.year, d.month, d.day] for d in days]}]
    )
    assert [daily_puzzle(d).start for d in days] == starts
    assert len(set(starts)) > 50  # a real spread of cells, not a constant


def test_fnv1a32_matches_twin_and_published_vectors():
    for data in [b"", b"a", b"foobar", bytes(range(256)), bytes(14)]:
        assert fnv1a32(data) == ref.fnv1a32(data)
    # Published FNV-1a 32-bit test vectors.
    assert fnv1a32(b"") == 0x811C9DC5
    assert fnv1a32(b"foobar") == 0xBF9CF968


@given(st.integers(0, 2**32 - 1), st.integers(1, 100))
@SETTINGS
def test_position_seed_matches_twin(seed, stop):
    path = ref.random_game(random.Random(seed), stop=stop)
    position = Position(tuple(path))
    assert position.seed() == ref.position_seed(set(path), path[-1])


# --- Warnsdorff games from Node.js (the whole Monte Carlo, bit for bit) ---------------------


def kernel_rollouts(position: Position, n: int, state=None):
    if state is None:
        state = np.array([position.seed()], np.uint64)
    proof = np.empty(100, np.int64)
    total, proved = k.rollouts(
        *position.words(), position.current, position.count, TARGETS, state, n, proof
    )
    return int(total), [int(c) for c in proof[:proved]], state


@needs_node
def test_rollouts_match_node():
    rand = random.Random(2024)
    paths = [[0], [44], [99], [0, 3, 33], [28, 48]]
    paths += [ref.random_game(rand, stop=s) for s in (5, 12, 25, 40, 60, 80)]
    counts = [1, 7, 30, 120]
    requests = [{"op": "rollouts", "path": p, "n": n} for p in paths for n in counts]
    answers = iter(ref.node_answers(requests))
    for path in paths:
        position = Position._unchecked(tuple(path))  # any visited set, legal or not
        for n in counts:
            js = next(answers)
            assert js["seed"] == position.seed()
            total, _, _ = kernel_rollouts(position, n)
            assert total == js["total"], (path, n)
            assert n * position.count <= total <= 100 * n
        # The hint engine's split (30, then 90 from the same stream) is one 120-game run.
        total30, _, state = kernel_rollouts(position, 30)
        total90, _, _ = kernel_rollouts(position, 90, state)
        assert total30 + total90 == kernel_rollouts(position, 120)[0]


# --- finish and rollouts against the twin -------------------------------------------------


@st.composite
def positions(draw):
    """(visited, current, count): from a random legal game or an arbitrary visited set."""
    rand = random.Random(draw(st.integers(0, 2**32 - 1)))
    if draw(st.booleans()):
        path = ref.random_game(rand, stop=draw(st.integers(1, 99)))
        return set(path), path[-1], len(path)
    visited = set(rand.sample(range(100), draw(st.integers(1, 99))))
    current = rand.choice(sorted(visited))
    return visited, current, len(visited)


@given(positions(), st.integers(0, 2**32 - 1))
@SETTINGS
def test_finish_matches_twin(position, seed):
    visited, current, count = position
    lo, hi = kernel_words(visited)
    state = np.array([seed], np.uint64)
    path = np.full(100, -7, np.int64)
    final = k.finish(lo, hi, current, count, TARGETS, state, path)
    twin = ref.Mulberry32(seed)
    expected, moves = ref.finish(visited, current, count, twin)
    assert final == expected
    assert [int(c) for c in path[: final - count]] == moves
    assert int(state[0]) == twin.seed  # the same number of draws
    assert ref.is_continuation(visited, current, moves)
    end = moves[-1] if moves else current
    assert not ref.legal(visited | set(moves), end)  # played to the very end


@given(positions(), st.integers(0, 2**32 - 1), st.integers(1, 40))
@SETTINGS
def test_rollouts_match_twin(position, seed, n):
    visited, current, count = position
    lo, hi = kernel_words(visited)
    state = np.array([seed], np.uint64)
    proof = np.empty(100, np.int64)
    total, proved = k.rollouts(lo, hi, current, count, TARGETS, state, n, proof)
    twin = ref.Mulberry32(seed)
    expected, expected_proof = ref.rollouts(visited, current, count, twin, n)
    assert total == expected
    assert [int(c) for c in proof[:proved]] == expected_proof
    assert int(state[0]) == twin.seed


def test_rollout_proofs_are_full_tours():
    found = 0
    for start in range(0, 100, 7):
        position = Position.start(start)
        total, proof, _ = kernel_rollouts(position, 40)
        twin_total, twin_proof = ref.rollouts(
            {start}, start, 1, ref.Mulberry32(position.seed()), 40
        )
        assert (total, proof) == (twin_total, twin_proof)
        if proof:
            found += 1
            assert ref.is_tour([start, *proof]) and len(proof) == 99
    assert found >= 5  # Warnsdorff fills the board often from an empty one


# --- exhaustive search --------------------------------------------------------------------


def endgames(seed: int, n: int) -> list[tuple[set[int], int, int]]:
    """Endgames with at most 14 empty cells: patches of empty cells and real game ends."""
    rand = random.Random(seed)
    out = []
    for i in range(n):
        if i % 2:
            visited, current = ref.random_endgame(rand, rand.randint(1, 14))
            out.append((visited, current, len(visited)))
        else:
            path = ref.endgame_path(rand, 86)
            out.append((set(path), path[-1], len(path)))
    return out


def kernel_search(visited, current, count, budget, floor=0, ceiling=100, rows=0):
    lo, hi = kernel_words(visited)
    path = np.full(100, -7, np.int64)
    seen = np.zeros((rows + 1 if rows else 0, 3), np.uint64)
    best, finished, length = k.search(
        lo, hi, current, count, TARGETS, budget, path, floor, ceiling, seen
    )
    return int(best), bool(finished), [int(c) for c in path[:length]]


@pytest.mark.parametrize("seed", range(4))
def test_search_equals_brute_force(seed):
    for visited, current, count in endgames(seed, 80):
        best, finished, moves = kernel_search(visited, current, count, BIG)
        assert finished
        assert best == ref.best_final(set(visited), current, count), (sorted(visited), current)
        assert len(moves) == best - count
        assert ref.is_continuation(visited, current, moves)
        end = moves[-1] if moves else current
        assert not ref.legal(visited | set(moves), end)  # a finished game, not a prefix


def test_search_equals_brute_force_on_larger_patches():
    rand = random.Random(77)
    for _ in range(60):
        visited, current = ref.random_endgame(rand, rand.randint(15, 24))
        count = len(visited)
        best, finished, moves = kernel_search(visited, current, count, BIG)
        assert finished
        assert best == ref.best_final(set(visited), current, count), (sorted(visited), current)
        assert len(moves) == best - count and ref.is_continuation(visited, current, moves)


def test_search_with_small_budget_is_honest():
    outcomes = set()
    for budget in (1, 3, 10, 40):
        for visited, current, count in endgames(100 + budget, 25):
            best, finished, moves = kernel_search(visited, current, count, budget)
            truth = ref.best_final(set(visited), current, count)
            outcomes.add(finished)
            if finished:
                assert best == truth
            else:
                assert count <= best <= truth
            assert len(moves) == best - count
            assert ref.is_continuation(visited, current, moves)
    assert outcomes == {True, False}  # both cases happened


def test_search_stops_at_a_full_board():
    position = Position.start("A1")
    best, finished, moves = kernel_search({0}, 0, 1, 10**6)
    assert (best, finished, len(moves)) == (100, True, 99)
    assert ref.is_tour([0, *moves])
    assert position.count == 1


def test_search_with_no_move_left():
    # A1 with A4, D1 and C3 filled: the game is over; the best is the count itself.
    visited = {0, 30, 3, 22}
    assert kernel_search(visited, 0, 4, BIG) == (4, True, [])
    assert ref.best_final(set(visited), 0, 4) == 4


@pytest.mark.parametrize("rows", [0, 16, 4096])
def test_search_with_a_floor_decides_a_full_board(rows):
    # floor 99: only a full board beats it; the answer is whether one exists, with the
    # remembered positions (a tiny table, a roomy one) or without.
    outcomes = set()
    for visited, current, count in endgames(40 + rows, 60):
        best, finished, moves = kernel_search(visited, current, count, BIG, floor=99, rows=rows)
        truth = ref.best_final(set(visited), current, count)
        assert finished
        assert (best == 100) == (truth == 100)
        if best == 100:
            assert ref.is_continuation(visited, current, moves) and len(moves) == 100 - count
        else:
            assert best == 99 and moves == []
        outcomes.add(truth == 100)
    assert outcomes == {True, False}


@pytest.mark.parametrize("rows", [16, 1024])
def test_remembered_positions_do_not_change_the_answer(rows):
    rand = random.Random(rows)
    larger = [ref.random_endgame(rand, rand.randint(12, 22)) for _ in range(20)]
    cases = [*endgames(7 + rows, 60), *((v, c, len(v)) for v, c in larger)]
    for visited, current, count in cases:
        plain = kernel_search(visited, current, count, BIG)
        best, finished, moves = kernel_search(visited, current, count, BIG, rows=rows)
        assert finished and best == plain[0] == ref.best_final(set(visited), current, count)
        assert ref.is_continuation(visited, current, moves) and len(moves) == best - count


def test_search_stops_at_its_ceiling():
    # A ceiling under the best count stops the search at the first count reaching it.
    for visited, current, count in endgames(3, 80):
        truth = ref.best_final(set(visited), current, count)
        if truth - count < 3:
            continue
        best, finished, moves = kernel_search(visited, current, count, BIG, ceiling=truth - 1)
        assert finished and best in (truth - 1, truth)
        assert ref.is_continuation(visited, current, moves) and len(moves) == best - count
