"""Spec § 6: marks that contradict the rules get an error naming the cell or ship."""

import pytest

from hamle.battleship import MarksError, Observation, Rules, density

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
        ({"hit": ["?"]}, "is not a cell name"),
        ({"hit": [100]}, "off the 10×10 board"),
        ({"afloat": [5, 5]}, "afloat ship of length 5 is not in the fleet"),
        ({"sunk": [["A1", "A2"]], "afloat": [2]}, "afloat ship of length 2"),
        ({"hit": "E5"}, "expected a list of cells"),
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


def test_no_touch_contradictions_and_water():
    russian = Rules.russian()
    with pytest.raises(MarksError, match="B2 \\(hit\\) touches the sunk ship at A1"):
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
