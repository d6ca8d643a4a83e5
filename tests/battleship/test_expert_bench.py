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
        (["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
        (["--thread-games", "1"], "--thread-games must be at least 2, not 1"),
        (["--site-games", "0"], "--site-games must be at least 2, not 0"),
        (
            ["--speed-only", "--games", "50", "--base-games", "9"],
            "--speed-only times only --thread-games and --site-games, not --games, --base-games",
        ),
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


def test_base_games_play_density_on_the_same_games_paired_with_the_base(bench):
    base = bench.base_games(bs.Rules.classic(), 12)
    density = [
        bs.play_game(bs.Rules.classic(), "density", game).shots_fired for game in range(1, 13)
    ]
    assert base["density"]["shots"] == density
    diffs = [d - b for d, b in zip(density, base["without_opening"]["shots"], strict=True)]
    assert base["density_difference"]["mean_difference"] == round(sum(diffs) / 12, 3)
    assert base["density_difference"]["games"] == 12


def test_finer_mean_and_shots_fewer_than_density_add_up_the_savings(bench, monkeypatch):
    measured = {"saved_on_base": {"all": {"mean": 0.3, "se": 0.04}}}
    monkeypatch.setattr(bench.advantage_bench, "measure", lambda *args: dict(measured))
    base = {
        "without_opening": {"mean": 44.0, "standard_error": 0.03},
        "density_difference": {"mean_difference": 0.5, "standard_error": 0.03},
    }
    row = bench.advantage_table("classic", ["expert"], 2, 1, base)["expert"]
    assert row["mean_shots"] == {"mean": 43.7, "se": 0.05}
    assert row["fewer_than_density"] == {"mean": 0.8, "se": 0.05, "z": 16.0}


def test_a_paired_difference_over_one_game_has_no_standard_error_as_in_stats(bench):
    # hamle.stats says a spread over one game is unknown (None), not 0.
    one = bench.paired(
        {"strategy": "a", "games": 1, "shots": [40]}, {"strategy": "b", "games": 1, "shots": [43]}
    )
    assert (one["mean_difference"], one["standard_error"], one["z"]) == (-3.0, None, None)
    two = bench.paired(
        {"strategy": "a", "games": 2, "shots": [40, 44]},
        {"strategy": "b", "games": 2, "shots": [43, 45]},
    )
    assert (two["standard_error"], two["z"]) == (1.0, -2.0)
    assert (two["fewer"], two["equal"], two["more"]) == (2, 0, 0)
