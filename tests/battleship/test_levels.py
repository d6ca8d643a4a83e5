import pytest

import hamle.battleship as bs


def test_the_expert_level_plays_the_budgeted_expert_wherever_ships_may_not_touch():
    apart = bs.Rules.custom(size=7, fleet=[3, 2, 2], touching=False)
    budgeted = bs.level_shooter("expert", bs.Rules.russian())
    assert budgeted.budget == 600_000 and budgeted.fleets == 2000
    assert bs.level_shooter("Expert", apart) is budgeted
    assert bs.level_shooter("expert", bs.Rules.custom(size=7, fleet=[3, 2, 2])).name == "expert"


@pytest.mark.parametrize(("level", "placer"), [("easy", "uniform"), (" HARD ", "anti-density")])
def test_levels_are_read_in_any_case(level, placer):
    assert bs.level_placer(level, bs.Rules.classic()).name == placer


@pytest.mark.parametrize("level", ["density", "", None, 3])
def test_a_level_that_is_not_one_is_refused_naming_it(level):
    with pytest.raises(bs.BattleshipError, match=r"unknown level .*easy, normal, hard, expert"):
        bs.level_shooter(level, bs.Rules.classic())
    with pytest.raises(bs.BattleshipError, match="unknown level"):
        bs.level_placer(level, bs.Rules.classic())
