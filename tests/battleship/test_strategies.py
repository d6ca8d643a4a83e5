import numpy as np
import pytest

from hamle.battleship import (
    SHOOTERS,
    BattleshipError,
    Fleet,
    Observation,
    Ocean,
    Rules,
    ShotError,
    get_shooter,
    play_game,
    play_games,
)
from hamle.battleship.strategies.hunt_target import candidates, hunt_pattern

CLASSIC = Rules.classic()


def names(obs, cells):
    return sorted(obs.grid.name(int(c)) for c in cells)


def test_aliases_and_unknown_names():
    assert [get_shooter(a).name for a in ("easy", "normal", "hard")] == [
        "random",
        "parity",
        "density",
    ]
    with pytest.raises(BattleshipError, match="unknown strategy 'psychic'; choose one of"):
        get_shooter("psychic")


def test_target_then_line_as_in_the_seed():
    one = Observation.from_marks(CLASSIC, hit=["E5"])
    assert candidates(one, True)[0] == "target"
    assert names(one, candidates(one, True)[1]) == ["D5", "E4", "E6", "F5"]
    two = Observation.from_marks(CLASSIC, hit=["E5", "F5"], miss=["E4", "E6"])
    rule, cells = candidates(two, True)
    assert (rule, names(two, cells)) == ("line", ["D5", "G5"])
    blocked = Observation.from_marks(CLASSIC, hit=["E5", "F5"], miss=["E4", "E6", "G5", "D5"])
    assert candidates(blocked, True)[0] == "target"


def test_line_goes_on_from_the_other_end_at_the_edge():
    obs = Observation.from_marks(CLASSIC, hit=["A1", "B1", "C1"])
    assert names(obs, candidates(obs, True)[1]) == ["D1"]


def test_hunt_uses_the_shortest_afloat_ship():
    obs = Observation.start(CLASSIC)
    rule, cells = candidates(obs, True)
    assert rule == "hunt" and len(cells) == 50 and all((c // 10 + c % 10) % 2 == 0 for c in cells)
    no_destroyer = Observation.from_marks(CLASSIC, sunk=[["J9", "J10"]])
    rule, cells = candidates(no_destroyer, True)
    assert len(cells) == 33  # 34 pattern cells, J10 is sunk
    assert len(candidates(obs, False)[1]) == 100
    assert hunt_pattern(10, 10, 3).sum() == 34


def test_hunt_falls_back_to_any_unshot_cell():
    pattern = [i for i in range(100) if (i // 10 + i % 10) % 2 == 0]
    obs = Observation.from_marks(CLASSIC, miss=pattern)
    rule, cells = candidates(obs, True)
    assert rule == "hunt" and cells == obs.unshot.tolist() and len(cells) == 50


@pytest.mark.parametrize("name", list(SHOOTERS))
def test_every_shooter_finishes_without_repeating(name):
    # a smaller board for exact, which counts every layout before each shot
    rules = Rules.custom(7, [5, 4, 3, 3, 2]) if name == "exact" else CLASSIC
    for game in (1, 2, 3):
        record = play_game(rules, name, game)
        cells = [shot.cell for shot in record.shots]
        assert len(set(cells)) == len(cells) <= 100
        assert sum(shot.answer == "sunk" for shot in record.shots) == 5
        assert record.shots[-1].answer == "sunk"


@pytest.mark.parametrize("name", list(SHOOTERS))
def test_russian_rules_shooters_never_fire_at_known_water(name):
    record = play_game(Rules.russian(), name, 5)
    ocean = Ocean(record.fleet)
    for shot in record.shots:
        assert ocean.observation.marks[shot.cell] == 0
        ocean.fire(shot.cell)
    assert ocean.over


def test_density_shooter_fires_at_a_best_cell():
    obs = Observation.from_marks(CLASSIC, hit=["E5"])
    picks = {get_shooter("hard").choose(obs, np.random.default_rng(s)) for s in range(40)}
    assert names(obs, picks) == ["E6", "F5"]


def test_numbered_games_replay_identically_and_share_fleets():
    a, b = play_game(CLASSIC, "density", 743), play_game(CLASSIC, "density", 743)
    assert a == b
    assert play_game(CLASSIC, "random", 743).fleet == a.fleet
    assert play_game(CLASSIC, "density", 744).fleet != a.fleet


def test_modes_are_read_from_the_board():
    record = play_game(CLASSIC, "parity", 10)
    ocean = Ocean(record.fleet)
    for shot in record.shots:
        has_open_hit = (ocean.observation.marks == 2).any()
        assert shot.mode == ("target" if has_open_hit else "hunt")
        ocean.fire(shot.cell)
    assert record.hunt + record.target == record.shots_fired


def test_custom_rules_games():
    rules = Rules.custom((6, 8), [4, 3, 1], touching=False)
    record = play_game(rules, "density", 3)
    assert Fleet.from_cells(rules, record.fleet.ships) == record.fleet
    assert record.shots_fired >= 8


@pytest.mark.parametrize("name", list(SHOOTERS))
@pytest.mark.parametrize(
    ("observation", "rng", "message"),
    [
        (Observation.start(CLASSIC), None, "rng must be a numpy Generator .*not None"),
        (Observation.start(CLASSIC), 3, "rng must be a numpy Generator .*not 3"),
        ("E5", np.random.default_rng(1), "expected an Observation .*not 'E5'"),
        (None, np.random.default_rng(1), "expected an Observation .*not None"),
    ],
)
def test_every_shooter_names_a_wrong_argument(name, observation, rng, message):
    with pytest.raises(BattleshipError, match=message):
        get_shooter(name).choose(observation, rng)


@pytest.mark.parametrize("games", [5, "12", None])
def test_play_games_names_games_that_are_not_a_list(games):
    with pytest.raises(BattleshipError, match=f"games is a list of game numbers .*not {games!r}"):
        play_games(CLASSIC, "density", games)


def test_game_numbers_may_be_numpy_integers_and_bad_ones_are_named():
    record = play_game(CLASSIC, "density", np.int64(7))
    assert record.shots == play_game(CLASSIC, "density", 7).shots
    assert play_games(CLASSIC, "density", np.arange(7, 9)).games == (7, 8)
    for game, message in (
        (0, "game numbers start at 1, not 0"),
        (2.0, "not 2.0"),
        (True, "not True"),
    ):
        with pytest.raises(BattleshipError, match=message):
            play_game(CLASSIC, "density", game)


FINISHED = [
    Observation.from_marks(
        CLASSIC,
        sunk=[
            ["A1", "A2", "A3", "A4", "A5"],
            ["B1", "B2", "B3", "B4"],
            ["C1", "C2", "C3"],
            ["D1", "D2", "D3"],
            ["E1", "E2"],
        ],
    ),
    Observation.from_marks(CLASSIC, afloat=[]),
]


@pytest.mark.parametrize("name", list(SHOOTERS))
@pytest.mark.parametrize(
    ("observation", "said", "code"),
    [
        (FINISHED[0], "every ship is sunk", "battleship.all_sunk"),
        (FINISHED[1], "no ship is afloat", "battleship.none_afloat"),
    ],
    ids=["all sunk", "none afloat"],
)
def test_every_shooter_refuses_a_board_with_no_ship_afloat(name, observation, said, code):
    with pytest.raises(ShotError, match=f"^{said}; there is nothing left to fire at$") as refused:
        get_shooter(name).choose(observation, np.random.default_rng(0))
    assert refused.value.code == code


def test_hunt_candidates_of_a_finished_board_do_not_crash():
    rule, cells = candidates(FINISHED[0], parity=True)
    assert rule == "hunt" and cells == FINISHED[0].unshot.tolist()
