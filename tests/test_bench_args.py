"""The benchmarks refuse arguments they cannot measure, and an output they could not write,
with a usage error before any work; an option given explicitly wins over ``--quick``."""

import argparse
import json
import os
import sys

import pytest


@pytest.fixture(scope="module")
def machine(load_bench):
    return load_bench("machine")


def refused(main, monkeypatch, capsys, script: str, *args: str) -> str:
    """The usage error ``main`` stops with, given ``args`` (exit status 2)."""
    monkeypatch.setattr(sys, "argv", [script, *args])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    return capsys.readouterr().err


class Stop(Exception):
    """Raised by a stand-in for the first piece of work, to end ``main`` there."""


@pytest.mark.parametrize(("text", "value"), [("1", 1), ("20", 20), (" 7 ", 7)])
def test_positive_int_takes_whole_numbers_from_1(machine, text, value):
    assert machine.positive_int(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [("0", "at least 1, not 0"), ("-3", "at least 1, not -3"), ("1.5", "not a whole number")],
)
def test_positive_int_refuses_the_rest(machine, text, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        machine.positive_int(text)


def test_positive_float_takes_finite_numbers_above_0(machine):
    assert machine.positive_float("0.25") == 0.25
    assert machine.positive_float("600") == 600.0


@pytest.mark.parametrize("text", ["0", "-5", "inf", "-inf", "nan", "ten"])
def test_positive_float_refuses_the_rest(machine, text):
    with pytest.raises(argparse.ArgumentTypeError):
        machine.positive_float(text)


def check(machine, capsys, out) -> str | None:
    """The usage error of ``check_out`` on ``out``, or None if it passes."""
    parser = argparse.ArgumentParser(prog="bench")
    try:
        machine.check_out(parser, out)
    except SystemExit as stop:
        assert stop.code == 2
        return capsys.readouterr().err
    return None


def test_check_out_creates_a_missing_folder_and_leaves_no_file(machine, capsys, tmp_path):
    out = tmp_path / "a" / "b" / "report.json"
    assert check(machine, capsys, out) is None
    assert out.parent.is_dir() and not out.exists()


def test_check_out_leaves_an_existing_report_as_it_is(machine, capsys, tmp_path):
    out = tmp_path / "report.json"
    out.write_text("{}\n")
    assert check(machine, capsys, out) is None
    assert out.read_text() == "{}\n"


def test_check_out_refuses_a_folder(machine, capsys, tmp_path):
    assert "is a folder, not a file" in check(machine, capsys, tmp_path)


def test_check_out_refuses_a_path_under_a_file(machine, capsys, tmp_path):
    (tmp_path / "file").write_text("")
    error = check(machine, capsys, tmp_path / "file" / "sub" / "report.json")
    assert f"is under {tmp_path / 'file'}, which is a file" in error


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_check_out_refuses_a_folder_it_cannot_write(machine, capsys, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir(mode=0o500)
    try:
        assert "cannot be written" in check(machine, capsys, folder / "report.json")
    finally:
        folder.chmod(0o700)


def test_no_repeats(machine, capsys):
    parser = argparse.ArgumentParser(prog="bench")
    machine.no_repeats(parser, "--cases", ["classic", "4x7"])
    with pytest.raises(SystemExit):
        machine.no_repeats(parser, "--cases", ["classic", "4x7", "classic"])
    assert "--cases names classic more than once" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "argument --games: must be at least 1, not 0"),
        (["--games", "-1"], "argument --games: must be at least 1, not -1"),
    ],
)
def test_battleship_refuses_bad_sizes(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("battleship")
    assert message in refused(bench.main, monkeypatch, capsys, "battleship.py", *args)


def test_battleship_refuses_a_folder_as_out(load_bench, monkeypatch, capsys, tmp_path):
    bench = load_bench("battleship")
    error = refused(bench.main, monkeypatch, capsys, "battleship.py", "--out", str(tmp_path))
    assert "is a folder, not a file" in error


REPORTS = ["advantage", "battleship", "battleship_optimal", "crash", "exact", "expert"]
REPORTS += ["mastermind", "mastermind_optimal", "openings", "peers", "site", "tour", "tournament"]


@pytest.mark.parametrize(
    ("script", "option"),
    [(script, "--out") for script in REPORTS] + [("tournament", "--store")],
)
def test_a_report_named_as_a_folder_is_refused(
    load_bench, monkeypatch, capsys, tmp_path, script, option
):
    """``out.json/`` was written to out.json: a Path drops its last slash."""

    def stop(*args):
        raise Stop  # (the run would have begun)

    bench = load_bench(script)
    monkeypatch.setattr(bench, "check_out", stop)
    given = f"{tmp_path / 'out.json'}/"
    error = refused(bench.main, monkeypatch, capsys, f"{script}.py", option, given)
    assert f"argument {option}: {given!r} names a folder, not a file" in error
    assert list(tmp_path.iterdir()) == []


def test_battleship_game_kernel_ratio_is_null_when_unmeasurable(load_bench, monkeypatch):
    bench = load_bench("battleship")
    monkeypatch.setattr(bench, "perf_counter", lambda: 1.0)  # every time is 0
    density = bench.bench_game_kernel(bench.bs.Rules.classic(), 1, 1)["shooters"]["density"]
    assert density["ratio_old_over_kernel"] is None
    assert "too small" in density["ratio_note"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repeat", "0"], "argument --repeat: must be at least 1, not 0"),
        (["--timed-games", "0"], "argument --timed-games: must be at least 1, not 0"),
        (["--exact-games", "0"], "argument --exact-games: must be at least 1, not 0"),
        (["--games", "-3"], "argument --games: must be at least 1, not -3"),
        (["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
        (["--jobs", "1000"], "argument --jobs: must be at most 64, not 1000"),
    ],
)
def test_tournament_refuses_bad_sizes(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("tournament")
    assert message in refused(bench.main, monkeypatch, capsys, "tournament.py", *args)


def test_tournament_refuses_out_equal_to_store(load_bench, monkeypatch, capsys, tmp_path):
    bench = load_bench("tournament")
    same = str(tmp_path / "t.json")
    error = refused(
        bench.main, monkeypatch, capsys, "tournament.py", "--out", same, "--store", same
    )
    assert "--out and --store are the same file" in error


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{{", "is not JSON"),
        ("[1, 2]", "is not a store of tournament games"),
        ('{"rules": "classic", "matrix": {}}', "is not a store of tournament games"),
        ('{"10×10": {"density": {"uniform": {"1": [40, true]}}}}', "is not a store"),
    ],
)
def test_tournament_refuses_a_store_of_something_else_untouched(
    load_bench, monkeypatch, capsys, tmp_path, text, message
):
    bench = load_bench("tournament")
    store = tmp_path / "s.json"
    store.write_text(text)
    args = ["--out", str(tmp_path / "t.json"), "--store", str(store)]
    assert message in refused(bench.main, monkeypatch, capsys, "tournament.py", *args)
    assert store.read_text() == text


def test_tournament_reads_its_own_store(load_bench, tmp_path):
    bench = load_bench("tournament")
    store = tmp_path / "s.json"
    store.write_text('{"10×10": {"density": {"uniform": {"1": [40, 51]}}}}')  # (before keys)
    assert bench.Store(store).data["10×10"]["density"]["uniform"] == {
        "key": None,
        "blocks": {"1": [40, 51]},
    }
    keyed = {"10×10": {"density": {"uniform": {"key": {}, "digest": "d", "blocks": {"1": [4]}}}}}
    store.write_text(json.dumps(keyed))
    assert bench.Store(store).data == keyed
    store.write_text("")
    assert bench.Store(store).data == {}


@pytest.mark.parametrize("script", ["advantage", "expert", "exact"])
def test_the_jobs_of_a_bench_stay_within_what_a_run_may_ask(
    load_bench, monkeypatch, capsys, script
):
    bench = load_bench(script)
    error = refused(bench.main, monkeypatch, capsys, f"{script}.py", "--jobs", "65")
    assert "argument --jobs: must be at most 64, not 65" in error


def test_battleship_optimal_refuses_a_board_given_twice(load_bench, monkeypatch, capsys):
    bench = load_bench("battleship_optimal")
    args = ["--boards", "3x4:2,2", "--larger", "3x4:2,2"]
    error = refused(bench.main, monkeypatch, capsys, "battleship_optimal.py", *args)
    assert "3x4:2,2 is 3x4:2,2 again: give each board once" in error
    args = ["--boards", "4x5:2,3", "4x5:3,2"]
    error = refused(bench.main, monkeypatch, capsys, "battleship_optimal.py", *args)
    assert "4x5:3,2 is 4x5:2,3 again" in error


def test_tournament_explicit_sizes_win_over_quick(load_bench, monkeypatch, tmp_path):
    bench = load_bench("tournament")
    counts = []

    def matrix(rules, games, jobs, store):
        counts.append(games)
        raise Stop

    monkeypatch.setattr(bench, "matrix", matrix)
    out, store = str(tmp_path / "t.json"), str(tmp_path / "s.json")
    argv = ["tournament.py", "--quick", "--games", "2", "--out", out, "--store", store]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(Stop):
        bench.main()
    assert counts == [{"random": 2, "parity": 2, "density": 2, "expert": 20}]


def test_tour_explicit_keep_positions_win_over_quick(load_bench, monkeypatch, tmp_path):
    bench = load_bench("tour")
    written = []
    monkeypatch.setattr(bench, "warm_up", lambda: None)
    monkeypatch.setattr(bench, "bench_keeps_tours", lambda count: {"positions": count})
    monkeypatch.setattr(bench, "write_report", lambda report, out: written.append(report))
    out = str(tmp_path / "tour.json")
    argv = ["tour.py", "--only-keep", "--quick", "--keep-positions", "3", "--out", out]
    monkeypatch.setattr(sys, "argv", argv)
    assert bench.main() == 0
    assert written[0]["keeps_tours"] == {"positions": 3}
    assert written[0]["quick"] is True


def test_tour_refuses_no_keep_positions(load_bench, monkeypatch, capsys):
    bench = load_bench("tour")
    error = refused(bench.main, monkeypatch, capsys, "tour.py", "--keep-positions", "0")
    assert "argument --keep-positions: must be at least 1, not 0" in error


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--limit", "inf"], "argument --limit: must be a finite number above 0, not inf"),
        (["--limit", "-5"], "argument --limit: must be a finite number above 0, not -5"),
        (["--budget", "nan"], "argument --budget: must be a finite number above 0, not nan"),
        (["--cases", "classic", "classic"], "--cases names classic more than once"),
    ],
)
def test_mastermind_optimal_refuses_bad_arguments(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("mastermind_optimal")
    assert message in refused(bench.main, monkeypatch, capsys, "mastermind_optimal.py", *args)


def test_mastermind_optimal_cases_win_over_quick(load_bench, monkeypatch, capsys, tmp_path):
    bench = load_bench("mastermind_optimal")
    monkeypatch.setattr(bench, "missing", lambda *a: {"built": False})

    def ours(*args, **kwargs):
        raise Stop

    monkeypatch.setattr(bench, "ours", ours)
    out = str(tmp_path / "mo.json")
    argv = ["mastermind_optimal.py", "--quick", "--cases", "bulls-and-cows", "--out", out]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(Stop):
        bench.main()
    assert capsys.readouterr().err.splitlines() == ["bulls-and-cows ..."]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--repeat", "0"], "argument --repeat: must be at least 1, not 0"),
        (["--rows", ""], "--rows names no row"),
        (["--rows", "classic,classic"], "--rows names classic more than once"),
    ],
)
def test_peers_refuses_bad_arguments(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("peers")
    assert message in refused(bench.main, monkeypatch, capsys, "peers.py", *args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clients", "0"], "argument --clients: must be at least 1, not 0"),
        (["--seconds", "-1"], "argument --seconds: must be a finite number above 0, not -1"),
        (["--rounds", "0"], "argument --rounds: must be at least 1, not 0"),
    ],
)
def test_crash_refuses_bad_arguments(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("crash")
    assert message in refused(bench.main, monkeypatch, capsys, "crash.py", *args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "classic", "--rules", "russian"], "--rules is given 2 times"),
        (["--rules=classic", "--out", "a.json", "--rules", "russian"], "--rules is given 2 times"),
        (["--rul", "classic"], "unrecognized arguments: --rul"),
    ],
)
def test_an_option_given_twice_or_abbreviated_is_refused(
    load_bench, monkeypatch, capsys, args, message
):
    """argparse kept the last value alone: the openings of classic rules were not worked
    out, without a word."""
    bench = load_bench("openings")
    monkeypatch.setattr(bench, "work_out_opening", lambda rules, settings, say: pytest.fail())
    assert message in refused(bench.main, monkeypatch, capsys, "openings.py", *args)


def test_every_bench_parses_with_the_shared_parser():
    from pathlib import Path

    scripts = sorted((Path(__file__).parents[1] / "bench").glob("*.py"))
    parsing = [p for p in scripts if "parse_args()" in p.read_text(encoding="utf-8")]
    assert len(parsing) >= 13
    assert all("= Arguments(" in p.read_text(encoding="utf-8") for p in parsing)


def test_openings_creates_a_missing_folder(load_bench, monkeypatch, tmp_path):
    bench = load_bench("openings")
    monkeypatch.setattr(bench, "work_out_opening", lambda rules, settings, say: [0])
    out = tmp_path / "new" / "openings.json"
    monkeypatch.setattr(sys, "argv", ["openings.py", "--rules", "classic", "--out", str(out)])
    bench.main()
    assert '"A1"' in out.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clients", "0"], "argument --clients: must be at least 1, not 0"),
        (["--seconds", "inf"], "argument --seconds: must be a finite number above 0, not inf"),
    ],
)
def test_site_refuses_bad_arguments(load_bench, monkeypatch, capsys, args, message):
    bench = load_bench("site")
    assert message in refused(bench.main, monkeypatch, capsys, "site.py", *args)


def test_site_refuses_a_folder_as_out_before_starting_a_server(
    load_bench, monkeypatch, capsys, tmp_path
):
    bench = load_bench("site")
    monkeypatch.setattr(bench, "start_server", lambda *args: pytest.fail("server started"))
    err = refused(bench.main, monkeypatch, capsys, "site.py", "--out", str(tmp_path))
    assert "--out" in err


def stopped(*args, **kwargs):
    """A stand-in for the first piece of work of a run that must not start."""
    raise Stop


def test_at_most_takes_up_to_its_limit_and_names_it(machine):
    assert machine.at_most(10)("10") == 10
    assert machine.at_most(3600, machine.positive_float)("0.5") == 0.5
    with pytest.raises(argparse.ArgumentTypeError, match="must be at most 3,600 s, not 1e12"):
        machine.at_most(3600, machine.positive_float, " s")("1e12")
    with pytest.raises(argparse.ArgumentTypeError, match="at least 1, not 0"):
        machine.at_most(10)("0")


def test_battleship_warms_up_each_shooter_before_timing_its_games(load_bench, monkeypatch):
    """The first shooter timed paid the start-up: random at 6.93 s a 1000 games."""
    from types import SimpleNamespace

    bench = load_bench("battleship")
    played = []

    def simulate(rules, names, games, jobs):
        played.append((*names, games))
        return SimpleNamespace(results=[SimpleNamespace(shots=(40,))])

    monkeypatch.setattr(bench.bs, "simulate", simulate)
    monkeypatch.setattr(bench.naive, "play_game", lambda *args: 40)
    bench.bench_games(bench.bs.Rules.classic(), 7, 1)
    names = list(bench.naive.CANDIDATES)
    assert played == [(name, games) for name in names for games in (1, 7)]


@pytest.mark.parametrize(
    ("script", "work", "args"),
    [
        ("battleship", "bench_decisions", ["--games", "1000000000000"]),
        ("exact", "exact", ["--games", "10000001"]),
    ],
)
def test_game_counts_stop_at_what_simulate_takes(
    load_bench, monkeypatch, capsys, tmp_path, script, work, args
):
    from hamle.battleship.simulate import MAX_GAMES

    bench = load_bench(script)
    monkeypatch.setattr(bench, work, stopped)
    args = [*args, "--out", str(tmp_path / "r.json")]
    error = refused(bench.main, monkeypatch, capsys, f"{script}.py", *args)
    assert f"argument --games: must be at most {MAX_GAMES:,}, not {args[1]}" in error


@pytest.mark.parametrize(
    ("script", "work", "args", "message"),
    [
        *(
            (
                "mastermind_optimal",
                "missing",
                [option, value],
                f"argument {option}: must be at most 604,800 seconds (a week), not {value}",
            )
            for option, value in (
                ("--limit", "1e7"),
                ("--limit", "1e12"),
                ("--limit", "1e308"),
                ("--budget", "1e12"),
            )
        ),
        (
            "crash",
            "start_server",
            ["--seconds", "1e12"],
            "must be at most 3,600 seconds (an hour), not 1e12",
        ),
        (
            "site",
            "start_server",
            ["--seconds", "1e12"],
            "must be at most 3,600 seconds (an hour), not 1e12",
        ),
        (
            "tour",
            "warm_up",
            ["--only-keep", "--keep-positions", "99999999999999"],
            "argument --keep-positions: must be at most 100,000, not 99999999999999",
        ),
        ("expert", "thread_times", ["--games", "10000001"], "--games must be at most 10,000,000"),
        ("tournament", "matrix", ["--games", "10000001"], "must be at most 10,000,000"),
        ("advantage", "measure", ["--last", "10000001"], "may span 10,000,000 games at most"),
    ],
)
def test_sizes_too_large_are_refused_before_any_work(
    load_bench, monkeypatch, capsys, tmp_path, script, work, args, message
):
    bench = load_bench(script)
    monkeypatch.setattr(bench, work, stopped)
    args = [*args, "--out", str(tmp_path / "r.json")]
    assert message in refused(bench.main, monkeypatch, capsys, f"{script}.py", *args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shooter", "nosuch"], "unknown strategy 'nosuch'"),
        (["--against", "nosuch"], "unknown strategy 'nosuch'"),
        (["--along", "nosuch"], "unknown strategy 'nosuch'"),
        (["--set", "foo=1"], "foo"),
        (["--set", "fleets"], "--set takes NAME=VALUE, not 'fleets'"),
        (["--set", "fleets=abc"], "--set fleets: 'abc' is not a JSON value"),
        (["--shooter", "density", "--set", "fleets=1"], "fleets"),
        (["--set", "fleets=1", "--set", "fleets=2"], "--set fleets is given twice"),
    ],
)
def test_advantage_refuses_unknown_shooters_and_fields(
    load_bench, monkeypatch, capsys, tmp_path, args, message
):
    bench = load_bench("advantage")
    monkeypatch.setattr(bench, "measure", stopped)
    args = [*args, "--out", str(tmp_path / "a.json")]
    error = refused(bench.main, monkeypatch, capsys, "advantage.py", *args)
    assert message in error.splitlines()[-1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is not JSON"),
        ("[1,2]", "is not an openings file"),
        ('{"openings": ["A1"]}', "is not an openings file"),
        ('{"rules": "classic"}', "is not an openings file"),
    ],
)
def test_openings_refuses_an_out_of_something_else_untouched(
    load_bench, monkeypatch, capsys, tmp_path, text, message
):
    bench = load_bench("openings")
    monkeypatch.setattr(bench, "work_out_opening", lambda rules, settings, say: pytest.fail())
    out = tmp_path / "o.json"
    out.write_text(text)
    error = refused(bench.main, monkeypatch, capsys, "openings.py", "--out", str(out))
    assert f"--out {out} {message}" in error
    assert out.read_text() == text


def test_openings_keeps_the_openings_of_rules_not_worked_out(load_bench, monkeypatch, tmp_path):
    bench = load_bench("openings")
    monkeypatch.setattr(bench, "work_out_opening", lambda rules, settings, say: [0])
    out = tmp_path / "o.json"
    out.write_text('{"settings": {}, "openings": {"other": ["B2"]}}')
    monkeypatch.setattr(sys, "argv", ["openings.py", "--rules", "classic", "--out", str(out)])
    bench.main()
    assert '"other": ["B2"]' in out.read_text() and '["A1"]' in out.read_text()


def test_expert_times_say_their_unit_and_the_report_its_jobs(load_bench, monkeypatch, tmp_path):
    bench = load_bench("expert")
    assert bench._ms(bench.np.array([1.0, 2.0]))["unit"] == "ms"
    monkeypatch.setattr(bench, "CORES", 2)
    part = {"shots": [40], "times": [0.001, 0.003], "cpu": 0.0}
    monkeypatch.setattr(bench, "play_timed", lambda rules, shooter, games: part)
    times = bench.thread_times(bench.bs.Rules.classic(), 2)
    assert times["threads_1"]["unit"] == times["threads_2"]["unit"] == "ms"
    written = []
    monkeypatch.setattr(bench, "thread_times", lambda rules, games: times)
    monkeypatch.setattr(bench, "site_moves", lambda name, games: {"p99": 1.0})
    monkeypatch.setattr(bench, "write_report", lambda report, out: written.append(report))
    out = str(tmp_path / "e.json")
    monkeypatch.setattr(sys, "argv", ["expert.py", "--speed-only", "--jobs", "3", "--out", out])
    assert bench.main() == 0
    assert written[0]["jobs"] == 3


def test_mastermind_optimal_records_its_budget(load_bench, monkeypatch, tmp_path):
    bench = load_bench("mastermind_optimal")
    written = []
    monkeypatch.setattr(bench, "missing", lambda *a: {"built": False})
    monkeypatch.setattr(bench, "ours", lambda *a, **k: {"finished": True, "total": 5625})
    monkeypatch.setattr(bench, "write_report", lambda report, out: written.append(report))
    out = str(tmp_path / "mo.json")
    argv = ["mastermind_optimal.py", "--cases", "classic", "--budget", "7", "--out", out]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 0
    assert written[-1]["budget_seconds"] == 7.0 and written[-1]["limit_seconds"] == 600


class Server:
    """A stand-in for a ``hamle serve`` process."""

    def kill(self):
        pass

    terminate = kill

    def wait(self, timeout=None):
        pass


def served(bench, monkeypatch) -> list[dict]:
    """Start ``bench``'s stand-in server and keep the reports it writes."""
    written = []
    monkeypatch.setattr(bench, "start_server", lambda db: (Server(), "http://127.0.0.1:9"))
    monkeypatch.setattr(bench, "write_report", lambda report, out: written.append(report))
    return written


def named_and_dated(report: dict, name: str) -> bool:
    from datetime import datetime

    return report["benchmark"] == name and bool(datetime.fromisoformat(report["timestamp"]))


def test_site_says_no_request_completed_and_fails(load_bench, monkeypatch, capsys, tmp_path):
    bench = load_bench("site")
    written = served(bench, monkeypatch)
    for name in ("density_bodies", "tour_games", "mastermind_games"):
        monkeypatch.setattr(bench, name, lambda *args: [])
    monkeypatch.setattr(bench, "in_process", lambda *args: {})

    async def load(url, plan, clients, seconds):
        idle = {kind: bench.summary([]) for kind in plan}
        return {"requests": 0, "errors": 0, "endpoints": idle}

    monkeypatch.setattr(bench, "load", load)
    out = str(tmp_path / "s.json")
    monkeypatch.setattr(sys, "argv", ["site.py", "--seconds", "0.001", "--out", out])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code and "no request completed in 0.001 s" in str(stop.value.code)
    assert named_and_dated(written[0], "site")


def test_crash_report_is_named_and_dated(load_bench, monkeypatch, tmp_path):
    bench = load_bench("crash")
    written = served(bench, monkeypatch)

    class Player:
        def __init__(self, url, kind, seed):
            pass

        start = join = lambda self, *args: None

    counts = dict.fromkeys(("acknowledged", "recovered", "lost", "games", "unfinished"), 0)
    monkeypatch.setattr(bench, "Player", Player)
    monkeypatch.setattr(bench, "check", lambda url, players: counts | {"continued": 0})
    out = str(tmp_path / "c.json")
    argv = ["crash.py", "--rounds", "1", "--clients", "1", "--seconds", "0.001", "--out", out]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    assert named_and_dated(written[0], "crash")


def test_tournament_report_is_named_and_dated(load_bench, monkeypatch, tmp_path):
    bench = load_bench("tournament")
    written = []
    monkeypatch.setattr(bench, "matrix", lambda rules, shooters, jobs, store: {})
    monkeypatch.setattr(bench, "write_report", lambda report, out: written.append(report))
    out, store = str(tmp_path / "t.json"), str(tmp_path / "s.json")
    argv = ["tournament.py", "--rules", "classic", "--out", out, "--store", store]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    assert named_and_dated(written[0], "tournament")


def test_battleship_optimal_help_names_the_larger_boards_run_by_default(
    load_bench, monkeypatch, capsys
):
    bench = load_bench("battleship_optimal")
    monkeypatch.setattr(sys, "argv", ["battleship_optimal.py", "--help"])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "default 5x5:2,3 6x6:2,3" in text and "--larger with no board: none" in text
