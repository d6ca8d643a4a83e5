"""Positions: legal moves, play and undo, the position seed, and errors that name the cell."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tour import reference as ref

from hamle.tour import GRID, MoveError, Position, TourError

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(cells) -> list[str]:
    return [GRID.name(c) for c in cells]


def test_legal_moves_in_jump_order():
    assert names(Position.start("A1").legal_moves()) == ["A4", "D1", "C3"]
    # up, down, left, right, then up-left, up-right, down-left, down-right
    assert names(Position.start("E5").legal_moves()) == [
        "E2",
        "E8",
        "B5",
        "H5",
        "C3",
        "G3",
        "C7",
        "G7",
    ]
    assert names(Position.start("J10").legal_moves()) == ["J7", "G10", "H8"]
    assert names(Position.start("B2").legal_moves()) == ["B5", "E2", "D4"]
    # Filled cells drop out.
    assert names(Position.from_moves("E5", ["E8"]).legal_moves()) == [
        "B8",
        "H8",
        "C6",
        "G6",
        "C10",
        "G10",
    ]


def test_from_moves_names_indices_and_case():
    a = Position.from_moves("a1", ["d1", " D4 ", 11])
    b = Position.from_moves(0, [3, 33, "B2"])
    assert a == b and a.path == (0, 3, 33, 11)
    assert (a.current, a.count) == (11, 4)


@given(st.integers(0, 2**32 - 1), st.integers(1, 100))
@SETTINGS
def test_random_games_follow_the_twin(seed, stop):
    rand = random.Random(seed)
    path = ref.random_game(rand, stop=stop)
    position = Position.start(path[0])
    for i, cell in enumerate(path[1:], 1):
        assert list(position.legal_moves()) == ref.legal(set(path[:i]), path[i - 1])
        position = position.play(cell)
    assert position.path == tuple(path) and position.count == len(path)
    assert position.visited == sum(1 << c for c in path)
    lo, hi = ref.words(set(path))
    assert tuple(int(w) for w in position.words()) == (lo, hi)
    assert list(position.legal_moves()) == ref.legal(set(path), path[-1])
    assert position.over == (not ref.legal(set(path), path[-1]))
    # Every cell that is not a legal move is refused, and the position stays as it was.
    legal = set(position.legal_moves())
    for cell in rand.sample(range(100), 10):
        if cell in legal:
            assert position.play(cell).path == (*path, cell)
        else:
            with pytest.raises(MoveError, match=GRID.name(cell)):
                position.play(cell)
        assert position.path == tuple(path)


def test_play_and_undo_leave_the_original_unchanged():
    p = Position.start("E5")
    q = p.play("E8")
    r = q.play("G10")
    assert p.path == (44,) and p.count == 1 and p.current == 44
    assert q.path == (44, 74) and q.current == 74
    assert r.undo() == q and r.undo().undo() == p
    assert r.path == (44, 74, 96)  # undo made new positions
    assert list(p.legal_moves()) == [14, 74, 41, 47, 22, 26, 62, 66]
    assert 74 in p.legal_moves() and 74 not in q.legal_moves()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.path = (0,)


def test_game_over():
    p = Position.from_moves("A1", ["A4", "D4", "D1"])
    assert not p.over
    over = Position(tuple(ref.random_game(random.Random(3))))
    assert over.over and over.legal_moves() == ()


@pytest.mark.parametrize(
    ("start", "needle"),
    [
        ("K1", "K1"),
        ("A11", "A11"),
        ("A0", "A0"),
        ("xyz", "xyz"),
        ("", "''"),
        (100, "100"),
        (-1, "-1"),
    ],
)
def test_bad_start_cell(start, needle):
    with pytest.raises(MoveError, match=needle):
        Position.start(start)


def test_bad_moves_name_the_cell():
    p = Position.from_moves("A1", ["D1"])
    with pytest.raises(MoveError, match="K4"):
        p.play("K4")  # off the board
    with pytest.raises(MoveError, match="zz"):
        p.play("zz")  # not a cell name
    with pytest.raises(MoveError, match=r"E2 is not one jump from D1"):
        p.play("E2")
    with pytest.raises(MoveError, match=r"A1 is already filled"):
        p.play("A1")  # a jump, but the start cell is filled
    with pytest.raises(MoveError, match="D1"):
        p.play("D1")  # the current cell itself
    with pytest.raises(MoveError, match="nothing to undo"):
        Position.start("A1").undo()
    with pytest.raises(MoveError, match="A1"):
        Position.from_moves("A1", ["A1"])  # the start cell given twice
    assert p.path == (0, 3)
    assert issubclass(MoveError, TourError) and issubclass(TourError, ValueError)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ([44, 44], "E5 is filled twice"),
        ([44, 45], "F5 is not one jump from E5"),
        ([], "at least its start cell"),
        ("E5", "a sequence of cells"),
        (44, "a sequence of cells"),
        ({44, 47}, "a sequence of cells in the order filled"),  # a set has no order
        ({44: 1}, "a sequence of cells in the order filled"),
        (b"\x2c", "a sequence of cells"),  # bytes are no cell indices
        (bytearray(b"\x2c"), "a sequence of cells"),
        (np.array(44), "a sequence of cells"),
        ([200], "200"),
        (["E5", "zz"], "zz"),
    ],
)
def test_a_position_is_checked_when_made(path, message):
    with pytest.raises(MoveError, match=message):
        Position(path)


def test_a_position_made_gives_the_codes_of_play():
    """A user interface says the error in its language by its code, as for ``play``."""
    with pytest.raises(MoveError) as twice:
        Position(["E5", "H5", "E5"])
    assert (twice.value.code, twice.value.params) == ("tour.filled", {"cell": "E5"})
    with pytest.raises(MoveError) as far:
        Position(["E5", "F5"])
    assert far.value.code == "tour.not_a_jump"
    assert far.value.params == {"cell": "F5", "here": "E5"}
    assert str(far.value) == "F5 is not one jump from E5 (3 cells straight or 2 diagonally)"


@pytest.mark.parametrize("moves", [None, 3, 4.5, object(), b"E8", bytearray(b"E8"), {"E8"}])
def test_moves_that_are_not_a_list_are_named(moves):
    with pytest.raises(TourError, match=r"moves must be a list of cells, like \['D1'\], not"):
        Position.from_moves("A1", moves)


def test_a_position_takes_any_ordered_cells():
    played = Position.from_moves("E5", ["H5"])
    assert Position(np.array([44, 47])) == Position(range(44, 48, 3)) == played
    assert Position(iter(["E5", "H5"])) == Position.from_moves("E5", np.array(["H5"])) == played


def test_a_position_made_from_names_or_indices_is_the_one_played():
    played = Position.from_moves("E5", ["H5", "H8"])
    assert Position(["E5", "H5", "H8"]) == Position([44, 47, 77]) == played
    assert hash(Position((44, 47, 77))) == hash(played)


def test_str_draws_the_numbers():
    text = str(Position.from_moves("A1", ["D1", "D4"]))
    lines = text.splitlines()
    assert len(lines) == 11
    assert lines[0].split() == list("ABCDEFGHIJ")
    assert lines[1].split() == ["1", "1", ".", ".", "2", ".", ".", ".", ".", ".", "."]
    assert lines[4].split()[4] == "3"
    assert text.count(".") == 97


def test_position_seed_depends_only_on_visited_set_and_current_cell():
    # A1 D1 D4 A4 and D4 D1 A1 A4: the same four cells, both ending on A4.
    a = Position.from_moves("A1", ["D1", "D4", "A4"])
    b = Position.from_moves("D4", ["D1", "A1", "A4"])
    assert a.path != b.path and a.visited == b.visited and a.current == b.current
    assert a.seed() == b.seed() == ref.position_seed({0, 3, 33, 30}, 30)
    # Another end cell or another visited set gives another seed.
    c = Position.from_moves("A4", ["A1", "D1", "D4"])
    assert c.visited == a.visited and c.seed() != a.seed()
    assert a.undo().seed() != a.seed()
    assert Position.start("A1").seed() != Position.start("B1").seed()


def test_a_position_reads_no_more_cells_than_a_board_holds_and_one():
    read = []

    def long():  # (an endless one was read for ever)
        for _ in range(10**6):
            read.append(1)
            yield "A1" if len(read) % 2 else "D1"

    with pytest.raises(MoveError, match=r"^A1 is filled twice$"):
        Position(long())
    assert len(read) <= 101
