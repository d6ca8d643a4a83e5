"""``bench/advantage.py``: the base saves nothing on itself, a random shooter loses shots."""

import pytest

import hamle.battleship as bs


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("advantage")


def test_the_base_differs_from_itself_nowhere(bench):
    row = bench.advantage("russian", bench.BASE, 3, 20)
    assert row["differing"] == {"hunt": 0, "targets": 0}
    assert row["saved"] == {"hunt": 0.0, "targets": 0.0}
    assert row["shots"] == bs.play_game(bs.Rules.russian(), bench.BASE, 3).shots_fired


def test_the_opening_is_measured_like_any_other_decision(bench):
    with_opening = bs.ExpertShooter(candidates=1, exact_targets=0)
    row = bench.advantage("russian", with_opening, 3, 20)
    assert row["differing"] == {"hunt": 1, "targets": 0}  # J3 where the base fires A1
    assert row["saved"]["hunt"] != 0.0


def test_two_measures_are_paired_by_game(bench):
    def measure(*saved):
        rows = [{"game": g, "saved": {"hunt": s, "targets": 0.5}} for g, s in enumerate(saved)]
        return {"per_game": rows}

    result = bench.fewer_shots(measure(1.0, 2.0, 4.0), measure(0.0, 1.0, 2.0))
    assert result["mean"] == pytest.approx(4 / 3, abs=1e-4)
    assert result["se"] == pytest.approx(1 / 3, abs=1e-4)
    with pytest.raises(ValueError, match="same games"):
        bench.fewer_shots(measure(1.0, 2.0), measure(1.0, 2.0, 3.0))


def test_a_random_shooter_loses_many_shots_on_the_base(bench):
    row = bench.advantage("classic", bs.get_shooter("random"), 5, 40)
    assert row["differing"]["hunt"] + row["differing"]["targets"] > 20
    assert row["saved"]["hunt"] + row["saved"]["targets"] < -20  # it needs ~95 shots, the base 44
    assert row == bench.advantage("classic", bs.get_shooter("random"), 5, 40)  # seeded


def test_fields_are_set_by_name_and_bad_ones_refused(bench):
    assert bench.shooter_of("expert", ["exact_targets=0", "fleets=10"]).fleets == 10
    for settings, message in (
        (["fleets"], "NAME=VALUE"),
        (["fleets=ten"], "not a JSON value"),
        (["fleets=-1"], "fleets must be a whole number"),
        (["wings=2"], "wings"),
    ):
        with pytest.raises(SystemExit, match=message):
            bench.shooter_of("expert", settings)


def test_an_unknown_shooter_is_refused_by_name(bench):
    with pytest.raises(SystemExit, match="unknown strategy 'sniper'"):
        bench.shooter_of("sniper", [])


def test_a_measure_sums_every_game(bench):
    shooter = bs.ExpertShooter(candidates=1, exact_targets=0)
    result = bench.measure("russian", shooter, [3, 4], 20, 1)
    rows = [bench.advantage("russian", shooter, game, 20) for game in (3, 4)]
    assert result["per_game"] == rows
    totals = [sum(row["saved"].values()) for row in rows]
    assert result["saved_on_base"]["all"]["mean"] == pytest.approx(sum(totals) / 2, abs=1e-4)
    assert result["shots"]["mean"] == sum(row["shots"] for row in rows) / 2


def test_along_its_own_games_a_fixed_shooter_measures_as_without_along(bench):
    with_opening = bs.ExpertShooter(candidates=1, exact_targets=0)
    own = bench.advantage("russian", with_opening, 3, 20)
    assert bench.advantage("russian", with_opening, 3, 20, along=with_opening) == own


def test_along_the_base_its_games_are_played_and_the_shooter_asked_at_each(bench):
    shooter = bs.get_shooter("random")
    row = bench.advantage("classic", shooter, 5, 40, along=bench.BASE)
    assert row["shots"] == bs.play_game(bs.Rules.classic(), bench.BASE, 5).shots_fired
    assert sum(row["differing"].values()) > 0.8 * row["shots"]
    assert sum(row["saved"].values()) < -row["shots"] / 4  # every random pick loses on the base
    assert row == bench.advantage("classic", shooter, 5, 40, along=bench.BASE)  # seeded
    itself = bench.advantage("classic", bench.BASE, 5, 40, along=bench.BASE)
    assert itself["differing"] == {"hunt": 0, "targets": 0}
