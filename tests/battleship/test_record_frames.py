"""GameRecord.frames: the labelled board before and after each shot of a numbered game."""

import pytest

from hamle.battleship import Ocean, Rules, play_game

CLASSIC = Rules.classic()
SYMBOL = {"unknown": ".", "miss": "o", "hit": "X", "sunk": "#", "water": "~", "pattern": "+"}


def picture_cells(board: str) -> list[str]:
    """The cell symbols of a drawn board, row by row (header and row numbers dropped)."""
    return [s for line in board.splitlines()[1:] for s in line.split()[1:]]


@pytest.mark.parametrize("pattern", [False, True])
def test_frames_agree_with_the_drawn_boards(pattern):
    record = play_game(CLASSIC, "parity", 743)
    frames = record.frames(pattern=pattern)
    boards = record.boards(pattern=pattern)
    assert len(frames) == len(boards) + 1 == record.shots_fired + 1
    for frame, board in zip(frames[1:], boards, strict=True):
        assert [SYMBOL[label] for label in frame] == picture_cells(board)


def test_frames_follow_the_shots():
    record = play_game(CLASSIC, "density", 12)
    frames = record.frames()
    assert set(frames[0]) == {"unknown"}
    ocean = Ocean(record.fleet)
    for n, shot in enumerate(record.shots, 1):
        ocean.fire(shot.cell)
        frame = frames[n]
        expected = "sunk" if shot.answer == "sunk" else shot.answer
        assert frame[shot.cell] == expected
        shot_cells = {s.cell for s in record.shots[:n]}
        assert {i for i, label in enumerate(frame) if label != "unknown"} == shot_cells
        assert frame.count("sunk") == sum(len(s.cells) for s in ocean.observation.sunk)
    assert frames[-1].count("sunk") == 17 and "hit" not in frames[-1]


def test_pattern_marks_only_unshot_cells_of_the_shortest_afloat_ship():
    record = play_game(CLASSIC, "parity", 743)
    frames = record.frames(pattern=True)
    start = frames[0]
    assert start.count("pattern") == 50
    assert all((i // 10 + i % 10) % 2 == 0 for i, x in enumerate(start) if x == "pattern")
    plain = record.frames()
    for with_pattern, without in zip(frames, plain, strict=True):
        for a, b in zip(with_pattern, without, strict=True):
            assert a == b or (a == "pattern" and b == "unknown")
    assert "pattern" not in frames[-1]  # nothing afloat, no pattern


def test_no_touch_frames_show_water_around_sunk_ships():
    record = play_game(Rules.russian(), "density", 5)
    last = record.frames()[-1]
    assert last.count("sunk") == 20
    water = [i for i, label in enumerate(last) if label == "water"]
    assert water
    grid = Rules.russian().grid
    for cell in water:
        assert any(last[near] == "sunk" for near in grid.surroundings(cell))
