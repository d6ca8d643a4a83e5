"""What every command shares: the version, usage errors as one line, names in any case,
and `serve` refusing an address it cannot listen on before it prints anything."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hamle import __version__
from hamle.cli import app

runner = CliRunner()


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"hamle {__version__}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "No such command 'nope'"),
        (["tour", "hint"], "Missing option '--start'"),
        (["battleship", "simulate", "--games", "x"], "'x' is not a whole number"),
        (["battleship", "count", "--jobs", "0"], "--jobs"),
        (["mastermind", "score", "1123", "3211", "--colour", "6"], "No such option: --colour"),
    ],
)
def test_usage_errors_are_one_error_line_and_status_2(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and message in result.stderr
    assert result.stderr.count("\n") == 1 and "╭" not in result.output and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["battleship", "sample", "--hit", "A1", "--hit", "B2"], "--hit"),
        (["battleship", "density", "--miss=A1", "--miss", "C3", "--miss", "E5"], "--miss"),
        (
            ["battleship", "simulate", "--strategies", "density", "--shooters", "random"],
            "--strategies/--shooters",
        ),
        (["battleship", "play", "--level", "hard", "--level", "easy"], "--level"),
        (["tour", "hint", "--start", "E5", "--moves", "E8", "--moves", "G10"], "--moves"),
        (["mastermind", "solve", "--strategy", "minimax", "--strategy", "random"], "--strategy"),
        (["serve", "--port", "8001", "--port", "8002"], "--port"),
    ],
)
def test_an_option_given_twice_is_refused_not_read_as_its_last_value(args, names):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    times = sum(arg.split("=")[0] in names.split("/") for arg in args)
    assert f"error: {names} is given {times} times; give it once" in result.stderr


def test_a_flag_given_twice_is_the_flag():
    result = runner.invoke(app, ["battleship", "density", "--json", "--json", "--hit", "E5"])
    assert result.exit_code == 0 and json.loads(result.stdout)["afloat"] == [5, 4, 3, 3, 2]


HUGE = "9" * 5000  # beyond the digits Python turns into an int by default


@pytest.mark.parametrize(
    "args",
    [
        ["battleship", "density", "--hit", f"A{HUGE}"],
        ["battleship", "count", "--fleet", f"5,{HUGE}"],
        ["battleship", "replay", HUGE],
        ["tour", "hint", "--start", f"E{HUGE}"],
        ["mastermind", "evaluate", "--pegs", HUGE],
    ],
)
def test_numbers_of_thousands_of_digits_are_one_error_line(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stderr.startswith("error:")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_names_are_taken_in_any_case():
    hard = runner.invoke(app, ["battleship", "replay", "7", "--strategy", "HARD", "--json"])
    density = runner.invoke(app, ["battleship", "replay", "7", "--strategy", "density", "--json"])
    assert hard.exit_code == 0 and json.loads(hard.stdout) == json.loads(density.stdout)
    quick = runner.invoke(app, ["tour", "hint", "--start", "E5", "--mode", "QUICK", "--json"])
    assert quick.exit_code == 0 and json.loads(quick.stdout)["mode"] == "quick"


def test_simulate_counts_a_strategy_named_twice_once():
    args = ["battleship", "simulate", "--games", "4", "--json"]
    twice = runner.invoke(app, [*args, "--strategies", "easy,random,density,density"])
    once = runner.invoke(app, [*args, "--strategies", "random,density"])
    assert twice.exit_code == 0 and json.loads(twice.stdout) == json.loads(once.stdout)


def serve(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "from hamle.cli import main; main()", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_serve_refuses_an_address_it_cannot_have():
    bad = serve("--host", "999.1.1.1")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: cannot listen on 999.1.1.1:8000: no such address")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = serve("--port", str(port))
    assert busy.returncode == 2 and busy.stdout == ""
    assert busy.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}:")
    assert busy.stderr.count("\n") == 1


def test_serve_says_an_address_or_a_database_as_typed(tmp_path):
    host = serve("--host", "[/x]")
    assert host.returncode == 2 and host.stdout == ""
    assert host.stderr.startswith("error: cannot listen on [/x]:8000: no such address")
    missing = tmp_path / "[bold]no" / "games.sqlite3"
    db = serve("--port", str(free_port()), "--db", str(missing))
    assert db.returncode == 2 and db.stdout == "" and "Traceback" not in db.stderr
    assert db.stderr.startswith(f"error: cannot open the database {missing}:")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_running_out_of_memory_is_one_line(monkeypatch):
    import hamle.battleship as bs

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(bs, "count_fleets", exhausted)
    result = runner.invoke(app, ["battleship", "count"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith("error: out of memory: fewer --jobs")
