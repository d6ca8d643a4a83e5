"""New games: each is given its address; the site keeps the most recently played, and one
client may start only so many a minute, so that a client starting them without pause can
neither fill the disk nor clear away other players' games."""

from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import hamle.web.limit
from hamle.cli import app as cli
from hamle.web import create_app
from hamle.web.limit import NewGameLimit, TooManyGames
from hamle.web.store import GameNotFound, Store

NEW_GAMES = [
    ("/api/tour/games", {"kind": "free", "start": "A1"}),
    ("/api/mastermind/games", {}),
    (
        "/api/battleship/games",
        {
            "fleet": [
                ["A1", "B1", "C1", "D1", "E1"],
                ["A3", "A4", "A5", "A6"],
                ["C3", "D3", "E3"],
                ["J8", "J9", "J10"],
                ["F10", "G10"],
            ]
        },
    ),
]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("path", "body"), NEW_GAMES)
def test_a_new_game_is_located(client, path, body):
    created = client.post(path, json=body)
    assert created.status_code == 201
    location = created.headers["location"]
    assert location == f"{path}/{created.json()['id']}"
    assert client.get(location).json()["id"] == created.json()["id"]


def test_the_least_recently_played_games_are_cleared_away_past_the_most_kept(tmp_path):
    store = Store(tmp_path / "games.sqlite3", max_games=10)
    first = store.create("tour", {"moves": []})
    others = [store.create("tour", {"moves": []}) for _ in range(9)]
    with store.update("tour", first) as state:  # played again: the most recent now
        state["moves"].append("E8")
    later = [store.create("tour", {"moves": []}) for _ in range(4)]
    kept = [first, *others[4:], *later]
    assert [store.load("tour", game) for game in kept[:1]] == [{"moves": ["E8"]}]
    for game in kept:
        store.load("tour", game)
    for game in others[:4]:
        with pytest.raises(GameNotFound):
            store.load("tour", game)
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (10,)


def test_a_big_store_checks_every_thousandth_of_its_games(tmp_path):
    store = Store(tmp_path / "games.sqlite3", max_games=2000)
    games = [store.create("tour", {"n": n}) for n in range(2003)]
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:  # the check after game 2002
        assert db.execute("SELECT count(*) FROM games").fetchone() == (2001,)
    with pytest.raises(GameNotFound):
        store.load("tour", games[1])
    store.close()
    Store(tmp_path / "games.sqlite3", max_games=5).close()  # a smaller limit: at start
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        ids = [row[0] for row in db.execute("SELECT id FROM games")]
    assert sorted(ids) == sorted(games[-5:])


def test_a_game_cleared_away_while_a_move_is_made_is_not_found_not_changed(tmp_path):
    path = tmp_path / "games.sqlite3"
    mine, theirs = Store(path), Store(path, max_games=1)  # two servers on one file
    game = mine.create("tour", {"moves": []})
    with pytest.raises(GameNotFound), mine.update("tour", game) as state:
        state["moves"].append("E8")
        theirs.create("tour", {"moves": []})


@pytest.mark.parametrize("wrong", [0, -1, True, 2.0, "5", None])
def test_the_most_games_kept_is_a_whole_number_of_1_or_more(tmp_path, wrong):
    with pytest.raises(ValueError, match=r"^max_games must be a whole number of 1 or more"):
        Store(tmp_path / "games.sqlite3", max_games=wrong)


def test_new_games_come_one_every_60_over_the_limit_seconds_after_the_first_ones():
    clock = Clock()
    limit = NewGameLimit(3, clock=clock)
    for _ in range(3):
        limit.take("192.0.2.1")
    with pytest.raises(
        TooManyGames, match=r"may start 3 new games a minute; start the next in 20 s$"
    ) as refused:
        limit.take("192.0.2.1")
    assert refused.value.code == "site.too_many_games"
    assert refused.value.params == {"limit": 3, "seconds": 20}
    limit.take("192.0.2.2")  # another client
    clock.now += 15
    with pytest.raises(TooManyGames, match=r"next in 5 s$"):
        limit.take("192.0.2.1")
    clock.now += 5
    limit.take("192.0.2.1")
    with pytest.raises(TooManyGames, match=r"next in 20 s$"):  # refusals count for nothing
        limit.take("192.0.2.1")
    clock.now += 3600  # no more than the first ones after an hour's pause
    for _ in range(3):
        limit.take("192.0.2.1")
    with pytest.raises(TooManyGames):
        limit.take("192.0.2.1")


def test_an_ipv6_client_counts_by_its_network_and_a_mapped_ipv4_as_its_address():
    limit = NewGameLimit(1, clock=Clock())
    limit.take("2001:db8:1:2::1")
    with pytest.raises(TooManyGames):
        limit.take("2001:db8:1:2:ffff::9")  # the same /64
    limit.take("2001:db8:1:3::1")
    limit.take("192.0.2.1")
    with pytest.raises(TooManyGames):
        limit.take("::ffff:192.0.2.1")
    limit.take("testclient")  # not an address: counted by its name
    with pytest.raises(TooManyGames):
        limit.take("testclient")


def test_no_limit_is_0_and_the_limit_a_whole_number():
    limit = NewGameLimit(0)
    for _ in range(1000):
        limit.take("192.0.2.1")
    for wrong in (-1, True, 1.5, "30"):
        with pytest.raises(ValueError, match=r"^games_per_minute must be a whole number"):
            NewGameLimit(wrong)


def test_the_clients_remembered_are_bounded(monkeypatch):
    monkeypatch.setattr(hamle.web.limit, "CLIENTS", 100)
    clock = Clock()
    limit = NewGameLimit(1, clock=clock)
    for n in range(250):
        limit.take(f"10.0.{n // 256}.{n % 256}")
    assert len(limit._left) <= 100
    with pytest.raises(TooManyGames):  # the latest are remembered
        limit.take("10.0.0.249")


def test_a_client_starting_too_many_games_gets_a_429_saying_when_to_try_again(tmp_path):
    app = create_app(tmp_path / "hamle.sqlite3", warm=False, games_per_minute=3)
    with TestClient(app) as client, TestClient(app, client=("198.51.100.7", 1)) as other:
        assert client.post(NEW_GAMES[0][0], json={"kind": "free", "start": "Z9"}).status_code == 400
        for path, body in NEW_GAMES:  # one limit across the games; a refused one not counted
            assert client.post(path, json=body).status_code == 201
        refused = client.post(*NEW_GAMES[0][:1], json=NEW_GAMES[0][1])
        assert refused.status_code == 429 and refused.headers["retry-after"] == "20"
        assert refused.json() == {
            "detail": "this address may start 3 new games a minute; start the next in 20 s",
            "code": "site.too_many_games",
            "params": {"limit": 3, "seconds": 20},
        }
        assert other.post(NEW_GAMES[1][0], json={}).status_code == 201
        assert client.get("/api/health").status_code == 200  # only new games are limited


def test_serve_takes_the_limits_and_refuses_them_out_of_range():
    help_text = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=200).output
    assert "--games-per-minute" in help_text and "--max-games" in help_text
    for option, wrong in (("--games-per-minute", "-1"), ("--max-games", "0")):
        result = CliRunner().invoke(cli, ["serve", option, wrong])
        assert result.exit_code == 2 and option in result.stderr
