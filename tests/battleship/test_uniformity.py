"""random_fleet draws every legal fleet equally often (spec § 2): a chi-square test on
small boards where brute force lists every legal fleet, and proof that the same test
rejects the biased ship-by-ship sampler."""

from __future__ import annotations

import numpy as np
import pytest
from battleship import reference as ref
from battleship.reference import chi_square, chi_square_critical

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
