"""random_fleet draws every legal fleet equally often (spec § 2): a chi-square test on
small boards where brute force lists every legal fleet, and proof that the same test
rejects the biased ship-by-ship sampler. Fleets too tight for whole-fleet rejection are
drawn by counting, as uniformly and as reproducibly."""

from __future__ import annotations

import numpy as np
import pytest
from battleship import reference as ref
from battleship.reference import chi_square, chi_square_critical

from hamle.battleship import CountTooLargeError, RulesError, get_placer, play_game
from hamle.battleship import fleet as fleet_module
from hamle.battleship.fleet import random_fleet
from hamle.battleship.rules import Rules

PER_FLEET = 25  # expected draws of each legal fleet (≥ 20)


def ship_by_ship(rules: Rules, rng: np.random.Generator, count: int) -> list:
    """``count`` fleets from the biased sampler: each ship in turn takes a uniform
    placement, and only a ship that meets an earlier one is drawn again (the whole
    fleet only at a dead end, where no placement is left for a ship)."""
    options = ref.ship_placements(rules)
    zones = {p: ref.zone(rules, p) for ship_options in options for p in ship_options}

    def fits(p, fleet) -> bool:
        return all(zones[p].isdisjoint(q) and zones[q].isdisjoint(p) for q in fleet)

    out = []
    while len(out) < count:
        fleet: list[tuple[int, ...]] = []
        for ship_options in options:
            if not any(fits(p, fleet) for p in ship_options):
                break
            while True:
                p = ship_options[rng.integers(len(ship_options))]
                if fits(p, fleet):
                    fleet.append(p)
                    break
        else:
            out.append(tuple(fleet))
    return out


def test_wilson_hilferty_matches_tables():
    # chi-square 0.999 quantiles from standard tables
    for df, table in ((10, 29.588), (50, 86.661), (100, 149.449), (500, 603.446)):
        assert chi_square_critical(df) == pytest.approx(table, rel=0.01)


CASES = [
    Rules.custom(4, [3, 2]),
    Rules.custom(4, [3, 2], touching=False),
    Rules.custom(4, [2, 2, 1], touching=False),
    Rules.custom((3, 5), [2, 2], touching=False),
]


@pytest.mark.parametrize("rules", CASES, ids=[r.describe() for r in CASES])
def test_random_fleet_is_uniform(rules):
    fleets = ref.fleets(rules)
    assert len(fleets) >= 100  # enough cells in the table for the test to mean something
    n = PER_FLEET * len(fleets)
    rng = np.random.default_rng(12345)
    draws = [random_fleet(rules, rng).ships for _ in range(n)]
    assert len(set(draws)) == len(fleets)  # every legal fleet turns up
    statistic = chi_square(draws, fleets)
    assert statistic < chi_square_critical(len(fleets) - 1)


# Under no-touch rules the first ships crowd out the later ones unevenly, so the bias
# is strong (about 8× the critical value here); with touching it is too weak to see
# with this many draws.
BIASED_CASES = CASES[1:]


@pytest.mark.parametrize("rules", BIASED_CASES, ids=[r.describe() for r in BIASED_CASES])
def test_ship_by_ship_sampler_fails_the_same_test(rules):
    fleets = ref.fleets(rules)
    n = PER_FLEET * len(fleets)
    rng = np.random.default_rng(12345)
    draws = ship_by_ship(rules, rng, n)
    statistic = chi_square(draws, fleets)
    assert statistic > chi_square_critical(len(fleets) - 1)


# --- fleets too tight for rejection ------------------------------------------------------

# 406,664 layouts, but only about one fleet in 8·10^9 drawn ship by ship is legal.
TIGHT = Rules.custom(7, Rules.russian().lengths, touching=False)


def test_a_fleet_too_tight_for_rejection_is_drawn_legal_and_replays():
    assert fleet_module._rejection_fails(TIGHT)
    fleets = [random_fleet(TIGHT, seed) for seed in range(20)]
    for fleet in fleets:
        assert [len(ship) for ship in fleet.ships] == list(TIGHT.lengths)
        fleet.check()  # raises where ships overlap or touch
    assert [random_fleet(TIGHT, seed) for seed in range(20)] == fleets
    assert len({fleet.ships for fleet in fleets}) == 20
    for name in ("uniform", "edges", "spread"):
        get_placer(name).place(TIGHT, np.random.default_rng(5)).check()
    record = play_game(TIGHT, "density", 3)
    assert record.fleet == play_game(TIGHT, "density", 3).fleet and record.shots_fired >= 20


@pytest.mark.parametrize("rules", [*CASES, Rules.classic(), Rules.russian()], ids=str)
def test_rules_where_rejection_works_keep_it(rules):
    assert not fleet_module._rejection_fails(rules)  # so their seeds keep their fleets


COUNTED_CASES = [CASES[1], CASES[3]]  # (CASES[2] takes 12 s this way)


@pytest.mark.parametrize("rules", COUNTED_CASES, ids=[r.describe() for r in COUNTED_CASES])
def test_fleets_drawn_by_counting_are_uniform(rules, monkeypatch):
    # The same chi-square test as above, which the ship-by-ship sampler fails on these
    # rules, with every fleet drawn by counting (3×5: two equal ships, labelled at random).
    monkeypatch.setattr(fleet_module, "_rejection_fails", lambda rules: True)
    fleets = ref.fleets(rules)
    rng = np.random.default_rng(54321)
    draws = [random_fleet(rules, rng).ships for _ in range(PER_FLEET * len(fleets))]
    assert len(set(draws)) == len(fleets)
    assert chi_square(draws, fleets) < chi_square_critical(len(fleets) - 1)


def test_a_seed_rejection_gives_up_on_is_drawn_by_counting(monkeypatch):
    rules = CASES[2]
    monkeypatch.setattr(fleet_module, "_rejection", lambda rules, seed: np.full(3, -1))
    fleets = [random_fleet(rules, seed) for seed in range(10)]
    for fleet in fleets:
        fleet.check()
    assert fleets == [random_fleet(rules, seed) for seed in range(10)]


def test_a_fleet_that_does_not_fit_is_named():
    with pytest.raises(RulesError, match="3,3,1 cannot all be placed on this board") as raised:
        random_fleet(Rules.custom(3, [3, 3, 1], touching=False), 1)
    assert raised.value.code == "battleship.fleet_does_not_fit"


def test_a_fleet_out_of_reach_of_both_samplers_says_so(monkeypatch):
    def too_many(*args):
        raise CountTooLargeError("too many", code="battleship.too_many_layouts")

    monkeypatch.setattr(fleet_module, "_rejection_fails", lambda rules: True)
    monkeypatch.setattr(fleet_module, "sample", too_many)
    with pytest.raises(RulesError, match="too many to draw one by counting them"):
        random_fleet(TIGHT, 1)


def test_a_fleet_of_too_many_layouts_to_draw_says_why():
    many = Rules.custom(10, [2] * 30)  # 2.8·10^26 layouts, and none drawn ship by ship is legal
    with pytest.raises(RulesError, match=r"^cannot draw a fleet for 10×10, fleet 2,2,.*: fewer"):
        random_fleet(many, 1)
