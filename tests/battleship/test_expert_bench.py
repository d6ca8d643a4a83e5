"""``bench/expert.py`` refuses game counts and jobs it cannot measure, before any work, and
times the expert on one thread and on every core over the same shots."""

import functools
import sys

import pytest

import hamle.battleship as bs


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("expert")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "1"], "--games must be at least 2, not 1"),
        (["--advantage-games", "0"], "--advantage-games must be at least 2, not 0"),
        (["--base-games", "-5"], "--base-games must be at least 2, not -5"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["--thread-games", "1"], "--thread-games must be at least 2, not 1"),
        (["--site-games", "0"], "--site-games must be at least 2, not 0"),
    ],
)
def test_bad_sizes_are_refused_by_name(bench, monkeypatch, capsys, args, message):
    monkeypatch.setattr(sys, "argv", ["expert.py", *args])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_thread_times_play_the_same_games_on_one_thread_and_on_every_core(bench, monkeypatch):
    monkeypatch.setattr(bench, "CORES", 2)
    monkeypatch.setattr(bench.bs, "ExpertShooter", functools.partial(bs.ExpertShooter, fleets=100))
    times = bench.thread_times(bs.Rules.classic(), 2)
    one, two = times["threads_1"], times["threads_2"]
    assert times["games"] == [1, 2] and times["cores"] == 2
    assert one["decisions"] == two["decisions"] >= 2 * 17
    assert 0 < one["median"] <= one["p99"] <= one["max"]
    assert times["speedup"] == round(one["total_seconds"] / two["total_seconds"], 2)


def test_thread_times_refuse_shots_that_change_with_threads(bench, monkeypatch):
    monkeypatch.setattr(bench, "CORES", 2)
    made = []

    def shooter(threads):  # a second shooter that fires otherwise
        made.append(threads)
        return bs.get_shooter("density" if len(made) % 2 else "hunt-target")

    monkeypatch.setattr(bench.bs, "ExpertShooter", shooter)
    with pytest.raises(SystemExit, match="shots changed with its threads"):
        bench.thread_times(bs.Rules.classic(), 2)


def test_site_moves_time_every_move_of_an_expert_game_through_the_api(bench, monkeypatch):
    monkeypatch.setattr(bench, "create_app", functools.partial(bench.create_app, warm=False))
    moves = bench.site_moves("classic", 1)
    assert moves["games"] == [1, 1] and moves["shooter"] == "expert"
    assert 17 <= moves["moves"] <= 100
    assert 0 < moves["median"] <= moves["p99"] <= moves["max"]
