"""Whether a layout fits the marks: the search agrees with enumeration, its layouts are
legal, and density refuses marks no layout fits (library, CLI, lab API)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from battleship import reference as ref
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from hamle.battleship import (
    BattleshipError,
    ExpertShooter,
    MarksError,
    Observation,
    Rules,
    density,
)
from hamle.battleship.fits import fits
from hamle.battleship.observation import HIT, UNKNOWN
from hamle.battleship.rules import zone
from hamle.battleship.strategies.exact_shooter import ExactShooter
from hamle.cli import app

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legal(obs: Observation, layout) -> bool:
    """Every afloat ship once, on unknown cells and open hits (not on hits alone), every
    open hit covered, and no ship in another's zone."""
    hits = set(obs.open_hits.tolist())
    cells = [c for ship in layout for c in ship]
    return (
        sorted(len(ship) for ship in layout) == sorted(obs.afloat)
        and all(obs.marks[c] in (UNKNOWN, HIT) for c in cells)
        and not any(set(ship) <= hits for ship in layout)
        and hits <= set(cells)
        and all(
            zone(obs.rules, list(a)).isdisjoint(b)
            for i, a in enumerate(layout)
            for b in layout[i + 1 :]
        )
    )


@SETTINGS
@given(ref.marked("...mh"))  # more cells left unknown: layouts often fit
def test_the_search_agrees_with_enumeration_and_its_layouts_are_legal(obs):
    total, _ = ref.exact_map(obs)
    found = fits(obs)
    assert found is not None  # small boards are always decided
    assert bool(found) == (total > 0)
    if found:
        assert legal(obs, found)


def test_out_of_budget_is_undecided_not_wrong():
    obs = Observation.from_marks(Rules.custom(5, [4, 3, 3, 2, 2, 2, 1, 1, 1, 1], touching=False))
    assert fits(obs, budget=3) is None and fits(obs) is False


IMPOSSIBLE = [
    (Rules.classic(), {"hit": ["A1", "C3", "E5", "G7", "I9", "A10"]}, "need at least 6 ships"),
    (Rules.custom(10, [2]), {"hit": ["A1", "J10"]}, "need at least 2 ships, but 1 is afloat"),
    (Rules.russian(), {"hit": ["A1", "B2"]}, "the open hits A1 and B2 touch only at a corner"),
    (Rules.russian(), {"hit": ["A1", "B1", "C1", "D1", "E1"]}, "no layout of the afloat ships"),
    (
        Rules.custom(5, Rules.russian().lengths, touching=False),
        {},
        "cannot all be placed on this board, even with no marks",
    ),
]


@pytest.mark.parametrize(("rules", "marks", "message"), IMPOSSIBLE)
def test_density_refuses_marks_no_layout_fits(rules, marks, message):
    with pytest.raises(MarksError, match=message):
        density(Observation.from_marks(rules, **marks))
    assert density(Observation.from_marks(rules, **marks), check=False) is not None


@pytest.mark.parametrize(
    "args",
    [
        ["--hit", "A1,C3,E5,G7,I9,A10"],
        ["--hit", "A1,J10", "--afloat", "2"],
        ["--rules", "russian", "--hit", "A1,B2"],
        ["--rules", "russian", "--hit", "A1,B1,C1,D1,E1"],
        ["--rules", "russian", "--size", "5"],
    ],
)
def test_the_cli_refuses_them_in_one_line(args):
    result = CliRunner().invoke(app, ["battleship", "density", *args])
    assert result.exit_code == 2 and result.stderr.startswith("error:")
    assert result.stdout == "" and result.stderr.count("\n") == 1


UNDECIDABLE = ["--size", "26", "--fleet", ",".join(["26"] * 25), "--miss", "A1,B2"]


def test_a_map_out_of_reach_both_ways_says_it_is_undecided():
    rules = Rules.custom(26, [26] * 25)
    report = density(Observation.from_marks(rules, miss=["A1", "B2"]))  # at most 24 fit
    assert report.undecided and report.as_dict()["undecided"] is True
    decided = density(Observation.from_marks(Rules.classic(), miss=["A1"]))
    assert not decided.undecided and decided.as_dict()["undecided"] is False
    text = CliRunner().invoke(app, ["battleship", "density", *UNDECIDABLE])
    assert text.exit_code == 0 and "Undecided: no layout was found" in text.stdout
    plain = CliRunner().invoke(app, ["battleship", "density", "--miss", "A1"])
    assert plain.exit_code == 0 and "Undecided" not in plain.stdout


def test_without_the_count_a_map_the_search_leaves_open_is_undecided(monkeypatch):
    density_module = importlib.import_module("hamle.battleship.density")  # (not the function)
    exact_module = importlib.import_module("hamle.battleship.exact")

    obs = Observation.from_marks(Rules.russian(), miss=["A1"], hit=["E5"])
    budgets = []

    def undecided(observation, budget):
        budgets.append(budget)
        return None

    monkeypatch.setattr(density_module, "fits", undecided)
    counted = density(obs)
    assert not counted.undecided  # the exact count decided it
    monkeypatch.setattr(exact_module, "occupancy", lambda *args: pytest.fail("counted"))
    report = density(obs, count=False)
    assert report.undecided and report.best == counted.best
    # Without the count the search is cut short too: the check takes milliseconds.
    assert budgets == [density_module.BUDGET, density_module.QUICK_BUDGET]
    assert density_module.QUICK_BUDGET < density_module.BUDGET


def test_a_search_cut_short_leaves_undecided_what_a_longer_one_refutes():
    # Ten scattered hits: the Russian fleet cannot cover them, which a short search
    # cannot tell (the lab then counts it in a heavy slot); no layout is ever made up.
    obs = Observation.from_marks(
        Rules.russian(), hit=["B2", "E2", "H2", "B5", "E5", "H5", "B8", "E8", "H8", "J10"]
    )
    assert density(obs, count=False).undecided
    with pytest.raises(MarksError):
        density(obs)


@pytest.mark.parametrize(("rules", "marks", "message"), IMPOSSIBLE[:4])
def test_exact_shots_name_what_is_wrong_with_marks_no_layout_fits(rules, marks, message):
    obs = Observation.from_marks(rules, **marks)
    with pytest.raises(MarksError, match=message):
        ExactShooter().choose(obs, np.random.default_rng(0))


def test_the_experts_exact_targets_name_it_too():
    obs = Observation.from_marks(Rules.russian(), hit=["A1"], miss=["A2", "B1", "B2"], afloat=[4])
    with pytest.raises(MarksError, match="no afloat ship can explain the hit at A1"):
        ExpertShooter().choose(obs, np.random.default_rng(0))
    with pytest.raises(BattleshipError, match="no ship is afloat"):
        ExactShooter().choose(
            Observation.from_marks(Rules.classic(), afloat=[]), np.random.default_rng(0)
        )
