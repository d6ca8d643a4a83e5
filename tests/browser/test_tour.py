"""The Yüz Yüze page in a real browser: the daily puzzle, hints, moves by click and by
keyboard, undo, a reload, a whole game to the summary, Turkish, a phone screen, pages left
behind by another tab, the focus and what a screen reader is told."""

from __future__ import annotations

import datetime as dt
import re
from contextlib import contextmanager

import httpx2 as httpx
from playwright.sync_api import expect

import hamle.tour as tour


def long_date(day: dt.date) -> str:
    """A date as the English page writes it: 7 December 2026."""
    return f"{day.day} {day:%B} {day.year}"


def names(cells) -> list[str]:
    return sorted(tour.GRID.name(c) for c in cells)


def cell(page, name: str):
    return page.locator(f"#board .cell[data-cell='{name}']")


def arrows(start: int, target: int) -> list[str]:
    """The arrow keys that move the grid's focus from ``start`` to ``target``."""
    (r0, c0), (r1, c1) = divmod(start, 10), divmod(target, 10)
    vertical = ["ArrowDown" if r1 > r0 else "ArrowUp"] * abs(r1 - r0)
    return vertical + ["ArrowRight" if c1 > c0 else "ArrowLeft"] * abs(c1 - c0)


def test_daily_puzzle_hint_move_keyboard_undo_and_reload(server, page, screenshot):
    puzzle = tour.daily_puzzle(tour.today_in_turkey())
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).to_contain_text(f"starts at {puzzle.start_name}")
    screenshot(page, "tour-choose-laptop")
    page.click("#daily")

    start = cell(page, puzzle.start_name)
    expect(start).to_have_text("1")
    expect(start).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#game-title")).to_have_text(f"Daily puzzle {long_date(puzzle.date)}")
    assert "?game=" in page.url
    position = tour.Position.start(puzzle.start)
    legal = page.locator("#board .cell.legal")
    expect(legal).to_have_count(len(position.legal_moves()))
    assert sorted(legal.evaluate_all("cells => cells.map(c => c.dataset.cell)")) == names(
        position.legal_moves()
    )

    page.click("#hint")
    hinted = page.locator("#board .cell.hint")
    expect(hinted).to_have_count(1)
    name = hinted.get_attribute("data-cell")
    assert name == tour.hint(position, "hint").move_name
    assert name in names(position.legal_moves())
    expect(page.locator("#hints")).to_have_text("1")
    screenshot(page, "tour-hint-laptop")

    hinted.click()
    expect(cell(page, name)).to_have_text("2")
    expect(page.locator("#count")).to_have_text("2")
    expect(page.locator("#board .cell.hint")).to_have_count(0)
    combo = tour.Combo().after(position, tour.GRID.index(name))
    expect(page.locator("#combo")).to_have_text(str(combo.current))
    expect(page.locator("#best")).to_have_text(str(combo.best))

    # The keyboard: arrows from the current cell to a legal one, then Enter.
    position = position.play(name)
    target = position.legal_moves()[-1]
    cell(page, name).focus()
    for key in arrows(position.current, target):
        page.keyboard.press(key)
    expect(cell(page, tour.GRID.name(target))).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell(page, tour.GRID.name(target))).to_have_text("3")
    expect(page.locator("#count")).to_have_text("3")

    page.click("#undo")
    expect(page.locator("#count")).to_have_text("2")
    expect(cell(page, tour.GRID.name(target))).to_have_text("")
    expect(page.locator("#undos")).to_have_text("1")
    expect(cell(page, name)).to_have_class(re.compile(r"\bcurrent\b"))

    page.reload()
    expect(page.locator("#count")).to_have_text("2")
    expect(cell(page, name)).to_have_text("2")
    expect(page.locator("#undos")).to_have_text("1")

    # A hint outlives a reload with its words, not its cell alone.
    page.click("#hint")
    expect(page.locator("#hints")).to_have_text("2")
    said = page.locator("#status").text_content()
    assert said.startswith("Try ")
    page.reload()
    expect(page.locator("#board .cell.hint")).to_have_count(1)
    expect(page.locator("#status")).to_have_text(said)
    assert page.js_errors == []


def test_a_whole_game_by_clicking_hints_reaches_the_summary(server, page, screenshot):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    cell(page, "A1").click()  # free play starts where the player clicks
    expect(page.locator("#game-title")).to_have_text("Free play from A1")
    hinted = page.locator("#board .cell.hint")
    for number in range(2, 101):
        page.click("#hint")
        expect(hinted).to_have_count(1)
        hinted.click()
        expect(page.locator("#count")).to_have_text(str(number))
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text("Complete tour!")
    expect(page.locator("#summary-text")).to_have_text("You filled every cell.")
    expect(page.locator("#game .legend")).to_be_hidden()  # (no jump is left to mark)
    share = "Yüz Yüze free play A1 · 100/100 · 99 hints · best combo 99"
    expect(page.locator("#share")).to_have_text(share)
    expect(page.locator("#board .cell.legal")).to_have_count(0)
    expect(page.locator("#hint")).to_be_disabled()
    expect(page.locator("#undo")).to_be_disabled()  # a complete tour is not taken back
    expect(page.locator("#status")).to_have_text("Complete tour! You filled all 100 cells.")
    page.click("#copy")
    expect(page.locator("#copy-said")).to_have_text("Copied.")  # (beside the button)
    assert page.evaluate("navigator.clipboard.readText()") == share
    screenshot(page, "tour-summary-laptop")
    assert page.js_errors == []


def finished_by_hints(server, start: str) -> dict:
    """A free game from ``start`` played through the API by the quick hint to its end."""
    with httpx.Client(base_url=server.url) as client:
        view = client.post("/api/tour/games", json={"kind": "free", "start": start}).json()
        url = f"/api/tour/games/{view['id']}"
        while not view["over"]:
            here = {"from": view["current"]}
            answer = client.post(url + "/hint", json={"mode": "quick", **here}).json()
            view = client.post(url + "/moves", json={"cell": answer["cell"], **here}).json()
    return view


def test_phone_turkish_and_a_finished_game_from_its_address(server, phone, screenshot):
    phone.goto(server.url + "/tour")
    expect(phone.locator("#daily-info")).not_to_be_empty()
    phone.click("#random")
    expect(phone.locator("#board .cell.current")).to_have_text("1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "tour-phone")

    # A game finished through the API, opened by its address on the phone, in Turkish.
    view = finished_by_hints(server, "J10")
    game_id = view["id"]
    phone.goto(f"{server.url}/tour?game={game_id}")
    expect(phone.locator("#share")).to_have_text(view["summary"]["share"]["en"])
    phone.click("#lang-switch")
    expect(phone.locator("#share")).to_have_text(view["summary"]["share"]["tr"])
    expect(phone.locator("#summary-title")).to_have_text("Tam tur!")
    expect(phone.locator("#summary-text")).to_have_text("Bütün kareleri doldurdun.")
    expect(phone.locator("#game-title")).to_have_text("J10 karesinden serbest oyun")
    expect(phone.locator("#hint")).to_have_text("İpucu")
    expect(phone.locator("#game dt[data-i18n='tour.hints']")).to_have_text("İpuçları")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "tour-summary-phone")
    # Without a clipboard the copy button selects the line for the player to copy.
    phone.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    phone.click("#copy")
    expect(phone.locator("#copy-said")).to_contain_text("Ctrl+C")
    assert phone.evaluate("getSelection().toString()") == view["summary"]["share"]["tr"]
    phone.click("#lang-switch")
    expect(phone.locator("#hint")).to_have_text("Hint")
    assert phone.js_errors == []


def test_an_unknown_game_in_the_address_offers_a_new_one(server, page):
    page.goto(server.url + "/tour?game=AAAAAAAAAAAAAAAAAAAAAA")
    expect(page.locator("#status")).to_have_text("That game is not here any more; start a new one.")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#game")).to_be_hidden()
    assert page.js_errors == []


def test_a_game_in_progress_is_there_again_after_the_home_page(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    cell(page, "A1").click()
    expect(cell(page, "A1")).to_have_text("1")
    cell(page, "D1").click()
    expect(page.locator("#count")).to_have_text("2")
    game = page.url.split("?game=")[1]
    page.goto(server.url + "/")
    page.goto(server.url + "/tour")
    expect(page.locator("#count")).to_have_text("2")
    expect(cell(page, "D1")).to_have_text("2")
    assert page.url.endswith(f"?game={game}")
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()
    page.goto(server.url + "/")
    page.goto(server.url + "/tour")
    expect(page.locator("#setup")).to_be_visible()  # a new game was asked for: none resumed
    assert page.js_errors == []


def test_a_page_left_open_past_midnight_starts_and_shows_the_new_day(server, page):
    today = tour.today_in_turkey()
    yesterday = tour.daily_puzzle(today - dt.timedelta(days=1))
    stale = {
        "date": yesterday.date.isoformat(),
        "seed": yesterday.seed,
        "start": yesterday.start_name,
    }
    calls = []

    def first_is_yesterdays(route):  # the page was loaded the day before
        calls.append(route.request.url)
        if len(calls) == 1:
            route.fulfill(json=stale)
        else:
            route.continue_()

    page.route("**/api/tour/daily", first_is_yesterdays)
    page.goto(server.url + "/tour")
    said = long_date(yesterday.date)
    expect(page.locator("#daily-info")).to_contain_text(f"{said}, today in Turkey")
    page.click("#daily")
    expect(page.locator("#game-title")).to_have_text(f"Daily puzzle {long_date(today)}")
    expect(page.locator("#daily-info")).to_contain_text(f"{long_date(today)}, today in Turkey")
    assert page.js_errors == []


def tour_requests(page) -> list[str]:
    """The tour API calls the page makes from now on, as "POST games/…/moves" and so on."""
    seen: list[str] = []
    page.on(
        "request",
        lambda request: (
            seen.append(f"{request.method} {request.url.split('/api/tour/')[1]}")
            if "/api/tour/games" in request.url
            else None
        ),
    )
    return seen


@contextmanager
def held(page, pattern):
    """Requests to ``pattern`` held until the block ends, then let through."""
    waiting = []
    page.route(pattern, lambda route: waiting.append(route))
    yield
    page.wait_for_timeout(100)
    for route in waiting:
        route.continue_()
    page.unroute(pattern)


def test_a_click_is_not_dropped_while_the_daily_line_loads(server, page):
    """The daily line was a task of its own: a click while it loaded (a slow server) was
    dropped as if a task of the player's were on its way."""
    with held(page, "**/api/tour/daily"):
        page.goto(server.url + "/tour")
        expect(page.locator("#daily-info")).to_be_empty()
        cell(page, "A1").click()
        expect(page.locator("#count")).to_have_text("1")
        page.click("#new")
        expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#daily-info")).not_to_be_empty()


def test_a_double_click_acts_once(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    cell(page, "A1").click()
    expect(page.locator("#count")).to_have_text("1")
    game = page.url.split("?game=")[1]
    sent = tour_requests(page)
    entries = page.evaluate("history.length")

    cell(page, "D1").dblclick()
    expect(page.locator("#count")).to_have_text("2")
    cell(page, "G1").dblclick()  # (the second click lands on the cell just filled)
    expect(page.locator("#count")).to_have_text("3")
    with held(page, "**/undo"):  # the second click comes while the first is on its way
        page.locator("#undo").dblclick()
    expect(page.locator("#count")).to_have_text("2")
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()
    with held(page, "**/api/tour/games"):
        page.locator("#random").dblclick()
    expect(page.locator("#count")).to_have_text("1")
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()

    moves = [f"POST games/{game}/{action}" for action in ("moves", "moves", "undo")]
    assert sent == [*moves, "POST games"]
    assert page.evaluate("history.length") == entries + 3  # new, random start, new
    expect(page.locator("#status")).not_to_have_attribute("data-kind", "error")
    view = httpx.get(f"{server.url}/api/tour/games/{game}").json()
    assert (view["moves"], view["undos"]) == (["A1", "D1"], 1)
    assert page.js_errors == []


def test_a_refused_move_is_shown_in_the_language_chosen_after(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    cell(page, "A1").click()
    expect(page.locator("#count")).to_have_text("1")
    cell(page, "B2").click()
    status = page.locator("#status")
    expect(status).to_have_text("B2 is not one jump from A1 (3 cells straight or 2 diagonally)")
    page.click("#lang-switch")
    expect(status).to_have_text(
        "B2, A1 karesinden bir sıçrama uzakta değil (düz 3 kare ya da çapraz 2 kare)."
    )
    expect(status).to_have_attribute("data-kind", "error")
    page.click("#lang-switch")
    expect(status).to_have_text("B2 is not one jump from A1 (3 cells straight or 2 diagonally)")
    assert page.js_errors == []


def test_a_second_page_on_the_same_game_catches_up_after_a_refusal(server, page):
    game = httpx.post(f"{server.url}/api/tour/games", json={"kind": "free", "start": "A1"})
    address = f"{server.url}/tour?game={game.json()['id']}"
    page.goto(address)
    other = page.context.new_page()
    other.goto(address)
    expect(cell(other, "D1")).to_have_class(re.compile(r"\blegal\b"))
    cell(page, "D1").click()
    expect(page.locator("#count")).to_have_text("2")

    cell(other, "D1").click()  # still green there: the first page has filled it
    changed = "the game is at D1 now, not A1: it changed in another page"
    expect(other.locator("#status")).to_have_text(changed)
    expect(cell(other, "D1")).to_have_text("2")
    expect(cell(other, "D1")).not_to_have_class(re.compile(r"\blegal\b"))
    expect(other.locator("#count")).to_have_text("2")
    expect(other.locator("#undo")).to_be_enabled()
    expect(other.locator("#status")).to_have_text(changed)
    assert page.js_errors == []


def test_back_and_forward_to_a_new_game_and_todays_puzzle_again(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.click("#daily")
    expect(page.locator("#count")).to_have_text("1")
    daily = page.url
    second = page.locator("#board .cell.legal").first
    name = second.get_attribute("data-cell")
    second.click()
    expect(page.locator("#count")).to_have_text("2")

    # Today's puzzle again resumes today's game.
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()
    page.click("#daily")
    expect(page).to_have_url(daily)
    expect(cell(page, name)).to_have_text("2")

    # New game, back to the game, forward to the choice: a reload stays on the choice.
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()
    page.go_back()
    expect(cell(page, name)).to_have_text("2")
    page.go_forward()
    expect(page.locator("#setup")).to_be_visible()
    page.reload()
    expect(page.locator("#daily-info")).not_to_be_empty()
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Choose today's puzzle or a start cell.")
    assert page.js_errors == []


def test_todays_puzzle_once_finished_shows_the_result_and_play_again_starts_it_afresh(server, page):
    puzzle = tour.daily_puzzle(tour.today_in_turkey())
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.click("#daily")
    expect(page.locator("#count")).to_have_text("1")
    finished = page.url.split("?game=")[1]
    with httpx.Client(base_url=server.url) as client:  # (played to its end in another tab)
        view = client.get(f"/api/tour/games/{finished}").json()
        while not view["over"]:
            body = {"cell": view["legal"][0], "from": view["current"]}
            view = client.post(f"/api/tour/games/{finished}/moves", json=body).json()
    page.click("#new")
    expect(page.locator("#setup")).to_be_visible()

    # Today's puzzle again: today's result and its line to share, not a fresh game.
    page.click("#daily")
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#share")).to_have_text(view["summary"]["share"]["en"])
    expect(page.locator("#count")).to_have_text(str(view["count"]))
    assert page.url.endswith(f"?game={finished}")

    # Play again: the same puzzle afresh, which Today's puzzle then resumes.
    page.click("#again")
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator("#count")).to_have_text("1")
    expect(cell(page, puzzle.start_name)).to_be_focused()
    again = page.url.split("?game=")[1]
    assert again != finished
    fresh = httpx.get(f"{server.url}/api/tour/games/{again}").json()
    assert (fresh["kind"], fresh["date"]) == ("daily", puzzle.date.isoformat())
    page.click("#new")
    page.click("#daily")
    expect(page).to_have_url(re.compile(f"game={again}$"))
    expect(page.locator("#summary")).to_be_hidden()

    # A free game's Play again starts from its start cell.
    page.goto(f"{server.url}/tour?game={finished_by_hints(server, 'J10')['id']}")
    expect(page.locator("#summary")).to_be_visible()
    page.click("#again")
    expect(page.locator("#game-title")).to_have_text("Free play from J10")
    expect(page.locator("#count")).to_have_text("1")
    page.click("#lang-switch")
    page.click("#new")
    page.goto(f"{server.url}/tour?game={finished}")
    expect(page.locator("#again")).to_have_text("Yeniden oyna")
    assert page.js_errors == []


def test_todays_game_the_server_fails_to_load_is_kept_for_the_next_try(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.click("#daily")
    expect(page.locator("#count")).to_have_text("1")
    game = page.url.split("?game=")[1]
    second = page.locator("#board .cell.legal").first
    name = second.get_attribute("data-cell")
    second.click()
    expect(page.locator("#count")).to_have_text("2")
    daily = page.evaluate("localStorage.getItem('hamle.tour.daily')")
    failed = {"detail": "the game store failed: disk I/O error", "code": "site.store_failed"}
    page.route(
        f"**/api/tour/games/{game}",
        lambda route: route.fulfill(status=503, json={**failed, "params": {}}),
    )
    status = page.locator("#status")
    page.reload()
    expect(status).to_have_text("the game store failed: disk I/O error")
    expect(page.locator("#setup")).to_be_visible()
    assert page.url.endswith(f"?game={game}")

    # Today's puzzle shows the failure rather than start a new game over today's.
    seen = tour_requests(page)
    with page.expect_response(f"**/api/tour/games/{game}"):
        page.click("#daily")
    page.wait_for_timeout(300)  # time enough for a new game to be asked for, were it
    assert seen == [f"GET games/{game}"]
    expect(status).to_have_text("the game store failed: disk I/O error")
    expect(page.locator("#setup")).to_be_visible()
    assert page.evaluate("localStorage.getItem('hamle.tour.daily')") == daily
    assert page.evaluate("localStorage.getItem('hamle.tour.game')") == game

    page.unroute(f"**/api/tour/games/{game}")
    page.click("#daily")
    expect(cell(page, name)).to_have_text("2")
    assert page.url.endswith(f"?game={game}")
    page.reload()
    expect(page.locator("#count")).to_have_text("2")
    assert page.js_errors == []


def test_a_server_that_does_not_answer_is_said_in_the_language_chosen_after(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.route("**/api/tour/games", lambda route: route.abort())
    cell(page, "A1").click()
    status = page.locator("#status")
    expect(status).to_have_text("The server did not answer. Is it running?")
    page.click("#lang-switch")
    expect(status).to_have_text("Sunucu yanıt vermedi. Çalışıyor mu?")


def play_api(server, game: dict, *cells: str) -> dict:
    """Moves made through the API, as another tab would make them."""
    view = game
    with httpx.Client(base_url=server.url) as client:
        for name in cells:
            body = {"cell": name, "from": view["current"]}
            view = client.post(f"/api/tour/games/{game['id']}/moves", json=body).json()
    return view


def test_a_page_left_behind_has_its_move_undo_and_hint_refused_and_catches_up(server, page):
    game = httpx.post(f"{server.url}/api/tour/games", json={"kind": "free", "start": "A1"}).json()
    page.goto(f"{server.url}/tour?game={game['id']}")
    expect(cell(page, "A4")).to_have_class(re.compile(r"\blegal\b"))
    status = page.locator("#status")

    # A4 is a jump from A1, where this page is, and from D4, where another tab went.
    view = play_api(server, game, "D1", "D4")
    cell(page, "A4").click()
    expect(status).to_have_text("the game is at D4 now, not A1: it changed in another page")
    expect(status).to_have_attribute("data-kind", "error")
    expect(page.locator("#count")).to_have_text("3")  # the game loaded again
    expect(cell(page, "D4")).to_have_text("3")
    expect(cell(page, "A4")).to_have_text("")
    page.click("#lang-switch")
    expect(status).to_have_text(
        "Oyun artık A1 karesinde değil, D4 karesinde: başka bir sayfada değişti."
    )
    page.click("#lang-switch")

    # Undo would take back a move this page never showed.
    view = play_api(server, view, "G4")
    page.click("#undo")
    expect(status).to_have_text("the game is at G4 now, not D4: it changed in another page")
    expect(cell(page, "G4")).to_have_text("4")
    expect(page.locator("#undos")).to_have_text("0")

    # A hint would be for a position this page never showed.
    view = play_api(server, view, view["legal"][0])
    page.click("#hint")
    expect(status).to_have_text(
        f"the game is at {view['current']} now, not G4: it changed in another page"
    )
    expect(page.locator("#count")).to_have_text("5")
    expect(page.locator("#board .cell.hint")).to_have_count(0)
    expect(page.locator("#hints")).to_have_text("0")
    server_view = httpx.get(f"{server.url}/api/tour/games/{game['id']}").json()
    assert server_view["moves"] == ["A1", "D1", "D4", "G4", view["current"]]
    assert (server_view["undos"], server_view["hints"]) == (0, 0)
    assert page.js_errors == []


def test_a_page_whose_cell_was_reached_another_way_is_caught_by_its_turn(server, page):
    game = httpx.post(f"{server.url}/api/tour/games", json={"kind": "free", "start": "A1"}).json()
    view = play_api(server, game, "A4", "D4")
    page.goto(f"{server.url}/tour?game={game['id']}")
    expect(cell(page, "A4")).to_have_text("2")

    # Another tab takes both moves back and reaches D4 through D1: A4 is empty again there.
    with httpx.Client(base_url=server.url) as client:
        for last in ("D4", "A4"):
            view = client.post(f"/api/tour/games/{game['id']}/undo", json={"cell": last}).json()
    view = play_api(server, view, "D1", "D4")
    page.click("#hint")
    status = page.locator("#status")
    # (The refusal names turns, which the page does not show: it says what the player sees.)
    said = "This game changed in another tab: the board now shows it as it is there."
    expect(status).to_have_text(said)
    expect(status).to_have_attribute("data-kind", "error")
    expect(cell(page, "D1")).to_have_text("2")  # the game loaded again
    expect(cell(page, "A4")).to_have_text("")
    expect(page.locator("#undos")).to_have_text("2")
    page.click("#lang-switch")
    expect(status).to_have_text(
        "Bu oyun başka bir sekmede değişti: tahta şimdi oradaki hâlini gösteriyor."
    )
    server_view = httpx.get(f"{server.url}/api/tour/games/{game['id']}").json()
    assert (server_view["moves"], server_view["hints"]) == (["A1", "D1", "D4"], 0)
    assert page.js_errors == []


def test_the_focus_follows_the_panels(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.click("#daily")
    puzzle = tour.daily_puzzle(tour.today_in_turkey())
    expect(cell(page, puzzle.start_name)).to_be_focused()  # the setup card went away
    page.keyboard.press("Tab")  # one tab stop for the grid: out to the hint
    expect(page.locator("#hint")).to_be_focused()

    page.click("#new")
    expect(page.locator("#setup")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#daily")).to_be_focused()
    page.locator("#random").focus()
    page.keyboard.press("Enter")
    start = page.locator("#board .cell.current")
    expect(start).to_have_text("1")
    expect(start).to_be_focused()

    # Undo back at the start disables the button under the focus: it goes to the board.
    name = start.get_attribute("data-cell")
    page.locator("#board .cell.legal").first.click()
    expect(page.locator("#count")).to_have_text("2")
    page.click("#undo")
    expect(page.locator("#undo")).to_be_disabled()
    expect(cell(page, name)).to_be_focused()
    assert page.js_errors == []


def test_the_end_is_announced_and_the_board_has_rows(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    board = page.locator("#board")
    rows = board.locator(":scope > [role=row]")
    expect(rows).to_have_count(11)  # the column letters, then ten rows of cells
    assert rows.evaluate_all("rows => rows.map(row => row.children.length)") == [11] * 11
    expect(rows.first.locator("[role=columnheader]")).to_have_count(11)
    expect(rows.nth(1).locator("[role=rowheader]")).to_have_text("1")
    expect(rows.nth(1).locator("[role=gridcell]")).to_have_count(10)
    expect(board.locator(":scope > :not([role=row])")).to_have_count(0)
    # Chromium's own accessibility tree, not only the attributes: ten rows of cells.
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    roles = [node.get("role", {}).get("value") for node in tree]
    assert roles.count("row") == 11 and roles.count("gridcell") == 100
    assert board.bounding_box()["width"] > 10 * cell(page, "A1").bounding_box()["width"]

    # each click waits for the one before it to land: a click while one is on its way is dropped
    for name in ("A1", "A4", "A7", "D7", "D10", "F8", "C8", "A10"):  # no jump left from A10
        cell(page, name).click()
        expect(cell(page, name)).to_have_class(re.compile(r"\bcurrent\b"))
    status = page.locator("#status")
    expect(status).to_have_text("Game over: no jump is left. You filled 8 of 100 cells.")
    expect(status).to_have_attribute("role", "status")
    # A screen reader hears which filled cell is the current one, and only that one.
    expect(cell(page, "A10")).to_have_attribute("aria-label", "A10: 8, current cell")
    expect(cell(page, "C8")).to_have_attribute("aria-label", "C8: 7")
    page.click("#lang-switch")
    expect(status).to_have_text(
        "Oyun bitti: sıçrayacak kare kalmadı. 100 karenin 8 tanesini doldurdun."
    )
    expect(cell(page, "A10")).to_have_attribute("aria-label", "A10: 8, bulunduğun kare")
    assert page.js_errors == []


# A position where the hint is the mean of the engine's games (44.36… cells after A7).
MONTE_CARLO = tour.Position(
    tour.GRID.parse_cells("G9 D9 F7 C7 C4 E2 E5 B5 D3 D6 F8 I8 G10 E8 C10 F10 D8 G8 E10 C8 A10")
)


def test_a_mean_is_written_with_a_decimal_comma_in_turkish(server, page):
    expected = tour.hint(MONTE_CARLO, "hint")
    assert not expected.exact and f"{expected.value:.1f}" == "44.4"
    names = [tour.GRID.name(c) for c in MONTE_CARLO.path]
    start = {"kind": "free", "start": names[0]}
    game = httpx.post(f"{server.url}/api/tour/games", json=start).json()
    play_api(server, game, *names[1:])
    page.goto(f"{server.url}/tour?game={game['id']}")
    expect(page.locator("#count")).to_have_text(str(MONTE_CARLO.count))
    page.click("#hint")
    status = page.locator("#status")
    expect(status).to_have_text(
        f"Try {expected.move_name}: the engine's games from there end with 44.4 cells filled "
        "on average."
    )
    page.click("#lang-switch")
    expect(status).to_contain_text("ortalama 44,4 dolu kareyle bitiyor")
    assert page.js_errors == []


def test_the_current_page_link_stays_in_view_after_a_language_switch(server, phone):
    phone.goto(server.url + "/tour")
    expect(phone.locator("#daily-info")).not_to_be_empty()
    in_view = """() => {
        const nav = document.querySelector("#top nav");
        const link = nav.querySelector("[aria-current]").getBoundingClientRect();
        const box = nav.getBoundingClientRect();
        return link.left >= box.left - 1 && link.right <= box.right + 1;
    }"""
    assert phone.evaluate(in_view)
    for text in ("English", "Türkçe"):
        phone.click("#lang-switch")
        expect(phone.locator("#lang-switch")).to_have_text(text)
        assert phone.evaluate(in_view), text
    assert phone.js_errors == []


def test_a_touch_screen_is_told_to_copy_from_its_menu_not_with_keys(server, touch_phone):
    """Without a clipboard (a site reached over plain HTTP on a phone) the line is selected;
    a phone with no keyboard was told to press Ctrl+C."""
    view = finished_by_hints(server, "J10")
    touch_phone.goto(f"{server.url}/tour?game={view['id']}")
    expect(touch_phone.locator("#share")).to_have_text(view["summary"]["share"]["en"])
    touch_phone.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    touch_phone.click("#copy")
    copy_said = touch_phone.locator("#copy-said")
    expect(copy_said).to_have_text("Selected: copy it from the menu your device shows for it.")
    expect(copy_said).to_be_in_viewport()  # (the status line is scrolled out of sight)
    before = touch_phone.locator("#status").text_content()
    touch_phone.locator("#board .cell").first.click()  # the game is over: nothing is sent
    touch_phone.wait_for_timeout(300)
    expect(touch_phone.locator("#status")).to_have_text(before)
    expect(touch_phone.locator("#status")).not_to_have_attribute("data-kind", "error")
    touch_phone.click("#lang-switch")
    expect(copy_said).to_have_text("Seçildi: cihazının gösterdiği menüden kopyala.")
    assert touch_phone.js_errors == []
