"""A shooter of one's own (any object with ``name`` and ``choose``, or a subclass of a
built-in shooter) is played through its own ``choose`` by every run, with errors that
name it and the game."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import hamle.battleship as bs
from hamle.battleship.observation import UNKNOWN
from hamle.battleship.strategies.density_shooter import DensityShooter

CLASSIC = bs.Rules.classic()


def first_unshot(observation) -> int:
    return int(np.flatnonzero(observation.marks == UNKNOWN)[0])


class Scan:
    """Row by row from A1: no ``kernel`` attribute at all."""

    name = "scan"

    def choose(self, observation, rng):
        return first_unshot(observation)


class ScanSayingKernel(Scan):
    """Says it has the random shooter's kernel (0), which is not its own."""

    name = "scan-kernel"
    kernel = 0


@dataclass(frozen=True)
class ScanningDensity(DensityShooter):
    """A built-in shooter's subclass with a choose of its own."""

    name: str = "scanning-density"

    def choose(self, observation, rng):
        return first_unshot(observation)


class Repeat:
    name = "repeat"

    def choose(self, observation, rng):
        return 0


class Fails:
    name = "fails"

    def choose(self, observation, rng):
        raise ZeroDivisionError("its own bug")


@pytest.mark.parametrize("shooter", [Scan(), ScanSayingKernel(), ScanningDensity()])
def test_every_run_plays_a_shooter_through_its_own_choose(shooter):
    """Batch runs played a built-in shooter's kernel for any shooter whose ``kernel`` was
    set (a subclass of density scored density's games), or failed on one without it."""
    games = [1, 2, 3]
    one_by_one = [bs.play_game(CLASSIC, shooter, game).shots_fired for game in games]
    assert one_by_one != [bs.play_game(CLASSIC, "density", game).shots_fired for game in games]
    assert bs.play_games(CLASSIC, shooter, games).shots.tolist() == one_by_one
    table = bs.simulate(CLASSIC, [shooter], games=3)
    assert list(table.results[0].shots) == one_by_one
    assert table.results[0].strategy == shooter.name


def test_a_shot_a_shooter_may_not_fire_names_the_shooter_and_the_game():
    with pytest.raises(bs.ShotError) as caught:
        bs.simulate(CLASSIC, [Repeat()], games=2, first=7)
    assert str(caught.value) == "the repeat shooter, in game 7: A1 has already been shot"


def test_a_shooter_that_fails_keeps_its_error_with_a_note_of_the_game():
    with pytest.raises(ZeroDivisionError) as caught:
        bs.play_game(CLASSIC, Fails(), 12)
    assert caught.value.__notes__ == ["(the fails shooter, in game 12)"]


def test_a_shooter_that_cannot_go_to_other_processes_is_named_before_the_run():
    class Local(Scan):  # (a class inside a function cannot be pickled)
        name = "local"

    with pytest.raises(bs.BattleshipError, match="local cannot be sent to other processes"):
        bs.simulate(CLASSIC, [Local()], games=4, jobs=2)
    assert bs.simulate(CLASSIC, [Local()], games=2).results[0].shots  # one process: played


@pytest.mark.parametrize(
    ("cell", "wrong"),
    [
        (None, "None is not a cell index"),
        (100, "cell 100 is off the 10×10 board"),
        ("A1", "'A1' is not a cell index"),
        (0, "A1 has already been shot"),
    ],
)
def test_a_hint_checks_the_cell_of_a_shooter_of_ones_own(cell, wrong):
    class Says:
        name = "says"

        def choose(self, observation, rng):
            return cell

    observation = bs.Observation.from_marks(CLASSIC, miss=["A1"])
    with pytest.raises(bs.ShotError, match=f"^the says shooter chose: {wrong}"):
        bs.hint(observation, Says())


def test_a_hint_of_a_shooter_of_ones_own_is_a_plain_whole_number():
    class NumPy:
        name = "numpy"

        def choose(self, observation, rng):
            return np.int64(first_unshot(observation))

    decision = bs.hint(bs.Observation.start(CLASSIC), NumPy())
    assert type(decision.cell) is int and decision.cell == 0 and decision.how == "choice"


def test_a_hint_of_an_expert_that_chooses_otherwise_is_its_choice():
    @dataclass(frozen=True)
    class ScanningExpert(bs.ExpertShooter):
        def choose(self, observation, rng):
            return first_unshot(observation)

    observation = bs.Observation.from_marks(CLASSIC, hit=["E5"])
    assert bs.hint(observation, ScanningExpert(fleets=100)) == bs.Decision(0, "choice")
