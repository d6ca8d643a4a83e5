"""The Yüz Yüze page in a real browser: the daily puzzle, hints, moves by click and by
keyboard, undo, a reload, a whole game to the summary, Turkish, and a phone screen."""

from __future__ import annotations

import datetime as dt
import re
from contextlib import contextmanager

import httpx2 as httpx
from playwright.sync_api import expect

import hamle.tour as tour


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
    expect(page.locator("#game-title")).to_have_text(f"Daily puzzle {puzzle.date.isoformat()}")
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
    expect(page.locator("#summary-text")).to_have_text("You filled 100 of 100 cells.")
    share = "Yüz Yüze free play A1 · 100/100 · 99 hints · best combo 99"
    expect(page.locator("#share")).to_have_text(share)
    expect(page.locator("#board .cell.legal")).to_have_count(0)
    expect(page.locator("#hint")).to_be_disabled()
    expect(page.locator("#undo")).to_be_disabled()  # a complete tour is not taken back
    page.click("#copy")
    expect(page.locator("#status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == share
    screenshot(page, "tour-summary-laptop")
    assert page.js_errors == []


def test_phone_turkish_and_a_finished_game_from_its_address(server, phone, screenshot):
    phone.goto(server.url + "/tour")
    expect(phone.locator("#daily-info")).not_to_be_empty()
    phone.click("#random")
    expect(phone.locator("#board .cell.current")).to_have_text("1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "tour-phone")

    # A game finished through the API, opened by its address on the phone, in Turkish.
    with httpx.Client(base_url=server.url) as client:
        view = client.post("/api/tour/games", json={"kind": "free", "start": "J10"}).json()
        game_id = view["id"]
        url = f"/api/tour/games/{game_id}"
        while not view["over"]:
            answer = client.post(url + "/hint", json={"mode": "quick"}).json()
            view = client.post(url + "/moves", json={"cell": answer["cell"]}).json()
    phone.goto(f"{server.url}/tour?game={game_id}")
    expect(phone.locator("#share")).to_have_text(view["summary"]["share"]["en"])
    phone.click("#lang-switch")
    expect(phone.locator("#share")).to_have_text(view["summary"]["share"]["tr"])
    expect(phone.locator("#summary-title")).to_have_text("Tam tur!")
    expect(phone.locator("#summary-text")).to_have_text("100 karenin 100 tanesini doldurdun.")
    expect(phone.locator("#game-title")).to_have_text("J10 karesinden serbest oyun")
    expect(phone.locator("#hint")).to_have_text("İpucu")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "tour-summary-phone")
    # Without a clipboard the copy button selects the line for the player to copy.
    phone.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    phone.click("#copy")
    expect(phone.locator("#status")).to_contain_text("Ctrl+C")
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
    expect(page.locator("#daily-info")).to_contain_text(f"{yesterday.date}, today in Turkey")
    page.click("#daily")
    expect(page.locator("#game-title")).to_have_text(f"Daily puzzle {today.isoformat()}")
    expect(page.locator("#daily-info")).to_contain_text(f"{today.isoformat()}, today in Turkey")
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
    expect(other.locator("#status")).to_have_text("D1 is already filled")
    expect(cell(other, "D1")).to_have_text("2")
    expect(cell(other, "D1")).not_to_have_class(re.compile(r"\blegal\b"))
    expect(other.locator("#count")).to_have_text("2")
    expect(other.locator("#undo")).to_be_enabled()
    expect(other.locator("#status")).to_have_text("D1 is already filled")
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


def test_a_server_that_does_not_answer_is_said_in_the_language_chosen_after(server, page):
    page.goto(server.url + "/tour")
    expect(page.locator("#daily-info")).not_to_be_empty()
    page.route("**/api/tour/games", lambda route: route.abort())
    cell(page, "A1").click()
    status = page.locator("#status")
    expect(status).to_have_text("The server did not answer. Is it running?")
    page.click("#lang-switch")
    expect(status).to_have_text("Sunucu yanıt vermedi. Çalışıyor mu?")
