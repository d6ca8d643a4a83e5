import importlib
import itertools
import math
from fractions import Fraction

import pytest

from hamle.battleship import BattleshipError, Rules, play_game, simulate, tournament
from hamle.battleship.analysis import RandomLaw, chart
from hamle.battleship.strategies import ExpertShooter, get_shooter

# Seed 000, "Kaç atış?": mean shots of each strategy over its 1000 games.
SEED_MEANS = {"random": 95.4, "hunt-target": 60.3, "parity": 50.5, "density": 44.4}


@pytest.fixture(scope="module")
def thousand_games():
    return simulate(Rules.classic(), list(SEED_MEANS), games=1000, jobs=2)


def test_thousand_game_means_land_where_the_seed_does(thousand_games):
    rows = thousand_games.as_dict()["strategies"]
    for name, seed_mean in SEED_MEANS.items():
        row = rows[name]
        # The seed's means are themselves within ~0.9 shots of the truth (2 standard errors).
        assert abs(row["mean"] - seed_mean) < 1.5, (name, row["mean"])
    means = [rows[name]["mean"] for name in SEED_MEANS]
    assert means == sorted(means, reverse=True)
    assert rows["parity"]["worst"] < 80 and rows["density"]["worst"] < 80
    assert rows["density"]["within"] > 0.7 > rows["parity"]["within"] > 0.4


def test_thousand_game_table_is_pinned(thousand_games):
    # Games 1..1000 are fixed by their numbers: any change to a shooter's shots shows here.
    rows = thousand_games.as_dict()["strategies"]
    got = {name: (rows[name]["mean"], rows[name]["hunt_mean"]) for name in SEED_MEANS}
    assert got == {
        "random": (95.457, 5.654),
        "hunt-target": (59.257, 42.154),
        "parity": (50.357, 32.604),
        "density": (44.603, 27.385),
    }


def test_random_row_matches_the_exact_law(thousand_games):
    data = thousand_games.as_dict()
    row, exact = data["strategies"]["random"], data["exact_random"]
    assert abs(row["mean"] - exact["mean"]) < 3 * row["stderr"]
    assert exact["mean"] == pytest.approx(95.3889, abs=1e-4)
    assert (exact["median"], exact["p10"], exact["p90"]) == (97, 89, 100)
    assert abs(row["median"] - exact["median"]) <= 1


def test_random_law_against_brute_force():
    for cells, ships in ((6, 2), (7, 3), (8, 1)):
        law = RandomLaw(cells, ships)
        lasts = [max(c) + 1 for c in itertools.combinations(range(cells), ships)]
        total = math.comb(cells, ships)
        assert law.mean == Fraction(sum(lasts), total)
        for t in range(cells + 1):
            assert law.cdf(t) == Fraction(sum(x <= t for x in lasts), total)
    assert round(float(RandomLaw(100, 17).cdf(85)), 3) == 0.048


def test_a_shooter_outside_the_kernels_plays_in_chunks_of_two_games(monkeypatch):
    """Chunks of up to 50 games of seconds each kept a cluster busy minutes after Ctrl-C."""
    simulate_module = importlib.import_module("hamle.battleship.simulate")
    played, play = [], simulate_module._play_chunk

    def chunk(rules, shooter, placer, games):
        played.append((shooter.name, len(games)))
        return play(rules, shooter, placer, games)

    monkeypatch.setattr(simulate_module, "_play_chunk", chunk)
    small = Rules.custom(4, [2])
    simulate(small, ["density"], 40)
    simulate(small, [ExpertShooter(fleets=5)], 40)
    assert {n for name, n in played if name == "density"} == {10}
    assert {n for name, n in played if name != "density"} == {2}


def test_jobs_do_not_change_results():
    one = simulate(Rules.classic(), ["parity", "density"], games=12, first=40)
    two = simulate(Rules.classic(), ["parity", "density"], games=12, first=40, jobs=2)
    assert one == two
    assert one.results[1].shots[0] == play_game(Rules.classic(), "density", 40).shots_fired


def test_jobs_do_not_change_exact_results():
    # The exact shooter remembers best cells per process; sharing games out must not
    # change a single shot.
    rules = Rules.custom(7, [3, 2, 2, 1, 1], touching=False)
    one = simulate(rules, ["exact"], games=8, first=3)
    assert one == simulate(rules, ["exact"], games=8, first=3, jobs=2)
    assert one.results[0].shots[4] == play_game(rules, "exact", 7).shots_fired


def test_progress_reaches_the_total():
    seen = []
    simulate(Rules.classic(), ["random"], games=5, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (5, 5)


class NamedExpert:
    """A shooter of one's own that takes the expert's name."""

    name = "expert"

    def choose(self, observation, rng):
        return 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "from 1 to 10,000,000"),
        ({"first": 0}, "start at 1"),
        ({"jobs": 0}, "jobs must be from 1"),
        ({"jobs": 10**6}, "jobs must be from 1 to 64, not 1000000"),
        ({"strategies": ["nope"]}, "unknown strategy"),
        ({"strategies": []}, "at least one"),
        ({"strategies": [3]}, "a strategy is a shooter's name"),
        ({"strategies": [ExpertShooter(), NamedExpert()]}, "two different shooters"),
        ({"rules": "classic"}, "expected Rules"),
    ],
)
def test_bad_simulation_arguments(kwargs, message):
    args = {"rules": Rules.classic(), "strategies": ["random"], "games": 2, **kwargs}
    with pytest.raises(BattleshipError, match=message):
        simulate(**args)


def test_replay_record_and_chart(tmp_path):
    record = play_game(Rules.classic(), "parity", 743)
    data = record.as_dict()
    assert data["shots_fired"] == len(data["shots"]) == len(record.boards())
    assert data["hunt"] + data["target"] == data["shots_fired"]
    assert record.boards()[-1].count("#") == 17
    table = simulate(Rules.classic(), ["random", "parity"], games=5)
    out = chart(table, tmp_path / "c.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_chart_of_a_board_the_fleet_fills_draws_without_a_warning(tmp_path):
    import warnings

    table = simulate(Rules.custom(2, [2, 2]), "density", games=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (matplotlib warned of an axis of no width)
        assert chart(table, tmp_path / "full.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("kind", ["svg", "pdf", "png"])
def test_the_same_chart_is_the_same_file(tmp_path, kind):
    """No date and no random ids in the file: a chart of the same games compares equal."""
    import time

    table = simulate(Rules.classic(), "density", games=3)
    first = chart(table, tmp_path / f"a.{kind}").read_bytes()
    time.sleep(1.1)  # (a date written in seconds would differ)
    assert chart(table, tmp_path / f"b.{kind}").read_bytes() == first


def test_a_game_not_played_or_a_name_as_bytes_is_refused_by_name():
    from hamle.battleship import play_games

    with pytest.raises(BattleshipError, match="game 5 was not among the games played"):
        play_games(Rules.classic(), "density", [1, 2]).fired(5)
    with pytest.raises(BattleshipError, match="not b'density'"):
        simulate(Rules.classic(), b"density", games=2)


def test_a_strategy_named_twice_or_by_alias_is_one_row():
    table = simulate(Rules.classic(), ["easy", "random", "density", "hard", "density"], games=3)
    assert [r.strategy for r in table.results] == ["random", "density"]
    assert table == simulate(Rules.classic(), ["random", "density"], games=3)


def test_a_single_name_or_shooter_is_one_strategy():
    by_name = simulate(Rules.classic(), "density", games=3)
    assert [r.strategy for r in by_name.results] == ["density"]
    assert simulate(Rules.classic(), get_shooter("density"), games=3) == by_name


def test_play_game_takes_a_shooter_as_well_as_a_name():
    rules = Rules.classic()
    by_name = play_game(rules, "hard", 9)
    assert play_game(rules, get_shooter("density"), 9) == by_name
    small = ExpertShooter(fleets=20)
    assert play_game(rules, small, 2) == play_game(rules, small, 2)
    with pytest.raises(BattleshipError, match="a strategy is a shooter's name"):
        play_game(rules, None, 1)


def test_play_game_reports_every_shot():
    seen = []
    record = play_game(Rules.classic(), "density", 4, progress=seen.append)
    assert seen == list(range(1, record.shots_fired + 1))


def test_the_exact_shooter_is_refused_before_any_game_on_a_board_too_wide(monkeypatch):
    from hamle.battleship import CountTooLargeError, tournament

    module = importlib.import_module("hamle.battleship.simulate")  # (not the function)

    def refuse(*args):
        raise AssertionError("a game was played")

    monkeypatch.setattr(module, "_play_chunk", refuse)
    wide = Rules.custom(16, [3, 3])
    with pytest.raises(CountTooLargeError, match=r"16 cells across .* too wide for exact"):
        simulate(wide, ["density", "exact"], games=2)
    with pytest.raises(CountTooLargeError, match="too wide for exact counting"):
        tournament(wide, ["exact"], ["uniform"], games=2, jobs=2)


def test_one_game_has_no_standard_error():
    row = simulate(Rules.classic(), "density", 1).as_dict()["strategies"]["density"]
    assert row["stderr"] is None and row["games"] == 1
    two = simulate(Rules.classic(), "density", 2).as_dict()["strategies"]["density"]
    assert two["stderr"] is not None
    table = tournament(Rules.classic(), ["density"], ["uniform", "edges"], games=1)
    cell = table.as_dict()["matrix"]["density"]["edges"]
    assert cell["stderr"] is None
    assert cell["versus_uniform"]["stderr"] is None and cell["versus_uniform"]["z"] is None
    assert "±" not in table.text() and f"{cell['mean']:.2f}" in table.text()
    wider = tournament(Rules.classic(), ["density"], ["uniform", "edges"], games=2)
    assert "±" in wider.text() and wider.against_uniform("density", "edges")["z"] is not None
