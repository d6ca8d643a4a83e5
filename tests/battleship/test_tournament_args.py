"""``tournament``, ``simulate`` and ``best_mixture`` refuse bad arguments before any game
with the game's own error, and take NumPy's whole numbers as ``play_game`` does."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import hamle.battleship as bs
from hamle.battleship.tournament import best_mixture

MODULE = importlib.import_module("hamle.battleship.tournament")  # (not the function)
SIMULATE = importlib.import_module("hamle.battleship.simulate")
RULES = bs.Rules.classic()


@pytest.fixture
def no_games(monkeypatch):
    """Every game played fails the test: bad arguments are refused before the first."""

    def refuse(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(MODULE, "play_pairings", refuse)
    monkeypatch.setattr(SIMULATE, "play_pairings", refuse)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"games": True}, "the number of games must be from 1 to 10,000,000, not True"),
        ({"games": 0}, "from 1 to 10,000,000, not 0"),
        ({"games": 10**30}, "to 10,000,000, not a number of 31 digits"),
        ({"games": 2.0}, "not 2.0"),
        ({"games": np.int64(-3)}, r"not np.int64\(-3\)"),
        ({"first": True}, "game numbers start at 1, not True"),
        ({"first": 0}, "start at 1, not 0"),
        ({"first": "2"}, "not '2'"),
        ({"jobs": True}, "^jobs must be from 1 to 64, not True"),
        ({"jobs": 65}, "not 65"),
        ({"progress": 5}, "progress is a function of .*, not 5"),
        ({"jobs": 2, "cluster": "tcp://127.0.0.1:1"}, "not both"),
    ],
)
def test_bad_arguments_are_refused_before_any_game(no_games, given, message):
    with pytest.raises(bs.BattleshipError, match=message):
        bs.tournament(RULES, ["parity"], ["uniform"], **{"games": 2, **given})
    with pytest.raises(bs.BattleshipError, match=message):
        bs.simulate(RULES, ["parity"], **{"games": 2, **given})


def test_numpy_whole_numbers_are_taken():
    table = bs.tournament(RULES, ["parity"], ["uniform"], games=np.int64(3), first=np.int32(2))
    assert table == bs.tournament(RULES, ["parity"], ["uniform"], games=3, first=2)
    assert type(table.first) is int and type(table.as_dict()["games"]) is int


def test_a_cluster_alone_keeps_the_default_jobs(monkeypatch):
    seen = []

    def record(rules, pairs, games, first, jobs, progress, cluster):
        seen.append((jobs, cluster))
        return [[(40, 20, 20)] * games for _ in pairs]

    monkeypatch.setattr(MODULE, "play_pairings", record)
    bs.tournament(RULES, ["parity"], ["uniform"], games=2, cluster="tcp://127.0.0.1:1")
    bs.tournament(RULES, ["parity"], ["uniform"], games=2, jobs=np.int64(2))
    assert seen == [(1, "tcp://127.0.0.1:1"), (2, None)]
    assert type(seen[1][0]) is int


@pytest.mark.parametrize("rounds", [0, -1, True, 2.5, "20"])
def test_best_mixture_wants_at_least_one_round(rounds):
    table = bs.tournament(RULES, ["parity"], ["uniform", "edges"], games=2)
    with pytest.raises(bs.BattleshipError, match="rounds is a whole number of at least 1"):
        best_mixture(table, rounds=rounds)
    assert best_mixture(table, rounds=np.int64(50)) == best_mixture(table, rounds=50)


def test_best_mixture_wants_a_table():
    with pytest.raises(bs.BattleshipError, match="weighs a TournamentTable"):
        best_mixture(None)
