import pytest
from hypothesis import given
from hypothesis import strategies as st

from hamle.grid import CellError, Grid
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream
from hamle.stats import plus_minus, quantile, summarize


@given(st.integers(1, 26), st.integers(1, 26), st.data())
def test_name_and_index_round_trip(rows, cols, data):
    grid = Grid(rows, cols)
    index = data.draw(st.integers(0, rows * cols - 1))
    assert grid.index(grid.name(index)) == index


def test_spec_names():
    grid = Grid(10, 10)
    assert [grid.name(i) for i in (0, 9, 10, 44, 99)] == ["A1", "J1", "A2", "E5", "J10"]
    assert grid.index(" e5 ") == 44


@pytest.mark.parametrize("bad", ["K1", "A11", "A0", "5E", "", "AA1", "E", "E5.5"])
def test_bad_names_are_named_in_the_error(bad):
    with pytest.raises(CellError, match=r"cell name|off the"):
        Grid(10, 10).index(bad)


def test_a_row_number_of_thousands_of_digits_is_off_the_board():
    with pytest.raises(CellError, match=r"^A99999999999… is off the 10×10 board$"):
        Grid(10, 10).index("A" + "9" * 5000)
    with pytest.raises(CellError, match=r"^A0001000 is off"):
        Grid(10, 10).index("A0001000")
    assert Grid(26, 26).index("Z026") == 25 * 26 + 25


def test_bad_index_and_board():
    with pytest.raises(CellError, match="off the 10×10 board"):
        Grid(10, 10).name(100)
    with pytest.raises(CellError, match="rows"):
        Grid(0, 10)
    with pytest.raises(CellError, match="columns"):
        Grid(10, 27)


def test_neighbourhoods_on_corners_and_middle():
    grid = Grid(10, 10)
    assert sorted(grid.neighbours(44)) == [34, 43, 45, 54]
    assert len(grid.surroundings(44)) == 8
    assert sorted(grid.surroundings(99)) == [88, 89, 98]


def test_game_streams_are_reproducible_and_distinct():
    a = game_stream(7, FLEET_STREAM).integers(0, 2**32, 4).tolist()
    assert a == game_stream(7, FLEET_STREAM).integers(0, 2**32, 4).tolist()
    assert a != game_stream(7, SHOOTER_STREAM).integers(0, 2**32, 4).tolist()
    assert a != game_stream(8, FLEET_STREAM).integers(0, 2**32, 4).tolist()
    with pytest.raises(ValueError, match="game number"):
        game_stream(-1, 0)


def test_summary_statistics():
    s = summarize(list(range(1, 11)))
    assert (s.mean, s.median, s.p10, s.p90, s.best, s.worst) == (5.5, 5.5, 1, 9, 1, 10)
    assert s.stderr == pytest.approx((sum((x - 5.5) ** 2 for x in range(1, 11)) / 9 / 10) ** 0.5)
    assert quantile([4], 0.9) == 4
    with pytest.raises(ValueError, match="empty"):
        summarize([])


def test_one_value_has_no_standard_error():
    one = summarize([42])
    assert (one.mean, one.median, one.best, one.worst, one.stderr) == (42, 42, 42, 42, None)
    assert one.as_dict()["stderr"] is None
    assert summarize([3, 3]).stderr == 0.0
    assert (
        plus_minus(None) == "" and plus_minus(0.0) == " ± 0.00" and plus_minus(1.234) == " ± 1.23"
    )


def test_a_grid_takes_numpy_integers_as_ints():
    import numpy as np

    grid = Grid(np.int64(3), np.uint8(4))
    assert grid == Grid(3, 4) and type(grid.rows) is type(grid.cols) is int
    assert repr(grid) == "Grid(rows=3, cols=4)" and grid.name(11) == "D3"
    for bad in (np.True_, np.float64(3.0), np.int64(27)):
        with pytest.raises(CellError, match="a board needs 1 to 26 rows"):
            Grid(bad, 4)
