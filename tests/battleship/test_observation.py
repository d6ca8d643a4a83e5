"""Spec § 6: marks that contradict the rules get an error naming the cell or ship."""

import numpy as np
import pytest

from hamle.battleship import (
    BattleshipError,
    MarksError,
    Observation,
    Rules,
    RulesError,
    ShotError,
    chart,
    count_fleets,
    density,
    exact,
    layouts,
    sample,
    simulate,
    weight,
)
from hamle.battleship.fleet import Ocean, random_fleet
from hamle.battleship.observation import SunkShip

CLASSIC = Rules.classic()


@pytest.mark.parametrize(
    ("marks", "message"),
    [
        ({"sunk": [["A1", "A2"], ["A2", "B2"]]}, "two sunk ships overlap at A2"),
        ({"sunk": [["A1", "A2", "A3", "A4", "A5", "A6"]]}, "length 6; no ship in the fleet"),
        ({"sunk": [["A1", "A2"], ["C1", "C2"]]}, "too many sunk ships of length 2"),
        ({"sunk": [["A1", "B2"]]}, "not a straight unbroken line"),
        ({"miss": ["K1"]}, "K1 is off the 10×10 board"),
        ({"hit": ["E5"], "miss": ["E5"]}, "E5 is marked twice"),
        ({"miss": ["A1"], "sunk": [["A1", "A2"]]}, "A1 is marked twice"),
        ({"hit": ["E5", "e5"]}, "E5 is given twice as a hit"),
        ({"hit": ["?"]}, "is not a cell name"),
        ({"hit": [100]}, "off the 10×10 board"),
        ({"afloat": [5, 5]}, "afloat ship of length 5 is not in the fleet"),
        ({"sunk": [["A1", "A2"]], "afloat": [2]}, "afloat ship of length 2"),
        ({"hit": "E5"}, "expected a list of cells"),
        ({"miss": b"A1"}, "expected a list of cells, got the text b'A1'"),
        ({"miss": None}, "expected a list of cells, not None"),
        ({"sunk": [5]}, "expected a list of cells, not 5"),
        ({"afloat": 5}, "afloat is a list of ship lengths, not 5"),
        ({"miss": [1.0]}, "1.0 is not a cell"),
        ({"hit": [None]}, "None is not a cell"),
        ({"miss": [True]}, "True is not a cell"),
    ],
)
def test_contradictory_marks(marks, message):
    with pytest.raises(MarksError, match=message):
        Observation.from_marks(CLASSIC, **marks)


@pytest.mark.parametrize(
    ("marks", "message"),
    [
        ({"hit": ["A1"], "miss": ["A2", "B1"]}, "no afloat ship can explain the hit at A1"),
        ({"hit": ["A1"], "afloat": []}, "no ship is afloat to explain"),
        (
            {"hit": ["A1", "B1", "C1"], "afloat": [2]},
            "3 open hits, but the afloat ships have only 2",
        ),
        ({"hit": ["A1", "C1"], "miss": ["B1", "A2", "C2"], "afloat": [2]}, "explain the hit at"),
        ({"miss": [i for i in range(100) if (i // 10 + i % 10) % 5 == 4]}, "5-cell ship"),
    ],
)
def test_marks_no_fleet_can_explain(marks, message):
    with pytest.raises(MarksError, match=message):
        density(Observation.from_marks(CLASSIC, **marks))


def test_weight_takes_numpy_lengths():
    assert weight(np.array([5, 4, 3, 3, 2])) == weight((5, 4, 3, 3, 2)) == 35
    assert type(weight(np.array([2]))) is int


def test_a_hit_on_a_one_cell_board_is_named_as_on_a_larger_one():
    for size in (1, 3):
        rules = Rules.custom(size, [1])
        marks = {"hit": ["A1"], "miss": ["A2", "B1"] if size > 1 else []}
        with pytest.raises(MarksError, match="no afloat ship can explain the hit at A1") as error:
            density(Observation.from_marks(rules, **marks))
        assert error.value.code == "battleship.hit_unexplained"


@pytest.mark.parametrize(
    ("hits", "named"),
    [
        (["A1", "B2"], ("A1", "B2")),
        (["E5", "D6", "F5"], ("E5", "D6")),
        (["J9", "I10"], ("J9", "I10")),
    ],
)
def test_open_hits_touching_at_a_corner_are_named_where_ships_may_not_touch(hits, named):
    obs = Observation.from_marks(Rules.russian(), hit=hits)
    message = f"the open hits {named[0]} and {named[1]} touch only at a corner"
    with pytest.raises(MarksError, match=message) as error:
        density(obs)
    assert error.value.code == "battleship.hits_touch_corner"
    assert error.value.params == {"cell": named[0], "other": named[1]}
    with pytest.raises(MarksError, match=message):
        exact(obs)
    assert density(obs, check=False) is not None  # (what the shooters read)
    assert density(Observation.from_marks(CLASSIC, hit=hits)).best  # ships may touch there


def test_no_touch_contradictions_and_water():
    russian = Rules.russian()
    with pytest.raises(MarksError, match="B2 \\(hit\\) touches the sunk ship A1,"):
        Observation.from_marks(russian, sunk=[["A1"]], hit=["B2"])
    with pytest.raises(MarksError, match="touches the sunk ship"):
        Observation.from_marks(russian, sunk=[["A1"], ["B2"]])
    obs = Observation.from_marks(russian, sunk=[["E5", "F5"]])
    water = {obs.grid.name(int(c)) for c in (obs.marks == 4).nonzero()[0]}
    assert water == {"D4", "E4", "F4", "G4", "D5", "G5", "D6", "E6", "F6", "G6"}
    assert obs.afloat == (4, 3, 3, 2, 2, 1, 1, 1, 1)


def test_sunk_ships_leave_the_afloat_list_and_lower_w():
    obs = Observation.from_marks(CLASSIC, sunk=[["A1", "A2"]], hit=["E5"])
    report = density(obs)
    assert obs.afloat == (5, 4, 3, 3)
    assert report.w == 31
    assert report.at("A3") > 0 and report.at("A1") == 0


def test_observation_is_immutable():
    obs = Observation.start(CLASSIC)
    with pytest.raises(ValueError, match="read-only"):
        obs.marks[0] = 1
    after = obs.after(0, "miss")
    assert obs.marks[0] == 0 and after.marks[0] == 1


def test_numpy_lengths_are_lengths():
    obs = Observation.from_marks(CLASSIC, afloat=[np.int64(5), np.int32(2)])
    assert obs.afloat == (5, 2) and all(type(n) is int for n in obs.afloat)


@pytest.mark.parametrize(
    ("shot", "message"),
    [
        (lambda obs: obs.after(-1, "miss"), "cell index -1 is off the 10×10 board"),
        (lambda obs: obs.after(100, "hit"), "cell index 100 is off"),
        (lambda obs: obs.after(0, "boom"), "unknown answer 'boom' for A1"),
        (lambda obs: obs.after(0, "sunk", (1, 2)), "unknown answer sunk"),
        (lambda obs: obs.after(0, "sunk", (0,)), "length 1; no ship in the fleet"),
        (lambda obs: obs.after(0, "sunk", (0, 55)), "not a straight unbroken line"),
        (
            lambda obs: obs.after(1, "hit").after(0, "sunk", (0, 1)).after(10, "sunk", (10, 11)),
            "the sunk ship A2,B2 \\(2 cells\\) is not one of the ships afloat",
        ),
    ],
)
def test_a_shot_answer_that_cannot_be_is_refused(shot, message):
    with pytest.raises(MarksError, match=message):
        shot(Observation.start(CLASSIC))


RUSSIAN = Rules.russian()


@pytest.mark.parametrize(
    ("rules", "shots", "code", "message"),
    [
        # Two sunk 1-cell boats touching diagonally, which from_marks refuses too.
        (
            RUSSIAN,
            [(0, "sunk", (0,)), (11, "sunk", (11,))],
            "touches_sunk",
            "B2 \\(sunk\\) touches",
        ),
        (RUSSIAN, [(0, "sunk", (0,)), (11, "hit")], "touches_sunk", "B2 \\(hit\\) touches"),
        (RUSSIAN, [(1, "hit"), (0, "sunk", (0,))], "touches_sunk", "B1 \\(hit\\) touches .* A1"),
        (
            CLASSIC,
            [(0, "miss"), (0, "hit")],
            "marked_twice",
            "A1 is marked twice \\(miss and hit\\)",
        ),
        (
            CLASSIC,
            [(0, "hit"), (0, "miss")],
            "marked_twice",
            "A1 is marked twice \\(hit and miss\\)",
        ),
        (CLASSIC, [(0, "miss"), (0, "miss")], "given_twice", "A1 is given twice as a miss"),
        (CLASSIC, [(0, "hit"), (0, "hit")], "given_twice", "A1 is given twice as a hit"),
        (CLASSIC, [(0, "miss"), (1, "sunk", (0, 1))], "marked_twice", "A1 .*\\(miss and sunk\\)"),
        (CLASSIC, [(1, "sunk", (0, 1))], "sunk_not_hit", "A1,B1 covers A1, which was never hit"),
        (CLASSIC, [(0, "hit"), (0, "sunk", (0, 1))], "marked_twice", "A1 is marked twice"),
        (
            CLASSIC,
            [(1, "hit"), (0, "sunk", (0, 1)), (2, "hit"), (3, "sunk", (1, 2, 3))],
            "sunk_overlap",
            "two sunk ships overlap at B1",
        ),
        (Rules.custom(3, [1]), [(0, "sunk", (0,)), (4, "hit")], "hit_none_afloat", "hit at B2"),
    ],
)
def test_a_shot_answer_the_board_contradicts_is_refused(rules, shots, code, message):
    obs = Observation.start(rules)
    *before, last = shots
    for shot in before:
        obs = obs.after(*shot)
    with pytest.raises(MarksError, match=message) as raised:
        obs.after(*last)
    assert raised.value.code == f"battleship.{code}"


def test_a_contradiction_after_refuses_is_one_from_marks_refuses_too():
    with pytest.raises(MarksError, match="B2 \\(sunk\\) touches the sunk ship A1,") as marked:
        Observation.from_marks(RUSSIAN, sunk=[["A1"], ["B2"]])
    with pytest.raises(MarksError) as shot:
        Observation.start(RUSSIAN).after(0, "sunk", (0,)).after(11, "sunk", (11,))
    assert shot.value.code == marked.value.code


def test_water_beside_a_sunk_ship_may_still_be_missed():
    obs = Observation.start(RUSSIAN).after(0, "sunk", (0,)).after(11, "miss")
    assert obs.marks[11] == 1 and obs.afloat == RUSSIAN.lengths[:-1]


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        (
            {"marks": np.zeros(50, np.uint8)},
            "uint8 array of the board's 100 cells, not uint8 \\(50,\\)",
        ),
        ({"marks": np.zeros(100, np.int64)}, "not int64 \\(100,\\)"),
        ({"marks": [0] * 100}, "not \\[0, 0"),
        ({"marks": np.full(100, 9, np.uint8)}, "marks are 0..4"),
        ({"afloat": (5, 4, 3, 3, 7)}, "afloat ship of length 7 is not in the fleet"),
        ({"afloat": (5, 5)}, "afloat ship of length 5 is not in the fleet"),
        ({"afloat": (2,), "sunk": (SunkShip(2, (0, 1)),)}, "afloat ship of length 2"),
        ({"sunk": ((0, 1),)}, "sunk is a tuple of SunkShip"),
        ({"rules": "classic"}, "expected Rules"),
    ],
)
def test_an_observation_built_directly_is_checked(parts, message):
    given = {"rules": CLASSIC, "marks": np.zeros(100, np.uint8), "sunk": (), "afloat": (5, 4)}
    with pytest.raises(BattleshipError, match=message):
        Observation(**{**given, **parts})


def test_a_shot_at_a_bool_or_off_the_board_is_refused():
    ocean = Ocean(random_fleet(CLASSIC, np.random.default_rng(1)))
    with pytest.raises(ShotError, match="True is not a cell index"):
        ocean.fire(True)
    with pytest.raises(ShotError, match="cell 100 is off the 10×10 board"):
        ocean.fire(100)
    assert ocean.fire(np.int64(0)).cell == 0


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: Observation.from_marks("classic"), RulesError, "expected Rules"),
        (lambda: count_fleets("classic"), RulesError, "expected Rules"),
        (lambda: density(None), MarksError, "expected an Observation"),
        (lambda: exact("x"), MarksError, "expected an Observation"),
        (lambda: sample([], 1, np.random.default_rng()), MarksError, "expected an Observation"),
        (lambda: Rules.custom("10", [2]), RulesError, "a board size is a whole number"),
        (lambda: Rules.custom(10.0, [2]), RulesError, "a board size is a whole number"),
        (lambda: Rules.custom((1, 2, 3), [2]), RulesError, "or \\(rows, cols\\)"),
        (lambda: Rules.named(None), RulesError, "unknown rules None"),
        (
            lambda: weight(Observation.start(CLASSIC)),
            MarksError,
            "weight takes the afloat lengths, like weight\\(observation.afloat\\)",
        ),
        (lambda: weight([5, -100]), MarksError, "at least 1, not -100"),
        (lambda: weight([5, 2.5]), MarksError, "a ship length is a whole number .*not 2.5"),
        (lambda: weight([True]), MarksError, "a ship length is a whole number .*not True"),
        (lambda: weight(None), MarksError, "afloat is a list of ship lengths, not None"),
        (lambda: layouts("classic"), RulesError, "expected Rules .*not 'classic'"),
        (lambda: layouts([5]), RulesError, "expected Rules .*not \\[5\\]"),
        (lambda: chart(None, "x.png"), BattleshipError, "chart takes the table simulate"),
        (lambda: chart(simulate(CLASSIC, "parity", 2), None), BattleshipError, "a file name"),
    ],
)
def test_the_wrong_kind_of_argument_is_named(call, error, message):
    with pytest.raises(error, match=message):
        call()
    assert issubclass(error, BattleshipError)


def test_rules_names_and_sizes_in_any_plain_form():
    assert Rules.named(" Classic ") == CLASSIC and Rules.named("RUSSIAN") == Rules.russian()
    assert Rules.custom(np.int64(6), [2]) == Rules.custom(6, [2]) == Rules.custom([6, 6], [2])


def test_a_hit_on_water_marked_by_hand_is_refused():
    marks = np.zeros(100, np.uint8)
    marks[0] = 4
    obs = Observation(CLASSIC, marks, (), CLASSIC.lengths)
    with pytest.raises(MarksError, match="A1 is water, so it cannot be a hit"):
        obs.after(0, "hit")
    assert obs.after(0, "miss").marks[0] == 1


@pytest.mark.parametrize("rules", [Rules.classic(), Rules.russian()])
def test_as_dict_gives_the_marks_back_as_from_marks_takes_them(rules):
    given = {"miss": ["B1", "A9"], "hit": ["E5"], "sunk": [["J1", "J2"]], "afloat": [4, 3, 3]}
    if not rules.touching:
        given["afloat"] = [4, 3, 3, 2, 1]
    observation = Observation.from_marks(rules, **given)
    assert observation.as_dict() == given  # (no water beside the sunk ship among the misses)
    again = Observation.from_marks(rules, **observation.as_dict())
    assert (again.marks == observation.marks).all() and again.sunk == observation.sunk
