"""Every command under generated bad input: exit status 2 and one ``error:`` line on
stderr, or 0 where the input happens to be good; never a traceback, never a long wait."""

from __future__ import annotations

from time import perf_counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hamle.cli import app

# Values that are wrong in every way a person (or a script) gets them wrong, and a few
# right ones that keep the work small (a valid --games 100000 would only be slow).
HOSTILE = [
    "",
    " ",
    "-1",
    "0",
    "1",
    "2",
    "x",
    "1.5",
    "0x10",
    "٣",
    "1e3",
    "9" * 5000,
    "A" + "9" * 5000,
    "5," + "9" * 5000,
    "E5",
    "e5",
    "K11",
    "A0",
    "A1,A1",
    "A1-A3",
    "A1-B2",
    "5,4,3",
    "5,x",
    "classic",
    "russian",
    "dutch",
    "1122",
    "11223",
    "1 1 2 2",
    "6x9",
    "bulls-and-cows",
    "hard",
    "HARD",
    "optimal",
    "quick",
    "2026-02-30",
    "2026-12-03",
    "../../etc/passwd",
    "\x00",
    "é",
    "😀",
    "[/x]",  # (rich markup: printed as typed, never read)
    "[bold]1122",
    ":smile:",
    "\x1b[31m",
    "--json",
    ";",
    "-",
]
COMMANDS = {
    ("battleship", "count"): ["--rules", "--size", "--fleet", "--jobs"],
    ("battleship", "simulate"): ["--strategies", "--games", "--first", "--rules", "--jobs"],
    ("battleship", "replay"): ["--strategy", "--rules", "--size", "--fleet"],
    ("battleship", "density"): ["--rules", "--hit", "--miss", "--sunk", "--afloat", "--size"],
    ("battleship", "sample"): ["--rules", "--hit", "--miss", "--count", "--seed"],
    ("battleship", "play"): ["--level", "--game", "--rules"],
    ("battleship", "tournament"): ["--shooters", "--placers", "--first", "--rules", "--size"],
    ("mastermind", "score"): ["--variant", "--pegs", "--colours"],
    ("mastermind", "evaluate"): ["--strategy", "--variant", "--pegs", "--colours", "--jobs"],
    ("mastermind", "verify"): [],
    ("mastermind", "solve"): ["--strategy", "--variant", "--pegs", "--colours"],
    ("mastermind", "play"): ["--strategy", "--game", "--variant"],
    ("tour", "daily"): ["--date"],
    ("tour", "hint"): ["--start", "--moves", "--mode"],
    ("tour", "solve"): ["--start", "--moves"],
    ("tour", "play"): ["--start", "--date"],
}
# Kept small on purpose: a board or a code space a valid value could make big.
SMALL = {"--size": ["-1", "0", "1", "3", "27", "x", "9" * 5000], "--games": ["0", "1", "2", "x"]}
BIG_WORK = {("mastermind", "evaluate"), ("battleship", "count")}


@st.composite
def invocations(draw):
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options = COMMANDS[command]
    args = list(command)
    args += draw(st.lists(st.sampled_from(HOSTILE), max_size=2))  # stray arguments
    for option in (
        draw(st.lists(st.sampled_from(options), max_size=3, unique=True)) if options else []
    ):
        args += [option, draw(st.sampled_from(SMALL.get(option, HOSTILE)))]
    if command in BIG_WORK:  # no valid variant or board that takes minutes
        args += ["--pegs", "9"] if command[0] == "mastermind" else ["--size", "27"]
    if command == ("battleship", "tournament"):  # (mixed tunes itself for seconds)
        args[2:2] = ["--placers", "uniform,edges"]
        args += ["--games", "2"]
    script = "\n".join(draw(st.lists(st.sampled_from(HOSTILE), max_size=4))) + "\nq\n"
    return args, script


@pytest.fixture(scope="module")
def compiled():
    """Compile the exact kernels first: the time limit below is for the work, and a fresh
    clone compiles them on first use."""
    for rules in ("classic", "russian"):
        result = CliRunner().invoke(app, ["battleship", "sample", "--rules", rules, "--count", "1"])
        assert result.exit_code == 0, result.output


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(invocations())
def test_bad_input_is_one_error_line_and_never_a_traceback(compiled, invocation):
    args, script = invocation
    started = perf_counter()
    result = CliRunner().invoke(app, args, input=script)
    assert perf_counter() - started < 20, args  # no hang, no minutes of work
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert "Traceback" not in result.output, args
    assert result.exit_code in (0, 2), (args, result.exit_code, result.output[-500:])
    if result.exit_code == 2:
        assert result.stderr.startswith("error:"), (args, result.stderr[:300])
        assert result.stderr.count("\n") == 1, (args, result.stderr[:500])


LONG = "x" * 100_000


@pytest.mark.parametrize(
    "args",
    [
        ["battleship", "density", "--hit", LONG],
        ["battleship", "density", "--sunk", LONG],
        ["battleship", "density", "--sunk", f"A1-{LONG}"],
        ["battleship", "density", "--sunk", f"{LONG}-"],
        ["battleship", "density", "--rules", LONG],
        ["battleship", "density", "--fleet", LONG],
        ["battleship", "density", "--afloat", LONG],
        ["battleship", "density", "--sunk", "A" + "0" * 100_000 + "1-B2"],
        ["battleship", "simulate", "--games", "2", "--strategies", LONG],
        ["battleship", "simulate", "--games", "2", "--placer", LONG],
        ["battleship", "tournament", "--games", "2", "--shooters", LONG],
        ["battleship", "replay", "1", "--strategy", f"{LONG} {LONG}"],
        ["battleship", "count", "--size", LONG],
        ["battleship", "count", LONG],
        ["battleship", "count", f"--{LONG}"],
        ["mastermind", "score", LONG, "1122"],
        ["tour", "hint", "--start", LONG],
    ],
)
def test_an_error_quotes_a_long_value_cut_short(args):
    """However long the text typed, the error line quotes a bounded part of it."""
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stderr.startswith("error:"), result.output[:300]
    assert result.stderr.count("\n") == 1 and len(result.stderr) < 600, result.stderr[:600]
    assert "…" in result.stderr


def test_a_long_value_is_cut_to_the_same_length_wherever_it_is_quoted():
    """--fleet cut it to 20 characters where the cell names and the rules cut it to 40."""
    lines = [
        CliRunner().invoke(app, ["battleship", "count", option, "9" + "x" * 100]).stderr
        for option in ("--fleet", "--rules")
    ]
    assert all(f"'9{'x' * 39}…'" in line for line in lines), lines
