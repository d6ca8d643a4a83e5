"""The Battleship API: options, fleets, games against the computer, heat map, replay and
the statistics jobs — with hostile input and a restart in the middle of a game."""

import json
import threading
import time

import pytest
from fastapi.testclient import TestClient

import hamle.battleship as bs
from hamle.rng import FLEET_STREAM, SHOOTER_STREAM, game_stream
from hamle.web import battleship as web_bs
from hamle.web import create_app

API = "/api/battleship"
CLASSIC = bs.Rules.classic()
FLEET = [
    ["A1", "B1", "C1", "D1", "E1"],
    ["A3", "A4", "A5", "A6"],
    ["C3", "D3", "E3"],
    ["J8", "J9", "J10"],
    ["F10", "G10"],
]
RUSSIAN_FLEET = [
    ["A1", "B1", "C1", "D1"],
    ["A3", "B3", "C3"],
    ["E3", "F3", "G3"],
    ["A5", "B5"],
    ["D5", "E5"],
    ["G5", "H5"],
    ["J1"],
    ["J3"],
    ["J5"],
    ["A10"],
]


def new_game(client, level="easy", fleet=FLEET, rules="classic"):
    response = client.post(f"{API}/games", json={"rules": rules, "level": level, "fleet": fleet})
    assert response.status_code == 201, response.text
    return response.json()


def computer_fleet(client, game_id) -> bs.Fleet:
    """Privileged: the hidden fleet, re-derived from the secret seed in the store."""
    state = client.app.state.store.load("battleship", game_id)
    rules = bs.Rules.named(state["rules"])
    placer = bs.get_placer(state.get("placer", "uniform"))
    return placer.place(rules, game_stream(state["seed"], FLEET_STREAM))


def fire(client, game_id, cell):
    return client.post(f"{API}/games/{game_id}/shots", json={"cell": cell})


def names(cells):
    return [CLASSIC.grid.name(c) for c in cells]


# ---- options and random fleets ---------------------------------------------------------


def test_options_list_levels_rules_and_bounds(client):
    data = client.get(f"{API}/options").json()
    uniform = {"classic": "uniform", "russian": "uniform"}
    strong = {"classic": "anti-density", "russian": "anti-density"}
    assert data["levels"] == [
        {
            "level": level,
            "shooter": name,
            "shooters": {"classic": name, "russian": russian},
            "placers": placers,
        }
        for level, name, russian, placers in [
            ("easy", "random", "random", uniform),
            ("normal", "parity", "parity", uniform),
            ("hard", "density", "density", strong),
            ("expert", "expert", web_bs.EXPERT_SHOOTERS["russian"].name, strong),
        ]
    ]
    assert data["strategies"] == ["random", "hunt-target", "parity", "density", "expert"]
    rules = {r["name"]: r for r in data["rules"]}
    assert [s["length"] for s in rules["classic"]["fleet"]] == [5, 4, 3, 3, 2]
    assert rules["classic"]["fleet"][0]["name"] == "Carrier" and rules["classic"]["touching"]
    assert [s["length"] for s in rules["russian"]["fleet"]] == [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    assert not rules["russian"]["touching"]
    assert data["games"] == {"min": 10, "max": 2000, "default": 1000}
    assert data["max_game"] == 10**9


@pytest.mark.parametrize("rules", ["classic", "russian"])
def test_random_fleets_are_legal_and_new_each_time(client, rules):
    fleets = [client.get(f"{API}/fleet", params={"rules": rules}).json() for _ in range(3)]
    chosen = bs.Rules.named(rules)
    for data in fleets:
        assert data["rules"] == rules
        assert [s["name"] for s in data["fleet"]] == [s.name for s in chosen.fleet]
        bs.Fleet.from_cells(chosen, [s["cells"] for s in data["fleet"]])  # raises if illegal
    assert len({json.dumps(d["fleet"]) for d in fleets}) == 3


def test_random_fleet_rejects_unknown_rules(client):
    response = client.get(f"{API}/fleet", params={"rules": "chess"})
    assert response.status_code == 422
    assert "rules" in response.json()["detail"]


# ---- creating games ------------------------------------------------------------------


def test_new_game_view_hides_the_computer_fleet(client):
    game = new_game(client, level="normal")
    assert game["rules"] == "classic" and game["level"] == "normal"
    assert game["shooter"] == "parity"
    assert (game["rows"], game["cols"], game["touching"]) == (10, 10, True)
    assert game["turn"] == 0 and not game["over"] and game["winner"] is None
    assert game["enemy_fleet"] is None
    assert game["enemy"]["marks"] == ["unknown"] * 100
    assert game["own"]["marks"] == ["unknown"] * 100
    assert (game["enemy"]["afloat"], game["enemy"]["ships"]) == (5, 5)
    assert [s["cells"] for s in game["fleet"]] == FLEET
    assert [s["name"] for s in game["fleet"]] == [s.name for s in CLASSIC.fleet]
    state = client.app.state.store.load("battleship", game["id"])
    assert "seed" not in json.dumps(game) and str(state["seed"]) not in json.dumps(game)
    again = client.get(f"{API}/games/{game['id']}").json()
    assert again == game


def test_game_ids_are_unguessable_and_seeds_differ(client):
    a, b = new_game(client), new_game(client)
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    store = client.app.state.store
    assert store.load("battleship", a["id"])["seed"] != store.load("battleship", b["id"])["seed"]
    assert computer_fleet(client, a["id"]) != computer_fleet(client, b["id"])


@pytest.mark.parametrize(
    ("fleet", "message"),
    [
        (FLEET[:4], "the fleet has 5 ships, 4 were given"),
        ([*FLEET[:4], ["A1", "A2"]], "Carrier and Destroyer overlap at A1"),
        ([["A1", "B1", "C1", "D1", "D2"], *FLEET[1:]], "not a straight unbroken line"),
        ([["A1", "B1", "C1", "D1"], *FLEET[1:]], "Carrier is 5 cells long, not 4"),
        ([["A1", "C1", "D1", "E1", "F1"], *FLEET[1:]], "not a straight unbroken line"),
        ([["A1", "A1", "A2", "A3", "A4"], *FLEET[1:]], "distinct cells, got A1,A1,A2,A3,A4"),
        ([*FLEET[:4], ["K1", "K2"]], "Destroyer: K1 is off the 10×10 board"),
        ([*FLEET[:4], ["J10", "J11"]], "J11 is off the 10×10 board"),
        ([*FLEET[:4], ["1A", "2A"]], "is not a cell name"),
    ],
)
def test_bad_fleets_get_the_engine_message(client, fleet, message):
    response = client.post(f"{API}/games", json={"level": "easy", "fleet": fleet})
    assert response.status_code == 400
    assert message in response.json()["detail"]


def test_russian_rules_forbid_touching_ships(client):
    touching = [["A1", "B1", "C1", "D1"], ["A2", "B2", "C2"], *RUSSIAN_FLEET[2:]]
    response = client.post(
        f"{API}/games", json={"rules": "russian", "level": "hard", "fleet": touching}
    )
    assert response.status_code == 400
    assert response.json()["detail"] == "Battleship and Cruiser 1 touch at A2"
    game = new_game(client, level="hard", fleet=RUSSIAN_FLEET, rules="russian")
    assert game["touching"] is False and game["own"]["ships"] == 10


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"level": "easy", "fleet": "A1-A5"}, "fleet"),
        ({"level": "easy", "fleet": [[1, 2, 3, 4, 5]]}, "fleet.0.0"),
        ({"level": "easy", "fleet": [["A1"]] * 11}, "fleet"),
        ({"level": "easy", "fleet": [["A1"] * 11]}, "fleet.0"),
        ({"level": "easy", "fleet": [["A1" * 1000]]}, "fleet.0.0"),
        ({"level": "easy", "fleet": []}, "fleet"),
        ({"level": "easy", "fleet": [[]]}, "fleet.0"),
        ({"level": "impossible", "fleet": FLEET}, "level"),
        ({"level": "easy", "rules": "chess", "fleet": FLEET}, "rules"),
        ({"level": "easy", "fleet": FLEET, "seed": 1}, "seed"),
        ({"level": None, "fleet": FLEET}, "level"),
        ({}, "fleet"),
    ],
)
def test_malformed_new_game_requests_are_422_naming_the_field(client, body, field):
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(f"{field}: ")
    assert response.json()["params"]["problems"][0]["field"] == field


def test_not_json_is_422(client):
    response = client.post(
        f"{API}/games", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("the request body is not valid JSON")


# ---- ids -----------------------------------------------------------------------------


def test_unknown_and_foreign_ids(client):
    assert client.get(f"{API}/games/{'x' * 22}").status_code == 404
    other = client.app.state.store.create("mastermind", {"secret": [1, 2, 3, 4]})
    tour = client.app.state.store.create("tour", {"moves": []})
    for game_id in (other, tour):
        for response in (
            client.get(f"{API}/games/{game_id}"),
            fire(client, game_id, "A1"),
            client.get(f"{API}/games/{game_id}/heat"),
        ):
            assert response.status_code == 404
            assert "no battleship game" in response.json()["detail"]
    assert client.get(f"{API}/games/short").status_code == 422
    assert client.get(f"{API}/games/{'a' * 65}").status_code == 422
    assert client.get(f"{API}/games/bad$id$chars$$").status_code == 422


# ---- playing -------------------------------------------------------------------------


def test_each_shot_gets_an_answer_and_the_computer_replies(client):
    game = new_game(client, level="normal")
    hidden = computer_fleet(client, game["id"])
    ship_cells = {c for ship in hidden.ships for c in ship}
    water = next(c for c in range(100) if c not in ship_cells)
    target = min(ship_cells)
    mine = {CLASSIC.grid.index(c) for ship in FLEET for c in ship}
    replies = []
    for cell in (water, target):
        data = fire(client, game["id"], CLASSIC.grid.name(cell)).json()
        assert data["you"]["cell"] == CLASSIC.grid.name(cell)
        assert data["you"]["answer"] == ("miss" if cell == water else "hit")
        reply = data["computer"]
        index = CLASSIC.grid.index(reply["cell"])
        assert reply["answer"] in (("hit", "sunk") if index in mine else ("miss",))
        replies.append(reply["cell"])
        view = data["game"]
        assert view["enemy"]["marks"][cell] == data["you"]["answer"]
        assert view["own"]["marks"][index] == reply["answer"]
        assert view["enemy_fleet"] is None
    assert len(set(replies)) == 2
    assert view["turn"] == 2
    assert [s["cell"] for s in view["own"]["shots"]] == replies
    assert [s["answer"] for s in view["enemy"]["shots"]] == ["miss", "hit"]


def test_the_computer_choices_come_from_the_secret_seed(client):
    game = new_game(client, level="hard")
    for cell in ("A10", "B10", "C10", "D10"):
        fire(client, game["id"], cell)
    view = client.get(f"{API}/games/{game['id']}").json()
    seed = client.app.state.store.load("battleship", game["id"])["seed"]
    ocean = bs.Ocean(bs.Fleet.from_cells(CLASSIC, FLEET))
    rng = game_stream(seed, SHOOTER_STREAM)
    expected = []
    for _ in range(4):
        expected.append(ocean.fire(bs.get_shooter("hard").choose(ocean.observation, rng)))
    assert [s["cell"] for s in view["own"]["shots"]] == names(s.cell for s in expected)
    assert [s["answer"] for s in view["own"]["shots"]] == [s.answer for s in expected]
    assert expected[0].cell in {44, 45, 54, 55}  # E5, F5, E6, F6: the empty board's best


@pytest.mark.parametrize(("rules", "fleet"), [("classic", FLEET), ("russian", RUSSIAN_FLEET)])
def test_the_expert_level_replies_as_its_shooter(client, rules, fleet):
    game = new_game(client, level="expert", fleet=fleet, rules=rules)
    assert bs.get_shooter(game["shooter"]) == web_bs.EXPERT_SHOOTERS[rules]
    for cell in ("A10", "E10", "J10"):  # apart: none is known water once another sinks a boat
        assert fire(client, game["id"], cell).status_code == 200
    view = client.get(f"{API}/games/{game['id']}").json()
    seed = client.app.state.store.load("battleship", game["id"])["seed"]
    chosen = bs.Rules.named(rules)
    ocean = bs.Ocean(bs.Fleet.from_cells(chosen, fleet))
    rng = game_stream(seed, SHOOTER_STREAM)
    shooter = web_bs.EXPERT_SHOOTERS[rules]
    expected = [ocean.fire(shooter.choose(ocean.observation, rng)) for _ in "abc"]
    assert [s["cell"] for s in view["own"]["shots"]] == [chosen.grid.name(s.cell) for s in expected]


def test_the_site_russian_expert_keeps_its_rollouts_within_a_shot_budget():
    shooter = web_bs.EXPERT_SHOOTERS["russian"]
    assert (shooter.fleets * shooter.rounds, shooter.budget) == (8000, 600_000)
    assert shooter.z > 1e6 and shooter.tolerance == 0  # no cell drops out: rounds of fleets


def test_russian_expert_games_stored_as_expert_keep_their_budget(client):
    game = new_game(client, level="expert", fleet=RUSSIAN_FLEET, rules="russian")
    assert game["shooter"].startswith("expert(fleets=2000, rounds=4,")
    store = client.app.state.store
    with store.update("battleship", game["id"]) as state:  # as stored before
        state["shooter"] = "expert"
    assert web_bs.game_shooter(store.load("battleship", game["id"])).budget == 600_000
    assert fire(client, game["id"], "A10").json()["game"]["shooter"] == game["shooter"]
    assert store.load("battleship", game["id"])["shooter"] == game["shooter"]
    with store.update("battleship", game["id"]) as state:  # as a game against the default
        state["shooter"], state["level"] = "expert", "hard"
    assert web_bs.game_shooter(store.load("battleship", game["id"])) == bs.ExpertShooter()


def test_russian_expert_games_stored_before_keep_playing_exact(client):
    game = new_game(client, level="expert", fleet=RUSSIAN_FLEET, rules="russian")
    store = client.app.state.store
    with store.update("battleship", game["id"]) as state:  # as stored before
        del state["shooter"]
    data = fire(client, game["id"], "A10").json()
    assert data["game"]["shooter"] == "exact"
    seed = store.load("battleship", game["id"])["seed"]
    ocean = bs.Ocean(bs.Fleet.from_cells(bs.Rules.russian(), RUSSIAN_FLEET))
    cell = bs.get_shooter("exact").choose(ocean.observation, game_stream(seed, SHOOTER_STREAM))
    assert data["computer"]["cell"] == bs.Rules.russian().grid.name(cell)
    assert store.load("battleship", game["id"])["shooter"] == "exact"
    assert fire(client, game["id"], "E10").json()["game"]["shooter"] == "exact"  # (not water)


def test_classic_expert_games_stored_before_decide_again_as_they_were_played(client):
    game = new_game(client, level="expert")
    store = client.app.state.store
    with store.update("battleship", game["id"]) as state:  # as stored before
        for key in ("shooter", "replies", "shooter_rng"):
            state.pop(key, None)
    assert web_bs.game_shooter(store.load("battleship", game["id"])).endgame_ships == 0
    data = fire(client, game["id"], "A10").json()
    # It goes on with the shooter that played it, now stored by its name.
    earlier = bs.ExpertShooter(endgame_ships=0)
    assert data["game"]["shooter"] == "expert(endgame_ships=0)" == earlier.name
    assert "replies" in store.load("battleship", game["id"])
    assert web_bs.game_shooter(store.load("battleship", game["id"])) == earlier


def test_a_request_replays_the_kept_replies_without_deciding_again(client, monkeypatch):
    game = new_game(client, level="expert")
    for cell in ("A10", "B10", "C10"):
        fire(client, game["id"], cell)
    state = client.app.state.store.load("battleship", game["id"])
    before = client.get(f"{API}/games/{game['id']}").json()
    assert state["replies"] == [s["cell"] for s in before["own"]["shots"]]

    def refuse(self, observation, rng):
        raise AssertionError("a kept reply was decided again")

    monkeypatch.setattr(bs.ExpertShooter, "choose", refuse)
    assert client.get(f"{API}/games/{game['id']}").json() == before


def test_games_stored_without_replies_decide_them_again_alike(client):
    kept, old = new_game(client, level="hard"), new_game(client, level="hard")
    store = client.app.state.store
    with store.update("battleship", old["id"]) as state:
        state["seed"] = store.load("battleship", kept["id"])["seed"]
    for cell in ("A10", "B10", "C10"):
        fire(client, kept["id"], cell)
        fire(client, old["id"], cell)
        with store.update("battleship", old["id"]) as state:  # as stored before replies
            del state["replies"], state["shooter_rng"]
    views = [fire(client, game["id"], "D10").json()["game"] for game in (kept, old)]
    assert views[0]["own"] == views[1]["own"] and len(views[0]["own"]["shots"]) == 4
    assert store.load("battleship", old["id"])["replies"] == [
        s["cell"] for s in views[1]["own"]["shots"]
    ]


def test_a_shot_is_read_like_a_player_writes_it(client):
    game = new_game(client)
    for written, cell in ((" a1 ", "A1"), ("B07", "B7")):
        response = fire(client, game["id"], written)
        assert response.status_code == 200, response.text
        assert response.json()["game"]["enemy"]["shots"][-1]["cell"] == cell


@pytest.mark.parametrize(
    ("cell", "status", "message"),
    [
        ("K1", 400, "K1 is off the 10×10 board"),
        ("A11", 400, "A11 is off the 10×10 board"),
        ("A0", 400, "A0 is off the 10×10 board"),
        ("5E", 400, "is not a cell name"),
        ("??", 400, "is not a cell name"),
        ("A", 422, "cell"),
        ("A1000", 400, "A1000 is off the 10×10 board"),
        ("A000000001", 422, "cell"),
        (5, 422, "cell"),
        (None, 422, "cell"),
        (["A1"], 422, "cell"),
    ],
)
def test_bad_shots(client, cell, status, message):
    game = new_game(client)
    response = fire(client, game["id"], cell)
    assert response.status_code == status
    assert message in response.json()["detail"]
    assert client.get(f"{API}/games/{game['id']}").json()["turn"] == 0


def test_a_cell_fired_at_twice_is_400_and_changes_nothing(client):
    game = new_game(client)
    first = fire(client, game["id"], "e5").json()
    assert first["you"]["cell"] == "E5"
    again = fire(client, game["id"], "E5")
    assert again.status_code == 400
    assert again.json()["detail"] == "E5 has already been shot"
    assert client.get(f"{API}/games/{game['id']}").json() == first["game"]


def test_shot_body_with_extra_fields_is_422(client):
    game = new_game(client)
    response = client.post(f"{API}/games/{game['id']}/shots", json={"cell": "A1", "as": "cpu"})
    assert response.status_code == 422
    assert response.json()["detail"] == "as: Extra inputs are not permitted"


def test_winning_reveals_the_fleet_and_ends_the_game(client):
    game = new_game(client, level="easy")
    hidden = computer_fleet(client, game["id"])
    cells = [c for ship in hidden.ships for c in ship]
    for n, cell in enumerate(cells, 1):
        data = fire(client, game["id"], CLASSIC.grid.name(cell)).json()
        if n < len(cells):
            assert data["game"]["enemy_fleet"] is None and not data["game"]["over"]
            assert data["computer"] is not None
    assert data["you"]["answer"] == "sunk" and data["computer"] is None
    view = data["game"]
    assert view["over"] and view["winner"] == "you" and view["turn"] == 17
    assert [s["cells"] for s in view["enemy_fleet"]] == [names(s) for s in hidden.ships]
    assert [s["name"] for s in view["enemy_fleet"]] == [s.name for s in CLASSIC.fleet]
    assert view["enemy"]["afloat"] == 0 and view["enemy"]["marks"].count("sunk") == 17
    assert len(view["own"]["shots"]) == 16
    late = fire(client, game["id"], "A1" if 0 not in cells else "J1")
    assert late.status_code == 409
    assert late.json()["detail"] == "the game is over: you won"
    assert client.get(f"{API}/games/{game['id']}").json() == view


def test_losing_to_hard_reveals_the_fleet(client):
    game = new_game(client, level="hard")
    hidden = computer_fleet(client, game["id"])
    ship_cells = {c for ship in hidden.ships for c in ship}
    # Fire at water first, then at all but one ship cell: the computer wins first.
    order = [c for c in range(100) if c not in ship_cells] + sorted(ship_cells)[:-1]
    for cell in order:
        data = fire(client, game["id"], CLASSIC.grid.name(cell)).json()
        if data["game"]["over"]:
            break
    view = data["game"]
    assert view["winner"] == "computer" and view["own"]["afloat"] == 0
    assert view["own"]["marks"].count("sunk") == 17
    assert view["enemy_fleet"] is not None and view["enemy"]["afloat"] > 0
    assert len(view["own"]["shots"]) == view["turn"]
    late = fire(client, game["id"], "J10")
    assert late.status_code == 409
    assert late.json()["detail"] == "the game is over: the computer won"


def test_sunk_ships_under_no_touch_show_the_water_around(client):
    game = new_game(client, level="easy", fleet=RUSSIAN_FLEET, rules="russian")
    hidden = computer_fleet(client, game["id"])
    boat = hidden.ships[-1]  # a 1-cell boat
    data = fire(client, game["id"], CLASSIC.grid.name(boat[0])).json()
    assert data["you"]["answer"] == "sunk"
    assert data["you"]["ship"] == "Boat 4" and data["you"]["cells"] == names(boat)
    marks = data["game"]["enemy"]["marks"]
    around = CLASSIC.grid.surroundings(boat[0])
    assert all(marks[c] == "water" for c in around)
    assert marks.count("water") == len(around)
    assert data["game"]["enemy"]["sunk"] == [{"name": "Boat 4", "length": 1, "cells": names(boat)}]
    # Known water is refused as the page refuses it: no turn spent, no computer reply.
    water = CLASSIC.grid.name(around[0])
    near = fire(client, game["id"], water)
    assert near.status_code == 400, near.text
    assert near.json() == {
        "detail": f"{water} touches the sunk ship {names(boat)[0]}, so it is water: fire elsewhere",
        "code": "battleship.known_water",
        "params": {"cell": water, "ship": names(boat)[0]},
    }
    assert client.get(f"{API}/games/{game['id']}").json() == data["game"]


def test_games_stored_with_a_shot_at_known_water_still_load(client):
    game = new_game(client, level="normal", fleet=RUSSIAN_FLEET, rules="russian")
    boat = computer_fleet(client, game["id"]).ships[-1]
    fire(client, game["id"], CLASSIC.grid.name(boat[0]))
    water = CLASSIC.grid.surroundings(boat[0])[0]
    store = client.app.state.store
    with store.update("battleship", game["id"]) as state:  # as the API let it be before
        state["shots"].append(CLASSIC.grid.name(water))
        del state["replies"], state["shooter_rng"]
    view = client.get(f"{API}/games/{game['id']}").json()
    assert view["turn"] == 2 and len(view["own"]["shots"]) == 2
    assert view["enemy"]["marks"][water] == "miss"
    far = next(
        c for c in range(100) if c not in {boat[0], water, *CLASSIC.grid.surroundings(boat[0])}
    )
    after = fire(client, game["id"], CLASSIC.grid.name(far))
    assert after.status_code == 200, after.text
    assert len(store.load("battleship", game["id"])["replies"]) == 3  # the water shot's too
    assert client.get(f"{API}/games/{game['id']}").json() == after.json()["game"]


# ---- heat map ------------------------------------------------------------------------


def test_heat_map_is_the_hard_computers_density(client):
    game = new_game(client, level="hard")
    heat = client.get(f"{API}/games/{game['id']}/heat").json()
    assert heat["w"] == 35
    assert heat["best"] == ["E5", "F5", "E6", "F6"] and heat["best_d"] == "34"
    assert heat["d"][0] == "10" and all(isinstance(d, str) for d in heat["d"])
    assert heat["heat"][44] == 1.0 and heat["heat"][0] == round(10 / 34, 4)
    assert all(0 <= h <= 1 for h in heat["heat"])
    data = fire(client, game["id"], "J1").json()
    reply = data["computer"]["cell"]
    assert reply in ("E5", "F5", "E6", "F6")
    after = client.get(f"{API}/games/{game['id']}/heat").json()
    index = CLASSIC.grid.index(reply)
    assert after["d"][index] == "0" and after["heat"][index] == 0
    expected = bs.density(
        bs.Observation.from_marks(
            CLASSIC,
            miss=[reply] if data["computer"]["answer"] == "miss" else [],
            hit=[reply] if data["computer"]["answer"] == "hit" else [],
        )
    )
    assert after["d"] == [str(int(x)) for x in expected.d]
    assert after["best"] == expected.best_names


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_heat_map_is_refused_below_hard(client, level):
    game = new_game(client, level=level)
    response = client.get(f"{API}/games/{game['id']}/heat")
    assert response.status_code == 409
    assert "Hard" in response.json()["detail"]


# ---- persistence ---------------------------------------------------------------------


def test_a_game_survives_a_restart(tmp_path):
    db = tmp_path / "site.sqlite3"
    with TestClient(create_app(db, warm=False)) as first:
        game = new_game(first, level="hard")
        for cell in ("A10", "B10", "C10"):
            fire(first, game["id"], cell)
        before = first.get(f"{API}/games/{game['id']}").json()
        heat_before = first.get(f"{API}/games/{game['id']}/heat").json()
    with TestClient(create_app(db, warm=False)) as second:
        after = second.get(f"{API}/games/{game['id']}").json()
        assert after == before
        assert second.get(f"{API}/games/{game['id']}/heat").json() == heat_before
        data = fire(second, game["id"], "D10").json()
        assert data["game"]["turn"] == 4
        assert data["game"]["own"]["shots"][:3] == before["own"]["shots"]
    with TestClient(create_app(db, warm=False)) as third:
        assert third.get(f"{API}/games/{game['id']}").json() == data["game"]


# ---- replay --------------------------------------------------------------------------


def test_replay_matches_the_engine(client):
    data = client.get(f"{API}/replay", params={"game": 743, "strategy": "parity"}).json()
    record = bs.play_game(CLASSIC, "parity", 743)
    assert data["game"] == 743 and data["strategy"] == "parity" and data["preset"] == "classic"
    assert data["shots_fired"] == record.shots_fired == len(data["shots"])
    assert [s["cell"] for s in data["shots"]] == names(s.cell for s in record.shots)
    assert [s["mode"] for s in data["shots"]] == [s.mode for s in record.shots]
    assert data["fleet"]["Carrier"] == names(record.fleet.ships[0])
    assert len(data["frames"]) == record.shots_fired + 1
    assert data["frames"] == [list(f) for f in record.frames()]
    assert "pattern" not in {m for frame in data["frames"] for m in frame}
    assert data["frames"][-1].count("sunk") == 17


def test_replay_with_the_pattern_and_aliases(client):
    params = {"game": 743, "strategy": "normal", "pattern": "true"}
    data = client.get(f"{API}/replay", params=params).json()
    assert data["strategy"] == "parity" and data["pattern"] is True
    assert data["frames"][0].count("pattern") == 50
    hard = client.get(f"{API}/replay", params={"game": 7, "strategy": "hard"}).json()
    assert hard["shots_fired"] == bs.play_game(CLASSIC, "density", 7).shots_fired
    russian = client.get(f"{API}/replay", params={"game": 3, "rules": "russian"}).json()
    assert russian["preset"] == "russian" and russian["frames"][-1].count("sunk") == 20


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"game": 0},
        {"game": -5},
        {"game": 10**9 + 1},
        {"game": 10**30},
        {"game": "abc"},
        {"game": 1.5},
        {"game": 1, "strategy": "cheat"},
        {"game": 1, "rules": "chess"},
        {"game": 1, "pattern": "maybe"},
    ],
)
def test_replay_bounds(client, params):
    response = client.get(f"{API}/replay", params=params)
    assert response.status_code == 422
    assert response.json()["detail"]


def test_replay_of_the_expert_is_the_expert_levels_game_kept_once_played(client, monkeypatch):
    from hamle.web import battleship
    from hamle.web.slots import HEAVY

    battleship._expert_games.clear()
    data = client.get(f"{API}/replay", params={"game": 10, "strategy": "Expert"}).json()
    record = bs.play_game(CLASSIC, battleship.EXPERT_SHOOTERS["classic"], 10)
    assert data["strategy"] == "expert" and data["shots_fired"] == record.shots_fired
    assert [s["cell"] for s in data["shots"]] == names(s.cell for s in record.shots)
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:  # the game played is kept: answered while the heavy slots are busy
        again = client.get(f"{API}/replay", params={"game": 10, "strategy": "expert"})
        assert again.status_code == 200 and again.json() == data
        other = client.get(f"{API}/replay", params={"game": 11, "strategy": "expert"})
        assert other.status_code == 409 and other.json()["code"] == "battleship.busy"
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()
    monkeypatch.setattr(battleship._expert_games, "size", 1)
    client.get(f"{API}/replay", params={"game": 11, "strategy": "expert"})
    assert list(battleship._expert_games) == [("classic", 11)]


def test_replay_of_the_largest_game_number(client):
    data = client.get(f"{API}/replay", params={"game": 10**9, "strategy": "random"}).json()
    assert data["game"] == 10**9 and data["frames"][-1].count("sunk") == 17


# ---- statistics ----------------------------------------------------------------------


def wait_ready(client, params, deadline=60):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        progress = client.get(f"{API}/stats/progress", params=params).json()
        if progress["state"] != "running":
            return progress
        time.sleep(0.05)
    raise AssertionError("the statistics job did not finish")


def test_statistics_are_computed_in_the_background_and_cached(client):
    params = {"rules": "classic", "games": 10}
    missing = client.get(f"{API}/stats", params=params).json()
    assert missing["state"] == "missing" and "not computed yet" in missing["detail"]
    assert missing["total"] == 240 and missing["done"] == 0  # 4 × 10 games, then 4 × 5 × 10
    started = client.post(f"{API}/stats", json=params)
    assert started.status_code == 202
    assert started.json()["state"] in ("running", "ready") and started.json()["total"] == 240
    progress = wait_ready(client, params)
    assert progress == {**progress, "state": "ready", "done": 240, "total": 240}
    data = client.get(f"{API}/stats", params=params).json()
    assert data["state"] == "ready" and data["games"] == 10 and data["cells"] == 100
    table = bs.simulate(CLASSIC, list(web_bs.SITE_SHOOTERS), games=10).as_dict()
    assert data["table"] == json.loads(json.dumps(table))
    assert list(data["curves"]) == ["random", "hunt-target", "parity", "density"]
    for name, curve in data["curves"].items():
        shots = [bs.play_game(CLASSIC, name, g).shots_fired for g in range(1, 11)]
        assert len(curve) == 101 and curve[-1] == 1.0 and curve[16] == 0.0
        assert curve == sorted(curve)
        assert curve[50] == sum(s <= 50 for s in shots) / 10
    law = bs.RandomLaw(100, 17)
    assert data["exact"][17] == round(float(law.cdf(17)), 6) and data["exact"][100] == 1.0
    assert data["exact"][85] == round(float(law.cdf(85)), 6)
    key = web_bs.stats_key("classic", 10)
    assert client.app.state.store.cached(key)["table"] == data["table"]
    again = client.post(f"{API}/stats", json=params)
    assert again.status_code == 200 and again.json()["state"] == "ready"
    other = client.get(f"{API}/stats", params={"rules": "classic", "games": 20}).json()
    assert other["state"] == "missing"
    # Both answers are the documented model's (it was an untyped object): the progress's
    # fields before, the table's after.
    schema = client.get("/openapi.json").json()
    route = schema["paths"][f"{API}/stats"]["get"]["responses"]["200"]["content"]
    assert route["application/json"]["schema"]["$ref"].endswith("/StatsOut")
    fields = set(schema["components"]["schemas"]["StatsOut"]["properties"])
    assert set(missing) == set(web_bs.Progress.model_fields)
    ready = {"rules", "games", "state", "cells", "ship_cells", "table", "curves", "exact"}
    assert set(data) == ready | {"tournament"} and set(data) | set(missing) == fields


def test_statistics_survive_a_restart(tmp_path):
    db = tmp_path / "site.sqlite3"
    params = {"rules": "russian", "games": 10}
    with TestClient(create_app(db, warm=False)) as first:
        first.post(f"{API}/stats", json=params)
        assert wait_ready(first, params)["state"] == "ready"
        table = first.get(f"{API}/stats", params=params).json()
    with TestClient(create_app(db, warm=False)) as second:
        assert second.get(f"{API}/stats", params=params).json() == table
        assert second.get(f"{API}/stats/progress", params=params).json()["state"] == "ready"
    assert table["table"]["rules"] == bs.Rules.russian().describe()


@pytest.fixture
def held_jobs(monkeypatch):
    """Statistics jobs that wait for a release, so the test sees them running."""
    release = threading.Event()
    calls = []

    def slow(rules, games, progress):
        calls.append((rules, games))
        progress(3, 4 * games)
        assert release.wait(30)
        return {"rules": rules, "games": games, "table": {}, "curves": {}, "exact": []}

    monkeypatch.setattr(web_bs, "compute_stats", slow)
    yield release, calls
    release.set()


def test_a_second_request_joins_the_running_job(client, held_jobs):
    release, calls = held_jobs
    params = {"rules": "classic", "games": 30}
    first = client.post(f"{API}/stats", json=params).json()
    second = client.post(f"{API}/stats", json=params).json()
    assert first["state"] == second["state"] == "running"
    progress = client.get(f"{API}/stats/progress", params=params).json()
    assert progress["state"] == "running" and progress["total"] == 4 * 30 + 4 * 5 * 30
    assert client.get(f"{API}/stats", params=params).json()["state"] == "running"
    assert calls == [("classic", 30)]
    release.set()
    assert wait_ready(client, params)["state"] == "ready"
    assert calls == [("classic", 30)]
    again = client.post(f"{API}/stats", json=params).json()  # ready: not computed again
    assert again["state"] == "ready" and calls == [("classic", 30)]
    for games in (True, "30", 30.0):
        response = client.post(f"{API}/stats", json={**params, "games": games})
        assert response.status_code == 422 and response.json()["detail"].startswith("games: ")


def test_too_many_jobs_at_once_are_refused_and_one_client_runs_one(client, held_jobs):
    release, calls = held_jobs
    assert client.post(f"{API}/stats", json={"games": 40}).json()["state"] == "running"
    mine = client.post(f"{API}/stats", json={"games": 45})
    assert mine.status_code == 409 and mine.json()["code"] == "battleship.stats_yours_busy"
    assert client.post(f"{API}/stats", json={"games": 40}).status_code == 202  # joins its job
    with (
        TestClient(client.app, client=("198.51.100.7", 1)) as second,
        TestClient(client.app, client=("203.0.113.9", 1)) as third,
    ):
        assert second.post(f"{API}/stats", json={"games": 50}).json()["state"] == "running"
        refused = third.post(f"{API}/stats", json={"games": 60})
        assert refused.status_code == 409 and refused.json()["code"] == "battleship.stats_busy"
        assert "try again" in refused.json()["detail"]
        release.set()
        for games in (40, 50):
            assert wait_ready(client, {"games": games})["state"] == "ready"
        assert third.post(f"{API}/stats", json={"games": 60}).status_code == 202
    assert wait_ready(client, {"games": 60})["state"] == "ready"
    assert [games for _, games in calls] == [40, 50, 60]


def test_a_failed_job_reports_its_error(client, monkeypatch):
    def broken(rules, games, progress):
        raise RuntimeError("out of ink")

    monkeypatch.setattr(web_bs, "compute_stats", broken)
    client.post(f"{API}/stats", json={"games": 70})
    progress = wait_ready(client, {"games": 70})
    assert progress["state"] == "failed" and "out of ink" in progress["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"games": 9}, "games"),
        ({"games": 2001}, "games"),
        ({"games": 10**12}, "games"),
        ({"games": "many"}, "games"),
        ({"games": 100.5}, "games"),
        ({"games": 100, "rules": "chess"}, "rules"),
        ({"games": 100, "first": 5}, "first"),
        ({"games": None}, "games"),
    ],
)
def test_statistics_bounds(client, body, field):
    response = client.post(f"{API}/stats", json=body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(f"{field}: ")
    query = {k: v for k, v in body.items() if v is not None}
    if query and "first" not in query:  # the same bounds hold for the query parameters
        for path in ("stats", "stats/progress"):
            response = client.get(f"{API}/{path}", params=query)
            assert response.status_code == 422
            assert response.json()["detail"].startswith(f"{field}: ")


def test_hard_hides_its_fleet_with_the_strong_placer_and_old_games_stay_uniform(client):
    store = client.app.state.store
    rules = bs.Rules.classic()
    for forget in (False, True):  # a game stored before placers existed has none
        game = new_game(client, level="hard")
        with store.update("battleship", game["id"]) as state:
            assert state["placer"] == "anti-density"
            if forget:
                del state["placer"]
        placer = bs.get_placer("uniform" if forget else "anti-density")
        fleet = placer.place(rules, game_stream(state["seed"], FLEET_STREAM))
        answers = [
            fire(client, game["id"], rules.grid.name(cell)).json()["you"]["answer"]
            for ship in fleet.ships
            for cell in ship
        ]
        assert set(answers) <= {"hit", "sunk"} and answers[-1] == "sunk"


def test_names_are_taken_in_any_case(client):
    game = new_game(client, level=" Hard", rules="CLASSIC ")  # spaces around, as in the CLI
    assert (game["level"], game["rules"]) == ("hard", "classic")
    assert client.get(f"{API}/fleet", params={"rules": "Russian"}).status_code == 200
    density = client.post(f"{API}/density", json={"rules": "Russian", "hit": ["E5"]})
    assert density.status_code == 200 and density.json()["rules"] == "russian"
    turkish = new_game(client, "EXPERT", RUSSIAN_FLEET, "RUSSİAN")  # a Turkish keyboard's İ
    assert (turkish["level"], turkish["rules"]) == ("expert", "russian")
    refused = client.get(f"{API}/fleet", params={"rules": "Chess"})
    assert refused.status_code == 422 and "'classic' or 'russian'" in refused.json()["detail"]


def test_expert_moves_wait_their_turn_one_a_client(tmp_path, monkeypatch):
    # One client's Expert moves run one at a time, one more waiting and a third refused;
    # all Expert moves at most two at once; other levels never wait.
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import httpx2 as httpx

    from hamle.web.slots import Turns

    app = create_app(tmp_path / "hamle.sqlite3", warm=False, games_per_minute=0)
    turns = Turns(2)
    monkeypatch.setattr(web_bs, "EXPERT_MOVES", turns)
    real, running, snapshots = web_bs._fire, set(), []

    def slow(store, game_id, body):
        running.add(game_id)
        snapshots.append(frozenset(running))
        time.sleep(0.1)  # (moves that overlap, if they may)
        try:
            return real(store, game_id, body)
        finally:
            running.discard(game_id)

    monkeypatch.setattr(web_bs, "_fire", slow)

    async def play():
        def client(address):
            transport = httpx.ASGITransport(app=app, client=(address, 1000))
            return httpx.AsyncClient(transport=transport, base_url="http://test")

        async with client("203.0.113.1") as one, client("198.51.100.2") as two:
            games = []
            for player, level in [(one, "expert")] * 3 + [(two, "expert"), (two, "easy")]:
                body = {"rules": "classic", "level": level, "fleet": FLEET}
                games.append((player, (await player.post(f"{API}/games", json=body)).json()))
            shots = [p.post(f"{API}/games/{g['id']}/shots", json={"cell": "E5"}) for p, g in games]
            answers = await asyncio.gather(*shots)
            kept = [dict(clients) for _, clients in turns._loops.values()]
            return answers, [g["id"] for _, g in games], kept

    with ThreadPoolExecutor(1) as thread:  # (an event loop of its own: a test before may
        answers, ids, kept = thread.submit(asyncio.run, play()).result()  # leave one running)
    assert sorted(a.status_code for a in answers[:3]) == [200, 200, 409]  # (one client's third)
    assert [a.status_code for a in answers[3:]] == [200, 200]
    refused = next(a for a in answers if a.status_code == 409).json()
    assert refused["code"] == "battleship.yours_busy"
    ones, experts = set(ids[:3]), set(ids[:4])
    assert all(len(now & ones) <= 1 for now in snapshots)  # one client: one at a time
    assert all(len(now & experts) <= 2 for now in snapshots)
    assert any(len(now & experts) == 2 for now in snapshots)  # two clients: at once
    assert any(ids[4] in now and len(now & experts) == 2 for now in snapshots)  # (no wait)
    assert kept == [{}]  # (no client's lock is kept once its turns are over)
