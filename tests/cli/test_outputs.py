"""Output files (--out, --chart): refused before a run when they cannot be written, written
whole or not at all, through a symbolic link to its target, and never a traceback."""

import io
import json
import os
import pathlib
import stat
import subprocess
import sys

import matplotlib.figure
import pytest
from typer.testing import CliRunner

import hamle.battleship as bs
from hamle.battleship import analysis
from hamle.cli import app, common

runner = CliRunner()
TOURNAMENT = ("battleship", "tournament", "--games", "2", "--shooters", "random")
TOURNAMENT += ("--placers", "uniform")
TREE = ("mastermind", "tree", "--pegs", "2", "--colours", "3")


def run(*args: str):
    return runner.invoke(app, list(args))


def listing(folder: pathlib.Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def refuse_to_play(*args, **kwargs):
    raise AssertionError("a game was played")


def longest_name(folder: pathlib.Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


@pytest.mark.parametrize("command", [TOURNAMENT, TREE])
def test_the_longest_name_the_folder_holds_is_written(tmp_path, command):
    out = tmp_path / ("a" * (longest_name(tmp_path) - 5) + ".json")
    result = run(*command, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) and listing(tmp_path) == [out.name]


@pytest.mark.parametrize("command", [TOURNAMENT, TREE])
def test_a_name_too_long_for_the_folder_is_refused_before_the_run(tmp_path, monkeypatch, command):
    import hamle.mastermind.tree

    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    monkeypatch.setattr(hamle.mastermind.tree, "strategy_tree", refuse_to_play)
    out = tmp_path / ("a" * longest_name(tmp_path) + ".json")
    result = run(*command, "--out", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith("error: --out: the file name aaaa")
    assert "is too long" in result.stderr and listing(tmp_path) == []


@pytest.mark.parametrize("command", [TOURNAMENT, TREE])
def test_a_failed_write_whose_cleanup_fails_too_is_one_error_line(tmp_path, monkeypatch, command):
    out = tmp_path / "t.json"
    out.write_text("{}")

    def fail(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "replace", fail)
    monkeypatch.setattr(pathlib.Path, "unlink", fail)
    result = run(*command, "--out", str(out))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.count("\n") == 1 and "No space left on device" in result.stderr
    assert out.read_text() == "{}"


@pytest.mark.parametrize("command", [TOURNAMENT, TREE])
def test_out_writes_through_a_symbolic_link_to_its_target(tmp_path, command):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("{}")
    link.symlink_to(target.name)
    result = run(*command, "--out", str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.readlink() == pathlib.Path(target.name)
    assert json.loads(target.read_text()) != {}
    assert listing(tmp_path) == ["link.json", "target.json"]


def test_a_symbolic_link_loop_is_refused_before_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    result = run(*TOURNAMENT, "--out", str(tmp_path / "a.json"))
    assert result.exit_code == 2 and "leads back to itself" in result.stderr


def test_a_folder_where_no_file_can_be_made_is_refused_before_the_run(monkeypatch):
    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    result = run(*TOURNAMENT, "--out", "/proc/t.json")
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith("error: --out: /proc/t.json cannot be written")


def test_the_write_check_leaves_nothing_behind(tmp_path):
    assert common.unwritable(tmp_path / "t.json") is None and listing(tmp_path) == []


def save_half_then_fail(self, fname, *args, **kwargs):
    pathlib.Path(fname).write_bytes(b"\x89PNG half")
    raise OSError(27, "File too large")


@pytest.mark.parametrize(
    "command",
    [
        ("battleship", "simulate", "--games", "2", "--strategies", "random"),
        TOURNAMENT,
    ],
)
def test_a_chart_that_fails_midway_leaves_the_old_one(tmp_path, monkeypatch, command):
    chart = tmp_path / "old.png"
    chart.write_bytes(b"\x89PNG the old chart")
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", save_half_then_fail)
    result = run(*command, "--chart", str(chart))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr == f"error: cannot write the chart to {chart}: File too large\n"
    assert chart.read_bytes() == b"\x89PNG the old chart" and listing(tmp_path) == ["old.png"]
    assert "random" in result.stdout  # the run's figures are printed all the same


def test_an_out_file_that_fails_after_the_run_loses_neither_figures_nor_chart(
    tmp_path, monkeypatch
):
    import hamle.cli.battleship

    def disk_full(path, text):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(hamle.cli.battleship, "write_whole", disk_full)
    out, chart = tmp_path / "t.json", tmp_path / "t.png"
    result = run(*TOURNAMENT, "--out", str(out), "--chart", str(chart))
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: cannot write {out}: No space left on device\n"
    assert "Mean shots" in result.stdout and f"written to {chart}" in result.stdout
    assert chart.read_bytes().startswith(b"\x89PNG") and listing(tmp_path) == ["t.png"]


def test_a_matplotlib_that_cannot_start_is_one_error_after_the_figures(tmp_path):
    chart = tmp_path / "c.svg"
    command = [sys.executable, "-m", "hamle", "battleship", "simulate", "--games", "2"]
    command += ["--strategies", "random", "--chart", str(chart), "--json"]
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "MPLBACKEND": "bogus"}
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: cannot write the chart to {chart}: matplotlib cannot")
    assert list(json.loads(done.stdout)["strategies"]) == ["random"]
    assert listing(tmp_path) == []


@pytest.fixture(scope="module")
def tables():
    rules = bs.Rules.classic()
    return bs.simulate(rules, "random", 2), bs.tournament(rules, ["random"], ["uniform"], 2)


def draw(table, path):
    return bs.chart(table, path) if isinstance(table, bs.SimulationTable) else table.chart(path)


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("name", ["chart", "chart.jpg", "chart.png.txt"])
def test_a_chart_is_refused_a_suffix_it_would_not_honour(tables, tmp_path, which, name):
    with pytest.raises(bs.BattleshipError, match=rf"\.png, \.svg or \.pdf file, not '{name}'"):
        draw(tables[which], tmp_path / name)
    assert listing(tmp_path) == []


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize(("name", "start"), [("c.png", b"\x89PNG"), ("c.SVG", b"<?xml")])
def test_a_chart_returns_the_path_it_wrote(tables, tmp_path, which, name, start):
    written = draw(tables[which], str(tmp_path / name))
    assert written == tmp_path / name and written.read_bytes().startswith(start)
    assert listing(tmp_path) == [name]


@pytest.mark.parametrize("which", [0, 1])
def test_a_chart_writes_through_a_symbolic_link(tables, tmp_path, which):
    (tmp_path / "link.png").symlink_to("target.png")
    draw(tables[which], tmp_path / "link.png")
    assert (tmp_path / "link.png").is_symlink()
    assert (tmp_path / "target.png").read_bytes().startswith(b"\x89PNG")


def test_the_cli_takes_the_chart_suffixes_the_library_takes():
    assert bs.CHART_SUFFIXES == analysis.CHART_SUFFIXES  # (the CLI reads bs.CHART_SUFFIXES)


def test_a_progress_bar_shows_the_time_remaining(monkeypatch):
    from rich.console import Console
    from rich.progress import Progress, TimeRemainingColumn

    columns = []

    class Recording(Progress):
        def __init__(self, *shown, **options):
            columns.extend(shown)
            super().__init__(*shown, **options)

    monkeypatch.setattr("rich.progress.Progress", Recording)
    terminal = Console(file=io.StringIO(), force_terminal=True)
    monkeypatch.setattr(common.errors, "_console", terminal)
    with common.progress_bar("playing") as update:
        update(1, 2)
    assert any(isinstance(column, TimeRemainingColumn) for column in columns)


def test_a_file_replaced_keeps_its_permissions(tmp_path):
    from hamle.files import written_whole

    path = tmp_path / "private.json"
    path.write_text("{}")
    path.chmod(0o600)
    with written_whole(path) as spare:
        spare.write_text('{"a": 1}')
    assert path.read_text() == '{"a": 1}' and stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("name", ["-", "tree", "tree.txt"])
def test_a_tree_file_must_end_in_json(tmp_path, monkeypatch, name):
    import hamle.mastermind.tree

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(hamle.mastermind.tree, "strategy_tree", refuse_to_play)
    result = run(*TREE, "--out", name)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (
        f"error: --out must be a file name ending in .json (like out.json), not {name!r}\n"
    )
    assert listing(tmp_path) == []


SIMULATE = ("battleship", "simulate", "--games", "2", "--strategies", "random")


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        (TOURNAMENT, "--out", "t.json"),
        (TOURNAMENT, "--chart", "t.png"),
        (SIMULATE, "--chart", "s.svg"),
        (TREE, "--out", "t.json"),
    ],
)
@pytest.mark.parametrize("ending", ["/", "/.", "//"])
def test_an_output_named_as_a_folder_is_refused_not_written_without_its_slash(
    tmp_path, monkeypatch, command, option, name, ending
):
    """``t.json/`` was written to t.json: a path read as a Path loses its last slash."""
    import hamle.mastermind.tree

    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    monkeypatch.setattr(bs, "simulate", refuse_to_play)
    monkeypatch.setattr(hamle.mastermind.tree, "strategy_tree", refuse_to_play)
    given = f"{tmp_path / name}{ending}"
    result = run(*command, option, given)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr == (
        f"error: Invalid value for '{option}': {given!r} names a folder, not a file.\n"
    )
    assert listing(tmp_path) == []


@pytest.mark.parametrize(
    ("command", "option", "name"),
    [
        (TOURNAMENT, "--out", "pipe.json"),
        (TREE, "--out", "pipe.json"),
        (TOURNAMENT, "--chart", "pipe.png"),
        (SIMULATE, "--chart", "pipe.svg"),
    ],
)
@pytest.mark.parametrize("linked", [False, True])
def test_an_output_that_is_a_pipe_is_refused_before_the_run(
    tmp_path, monkeypatch, command, option, name, linked
):
    """A device or a pipe, named or reached through a symbolic link, would be replaced by
    a plain file (/dev/null, for root): refused before any game, and left as it was."""
    import hamle.mastermind.tree

    monkeypatch.setattr(bs, "simulate", refuse_to_play)
    monkeypatch.setattr(bs, "tournament", refuse_to_play)
    monkeypatch.setattr(hamle.mastermind.tree, "strategy_tree", refuse_to_play)
    pipe = tmp_path / ("fifo" if linked else name)
    os.mkfifo(pipe)
    given = tmp_path / name
    if linked:
        given.symlink_to(pipe.name)
    result = run(*command, option, str(given))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    leads = f" (a symbolic link to {pipe})" if linked else ""
    assert result.stderr == f"error: {option}: {given}{leads} is not a regular file\n"
    assert stat.S_ISFIFO(os.stat(given).st_mode) and stat.S_ISFIFO(pipe.lstat().st_mode)
    assert listing(tmp_path) == sorted({pipe.name, given.name})


@pytest.mark.parametrize("linked", [False, True])
def test_a_file_written_whole_never_replaces_a_pipe(tmp_path, linked):
    """At write time too: a pipe found there before, or made while the block writes."""
    from hamle.files import written_whole

    pipe, given = tmp_path / "pipe.json", tmp_path / ("link.json" if linked else "pipe.json")
    if linked:
        given.symlink_to(pipe.name)
    os.mkfifo(pipe)
    with pytest.raises(OSError, match="not a regular file"), written_whole(given) as spare:
        spare.write_text("{}")
    os.unlink(pipe)
    with pytest.raises(OSError, match="not a regular file"), written_whole(given) as spare:
        spare.write_text("{}")
        os.mkfifo(pipe)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert listing(tmp_path) == sorted({pipe.name, given.name})


def test_a_chart_that_meets_a_pipe_at_write_time_is_one_error_line(tmp_path, monkeypatch):
    monkeypatch.setattr(common, "unwritable", lambda path: None)  # (the check before the run)
    os.mkfifo(tmp_path / "pipe.png")
    result = run(*SIMULATE, "--chart", str(tmp_path / "pipe.png"))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr == (
        f"error: cannot write the chart to {tmp_path / 'pipe.png'}: not a regular file\n"
    )
    assert stat.S_ISFIFO((tmp_path / "pipe.png").lstat().st_mode)


def test_a_folder_that_is_a_link_round_in_a_loop_is_said_to_be_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("loop").symlink_to("loop")  # (one that leads nowhere: the folder is missing)
    problem = common.unwritable(pathlib.Path("loop", "t.json"))
    assert problem == "the folder loop is a symbolic link that leads to no folder"


def test_a_read_only_file_system_is_named_as_such(tmp_path, monkeypatch):
    real = os.statvfs

    class ReadOnly:
        def __init__(self, stats):
            self.stats = stats

        def __getattr__(self, name):
            return (
                os.ST_RDONLY | self.stats.f_flag if name == "f_flag" else getattr(self.stats, name)
            )

    monkeypatch.setattr(os, "statvfs", lambda path: ReadOnly(real(path)))
    problem = common.unwritable(tmp_path / "t.json")
    assert (
        problem
        == f"{tmp_path / 't.json'} cannot be written: {tmp_path} is on a read-only file system"
    )
