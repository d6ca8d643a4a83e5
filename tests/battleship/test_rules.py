import numpy as np
import pytest

from hamle.battleship import Fleet, Ocean, Rules, RulesError, ShotError, placements, random_fleet
from hamle.battleship.rules import Ship, segment, zone


def test_classic_and_russian_presets():
    classic, russian = Rules.classic(), Rules.russian()
    assert classic.lengths == (5, 4, 3, 3, 2) and classic.ship_cells == 17 and classic.touching
    assert russian.lengths == (4, 3, 3, 2, 2, 2, 1, 1, 1, 1) and not russian.touching
    assert Rules.named("russian") == russian
    with pytest.raises(RulesError, match="unknown rules 'dutch'"):
        Rules.named("dutch")


@pytest.mark.parametrize("n", [1, 4, 10, 13])
@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_placement_formula(n, length):
    if length > n:
        return
    expected = n * n if length == 1 else 2 * n * (n - length + 1)
    table = placements(Rules.custom(n, [length]), length)
    assert len(table) == expected
    assert len({tuple(sorted(p)) for p in table.tolist()}) == expected


def test_rectangular_placements():
    assert len(placements(Rules.custom((3, 5), [4]), 4)) == 3 * 2 + 0


@pytest.mark.parametrize(
    ("size", "fleet", "message"),
    [
        (10, [11], "1 to 10 cells"),
        (10, [0], "1 to 10 cells"),
        (3, [3, 3, 3, 3], "12 cells but the board only 9"),
        (27, [2], "1 to 26"),
        (10, [], "at least one ship"),
        (10, ["3"], "whole number"),
    ],
)
def test_bad_rules_are_explained(size, fleet, message):
    with pytest.raises(RulesError, match=message):
        Rules.custom(size, fleet)


def test_rules_take_a_fleet_of_lengths_directly():
    assert Rules(10, 10, [5, 4, 3, 3, 2, 1, 1]) == Rules.custom(10, (5, 4, 3, 3, 2, 1, 1))
    assert Rules(10, 10, [5, 4], True).lengths == (5, 4)
    assert hash(Rules(6, 6, [3, 2])) == hash(Rules.custom(6, [3, 2]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((10, 10, 5), "a fleet is a sequence of ship lengths"),
        ((10, 10, "54"), "a fleet is a sequence of ship lengths"),
        ((10, 10, [5, None]), "a ship length is a whole number, not None"),
        ((10, 10, [Ship("Raft", True)]), "Raft: a ship length is a whole number, not True"),
        ((10, 10, [5, 4], "yes"), "touching is True or False"),
        ((6, 6, [Ship(" ", 3)]), "a ship's name may not be blank"),
        ((6, 6, [Ship("Raft", 3), Ship("Raft", 2)]), "two ships are named 'Raft'"),
    ],
)
def test_bad_rules_made_directly_are_explained(args, message):
    with pytest.raises(RulesError, match=message):
        Rules(*args)


def test_random_fleet_takes_a_seed_or_a_generator_and_nothing_else():
    rules = Rules.classic()
    assert random_fleet(rules, 5) == random_fleet(rules, np.random.default_rng(5))
    for rng in (-1, "5", 2.5, None):
        with pytest.raises(RulesError, match="numpy Generator or a seed"):
            random_fleet(rules, rng)
    with pytest.raises(RulesError, match="expected Rules"):
        random_fleet("classic", 5)


def test_zone_and_segment():
    russian = Rules.russian()
    assert zone(russian, [44]) == frozenset({33, 34, 35, 43, 44, 45, 53, 54, 55})
    assert zone(Rules.classic(), [44]) == frozenset({44})
    assert segment(russian, [45, 44, 46]) == (44, 45, 46)
    with pytest.raises(RulesError, match="A1,C1 is not a straight unbroken line"):
        segment(russian, [0, 2])


def test_fleet_from_cells_checks_overlap_and_touch():
    rules = Rules.custom(5, [3, 2], touching=False)
    with pytest.raises(RulesError, match="touch at"):
        Fleet.from_cells(rules, [["A1", "A2", "A3"], ["B4", "C4"]])
    with pytest.raises(RulesError, match="overlap at A2"):
        Fleet.from_cells(Rules.custom(5, [3, 2]), [["A1", "A2", "A3"], ["A2", "B2"]])
    with pytest.raises(RulesError, match="is 2 cells long, not 3"):
        Fleet.from_cells(rules, [["A1", "A2", "A3"], ["C1", "D1", "E1"]])
    with pytest.raises(RulesError, match="off the 5×5 board"):
        Fleet.from_cells(rules, [["A1", "A2", "A3"], ["F1", "G1"]])
    with pytest.raises(RulesError, match="has 2 ships, 1 was given"):
        Fleet.from_cells(rules, [["A1", "A2", "A3"]])


def test_ocean_answers_and_refuses_bad_shots():
    rules = Rules.custom(4, [2, 1])
    ocean = Ocean(Fleet.from_cells(rules, [["A1", "B1"], ["D4"]]))
    assert ocean.fire(0).answer == "hit"
    with pytest.raises(ShotError, match="A1 has already been shot"):
        ocean.fire(0)
    with pytest.raises(ShotError, match="off the 4×4 board"):
        ocean.fire(16)
    assert ocean.fire(5).answer == "miss"
    shot = ocean.fire(1)
    assert (shot.answer, shot.ship_cells) == ("sunk", (0, 1))
    assert ocean.observation.afloat == (1,)
    assert ocean.fire(15).answer == "sunk" and ocean.over
    with pytest.raises(ShotError, match="game is over"):
        ocean.fire(2)


def test_no_touch_reveals_water_around_sunk_ship():
    rules = Rules.custom(4, [1], touching=False)
    ocean = Ocean(Fleet.from_cells(rules, [["B2"]]))
    ocean.fire(5)
    marks = ocean.observation.marks.reshape(4, 4)
    assert marks[1, 1] == 3
    assert (marks[0:3, 0:3].sum() - 3) == 4 * 8  # its eight neighbours are water (4)


def test_known_water_names_the_sunk_ship_it_touches_whole():
    # D3 touches C3, the end of A3-C3: "the sunk ship at A3" sent the player to A3.
    rules = Rules.custom(5, [3, 2], touching=False)
    ocean = Ocean(Fleet.from_cells(rules, [["A3", "B3", "C3"], ["E5", "E4"]]))
    for cell in ("A3", "B3", "C3"):
        ocean.fire(rules.grid.index(cell))
    with pytest.raises(ShotError, match=r"^D3 touches the sunk ship A3–C3, so it is water"):
        ocean.fire(rules.grid.index("D3"))


def test_ocean_refuses_known_water_and_spends_no_turn():
    rules = Rules.custom(4, [1, 1], touching=False)
    ocean = Ocean(Fleet.from_cells(rules, [["B2"], ["D4"]]))
    assert ocean.fire(5).answer == "sunk"
    before = ocean.observation
    with pytest.raises(ShotError, match="A1 touches the sunk ship B2, so it is water") as error:
        ocean.fire(0)
    assert error.value.code == "battleship.known_water"
    assert error.value.params == {"cell": "A1", "ship": "B2"}
    assert ocean.observation is before and not ocean.over
    # A shot stored before water was refused is replayed as the miss it was answered.
    assert ocean.fire(0, stored=True).answer == "miss"
    assert ocean.observation.marks[0] == 1 and ocean.fire(15).answer == "sunk" and ocean.over


@pytest.mark.parametrize(
    ("ships", "message"),
    [
        (None, "a fleet is a list of ships, each a list of cells, not None"),
        ("A1", "a fleet is a list of ships, each a list of cells, not 'A1'"),
        ([[0.7, 1.2], [4.9]], "2-cell ship 1: 0.7 is not a cell"),
        ([[0, 1], [4.0]], "1-cell ship 1: 4.0 is not a cell"),
        ([[False, True], [8]], "2-cell ship 1: False is not a cell"),
        ([[0, 1], [None]], "1-cell ship 1: None is not a cell"),
        ([None, [8]], "2-cell ship 1: expected a list of cells, not None"),
        (["A1A2", [8]], "2-cell ship 1: expected a list of cells, got the text 'A1A2'"),
    ],
)
def test_fleet_from_cells_names_what_is_not_a_cell(ships, message):
    with pytest.raises(RulesError, match=message):
        Fleet.from_cells(Rules.custom(4, [2, 1]), ships)


def test_fleet_from_cells_takes_numpy_integers_and_checks_its_rules():
    rules = Rules.custom(4, [2, 1])
    fleet = Fleet.from_cells(rules, [np.array([0, 1]), [np.int32(15)]])
    assert fleet == Fleet.from_cells(rules, [["A1", "B1"], ["D4"]])
    assert all(type(cell) is int for ship in fleet.ships for cell in ship)
    with pytest.raises(RulesError, match="expected Rules"):
        Fleet.from_cells("classic", [["A1"]])


def test_rules_and_placements_take_numpy_integers_and_name_wrong_types():
    rules = Rules(np.int64(5), np.int32(6), [2])
    assert (rules.rows, rules.cols) == (5, 6) and type(rules.rows) is int
    assert rules == Rules(5, 6, [2]) and rules.grid.size == 30
    assert len(placements(rules, np.int64(2))) == 5 * 5 + 4 * 6
    for args, message in (
        (("classic", 5), "expected Rules"),
        ((rules, 2.0), "a ship length is a whole number, not 2.0"),
        ((rules, True), "a ship length is a whole number, not True"),
        ((rules, 0), "a ship length is at least 1, not 0"),
    ):
        with pytest.raises(RulesError, match=message):
            placements(*args)
    with pytest.raises(RulesError, match=r"1 to 26 rows, not np\.True_"):
        Rules(np.True_, 5, [2])


def test_a_ship_named_by_something_not_text_is_named_by_its_quote():
    assert [s.name for s in Rules(6, 6, [Ship(["x"], 3), 2]).fleet] == ["['x']", "2-cell ship 1"]


def test_a_fleet_listed_in_another_order_plays_the_same_game():
    """Stored openings and the mixed placer's tuned weights are kept by the game, so they
    hold whatever order the ships are listed in."""
    import hamle.battleship as bs
    from hamle.battleship.placers import mixture_weights

    for preset in (Rules.classic(), Rules.russian()):
        backwards = Rules.custom(10, preset.lengths[::-1], preset.touching)
        assert backwards.describe() != preset.describe() and backwards.game == preset.game
        assert (
            mixture_weights(backwards)
            == mixture_weights(preset)
            != mixture_weights(Rules.custom(10, [4, 3], preset.touching))
        )
        first = bs.ExpertShooter().decide(bs.Observation.start(backwards), np.random.default_rng(1))
        assert first.how == "opening"
