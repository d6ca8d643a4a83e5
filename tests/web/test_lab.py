"""The density lab API: seed 000's numbers, sunk ships and water, contradictions with
the engine's text, and hostile input (always 4xx JSON, never 500)."""

import importlib
import threading

import numpy as np
import pytest

import hamle.battleship as bs
from hamle.web.slots import HEAVY

URL = "/api/battleship/density"


def density(client, **marks):
    response = client.post(URL, json=marks)
    assert response.status_code == 200, response.text
    return response.json()


def refused(client, body, status=400):
    response = client.post(URL, json=body)
    assert response.status_code == status, response.text
    return response.json()["detail"]


def test_one_hit_at_e5_gives_the_seeds_numbers(client):
    report = density(client, hit=["E5"])
    assert report["best"] == ["F5", "E6"]
    assert report["best_d"] == "442"
    assert report["density"]["F5"] == report["density"]["E6"] == "442"
    assert report["density"]["E4"] == report["density"]["D5"] == "441"
    assert report["w"] == 35
    assert "E5" not in report["density"] and len(report["density"]) == 99
    assert report["heat"]["F5"] == 1.0
    assert report["heat"]["E4"] == round(441 / 442, 4)
    assert report["afloat"] == [5, 4, 3, 3, 2]
    assert report["water"] == []


def test_empty_board_peaks_in_the_middle(client):
    report = density(client)
    assert report["best"] == ["E5", "F5", "E6", "F6"]
    assert report["best_d"] == "34"
    assert report["density"]["A1"] == "10"
    assert report["heat"]["A1"] == round(10 / 34, 4)
    assert list(report["density"])[:3] == ["A1", "B1", "C1"]  # row-major, not by value
    assert all(isinstance(d, str) for d in report["density"].values())
    assert (report["rules"], report["rows"], report["cols"]) == ("classic", 10, 10)


def test_two_hits_in_line_move_the_peak_to_both_ends(client):
    report = density(client, hit=["E5", "F5"], miss=["A1"])
    assert report["best"] == ["D5", "G5"]
    assert report["best_d"] == str(7 * 35**2 + 5 * 35 + 21)


def test_sunk_ship_leaves_the_fleet_and_its_cells_the_map(client):
    report = density(client, sunk=[["A1", "A2"]])
    assert report["afloat"] == [5, 4, 3, 3]
    assert report["w"] == 1 + 2 * 15
    assert "A1" not in report["density"] and "A2" not in report["density"]
    assert report["water"] == []  # classic ships may touch


def test_russian_sunk_ship_makes_its_surroundings_water(client):
    report = density(client, rules="russian", sunk=[["A1", "A2"]], hit=["E5"])
    assert report["water"] == ["B1", "B2", "A3", "B3"]
    assert report["afloat"] == [4, 3, 3, 2, 2, 1, 1, 1, 1]
    assert report["w"] == 1 + 2 * 18
    assert not set(report["water"]) & set(report["density"])
    assert len(report["density"]) == 100 - 2 - 4 - 1


def test_afloat_chosen_by_hand(client):
    alone = density(client, afloat=[5])
    assert alone["w"] == 11 and alone["afloat"] == [5]
    assert alone["density"]["A1"] == "2"
    nothing = density(client, afloat=[])
    assert nothing["best"] == [] and nothing["best_d"] == "0"
    assert set(nothing["heat"].values()) == {0.0}


def test_lab_rules_list_the_fleets(client):
    response = client.get("/api/battleship/lab/rules")
    assert response.status_code == 200
    rules = {preset["name"]: preset for preset in response.json()}
    assert [ship["length"] for ship in rules["classic"]["fleet"]] == [5, 4, 3, 3, 2]
    assert rules["classic"]["fleet"][0]["name"] == "Carrier"
    assert rules["russian"]["touching"] is False
    assert len(rules["russian"]["fleet"]) == 10


@pytest.mark.parametrize(
    ("marks", "text"),
    [
        ({"miss": ["A1"], "hit": ["A1"]}, "A1 is marked twice (miss and hit)"),
        ({"sunk": [["A1", "A2"], ["A2", "A3"]]}, "two sunk ships overlap at A2"),
        ({"sunk": [["A1"]]}, "sunk ship A1 has length 1; no ship in the fleet has it"),
        ({"sunk": [["A1", "C1"]]}, "A1,C1 is not a straight unbroken line of cells"),
        (
            {"sunk": [["A1", "A2"], ["C1", "C2"]]},
            "too many sunk ships of length 2 (at C1): the fleet has 1",
        ),
        ({"hit": ["E5"], "afloat": []}, "hit at E5, but no ship is afloat to explain it"),
        ({"afloat": [6]}, "an afloat ship of length 6 is not in the fleet"),
        (
            {"sunk": [["A1", "A2"]], "afloat": [5, 4, 3, 3, 2]},
            "an afloat ship of length 2 is not in the fleet",
        ),
        (
            {"miss": ["A2", "B1", "B3", "C2"], "hit": ["B2"], "afloat": [5]},
            "no afloat ship can explain the hit at B2",
        ),
        (
            {"rules": "russian", "sunk": [["A1", "A2"]], "hit": ["B3"]},
            "B3 (hit) touches the sunk ship A1–A2, but ships may not touch",
        ),
        ({"miss": ["K1"]}, "K1 is off the 10×10 board"),
        ({"hit": ["A11"]}, "A11 is off the 10×10 board"),
        ({"miss": [""]}, "is not a cell name"),
        ({"miss": ["5E"]}, "is not a cell name"),
        (
            {"hit": ["A1", "C3", "E5", "G7", "I9", "A10"]},
            "the open hits A1, C3, E5, G7, I9, A10 need at least 6 ships, but 5 are afloat",
        ),
        ({"hit": ["A1", "J10"], "afloat": [2]}, "need at least 2 ships, but 1 is afloat"),
        ({"rules": "russian", "hit": ["A1", "B2"]}, "the open hits A1 and B2 touch only at a"),
        ({"rules": "russian", "hit": ["A1", "B1", "C1", "D1", "E1"]}, "no layout of the afloat"),
    ],
)
def test_contradictory_marks_get_the_engine_text(client, marks, text):
    assert text in refused(client, marks)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"miss": "A1"}, "miss"),
        ({"miss": [1]}, "miss.0"),
        ({"hit": [None]}, "hit.0"),
        ({"sunk": ["A1"]}, "sunk.0"),
        ({"sunk": [[]]}, "sunk.0"),
        ({"afloat": ["3"]}, "afloat.0"),
        ({"afloat": [3.5]}, "afloat.0"),
        ({"afloat": [0]}, "afloat.0"),
        ({"afloat": [10**30]}, "afloat.0"),
        ({"rules": "martian"}, "rules"),
        ({"rules": {"rows": 1000}}, "rules"),
        ({"mines": ["A1"]}, "mines"),
        ({"miss": ["A1" * 1000]}, "miss.0"),
        ({"miss": [f"{'ABCDEFGHIJ'[i % 10]}{i // 10 + 1}" for i in range(10_000)]}, "miss"),
        ({"sunk": [["A1", "A2"]] * 11}, "sunk"),
        ({"sunk": [[f"A{i}" for i in range(1, 12)]]}, "sunk.0"),
        ({"afloat": [2] * 11}, "afloat"),
    ],
)
def test_hostile_input_is_a_readable_422(client, body, where):
    response = client.post(URL, json=body)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail.startswith(f"{where}:") or f"; {where}:" in detail, detail


def test_a_body_that_is_not_json_is_refused_with_json(client):
    headers = {"content-type": "application/json"}
    response = client.post(URL, content=b"\x00\xff not json", headers=headers)
    assert response.status_code in (400, 422)
    assert response.json()["detail"]
    assert client.post(URL, json=[1, 2, 3]).status_code == 422


def test_too_many_sunk_ships_within_the_size_bound(client):
    ships = [[f"{col}1", f"{col}2"] for col in "ACEGI"] + [["A4", "A5"]]
    assert "too many sunk ships of length 2" in refused(client, {"sunk": ships})


def test_a_full_board_of_marks_is_answered(client):
    cells = [f"{col}{row}" for row in range(1, 11) for col in "ABCDEFGHIJ"]
    report = density(client, miss=cells, afloat=[])
    assert report["density"] == {} and report["best"] == [] and report["water"] == []
    assert "no room left on the board" in refused(client, {"miss": cells})


EXACT = "/api/battleship/exact"


def test_exact_counts_of_the_russian_board_are_seed_003(client):
    response = client.post(EXACT, json={"rules": "russian", "miss": ["C1"]})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["total"] == "1379750734899553" and report["best"] == ["J8"]
    assert report["best_count"] == report["counts"]["J8"] and report["heat"]["J8"] == 1.0
    assert len(report["counts"]) == 99 and "C1" not in report["counts"]
    assert report["probability"]["J8"] == round(int(report["best_count"]) / 1379750734899553, 6)
    again = client.post(EXACT, json={"miss": ["C1"], "rules": "russian"}).json()
    assert again == report


def test_exact_counts_with_a_sunk_ship_and_its_water(client):
    body = {"rules": "russian", "sunk": [["A1", "A2", "A3", "A4"]], "hit": ["E5"]}
    report = client.post(EXACT, json=body).json()
    assert report["afloat"] == [3, 3, 2, 2, 2, 1, 1, 1, 1]
    assert report["water"] == ["B1", "B2", "B3", "B4", "A5", "B5"]
    assert set(report["best"]) <= {"D5", "F5", "E4", "E6"}


def test_exact_counts_under_classic_rules(client):
    body = {"rules": "classic", "hit": ["E5"], "miss": ["E4", "D5"]}
    report = client.post(EXACT, json=body).json()
    assert int(report["fleets"]) == 2 * int(report["total"])
    assert set(report["best"]) <= {"F5", "E6"}
    assert report["probability"][report["best"][0]] > 0.3


def test_exact_counts_when_open_hits_are_then_marked_sunk(client):
    # The lab's way to sink a ship: mark its cells as hits, see the counts, then mark it sunk.
    import importlib

    import hamle.battleship as bs

    exact_module = importlib.import_module("hamle.battleship.exact")
    hits = {"rules": "russian", "miss": ["E5", "C3"], "hit": ["D4"]}
    assert client.post(EXACT, json=hits).status_code == 200
    report = client.post(EXACT, json={"rules": "russian", "miss": ["E5", "C3"], "sunk": [["D4"]]})
    exact_module._MEMOS.clear()
    marks = bs.Observation.from_marks(bs.Rules.russian(), miss=["E5", "C3"], sunk=[["D4"]])
    assert report.json()["total"] == str(bs.exact(marks).total) == "58084525385974"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "classic", "hit": ["A1"], "miss": ["A2", "B1"], "afloat": [2]}, "hit at A1"),
        ({"rules": "russian", "hit": ["A1"], "miss": ["A2", "B1"], "afloat": [2]}, "hit at A1"),
        ({"rules": "russian", "hit": ["A1", "A2"], "miss": ["A3"], "afloat": [2]}, "no layout"),
    ],
)
def test_exact_refuses_what_it_cannot_count(client, body, message):
    response = client.post(EXACT, json=body)
    assert response.status_code == 400 and message in response.json()["detail"]


def test_exact_says_when_it_is_busy(client):
    from hamle.web import lab

    lab._exact_answers.clear()
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:
        response = client.post(EXACT, json={"rules": "russian", "miss": ["J10"]})
        assert response.status_code == 409 and "busy" in response.json()["detail"]
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()
    assert client.post(EXACT, json={"rules": "russian", "nope": 1}).status_code == 422


def test_density_counts_what_the_search_leaves_open_in_an_exact_slot(client, monkeypatch):
    density_module = importlib.import_module("hamle.battleship.density")  # (not the function)

    marks = {"rules": "russian", "miss": ["A1"], "hit": ["E5"]}
    plain = density(client, **marks)
    monkeypatch.setattr(density_module, "fits", lambda observation, budget: None)
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:
        busy = refused(client, marks, 409)
        assert "busy" in busy
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()
    assert density(client, **marks) == plain
    assert refused(client, {"rules": "russian", "hit": ["A1", "B1", "C1", "D1", "E1"]}) == (
        "no layout of the afloat ships fits these marks"
    )


def test_exact_answers_known_maps_and_bad_marks_while_busy(client):
    from hamle.web import lab

    lab._exact_answers.clear()
    known = {"rules": "russian", "miss": ["A1", "J10"], "hit": ["E5"]}
    first = client.post(EXACT, json=known)
    assert first.status_code == 200
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:
        for miss in (["J10", "A1"], [" j10", "a01 "]):  # the same board, written otherwise
            again = client.post(EXACT, json={**known, "miss": miss})
            assert again.status_code == 200 and again.json() == first.json()
        bad = client.post(EXACT, json={"rules": "classic", "miss": ["Z9"]})
        assert bad.status_code == 400 and "Z9" in bad.json()["detail"]
        new = client.post(EXACT, json={"rules": "russian", "miss": ["B2"], "hit": ["E5"]})
        assert new.status_code == 409
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()


def test_exact_keeps_only_the_latest_maps(client, monkeypatch):
    from hamle.web import lab

    lab._exact_answers.clear()
    monkeypatch.setattr(lab._exact_answers, "size", 2)
    boards = [{"rules": "russian", "miss": [cell], "hit": ["E5"]} for cell in ("A1", "A2", "A3")]
    for board in boards:
        assert client.post(EXACT, json=board).status_code == 200
    grid = bs.Rules.russian().grid
    kept = [key[-1] for key in lab._exact_answers]  # the marked cells of each map
    assert kept == [tuple(sorted(grid.index(c) for c in ("E5", m))) for m in ("A2", "A3")]


def test_open_hits_touching_at_a_corner_are_named_with_their_code(client):
    for url in (URL, EXACT):
        response = client.post(url, json={"rules": "russian", "hit": ["E5", "D6"]})
        assert response.status_code == 400
        assert response.json() == {
            "detail": "the open hits E5 and D6 touch only at a corner, but ships may not touch",
            "code": "battleship.hits_touch_corner",
            "params": {"cell": "E5", "other": "D6"},
        }
    assert density(client, hit=["E5", "D6"])["best"]  # where ships may touch, they may


def test_one_client_holds_no_more_than_one_exact_slot(client, monkeypatch):
    from fastapi.testclient import TestClient

    from hamle.web import lab

    lab._exact_answers.clear()
    started, finish = threading.Event(), threading.Event()
    count = lab._exact

    def held(*args):  # the first board is counted until the test lets it finish
        started.set()
        finish.wait(30)
        return count(*args)

    monkeypatch.setattr(lab, "_exact", held)
    first = threading.Thread(
        target=client.post, args=(EXACT,), kwargs={"json": {"rules": "russian"}}
    )
    first.start()
    try:
        assert started.wait(30)
        mine = client.post(EXACT, json={"rules": "russian", "miss": ["A1"]})
        assert mine.status_code == 409
        assert mine.json()["code"] == "battleship.yours_busy"
        with TestClient(client.app, client=("198.51.100.7", 1)) as other:  # another client
            monkeypatch.setattr(lab, "_exact", count)
            assert other.post(EXACT, json={"rules": "russian", "miss": ["A1"]}).status_code == 200
    finally:
        finish.set()
        first.join(30)
    assert client.post(EXACT, json={"rules": "russian", "miss": ["B2"]}).status_code == 200


HINT = "/api/battleship/hint"
OPENING = ["C5", "D4", "E3", "H6", "G7", "F8", "I5", "F2", "E9", "B6", "C7", "D8", "H4", "J8"]


def test_the_hint_is_the_expert_levels_decision_and_the_same_for_the_same_marks(client):
    from hamle.web.battleship import EXPERT_SHOOTERS

    marks = {"miss": [*OPENING, "A7", "G3", "A1"]}
    answer = client.post(HINT, json=marks).json()
    assert client.post(HINT, json={"rules": "classic", **marks}).json() == answer
    observation = bs.Observation.from_marks(bs.Rules.classic(), miss=marks["miss"])
    decision = bs.hint(observation, EXPERT_SHOOTERS["classic"])
    assert answer["cell"] == observation.grid.name(decision.cell) and answer["how"] == "rollouts"
    weighed = answer["weighed"]
    assert weighed[0]["cell"] == answer["cell"] and len(weighed) == 3
    assert weighed[0]["behind"] == 0 and all(w["fleets"] == 6000 for w in weighed)
    assert [w["behind"] for w in weighed] == sorted(w["behind"] for w in weighed)
    assert all(abs(w["shots"] - weighed[0]["shots"] - w["behind"]) < 1e-9 for w in weighed)


def test_the_hints_endgame_shows_only_cells_a_layout_holds(client):
    # One 2-cell ship afloat and its hit at E5 closed in on three sides: only E6 can hold it
    # (the seven other cells the endgame rolled out were listed, each a sure miss, +1.000).
    marks = {"hit": ["E5"], "miss": ["E4", "D5", "F5"], "afloat": [2]}
    answer = client.post(HINT, json=marks).json()
    assert (answer["cell"], answer["how"]) == ("E6", "endgame")
    assert answer["weighed"] == [
        {"cell": "E6", "shots": 1.0, "fleets": 1, "behind": 0.0, "stderr": 0.0}
    ]


@pytest.mark.parametrize(
    ("marks", "how"),
    [
        ({}, "opening"),
        ({"hit": ["E5", "F5"], "miss": ["D5"]}, "base"),
        ({"rules": "russian", "hit": ["E5"], "sunk": [["A1"]]}, "exact"),
    ],
)
def test_the_hint_says_how_the_expert_chose(client, marks, how):
    answer = client.post(HINT, json=marks).json()
    assert answer["how"] == how and answer["weighed"] == []


@pytest.mark.parametrize("rules", ["classic", "russian"])
def test_the_hint_names_the_shooter_that_gives_it_again(client, rules):
    from hamle.web.battleship import EXPERT_SHOOTERS

    answer = client.post(HINT, json={"rules": rules, "hit": ["E5"], "miss": ["F5"]}).json()
    assert bs.get_shooter(answer["strategy"]) == EXPERT_SHOOTERS[rules]
    observation = bs.Observation.from_marks(bs.Rules.named(rules), hit=["E5"], miss=["F5"])
    cell = bs.hint(observation, answer["strategy"]).cell
    assert answer["cell"] == observation.grid.name(cell)


@pytest.mark.parametrize(
    ("marks", "code"),
    [
        ({"afloat": [], "miss": ["A1"]}, "battleship.none_afloat"),
        ({"rules": "russian", "hit": ["A1", "B2"]}, None),
    ],
)
def test_the_hint_refuses_a_board_it_cannot_fire_at(client, marks, code):
    response = client.post(HINT, json=marks)
    assert response.status_code == 400, response.text
    assert code is None or response.json()["code"] == code


def test_the_hint_waits_for_a_slot_like_the_exact_counter_and_keeps_its_answers(client):
    from hamle.web import lab

    lab._hints.clear()
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:
        response = client.post(HINT, json={"miss": ["A1"]})
        assert response.status_code == 409 and "busy" in response.json()["detail"]
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()
    answer = client.post(HINT, json={"miss": ["A1"]})
    assert answer.status_code == 200
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:  # the same board, however written, is answered at once, busy or not
        again = client.post(HINT, json={"rules": "Classic", "miss": [" a1 "]})
        assert again.status_code == 200 and again.json() == answer.json()
        for rules in ("classic", "russian"):  # and the opening, which needs no rollouts
            opening = client.post(HINT, json={"rules": rules})
            assert opening.status_code == 200 and opening.json()["how"] == "opening"
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()


SAMPLE = "/api/battleship/sample"


def test_sample_draws_the_fleets_the_library_draws_from_the_seed(client):
    body = {"rules": "classic", "hit": [" e5"], "miss": ["E4", "d5"], "sunk": [["A2", "A1"]]}
    response = client.post(SAMPLE, json={**body, "count": 5, "seed": 7})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["rules"], answer["rows"], answer["cols"], answer["touching"]) == (
        "classic",
        10,
        10,
        True,
    )
    assert [ship["name"] for ship in answer["fleet"]][:2] == ["Carrier", "Battleship"]
    assert (answer["miss"], answer["hit"], answer["sunk"]) == (["E4", "D5"], ["E5"], [["A1", "A2"]])
    assert answer["afloat"] == [5, 4, 3, 3] and (answer["seed"], answer["count"]) == (7, 5)
    observation = bs.Observation.from_marks(
        bs.Rules.classic(), miss=["E4", "D5"], hit=["E5"], sunk=[["A1", "A2"]]
    )
    name = observation.grid.name
    drawn = bs.sample(observation, 5, np.random.default_rng(7))
    assert answer["fleets"] == [
        [{"length": len(ship), "cells": [name(c) for c in ship]} for ship in fleet]
        for fleet in drawn
    ]


def test_sample_under_russian_rules_and_from_a_fresh_seed(client):
    body = {"rules": "russian", "sunk": [["A1", "A2"]], "count": 20}
    answer = client.post(SAMPLE, json=body).json()
    assert answer["miss"] == [] and answer["afloat"] == [4, 3, 3, 2, 2, 1, 1, 1, 1]
    assert 0 <= answer["seed"] < 2**53  # (a seed JavaScript reads back whole)
    water = {"A1", "A2", "B1", "B2", "A3", "B3"}  # the sunk ship and the water around it
    for fleet in answer["fleets"]:
        assert [ship["length"] for ship in fleet] == answer["afloat"]
        assert not water & {cell for ship in fleet for cell in ship["cells"]}
    again = client.post(SAMPLE, json={**body, "seed": answer["seed"]}).json()
    assert again == answer


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"hit": ["A1"], "miss": ["A2", "B1"], "afloat": [2]}, 400, "hit at A1"),
        (
            {"rules": "russian", "hit": ["A1", "A2"], "miss": ["A3"], "afloat": [2]},
            400,
            "no layout",
        ),
        ({"miss": ["K1"]}, 400, "K1 is off the 10×10 board"),
        ({"sunk": [["A1", "A2"], ["A2", "A3"]]}, 400, "A2"),
        ({"count": 0}, 422, "count"),
        ({"count": 1001}, 422, "count"),
        ({"count": 2.0}, 422, "count"),
        ({"seed": -1}, 422, "seed"),
        ({"seed": 2**63}, 422, "seed"),
        ({"rules": "weekly"}, 422, "rules"),
        ({"fleets": 3}, 422, "fleets"),
    ],
)
def test_sample_refuses_bad_marks_and_bounds_with_a_clear_error(client, body, status, message):
    response = client.post(SAMPLE, json=body)
    assert response.status_code == status and message in response.json()["detail"], response.text


def test_sample_takes_a_heavy_slot_and_is_documented(client):
    taken = [HEAVY._free.acquire(blocking=False) for _ in range(2)]
    try:
        response = client.post(SAMPLE, json={"rules": "russian", "count": 1})
        assert response.status_code == 409 and "busy" in response.json()["detail"]
    finally:
        for _ in filter(None, taken):
            HEAVY._free.release()
    schema = client.get("/openapi.json").json()
    route = schema["paths"][SAMPLE]["post"]
    assert {"200", "400", "409", "422"} <= set(route["responses"])
    answer = route["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][answer.rsplit("/", 1)[1]]["properties"]
    assert {"fleet", "miss", "hit", "sunk", "afloat", "seed", "count", "fleets"} <= set(fields)
