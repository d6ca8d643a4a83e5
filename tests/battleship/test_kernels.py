"""The numba kernels (and the code around them) against the plain-Python twins in
``reference.py``: sampler, exact fleet counts, densities, hunt-and-target candidates."""

from __future__ import annotations

import numpy as np
import pytest
from battleship import reference as ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hamle.battleship import _kernels
from hamle.battleship.count import count_fleets
from hamle.battleship.density import density
from hamle.battleship.fleet import random_fleet
from hamle.battleship.observation import Observation
from hamle.battleship.rules import Rules, placement_table, placements
from hamle.battleship.strategies.hunt_target import candidates

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
GAME_SETTINGS = settings(SETTINGS, max_examples=150)

# Rule sets for sampling, densities and hunt-target: presets, small, rectangular, no-touch.
RULESETS = ref.RULESETS
RULE_IDS = [rules.describe() for rules in RULESETS]


# --- splitmix64, below, sample_fleet ---------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 - 1, 2**64 - 1, 0x9E3779B97F4A7C15])
def test_splitmix64_matches_twin(seed):
    state = np.array([seed], np.uint64)
    twin = [seed]
    for _ in range(50):
        assert int(_kernels.splitmix64(state)) == ref.splitmix64(twin)
        assert int(state[0]) == twin[0]


def test_splitmix64_known_first_output():
    # The published splitmix64 sequence from state 0 starts with 0xE220A8397B1DCDAF.
    assert int(_kernels.splitmix64(np.zeros(1, np.uint64))) == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("n", [1, 2, 3, 7, 100, 760, 2**32 + 1, 3 * 2**61])
def test_below_matches_twin(n):
    # 3·2^61 rejects a quarter of all draws, so the rejection path is exercised.
    for seed in range(20):
        state = np.array([seed], np.uint64)
        twin = [seed]
        for _ in range(20):
            got = int(_kernels.below(state, n))
            assert got == ref.below(twin, n)
            assert 0 <= got < n
            assert int(state[0]) == twin[0]


def _kernel_fleet(rules: Rules, seed: int) -> tuple[int, ...]:
    table = placement_table(rules)
    starts = np.array([table.ranges[s.length][0] for s in rules.fleet], np.int64)
    stops = np.array([table.ranges[s.length][1] for s in rules.fleet], np.int64)
    check = table.cells if rules.touching else table.zone
    chosen = _kernels.sample_fleet(table.cells, check, starts, stops - starts, rules.cells, seed)
    return tuple(int(p) for p in chosen - starts)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_sample_fleet_matches_twin(rules):
    seeds = [*range(15), 2**63 - 1, 987654321987654321]  # random_fleet seeds are < 2**63
    seen = set()
    for seed in seeds:
        twin = ref.sample_fleet(rules, seed)
        assert twin is not None
        assert _kernel_fleet(rules, seed) == twin
        seen.add(twin)
    assert len(seen) > len(seeds) // 2  # different seeds give different fleets


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_random_fleet_is_the_twins_fleet(rules):
    options = ref.ship_placements(rules)
    for game in range(8):
        seed = int(np.random.default_rng(game).integers(0, 2**63))
        twin = ref.sample_fleet(rules, seed)
        fleet = random_fleet(rules, np.random.default_rng(game))
        assert fleet.ships == tuple(options[i][p] for i, p in enumerate(twin))
        fleet.check()


def test_sample_fleet_gives_up_when_nothing_fits():
    # Two 3-cell ships fit on a 3×3 board without touching only in rows 1 and 3 (or
    # columns A and C), which leaves no room for a 1-cell ship.
    rules = Rules.custom(3, [3, 3, 1], touching=False)
    assert ref.fleets(rules) == []
    table = placement_table(rules)
    starts = np.array([table.ranges[s.length][0] for s in rules.fleet], np.int64)
    stops = np.array([table.ranges[s.length][1] for s in rules.fleet], np.int64)
    chosen = _kernels.sample_fleet(table.cells, table.zone, starts, stops - starts, 9, 1)
    assert chosen.tolist() == [-1, -1, -1]


# --- exact fleet counts ---------------------------------------------------------------


def _check_count(rules: Rules) -> None:
    brute = ref.fleets(rules)
    got = count_fleets(rules)
    assert got.fleets == len(brute), rules.describe()
    assert got.layouts == ref.layouts(rules, brute), rules.describe()
    assert got.fleets == got.layouts * ref.symmetry(rules)
    assert got.placements == tuple(len(placements(rules, s.length)) for s in rules.fleet)
    assert got.product == ref.placement_product(rules)


COUNT_CASES = [
    (3, [2], True),
    (3, [1, 1], True),
    (3, [1, 1, 1], False),
    (3, [2, 2], True),
    (3, [2, 2], False),
    (3, [3, 3, 3], True),
    (4, [2, 2], True),
    (4, [3, 2], False),
    (4, [2, 2, 2], False),
    (4, [2, 1, 1, 1], False),
    (4, [3, 3, 2, 1], True),
    (4, [1, 1, 1, 1], True),
    (5, [3, 2, 2, 1], True),
    (5, [4, 3, 2], False),
    (5, [2, 2, 2, 2], False),
    (5, [3, 3, 3, 2], True),
    ((3, 5), [5, 2], True),
    ((3, 5), [3, 2, 1], False),
    ((5, 3), [3, 3, 1, 1], True),
    ((3, 4), [2, 2, 2, 2], True),
    ((4, 5), [1, 1, 1, 1], False),
]


@pytest.mark.parametrize(("size", "fleet", "touching"), COUNT_CASES)
def test_count_matches_brute_force(size, fleet, touching):
    _check_count(Rules.custom(size, fleet, touching))


def test_count_known_small_values():
    # 4×4, two 2-cell ships: 24 placements each, 24·24 − overlapping pairs = 448.
    got = count_fleets(Rules.custom(4, [2, 2]))
    assert (got.fleets, got.layouts) == (448, 224)
    # 3×3, two 3-cell ships: two different rows or two different columns.
    assert count_fleets(Rules.custom(3, [3, 3])).fleets == 12
    # Without touching only rows 1 and 3, or columns A and C.
    assert count_fleets(Rules.custom(3, [3, 3], touching=False)).fleets == 4
    assert count_fleets(Rules.custom(3, [3, 3, 1], touching=False)).fleets == 0


@st.composite
def small_rules(draw):
    rows = draw(st.integers(3, 5))
    cols = draw(st.integers(3, 5))
    longest = max(rows, cols)
    fleet = draw(st.lists(st.integers(1, min(4, longest)), min_size=1, max_size=4))
    touching = draw(st.booleans())
    assume(sum(fleet) <= rows * cols)
    rules = Rules.custom((rows, cols), fleet, touching)
    assume(ref.placement_product(rules) <= 200_000)
    return rules


@SETTINGS
@given(small_rules())
def test_count_matches_brute_force_random_rules(rules):
    _check_count(rules)


def test_count_classic_seed_value():
    got = count_fleets(Rules.classic())
    assert got.fleets == 30_093_975_536
    assert got.layouts == 30_093_975_536 // 2
    assert got.product == 120 * 140 * 160 * 160 * 180


# --- density ----------------------------------------------------------------------------


def assert_density_matches(obs: Observation) -> None:
    w, d, best = ref.density(obs)
    got = density(obs)
    assert got.w == w
    assert [int(x) for x in got.d] == d
    assert got.best == best
    if obs.afloat:
        assert got.counts.tolist() == ref.hit_counts(obs)


@pytest.mark.parametrize("rules", RULESETS, ids=RULE_IDS)
def test_density_empty_board_matches_twin(rules):
    assert_density_matches(Observation.start(rules))


@GAME_SETTINGS
@given(
    rules=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    fraction=st.floats(0, 1),
    focus=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_density_matches_twin_on_partial_games(rules, seed, fraction, focus):
    obs = ref.partial_game(rules, seed, int(fraction * rules.cells), focus)
    assert_density_matches(obs)


def test_density_partial_games_reach_interesting_boards():
    """The generator above does make boards with lines of hits and sunk ships, and the
    kernel matches the twin on a deterministic batch of them."""
    lines = sunk = 0
    for seed in range(60):
        rules = RULESETS[seed % len(RULESETS)]
        obs = ref.partial_game(rules, seed, (seed * 7) % rules.cells, focus=0.9)
        assert_density_matches(obs)
        rule, _ = ref.hunt_target(obs, parity=True)
        lines += rule == "line"
        sunk += bool(obs.sunk)
    assert lines >= 5
    assert sunk >= 20


def _classic(**marks) -> Observation:
    return Observation.from_marks(Rules.classic(), **marks)


def test_density_seed_values_empty_board():
    obs = _classic()
    got = density(obs)
    w, d, best = ref.density(obs)
    assert got.best == best
    assert got.w == w == 35
    assert got.best_names == ["E5", "F5", "E6", "F6"]
    assert got.at("E5") == d[obs.grid.index("E5")] == 34
    assert got.at("A1") == d[0] == 10
    assert max(d) == 34


def test_density_seed_values_one_hit():
    obs = _classic(hit=["E5"])
    got = density(obs)
    _, d, _ = ref.density(obs)
    for name, value in (("F5", 442), ("E6", 442), ("E4", 441), ("D5", 441)):
        assert got.at(name) == d[obs.grid.index(name)] == value
    assert got.at("E5") == 0
    assert got.best_names == ["F5", "E6"]


def test_density_seed_values_two_hits():
    obs = _classic(hit=["E5", "F5"])
    got = density(obs)
    _, d, best = ref.density(obs)
    assert 7 * 35**2 + 5 * 35 + 21 == 8771
    assert got.best_names == ["D5", "G5"]
    assert best == got.best
    assert got.at("D5") == got.at("G5") == d[obs.grid.index("G5")] == 8771


def test_density_beyond_64_bits():
    # Ten 10-cell ships on 20×20: w = 201, and the one placement covering the nine hits
    # A1..I1 plus J1 weighs 201**9 > 2**63 for each of the ten ships.
    rules = Rules.custom(20, [10] * 10)
    hits = [f"{col}1" for col in "ABCDEFGHI"] + ["T5", "T6", "T7", "T8", "T9", "T10"]
    obs = Observation.from_marks(rules, hit=hits, miss=["K2", "S4"])
    w, d, best = ref.density(obs)
    got = density(obs)
    assert w == got.w == 201
    j1 = obs.grid.index("J1")
    assert d[j1] > 10 * 201**9 > 2**64
    assert got.at("J1") == d[j1]
    assert [int(x) for x in got.d] == d
    assert got.best == best == (j1,)


@pytest.mark.parametrize(
    ("rules", "marks"),
    [
        (Rules.classic(), {"sunk": [["A1", "A2", "A3"]], "hit": ["C3"]}),
        (Rules.classic(), {"miss": ["E5", "F6", "G7"], "hit": ["B2", "B3", "B4"]}),
        (Rules.classic(), {"sunk": [["J1", "J2", "J3", "J4", "J5"], ["A10", "B10"]]}),
        (Rules.russian(), {"sunk": [["A1", "A2", "A3"]], "hit": ["C3", "C4"]}),
        (Rules.russian(), {"sunk": [["E5"], ["G5"], ["J10"]], "miss": ["F1"], "hit": ["F3"]}),
        (Rules.russian(), {"sunk": [["B2", "C2", "D2", "E2"]], "hit": ["A5", "A6"]}),
    ],
)
def test_density_hand_marked_boards(rules, marks):
    obs = Observation.from_marks(rules, **marks)
    assert_density_matches(obs)


# --- hunt and target --------------------------------------------------------------------


def assert_candidates_match(obs: Observation) -> str:
    rule = None
    for parity in (False, True):
        want_rule, want = ref.hunt_target(obs, parity)
        got_rule, got = candidates(obs, parity)
        got = [int(c) for c in got]
        assert got_rule == want_rule
        assert got == sorted(want)
        rule = want_rule
    return rule


@GAME_SETTINGS
@given(
    rules=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    fraction=st.floats(0, 1),
    focus=st.sampled_from([0.0, 0.7, 0.95]),
)
def test_hunt_target_matches_spec_on_partial_games(rules, seed, fraction, focus):
    obs = ref.partial_game(rules, seed, int(fraction * rules.cells), focus)
    assert_candidates_match(obs)


def test_hunt_target_covers_every_rule():
    seen = set()
    for seed in range(150):
        rules = RULESETS[seed % len(RULESETS)]
        obs = ref.partial_game(rules, seed, seed % rules.cells, focus=0.8)
        seen.add(assert_candidates_match(obs))
    assert seen == {"line", "target", "hunt"}


@pytest.mark.parametrize(
    ("marks", "rule", "cells"),
    [
        ({}, "hunt", None),
        ({"hit": ["E5"]}, "target", ["E4", "E6", "D5", "F5"]),
        ({"hit": ["E5", "F5"], "miss": ["G5"]}, "line", ["D5"]),
        ({"hit": ["A1", "B1"]}, "line", ["C1"]),
        ({"hit": ["E5", "E6", "E7"], "miss": ["E4", "E8"]}, "target", None),
        ({"hit": ["B2", "C2", "D2", "H8"], "miss": ["A2", "E2"]}, "target", None),
        ({"hit": ["C3", "D4"]}, "target", ["C2", "C4", "B3", "D3", "D5", "E4"]),
    ],
)
def test_hunt_target_hand_marked(marks, rule, cells):
    obs = _classic(**marks)
    assert assert_candidates_match(obs) == rule
    if cells is not None:
        got = {obs.grid.name(int(c)) for c in candidates(obs, parity=True)[1]}
        assert got == set(cells)


def test_hunt_pattern_follows_shortest_afloat_ship():
    # Destroyer sunk: the shortest afloat ship has 3 cells, so the 34-cell pattern.
    obs = _classic(sunk=[["A1", "B1"]], miss=["C1"])
    rule, cells = candidates(obs, parity=True)
    assert rule == "hunt"
    assert len(cells) == 34 - 1  # A1 is on the pattern and sunk
    assert {int(c) for c in cells} == ref.hunt_target(obs, parity=True)[1]
    # Every unshot pattern cell shot: fall back to every unshot cell.
    rules = Rules.custom(3, [2])
    pattern = [c for c in range(9) if (c // 3 + c % 3) % 2 == 0]
    obs = Observation.from_marks(rules, miss=pattern)
    rule, cells = candidates(obs, parity=True)
    assert rule == "hunt"
    assert {int(c) for c in cells} == set(range(9)) - set(pattern)
    assert assert_candidates_match(obs) == "hunt"
