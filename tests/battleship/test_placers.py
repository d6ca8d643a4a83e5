"""Placers hide legal fleets, replay per game, and lean the way they say; tournaments
play every pairing on the same games as ``simulate``, with any number of processes."""

from __future__ import annotations

import importlib
import math
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from battleship.reference import small_rules
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import hamle.battleship as bs
from hamle.battleship.fits import fits
from hamle.battleship.fleet import placed_fleet
from hamle.battleship.placers import TILTED, TUNED, Placer, _tilt, mixture_weights, tuned_weights
from hamle.battleship.rules import placement_table, segment
from hamle.rng import FLEET_STREAM, game_stream

ONE_LAW = ["uniform", *TILTED]  # the placers that need no tuning


def assert_legal(fleet: bs.Fleet) -> None:
    rules = fleet.rules
    assert [len(ship) for ship in fleet.ships] == [ship.length for ship in rules.fleet]
    for ship in fleet.ships:
        assert segment(rules, list(ship)) == ship
    fleet.check()  # raises RulesError where ships overlap, or touch when they may not


@settings(max_examples=60, deadline=None)
@given(rules=small_rules(), name=st.sampled_from(ONE_LAW), seed=st.integers(0, 2**32))
def test_every_placer_hides_a_legal_fleet(rules, name, seed):
    assume(fits(bs.Observation.start(rules)))  # some fleets do not fit their board at all
    assert_legal(bs.get_placer(name).place(rules, np.random.default_rng(seed)))


@pytest.mark.parametrize("name", ONE_LAW)
@pytest.mark.parametrize("preset", ["classic", "russian"])
def test_a_placer_gives_game_g_the_same_fleet_every_time(name, preset):
    rules, placer = bs.Rules.named(preset), bs.get_placer(name)
    fleets = [placer.place(rules, game_stream(g, FLEET_STREAM)) for g in (1, 2, 1)]
    assert fleets[0] == fleets[2] != fleets[1]
    assert_legal(fleets[0])


def test_uniform_is_the_games_own_fleet():
    rules = bs.Rules.classic()
    for game in (1, 743):
        stream = game_stream(game, FLEET_STREAM)
        assert bs.get_placer("uniform").place(rules, stream) == bs.random_fleet(
            rules, game_stream(game, FLEET_STREAM)
        )


def test_gibbs_sweeps_without_a_tilt_keep_every_fleet_equally_likely():
    # On a 3×3 board every legal fleet of a 2- and a 1-cell ship, counted by enumeration,
    # is drawn about equally often: sweeps at strength 0 leave the uniform law as it is.
    rules = bs.Rules.custom(3, [2, 1])
    table = placement_table(rules)
    rng = np.random.default_rng(5)
    draws = Counter()
    for _ in range(4000):
        chosen = bs.fleet.random_placements(rules, rng)
        _tilt(rules, chosen, "edges", 0.0, rng)
        draws[placed_fleet(rules, chosen).ships] += 1
    fleets = [
        (table.cells[a][:2].tolist(), [table.cells[b][0]])
        for a in range(*table.ranges[2])
        for b in range(*table.ranges[1])
        if table.cells[b][0] not in table.cells[a][:2]
    ]
    assert len(draws) == len(fleets) == 12 * 7
    expected = 4000 / len(fleets)
    chi2 = sum((n - expected) ** 2 / expected for n in draws.values())
    assert chi2 < 140  # 83 degrees of freedom: P(chi2 > 140) < 1e-4


def mean_of(placer: Placer, rules: bs.Rules, measure, fleets: int = 150) -> float:
    rng = np.random.default_rng(11)
    return sum(measure(placer.place(rules, rng)) for _ in range(fleets)) / fleets


def from_edge(fleet: bs.Fleet) -> float:
    cells = [c for ship in fleet.ships for c in ship]
    return sum(min(c // 10, c % 10, 9 - c // 10, 9 - c % 10) for c in cells) / len(cells)


def nearest_ship(fleet: bs.Fleet) -> float:
    def apart(a, b):
        return min(max(abs(x // 10 - y // 10), abs(x % 10 - y % 10)) for x in a for y in b)

    ships = fleet.ships
    return sum(min(apart(ship, other) for other in ships if other != ship) for ship in ships) / len(
        ships
    )


def density_of(fleet: bs.Fleet) -> float:
    d = bs.density(bs.Observation.start(fleet.rules)).d
    return sum(d[c] for ship in fleet.ships for c in ship)


@pytest.mark.parametrize(
    ("name", "measure", "lower"),
    [
        ("edges", from_edge, True),
        ("anti-density", density_of, True),
        ("spread", nearest_ship, False),
        ("clustered", nearest_ship, True),
    ],
)
def test_each_placer_leans_the_way_it_says(name, measure, lower):
    rules = bs.Rules.classic()
    uniform = mean_of(bs.get_placer("uniform"), rules, measure)
    tilted = mean_of(bs.get_placer(name), rules, measure)
    assert (tilted < 0.8 * uniform) if lower else (tilted > 1.2 * uniform)


def test_play_game_and_play_games_agree_with_a_placer():
    rules = bs.Rules.named("russian")
    played = bs.play_games(rules, "density", [3, 4], placer="edges")
    for game in (3, 4):
        record = bs.play_game(rules, "density", game, placer="edges")
        assert played.fired(game) == tuple(shot.cell for shot in record.shots)
        assert record.fleet == bs.get_placer("edges").place(rules, game_stream(game, FLEET_STREAM))


def test_a_tournament_is_the_same_with_one_process_or_two():
    rules = bs.Rules.classic()
    shooters, placers = ["parity", "density"], ["uniform", "anti-density", "edges"]
    one = bs.tournament(rules, shooters, placers, games=24, first=5)
    two = bs.tournament(rules, shooters, placers, games=24, first=5, jobs=2)
    assert one.as_dict() == two.as_dict()
    for placer in placers:
        alone = bs.simulate(rules, "density", 24, first=5, placer=placer).results[0]
        assert one.cell("density", placer).shots == alone.shots
    versus = one.against_uniform("density", "anti-density")
    differences = [
        a - b
        for a, b in zip(
            one.cell("density", "anti-density").shots,
            one.cell("density", "uniform").shots,
            strict=True,
        )
    ]
    assert versus["mean"] == pytest.approx(sum(differences) / 24)
    spread = math.sqrt(sum((d - versus["mean"]) ** 2 for d in differences) / 23 / 24)
    assert versus["stderr"] == pytest.approx(spread)
    assert one.against_uniform("density", "uniform") == {"mean": 0, "stderr": 0, "z": 0}


def test_a_difference_without_spread_has_no_z_rather_than_z_0():
    # The games' differences: no spread, but a difference.
    pairings = (
        bs.Pairing("parity", "uniform", 1, (50, 45)),
        bs.Pairing("parity", "edges", 1, (39, 34)),
    )
    table = bs.TournamentTable(bs.Rules.classic(), ("parity",), ("uniform", "edges"), 1, pairings)
    versus = table.against_uniform("parity", "edges")
    assert versus == {"mean": -11.0, "stderr": 0.0, "z": None}  # (it was z = 0.0: no effect)


def test_anti_density_costs_the_density_shooter_shots():
    table = bs.tournament(bs.Rules.classic(), ["density"], ["uniform", "anti-density"], 200)
    versus = table.against_uniform("density", "anti-density")
    assert versus["mean"] > 3 and versus["z"] > 3


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: bs.get_placer("nowhere"), "unknown placer 'nowhere'"),
        (lambda: bs.tournament(bs.Rules.classic(), [], ["uniform"], 2), "at least one shooter"),
        (lambda: bs.tournament(bs.Rules.classic(), ["parity"], [], 2), "at least one placer"),
        (lambda: bs.simulate(bs.Rules.classic(), "parity", 2, placer=3), "unknown placer 3"),
        (
            lambda: bs.tournament(bs.Rules.classic(), ["parity"], ["uniform"], 2).cell(
                "parity", "edges"
            ),
            "no pairing of 'parity' with 'edges'",
        ),
    ],
)
def test_bad_input_gets_a_clear_error(make, message):
    with pytest.raises(bs.BattleshipError, match=message):
        make()


def test_repeated_names_are_one_row():
    table = bs.tournament(bs.Rules.classic(), ["hard", "density"], ["uniform", "Uniform"], 3)
    assert table.shooters == ("density",) and table.placers == ("uniform",)


def test_no_two_placers_share_a_name():
    names = [placer.name for placer in bs.PLACERS.values()]
    assert len(set(names)) == len(names) and all(a != b for a, b in combinations(names, 2))


@pytest.mark.parametrize(
    "rules", [bs.Rules.classic(), bs.Rules.custom(6, [3, 2, 2])], ids=["classic", "6×6"]
)
def test_mixed_draws_each_game_from_one_weighed_placer(rules):
    weights = dict(bs.get_placer("mixed").settled(rules).parts)
    assert list(weights) == list(TILTED) and sum(weights.values()) == pytest.approx(1, abs=0.03)
    mixed = bs.get_placer("mixed")
    for game in range(1, 30):
        fleet = mixed.place(rules, game_stream(game, FLEET_STREAM))
        assert_legal(fleet)
        assert fleet == mixed.place(rules, game_stream(game, FLEET_STREAM))
        rng = game_stream(game, FLEET_STREAM)
        cumulative = np.cumsum(list(weights.values()))
        pick = np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")
        assert fleet == bs.get_placer(TILTED[pick]).place(rules, rng)


def test_the_tuned_mixture_is_at_least_as_hard_for_the_best_shooter_as_any_one_placer():
    rules = bs.Rules.custom(6, [3, 2, 2])
    table = bs.tournament(rules, ["parity", "density"], list(TILTED), games=300)
    weights = tuned_weights(rules)

    def mixture_mean(shooter):
        return sum(w * table.cell(shooter, p).row()["mean"] for p, w in weights.items())

    value = min(mixture_mean(s) for s in table.shooters)
    best_single = max(min(table.cell(s, p).row()["mean"] for s in table.shooters) for p in TILTED)
    assert value >= best_single - 0.05


@pytest.mark.parametrize("preset", ["classic", "russian"])
def test_the_presets_stored_weights_are_their_tuned_ones(preset):
    rules = bs.Rules.named(preset)
    assert mixture_weights(rules) == TUNED[rules.describe()] == tuned_weights(rules)


def test_mixed_plays_at_once_under_any_rules(monkeypatch):
    # Tuning plays 2,400 games first (minutes on a tight board): other rules weigh the
    # four placers equally instead, and the presets use their stored weights.
    def no_tournament(*args, **kwargs):
        raise AssertionError("mixed ran a tuning tournament")

    monkeypatch.setattr(
        importlib.import_module("hamle.battleship.tournament"), "tournament", no_tournament
    )
    tight = bs.Rules.custom(8, [4, 3, 3, 2, 2, 2, 1, 1, 1, 1], touching=False)
    assert bs.get_placer("mixed").settled(tight).parts == tuple(dict.fromkeys(TILTED, 0.25).items())
    for rules in (tight, bs.Rules.classic(), bs.Rules.russian()):
        table = bs.simulate(rules, "density", games=2, placer="mixed")
        assert table.placer == "mixed"


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("args", "parts", "message"),
    [
        (("edges", NAN), (), "strength is a finite number .*, not nan"),
        (("edges", INF), (), "not inf"),
        (("edges", -1000), (), "of at least 0 .*, not -1000"),
        (("spread", True), (), "not true"),
        (("spread", "3"), (), "not '3'"),
        (("bogus", 1.0), (), "unknown placer kind 'bogus'; choose one of: uniform"),
        (("anti-density", 3.0), (), "kind 'anti-density'.*density, spread"),
        (("uniform", 2.0), (), "a uniform placer takes no strength"),
        (("mixture",), (("edges", 0.0), ("spread", 0)), "add up to 0.0"),
        (("mixture",), (("edges", 1e308), ("spread", 1e308)), "up to inf"),
        (("mixture",), (("edges", NAN),), "weight of edges .* not nan"),
        (("mixture",), (("edges", -1.0), ("spread", 2.0)), "not -1.0"),
        (("mixture",), (("spread", 1.0), ("edges", False)), "not false"),
        (("mixture",), (("bogus", 1.0),), "unknown placer 'bogus' in a mixture"),
        (("mixture",), (("uniform", 1.0),), r"the tilted placers \(edges, .*\), not from uniform"),
        (("mixture",), (("edges", 1), ("mixed", 1)), "not from mixed"),
        (("mixture",), (("edges", 1), ("edges", 2)), "edges is named twice"),
        (("mixture",), "edges", "pairs, not 'edges'"),
        (("mixture",), (("edges",),), r"pairs, not \(\('edges',\),\)"),
        (("mixture",), 3, "pairs, not 3"),
        (("edges", 1.0), (("spread", 1.0),), "not a placer of kind edges"),
    ],
)
def test_a_custom_placer_is_checked_when_made(args, parts, message):
    with pytest.raises(bs.BattleshipError, match=message):
        Placer("custom", "made by hand", *args, parts=parts)


@pytest.mark.parametrize(("name", "summary"), [("", "s"), (None, "s"), ("x", None)])
def test_a_placer_has_a_name_and_a_summary(name, summary):
    with pytest.raises(bs.BattleshipError, match=r"is .*text, not"):
        Placer(name, summary)


def test_a_custom_mixture_draws_its_parts_with_their_weights():
    rules = bs.Rules.classic()
    as_dict = Placer("edgy", "edges only", "mixture", parts={"edges": 2, "spread": 0})
    assert as_dict == Placer(
        "edgy", "edges only", "mixture", parts=[("edges", 2.0), ("spread", 0.0)]
    )
    assert as_dict.parts == (("edges", 2.0), ("spread", 0.0))
    tiny = Placer("tiny", "edges only", "mixture", parts=(("edges", 5e-324), ("spread", 0.0)))
    for game in range(1, 40):
        rng = game_stream(game, FLEET_STREAM)
        rng.random()  # (the pick)
        edges = bs.get_placer("edges").place(rules, rng)
        assert as_dict.place(rules, game_stream(game, FLEET_STREAM)) == edges
        assert tiny.place(rules, game_stream(game, FLEET_STREAM)) == edges


@pytest.mark.parametrize("name", list(bs.PLACERS))
def test_every_placer_takes_a_seed_or_a_generator_as_uniform_does(name):
    rules, placer = bs.Rules.classic(), bs.get_placer(name)
    fleet = placer.place(rules, np.random.default_rng(5))
    assert placer.place(rules, 5) == placer.place(rules, np.int64(5)) == fleet
    if name == "uniform":
        assert fleet == bs.random_fleet(rules, 5)
    for rng in (-1, "5", 2.5, None, True):
        with pytest.raises(bs.BattleshipError, match="a numpy Generator or a seed"):
            placer.place(rules, rng)


@pytest.mark.parametrize("function", [mixture_weights, tuned_weights])
@pytest.mark.parametrize("rules", [None, "classic", [10, 10]])
def test_mixture_weights_want_rules(function, rules):
    with pytest.raises(bs.RulesError, match="expected Rules"):
        function(rules)
