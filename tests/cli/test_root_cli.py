"""What every command shares: the version, usage errors as one line, names in any case,
and `serve` refusing an address it cannot listen on before it prints anything."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx2 as httpx
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


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--pattern", "--no-pattern"], "--pattern/--no-pattern is given 2 times; give one of"),
        (["--no-pattern", "--pattern"], "--pattern/--no-pattern is given 2 times; give one of"),
        (["--pattern", "--pattern"], "--pattern/--no-pattern is given 2 times; give one of"),
        (["--boards", "--json", "--boards"], "--boards is given 2 times; give it once"),
        (["--json", "--json"], "--json is given 2 times; give it once"),
    ],
)
def test_a_flag_given_twice_or_with_its_opposite_is_refused(flags, message):
    """Not read as the last one given: --pattern --no-pattern drew no pattern, and
    --no-pattern --pattern drew it."""
    args = ["battleship", "replay", "743", "--strategy", "density", *flags]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"error: {message}{result.stderr.split(message)[1]}"
    assert result.stderr.count("\n") == 1


def test_help_given_twice_is_still_the_help():
    result = runner.invoke(app, ["battleship", "count", "--help", "--help"])
    assert result.exit_code == 0 and "Usage: hamle battleship count" in result.output


@pytest.mark.parametrize("args", [[], ["battleship"], ["mastermind"], ["tour"]])
def test_no_command_shows_the_help_and_no_empty_error(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "Usage: hamle" in result.output
    assert "error" not in result.stderr


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


@pytest.mark.parametrize(
    ("turkish", "english"),
    [
        (["battleship", "replay", "7", "--strategy", "PARİTY"], ["--strategy", "parity"]),
        (["battleship", "replay", "7", "--strategy", "parıty"], ["--strategy", "parity"]),
        (["battleship", "count", "--rules", "RUSSİAN", "--size", "5"], ["--rules", "russian"]),
        (["battleship", "density", "--hit", "İ5", "--miss", "ı6"], ["--hit", "I5", "--miss", "I6"]),
        (
            ["mastermind", "evaluate", "--strategy", "MİNİMAX", "--pegs", "2"],
            ["--strategy", "minimax"],
        ),
        (["tour", "hint", "--start", "E5", "--mode", "QUİCK"], ["--mode", "quick"]),
    ],
)
def test_a_turkish_keyboards_i_reads_as_i(turkish, english):
    """Caps on a Turkish keyboard types İ (RUSSİAN), and its lower-case ı is a letter too."""
    said = runner.invoke(app, [*turkish, "--json"])
    assert said.exit_code == 0, said.output
    plain = list(turkish)
    plain[plain.index(english[0]) + 1] = english[1]
    if len(english) == 4:
        plain[plain.index(english[2]) + 1] = english[3]
    timeless = [
        {**json.loads(run.stdout), "seconds": None}
        for run in (said, runner.invoke(app, [*plain, "--json"]))
    ]
    assert timeless[0] == timeless[1]


@pytest.mark.parametrize(
    "spaced",
    [
        ["battleship", "replay", "7", "--strategy", " hard ", "--json"],
        ["battleship", "simulate", "--games", "3", "--placer", " edges ", "--json"],
        ["battleship", "count", "--rules", " russian ", "--size", "5", "--json"],
        ["mastermind", "evaluate", "--strategy", " minimax ", "--pegs", "2", "--json"],
        ["mastermind", "score", "11", "12", "--variant", " classic ", "--pegs", "2", "--json"],
        ["tour", "hint", "--start", "E5", "--mode", "\tquick ", "--json"],
    ],
)
def test_a_name_is_read_without_the_spaces_around_it(spaced):
    """As each name of a list (--shooters ' hard , random') is."""
    result = runner.invoke(app, spaced)
    expected = runner.invoke(app, [arg.strip() for arg in spaced])
    assert result.exit_code == 0 and expected.exit_code == 0, result.output
    timeless = [json.loads(done.stdout) for done in (result, expected)]
    for data in timeless:
        data.pop("seconds", None)
    assert timeless[0] == timeless[1]


def test_play_takes_a_level_with_spaces_around_it():
    args = ["battleship", "play", "--game", "3", "--level"]
    spaced, plain = (
        runner.invoke(app, [*args, " hard "], "q\n"),
        runner.invoke(app, [*args, "hard"], "q\n"),
    )
    assert spaced.exit_code == 0 and spaced.stdout == plain.stdout, spaced.output


def test_simulate_counts_a_strategy_named_twice_once():
    args = ["battleship", "simulate", "--games", "4", "--json"]
    twice = runner.invoke(app, [*args, "--strategies", "easy,random,density,density"])
    once = runner.invoke(app, [*args, "--strategies", "random,density"])
    assert twice.exit_code == 0 and json.loads(twice.stdout) == json.loads(once.stdout)


def serve(*args: str, cwd=None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "from hamle.cli import main; main()", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=cwd)


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
    assert db.stderr == (
        f"error: cannot open the database {missing}: its folder {missing.parent} does not exist\n"
    )
    long_name = tmp_path / ("a" * 300 + ".sqlite3")
    db = serve("--port", str(free_port()), "--db", str(long_name))
    assert db.returncode == 2 and "the file name aaaaaaaaaaaaaaaaaaaa… is too long" in db.stderr
    (tmp_path / "not.sqlite3").write_text("not a database")
    db = serve("--port", str(free_port()), "--db", str(tmp_path / "not.sqlite3"))
    assert db.returncode == 2 and db.stderr.endswith(": file is not a database\n")


@pytest.mark.parametrize("empty", ["", "  "])
def test_serve_refuses_an_empty_database_path(tmp_path, empty):
    refused = serve("--port", str(free_port()), "--db", empty, cwd=tmp_path)
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == "error: --db must name a file, not an empty path\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("given", ["--db", "$HAMLE_DB"])
def test_serve_refuses_a_database_path_that_names_a_folder(tmp_path, monkeypatch, given):
    """``games.sqlite3/`` was opened as games.sqlite3, and the site served from it."""
    path = f"{tmp_path / 'games.sqlite3'}/"
    if given == "$HAMLE_DB":
        monkeypatch.setenv("HAMLE_DB", path)
    refused = serve("--port", str(free_port()), *(["--db", path] if given == "--db" else []))
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == f"error: {given} {path!r} names a folder, not a file\n"
    assert list(tmp_path.iterdir()) == []


def test_serve_says_its_address_once_it_answers_and_a_slow_start_first(tmp_path):
    # Warming the engines up as slowly as numba compiling them the first time.
    program = (
        "import time, hamle.web.app as app\n"
        "app.warm_up = lambda: time.sleep(3)\n"
        "from hamle.cli import main; main()\n"
    )
    port = free_port()
    args = ["serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3")]
    running = subprocess.Popen(
        [sys.executable, "-u", "-c", program, *args], stdout=subprocess.PIPE, text=True
    )
    stuck = threading.Timer(60, running.kill)  # (a line that never comes ends the test)
    stuck.start()
    try:
        first, second = running.stdout.readline(), running.stdout.readline()
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
    finally:
        stuck.cancel()
        running.terminate()
        running.wait(30)
    assert first == "getting the engines ready (compiled the first time: a minute)…\n"
    assert second.startswith(f"hamle at http://127.0.0.1:{port}  (games kept in ")
    assert health.json() == {"status": "ok"}


@pytest.mark.parametrize(
    ("output", "warm_up"), [("full", 3), ("closed", 3), ("gone", 3), ("gone", 0)]
)
def test_serve_without_room_for_its_address_serves_unannounced(tmp_path, output, warm_up):
    """Where the address (and the slow start before it) cannot be printed, on a full disk,
    a closed output or a pipe whose reader is gone, the site is served all the same and
    nothing is said: it was an error, a refusal to start or a quiet exit, and no site."""
    program = (
        "import time, hamle.web.app as app\n"
        f"app.warm_up = lambda: time.sleep({warm_up})\n"
        "from hamle.start import main; main()\n"
    )
    port = free_port()
    args = ["serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3")]
    read_end, write_end = os.pipe()
    os.close(read_end)  # (a reader gone before the first line)
    with open("/dev/full", "w") as full, open(write_end, "w") as gone:
        running = subprocess.Popen(
            [sys.executable, "-c", program, *args],
            stdout={"full": full, "gone": gone}.get(output),
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=(lambda: os.close(1)) if output == "closed" else None,
        )
    try:
        health, until = None, time.monotonic() + 60
        while health is None and running.poll() is None and time.monotonic() < until:
            with contextlib.suppress(httpx.HTTPError):
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).json()
            time.sleep(0.2)
        served = running.poll() is None
        running.terminate()
        _, said = running.communicate(timeout=30)
    finally:
        running.kill()
    assert served and health == {"status": "ok"}
    assert said == ""


@pytest.mark.parametrize(
    ("command", "output"),
    [
        (["battleship", "simulate", "--games", "x"], None),  # (a usage error)
        (["battleship", "density", "--hit", "Z9"], None),  # (the engine's)
        (["mastermind", "score", "1123", "11"], None),
        (["--version"], "/dev/full"),  # (output that cannot be written)
    ],
)
@pytest.mark.parametrize("errors", ["full", "closed"])
def test_an_error_that_cannot_be_said_keeps_its_status(command, output, errors):
    """With stderr closed or full, an error ended with status 1 (its own write failing),
    not the 2 that errors end with."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "hamle", *command],
            stdout=subprocess.DEVNULL if output is None else full,
            stderr=full if errors == "full" else None,
            preexec_fn=(lambda: os.close(2)) if errors == "closed" else None,
            timeout=120,
        )
    assert done.returncode == 2


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


@pytest.mark.parametrize(
    ("args", "name", "value"),
    [
        (["battleship", "count", "--jobs", "٣"], "--jobs", "'٣'"),
        (["battleship", "simulate", "--games", "١٠"], "--games", "'١٠'"),
        (["battleship", "replay", "١", "--strategy", "easy"], "game", "'١'"),
        (["battleship", "simulate", "--games", "1_0"], "--games", "'1_0'"),
        (["battleship", "sample", "--count", "²"], "--count", "'²'"),
        (["mastermind", "evaluate", "--pegs", "２"], "--pegs", "'２'"),
        (["serve", "--host", "999.1.1.1", "--port", "８０８０"], "--port", "'８０８０'"),
    ],
)
def test_whole_numbers_are_written_in_the_digits_0_to_9(args, name, value):
    """As cell names and --fleet read them: int() alone would take ٣ as 3."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"error: Invalid value for '{name}': {value} is not a whole number (digits 0-9, like 12).\n"
    )


def test_a_whole_number_may_have_a_sign_and_spaces_around_it():
    data = [
        json.loads(
            runner.invoke(
                app, ["battleship", "replay", game, "--strategy", "easy", "--json"]
            ).stdout
        )
        for game in ("7", "+7", " 7 ", "007")
    ]
    assert all(one == data[0] for one in data)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["battleship", "simulate", "--first", "1" + "0" * 5000],
            "'--first': a number of 5,001 digits is too long (at most 4,300 digits).",
        ),
        (
            ["battleship", "simulate", "--games", "9" * 5000],
            "'--games': a number of 5,000 digits is not from 1 to 1000000.",
        ),
        (
            ["battleship", "simulate", "--first", "-" + "9" * 40],
            "'--first': a number of 40 digits is not 1 or more.",
        ),
        (
            ["battleship", "count", "--jobs", "99999999999"],
            "'--jobs': 99999999999 is not from 1 to 64.",
        ),
    ],
)
def test_a_number_too_long_is_said_to_be_so_not_to_be_no_whole_number(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stderr == f"error: Invalid value for {message}\n"


def every_command():
    """Every command of the CLI, each game's sub-app loaded as it runs."""
    import importlib

    import typer

    from hamle.cli import GAMES

    root = typer.main.get_command(app)
    yield from (command for name, command in root.commands.items() if name not in GAMES)
    for game in GAMES:
        group = typer.main.get_group(importlib.import_module(f"hamle.cli.{game}").app)
        yield from group.commands.values()


def test_every_whole_number_of_every_command_is_read_alike():
    from hamle.cli.common import WholeNumber

    numbers = [
        param
        for command in every_command()
        for param in command.params
        if "int" in type(param.type).__name__.lower() or isinstance(param.type, WholeNumber)
    ]
    assert len(numbers) > 20 and all(isinstance(p.type, WholeNumber) for p in numbers)


HAMLE = [sys.executable, "-X", "importtime", str(pathlib.Path(sys.executable).with_name("hamle"))]


def test_a_commands_help_is_one_line_a_paragraph_for_the_terminal_to_wrap():
    """The help kept the docstring's lines, so a narrow terminal cut each in two."""
    helps = [command.help for command in every_command() if command.help]
    assert len(helps) > 15
    for text in helps:
        assert all("\n" not in paragraph for paragraph in text.split("\n\n")), text


def test_every_path_of_every_command_is_a_file_name():
    from hamle.cli.common import FileName

    paths = [p for c in every_command() for p in c.params if p.type.name in ("path", "file")]
    assert len(paths) >= 5 and all(isinstance(p.type, FileName) for p in paths)


@pytest.mark.parametrize(
    "args",
    [
        ["battleship", "simulate", "--games", "2", "--chart", ""],
        ["battleship", "tournament", "--games", "2", "--out", " "],
        ["mastermind", "verify", ""],
    ],
)
def test_an_empty_path_names_no_file_rather_than_the_current_folder(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.endswith(f"{args[-1]!r} names no file.\n"), result.stderr


@pytest.mark.parametrize(
    ("args", "number"),
    [(["battleship", "replay", "-1"], "-1"), (["mastermind", "score", "-1234", "1234"], "-1234")],
)
def test_a_negative_number_is_said_to_be_one_not_to_be_no_option(args, number):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr == f"error: {number} is not an option, and no number here is negative\n"
    assert "No such option: -x" in runner.invoke(app, ["battleship", "replay", "-x"]).stderr


PROMPTS = [
    ["mastermind", "solve"],
    ["mastermind", "play", "--game", "1"],
    ["tour", "play", "--start", "A1"],
    ["battleship", "play", "--game", "1"],
]


@pytest.mark.parametrize("args", PROMPTS)
def test_a_line_too_long_at_a_prompt_is_let_go_and_the_game_goes_on(args):
    """A careless paste ended the game; every game lets a line too long go and asks again."""
    result = runner.invoke(app, args, input="0" * 30_000 + "\nq\n")
    assert result.exit_code == 0 and result.stderr == ""
    assert "a line longer than 10,000 characters is not read; the game goes on" in result.stdout
    just_short = runner.invoke(app, args, input="0" * 9_999 + "\nq\n")
    assert just_short.exit_code == 0 and "error:" not in just_short.stderr


@pytest.mark.parametrize("args", PROMPTS)
def test_input_without_line_ends_is_one_error_not_all_the_memory(args, monkeypatch):
    """Input without line ends (like ``< /dev/zero``) was read whole into memory."""
    from hamle.cli import common

    monkeypatch.setattr(common, "LONGEST_SKIPPED", 50_000)
    result = runner.invoke(app, args, input="0" * 100_000)
    assert result.exit_code == 2
    assert result.stderr == "error: a line of input is longer than 50,000 characters\n"


@pytest.mark.parametrize("args", PROMPTS)
def test_a_prompt_with_its_input_closed_ends_as_at_the_end_of_the_input(args):
    command = [str(pathlib.Path(sys.executable).with_name("hamle")), *args]
    done = subprocess.run(
        command,
        stdin=None,
        capture_output=True,
        text=True,
        close_fds=True,
        preexec_fn=lambda: os.close(0),
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


TYPED_WITH_CR = [
    (["battleship", "play", "--game", "1"], "E5\rF5\r\nq\r", b"stopped after 2 shots"),
    (["mastermind", "play", "--game", "1"], "1122\r1234\r\nq\r", b"guess 3> \nthe secret"),
    (["mastermind", "solve"], "3 0\r1 1\r\nq\r", b"guess 3: 1114  answer> \nstopped"),
    (["tour", "play", "--start", "A1"], "A4\rD4\r\nq\r", "free play A1 · 3/100".encode()),
]


@pytest.mark.parametrize(("args", "typed", "said"), TYPED_WITH_CR)
def test_a_line_typed_may_end_at_cr_or_crlf_as_at_lf(args, typed, said):
    """Input saved on an old Mac ends its lines at \\r alone: it was read as one line."""
    done = subprocess.run(
        [sys.executable, "-m", "hamle", *args],
        input=typed.encode(),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert said in done.stdout, done.stdout[-300:]
    assert b"type a cell (like E5) to fire" not in done.stdout  # (no empty line in CRLF)


def test_a_line_ending_at_cr_is_answered_before_the_next_line_comes():
    """Whether \\n follows a \\r is not waited for: a program typing one line at a time
    would wait for the answer, and the answer for it."""
    running = subprocess.Popen(
        [sys.executable, "-m", "hamle", "tour", "play", "--start", "A1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        running.stdin.write(b"A4\r")
        running.stdin.flush()
        said, until = b"", time.monotonic() + 60
        while b"2 filled" not in said and time.monotonic() < until:
            if select.select([running.stdout], [], [], 1)[0]:
                if not (chunk := os.read(running.stdout.fileno(), 1 << 16)):
                    break  # (it ended)
                said += chunk
        assert b"2 filled" in said, said[-300:]
    finally:
        running.kill()
        running.communicate()


def test_ctrl_c_while_the_command_line_loads_says_interrupted():
    """The installed `hamle` imports the command line (typer and all, about 0.15 s) inside
    its entry point: Ctrl-C then is `interrupted` and status 130, not a traceback. The
    signal is sent as soon as the first of typer's modules is imported (-X importtime)."""
    running = subprocess.Popen(
        [*HAMLE, "battleship", "count"], stderr=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        shown = []
        while "typer" not in (line := running.stderr.readline().decode()):
            assert line, "".join(shown)
            shown.append(line)
        running.send_signal(signal.SIGINT)
        out, err = running.communicate(timeout=60)
    finally:
        running.kill()
    assert running.returncode == 130, err.decode()[-2000:]
    assert out == b"" and err.endswith(b"\ninterrupted\n") and b"Traceback" not in err


@pytest.mark.parametrize(
    "command",
    [
        ["mastermind", "score", "1123", "1123"],
        ["battleship", "sample", "--count", "3000", "--json"],  # past the output's buffer
        ["--help"],
        ["serve", "--help"],  # (serve itself starts without its output; its help is output)
    ],
)
def test_output_that_cannot_be_written_is_one_error_line(command):
    hamle = [sys.executable, str(pathlib.Path(sys.executable).with_name("hamle"))]
    with open("/dev/full", "w") as full:
        run = subprocess.run([*hamle, *command], stdout=full, stderr=subprocess.PIPE, text=True)
    assert run.returncode == 2
    assert run.stderr == "error: cannot write the output: No space left on device\n"
    closed = subprocess.run(
        [*hamle, *command], stderr=subprocess.PIPE, text=True, preexec_fn=lambda: os.close(1)
    )
    assert closed.returncode == 2
    assert closed.stderr == "error: cannot write the output: standard output is closed\n"


def test_a_reader_gone_after_the_first_line_of_a_long_json_ends_it_with_status_1():
    """One large write that the pipe took only in part returned as if whole: status 0."""
    hamle = [sys.executable, str(pathlib.Path(sys.executable).with_name("hamle"))]
    command = ["battleship", "sample", "--count", "20000", "--seed", "1", "--json"]
    run = subprocess.Popen([*hamle, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert run.stdout.readline() == b"{\n"
    run.stdout.close()  # as `| head -1` does
    assert run.wait(60) == 1
    assert b"Traceback" not in run.stderr.read()


def test_the_entry_point_is_the_guarded_one():
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="hamle")
    assert script.value == "hamle.start:main"


def test_an_interrupt_while_a_command_imports_its_engine_says_interrupted(monkeypatch):
    """Ctrl-C amid `import hamle.battleship` in a command: the error kinds to print are not
    asked for (that import again would fail on the modules Ctrl-C left half made)."""
    import hamle.battleship as bs

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bs, "count_fleets", interrupted)
    monkeypatch.delattr(bs, "BattleshipError")  # (as a module left half imported lacks it)
    result = runner.invoke(app, ["battleship", "count"])
    assert result.exit_code == 130 and result.stderr == "\ninterrupted\n"


def test_python_m_hamle_is_the_hamle_command():
    def run(*command: str) -> subprocess.CompletedProcess:
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    script = str(pathlib.Path(sys.executable).with_name("hamle"))
    for args in (["mastermind", "score", "1122", "1234"], ["tour", "nonsense"]):
        as_module, as_script = run(sys.executable, "-m", "hamle", *args), run(script, *args)
        assert (as_module.returncode, as_module.stdout) == (as_script.returncode, as_script.stdout)
        assert as_module.stderr == as_script.stderr
    assert as_module.returncode == 2 and "No such command 'nonsense'" in as_module.stderr
    assert "Usage: python -m hamle " in run(sys.executable, "-m", "hamle", "--help").stdout


ENTRY = [sys.executable, str(pathlib.Path(sys.executable).with_name("hamle"))]


def test_output_the_parent_left_non_blocking_is_written_whole():
    """A pipe left non-blocking took a 64 KB part of the output and the rest was lost, with
    status 0."""
    command = [*ENTRY, "battleship", "sample", "--count", "3000", "--seed", "1", "--json"]
    whole = subprocess.run(command, capture_output=True, check=True).stdout
    reading, writing = os.pipe()
    os.set_blocking(writing, False)
    running = subprocess.Popen(command, stdout=writing, stderr=subprocess.PIPE)
    read = []
    with os.fdopen(reading, "rb") as pipe:
        reader = threading.Thread(target=lambda: read.append(pipe.read()))
        threading.Event().wait(1.0)  # (the pipe fills before it is read)
        reader.start()
        assert running.wait(60) == 0
        os.close(writing)  # (the end of the output)
        reader.join(60)
    assert read == [whole] and len(whole) > 1_000_000


def test_input_not_in_the_terminals_encoding_is_a_wrong_cell_not_the_end():
    command = [*ENTRY, "battleship", "play", "--game", "5", "--level", "easy"]
    done = subprocess.run(
        command,
        input=b"\xfd5\n\xef\xbb\xbfE5\nq\n",  # a Turkish \xfd from a legacy terminal; then a BOM
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # (strict, as any UTF-8 locale)
        timeout=120,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert "'\ufffd5' is not a cell name" in done.stdout.decode()
    assert "you: E5" in done.stdout.decode()


@pytest.mark.parametrize("threads", ["0", "-3", " 0 ", "٠"])
def test_a_thread_count_numba_would_refuse_is_one_error_line(threads):
    result = runner.invoke(app, ["battleship", "count"], env={"NUMBA_NUM_THREADS": threads})
    assert result.exit_code == 2
    assert result.stderr == f"error: NUMBA_NUM_THREADS must be 1 or more, not {threads.strip()!r}\n"


def test_a_huge_terminal_width_pads_the_help_to_a_thousand_columns_at_most():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "99999999999"})
    assert result.exit_code == 0 and "battleship" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 1000


@pytest.mark.parametrize("columns", ["0", "5"])
def test_a_terminal_width_too_narrow_to_print_in_is_not_taken(columns):
    """In a terminal said to be 0 columns wide, the table was not printed at all."""
    import fcntl
    import pty
    import struct
    import termios

    leader, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    command = [*ENTRY, "battleship", "simulate", "--games", "2", "--strategies", "random"]
    done = subprocess.run(
        command, stdout=terminal, stderr=terminal, env={**os.environ, "COLUMNS": columns}
    )
    os.close(terminal)
    shown = b""
    with contextlib.suppress(OSError):  # (the end of a terminal's output)
        while chunk := os.read(leader, 4096):
            shown += chunk
    os.close(leader)
    assert done.returncode == 0 and b"random (exact law)" in shown


def test_an_error_on_an_ascii_only_stderr_escapes_what_it_cannot_write(tmp_path):
    chart = tmp_path / "ç" / "c.png"
    command = [*ENTRY, "battleship", "simulate", "--games", "2", "--chart", str(chart)]
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(command, capture_output=True, env=env)
    assert done.returncode == 2
    assert done.stderr == f"error: --chart: the folder {tmp_path}/\\xe7 does not exist\n".encode()
