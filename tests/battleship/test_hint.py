"""The expert's decision as ``bs.hint`` and ``hamle battleship hint`` show it: the same cell
as ``choose``, from the same draws, with the cells it rolled out."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hamle.battleship as bs
from hamle.cli import app

SMALL = bs.Rules.custom(6, [3, 2, 2])


def states(rules, game, shooter):
    """The observations along one game of ``shooter``."""
    record = bs.play_game(rules, shooter, game)
    ocean = bs.Ocean(record.fleet)
    for shot in record.shots:
        yield ocean.observation
        ocean.fire(shot.cell)


@pytest.mark.parametrize("game", [1, 2, 3])
def test_decide_fires_what_choose_fires_and_draws_as_much(game):
    expert, hows = bs.ExpertShooter(fleets=60), set()
    for observation in states(SMALL, game, expert):
        chooser, decider = np.random.default_rng(game), np.random.default_rng(game)
        decision = expert.decide(observation, decider)
        hows.add(how := decision.how)
        assert decision.cell == expert.choose(observation, chooser)
        assert decider.bit_generator.state == chooser.bit_generator.state
        if decision.how in ("rollouts", "endgame"):
            weighed = decision.weighed
            assert weighed[0].cell == decision.cell and weighed[0].behind == 0
            # (an endgame leaves out the cells no layout holds: its choice may stand alone)
            assert len({w.cell for w in weighed}) == len(weighed) >= 1 + (how == "rollouts")
            for w in weighed:
                assert w.behind == pytest.approx(w.shots - weighed[0].shots)
                assert w.stderr >= 0 and 1 <= w.shots <= observation.unshot.size
        else:
            assert decision.weighed == ()
    assert {"rollouts", "endgame", "base"} <= hows


def test_the_endgame_rolls_out_every_layout_that_fits():
    observation = bs.Observation.from_marks(
        SMALL, miss=["A1", "C3", "E5"], sunk=[["F1", "F2", "F3"]]
    )
    decision = bs.ExpertShooter().decide(observation, np.random.default_rng(0))
    assert decision.how == "endgame"
    assert {w.fleets for w in decision.weighed} == {bs.exact(observation).total}
    assert decision.weighed[0].shots == min(w.shots for w in decision.weighed)
    assert {w.stderr for w in decision.weighed} == {0.0}  # (exact means: no sampling error)


def test_the_endgame_shows_no_cell_that_no_layout_holds():
    """Such a cell was rolled out (as the rank put it among the best) and listed +1.000
    behind; it is a sure miss. The cell chosen and the draws stay as they were."""
    rules = bs.Rules.custom(4, [2, 2])
    observation = bs.Observation.from_marks(rules, hit=["A1"], miss=["B1"], afloat=[2])
    chooser, decider = np.random.default_rng(3), np.random.default_rng(3)
    decision = bs.ExpertShooter().decide(observation, decider)
    assert decision.how == "endgame" and observation.grid.name(decision.cell) == "A2"
    assert decision.weighed == (bs.Weighed(decision.cell, 1.0, 1, 0.0, 0.0),)
    assert decision.cell == bs.ExpertShooter().choose(observation, chooser)
    assert decider.bit_generator.state == chooser.bit_generator.state
    for game in (1, 2, 3):
        for state in states(SMALL, game, bs.ExpertShooter(fleets=60)):
            decision = bs.ExpertShooter(fleets=60).decide(state, np.random.default_rng(game))
            if decision.how == "endgame":
                counts = bs.exact(state).counts
                assert all(counts[w.cell] > 0 for w in decision.weighed)


@pytest.mark.parametrize(("size", "ships"), [(12, 129), (26, 128), (26, 60)])
def test_fleets_too_large_for_the_rollouts_get_the_density_shot(size, ships):
    # 129 ships passed the rollout boards' int8; 128 one-cell ships on 26×26 weighed fleets
    # past float64 (NaN means); 60 weigh 2**564, whose squares overflowed.
    observation = bs.Observation.start(bs.Rules.custom(size, [1] * ships))
    decision = bs.ExpertShooter(fleets=10).decide(observation, np.random.default_rng(1))
    density = bs.get_shooter("density").choose(observation, np.random.default_rng(1))
    assert decision == bs.Decision(density, "density")


def test_the_rollouts_weigh_fleets_of_many_ships_finitely():
    observation = bs.Observation.start(bs.Rules.custom(26, [1] * 50))  # 2**470 at most
    decision = bs.ExpertShooter(fleets=50).decide(observation, np.random.default_rng(1))
    assert decision.how == "rollouts"
    assert all(np.isfinite([w.shots, w.behind, w.stderr]).all() for w in decision.weighed)


def test_hint_of_another_shooter_is_its_choice_and_bad_marks_are_refused():
    observation = bs.Observation.from_marks(bs.Rules.classic(), hit=["E5"])
    parity = bs.hint(observation, "parity", np.random.default_rng(4))
    assert parity == bs.Decision(
        bs.get_shooter("parity").choose(observation, np.random.default_rng(4)), "choice"
    )
    assert bs.hint(observation) == bs.hint(observation)  # seeded with 0 by default
    with pytest.raises(bs.MarksError, match="no afloat ship can explain the hit at A1"):
        bs.hint(bs.Observation.from_marks(bs.Rules.custom(4, [2]), hit=["A1"], miss=["A2", "B1"]))


runner = CliRunner()


def test_the_command_line_prints_the_decision_as_the_library_makes_it():
    args = ["battleship", "hint", "--miss", "D4,E3", "--strategy", "expert(fleets=300)"]
    result = runner.invoke(app, [*args, "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    observation = bs.Observation.from_marks(bs.Rules.classic(), miss=["D4", "E3"])
    decision = bs.hint(observation, "expert(fleets=300)", np.random.default_rng(5))
    grid = observation.grid
    assert data["cell"] == grid.name(decision.cell) and data["how"] == "rollouts"
    assert [w["cell"] for w in data["weighed"]] == [grid.name(w.cell) for w in decision.weighed]
    assert data["strategy"] == "expert(fleets=300)" and data["seed"] == 5
    text = runner.invoke(app, [*args, "--seed", "5"]).stdout
    assert f"expert(fleets=300) fires {data['cell']} (rollouts)" in text
    assert "shots to finish (300 fleets)" in text


def test_the_command_line_shows_no_endgame_cell_that_no_layout_holds():
    args = ["battleship", "hint", "--size", "4", "--fleet", "2,2", "--hit", "A1", "--miss", "B1"]
    text = runner.invoke(app, [*args, "--afloat", "2"]).stdout
    assert text.endswith("expert fires A2 (endgame)\n  A2     1.000 shots to finish (1 layout)\n")
    data = json.loads(runner.invoke(app, [*args, "--afloat", "2", "--json"]).stdout)
    assert [w["cell"] for w in data["weighed"]] == ["A2"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sunk", "A1-A2", "--size", "4", "--fleet", "2"], "every ship is sunk"),
        (  # (the shooter chose no cell: it was told so, not that it "chose" the error)
            ["--sunk", "A1-A2", "--size", "4", "--fleet", "2", "--strategy", "exact"],
            "error: every ship is sunk",
        ),
        (["--hit", "A1", "--miss", "A2,B1", "--size", "4", "--fleet", "2"], "no afloat ship"),
        (["--strategy", "expert(fleets=0)"], "fleets must be a whole number of at least 1"),
        (["--seed", "-1"], "-1 is not 0 or more"),
    ],
)
def test_the_command_line_says_why_it_gives_no_hint(args, message):
    result = runner.invoke(app, ["battleship", "hint", *args])
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_each_weighed_cell_is_its_weighted_mean_and_paired_error(data):
    """``Weighed`` against the figures worked out fleet by fleet: the weighted mean of a
    cell's shots over the fleets it was rolled out on, and the mean and standard error of
    its weighted difference from the chosen cell on those fleets."""
    from hamle.battleship.strategies.expert_shooter import _weighed

    n, k = data.draw(st.integers(2, 12)), data.draw(st.integers(2, 4))
    shots = np.array(
        data.draw(st.lists(st.integers(1, 40), min_size=n * k, max_size=n * k)), float
    ).reshape(n, k)
    weights = np.array(data.draw(st.lists(st.floats(0.1, 10), min_size=n, max_size=n)))
    fleets_of = np.array([data.draw(st.integers(1, n)) for _ in range(k)])
    best = data.draw(st.integers(0, k - 1))
    fleets_of[best] = n  # (the chosen cell stays in the race to the end)
    cells = np.arange(100, 100 + k)
    rows = {row.cell: row for row in _weighed(cells, shots, weights, fleets_of, best)}
    for j in range(k):
        used = range(fleets_of[j])
        total = sum(weights[i] for i in used)
        mean = sum(weights[i] * shots[i, j] for i in used) / total
        gaps = [shots[i, j] - shots[i, best] for i in used]
        behind = sum(weights[i] * gaps[i] for i in used) / total
        spread = sum((weights[i] * (gaps[i] - behind)) ** 2 for i in used) ** 0.5 / total
        row = rows[100 + j]
        assert row.fleets == fleets_of[j]
        assert row.shots == pytest.approx(mean) and row.behind == pytest.approx(behind)
        assert row.stderr == pytest.approx(spread, abs=1e-12)
    assert next(iter(rows)) == 100 + best  # the chosen cell first


def test_weighed_figures_are_sums_rounded_once_whatever_their_order():
    """The figures are exact sums rounded once, so no order of adding (BLAS picks one by
    the machine) changes their last digits: the fleets taken in another order give the
    same figures to the last bit."""
    from hamle.battleship.strategies.expert_shooter import _weighed

    rng = np.random.default_rng(5)
    n = 4000
    shots = rng.integers(17, 100, (n, 3)).astype(float)
    weights = rng.random(n) * 10.0 ** rng.integers(-3, 4, n)
    fleets_of, cells = np.array([n, n, n]), np.array([7, 8, 9])
    mixed = rng.permutation(n)
    assert _weighed(cells, shots, weights, fleets_of, 0) == _weighed(
        cells, shots[mixed], weights[mixed], fleets_of, 0
    )
