"""The CLI imports only what a command needs: help loads no engine, a command only its own
game's, and the help reads as before."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import hamle.battleship as bs
import hamle.mastermind as mm
from hamle.battleship.exact import SAMPLE_LIMIT
from hamle.cli import GAMES, app

ENGINES = {"hamle.battleship", "hamle.mastermind", "hamle.tour"}
HEAVY = ("numba", "numpy")


def modules_of(code: str) -> set[str]:
    """Every module imported once ``code`` has run (successfully) in a fresh interpreter."""
    script = (
        f"import json, sys\ntry:\n    {code}\nfinally:\n    print(json.dumps(list(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def modules_of_cli(*argv: str) -> set[str]:
    return modules_of(f"sys.argv = ['hamle', *{argv!r}]; from hamle.cli import main; main()")


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["battleship", "--help"], ["mastermind", "--help"], ["tour", "--help"]],
)
def test_help_imports_no_engine(argv):
    modules = modules_of_cli(*argv)
    assert not modules & {*ENGINES, *HEAVY}


def test_tour_daily_needs_no_numba():
    modules = modules_of_cli("tour", "daily", "--date", "2026-12-01")
    assert "hamle.tour" in modules
    assert "numba" not in modules and not modules & (ENGINES - {"hamle.tour"})


def test_import_tour_needs_no_numba():
    assert "numba" not in modules_of("import hamle.tour")


def test_mastermind_score_adds_nothing_to_the_engine():
    engine = modules_of("import hamle.mastermind")
    modules = modules_of_cli("mastermind", "score", "1122", "1234")
    assert not modules & {"hamle.battleship", "hamle.tour"}
    for heavy in HEAVY:
        if heavy not in engine:
            assert heavy not in modules


def test_mastermind_evaluate_of_a_heuristic_on_4x6_needs_no_numba():
    modules = modules_of_cli("mastermind", "evaluate", "--strategy", "minimax", "--json")
    assert "hamle.mastermind" in modules and "numba" not in modules


runner = CliRunner()


def test_root_help_lists_every_command():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "serve" in result.output and "Serve the site" in result.output
    for name, line in GAMES.items():
        assert name in result.output and line in result.output


@pytest.mark.parametrize("name", GAMES)
def test_game_help_has_its_line_and_commands(name):
    result = runner.invoke(app, [name, "--help"])
    assert result.exit_code == 0
    assert f"Usage: hamle {name} [OPTIONS] COMMAND" in result.output
    assert GAMES[name] in result.output
    assert "--install-completion" not in result.output


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["battleship", "replay", "--help"], list(bs.SHOOTERS)),
        (["mastermind", "evaluate", "--help"], list(mm.STRATEGIES)),
        (["mastermind", "solve", "--help"], list(mm.STRATEGIES)),
        (["mastermind", "play", "--help"], list(mm.STRATEGIES)),
    ],
)
def test_strategy_help_names_the_registry(argv, names):
    result = runner.invoke(app, argv)
    assert result.exit_code == 0
    assert "{names}" not in result.output
    words = result.output.replace(",", " ").replace(".", " ").split()
    assert all(name in words for name in names)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["battleship", "simulate", "--help"], ["[1 to 64]", "[1 or more]"]),
        (["battleship", "sample", "--help"], [f"[1 to {SAMPLE_LIMIT}]"]),
        (["serve", "--help"], ["[1 to 65535]"]),
        (["mastermind", "tree", "--help"], ["[1 to 64]"]),
    ],
)
def test_help_says_whole_number_ranges_in_words(argv, words):
    result = runner.invoke(app, argv, terminal_width=200)
    assert result.exit_code == 0
    assert all(said in result.output for said in words)
    assert "<=x" not in result.output and "int range" not in result.output


def test_replay_help_names_the_aliases_it_takes():
    result = runner.invoke(app, ["battleship", "replay", "--help"], terminal_width=300)
    assert result.exit_code == 0
    for alias, name in bs.ALIASES.items():
        assert f"{name} ({alias})" in result.output
        taken = runner.invoke(app, ["battleship", "replay", "7", "--strategy", alias, "--json"])
        assert taken.exit_code == 0 and json.loads(taken.stdout)["strategy"] == name
