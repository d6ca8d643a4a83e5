import json
import random
import re

import pytest
from tour import reference as ref
from typer.testing import CliRunner

import hamle.tour as tour
from hamle.cli import app

runner = CliRunner()

# A mid-game position where the hint runs Monte Carlo (a random game stopped at 30 cells).
MIDGAME = (
    "B4 D6 F4 F7 C7 C10 E8 H8 F10 D8 B10 E10 C8 E6 B6 B9 E9 H9 H6 F8 F5 D3 G3 E1 H1 F3 D1 A1 A4 C6"
)


def run(*args: str, **kwargs):
    return runner.invoke(app, ["tour", *args], **kwargs)


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_daily_json():
    assert run_json("daily", "--date", "2026-12-01") == {
        "date": "2026-12-01",
        "seed": 20261201,
        "start": 28,
        "start_name": "I3",
    }
    text = run("daily", "--date", "2026-12-01")
    assert text.exit_code == 0 and "I3" in text.stdout and "20261201" in text.stdout
    today = run_json("daily")
    assert today == tour.daily_puzzle(today["date"]).as_dict()


def test_hint_json_exact():
    data = run_json("hint", "--start", "A1", "--moves", "D1,D4")
    assert data == tour.hint(tour.Position.from_moves("A1", ["D1", "D4"])).as_dict()
    assert (data["move_name"], data["value"], data["exact"], data["mode"]) == (
        "B2",
        100,
        True,
        "hint",
    )
    names = [c["move_name"] for c in data["candidates"]]
    assert names == ["D7", "A4", "G4", "B2", "F2", "B6", "F6"]
    for c in data["candidates"]:
        assert {"move", "move_name", "value", "exact", "complete", "rollouts"} <= c.keys()
        assert c["value"] == 100 and c["rollouts"] == 0
        # The proof: a legal tour filling the board after the move.
        path = [0, 3, 33, c["move"], *(ref.cell_index(n) for n in c["tour"])]
        assert len(path) == 100 and ref.is_tour(path)
    assert data["move"] == ref.cell_index(data["move_name"])


def test_hint_json_monte_carlo_and_quick():
    start, moves = MIDGAME.split(" ", 1)
    position = tour.Position.from_moves(start, moves.split())
    full = run_json("hint", "--start", start, "--moves", moves)
    assert full == tour.hint(position).as_dict()
    assert full["rollouts"] > 0
    assert all(c["exact"] for c in full["candidates"] if c["rollouts"] == 0)
    assert max(c["rollouts"] for c in full["candidates"]) >= 120
    quick = run_json("hint", "--start", start, "--moves", moves, "--mode", "quick")
    assert quick == tour.hint(position, "quick").as_dict()
    assert quick["mode"] == "quick"
    played = {c["rollouts"] for c in quick["candidates"] if not c["exact"]}
    assert played and min(played) >= 30
    text = run("hint", "--start", start, "--moves", moves, "--mode", "quick")
    assert text.exit_code == 0
    assert f"play {quick['move_name']}" in text.stdout
    assert f"{min(played)} rollouts" in text.stdout


def test_solve_json():
    data = run_json("solve", "--start", "E5")
    assert data["complete"] is True and data["score"] == 100 and data["proven_best"] is True
    path = [ref.cell_index(n) for n in data["path"]]
    assert path[0] == 44 and len(path) == 100 and ref.is_tour(path)
    data = run_json("solve", "--start", "A1", "--moves", "D1 D4")
    assert data["path"][:3] == ["A1", "D1", "D4"] and data["complete"]


def test_solve_text_draws_the_board():
    result = run("solve", "--start", "E5")
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip().splitlines()
    assert lines[-1] == "complete (proven best)"
    # The board as Position.__str__ draws it: a header of column letters, ten rows of
    # numbers 1..100, no dataclass repr.
    assert "Position(" not in result.stdout
    assert lines[0].split() == list("ABCDEFGHIJ")
    numbers = sorted(int(x) for line in lines[1:11] for x in line.split()[1:])
    assert numbers == list(range(1, 101))


def test_play_scripted():
    expected_hint = tour.GRID.name(tour.hint(tour.Position.start("A1")).move)
    quick = tour.GRID.name(tour.hint(tour.Position.start("A1"), "quick").move)
    # hint, a legal move (the quick hint: combo 1), an illegal one, undo, quit
    result = run("play", "--start", " a01 ", input=f"h\n{quick}\nE4\nu\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "free play from A1." in out
    boards = out.split("      A   B   C")
    # After 'h' the hinted cell shows '?'.
    col, row = ord(expected_hint[0]) - ord("A"), int(expected_hint[1:])
    hinted_row = boards[2].splitlines()[row].split()
    assert hinted_row[col + 1] == "?"
    assert f"hint: {expected_hint} (marked ?; value " in out
    assert "2 filled, combo 1 (best 1)" in out
    assert re.search(r"E4 is not one jump from " + quick, out)
    # q ends the prompt's line and the game without drawing the board again
    assert out.endswith(
        "1 filled, combo 0 (best 0)> \n"
        "Yüz Yüze free play A1 · 1/100 · 1 hint · best combo 0 · 1 undo\n"
    )
    assert "Traceback" not in result.output


def test_play_counts_a_hint_once_a_position_and_says_what_it_knows():
    # D1 from A1 allows a full board: the hint says so; asked twice, and again after a
    # move taken back, it counts once.
    result = run("play", "--start", "A1", input="h\nh\nD1\nu\nh\nq\n")
    assert result.exit_code == 0, result.output
    assert "hint: D1 (marked ?; value 100, exact; full board possible)" in result.stdout
    assert result.stdout.endswith(
        "Yüz Yüze free play A1 · 1/100 · 1 hint · best combo 0 · 1 undo\n"
    )


def test_play_says_what_to_type_on_an_empty_line_and_echoes_input_as_typed():
    result = run("play", "--start", "A1", input="\n  \nZz\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "is not a cell name" in out and "'Zz' is not a cell name" in out
    assert "''" not in out and "'zz'" not in out
    assert out.count("Type a cell like E5; h hint, u undo, q quit.") == 3  # greeting + 2 empty


def test_play_can_take_back_the_move_that_ended_the_game():
    # From A1 the game ends after A10 (8 cells); as on the site, u takes A10 back.
    short = ["A4", "A7", "D7", "D10", "F8", "C8", "A10"]
    result = run("play", "--start", "A1", input="\n".join([*short, "u", "q"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "No jump from A10 reaches an empty cell: u takes it back, q ends." in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("Yüz Yüze free play A1 · 7/100")
    ended = run("play", "--start", "A1", input="\n".join(short) + "\n")  # then no more input
    assert ended.stdout.rstrip().splitlines()[-1].startswith("Yüz Yüze free play A1 · 8/100")


def test_play_to_the_end_and_daily():
    # A whole random game typed in: play stops by itself when no jump is left.
    path = ref.random_game(random.Random(3))
    names = [tour.GRID.name(c) for c in path]
    result = run("play", "--start", names[0], input="\n".join(names[1:]) + "\n")
    assert result.exit_code == 0, result.output
    assert (
        result.stdout.rstrip()
        .splitlines()[-1]
        .startswith(f"Yüz Yüze free play {names[0]} · {len(path)}/100 · 0 hints · best combo")
    )
    daily = run("play", "--date", "2026-12-01", input="q\n")
    assert daily.exit_code == 0
    assert "daily 2026-12-01" in daily.stdout
    last = daily.stdout.rstrip().splitlines()[-1]
    assert last == "Yüz Yüze 2026-12-01 · 1/100 · 0 hints · best combo 0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "--start", "K1"], "K1"),
        (["hint", "--start", "A1", "--moves", "D1,E4"], "E4 is not one jump from D1"),
        (["hint", "--start", "A1", "--moves", "D1,A1"], "A1 is already filled"),
        (["hint", "--start", "A1", "--mode", "fast"], "'fast'"),
        (["solve", "--start", "A1", "--moves", "D1,D4,Z1"], "Z1"),
        (["solve", "--start", "Q7"], "Q7"),
        (["daily", "--date", "2026-13-01"], "2026-13-01"),
        (["daily", "--date", "tomorrow"], "tomorrow"),
        (["play", "--start", "A0"], "A0"),
        (["play", "--date", "2026-02-30"], "2026-02-30"),
        (["hint", "--start", "[/x]"], "error: '[/x]' is not a cell name"),
        (["hint", "--start", "A1", "--moves", "[bold]"], "error: '[bold]' is not a cell name"),
        (["daily", "--date", "[/x]"], "error: '[/x]' is not a date"),
        (["play", "--start", "A1", "--date", "[/x]"], "choose either --start"),
    ],
)
def test_bad_input_gets_one_clear_line(args, message):
    result = run(*args, input="q\n")
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert "Traceback" not in result.output


def test_play_daily_flag_and_conflicting_start():
    today = tour.daily_puzzle()
    result = runner.invoke(app, ["tour", "play", "--daily"], "q\n")
    assert result.exit_code == 0
    assert f"Yüz Yüze {today.date} · 1/100" in result.stdout
    clash = runner.invoke(app, ["tour", "play", "--daily", "--start", "A1"], "q\n")
    assert clash.exit_code == 2 and "not both" in clash.stderr


def test_play_goes_on_after_text_that_looks_like_markup():
    result = run("play", "--start", "A1", input="[/x]\n[bold]\nq\n")
    assert result.exit_code == 0, result.output
    assert "'[/x]' is not a cell name" in result.stdout
    assert "'[bold]' is not a cell name" in result.stdout
    assert "Yüz Yüze free play A1 · 1/100" in result.stdout


@pytest.mark.parametrize("moves", ["E8,,G10", "E8,", ",E8"])
def test_moves_with_an_item_left_out_are_refused_not_read_without_it(moves):
    result = run("hint", "--start", "E5", "--moves", moves)
    assert result.exit_code == 2, result.output
    assert f"--moves has an empty item: '{moves}'" in result.stderr


def test_play_takes_its_commands_as_words_too():
    result = run("play", "--start", "A1", input="Hint\nD1\nundo\nhelp\n?\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "hint: D1 (marked ?" in out and "is not a cell name" not in out
    assert out.count("Type a cell like E5; h hint, u undo, q quit.") == 3  # greeting + 2 asked
    assert out.endswith("Yüz Yüze free play A1 · 1/100 · 1 hint · best combo 0 · 1 undo\n")


def test_play_keeps_the_hints_mark_through_a_typo_until_the_position_changes():
    result = run("play", "--start", "A1", input="h\nzz\nD1\nq\n")
    assert result.exit_code == 0, result.output
    first_rows = [line for line in result.stdout.splitlines() if line.startswith("  1 ")]
    assert ["?" in row for row in first_rows] == [False, True, True, False], result.stdout


# A free game from A1 that ends after 8 cells (A10's jumps all land on filled cells).
SHORT = ["A4", "A7", "D7", "D10", "F8", "C8", "A10"]


@pytest.mark.parametrize("kind", ["free", "daily"])
def test_plays_result_line_is_the_sites_line_to_share_for_the_same_game(kind, tmp_path):
    """The same game (a hint, the moves to the end, the last taken back and played again)
    at the terminal and on the site ends with one line: the site's share line in English."""
    from fastapi.testclient import TestClient

    from hamle.web import create_app

    if kind == "free":
        start, moves, options = "A1", SHORT, ["--start", "A1"]
        body = {"kind": "free", "start": "A1"}
    else:
        start, options = "I3", ["--date", "2026-12-01"]  # (2026-12-01 starts at I3)
        moves = [tour.GRID.name(c) for c in ref.random_game(random.Random(5), 28)[1:]]
        body = {"kind": "daily", "date": "2026-12-01"}
    typed = ["h", *moves, "u", moves[-1], "q"]
    result = run("play", *options, input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    with TestClient(create_app(tmp_path / "site.sqlite3", warm=False)) as client:
        games = "/api/tour/games"
        game = client.post(games, json=body).json()
        assert game["start"] == start
        client.post(f"{games}/{game['id']}/hint", json={"from": start})
        for at, cell in zip([start, *moves], moves, strict=False):
            client.post(f"{games}/{game['id']}/moves", json={"cell": cell, "from": at})
        client.post(f"{games}/{game['id']}/undo", json={"cell": moves[-1]})
        view = client.post(
            f"{games}/{game['id']}/moves", json={"cell": moves[-1], "from": moves[-2]}
        ).json()
    share = view["summary"]["share"]["en"]
    assert " · 1 hint · " in share and share.endswith(" · 1 undo")
    assert result.stdout.rstrip().splitlines()[-1] == share
