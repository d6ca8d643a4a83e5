"""The expert shooter: its tracked density equals the reference d, its rollouts play the
ranked density shooter shot for shot, its weighted fleets have the exact posterior's
marginals, its rollout means agree with enumeration, and its games replay."""

from __future__ import annotations

import math

import numpy as np
import pytest
from battleship import reference as ref
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hamle.battleship import BattleshipError, Observation, Rules, _kernels
from hamle.battleship.count import count_fleets
from hamle.battleship.errors import CountTooLargeError
from hamle.battleship.exact import occupancy
from hamle.battleship.fleet import Fleet, Ocean, random_fleet
from hamle.battleship.observation import HIT, UNKNOWN
from hamle.battleship.rules import zone
from hamle.battleship.simulate import play_game
from hamle.battleship.strategies import get_shooter
from hamle.battleship.strategies.common import pcg_words
from hamle.battleship.strategies.density_shooter import DensityShooter
from hamle.battleship.strategies.exact_shooter import best_cells
from hamle.battleship.strategies.expert_shooter import (
    MAX_FLEETS,
    ExpertShooter,
    rollout_tables,
    rollouts,
)
from hamle.battleship.strategies.openings import opening_cells
from hamle.rng import FLEET_STREAM, game_stream

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def afloat_of(obs: Observation) -> np.ndarray:
    return np.array(sorted(obs.afloat, reverse=True), np.int64)


def tracked(obs: Observation):
    """The kernel's tracked state of ``obs``: (mult, alive, room, base, hits, n_hits, d)."""
    return _kernels._start(obs.marks, afloat_of(obs), rollout_tables(obs.rules))


def ranked_d(obs: Observation) -> list[int]:
    """The ranked density shooter's d: the density's (spec § 3), but where ships may not
    touch without the placements that have an open hit around them, and each placement
    weighed by the room weight of the unknown cells in its zone."""
    w, hits = ref.weight(obs.afloat), set(obs.open_hits.tolist())
    room_weight = rollout_tables(obs.rules).room_weight
    d = [0] * obs.rules.cells
    for length in obs.afloat:
        for placement, k in ref.consistent_placements(obs, length):
            around = zone(obs.rules, placement)
            if not hits & (around - set(placement)):
                room = sum(obs.marks[cell] == UNKNOWN for cell in around)
                for cell in placement:
                    d[cell] += w**k * int(room_weight[room])
    return d


def ranked_order(obs: Observation) -> list[int]:
    """The unknown cells by the ranked density shooter's preference: greatest ``ranked_d``
    first, of least rank among equals; with no hit open where ships may touch and the
    shortest ship afloat has two cells, those with r + c even and d > 0 before the rest."""
    d, rank = ranked_d(obs), np.argsort(rollout_tables(obs.rules).order)
    cols = obs.rules.cols
    checker = obs.rules.touching and min(obs.afloat) == 2 and not len(obs.open_hits)

    def off_board(cell: int) -> bool:  # off the checkerboard the hunt keeps to
        return checker and not (sum(divmod(cell, cols)) % 2 == 0 and d[cell] > 0)

    return sorted(obs.unshot.tolist(), key=lambda cell: (off_board(cell), -d[cell], rank[cell]))


def ranked_shot(obs: Observation) -> int:
    """The ranked density shooter's shot."""
    return ranked_order(obs)[0]


def reference_rollout(ocean: Ocean, first: int) -> int:
    """Shots to finish ``ocean`` firing ``first``, then the reference ranked density shot."""
    shots, cell = 0, first
    while True:
        ocean.fire(cell)
        shots += 1
        if ocean.over:
            return shots
        cell = ranked_shot(ocean.observation)


@st.composite
def mid_game(draw):
    """An ocean part-way through a game on a small board (ships left afloat)."""
    rules = draw(ref.small_rules())
    count = count_fleets(rules)
    assume(count.fleets >= count.product / 1000)  # else too rare for the rejection sampler
    ocean = Ocean(random_fleet(rules, np.random.default_rng(draw(st.integers(0, 2**32)))))
    board = ocean.fleet.board()
    cells = draw(st.permutations(range(rules.cells)))
    for cell in cells[: draw(st.integers(0, rules.cells - 1))]:
        marks = ocean.observation.marks
        unhit = (board >= 0) & (marks == UNKNOWN)
        if marks[cell] == UNKNOWN and not (unhit[cell] and unhit.sum() == 1):
            ocean.fire(cell)
    return ocean


@SETTINGS
@given(mid_game())
def test_tracked_density_is_the_reference(ocean):
    obs = ocean.observation
    mult, *_, n_hits, d = tracked(obs)
    unknown = obs.marks == UNKNOWN
    assert d[unknown].tolist() == np.asarray(ranked_d(obs))[unknown].tolist()
    if obs.rules.touching:
        assert d[unknown].tolist() == np.asarray(ref.density(obs)[1])[unknown].tolist()
    if unknown.any():
        t = rollout_tables(obs.rules)
        if n_hits:
            assert _kernels.ranked_best(obs.marks, d, t.order) == ranked_shot(obs)
        else:
            assert _kernels.hunt_best(obs.marks, d, t, mult) == ranked_shot(obs)


@SETTINGS
@given(mid_game(), st.data())
def test_rollout_plays_the_ranked_density_shooter(ocean, data):
    obs = ocean.observation
    first = data.draw(st.sampled_from(obs.unshot.tolist()))
    board = ocean.fleet.board()
    rules = obs.rules
    left = np.array(
        [sum(obs.marks[c] == UNKNOWN for c in ship) for ship in ocean.fleet.ships], np.int64
    )
    mult, alive, room, base, hits, n_hits, d = tracked(obs)
    lengths = np.array(rules.lengths, np.int64)
    marks = obs.marks.copy()
    args = (board, lengths, left, marks, alive, room, base, mult, hits, n_hits)
    trails = np.zeros((1, rules.cells + 2), np.uint64)
    shots = _kernels.rollout(first, *args, rollout_tables(rules), d, trails, 0)
    assert shots == reference_rollout(ocean, first)
    assert not (marks == UNKNOWN).all() and (left == 0).all()


def draw_fleets(obs: Observation, draws: int, seed: int = 7):
    """``draws`` fleets of ``_draw_fleet`` after ``obs``: (weight, board, cells left) each."""
    t = rollout_tables(obs.rules)
    afloat = afloat_of(obs)
    _, alive, _, _, hits, n_hits, _ = tracked(obs)
    pcg = pcg_words(np.random.default_rng(seed))
    occupied = np.empty(t.masks.shape[1], np.uint64)
    choice = np.empty(max(t.cells.shape[0], len(afloat) * t.through.shape[1]), np.int64)
    ships = np.empty_like(choice)
    for _ in range(draws):
        board = np.empty(obs.rules.cells, np.int64)
        left = np.empty(len(afloat), np.int64)
        weight = _kernels._draw_fleet(
            afloat, alive, obs.marks, hits, n_hits, t, pcg, occupied, board, left, choice, ships
        )
        yield weight, board, left


def weighted_marginals(obs: Observation, draws: int, weighted: bool = True) -> np.ndarray:
    """Per cell, the share of importance-weighted drawn fleets with a ship on it."""
    share, total = np.zeros(obs.rules.cells), 0.0
    for weight, board, _ in draw_fleets(obs, draws):
        weight = weight if weighted else float(weight > 0)
        share += weight * (board >= 0)
        total += weight
    return share / total


def consistent(obs: Observation, ships) -> bool:
    """The fleet of ``ships`` (sunk ships as ``obs`` shows them, then these) answers every
    shot of ``obs`` as it was answered."""
    fleet = [tuple(sorted(ship.cells)) for ship in obs.sunk] + list(ships)
    lengths = sorted(map(len, fleet), reverse=True)
    if lengths != sorted(obs.rules.lengths, reverse=True):
        return False
    try:
        ocean = Ocean(Fleet.from_cells(obs.rules, sorted(fleet, key=len, reverse=True)))
    except BattleshipError:
        return False
    # Misses first: fired after a sinking, one beside it would be known water, refused.
    misses = np.flatnonzero(obs.marks == 1)
    for cell in (*misses, *np.flatnonzero((obs.marks == HIT) | (obs.marks == 3))):
        ocean.fire(int(cell))
    return (ocean.observation.marks == obs.marks).all()


HUNT_CASES = [
    (Rules.custom(4, [3, 2, 2]), ["C3", "B1"]),
    (Rules.custom(4, [3, 2, 2], touching=False), ["C3"]),
    (Rules.custom(5, [3, 2, 2, 1], touching=False), ["A1", "C3", "E2"]),
    (Rules.custom((3, 5), [3, 3, 2]), ["B3"]),
]
TARGET_CASES = [  # (rules, misses, open hits)
    (Rules.custom(4, [3, 2, 2]), ["C3", "B1"], ["B2"]),
    (Rules.custom(4, [3, 2, 2], touching=False), ["C3"], ["B2"]),
    (Rules.custom(5, [3, 2, 2, 1], touching=False), ["A1", "C3", "E2"], ["B2", "D4"]),
    (Rules.custom(5, [3, 2, 2, 1], touching=False), ["A1"], ["B2", "B3"]),
    (Rules.custom(5, [3, 2, 2, 1]), ["A1"], ["B2", "C2", "C3"]),
]


@pytest.mark.parametrize(
    ("rules", "misses", "hits"), [(*case, []) for case in HUNT_CASES] + TARGET_CASES
)
def test_weighted_draws_have_the_exact_marginals(rules, misses, hits):
    obs = Observation.from_marks(rules, miss=misses, hit=hits)
    total, counts = occupancy(rules, obs.marks, obs.afloat, ())
    exact = np.array([int(c) for c in counts]) / int(total)
    drawn = weighted_marginals(obs, 40_000)
    # 40,000 draws (a third to two thirds stuck where open hits lie near each other): the
    # standard error of a share stays below 0.004 here.
    assert np.abs(drawn - exact).max() < 0.015


def test_unweighted_draws_are_biased():
    """The weights matter: without them, sequential draws miss the exact marginals."""
    rules, misses = HUNT_CASES[2]
    obs = Observation.from_marks(rules, miss=misses)
    total, counts = occupancy(rules, obs.marks, obs.afloat, ())
    exact = np.array([int(c) for c in counts]) / int(total)
    assert np.abs(weighted_marginals(obs, 40_000, weighted=False) - exact).max() > 0.03


@SETTINGS
@given(mid_game())
def test_drawn_fleets_answer_every_shot_as_it_was_answered(ocean):
    obs = ocean.observation
    assume(obs.afloat)
    for weight, board, left in draw_fleets(obs, 20):
        if weight == 0:
            continue
        ships = [tuple(np.flatnonzero(board == s).tolist()) for s in range(len(obs.afloat))]
        assert consistent(obs, ships)
        assert left.tolist() == [sum(obs.marks[c] == UNKNOWN for c in ship) for ship in ships]


def exact_rollout_means(obs: Observation, candidates) -> tuple[np.ndarray, float]:
    """Per candidate, the mean over every fleet consistent with ``obs`` (no ship sunk) of
    ``reference_rollout``, and the greatest standard deviation of those shots."""
    fleets = [fleet for fleet in ref.fleets(obs.rules) if consistent(obs, fleet)]
    shots = np.zeros((len(fleets), len(candidates)))
    for i, fleet in enumerate(fleets):
        for j, first in enumerate(candidates):
            ocean = Ocean(Fleet(obs.rules, fleet))
            for cell in np.flatnonzero(obs.marks != UNKNOWN):
                ocean.fire(int(cell))
            shots[i, j] = reference_rollout(ocean, int(first))
    return shots.mean(axis=0), shots.std(axis=0).max()


def ranked_candidates(obs: Observation, k: int) -> np.ndarray:
    """The expert's ``k`` candidates: the first ``k`` of ``ranked_order``."""
    return np.array(ranked_order(obs)[:k], np.int64)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_working_out_an_opening_keeps_a_cell_of_least_exact_mean(seed):
    """Successive halving keeps the better half each round: on the empty 4 × 4 board with
    ships of 3 and 2, the cell it keeps of the ranked density's best 8 is within 0.01 shots
    of the least mean over every fleet (the two worst are 0.2 above it)."""
    from hamle.battleship.strategies import openings

    rules = Rules.custom(4, [3, 2])
    obs = Observation.start(rules)
    tables, afloat = rollout_tables(rules), afloat_of(obs)
    cells = _kernels.best_cells(obs.marks, afloat, tables, 8)
    exact, _ = exact_rollout_means(obs, cells)
    assert exact.max() > exact.min() + 0.15  # (a choice that can be wrong)
    cell, _ = openings._halve(obs.marks.copy(), afloat, cells, tables, 1000, {"seed": seed}, 0)
    assert exact[cells.tolist().index(cell)] < exact.min() + 0.01


@pytest.mark.parametrize(
    ("rules", "misses", "hits"), [(*case, []) for case in HUNT_CASES[:2]] + TARGET_CASES[:2]
)
def test_rollout_means_agree_with_enumeration(rules, misses, hits):
    obs = Observation.from_marks(rules, miss=misses, hit=hits)
    candidates = np.array(obs.unshot[:4], np.int64)
    exact, spread = exact_rollout_means(obs, candidates)
    n = 20_000
    pcg = pcg_words(np.random.default_rng(3))
    means = _kernels.rollout_means(
        obs.marks, afloat_of(obs), candidates, rollout_tables(rules), n, pcg
    )
    assert np.abs(means - exact).max() < 5 * spread / np.sqrt(n)


@pytest.mark.parametrize(
    "stop", [{"rounds": 1}, {"budget": 1}, {"tolerance": 1e9}], ids=["rounds", "budget", "settled"]
)
def test_a_race_of_one_round_fires_the_least_rollout_mean(stop):
    obs = Observation.from_marks(*HUNT_CASES[2][:1], miss=HUNT_CASES[2][1])
    candidates = ranked_candidates(obs, 5)
    pcg = pcg_words(np.random.default_rng(5))
    t = rollout_tables(obs.rules)
    means = _kernels.rollout_means(obs.marks, afloat_of(obs), candidates, t, 40, pcg)
    shooter = ExpertShooter(**{"candidates": 5, "fleets": 40, "rounds": 8, **stop})
    assert shooter.choose(obs, np.random.default_rng(5)) == candidates[np.argmin(means)]


def test_the_race_finds_the_cell_of_least_exact_mean():
    obs = Observation.from_marks(*HUNT_CASES[1][:1], miss=HUNT_CASES[1][1])
    candidates = ranked_candidates(obs, 6)
    exact, _ = exact_rollout_means(obs, candidates)
    raced = ExpertShooter(candidates=6, fleets=20, rounds=50, budget=10**9)
    picks = [raced.choose(obs, np.random.default_rng(seed)) for seed in range(5)]
    assert all(exact[candidates.tolist().index(pick)] == exact.min() for pick in picks)
    once = ExpertShooter(candidates=6, fleets=20, rounds=1)
    picks = [once.choose(obs, np.random.default_rng(seed)) for seed in range(5)]
    assert any(exact[candidates.tolist().index(pick)] > exact.min() for pick in picks)


def test_the_race_drops_only_the_clearly_worse():
    rng = np.random.default_rng(0)
    fleet = rng.integers(30, 60, 400).astype(float)
    weights = rng.uniform(0.5, 2, 400)
    noise = rng.normal(0, 3, 400)
    noise -= np.average(noise, weights=weights)  # (its standard error is near 0.15)
    shots = np.column_stack([fleet, fleet + 1, fleet + noise + 0.05, fleet + 5 * noise + 0.3])
    racing = np.array([0, 1, 2, 3])
    kept, settled = _kernels.still_racing(shots, weights, racing, 2.0, 0.0)
    assert kept.tolist() == [0, 2, 3] and not settled  # 1 is worse on every fleet
    assert _kernels.still_racing(shots, weights, racing, 0.0, 0.0)[0].tolist() == [0]
    assert _kernels.still_racing(shots, weights, racing, 1e6, 0.0)[0].tolist() == [0, 2, 3]
    assert _kernels.still_racing(shots, weights, racing, 2.0, 10.0)[1]


def test_target_mode_fires_the_ranked_density_shot():
    obs = Observation.from_marks(Rules.classic(), hit=["E5"], miss=["E4", "A1"])
    cell = ExpertShooter().choose(obs, np.random.default_rng(0))
    assert cell == ranked_shot(obs)


RUSSIAN_MISSES = "A1 C1 D1 I1 J1 B2 A3 D3 G3 J3 A4 A6 J6 A7 D7 B8 J8 G9 A10 C10 F10 I10 J10"
RUSSIAN_TARGET = {  # five ships afloat, one hit open: the exact map and the base differ
    "miss": RUSSIAN_MISSES.split(),
    "hit": ["I7"],
    "sunk": [["F1", "G1", "H1"], ["A5", "B5"], ["A9", "B9", "C9", "D9"], ["B7"], ["I9", "J9"]],
}


def test_exact_targets_where_ships_may_not_touch_and_few_are_afloat():
    obs = Observation.from_marks(Rules.russian(), **RUSSIAN_TARGET)
    assert [obs.grid.name(c) for c in best_cells(obs)] == ["H7"]
    assert obs.grid.name(ranked_shot(obs)) == "J7"
    rng = np.random.default_rng(0)
    assert obs.grid.name(ExpertShooter().choose(obs, rng)) == "H7"
    assert obs.grid.name(ExpertShooter(exact_targets=5).choose(obs, rng)) == "H7"
    assert obs.grid.name(ExpertShooter(exact_targets=4).choose(obs, rng)) == "J7"
    assert obs.grid.name(ExpertShooter(exact_targets=0).choose(obs, rng)) == "J7"


def test_an_exact_target_out_of_reach_gets_the_ranked_density_shot(monkeypatch):
    def out_of_reach(observation):
        raise CountTooLargeError("too large")

    monkeypatch.setattr("hamle.battleship.strategies.expert_shooter.best_cells", out_of_reach)
    obs = Observation.from_marks(Rules.russian(), **RUSSIAN_TARGET)
    assert obs.grid.name(ExpertShooter().choose(obs, np.random.default_rng(0))) == "J7"


@pytest.mark.parametrize("value", [-1, 2.5, True, "9", None])
def test_bad_exact_targets_are_refused(value):
    with pytest.raises(BattleshipError, match="exact_targets must be a whole number of at least 0"):
        ExpertShooter(exact_targets=value)


def test_target_rollouts_fire_the_least_rollout_mean_with_a_hit_open():
    rules, misses, hits = TARGET_CASES[2]
    obs = Observation.from_marks(rules, miss=misses, hit=hits)
    candidates = ranked_candidates(obs, 5)
    pcg = pcg_words(np.random.default_rng(6))
    t = rollout_tables(obs.rules)
    means = _kernels.rollout_means(obs.marks, afloat_of(obs), candidates, t, 40, pcg)
    shooter = ExpertShooter(
        candidates=5, fleets=40, rounds=1, target_rollouts=True, exact_targets=0
    )
    cell = shooter.choose(obs, np.random.default_rng(6))
    assert cell == candidates[np.argmin(means)] and cell != candidates[0]


@pytest.mark.parametrize("what", ["target_rollouts", "openings"])
@pytest.mark.parametrize("value", [1, "yes", None])
def test_switches_must_be_true_or_false(what, value):
    with pytest.raises(BattleshipError, match=f"{what} must be true or false"):
        ExpertShooter(**{what: value})


def test_numpys_whole_numbers_are_whole_numbers():
    expert = ExpertShooter(fleets=np.int64(10), candidates=np.int32(2), threads=np.uint8(1))
    assert expert == ExpertShooter(fleets=10, candidates=2, threads=1)
    assert type(expert.fleets) is type(expert.candidates) is type(expert.threads) is int
    with pytest.raises(BattleshipError, match="fleets must be a whole number of at least 1"):
        ExpertShooter(fleets=np.int64(0))


def test_one_candidate_is_the_ranked_density_shooter():
    obs = Observation.from_marks(Rules.classic(), miss=["E5", "F6"])
    assert ExpertShooter(candidates=1).choose(obs, np.random.default_rng(0)) == ranked_shot(obs)


def test_the_hunt_keeps_to_the_checkerboard_while_the_two_cell_ship_is_afloat():
    base = ExpertShooter(candidates=1, openings=False)
    rng = np.random.default_rng(0)
    start = Observation.start(Rules.classic())  # E5, E6, F5 and F6 tie; E6 ranks first
    assert start.grid.name(base.choose(start, rng)) == "E5"  # r + c even
    sunk = Observation.from_marks(Rules.classic(), sunk=[["A1", "A2"]])
    assert sunk.grid.name(base.choose(sunk, rng)) == "E6"
    russian = Observation.start(Rules.russian())  # not where ships may not touch
    assert base.choose(russian, rng) == ranked_order(russian)[0]
    assert not rollout_tables(Rules.russian()).checker


@pytest.mark.parametrize("rules", [Rules.classic(), Rules.russian()])
def test_whole_games_of_the_base_in_one_kernel_call_are_its_games(rules):
    fleets = [random_fleet(rules, game_stream(game, FLEET_STREAM)) for game in (1, 2, 3)]
    boards = np.array([fleet.board() for fleet in fleets])
    afloat = np.array([len(ship) for ship in fleets[0].ships], np.int64)
    for opening, shooter in (
        (opening_cells(rules), ExpertShooter(candidates=1, exact_targets=0)),
        (np.empty(0, np.int64), ExpertShooter(candidates=1, openings=False, exact_targets=0)),
    ):
        shots = _kernels.ranked_games(boards, afloat, rollout_tables(rules), opening)
        assert shots.tolist() == [play_game(rules, shooter, game).shots_fired for game in (1, 2, 3)]


@pytest.mark.parametrize("rules", [Rules.classic(), Rules.russian()])
def test_games_replay_and_fire_each_cell_once(rules):
    one = play_game(rules, "expert(fleets=1000)", 5)
    again = play_game(rules, "expert(fleets=1000)", 5)
    cells = [shot.cell for shot in one.shots]
    assert cells == [shot.cell for shot in again.shots]
    assert len(set(cells)) == len(cells) and one.shots[-1].answer == "sunk"


@pytest.mark.parametrize("rules", [Rules.classic(), Rules.russian()])
def test_threads_share_the_fleets_without_changing_a_shot(rules):
    obs = Observation.from_marks(rules, miss=["E5", "C3"], hit=["H8"], sunk=[])
    afloat, tables = afloat_of(obs), rollout_tables(rules)
    cells = _kernels.best_cells(obs.marks, afloat, tables, 4)
    results = []
    for threads in (1, 2, 3, 7):
        shots, weights = np.full((301, 4), -1.0), np.zeros(301)
        pcg = pcg_words(np.random.default_rng(3))
        spent = rollouts(obs.marks, afloat, cells, tables, pcg, shots, weights, threads)
        results.append((spent, shots.tolist(), weights.tolist(), pcg.tolist()))
    shots, weights = np.empty((301, 4)), np.empty(301)
    pcg = pcg_words(np.random.default_rng(3))
    spent = _kernels.rollout_shots(obs.marks, afloat, cells, tables, 301, pcg, shots, weights)
    assert spent > 0 and (shots >= 17).all()
    assert results == [(spent, shots.tolist(), weights.tolist(), pcg.tolist())] * 4
    games = [play_game(rules, ExpertShooter(fleets=300, threads=n), 7) for n in (1, 2)]
    assert [shot.cell for shot in games[0].shots] == [shot.cell for shot in games[1].shots]


def test_draws_advance_the_stream():
    obs = Observation.from_marks(Rules.classic(), miss=["E5"])
    rng = np.random.default_rng(11)
    before = rng.bit_generator.state
    ExpertShooter(fleets=50).choose(obs, rng)
    assert rng.bit_generator.state != before


@pytest.mark.parametrize(("touching", "fleets", "other"), [(True, 6000, 8000), (False, 8000, 6000)])
def test_default_fleets_follow_the_rules(touching, fleets, other):
    obs = Observation.from_marks(Rules.custom(7, [3, 2, 2], touching), miss=["D4"])
    states = {}
    for shooter in (ExpertShooter(), ExpertShooter(fleets=fleets), ExpertShooter(fleets=other)):
        rng = np.random.default_rng(5)
        shooter.choose(obs, rng)
        states[shooter.fleets] = rng.bit_generator.state
    assert states[None] == states[fleets] != states[other]


@pytest.mark.parametrize("what", ["fleets", "candidates", "rounds", "budget", "threads"])
@pytest.mark.parametrize("value", [0, -3, 2.5, True, "6"])
def test_bad_budgets_are_refused(what, value):
    with pytest.raises(BattleshipError, match=f"{what} must be a whole number"):
        ExpertShooter(**{what: value})


def test_bad_endgame_settings_are_refused():
    for what, value, least in (("endgame_ships", -1, 0), ("endgame_rollouts", 7, 8)):
        with pytest.raises(
            BattleshipError, match=f"{what} must be a whole number of at least {least}"
        ):
            ExpertShooter(**{what: value})
        with pytest.raises(BattleshipError, match=f"{what} must be a whole number"):
            ExpertShooter(**{what: 2.5})
    with pytest.raises(BattleshipError, match="endgame_ships must be at most 3, not 4"):
        ExpertShooter(endgame_ships=4)
    # The endgame keeps a third of its rollouts as fleets: at most MAX_FLEETS of them.
    assert ExpertShooter(endgame_rollouts=3 * MAX_FLEETS).endgame_rollouts == 3 * MAX_FLEETS
    for value in (3 * MAX_FLEETS + 1, 10**15):
        with pytest.raises(
            BattleshipError, match=f"endgame_rollouts must be at most 3,000,000, not {value:,}"
        ):
            ExpertShooter(endgame_rollouts=value)


@pytest.mark.parametrize("what", ["z", "tolerance"])
@pytest.mark.parametrize("value", [-0.5, float("nan"), True, "2"])
def test_bad_race_settings_are_refused(what, value):
    with pytest.raises(BattleshipError, match=f"{what} must be a number of at least 0"):
        ExpertShooter(**{what: value})


def test_too_many_fleets_a_decision_are_refused():
    ExpertShooter(rounds=4, fleets=250_000)
    with pytest.raises(BattleshipError, match="rounds × fleets must be at most 1,000,000"):
        ExpertShooter(rounds=4, fleets=250_001)
    ExpertShooter(rounds=125)  # its default fleets: 8000 where ships may not touch
    defaults = r"rounds × fleets \(8,000 fleets where ships may not touch\) must be at most"
    with pytest.raises(BattleshipError, match=rf"{defaults} 1,000,000, not 1,008,000"):
        ExpertShooter(rounds=126)


def test_too_many_threads_are_refused():
    ExpertShooter(threads=64)
    with pytest.raises(BattleshipError, match="threads must be at most 64, not 65"):
        ExpertShooter(threads=65)


def test_registered():
    assert get_shooter("expert").name == "expert"


def test_a_lone_hit_stays_a_target():
    obs = Observation.from_marks(Rules.custom(3, [2]), hit=["B2"])
    cell = ExpertShooter().choose(obs, np.random.default_rng(0))
    assert obs.marks[cell] == UNKNOWN and abs(cell - int(np.flatnonzero(obs.marks == HIT)[0])) in (
        1,
        3,
    )


def test_no_fleet_drawn_falls_back_to_the_ranked_density_shot():
    # Four boats fit a 3×3 board without touching only in its corners, and A1 is a miss:
    # every draw gets stuck, so the rollouts give up and the ranked density shot is fired.
    obs = Observation.from_marks(Rules.custom(3, [1, 1, 1, 1], touching=False), miss=["A1"])
    means = _kernels.rollout_means(
        obs.marks,
        afloat_of(obs),
        np.array([0, 4]),
        rollout_tables(obs.rules),
        10_000,
        pcg_words(np.random.default_rng(0)),
    )
    assert np.isnan(means).all()
    assert ExpertShooter(fleets=10_000).choose(obs, np.random.default_rng(0)) == ranked_shot(obs)


def test_room_weights_where_ships_may_not_touch():
    # a placement with z unknown cells in its zone weighs 2^32 · e^(−z/5); the zone of a
    # Russian 4-cell ship holds up to 3 × 6 cells, a classic one only its own up to 5
    russian = rollout_tables(Rules.russian()).room_weight
    assert russian.tolist() == [round(2**32 * math.exp(-z / 5)) for z in range(19)]
    assert rollout_tables(Rules.classic()).room_weight.tolist() == [1] * 6


def test_room_weights_are_dropped_where_d_could_outgrow_int64():
    rules = Rules.custom(10, [6, 5, 4, 3, 2], touching=False)  # 41^6 · 2^32 alone passes 2^63
    assert set(rollout_tables(rules).room_weight.tolist()) == {1}
    obs = Observation.from_marks(rules, miss=["E5"], hit=["B2"])
    shooter = ExpertShooter(exact_targets=0)
    assert shooter.choose(obs, np.random.default_rng(0)) == ranked_shot(obs)


def test_a_fleet_whose_d_outgrows_int64_gets_the_density_shot():
    rules = Rules.custom(20, [10] * 10)  # 10-cell ships: w^10 alone passes 2^63
    obs = Observation.from_marks(rules, hit=["A1"], miss=["B1"])
    cell = ExpertShooter().choose(obs, np.random.default_rng(0))
    assert cell == DensityShooter().choose(obs, np.random.default_rng(0))
    assert obs.grid.name(cell) in {f"A{row}" for row in range(2, 11)}  # the one ship through A1


def test_nothing_left_to_fire_at_is_refused():
    done = Observation.from_marks(Rules.custom(3, [1]), sunk=[["B2"]])
    with pytest.raises(BattleshipError, match="every ship is sunk"):
        ExpertShooter().choose(done, np.random.default_rng(0))


@SETTINGS
@given(mid_game())
def test_endgame_fleets_are_every_fleet_that_fits(ocean):
    obs = ocean.observation
    assume(1 <= len(obs.afloat) <= 3)
    afloat = afloat_of(obs)
    total, counts = ref.exact_map(obs)
    boards = np.empty((total + 1, obs.rules.cells), np.int8)
    lefts = np.empty((total + 1, len(afloat)), np.int64)
    n = _kernels.endgame_fleets(obs.marks, afloat, rollout_tables(obs.rules), boards, lefts)
    assert n == total > 0  # the ocean's own fleet fits
    occupied = (boards[:n] >= 0).sum(axis=0)
    free = (obs.marks == UNKNOWN) | (obs.marks == HIT)
    assert occupied[free].tolist() == np.asarray(counts)[free].tolist()
    unhit = [(boards[:n] == s) & (obs.marks == UNKNOWN) for s in range(len(afloat))]
    assert lefts[:n].tolist() == np.stack([u.sum(axis=1) for u in unhit], axis=1).tolist()
    assert len({board.tobytes() for board in boards[:n]}) == n
    if n > 1:
        few = np.empty((n - 1, obs.rules.cells), np.int8)
        assert (
            _kernels.endgame_fleets(obs.marks, afloat, rollout_tables(obs.rules), few, lefts) == -1
        )


ENDGAME_SUNK = [["A1", "A2", "A3", "A4", "A5"], ["C1", "C2", "C3", "C4"], ["E1", "E2", "E3"]]


ENDGAME_MISSES = Rules.classic().grid.parse_cells(
    "F6 H6 J6 A7 C7 E7 G7 I7 B8 D8 F8 H8 J8 A9 C9 E9 G9 I9 B10 D10"
)


@pytest.mark.parametrize("hit", [[], ["G5"]])
def test_endgame_fires_the_cell_whose_every_fleet_ends_soonest(hit):
    obs = Observation.from_marks(Rules.classic(), sunk=ENDGAME_SUNK, miss=ENDGAME_MISSES, hit=hit)
    t = rollout_tables(obs.rules)
    afloat = afloat_of(obs)  # 3 and 2: every fleet by hand, each pair of placements once
    fits = {n: [p for p, _ in ref.consistent_placements(obs, n)] for n in (3, 2)}
    hits = set(obs.open_hits.tolist())
    pairs = [(a, b) for a in fits[3] for b in fits[2] if not set(a) & set(b)]
    pairs = [pair for pair in pairs if hits <= set(pair[0]) | set(pair[1])]
    boards = np.full((len(pairs), obs.rules.cells), -1, np.int8)
    lefts = np.empty((len(pairs), 2), np.int64)
    for i, pair in enumerate(pairs):
        for ship, cells in enumerate(pair):
            boards[i, list(cells)] = ship
            lefts[i, ship] = sum(obs.marks[c] == UNKNOWN for c in cells)
    expert = ExpertShooter()
    k = min(8, expert.endgame_rollouts // len(pairs))
    cells = _kernels.best_cells(obs.marks, afloat, t, k)
    shots = np.empty((len(pairs), len(cells)))
    _kernels.roll_fleets(obs.marks, afloat, cells, t, boards, lefts, shots)
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    assert expert.choose(obs, rng) == cells[int(np.argmin(shots.mean(axis=0)))]
    assert rng.bit_generator.state == before  # every fleet rolled out, none drawn
    assert k >= 3 and (k == 8 or len(pairs) * (k + 1) > expert.endgame_rollouts)


def test_endgame_gives_way_to_drawn_fleets_when_too_many_fit():
    obs = Observation.from_marks(Rules.classic(), sunk=ENDGAME_SUNK)  # 18,084 fleets
    rng, other = np.random.default_rng(3), np.random.default_rng(3)
    cell = ExpertShooter().choose(obs, rng)
    assert cell == ExpertShooter(endgame_ships=0).choose(obs, other)
    assert (
        rng.bit_generator.state
        == other.bit_generator.state
        != np.random.default_rng(3).bit_generator.state
    )
    wide = ExpertShooter(endgame_rollouts=60_000)  # room for 20,000 fleets
    assert wide.choose(obs, np.random.default_rng(3)) in _kernels.best_cells(
        obs.marks, afloat_of(obs), rollout_tables(obs.rules), 3
    )
