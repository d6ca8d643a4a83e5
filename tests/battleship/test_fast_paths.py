"""The compiled fast paths against numpy and the Python paths: the PCG64 port, the bitboard
density decision, hunt-and-target candidates on arrays, and whole games in one kernel call
(``play_games``) against ``play_game``, shot for shot."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest
from battleship import reference as ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hamle.battleship import Observation, Rules, _kernels, play_game, play_games, simulate
from hamle.battleship.density import INT64_LIMIT, best_cells, density, kernel_plan
from hamle.battleship.fits import fits
from hamle.battleship.strategies import get_shooter
from hamle.battleship.strategies.common import pcg_words, pick
from hamle.battleship.strategies.hunt_target import candidates
from hamle.rng import SHOOTER_STREAM, game_stream

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
KERNEL_SHOOTERS = ["random", "hunt-target", "parity", "density"]
# Long ships on 10×10: d can exceed int64 here, so best_cells must take the Python-int path.
BIG_WEIGHTS = [Rules.custom(10, [10, 10, 10, 2]), Rules.custom(10, [9] * 5, touching=False)]
RULESETS = [
    *ref.RULESETS,
    Rules.custom((9, 11), [5, 4, 3, 3, 2, 1], touching=False),
]  # 99 cells: two words
RULE_IDS = [rules.describe() for rules in RULESETS]
simulate_module = import_module("hamle.battleship.simulate")  # the package's name is a function


@st.composite
def small_rules(draw):
    rows = draw(st.integers(2, 7))
    cols = draw(st.integers(2, 7))
    fleet = draw(st.lists(st.integers(1, max(rows, cols)), min_size=1, max_size=4))
    assume(3 * sum(fleet) <= rows * cols)
    rules = Rules.custom((rows, cols), fleet, draw(st.booleans()))
    assume(fits(Observation.start(rules)))  # (four lone cells do not fit 2×6 untouching)
    return rules


def random_board(rules: Rules, seed: int, fraction: float, focus: float) -> Observation:
    return ref.partial_game(rules, seed, int(fraction * rules.cells), focus)


# --- PCG64 ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "stream"), [(0, 0), (1, 1), (2, 1), (743, 0), (10**9, 1)])
def test_pcg64_matches_numpy_game_streams(game, stream):
    rng = game_stream(game, stream)
    words = pcg_words(rng)
    want = rng.bit_generator.random_raw(3000).tolist()
    assert [int(_kernels.pcg64_next(words)) for _ in range(3000)] == want
    assert words.tolist() == pcg_words(rng).tolist()


@SETTINGS
@given(state=st.integers(0, 2**128 - 1), increment=st.integers(0, 2**128 - 1))
def test_pcg64_matches_numpy_and_twin_from_any_state(state, increment):
    rng = np.random.default_rng(0)
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": increment},
        "has_uint32": 0,
        "uinteger": 0,
    }
    words = pcg_words(rng)
    increment = rng.bit_generator.state["state"]["inc"]  # numpy may adjust it
    twin = [rng.bit_generator.state["state"]["state"]]
    for _ in range(40):
        got = int(_kernels.pcg64_next(words))
        assert got == int(rng.bit_generator.random_raw())
        assert got == ref.pcg64(twin, increment)
    assert words.tolist() == pcg_words(rng).tolist()


@pytest.mark.parametrize("n", [1, 2, 3, 7, 100, 2**32 + 1, 3 * 2**61, 2**63 - 1])
def test_pick_index_draws_as_pick_does(n):
    # n = 3·2^61 rejects a quarter of the words, so the redraw is exercised; the states
    # agreeing afterwards shows both consumed the same words.
    for seed in range(10):
        rng = np.random.default_rng([seed, SHOOTER_STREAM])
        words = pcg_words(rng)
        for _ in range(30):
            assert _kernels.pick_index(words, n) == pick(range(n), rng)
        assert words.tolist() == pcg_words(rng).tolist()


def test_pick_index_redraws_the_biased_tail():
    rng = np.random.default_rng(3)
    words = pcg_words(rng)
    for _ in range(200):
        _kernels.pick_index(words, 3 * 2**61)
    draws = 0
    while pcg_words(rng).tolist() != words.tolist():
        rng.bit_generator.random_raw()
        draws += 1
    assert 230 < draws < 340  # about 200 · 4/3 words for 200 picks


# --- the density decision on bitboards ---------------------------------------------------


def kernel_d(obs: Observation) -> list[int]:
    plan = kernel_plan(obs.rules, obs.afloat)
    d = np.empty(obs.rules.cells, np.int64)
    scratch = [np.empty(plan.masks.shape[1], np.uint64) for _ in range(2)]
    _kernels.density_into(obs.marks, plan.cells, plan.masks, plan.groups, d, *scratch)
    return d.tolist()


def twin_d(obs: Observation) -> list[int]:
    """d of every cell (shot or not) from the twin's counts."""
    w = ref.weight(obs.afloat)
    counts = ref.hit_counts(obs)
    return [sum(row[cell] * w**k for k, row in enumerate(counts)) for cell in range(len(obs.marks))]


def assert_decision_matches(obs: Observation) -> None:
    got = tuple(int(c) for c in best_cells(obs))
    assert got == ref.density(obs)[2]
    assert got == density(obs, check=False).best
    if obs.afloat and kernel_plan(obs.rules, obs.afloat).fits:
        assert kernel_d(obs) == twin_d(obs)
        # the bound behind ``fits`` implies combine()'s own int64 test on this board
        assert density(obs, check=False).d.dtype == np.int64


@pytest.mark.parametrize("rules", RULESETS + BIG_WEIGHTS, ids=[*RULE_IDS, "big1", "big2"])
def test_density_decision_on_the_empty_board(rules):
    assert_decision_matches(Observation.start(rules))


@SETTINGS
@given(
    rules=st.sampled_from(RULESETS + BIG_WEIGHTS),
    seed=st.integers(0, 2**32),
    fraction=st.floats(0, 1),
    focus=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_density_decision_on_partial_games(rules, seed, fraction, focus):
    assert_decision_matches(random_board(rules, seed, fraction, focus))


@SETTINGS
@given(rules=small_rules(), seed=st.integers(0, 2**32), fraction=st.floats(0, 1))
def test_density_decision_on_small_random_rules(rules, seed, fraction):
    assert_decision_matches(random_board(rules, seed, fraction, 0.8))


def test_density_decision_overflow_fallback_both_ways():
    """On 10×10 with three 10-cell ships, w^10 · (placements over a cell) passes 2^63: the
    kernel is not used; combine() finds some of these boards small enough for int64 and
    others not, and the decision is right either way."""
    rules = BIG_WEIGHTS[0]
    assert not kernel_plan(rules, rules.lengths).fits
    dtypes = set()
    for seed in range(40):
        obs = random_board(rules, seed, (seed % 8) / 10, 0.9)
        if obs.afloat == rules.lengths:
            dtypes.add(density(obs, check=False).d.dtype)
        assert_decision_matches(obs)
    assert dtypes == {np.dtype(np.int64), np.dtype(object)}


def test_density_decision_beyond_64_bits():
    rules = Rules.custom(20, [10] * 10)
    hits = [f"{col}1" for col in "ABCDEFGHI"]
    obs = Observation.from_marks(rules, hit=hits, miss=["K2", "S4"])
    assert not kernel_plan(rules, obs.afloat).fits
    assert tuple(best_cells(obs)) == ref.density(obs)[2] == (obs.grid.index("J1"),)


def test_kernel_plan_bound_is_tight_on_the_empty_board():
    # Classic: 34 placements cover E5, and 34 · 35^5 fits easily; the plan lists the
    # lengths longest first, the two 3-cell ships as one group of two.
    plan = kernel_plan(Rules.classic(), (5, 4, 3, 3, 2))
    assert plan.fits and max(kernel_d(Observation.start(Rules.classic()))) == 34
    groups = plan.groups.tolist()
    assert groups[0] == 35
    assert [groups[i : i + 4] for i in range(1, len(groups), 4)] == [
        [0, 120, 1, 5],
        [120, 260, 1, 4],
        [260, 420, 2, 3],
        [420, 600, 1, 2],
    ]
    assert INT64_LIMIT > 34 * 35**5


@pytest.mark.parametrize(
    ("marks", "best"),
    [
        ({}, ["E5", "F5", "E6", "F6"]),
        ({"hit": ["E5"]}, ["F5", "E6"]),
        ({"hit": ["E5", "F5"]}, ["D5", "G5"]),
        ({"sunk": [["A1", "A2"]], "hit": ["E5"], "miss": ["F5"]}, None),
    ],
)
def test_density_decision_seed_boards(marks, best):
    obs = Observation.from_marks(Rules.classic(), **marks)
    assert_decision_matches(obs)
    if best is not None:
        assert [obs.grid.name(int(c)) for c in best_cells(obs)] == best


def test_density_shooter_chooses_with_the_same_draws():
    shooter = get_shooter("density")
    for seed in range(30):
        obs = random_board(Rules.classic(), seed, 0.3, 0.8)
        mine, old = np.random.default_rng(seed), np.random.default_rng(seed)
        assert shooter.choose(obs, mine) == pick(density(obs, check=False).best, old)
        assert mine.bit_generator.state == old.bit_generator.state


# --- hunt and target on arrays -------------------------------------------------------------


def kernel_candidates(obs: Observation, parity: bool) -> list[int]:
    rules = obs.rules
    flags = np.empty(rules.cells, np.uint8)
    out = np.empty(rules.cells, np.int64)
    shortest = min(obs.afloat)
    n = _kernels.hunt_target_cells(obs.marks, rules.rows, rules.cols, parity, shortest, flags, out)
    return out[:n].tolist()


@SETTINGS
@given(
    rules=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    fraction=st.floats(0, 1),
    focus=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_hunt_target_cells_match_candidates(rules, seed, fraction, focus):
    obs = random_board(rules, seed, fraction, focus)
    assume(obs.afloat)
    for parity in (False, True):
        assert kernel_candidates(obs, parity) == [int(c) for c in candidates(obs, parity)[1]]
    out = np.empty(rules.cells, np.int64)
    assert out[: _kernels.unknown_cells(obs.marks, out)].tolist() == obs.unshot.tolist()


# --- whole games ---------------------------------------------------------------------------


class OldDensity:
    """The density shooter as it was before the bitboard kernel: counts, then combine."""

    name = "density"
    touching = True
    kernel = None

    def choose(self, observation, rng):
        return pick(density(observation, check=False).best, rng)


def assert_games_match(rules: Rules, name: str, games) -> None:
    played = play_games(rules, name, games)
    assert played.games == tuple(games)
    for i, game in enumerate(games):
        record = play_game(rules, name, game)
        assert played.fired(game) == tuple(shot.cell for shot in record.shots), (name, game)
        assert (played.shots[i], played.hunt[i]) == (record.shots_fired, record.hunt)
        assert (played.cells[i, record.shots_fired :] == -1).all()


@pytest.mark.parametrize("name", KERNEL_SHOOTERS)
@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_game_kernel_plays_play_games_games(rules, name):
    assert_games_match(rules, name, range(1, 21))


@SETTINGS
@given(rules=small_rules(), first=st.integers(1, 10**6), name=st.sampled_from(KERNEL_SHOOTERS))
def test_game_kernel_on_small_random_rules(rules, first, name):
    assert_games_match(rules, name, range(first, first + 3))


@pytest.mark.parametrize("rules", [Rules.classic(), Rules.russian()], ids=["classic", "russian"])
def test_density_games_equal_the_old_density_path(rules):
    played = play_games(rules, "density", range(1, 16))
    for game in range(1, 16):
        record = simulate_module._play(rules, OldDensity(), game)
        assert played.fired(game) == tuple(shot.cell for shot in record.shots)


def test_games_without_a_kernel_go_through_play_game():
    # Big weights: the density kernel would overflow int64; exact has no game kernel.
    assert_games_match(BIG_WEIGHTS[0], "density", [1, 2])
    assert_games_match(Rules.custom(5, [3, 2, 1], touching=False), "exact", [1, 2, 3])


def test_simulate_plays_through_the_kernel(monkeypatch):
    rules = Rules.russian()
    want = {name: [play_game(rules, name, g) for g in range(5, 17)] for name in KERNEL_SHOOTERS}

    def refuse(*args):
        raise AssertionError("simulate played a kernel shooter shot by shot")

    monkeypatch.setattr(simulate_module, "_play", refuse)
    table = simulate(rules, KERNEL_SHOOTERS, games=12, first=5)
    for result in table.results:
        records = want[result.strategy]
        assert result.shots == tuple(r.shots_fired for r in records)
        assert result.hunt == tuple(r.hunt for r in records)
        assert result.target == tuple(r.target for r in records)
