"""The expert's openings: stored, followed until the first hit, and worked out again."""

from __future__ import annotations

import numpy as np
import pytest

from hamle.battleship import Observation, Rules, _kernels
from hamle.battleship.exact import occupancy
from hamle.battleship.simulate import play_game
from hamle.battleship.strategies.expert_shooter import ExpertShooter, rollout_tables
from hamle.battleship.strategies.openings import (
    SETTINGS,
    opening_cells,
    opening_shot,
    work_out_opening,
)

RULES = [Rules.classic(), Rules.russian()]


def names(rules, cells):
    return [rules.grid.name(int(cell)) for cell in cells]


@pytest.mark.parametrize("rules", RULES)
def test_each_stored_cell_is_a_candidate_of_the_board_the_opening_reaches(rules):
    opening = opening_cells(rules)
    assert len(opening) >= 5 and len(set(opening.tolist())) == len(opening)
    afloat = np.array(sorted(rules.lengths, reverse=True), np.int64)
    tables = rollout_tables(rules)
    marks = np.zeros(rules.cells, np.uint8)
    everything, _ = occupancy(rules, marks, rules.lengths)
    for cell in opening:
        assert cell in _kernels.best_cells(marks, afloat, tables, SETTINGS["candidates"])
        marks[cell] = 1
    left, _ = occupancy(rules, marks, rules.lengths)  # where the opening stops
    assert left < SETTINGS["reach"] * everything


@pytest.mark.parametrize("rules", RULES)
def test_the_opening_is_followed_from_the_empty_board_only_while_every_shot_missed(rules):
    opening = names(rules, opening_cells(rules))
    for k in range(len(opening)):
        obs = Observation.from_marks(rules, miss=opening[:k])
        assert rules.grid.name(opening_shot(obs)) == opening[k]
    assert opening_shot(Observation.from_marks(rules, miss=opening)) is None
    assert opening_shot(Observation.from_marks(rules, miss=opening[1:3])) is None
    assert opening_shot(Observation.from_marks(rules, miss=[opening[0], "J10"])) is None
    assert opening_shot(Observation.from_marks(rules, hit=[opening[0]])) is None


def test_rules_without_a_stored_opening_have_none():
    rules = Rules.custom(6, [3, 2])
    assert opening_cells(rules).size == 0
    assert opening_shot(Observation.start(rules)) is None


@pytest.mark.parametrize("rules", RULES)
def test_expert_games_open_with_the_opening_until_a_shot_hits(rules):
    opening = opening_cells(rules).tolist()
    expert = ExpertShooter(fleets=100)  # (no opening shot rolls anything out: any budget)
    for game in (1, 2, 3):
        shots = play_game(rules, expert, game).shots
        first_hit = next(i for i, shot in enumerate(shots) if shot.answer != "miss")
        fired = [shot.cell for shot in shots[: first_hit + 1]]
        assert fired == opening[: first_hit + 1]


def test_without_openings_the_expert_rolls_out_its_first_shot():
    start = Observation.start(Rules.classic())
    cell = ExpertShooter(fleets=50, openings=False).choose(start, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    assert cell == ExpertShooter(fleets=50, openings=False).choose(start, rng)
    before = rng.bit_generator.state
    ExpertShooter(fleets=50).choose(start, rng)  # the stored opening draws nothing
    assert rng.bit_generator.state == before


def test_working_out_an_opening_repeats_and_stops_where_games_rarely_go():
    rules = Rules.custom(5, [3, 2])
    settings = {**SETTINGS, "fleets": 300, "reach": 0.3}
    lines = []
    opening = work_out_opening(rules, settings, lines.append)
    assert opening == work_out_opening(rules, settings)
    assert len(lines) == len(opening) >= 2
    marks = np.zeros(rules.cells, np.uint8)
    everything, _ = occupancy(rules, marks, rules.lengths)
    for cell in opening[:-1]:
        marks[cell] = 1
    assert occupancy(rules, marks, rules.lengths)[0] >= 0.3 * everything
    marks[opening[-1]] = 1
    assert occupancy(rules, marks, rules.lengths)[0] < 0.3 * everything
    assert work_out_opening(rules, {**settings, "reach": 1.0}) == opening[:1]
