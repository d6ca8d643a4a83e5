"""Library arguments a hostile caller may give: each is refused with an error naming it
(the type and message a user of the library acts on), never answered for another cell or
with Python's own TypeError, StopIteration or integer-to-text ValueError."""

import numpy as np
import pytest

import hamle.battleship as bs
from hamle.battleship import BattleshipError, MarksError, RulesError, ShotError
from hamle.grid import CellError, Grid, quoted

CLASSIC = bs.Rules.classic()
RUSSIAN = bs.Rules.russian()
HUGE = 10**5000
SAID = "a number of 5,001 digits"
FLEET = [["A1", "B1", "C1", "D1", "E1"], ["A3", "A4", "A5", "A6"], ["C3", "D3", "E3"]]
FLEET += [["J8", "J9", "J10"], ["F10", "G10"]]


@pytest.fixture(scope="module")
def maps():
    obs = bs.Observation.from_marks(CLASSIC, hit=["E5"])
    small = bs.Observation.from_marks(bs.Rules.custom(4, [2, 1]), hit=["B2"], miss=["A1"])
    report = bs.exact(small)
    return {"at": bs.density(obs).at, "exact at": report.at, "probability": report.probability}


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (-1, "cell index -1 is off the 10×10 board"),
        (100, "cell index 100 is off the 10×10 board"),
        (True, "True is not a cell \\(a name like E5, or a whole-number index\\)"),
        (1.5, "1.5 is not a cell \\(a name like E5, or a whole-number index\\)"),
        (None, "None is not a cell"),
        ("K1", "K1 is off the 10×10 board"),
    ],
)
def test_a_density_map_reads_only_a_cell_of_its_board(maps, cell, message):
    with pytest.raises(CellError, match=rf"^{message}"):
        maps["at"](cell)


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (-1, "cell index -1 is off the 4×4 board"),
        (16, "cell index 16 is off the 4×4 board"),
        (True, "True is not a cell \\(a name like E5, or a whole-number index\\)"),
        (np.True_, "np.True_ is not a cell"),
        (1.5, "1.5 is not a cell"),
        pytest.param(HUGE, f"cell index {SAID} is off the 4×4 board", id="huge"),
    ],
)
@pytest.mark.parametrize("read", ["exact at", "probability"])
def test_an_exact_map_reads_only_a_cell_of_its_board(maps, read, cell, message):
    with pytest.raises(CellError, match=rf"^{message}"):
        maps[read](cell)


def test_maps_read_cells_by_name_or_any_integer_index(maps):
    assert maps["at"](np.int64(44)) == maps["at"]("E5") == maps["at"](44)
    assert maps["exact at"](np.int32(15)) == maps["exact at"]("D4") == maps["exact at"](15)
    assert maps["probability"](np.uint8(5)) == maps["probability"]("b2") == 1


@pytest.mark.parametrize(
    ("ships", "message"),
    [
        (
            ((0, 1, 2, 3, 4), (0, 10, 20, 30), (50, 51, 52), (60, 61, 62), (80, 81)),
            r"^Carrier and Battleship overlap at A1$",
        ),
        (((0, 1, 2, 3, 4),), r"^the fleet has 5 ships, 1 was given$"),
        (
            ((0, 1, 2, 3, 4), (20, 30, 40, 50), (7, 8, 9), (60, 61, 62), (81, 99)),
            r"^Destroyer: B9,J10 is not a straight unbroken line of cells$",
        ),
        (
            ((0, 1, 2, 3, 4), (20, 30, 40, 50), (7, 8, 9), (60, 61, 62), (80,)),
            r"^Destroyer is 2 cells long, not 1$",
        ),
        (
            ((0, 1, 2, 3, 4), (20, 30, 40, 50), (7, 8, 9), (60, 61, 62), (99, 100)),
            r"^Destroyer: cell index 100 is off the 10×10 board$",
        ),
        ("ships", r"^a fleet is a list of ships, each a list of cells, not 'ships'$"),
    ],
)
def test_a_fleet_built_directly_is_checked_as_from_cells_checks_it(ships, message):
    with pytest.raises(RulesError, match=message):
        bs.Fleet(CLASSIC, ships)
    with pytest.raises(RulesError, match=message):
        bs.Fleet.from_cells(CLASSIC, ships)


def test_a_fleet_built_directly_is_the_fleet_from_cells_gives():
    fleet = bs.Fleet.from_cells(CLASSIC, FLEET)
    assert bs.Fleet(CLASSIC, fleet.ships) == fleet
    assert bs.Fleet(CLASSIC, [list(reversed(s)) for s in fleet.ships]).ships == fleet.ships
    with pytest.raises(RulesError, match=r"^Battleship and Cruiser 1 touch at B2$"):
        bs.Fleet(RUSSIAN, ((0, 10, 20, 30), (11, 12, 13), *bs.random_fleet(RUSSIAN, 1).ships[2:]))
    with pytest.raises(RulesError, match=r"^expected Rules"):
        bs.Fleet("classic", fleet.ships)
    with pytest.raises(RulesError, match=r"^expected Rules .*, not None$"):
        bs.Observation.start(None)


def test_a_random_fleet_is_unchanged_and_legal():
    fleet = bs.random_fleet(CLASSIC, 743)
    assert bs.Fleet(CLASSIC, fleet.ships) == fleet
    fleet.check()


def marks_of(*sunk: int, water=()) -> np.ndarray:
    marks = np.zeros(100, np.uint8)
    marks[list(sunk)] = 3
    marks[list(water)] = 4
    return marks


@pytest.mark.parametrize("length", [5.0, "5", None, True])
def test_an_afloat_length_that_is_not_whole_is_said_to_be_so(length):
    said = r"^an afloat ship's length is written as a whole number, like 5, not "
    with pytest.raises(MarksError, match=said) as e:
        bs.Observation.from_marks(CLASSIC, afloat=[length])
    assert e.value.code == "battleship.afloat_not_whole"


@pytest.mark.parametrize(
    ("rules", "marks", "sunk", "afloat", "message"),
    [
        (
            CLASSIC,
            marks_of(),
            [(2, (0, 1))],
            (5, 4, 3, 3),
            r"^the sunk ship A1,B1 covers A1, which is not marked sunk$",
        ),
        (
            CLASSIC,
            marks_of(0, 55),
            [(2, (0, 55))],
            (5, 4, 3, 3),
            r"^sunk ship: A1,F6 is not a straight unbroken line of cells$",
        ),
        (
            CLASSIC,
            marks_of(0, 1),
            [(2, (0, 100))],
            (5, 4, 3, 3),
            r"^cell index 100 is off the 10×10 board$",
        ),
        (
            CLASSIC,
            marks_of(0, 1, 2, 3, 4, 5),
            [(6, (0, 1, 2, 3, 4, 5))],
            (),
            r"^sunk ship A1,B1,C1,D1,E1,F1 has length 6; no ship in the fleet has it$",
        ),
        (
            CLASSIC,
            marks_of(0, 1, 10),
            [(2, (0, 1)), (2, (0, 10))],
            (5, 4, 3, 3),
            r"^two sunk ships overlap at A1$",
        ),
        (
            CLASSIC,
            marks_of(0, 1, 20, 21),
            [(2, (0, 1)), (2, (20, 21))],
            (),
            r"^too many sunk ships of length 2 \(at A3\): the fleet has 1$",
        ),
        (
            CLASSIC,
            marks_of(0, 1),
            [(2, (0, 1))],
            (5, 4, 3, 3, 2),
            r"^an afloat ship of length 2 is not in the fleet once the sunk ships are taken out$",
        ),
        (
            CLASSIC,
            marks_of(0, 1, 9),
            [(2, (0, 1))],
            (5, 4, 3, 3),
            r"^J1 is marked sunk, but no sunk ship covers it$",
        ),
        (
            RUSSIAN,
            marks_of(0, water=(10, 11)),
            [(1, (0,))],
            (4, 3, 3),
            r"^B1 touches the sunk ship A1, so it is water, not unknown \(ships may not",
        ),
        (
            RUSSIAN,
            marks_of(0, 1, water=(10, 11, 12, 2)),
            [(1, (0,)), (1, (1,))],
            (4, 3, 3),
            r"^B1 \(sunk\) touches the sunk ship A1, but ships may not touch$",
        ),
    ],
)
def test_an_observation_built_directly_checks_its_sunk_ships(rules, marks, sunk, afloat, message):
    ships = tuple(bs.SunkShip(length, cells) for length, cells in sunk)
    with pytest.raises(MarksError, match=message):
        bs.Observation(rules, marks, ships, afloat)


def test_an_observation_built_directly_from_consistent_parts_is_taken():
    given = bs.Observation.from_marks(RUSSIAN, sunk=[["A1", "B1"]], hit=["E5"], miss=["C2"])
    again = bs.Observation(RUSSIAN, given.marks, list(given.sunk), list(given.afloat))
    assert (again.sunk, again.afloat) == (given.sunk, given.afloat)
    assert bs.density(again).at("E4") == bs.density(given).at("E4")


@pytest.mark.parametrize(
    ("length", "cells", "message"),
    [
        (3, (0, 1), r"^a sunk ship of length 3 covers 3 cells, not the 2 given$"),
        ("x", "y", r"^a sunk ship's length is a whole number from 1 to 26 .*, not 'x'$"),
        (0, (), r"^a sunk ship's length is a whole number from 1 to 26 .*, not 0$"),
        (True, (0,), r"^a sunk ship's length is .*, not True$"),
        (27, (0,), r"^a sunk ship's length is .*, not 27$"),
        (2, "AB", r"^expected a list of cells, got the text 'AB'$"),
        (2, 5, r"^expected a list of cells, not 5$"),
        (2, (0, -1), r"^a sunk ship's cells are cell indices \(whole numbers from 0\), not -1$"),
        (1, (1.0,), r"^a sunk ship's cells are cell indices \(whole numbers from 0\), not 1.0$"),
        pytest.param(HUGE, (0,), rf"^a sunk ship's length .*, not {SAID}$", id="huge"),
    ],
)
def test_a_sunk_ship_checks_what_it_can_without_the_board(length, cells, message):
    with pytest.raises(MarksError, match=message):
        bs.SunkShip(length, cells)


def test_a_sunk_ship_keeps_its_cells_sorted_as_ints():
    ship = bs.SunkShip(np.int64(2), [np.int64(11), 1])
    assert ship == bs.SunkShip(2, (1, 11)) and type(ship.cells[0]) is int


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: bs.Rules(HUGE, 10, [2]), RulesError, rf"^a board needs 1 to 26 rows, not {SAID}$"),
        (lambda: bs.Rules(10, -HUGE, [2]), RulesError, rf"^a board needs 1 to 26 col.*not {SAID}$"),
        (
            lambda: bs.Rules(10, 10, [HUGE]),
            RulesError,
            rf"^ship 'ship 1' has length {SAID}; on a 10×10 board a ship is 1 to 10 cells long$",
        ),
        (
            lambda: bs.Rules(10, 10, [bs.Ship("Big", HUGE)]),
            RulesError,
            rf"^ship 'Big' has length {SAID}; on a 10×10",
        ),
        (lambda: bs.Rules(10, 10, [2], touching=HUGE), RulesError, f"not {SAID}$"),
        (
            lambda: bs.Rules.custom(HUGE, [2]),
            RulesError,
            rf"^a board needs 1 to 26 rows, not {SAID}",
        ),
        (lambda: bs.Rules.custom([HUGE], [2]), RulesError, "not a list holding a number too long"),
        (
            lambda: bs.Observation.from_marks(CLASSIC, hit=[HUGE]),
            MarksError,
            rf"^cell index {SAID} is off the 10×10 board$",
        ),
        (
            lambda: bs.Observation.from_marks(CLASSIC, afloat=[HUGE]),
            MarksError,
            rf"^an afloat ship of length {SAID} is not in the fleet",
        ),
        (
            lambda: bs.Ocean(bs.Fleet.from_cells(CLASSIC, FLEET)).fire(HUGE),
            ShotError,
            rf"^cell {SAID} is off the 10×10 board$",
        ),
        (
            lambda: bs.sample(bs.Observation.start(CLASSIC), HUGE, np.random.default_rng(1)),
            BattleshipError,
            rf"^the number of fleets to draw must be 1..100000, not {SAID}$",
        ),
        (
            lambda: bs.placements(CLASSIC, HUGE),
            RulesError,
            rf"^on a 10×10 board a ship is 1 to 10 cells long, not {SAID}$",
        ),
        (
            lambda: bs.placements(CLASSIC, -HUGE),
            RulesError,
            rf"^a ship length is at least 1, not {SAID}$",
        ),
        (lambda: bs.play_game(CLASSIC, "random", -HUGE), BattleshipError, f"not {SAID}$"),
        (lambda: bs.simulate(CLASSIC, "random", HUGE), BattleshipError, f"not {SAID}$"),
        (lambda: bs.weight([HUGE, -HUGE]), MarksError, f"at least 1, not {SAID}$"),
        (lambda: bs.layouts(HUGE), RulesError, rf"^expected Rules .*, not {SAID}$"),
    ],
)
def test_a_number_too_long_to_write_out_is_named_by_its_length(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_grid_names_a_number_too_long_to_write_out_by_its_length():
    with pytest.raises(CellError, match=rf"^cell index {SAID} is off the 10×10 board$"):
        Grid(10, 10).name(HUGE)
    assert quoted(-(10**40)) == "a number of 41 digits" and quoted(10**29) == repr(10**29)


def test_placements_of_a_ship_longer_than_the_board_are_refused():
    with pytest.raises(RulesError, match=r"^on a 3×5 board a ship is 1 to 5 cells long, not 6$"):
        bs.placements(bs.Rules.custom((3, 5), [2]), 6)
    assert len(bs.placements(bs.Rules.custom((3, 5), [2]), 5)) == 3


@pytest.mark.parametrize("jobs", ["x", None, 1.5, 0, -5, True, 65, pytest.param(HUGE, id="huge")])
def test_count_fleets_takes_jobs_as_simulate_does(jobs):
    shown = "a number of 5,001 digits" if jobs is HUGE else repr(jobs)
    with pytest.raises(BattleshipError, match=rf"^jobs must be from 1 to 64, not {shown}$"):
        bs.count_fleets(bs.Rules.custom(4, [2, 2]), jobs=jobs)


def test_count_fleets_takes_numpy_jobs_and_refuses_a_progress_that_is_no_function():
    assert bs.count_fleets(bs.Rules.custom(4, [2, 2]), jobs=np.int64(1)).fleets == 448
    with pytest.raises(BattleshipError, match=r"^progress is a function of .*, not 5$"):
        bs.count_fleets(bs.Rules.custom(4, [2, 2]), progress=5)


def test_play_game_refuses_a_progress_that_is_no_function():
    with pytest.raises(
        BattleshipError, match=r"^progress is a function of \(shots\) or None, not 5$"
    ):
        bs.play_game(CLASSIC, "hard", 7, 5)


@pytest.mark.parametrize(
    ("cells", "ship_cells", "message"),
    [
        (100, 101, r"^ship_cells must be from 1 to cells \(100\), not 101$"),
        (100, -1, r"^ship_cells must be from 1 to cells \(100\), not -1$"),
        (100, 0, r"^ship_cells must be from 1 to cells \(100\), not 0$"),
        (100, 17.0, r"^ship_cells must be from 1 to cells \(100\), not 17.0$"),
        (100.0, 17, r"^cells must be a whole number from 1 to 676 \(a board's\), not 100.0$"),
        pytest.param(HUGE, 17, rf"^cells must be .* \(a board's\), not {SAID}$", id="huge"),
        (True, 1, r"^cells must be .*, not True$"),
    ],
)
def test_the_random_law_checks_its_board(cells, ship_cells, message):
    with pytest.raises(BattleshipError, match=message):
        bs.RandomLaw(cells, ship_cells)


def test_the_random_law_takes_numpy_numbers_and_checks_its_arguments():
    law = bs.RandomLaw(np.int64(100), np.int64(17))
    assert law == bs.RandomLaw(100, 17) and law.median == 97
    with pytest.raises(BattleshipError, match=r"^q is a fraction from 0 to 1, not 1.5$"):
        law.quantile(1.5)
    with pytest.raises(BattleshipError, match=r"^t is a whole number of shots, not 1.5$"):
        law.cdf(1.5)


def test_an_ocean_hides_only_a_fleet():
    with pytest.raises(RulesError, match=r"^an Ocean hides a Fleet .*, not 'x'$"):
        bs.Ocean("x")


@pytest.mark.parametrize("flag", ["check", "count"])
@pytest.mark.parametrize("value", ["no", None, 1, 0.0])
def test_density_takes_only_true_or_false_for_its_flags(flag, value):
    with pytest.raises(MarksError, match=rf"^{flag} is True or False, not {value!r}$"):
        bs.density(bs.Observation.start(CLASSIC), **{flag: value})


def test_density_takes_numpy_booleans():
    obs = bs.Observation.from_marks(CLASSIC, miss=["E5"])
    assert bs.density(obs, check=np.True_, count=np.False_).best_names == ["F6"]


def test_one_afloat_cell_is_one_cell():
    sunk = ["A1-A4", "C1-C3", "E1-E3", "G1-G2", "I1-I2", "A6-A7", "J10", "H10", "F10"]
    grid = RUSSIAN.grid
    cells = []
    for ship in sunk:
        first, _, last = ship.partition("-")
        a, b = grid.index(first), grid.index(last or first)
        step = 1 if a // 10 == b // 10 else 10
        cells.append(list(range(a, b + 1, step)))
    obs = bs.Observation.from_marks(RUSSIAN, sunk=cells, hit=["D10", "B10"])
    with pytest.raises(MarksError) as raised:
        bs.density(obs)
    assert str(raised.value) == "2 open hits, but the afloat ships have only 1 cell"
    assert raised.value.code == "battleship.too_many_hits"
    assert raised.value.params == {"hits": 2, "cells": 1}
    two = bs.Observation.from_marks(CLASSIC, hit=["A1", "B1", "C1"], afloat=[2])
    with pytest.raises(MarksError, match=r"^3 open hits, but the afloat ships have only 2 cells$"):
        bs.density(two)
