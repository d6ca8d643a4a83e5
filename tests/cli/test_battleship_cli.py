import contextlib
import json
import math
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import hamle
import hamle.battleship as bs
from hamle.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["battleship", *args])


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_count_small_and_custom():
    data = run_json("count", "--size", "4", "--fleet", "2,2")
    assert (data["fleets"], data["layouts"], data["product"]) == (448, 224, 576)
    assert data["placements"] == {"2-cell ship 1": 24, "2-cell ship 2": 24}
    touching = run_json("count", "--size", "5", "--fleet", "3,2")["fleets"]
    apart = run_json("count", "--size", "5", "--fleet", "3,2", "--no-touch")["fleets"]
    assert apart < touching


def test_count_classic_is_seed_000():
    data = run_json("count")
    assert data["fleets"] == 30_093_975_536 and data["layouts"] == 15_046_987_768
    assert data["product"] == 77_414_400_000
    assert list(data["placements"].values()) == [120, 140, 160, 160, 180]


def test_density_reproduces_the_seed():
    data = run_json("density", "--hit", "E5")
    assert data["w"] == 35 and data["best"] == ["F5", "E6"] and data["best_d"] == 442
    assert data["density"]["E4"] == data["density"]["D5"] == 441
    assert "E5" not in data["density"] and len(data["density"]) == 99
    data = run_json("density", "--hit", "E5,F5")
    assert data["best"] == ["D5", "G5"] and data["best_d"] == 8771
    empty = run_json("density")
    assert empty["density"]["A1"] == 10 and empty["best"] == ["E5", "F5", "E6", "F6"]


def test_count_russian_is_seed_003():
    data = run_json("count", "--rules", "russian")
    assert data["layouts"] == 1_855_545_978_831_780
    assert data["fleets"] == data["layouts"] * 2 * 6 * 24  # 3-, 2- and 1-cell ships labelled


def test_exact_density_under_russian_rules():
    data = run_json("density", "--rules", "russian", "--exact", "--miss", "C1")
    assert data["best"] == ["J8"] and "C1" not in data["counts"]  # unshot cells only
    assert data["total"] == 1_379_750_734_899_553 == sum(data["counts"].values()) // 20
    assert data["counts"]["J8"] == data["best_count"] and len(data["counts"]) == 99
    text = run("density", "--size", "5", "--fleet", "3,2,1", "--no-touch", "--exact", "--hit", "C3")
    assert text.exit_code == 0 and "layouts) fit; best:" in text.stdout and "X" in text.stdout


def test_one_layout_is_said_in_the_singular_and_nothing_afloat_has_no_best_cell():
    one = run("density", "--size", "2", "--fleet", "2", "--exact", "--hit", "A1", "--miss", "B1")
    assert one.exit_code == 0, one.output
    assert "1 fleet (1 layout) fit; best: A2 (1 layout, 100.00 %)" in one.stdout
    none = run("density", "--size", "3", "--fleet", "2", "--exact", "--sunk", "A1-A2")
    assert none.exit_code == 0, none.output
    assert "best: none" in none.stdout and "0 layouts" not in none.stdout


def test_exact_density_under_classic_rules():
    data = run_json("density", "--exact", "--hit", "E5", "--miss", "E4,D5", "--sunk", "A1-A2")
    assert data["afloat"] == [5, 4, 3, 3]
    assert data["fleets"] == 2 * data["total"]  # the two 3-cell ships labelled
    assert not {"E5", "E4", "D5", "A1", "A2"} & set(data["counts"])  # unshot cells only
    assert len(data["counts"]) == 95
    assert data["best_count"] == max(data["counts"].values()) == data["counts"][data["best"][0]]


def test_sample_draws_fleets_that_fit_and_replays_a_seed():
    args = ["sample", "--size", "6", "--fleet", "4,3,2", "--hit", "C3", "--miss", "C2,D3"]
    data = run_json(*args, "--count", "40", "--seed", "9")
    assert data["count"] == len(data["fleets"]) == 40 and data["seed"] == 9
    for fleet in data["fleets"]:
        assert [ship["length"] for ship in fleet] == [4, 3, 2]
        cells = [cell for ship in fleet for cell in ship["cells"]]
        assert "C3" in cells and not {"C2", "D3"} & set(cells)
    assert run_json(*args, "--count", "40", "--seed", "9") == data
    text = run(*args, "--count", "2", "--seed", "9")
    assert text.exit_code == 0 and text.stdout.count("\n") == 3 and "seed 9" in text.stdout
    russian = run("sample", "--rules", "russian", "--sunk", "J10", "--count", "1", "--seed", "4")
    ships = russian.stdout.split("\n")[0].split()
    assert len(ships) == 9 and sum("-" not in ship for ship in ships) == 3  # 1-cell ships: "C9"
    sunk = run("sample", "--size", "4", "--fleet", "2", "--sunk", "A1-A2", "--count", "2")
    assert sunk.stdout.startswith("(no ship afloat: the empty fleet)\n" * 2)


def test_sample_json_says_what_it_was_drawn_under():
    marks = ["--hit", "c3", "--miss", "C2,D3", "--sunk", "F6-F5", "--seed", "9", "--count", "3"]
    data = run_json("sample", "--size", "6", "--fleet", "4,3,2,2", *marks)
    assert data["rules"] == "6×6, fleet 4,3,2,2, touching allowed"
    assert (data["rows"], data["cols"], data["touching"]) == (6, 6, True)
    assert data["fleet"] == [{"name": f"{n}-cell ship 1", "length": n} for n in (4, 3, 2)] + [
        {"name": "2-cell ship 2", "length": 2}
    ]
    assert (data["miss"], data["hit"], data["sunk"]) == (["C2", "D3"], ["C3"], [["F5", "F6"]])
    assert data["afloat"] == [4, 3, 2] and (data["seed"], data["count"]) == (9, 3)
    # The fleets as the library draws them from the seed, in order, each ship with its cells.
    rules = bs.Rules.custom(6, [4, 3, 2, 2])
    observation = bs.Observation.from_marks(
        rules, miss=["C2", "D3"], hit=["C3"], sunk=[["F5", "F6"]]
    )
    drawn = bs.sample(observation, 3, np.random.default_rng(9))
    name = rules.grid.name
    assert data["fleets"] == [
        [{"length": len(ship), "cells": [name(c) for c in ship]} for ship in fleet]
        for fleet in drawn
    ]


def test_size_takes_rows_by_columns_as_the_library_does():
    rules = bs.Rules.custom((6, 9), [3, 2])
    counted = run_json("count", "--size", "6x9", "--fleet", "3,2")
    assert counted["rules"] == "6×9, fleet 3,2, touching allowed"
    assert counted["fleets"] == bs.count_fleets(rules).fleets
    observation = bs.Observation.from_marks(rules, hit=["I6"])
    density = run_json("density", "--size", "6 x 9", "--fleet", "3,2", "--hit", "I6")
    assert density["density"] == bs.density(observation).as_dict()["density"]
    assert {"A6", "I1"} <= set(density["density"]) and "J1" not in density["density"]
    exact = run_json("density", "--exact", "--size", "6X9", "--fleet", "3,2", "--hit", "I6")
    assert exact["total"] == bs.exact(observation).total
    drawn = run_json("sample", "--size", "6×9", "--fleet", "3,2", "--count", "5")
    assert (drawn["rows"], drawn["cols"]) == (6, 9)
    tall = run_json("simulate", "--size", "9x6", "--fleet", "3,2", "--games", "3")
    assert tall["rules"] == "9×6, fleet 3,2, touching allowed"
    played = runner.invoke(
        app, ["battleship", "play", "--size", "6x9", "--fleet", "3,2", "--game", "4"], "q\n"
    )
    assert played.exit_code == 0 and "--size 6x9" in played.stdout
    square = runner.invoke(app, ["battleship", "play", "--size", "7", "--game", "4"], "q\n")
    assert square.exit_code == 0 and "--level normal --size 7\n" in square.stdout


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ("ten", "'ten' is not a board size: a side like 10 (a square board) or rows by columns"),
        ("8x", "'8x' is not a board size"),
        ("8x10x12", "'8x10x12' is not a board size"),
        ("٣", "'٣' is not a board size"),
        ("3x30", "a board needs 1 to 26 columns, not 30"),
        ("0x5", "a board needs 1 to 26 rows, not 0"),
        ("9" * 5000 + "x2", "is not a board size: a board has 1 to 26 rows and columns"),
    ],
)
def test_a_size_that_is_no_board_is_refused_by_name(size, message):
    result = run("density", "--size", size)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_simulate_russian_with_the_exact_shooter():
    args = ["--rules", "russian", "--strategies", "random,parity,density,exact", "--games", "1"]
    data = run_json("simulate", *args)
    assert list(data["strategies"]) == ["random", "parity", "density", "exact"]
    assert all(row["best"] >= 20 for row in data["strategies"].values())
    small = run_json(
        "replay",
        "2",
        "--strategy",
        "exact",
        "--size",
        "6",
        "--fleet",
        "3,2,1",
        "--rules",
        "russian",
    )
    assert small["strategy"] == "exact" and small["shots"][-1]["answer"] == "sunk"


def test_replay_with_the_expert_shooter_matches_the_library():
    data = run_json("replay", "11", "--strategy", "expert")
    record = bs.play_game(bs.Rules.classic(), "expert", 11)
    assert data["strategy"] == "expert"
    assert [s["cell"] for s in data["shots"]] == [
        record.fleet.rules.grid.name(s.cell) for s in record.shots
    ]


def test_density_with_sunk_ships_and_afloat():
    data = run_json("density", "--sunk", "A1-A3;C5,D5", "--miss", "J10")
    assert data["afloat"] == [5, 4, 3] and data["w"] == 25
    grouped = run_json("density", "--sunk", "A1,A2,A3,C5,D5", "--miss", "J10")
    assert grouped["density"] == data["density"]
    limited = run_json("density", "--afloat", "5")
    assert limited["w"] == 11


def test_simulate_json_and_chart(tmp_path):
    chart = tmp_path / "p.png"
    result = run(
        "simulate", "--games", "6", "--strategies", "easy,hard", "--chart", str(chart), "--json"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["strategies"]) == {"random", "density"}
    row = data["strategies"]["density"]
    keys = {"mean", "median", "p10", "p90", "best", "worst", "stderr", "within"}
    assert keys | {"hunt_mean", "target_mean"} <= set(row)
    assert data["exact_random"]["mean"] == pytest.approx(95.3889, abs=1e-4)
    assert chart.stat().st_size > 1000


def test_simulate_table_text():
    result = run("simulate", "--games", "3", "--strategies", "parity")
    assert result.exit_code == 0
    assert "parity" in result.stdout and "random (exact law)" in result.stdout


def test_replay_is_reproducible():
    first = run_json("replay", "743", "--strategy", "normal")
    assert first == run_json("replay", "743", "--strategy", "parity")
    assert first["shots_fired"] == len(first["shots"])
    assert {"cell", "answer", "mode"} <= set(first["shots"][0])
    boards = run_json("replay", "743", "--strategy", "normal", "--boards")
    assert boards["shots"][-1]["board"].count("#") == 17
    text = run("replay", "743", "--strategy", "normal", "--boards")
    assert text.exit_code == 0
    assert text.stdout.count("A B C D E F G H I J") == len(first["shots"])


def test_replay_plays_a_game_of_simulate_against_its_placer():
    """A game of `simulate --placer edges` replays with the same placer: its shots are the
    simulated game's, and the record names the placer."""
    hidden = run_json("replay", "5", "--strategy", "density", "--placer", "edges")
    plain = run_json("replay", "5", "--strategy", "density")
    assert (hidden["placer"], plain["placer"]) == ("edges", "uniform")
    assert hidden["fleet"] != plain["fleet"]
    table = run_json("simulate", "--games", "1", "--first", "5", "--shooters", "density",
                     "--placer", "edges")  # fmt: skip
    assert table["strategies"]["density"]["mean"] == hidden["shots_fired"]
    record = bs.play_game(bs.Rules.classic(), "density", 5, placer="edges")
    assert hidden["shots"] == record.as_dict()["shots"]
    text = run("replay", "5", "--strategy", "density", "--placer", "edges")
    assert text.stdout.startswith("game 5, density, fleet hidden by edges: ")
    refused = run("replay", "5", "--strategy", "density", "--placer", "corner")
    assert refused.exit_code == 2 and "unknown placer 'corner'" in refused.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["density", "--hit", "K11"], "K11 is off the 10×10 board"),
        (["density", "--hit", "E5", "--miss", "E5"], "E5 is marked twice"),
        (["density", "--sunk", "A1-B2"], "not a straight range"),
        (["density", "--sunk", "A1-A6"], "length 6"),
        (["density", "--sunk", "A1,A2;A2,B2"], "overlap at A2"),
        (["density", "--afloat", "5,x"], "--afloat takes ship lengths"),
        (["density", "--hit", "A1", "--miss", "A2,B1"], "no afloat ship can explain the hit at A1"),
        (["count", "--rules", "dutch"], "unknown rules 'dutch'"),
        (["count", "--fleet", "11"], "1 to 10 cells"),
        (["count", "--size", "30"], "1 to 26"),
        (["count", "--size", "16"], "too many to finish"),
        (["count", "--rules", "russian", "--size", "26"], "too wide for exact counting"),
        (["density", "--exact", "--size", "12", "--fleet", "5,4,3,3,2,2"], "too many partial"),
        (
            ["density", "--exact", "--no-touch", "--size", "13", "--fleet", "4,3,3,2,2,2,1,1,1,1"],
            "too much memory",
        ),
        (["sample", "--count", "-1"], "'--count': -1 is not from 1 to 100000."),
        (["sample", "--count", "0"], "'--count': 0 is not from 1 to 100000."),
        (["sample", "--count", "100001"], "'--count': 100001 is not from 1 to 100000."),
        (["sample", "--count", "1000000000"], "'--count': 1000000000 is not from 1 to 100000."),
        (["sample", "--seed", "-3"], "--seed must be 0 or more"),
        (["sample", "--hit", "A1", "--miss", "A2,B1"], "no afloat ship can explain the hit"),
        (["simulate", "--strategies", "psychic", "--games", "2"], "unknown strategy 'psychic'"),
        (
            ["simulate", "--games", "2", "--chart", "out.txt"],
            "--chart must be a file name ending in",
        ),
        (["simulate", "--games", "2", "--chart", "/no/such/dir/c.png"], "does not exist"),
        (["replay", "3", "--strategy", "nope"], "unknown strategy"),
        (["density", "--sunk", "A1 -"], "'A1-' is not a range like A1-A3"),
        (["density", "--sunk", "A1-A2-A3"], "'A1-A2-A3' is not a range"),
        (["density", "--hit", "[/x]"], "'[/x]' is not a cell name"),
        (["count", "--rules", "[bold]"], "unknown rules '[bold]'"),
        (["simulate", "--games", "2", "--chart", "[b]\x1b.txt"], "not '[b]\\x1b.txt'"),
    ],
)
def test_bad_input_gets_one_clear_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.startswith("error:") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_ranges_may_have_spaces_around_the_dash_and_names_any_case():
    spaced = run_json("density", "--rules", "Classic", "--sunk", "A1 - A3")
    assert spaced == run_json("density", "--sunk", "A1-A3")
    assert spaced["afloat"] == [5, 4, 3, 2]


def test_count_takes_the_profile_dp_where_enumeration_would_be_long():
    ones = run_json("count", "--fleet", ",".join(["1"] * 50))
    assert ones["layouts"] == math.comb(100, 50) and ones["fleets"] == ones[
        "layouts"
    ] * math.factorial(50)
    assert run_json("count", "--size", "12", "--fleet", "1,1,1,1,1,1")["layouts"] == math.comb(
        144, 6
    )


def test_a_single_game_is_said_in_the_singular():
    result = run("simulate", "--games", "1", "--strategies", "parity")
    assert result.exit_code == 0 and "1 game (1)," in result.stdout
    alike = run("simulate", "--games", "1", "--shooters", "parity")  # as tournament names it
    assert alike.exit_code == 0 and alike.stdout == result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "0"],
        ["replay", "0", "--strategy", "easy"],
        ["count", "--jobs", "0"],
        ["count", "--size", "ten"],
    ],
)
def test_out_of_range_options_are_usage_errors(args):
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output


def every_cell() -> str:
    return "".join(f"{c}{r}\n" for r in range(1, 11) for c in "ABCDEFGHIJ")


def test_play_a_whole_game_from_standard_input():
    script = "Z9\n" + every_cell()
    result = runner.invoke(app, ["battleship", "play", "--game", "5", "--level", "easy"], script)
    assert result.exit_code == 0, result.output
    assert "Z9 is off the 10×10 board" in result.stdout
    assert ("you win in" in result.stdout) != ("random wins in" in result.stdout)
    assert result.stdout.endswith("replay with --game 5 --level easy\n")  # (won or lost)
    again = runner.invoke(app, ["battleship", "play", "--game", "5", "--level", "easy"], script)
    assert again.stdout == result.stdout


def test_play_goes_on_after_text_that_looks_like_markup():
    result = runner.invoke(app, ["battleship", "play", "--game", "9"], "[/x]\n:smile:\n")
    assert result.exit_code == 0, result.output
    assert "'[/x]' is not a cell name" in result.stdout
    assert "':smile:' is not a cell name" in result.stdout
    assert "stopped after 0 shots" in result.stdout


def test_ctrl_c_in_play_says_how_to_replay_and_where_the_fleet_was(monkeypatch):
    import hamle.cli.battleship as cli

    typed = iter(["E5\n"])

    def typing():
        line = next(typed, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(cli, "game_line", typing)
    result = runner.invoke(app, ["battleship", "play", "--game", "9", "--level", "easy"])
    assert result.exit_code == 130
    assert "stopped after 1 shot; replay with --game 9 --level easy\n" in result.stdout
    assert "the computer's fleet: Carrier" in result.stdout
    assert result.stderr.endswith("interrupted\n")


def test_play_answers_an_empty_line_or_help_with_its_keys():
    result = runner.invoke(app, ["battleship", "play", "--game", "9"], "\n  \nHELP\n?\nq\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("type a cell (like E5) to fire, q to quit") == 4
    assert "is not a cell name" not in result.stdout


def test_play_stops_cleanly_at_end_of_input():
    result = runner.invoke(app, ["battleship", "play", "--game", "9"], "A1\n")
    assert result.exit_code == 0
    assert "stopped after 1 shot; replay with --game 9 --level normal\n" in result.stdout


def test_play_ends_showing_the_computers_fleet_and_how_to_replay_the_same_game():
    from hamle.rng import FLEET_STREAM, game_stream

    args = ["--game", "5", "--level", "hard", "--rules", "russian"]
    result = runner.invoke(app, ["battleship", "play", *args], "B10\nq\n")
    assert result.exit_code == 0, result.output
    assert f"replay with {' '.join(args)}\n" in result.stdout  # (--game 5 alone: another game)
    rules = bs.Rules.russian()
    fleet = bs.get_placer("anti-density").place(rules, game_stream(5, FLEET_STREAM))  # (Hard's)
    assert result.stdout.endswith(f"the computer's fleet: {listed(fleet)}\n")
    assert "Boat 1 " in result.stdout and ". not fired at, o miss" in result.stdout


@pytest.mark.parametrize(
    ("level", "rules", "shooter", "placer"),
    [
        ("normal", "russian", "parity", "uniform"),
        ("Hard", "classic", "density", "anti-density"),
        ("expert", "classic", "expert", "anti-density"),
        ("expert", "russian", bs.level_shooter("expert", bs.Rules.russian()).name, "anti-density"),
        ("density", "classic", "density", "uniform"),  # (a shooter, not a level)
    ],
)
def test_play_at_a_level_plays_the_sites_shooter_against_the_sites_hidden_fleet(
    level, rules, shooter, placer
):
    from hamle.rng import FLEET_STREAM, game_stream

    args = ["battleship", "play", "--game", "8", "--level", level, "--rules", rules]
    result = runner.invoke(app, args, "q\n")
    assert result.exit_code == 0, result.output
    hidden = "" if placer == "uniform" else f", its fleet hidden by {placer}"
    assert result.stdout.startswith(f"game 8: you against {shooter}{hidden}, ")
    fleet = bs.get_placer(placer).place(bs.Rules.named(rules), game_stream(8, FLEET_STREAM))
    assert result.stdout.endswith(f"the computer's fleet: {listed(fleet)}\n")


def listed(fleet: bs.Fleet) -> str:
    """Where the ships of ``fleet`` lie, as the end of ``play`` shows them."""
    name = fleet.rules.grid.name
    return ", ".join(
        f"{ship.name} {name(cells[0])}" + (f"–{name(cells[-1])}" if len(cells) > 1 else "")
        for ship, cells in zip(fleet.rules.fleet, fleet.ships, strict=True)
    )


def test_replay_draws_the_pattern_for_parity_only_by_default():
    on = run("replay", "743", "--strategy", "parity", "--boards").stdout
    off = run("replay", "743", "--strategy", "hunt-target", "--boards").stdout
    forced = run("replay", "743", "--strategy", "hunt-target", "--boards", "--pattern").stdout
    assert "+" in on and "+" not in off and "+" in forced
    first_board = on.split("\n")[2:13]
    assert sum(row.count("+") for row in first_board) == 49  # 50 pattern cells, one shot


@pytest.mark.parametrize("flag", ["--pattern", "--no-pattern"])
def test_a_pattern_without_the_boards_is_refused_not_ignored(flag):
    # Without --boards only the last board is drawn, with no ship afloat to hunt.
    result = run("replay", "743", "--strategy", "hunt-target", flag)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"error: Invalid value: {flag} marks the boards --boards draws; give --boards too\n"
    )


def test_tournament_writes_its_matrix_as_json_a_file_and_a_chart(tmp_path):
    out, chart = tmp_path / "t.json", tmp_path / "t.png"
    args = ["--shooters", "parity,density", "--placers", "uniform,anti-density", "--games", "20"]
    data = run_json("tournament", *args, "--out", str(out), "--chart", str(chart))
    assert json.loads(out.read_text()) == data
    assert chart.read_bytes().startswith(b"\x89PNG")
    table = bs.tournament(
        bs.Rules.classic(), ["parity", "density"], ["uniform", "anti-density"], 20
    )
    assert data == table.as_dict()
    text = run("tournament", *args[:-2], "--rules", "russian", "--games", "5").stdout
    assert "density against uniform: anti-density +" in text and "fleet 4,3,3,2,2,2" in text
    alone = run("tournament", "--shooters", "density", "--placers", "uniform", "--games", "3")
    assert alone.exit_code == 0 and "against uniform" not in alone.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--placers", "uniform,nowhere"], "unknown placer 'nowhere'"),
        (["--shooters", "psychic"], "unknown strategy 'psychic'"),
        (["--placers", ","], "--placers names nothing"),
        (["--size", "3", "--fleet", "3,3,3", "--no-touch"], "cannot all be placed on this board"),
        (["--chart", "matrix.txt"], "must be a file name ending in .png"),
        (["--out", "/no/such/dir/t.json"], "does not exist"),
        (["--chart", "m\x00.png"], "an argument holds a NUL byte"),
    ],
)
def test_tournament_bad_input_leaves_no_file(tmp_path, args, message):
    out = tmp_path / "t.json"
    given = [] if "--out" in args else ["--out", str(out)]
    result = run("tournament", "--games", "2", *given, *args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output and not out.exists()


def test_simulate_against_a_placer():
    data = run_json("simulate", "--strategies", "density", "--games", "30", "--placer", "Edges")
    table = bs.simulate(bs.Rules.classic(), "density", 30, placer="edges")
    assert data == table.as_dict() and data["placer"] == "edges"
    result = run("simulate", "--games", "2", "--placer", "corner")
    assert result.exit_code == 2 and "unknown placer 'corner'" in result.stderr


def test_an_interrupt_stops_a_run_on_processes_at_once():
    """Ctrl-C (SIGINT to the terminal's whole process group) after the first games stops a
    run of a million games on two processes, which would otherwise play them all first."""
    hamle = Path(sys.executable).with_name("hamle")
    args = ["battleship", "simulate", "--games", "1000000", "--jobs", "2", "--shooters", "density"]
    leader, terminal = pty.openpty()  # stderr a terminal, so the progress bar shows
    running = subprocess.Popen(
        [hamle, *args], stdout=subprocess.PIPE, stderr=terminal, start_new_session=True
    )
    os.close(terminal)
    try:
        shown = b""
        while not re.search(rb"[1-9][0-9]*/1000000", shown):  # games have finished
            shown += os.read(leader, 4096)
        os.killpg(running.pid, signal.SIGINT)
        out, _ = running.communicate(timeout=120)  # (the whole run takes hours)
        with contextlib.suppress(OSError):  # (the end of a terminal's output)
            while chunk := os.read(leader, 4096):
                shown += chunk
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(running.pid, signal.SIGKILL)
        os.close(leader)
    assert running.returncode == 130 and out == b""
    assert shown.endswith(b"interrupted\r\n") and b"Traceback" not in shown


def refuse_to_play(*args, **kwargs):
    raise AssertionError("a game was played")


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        ("simulate", "--chart", "shots.png"),
        ("tournament", "--chart", "matrix.svg"),
        ("tournament", "--out", "matrix.json"),
    ],
)
def test_an_output_that_is_a_folder_is_refused_before_any_game(
    tmp_path, monkeypatch, command, option, name
):
    monkeypatch.setattr(bs, "simulate", refuse_to_play)
    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    (tmp_path / name).mkdir()
    result = run(command, "--games", "2", option, str(tmp_path / name))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {option}: {tmp_path / name} is a folder, not a file\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_output_that_cannot_be_written_is_refused_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    locked = tmp_path / "t.json"
    locked.write_text("{}")
    locked.chmod(0o444)
    result = run("tournament", "--games", "2", "--out", str(locked))
    assert result.exit_code == 2 and "cannot be written (permission denied)" in result.stderr
    assert locked.read_text() == "{}"


@pytest.mark.parametrize(
    ("board", "reason"),
    [
        (["--size", "26", "--fleet", ",".join(["1"] * 70)], "could need more than 311 bits"),
        (["--size", "16", "--fleet", "9,9,9,3,3,3,3,3,3,3"], "16 cells across"),
    ],
)
def test_count_says_why_it_cannot_count_in_the_words_of_density_exact(board, reason):
    """Each first says the exact count's own refusal; count adds that enumeration would not
    finish either (it said only that the board was out of the profile DP's reach)."""
    exact = run("density", "--exact", *board)
    assert exact.exit_code == 2 and reason in exact.stderr
    said = exact.stderr.removeprefix("error: ").removesuffix("\n")
    counted = run("count", *board)
    assert counted.exit_code == 2 and counted.stderr.startswith(f"error: {said}; ")
    assert "enumerating the fleets instead would take about" in counted.stderr
    assert counted.stderr.endswith("too many to finish; try a smaller board or fleet\n")


def test_play_refuses_a_level_that_cannot_play_the_rules_before_the_first_shot():
    args = ["battleship", "play", "--level", "exact", "--size", "16", "--fleet", "3,3"]
    result = runner.invoke(app, [*args, "--game", "1"], "A1\nq\n")
    assert result.exit_code == 2 and result.stdout == ""
    message = "a board 16 cells across with ships up to 3 long is too wide for exact counting"
    assert result.stderr == f"error: {message}\n"
    narrower = runner.invoke(app, [*args[:-3], "12", *args[-2:], "--game", "1"], "A1\nq\n")
    assert narrower.exit_code == 0 and "stopped after 1 shot" in narrower.stdout


def test_play_refuses_a_board_too_big_to_count_before_the_first_shot():
    args = ["battleship", "play", "--level", "exact", "--size", "12", "--game", "1"]
    result = runner.invoke(app, [*args, "--fleet", "4,4,4,3,3,3,2,2,2"], "A1\nq\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert "too many partial layouts to count exactly" in result.stderr


def test_one_game_shows_no_standard_error():
    args = ("tournament", "--games", "1", "--shooters", "density", "--placers", "uniform,edges")
    text = run(*args)
    assert text.exit_code == 0, text.output
    assert "±" not in text.stdout
    assert "density against uniform: edges +" in text.stdout
    data = run_json(*args)
    versus = data["matrix"]["density"]["edges"]["versus_uniform"]
    assert data["matrix"]["density"]["edges"]["stderr"] is None and versus["stderr"] is None
    simulated = run_json("simulate", "--games", "1", "--strategies", "density")
    assert simulated["strategies"]["density"]["stderr"] is None
    table = run("simulate", "--games", "1", "--strategies", "density").stdout
    assert "—" in table and "0.00" not in table.split("random (exact law)")[0]
    two = run("tournament", "--games", "2", *args[3:])
    assert "± standard error" in two.stdout and "edges +" in two.stdout and " ± " in two.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--size", "1", "--fleet", "1", "--hit", "A1"],
            "no afloat ship can explain the hit at A1",
        ),
        (
            ["--size", "3", "--fleet", "1", "--hit", "A1"],
            "no afloat ship can explain the hit at A1",
        ),
        (
            ["--rules", "russian", "--hit", "A1,B2"],
            "the open hits A1 and B2 touch only at a corner, but ships may not touch",
        ),
        (["--rules", "russian", "--exact", "--hit", "C3,B4"], "the open hits C3 and B4 touch"),
    ],
)
def test_density_names_the_hits_at_fault(args, message):
    result = run("density", *args)
    assert result.exit_code == 2 and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_exact_density_lists_the_unshot_cells_as_density_does():
    marks = ("--rules", "russian", "--miss", "C1", "--sunk", "J10", "--hit", "E5")
    counted = run_json("density", "--exact", *marks)
    weighed = run_json("density", *marks)
    assert set(counted["counts"]) == set(weighed["density"])
    assert not {"C1", "J10", "I9", "J9", "I10", "E5"} & set(counted["counts"])
    assert len(counted["counts"]) == 100 - 6


def test_an_interrupt_while_numba_loads_a_kernel_says_interrupted(monkeypatch):
    """numba reports Ctrl-C during its first load of a kernel as a SystemError caused by
    it; that is an interrupt too, not a traceback."""

    def loading(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("returned a result with an exception set") from exc

    monkeypatch.setattr(bs, "simulate", loading)
    result = run("simulate", "--games", "2")
    assert result.exit_code == 130 and result.stderr == "\ninterrupted\n"


def test_a_system_error_of_another_cause_is_not_called_an_interrupt(monkeypatch):
    def broken(*args, **kwargs):
        raise SystemError("returned a result with an exception set")

    monkeypatch.setattr(bs, "simulate", broken)
    result = run("simulate", "--games", "2")
    assert isinstance(result.exception, SystemError) and "interrupted" not in result.stderr


def test_an_error_numba_raises_for_a_ctrl_c_while_it_compiles_says_interrupted(monkeypatch):
    """Ctrl-C while numba compiles a kernel may end in numba's own RuntimeError ("no
    compiled object yet"), which names no interrupt: the Ctrl-C seen says it was one."""
    from hamle import start

    def compiling(*args, **kwargs):
        with contextlib.suppress(KeyboardInterrupt):
            start._ctrl_c(signal.SIGINT, None)  # (the handler the command line sets)
        raise RuntimeError("no compiled object yet for <Library 'pack'>")

    monkeypatch.setattr(start, "_pressed", [])
    monkeypatch.setattr(bs, "simulate", compiling)
    result = run("simulate", "--games", "2")
    assert result.exit_code == 130 and result.stderr == "\ninterrupted\n"
    monkeypatch.setattr(start, "_pressed", [])  # without Ctrl-C, the error is the error

    def broken(*args, **kwargs):
        raise RuntimeError("no compiled object yet for <Library 'pack'>")

    monkeypatch.setattr(bs, "simulate", broken)
    result = run("simulate", "--games", "2")
    assert isinstance(result.exception, RuntimeError) and "interrupted" not in result.stderr


def test_sample_count_is_a_range_the_help_gives_from_the_engine_limit():
    from hamle.battleship.exact import SAMPLE_LIMIT

    shown = runner.invoke(app, ["battleship", "sample", "--help"], terminal_width=200)
    assert shown.exit_code == 0 and f"[1 to {SAMPLE_LIMIT}]" in shown.output
    assert "1 or more" not in shown.output
    result = run("sample", "--count", str(SAMPLE_LIMIT + 1))
    assert result.exit_code == 2 and result.stderr == (
        f"error: Invalid value for '--count': {SAMPLE_LIMIT + 1} is not from 1 to {SAMPLE_LIMIT}.\n"
    )


def test_an_output_of_ascii_only_gets_escaped_json_and_readable_text():
    """Where stdout takes ASCII only, JSON escapes the rest (so nothing is lost) and a
    table writes × as x and the like, where both stopped on an encoding error."""
    hamle = Path(sys.executable).with_name("hamle")
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    args = [hamle, "battleship", "simulate", "--games", "2", "--strategies", "density"]
    done = subprocess.run([*args, "--json"], capture_output=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout)["rules"] == bs.Rules.classic().describe()
    assert b"10\\u00d710" in done.stdout
    done = subprocess.run(args, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    assert b"2 games (1..2), 10x10, fleet 5,4,3,3,2" in done.stdout and b"p10-p90" in done.stdout
    header = next(line for line in done.stdout.splitlines() if line.startswith(b"strategy"))
    row = next(line for line in done.stdout.splitlines() if line.startswith(b"density"))
    assert [m.start() for m in re.finditer(b"[|]", header)] == [
        m.start() for m in re.finditer(b"[|]", row)
    ]  # (columns as wide as what the output writes)
    done = subprocess.run(
        [hamle, "battleship", "density", "--hit", "Z9"], capture_output=True, env=env
    )
    assert done.returncode == 2 and done.stderr == b"error: Z9 is off the 10x10 board\n"
    typed = "ğ\nq\n".encode()  # (what an ASCII terminal cannot read is ?, not a traceback)
    done = subprocess.run(
        [hamle, "tour", "play", "--start", "A1"], input=typed, capture_output=True, env=env
    )
    assert done.returncode == 0 and b"'??' is not a cell name" in done.stdout


def column_starts(line: bytes) -> list[int]:
    """Where each column of a text table starts: after a run of two spaces or more."""
    return [0] + [m.end() for m in re.finditer(rb"  +", line.rstrip())]


def test_a_tournament_table_on_an_ascii_output_is_aligned_as_written():
    """± is written +/-, three characters for one: the columns are as wide as that."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    args = ["--games", "3", "--shooters", "random,parity", "--placers", "uniform,edges"]
    done = subprocess.run(
        [sys.executable, "-m", "hamle", "battleship", "tournament", *args],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith(b"shooter"))) :][:3]
    assert b"+/-" in table[1] and b"?" not in done.stdout
    assert column_starts(table[0]) == column_starts(table[1]) == column_starts(table[2])
    assert len(column_starts(table[0])) == 3


def test_simulate_takes_one_placer_and_tournament_takes_strategies_as_shooters():
    refused = run("simulate", "--games", "2", "--placer", "edges,spread")
    assert refused.exit_code == 2
    assert "--placer names one placer, not 'edges,spread'; `tournament --placers`" in (
        refused.stderr
    )
    by_either = [
        run_json("tournament", "--games", "2", option, "density", "--placers", "uniform")
        for option in ("--shooters", "--strategies")
    ]
    assert by_either[0] == by_either[1] and list(by_either[0]["matrix"]) == ["density"]


def test_the_simulation_table_in_a_narrow_terminal_folds_names_and_cuts_nothing(monkeypatch):
    """At 80 columns the table cut names and figures short ("hunt-tar…", "45.5/19…")."""
    import hamle.cli.battleship as cli
    from hamle.cli.common import _Console

    monkeypatch.setattr(cli, "console", _Console(width=80, emoji=False))
    names = "hunt-target,parity"
    result = run("simulate", "--games", "3", "--strategies", names)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and max(map(len, lines)) <= 80
    data = run_json("simulate", "--games", "3", "--strategies", names)
    for row in data["strategies"].values():
        figures = f"{row['p10']}–{row['p90']}", f"{row['hunt_mean']:.1f}/{row['target_mean']:.1f}"
        assert all(figure in result.stdout for figure in figures)
    paired = next(i for i, line in enumerate(lines) if line.startswith("paired against"))
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))  # under the head
    first_column = "".join(line.split(" ")[0] for line in lines[rule + 1 : paired])
    assert first_column == "hunt-targetparityrandom(exactlaw)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--miss", "A1,,B2"], "'A1,,B2' has an empty item; write one comma between two cells"),
        (["--hit", "E5,"], "'E5,' has an empty item"),
        (["--sunk", "A1-A3,,C5"], "'A1-A3,,C5' has an empty item"),
        (["--sunk", "A1-A5;;B1-B4"], "'A1-A5;;B1-B4' has an empty ship"),
        (["--fleet", "5,,4"], "--fleet takes ship lengths like 5,4,3,3,2, not '5,,4'"),
        (["--afloat", "5,4,"], "--afloat takes ship lengths like 5,4,3,3,2, not '5,4,'"),
        (
            ["--sunk", "A1,A2,A3,A4,A5,A6,A7"],
            "the sunk cells A1,A2,A3,A4,A5,A6,A7 touch, so they are one ship of 7 cells, longer "
            "than any in the fleet; write ships that touch apart with ';', like A1-A5;A6-A7",
        ),
        (["--sunk", "A1-A7"], "has length 7; no ship in the fleet has it\n"),  # (a range: no ;)
        (["--sunk", "A1"], "has length 1; no ship in the fleet has it\n"),
    ],
)
def test_a_list_with_an_item_left_out_is_refused_not_read_without_it(args, message):
    result = run("density", *args)
    assert result.exit_code == 2 and message in result.stderr, result.output


def test_ships_that_touch_given_apart_are_two_sunk_ships():
    data = run_json("density", "--sunk", "A1-A5;A6-A7")
    assert data["afloat"] == [4, 3, 3]


def test_the_hint_over_every_layout_gives_exact_means_without_an_error():
    text = run("hint", "--afloat", "2", "--hit", "A1").stdout
    assert "expert fires B1 (endgame)" in text
    assert "A2     1.500 shots to finish (2 layouts)  +0.000\n" in text
    assert "±" not in text and "fleets" not in text
    drawn = run("hint", "--miss", "A1", "--strategy", "expert(openings=false, fleets=50)").stdout
    assert "(rollouts)" in drawn and "(50 fleets)  +" in drawn and " ± " in drawn


def test_exact_counts_in_json_carry_each_cells_probability():
    data = run_json("density", "--exact", "--size", "3", "--fleet", "2")
    assert data["total"] == 12 and data["counts"]["B2"] == 4
    assert data["probability"]["B2"] == round(4 / 12, 6) and data["probability"]["A1"] == 0.166667


@pytest.mark.parametrize(
    ("command", "option"),
    [("simulate", "--strategies"), ("tournament", "--shooters"), ("tournament", "--placers")],
)
def test_a_list_of_names_with_a_name_left_out_is_refused(command, option):
    result = run(command, option, "parity,,random", "--games", "1")
    assert result.exit_code == 2
    assert f"{option} has an empty name: 'parity,,random'" in result.stderr, result.output


def test_results_say_which_hamle_made_them_and_a_mixture_its_weights(tmp_path):
    from hamle.fingerprint import fingerprint

    mark = fingerprint()
    assert mark == {"version": hamle.__version__, "source": mark["source"]}
    simulated = run_json("simulate", "--games", "2", "--shooters", "parity", "--placer", "mixed")
    assert simulated["hamle"] == mark
    assert simulated["placer_weights"] == bs.placers.mixture_weights(bs.Rules.classic())
    six = run_json("simulate", "--games", "2", "--shooters", "parity", "--placer", "mixed",
                   "--size", "6", "--fleet", "3,2")  # fmt: skip
    assert six["placer_weights"] == dict.fromkeys(bs.placers.TILTED, 0.25)
    plain = run_json("simulate", "--games", "2", "--shooters", "parity")
    assert plain["placer_weights"] is None
    out = tmp_path / "t.json"
    args = ["--games", "2", "--shooters", "parity", "--placers", "uniform,mixed(edges=3,spread=1)"]
    printed = run_json("tournament", *args, "--out", str(out))
    written = json.loads(out.read_text())
    assert printed == written and written["hamle"] == mark
    assert written["placer_weights"] == {
        "mixed(edges=3.0, spread=1.0)": {"edges": 3.0, "spread": 1.0}
    }


def test_bench_reports_say_which_hamle_ran(load_bench):
    from hamle.fingerprint import fingerprint

    assert load_bench("machine").machine()["hamle"] == fingerprint()


@pytest.mark.parametrize("placer", ["mixed(mixed=1)", "mixed(uniform=1, edges=1)"])
def test_a_mixture_of_itself_or_of_uniform_is_refused(placer):
    for args in (["simulate", "--placer", placer], ["tournament", "--placers", placer]):
        result = run(*args, "--games", "2")
        assert result.exit_code == 2, result.output
        assert "a mixture draws from the tilted placers (edges, anti-density, spread, " in (
            result.stderr
        )


def test_the_order_a_fleet_is_given_in_is_part_of_its_games():
    # README: game g places the ships in the order given; the default fleet's games stay.
    listed = run_json("simulate", "--games", "5", "--shooters", "density", "--fleet", "2,3,3,4,5")
    default = run_json("simulate", "--games", "5", "--shooters", "density")
    assert listed["rules"] != default["rules"]
    assert listed["strategies"]["density"]["mean"] != default["strategies"]["density"]["mean"]
    assert bs.Rules.custom(10, [2, 3, 3, 4, 5]).game == bs.Rules.classic().game
    from hamle.cli.battleship import FLEET

    assert "their order is part of the game" in FLEET.help


def test_simulate_gives_each_game_s_shots_and_the_paired_difference_against_the_first():
    args = ["simulate", "--games", "6", "--first", "40", "--shooters", "parity,density"]
    data = run_json(*args)
    played = {
        name: bs.play_games(bs.Rules.classic(), name, range(40, 46)).shots.tolist()
        for name in ("parity", "density")
    }
    rows = data["strategies"]
    assert {name: rows[name]["shots"] for name in rows} == played
    differences = [d - p for d, p in zip(played["density"], played["parity"], strict=True)]
    mean = sum(differences) / 6
    stderr = math.sqrt(sum((d - mean) ** 2 for d in differences) / 5 / 6)
    assert rows["parity"]["versus_first"] is None
    assert rows["density"]["versus_first"]["mean"] == pytest.approx(mean)
    assert rows["density"]["versus_first"]["stderr"] == pytest.approx(stderr)
    two = run("simulate", *args[1:], "--json", "--jobs", "2")
    assert two.stdout == run("simulate", *args[1:], "--json").stdout  # byte for byte
    text = run(*args).stdout
    assert f"paired against parity, on the same games: density {mean:+.2f}" in text
    alone = run("simulate", "--games", "2", "--shooters", "parity").stdout
    assert "paired against" not in alone


def test_the_done_within_column_is_half_the_board_and_the_headers_name_the_games():
    classic = run_json("simulate", "--games", "3", "--shooters", "parity")
    assert classic["within_shots"] == 50 and "within" in classic["strategies"]["parity"]
    six = run_json(
        "simulate", "--games", "3", "--shooters", "parity", "--size", "6", "--fleet", "3,2"
    )
    assert six["within_shots"] == 18
    shots = six["strategies"]["parity"]["shots"]
    assert six["strategies"]["parity"]["within"] == sum(s <= 18 for s in shots) / 3
    # (random fire is done within 18 shots when all 5 ship cells are among them)
    assert six["exact_random"]["within"] == pytest.approx(math.comb(18, 5) / math.comb(36, 5))
    text = run("simulate", "--games", "3", "--first", "4", "--shooters", "parity", "--size", "6",
               "--fleet", "3,2").stdout  # fmt: skip
    assert "Shots to sink the whole fleet, 3 games (4..6), 6×6" in text
    assert re.search(r"(≤|<=)18 ", text) and "50" not in text.splitlines()[1]
    matrix = run("tournament", "--games", "2", "--first", "5", "--shooters", "parity",
                 "--placers", "uniform").stdout  # fmt: skip
    assert "2 games (5..6), 10×10" in matrix
    assert (
        "1 game (7),"
        in run("simulate", "--games", "1", "--first", "7", "--shooters", "parity").stdout
    )
