"""The Yüz Yüze API: daily puzzle, games, moves, undo, hints, the end and persistence."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from fastapi.testclient import TestClient

import hamle.tour as tour
from hamle.tour import _kernels as tour_kernels
from hamle.web import create_app
from hamle.web import tour as site

TODAY = tour.daily_puzzle(tour.today_in_turkey())
# A free game from A1 that ends after 8 cells: A10's jumps all land on filled cells.
API = "/api/tour/games"
SHORT = ["A4", "A7", "D7", "D10", "F8", "C8", "A10"]


@pytest.fixture(autouse=True)
def no_hints_kept():
    """Each test works its hints out afresh (one may replace the engine's)."""
    site._hints.clear()
    yield
    site._hints.clear()


def new(client, **request) -> dict:
    response = client.post("/api/tour/games", json=request)
    assert response.status_code == 201, response.text
    return response.json()


def current(client, game: dict) -> str:
    return client.get(f"/api/tour/games/{game['id']}").json()["current"]


def move(client, game: dict, cell, at: str | None = None):
    """Jump to ``cell`` from ``at`` (default: the game's current cell, as a page sends)."""
    body = {"cell": cell, "from": at or current(client, game)}
    return client.post(f"/api/tour/games/{game['id']}/moves", json=body)


def undo(client, game: dict, cell: str | None = None):
    """Take back the move to ``cell`` (default: the game's last filled cell)."""
    body = {"cell": cell or current(client, game)}
    return client.post(f"/api/tour/games/{game['id']}/undo", json=body)


def ask(client, game: dict, mode: str = "hint", at: str | None = None):
    body = {"mode": mode, "from": at or current(client, game)}
    return client.post(f"/api/tour/games/{game['id']}/hint", json=body)


def names(cells) -> list[str]:
    return [tour.GRID.name(c) for c in cells]


# --- the daily puzzle -------------------------------------------------------------------


def test_daily_puzzle_is_todays_in_turkey(client):
    answer = client.get("/api/tour/daily").json()
    assert answer == {"date": TODAY.date.isoformat(), "seed": TODAY.seed, "start": TODAY.start_name}


def test_daily_puzzle_of_a_date(client):
    assert client.get("/api/tour/daily", params={"date": "2026-12-01"}).json() == {
        "date": "2026-12-01",
        "seed": 20261201,
        "start": "I3",
    }


@pytest.mark.parametrize(
    ("date", "status", "text"),
    [
        ("2026-13-01", 400, "'2026-13-01' is not a date; write YYYY-MM-DD"),
        ("2026-02-30", 400, "is not a date"),
        ("yesterday", 400, "'yesterday' is not a date"),
        ("", 400, "is not a date"),
        ("1999-12-31", 400, "no daily puzzle for 1999-12-31; choose a date from 2000-01-01"),
        ("2100-01-01", 400, "the daily puzzle of 2100-01-01 is not out yet"),
        ("0001-01-01", 400, "no daily puzzle for 0001-01-01"),
        ("2" * 40, 422, "date: String should have at most 32 characters"),
    ],
)
def test_bad_dates_are_refused_with_the_reason(client, date, status, text):
    response = client.get("/api/tour/daily", params={"date": date})
    assert response.status_code == status
    assert text in response.json()["detail"]
    response = client.post("/api/tour/games", json={"kind": "daily", "date": date})
    assert response.status_code == status
    assert text in response.json()["detail"]
    assert response.json()["code"]  # the pages say every one in their language


def test_a_hint_is_not_saved_for_a_position_that_moved_on(client, monkeypatch):
    game = new(client, kind="free", start="A1")
    url = f"/api/tour/games/{game['id']}"
    worked_out = tour.hint

    def hint_then_a_move_lands(position, mode):
        answer = worked_out(position, mode)
        with client.app.state.store.update("tour", game["id"]) as state:  # another tab's move
            state["path"].append(tour.GRID.index(game["legal"][0]))
            state["combos"].append([0, 0])
        return answer

    monkeypatch.setattr(tour, "hint", hint_then_a_move_lands)
    response = ask(client, game)
    assert response.status_code == 409 and response.json()["code"] == "tour.moved"
    view = client.get(url).json()
    assert view["moves"] == ["A1", game["legal"][0]]
    assert (view["hint"], view["hints"]) == (None, 0)


def test_a_puzzle_is_not_out_before_its_day_in_turkey(client, monkeypatch):
    monkeypatch.setattr(tour, "today_in_turkey", lambda: dt.date(2026, 12, 1))
    tomorrow = {"date": "2026-12-02"}
    for response in (
        client.get("/api/tour/daily", params=tomorrow),
        client.post("/api/tour/games", json={"kind": "daily", **tomorrow}),
    ):
        assert response.status_code == 400
        assert response.json() == {
            "detail": "the daily puzzle of 2026-12-02 is not out yet: it is 2026-12-01 in "
            "Turkey, and each puzzle comes out at midnight there",
            "code": "tour.not_yet",
            "params": {"date": "2026-12-02", "today": "2026-12-01"},
        }
    assert client.get("/api/tour/daily").json()["date"] == "2026-12-01"  # today's is out
    assert new(client, kind="daily", date="2026-12-01")["start"] == "I3"
    assert new(client, kind="daily")["date"] == "2026-12-01"
    early = client.get("/api/tour/daily", params={"date": "1999-12-31"}).json()
    assert early["detail"].endswith("choose a date from 2000-01-01 to 2026-12-01")


# --- creating games -------------------------------------------------------------------


def test_daily_game_starts_at_todays_start_cell(client):
    game = new(client, kind="daily")
    start = TODAY.start_name
    assert game["kind"] == "daily" and game["date"] == TODAY.date.isoformat()
    assert game["start"] == game["current"] == start and game["moves"] == [start]
    assert game["count"] == 1 and not game["over"]
    assert game["legal"] == names(tour.Position.start(TODAY.start).legal_moves())
    assert game["combo"] == {"current": 0, "best": 0}
    assert (game["hints"], game["undos"], game["hint"], game["summary"]) == (0, 0, None, None)
    assert new(client)["start"] == start  # daily is the default kind


def test_daily_game_of_a_date(client):
    game = new(client, kind="daily", date="2026-12-01")
    assert (game["date"], game["start"]) == ("2026-12-01", "I3")


def test_free_game_from_a_chosen_or_random_cell(client):
    game = new(client, kind="Free", start=" e5 ")  # names in any case, as elsewhere
    assert (game["kind"], game["date"], game["start"], game["moves"]) == (
        "free",
        None,
        "E5",
        ["E5"],
    )
    assert game["legal"] == ["E2", "E8", "B5", "H5", "C3", "G3", "C7", "G7"]
    starts = {new(client, kind="free")["start"] for _ in range(12)}
    assert all(tour.GRID.index(s) in range(100) for s in starts)
    assert len(starts) > 1


def test_game_ids_are_unguessable_and_distinct(client):
    ids = {new(client)["id"] for _ in range(5)}
    assert len(ids) == 5 and all(len(i) >= 20 for i in ids)


@pytest.mark.parametrize(
    ("request_body", "status", "text"),
    [
        ({"kind": "free", "start": "K1"}, 400, "K1 is off the 10×10 board"),
        ({"kind": "free", "start": "A11"}, 400, "A11 is off the 10×10 board"),
        ({"kind": "free", "start": "55"}, 400, "'55' is not a cell name"),
        ({"kind": "free", "start": 44}, 422, "start: Input should be a valid string"),
        ({"kind": "free", "start": "E" * 50}, 422, "start: String should have at most 8"),
        ({"kind": "free", "start": ""}, 422, "start: String should have at least 1"),
        ({"kind": "daily", "start": "E5"}, 422, "the daily puzzle has its own start cell"),
        ({"kind": "free", "date": "2026-12-01"}, 422, "a date chooses a daily puzzle"),
        ({"kind": "weekly"}, 422, "kind: Input should be 'daily' or 'free'"),
        ({"kind": "daily", "date": 20261201}, 422, "date: Input should be a valid string"),
        ({"kind": "daily", "seed": 1}, 422, "seed: Extra inputs are not permitted"),
        ([], 422, "valid dictionary"),
    ],
)
def test_bad_new_game_requests(client, request_body, status, text):
    response = client.post("/api/tour/games", json=request_body)
    assert response.status_code == status
    assert text in response.json()["detail"]


# --- ids --------------------------------------------------------------------------------


def test_unknown_and_foreign_ids_are_not_found(client):
    assert client.get("/api/tour/games/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    foreign = client.app.state.store.create("mastermind", {"secret": [1, 2, 3, 4]})
    url = f"/api/tour/games/{foreign}"
    for response in (
        client.get(url),
        client.post(url + "/undo", json={"cell": "E5"}),
        client.post(url + "/hint", json={"from": "E5"}),
        client.post(url + "/moves", json={"cell": "E5", "from": "A1"}),
    ):
        assert response.status_code == 404
        assert f"no tour game has the id {foreign!r}" == response.json()["detail"]
    assert client.app.state.store.load("mastermind", foreign) == {"secret": [1, 2, 3, 4]}


@pytest.mark.parametrize("bad_id", ["short", "x" * 65, "has.dots.in.it", "semi;colon;id"])
def test_malformed_ids_are_refused(client, bad_id):
    response = client.get(f"/api/tour/games/{bad_id}")
    assert response.status_code == 422
    assert response.json()["detail"].startswith("game_id: ")  # as a body's field is named
    assert response.json()["params"]["problems"][0]["field"] == "game_id"


# --- moves ------------------------------------------------------------------------------


def test_a_legal_move_fills_the_next_number(client):
    game = new(client, kind="free", start="A1")
    view = move(client, game, "d1").json()
    assert view["moves"] == ["A1", "D1"] and view["count"] == 2 and view["current"] == "D1"
    assert view["legal"] == names(tour.Position.from_moves("A1", ["D1"]).legal_moves())
    assert client.get(f"/api/tour/games/{game['id']}").json() == view


@pytest.mark.parametrize(
    ("cell", "status", "text"),
    [
        ("B2", 400, "B2 is not one jump from D1 (3 cells straight or 2 diagonally)"),
        ("A1", 400, "A1 is already filled"),
        ("Z9", 400, "Z9 is off the 10×10 board"),
        ("E-5", 400, "'E-5' is not a cell name"),
        (14, 422, "cell: Input should be a valid string"),
        (None, 422, "cell: Input should be a valid string"),
        ("A" * 9, 422, "cell: String should have at most 8 characters"),
    ],
)
def test_bad_moves_name_the_problem_and_change_nothing(client, cell, status, text):
    game = new(client, kind="free", start="A1")
    before = move(client, game, "D1").json()
    response = move(client, game, cell)
    assert response.status_code == status
    assert text in response.json()["detail"]
    assert client.get(f"/api/tour/games/{game['id']}").json() == before


def test_a_move_names_the_cell_it_is_made_from(client):
    game = new(client, kind="free", start="A1")
    view = move(client, game, "D1", at=" a1 ").json()  # a name as a cell is written anywhere
    assert view["moves"] == ["A1", "D1"]
    unnamed = client.post(f"/api/tour/games/{game['id']}/moves", json={"cell": "D4"})
    assert unnamed.status_code == 422 and unnamed.json()["detail"] == "from: Field required"
    response = move(client, game, "D7", at="Z9")
    assert response.status_code == 400 and response.json()["code"] == "cell.off_board"


def test_a_move_from_a_page_left_behind_is_refused_not_played_elsewhere(client):
    game = new(client, kind="free", start="A1")
    move(client, game, "D1")
    before = move(client, game, "D4").json()  # another tab played on
    # A4 is a jump from A1, where the stale page is, and from D4 too.
    response = move(client, game, "A4", at="A1")
    assert response.status_code == 409
    assert response.json() == {
        "detail": "the game is at D4 now, not A1: it changed in another page",
        "code": "tour.not_current",
        "params": {"cell": "A1", "current": "D4"},
    }
    assert client.get(f"/api/tour/games/{game['id']}").json() == before
    filled = move(client, game, "D1", at="A1")  # filled meanwhile: the page is behind
    assert filled.status_code == 409 and filled.json()["code"] == "tour.not_current"
    filled = move(client, game, "D1", at="D4")  # filled before the page's own move
    assert filled.status_code == 400 and filled.json()["code"] == "tour.filled"


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ({"cell": "D1", "from": ""}, "from: String should have at least 1 character"),
        ({"cell": "D1", "from": 0}, "from: Input should be a valid string"),
        ({"cell": "D1", "form": "A1"}, "form: Extra inputs are not permitted"),
    ],
)
def test_malformed_from_is_refused(client, body, text):
    game = new(client, kind="free", start="A1")
    response = client.post(f"/api/tour/games/{game['id']}/moves", json=body)
    assert response.status_code == 422 and text in response.json()["detail"]


def test_move_without_a_body_is_refused(client):
    game = new(client)
    response = client.post(f"/api/tour/games/{game['id']}/moves")
    assert response.status_code == 422
    assert response.json()["detail"] == "the request body is missing"


def test_combo_counts_moves_matching_the_quick_hint(client):
    game = new(client, kind="free", start="A1")
    position = tour.Position.start("A1")
    for _ in range(3):
        best = tour.hint(position, "quick").move
        view = move(client, game, tour.GRID.name(best)).json()
        position = position.play(best)
    assert view["combo"] == {"current": 3, "best": 3}
    other = next(m for m in position.legal_moves() if m != tour.hint(position, "quick").move)
    view = move(client, game, tour.GRID.name(other)).json()
    assert view["combo"] == {"current": 0, "best": 3}


# --- undo -------------------------------------------------------------------------------


def test_undo_at_the_start_is_refused_as_not_allowed_now(client):
    game = new(client, kind="free", start="A1")
    response = undo(client, game)
    assert response.status_code == 409
    assert response.json()["detail"] == "nothing to undo: only the start cell is filled"
    assert response.json()["code"] == "tour.nothing_to_undo"
    assert client.get(f"/api/tour/games/{game['id']}").json()["undos"] == 0


def test_undo_from_a_page_left_behind_is_refused(client):
    game = new(client, kind="free", start="A1")
    move(client, game, "D1")
    before = move(client, game, "D4").json()  # another tab played on from D1
    response = undo(client, game, "D1")  # the stale page would take back D4, unseen
    assert response.status_code == 409 and response.json()["code"] == "tour.not_current"
    assert response.json()["params"] == {"cell": "D1", "current": "D4"}
    assert client.get(f"/api/tour/games/{game['id']}").json() == before
    assert undo(client, game, "d4").json()["moves"] == ["A1", "D1"]


def test_a_turn_left_behind_is_refused_where_the_current_cell_alone_looks_right(client):
    game = new(client, kind="free", start="A1")
    move(client, game, "A4")
    seen = move(client, game, "D4").json()  # the page shows A1 A4 D4 at turn 2
    assert seen["turn"] == 2
    url = f"/api/tour/games/{game['id']}"
    for _ in range(2):  # another tab takes both back and reaches D4 through D1
        undo(client, game)
    move(client, game, "D1")
    now = move(client, game, "D4").json()
    assert (now["moves"], now["turn"], now["undos"]) == (["A1", "D1", "D4"], 6, 2)
    for action, body in [
        ("moves", {"cell": "A4", "from": "D4", "turn": 2}),  # A4 is empty on this board
        ("hint", {"from": "D4", "turn": 2}),
        ("undo", {"cell": "D4", "turn": 2}),
    ]:
        response = client.post(f"{url}/{action}", json=body)
        assert response.status_code == 409, action
        assert response.json() == {
            "detail": "the game changed in another page since turn 2 (it is at turn 6)",
            "code": "tour.changed",
            "params": {"turn": 2, "now": 6},
        }
        assert client.get(url).json() == now
    played = client.post(f"{url}/moves", json={"cell": "A4", "from": "D4", "turn": 6})
    assert played.json()["moves"] == ["A1", "D1", "D4", "A4"] and played.json()["turn"] == 7
    for turn in (-1, "7", 7.0, True, 10**30):
        bad = client.post(f"{url}/moves", json={"cell": "A7", "from": "A4", "turn": turn})
        assert bad.status_code == 422 and "turn" in bad.json()["detail"], turn


@pytest.mark.parametrize(
    ("content", "text"),
    [
        (None, "the request body is missing"),
        (b"{{{", "the request body is not valid JSON"),
        (b"{}", "cell: Field required"),
        (b'{"cell": "D1", "all": true}', "all: Extra inputs are not permitted"),
        (b'{"cell": 4}', "cell: Input should be a valid string"),
        (b'["D1"]', "valid dictionary"),
    ],
)
def test_undo_reads_its_body_strictly(client, content, text):
    game = new(client, kind="free", start="A1")
    move(client, game, "D1")
    headers = {"content-type": "application/json"} if content is not None else {}
    url = f"/api/tour/games/{game['id']}/undo"
    response = client.post(url, content=content, headers=headers)
    assert response.status_code == 422 and text in response.json()["detail"]
    assert client.get(f"/api/tour/games/{game['id']}").json()["moves"] == ["A1", "D1"]


def test_undo_takes_back_the_move_and_its_combo(client):
    game = new(client, kind="free", start="A1")
    first = tour.hint(tour.Position.start("A1"), "quick").move_name
    after_first = move(client, game, first).json()
    assert after_first["combo"]["current"] == 1
    move(client, game, after_first["legal"][0])
    view = undo(client, game).json()
    assert view["moves"] == ["A1", first] and view["count"] == 2
    assert view["combo"] == after_first["combo"] and view["legal"] == after_first["legal"]
    assert view["undos"] == 1
    view = undo(client, game).json()
    assert (view["moves"], view["combo"], view["undos"]) == (["A1"], {"current": 0, "best": 0}, 2)


# --- hints ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["hint", "quick"])
def test_hint_is_the_engines_answer(client, mode):
    game = new(client, kind="daily", date="2026-12-01")
    answer = ask(client, game, mode).json()
    expected = tour.hint(tour.Position.start("I3"), mode)
    assert answer["cell"] == expected.move_name and answer["mode"] == mode
    assert answer["value"] == expected.value and answer["exact"] == expected.exact
    assert answer["rollouts"] == expected.rollouts
    assert [c["cell"] for c in answer["candidates"]] == game["legal"]
    assert answer["cell"] in game["legal"] and answer["hints"] == 1
    assert set(answer["candidates"][0]) == {
        "cell", "value", "exact", "complete", "rollouts", "tour"
    }  # fmt: skip


def test_a_move_that_allows_a_full_board_comes_with_a_tour_that_fills_it(client):
    game = new(client, kind="free", start="A1")
    candidates = ask(client, game, "hint").json()["candidates"]
    proven = [c for c in candidates if c["complete"]]
    assert proven and all(c["tour"] is None for c in candidates if not c["complete"])
    for candidate in proven:
        position = tour.Position.start("A1").play(candidate["cell"])
        for cell in candidate["tour"]:
            position = position.play(cell)
        assert position.count == 100


def test_hint_defaults_to_the_full_mode(client):
    game = new(client, kind="free", start="E5")
    answer = client.post(f"/api/tour/games/{game['id']}/hint", json={"from": "E5"}).json()
    assert answer["mode"] == "hint"
    assert answer["cell"] == tour.hint(tour.Position.start("E5"), "hint").move_name
    unnamed = client.post(f"/api/tour/games/{game['id']}/hint")
    assert unnamed.status_code == 422 and unnamed.json()["detail"] == "the request body is missing"


@pytest.mark.parametrize("mode", ["QUICK", "Quick", "HINT", " quick "])
def test_hint_mode_in_any_case_as_the_library_and_the_cli_take_it(client, mode):
    game = new(client, kind="free", start="E5")
    answer = ask(client, game, mode).json()
    assert answer["mode"] == mode.strip().lower()
    assert answer["cell"] == tour.hint(tour.Position.start("E5"), mode).move_name
    shown = client.get(f"/api/tour/games/{game['id']}").json()["hint"]["mode"]
    assert shown == mode.strip().lower()


def test_a_hint_for_a_page_left_behind_is_refused(client):
    game = new(client, kind="free", start="A1")
    move(client, game, "D1")
    move(client, game, "D4")  # another tab played on
    response = ask(client, game, at="D1")
    assert response.status_code == 409 and response.json()["code"] == "tour.not_current"
    assert response.json()["params"] == {"cell": "D1", "current": "D4"}
    view = client.get(f"/api/tour/games/{game['id']}").json()
    assert (view["hint"], view["hints"]) == (None, 0)


def test_hints_count_once_per_position_and_show_until_the_next_move(client):
    game = new(client, kind="free", start="A1")
    url = f"/api/tour/games/{game['id']}"
    first = ask(client, game, "quick").json()
    again = ask(client, game, "hint").json()
    assert (first["hints"], again["hints"]) == (1, 1)
    view = client.get(url).json()
    assert view["hints"] == 1
    assert view["hint"] == {
        "cell": again["cell"],
        "mode": "hint",
        "value": again["value"],
        "exact": again["exact"],
    }
    view = move(client, game, again["cell"]).json()
    assert view["hint"] is None and view["hints"] == 1
    assert ask(client, game, "quick").json()["hints"] == 2
    assert undo(client, game).json()["hint"] is None
    # Back at the start, whose hint was counted: asking there again counts nothing.
    assert ask(client, game, "hint").json()["hints"] == 2
    move(client, game, again["cell"])
    assert ask(client, game, "quick").json()["hints"] == 2


def test_the_positions_hinted_kept_in_a_game_are_the_latest_few(client, monkeypatch):
    monkeypatch.setattr(site, "HINTED_POSITIONS_KEPT", 2)
    game = new(client, kind="free", start="A1")
    for _ in range(3):  # hints at three positions, then back to the first
        cell = ask(client, game).json()["cell"]
        move(client, game, cell)
    for _ in range(3):
        undo(client, game)
    with client.app.state.store.update("tour", game["id"]) as state:
        assert len(state["hinted"]) == 2
    assert ask(client, game).json()["hints"] == 4  # (its key was let go: counted again)


def test_a_game_stored_before_hinted_positions_were_kept_counts_as_it_did(client):
    game = new(client, kind="free", start="A1")
    assert ask(client, game).json()["hints"] == 1
    with client.app.state.store.update("tour", game["id"]) as state:
        del state["hinted"]
    assert ask(client, game, "quick").json()["hints"] == 1  # (its hint is still shown)


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ({"mode": "full"}, "mode: Input should be 'hint' or 'quick'"),
        ({"mode": 120}, "mode: Input should be 'hint' or 'quick'"),
        ({"mode": "quick", "rollouts": 10**9}, "rollouts: Extra inputs are not permitted"),
    ],
)
def test_bad_hint_requests(client, body, text):
    game = new(client)
    response = client.post(f"/api/tour/games/{game['id']}/hint", json=body)
    assert response.status_code == 422
    assert text in response.json()["detail"]
    assert client.get(f"/api/tour/games/{game['id']}").json()["hints"] == 0


def test_a_hint_is_worked_out_off_the_event_loop_and_kept_for_its_position(client, monkeypatch):
    # A hint can take a tenth of a second: on the event loop it would stall every request.
    worked_out, calls = tour.hint, []

    def on_a_thread(position, mode):
        try:
            asyncio.get_running_loop()
            calls.append("event loop")
        except RuntimeError:
            calls.append("thread")
        return worked_out(position, mode)

    monkeypatch.setattr(tour, "hint", on_a_thread)
    game = new(client, kind="free", start="A1")
    first = ask(client, game).json()
    assert calls == ["thread"]
    # The same position again, in another game or reached another way: no second search.
    again = ask(client, new(client, kind="free", start="A1")).json()
    assert again == first and calls == ["thread"]
    ask(client, game, "quick")  # (another mode, another hint)
    assert calls == ["thread", "thread"]
    for kernel in (tour_kernels.search, tour_kernels.rollouts):
        assert kernel.targetoptions.get("nogil")  # (the event loop runs meanwhile)


# --- the end ----------------------------------------------------------------------------


def test_a_game_followed_by_hints_fills_the_board_and_sums_up(client):
    game = new(client, kind="daily", date="2026-12-01")
    url = f"/api/tour/games/{game['id']}"
    view = game
    while not view["over"]:
        hint = ask(client, game, "quick").json()
        assert hint["cell"] in view["legal"]
        view = move(client, game, hint["cell"]).json()
        assert view["hint"] is None
    assert view["count"] == 100 and view["legal"] == [] and len(set(view["moves"])) == 100
    assert view["combo"] == {"current": 99, "best": 99}
    assert view["summary"] == {
        "score": 100,
        "complete": True,
        "hints": 99,
        "best_combo": 99,
        "undos": 0,
        "share": {
            "en": "Yüz Yüze 2026-12-01 · 100/100 · 99 hints · best combo 99",
            "tr": "Yüz Yüze 2026-12-01 · 100/100 · 99 ipucu · en iyi kombo 99",
        },
    }
    for response in (move(client, game, "A1"), ask(client, game)):
        assert response.status_code == 409
        assert response.json()["detail"] == "the tour is complete: every cell is filled"
        assert response.json()["code"] == "tour.done"
    taken_back = undo(client, game)
    assert taken_back.status_code == 409
    assert taken_back.json()["detail"] == "the tour is complete: there is nothing to take back"
    assert client.get(url).json() == view


def test_an_early_end_sums_up_and_undo_reopens_the_game(client):
    game = new(client, kind="free", start="A1")
    ask(client, game)
    for cell in SHORT:
        view = move(client, game, cell).json()
    assert view["over"] and view["count"] == 8
    summary = view["summary"]
    assert (summary["score"], summary["complete"], summary["hints"]) == (8, False, 1)
    assert summary["share"]["en"] == (
        f"Yüz Yüze free play A1 · 8/100 · 1 hint · best combo {view['combo']['best']}"
    )
    assert summary["share"]["tr"].startswith("Yüz Yüze serbest oyun A1 · 8/100 · 1 ipucu")
    response = move(client, game, "A7")
    assert response.status_code == 409
    assert response.json()["detail"] == "the game is over: no jump from A10 reaches an empty cell"
    reopened = undo(client, game).json()
    assert not reopened["over"] and reopened["summary"] is None and reopened["count"] == 7
    ended = move(client, game, "A10").json()
    assert ended["summary"]["undos"] == 1
    assert ended["summary"]["share"]["en"].endswith(" · 1 undo")


# --- persistence --------------------------------------------------------------------------


def test_games_survive_a_restart(tmp_path):
    db = tmp_path / "site.sqlite3"
    with TestClient(create_app(db, warm=False)) as first:
        game = new(first, kind="free", start="A1")
        move(first, game, "D1")
        ask(first, game, "quick")
        before = first.get(f"/api/tour/games/{game['id']}").json()
    with TestClient(create_app(db, warm=False)) as second:
        assert second.get(f"/api/tour/games/{game['id']}").json() == before
        view = move(second, game, before["hint"]["cell"]).json()
        assert view["moves"] == ["A1", "D1", before["hint"]["cell"]] and view["hints"] == 1


def test_the_api_is_described(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/daily", "/games", "/games/{game_id}", "/games/{game_id}/moves"):
        assert "/api/tour" + path in paths
    assert {"/api/tour/games/{game_id}/undo", "/api/tour/games/{game_id}/hint"} <= set(paths)
