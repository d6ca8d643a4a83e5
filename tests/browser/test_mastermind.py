"""Mastermind in a real browser: a codebreaker game won with "suggest", a codemaker game
answered for a secret the test holds (one answer contradicting the others), reloads,
the phone layout; double clicks, answers arriving after a new game, messages following a
change of language, and a move refused because the game ended elsewhere."""

import re
from urllib.parse import urlparse

import httpx2 as httpx
from playwright.sync_api import expect

import hamle.mastermind as mm

CLASSIC = mm.Variant.classic()


def open_page(page, server):
    page.goto(server.url + "/mastermind")
    expect(page.locator("#variant option")).to_have_count(4)


def rows(page, mode):
    return page.locator(f"#{mode}-rows li")


def test_codebreaker_types_a_guess_then_wins_with_suggestions(server, page, screenshot):
    open_page(page, server)
    expect(page.get_by_role("button", name="You break the code")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.get_by_role("button", name="New game").click()
    expect(page).to_have_url(re.compile(r"/mastermind\?game=[A-Za-z0-9_-]{20,}$"))
    expect(page.get_by_role("heading", name="Guess #1")).to_be_visible()
    # Keyboard: digits fill the pegs, Backspace clears one.
    page.get_by_role("button", name="Peg 1: empty").focus()
    page.keyboard.type("1239")  # 9 is not a colour of the classic game: ignored
    page.keyboard.press("Backspace")
    page.keyboard.type("34")
    expect(page.locator("#slots")).to_have_attribute("data-code", "1234")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(rows(page, "breaker")).to_have_count(1)
    expect(rows(page, "breaker").first).to_have_attribute("data-guess", "1234")
    expect(rows(page, "breaker").first.locator(".answer")).to_have_text(
        re.compile(r"^\d black, \d white$")
    )
    # A row reads as one sentence (its pegs, numbered and coloured, are for the eye).
    heard = page.locator("#breaker-rows").aria_snapshot()
    assert re.search(r"- listitem: \"Guess 1: 1234, \d black, \d white\.\"$", heard), heard
    page.get_by_role("button", name="Candidates left").click()
    expect(page.locator("#candidates")).to_have_text(re.compile(r"codes? left: \d{4}"))
    # Colour buttons: pick peg 2, then colour 6.
    page.get_by_role("button", name=re.compile("^Peg 2")).click()
    page.get_by_role("button", name="colour 6", exact=True).click()
    expect(page.get_by_role("button", name="Peg 2: colour 6")).to_be_visible()
    for turn in range(2, 9):
        page.get_by_role("button", name="Suggest").click()
        expect(page.locator("#slots")).to_have_attribute("data-code", re.compile(r"^[1-6]{4}$"))
        suggested = page.locator("#slots").get_attribute("data-code")
        expect(page.get_by_role("status")).to_have_text(f"Minimax (Knuth) suggests {suggested}.")
        page.get_by_role("button", name="Guess", exact=True).click()
        expect(rows(page, "breaker")).to_have_count(turn)
        if rows(page, "breaker").last.get_attribute("data-black") == "4":
            break
    expect(page.get_by_role("status")).to_have_text(f"Solved in {turn} guesses!")
    expect(page.locator("#secret .peg")).to_have_count(4)
    expect(page.locator("#compose")).to_be_hidden()
    screenshot(page, "mastermind-breaker-laptop")
    page.reload()
    expect(rows(page, "breaker")).to_have_count(turn)
    expect(page.get_by_role("status")).to_have_text(f"Solved in {turn} guesses!")
    assert page.js_errors == []


def contradicting(turns, guess):
    """An answer to ``guess`` that no secret gives together with ``turns``, if any."""
    history = mm.History(CLASSIC, tuple(turns))
    for black in range(5):
        for white in range(5 - black):
            try:
                history.then(guess, CLASSIC.answer(black, white)).candidates()
            except mm.InconsistentError:
                return black, white
            except mm.AnswerError:
                continue
    return None


def answer(page, black, white):
    page.select_option("#black", str(black))
    page.select_option("#white", str(white))
    page.get_by_role("button", name="Answer", exact=True).click()


def test_codemaker_breaks_a_code_and_explains_a_contradiction(server, page, screenshot):
    secret = CLASSIC.parse("4516")
    open_page(page, server)
    page.get_by_role("button", name="The computer breaks yours").click()
    page.select_option("#strategy", "expected-size")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="The computer's guess #1")).to_be_visible()
    expect(page.locator("#left")).to_have_text("1,296 codes still fit your answers.")
    turns = []
    contradicted = False
    for turn in range(1, 9):
        expect(page.get_by_role("heading", name=f"The computer's guess #{turn}")).to_be_visible()
        guess = CLASSIC.parse(page.locator("#proposal").get_attribute("data-code"))
        wrong = contradicting(turns, guess) if turns and not contradicted else None
        if wrong:
            answer(page, *wrong)
            expect(page.get_by_role("status")).to_have_text(
                re.compile(r"^Answer not recorded: no secret gives all these answers: #1 ")
            )
            expect(rows(page, "maker")).to_have_count(turn - 1)
            screenshot(page, "mastermind-maker-conflict")
            contradicted = True
        black, white = mm.score(CLASSIC, secret, guess)
        answer(page, black, white)
        turns.append((guess, CLASSIC.answer(black, white)))
        expect(rows(page, "maker")).to_have_count(turn)
        if black == 4:
            break
    assert contradicted
    expect(page.get_by_role("status")).to_have_text(
        f"The computer found your code 4516 in {turn} guesses."
    )
    expect(page.locator("#proposal-box")).to_be_hidden()
    screenshot(page, "mastermind-maker-laptop")
    # Undo takes back the winning answer; the reload keeps the game.
    page.get_by_role("button", name="Undo the last answer").click()
    expect(rows(page, "maker")).to_have_count(turn - 1)
    page.reload()
    expect(page.get_by_role("heading", name=f"The computer's guess #{turn}")).to_be_visible()
    expect(page.locator("#proposal")).to_have_attribute("data-code", "4516")
    assert page.js_errors == []


def test_a_codemaker_game_names_the_codes_left_once_few_are(server, page):
    open_page(page, server)
    page.get_by_role("button", name="The computer breaks yours").click()
    page.get_by_role("button", name="New game").click()
    for turn, left in ((2, "256 codes still fit your answers."), (3, None)):
        answer(page, 0, 0)  # 1122, then 3345: no 1 to 5, so 6666
        expect(page.get_by_role("heading", name=f"The computer's guess #{turn}")).to_be_visible()
        if left:
            expect(page.locator("#left")).to_have_text(left)
    expect(page.locator("#left")).to_have_text("Only 1 code still fits your answers: 6666.")
    page.click("#lang-switch")
    expect(page.locator("#left")).to_have_text("Yanıtlarına uyan tek bir kod kaldı: 6666.")
    assert page.js_errors == []


def test_mastermind_fits_a_phone_and_speaks_turkish(server, phone, screenshot):
    open_page(phone, server)
    phone.select_option("#variant", "super")
    expect(phone.locator("#strategy")).to_have_value("minimax-candidates")
    phone.get_by_role("button", name="New game").click()
    phone.get_by_role("button", name="Suggest").click()
    expect(phone.locator("#slots")).to_have_attribute("data-code", re.compile(r"^[1-8]{5}$"))
    phone.get_by_role("button", name="Guess", exact=True).click()
    expect(rows(phone, "breaker")).to_have_count(1)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "mastermind-breaker-phone")
    phone.click("#lang-switch")
    expect(phone.get_by_role("button", name="Kodu sen kır")).to_be_visible()
    expect(phone.get_by_role("heading", name="2. tahmin")).to_be_visible()
    phone.get_by_role("button", name="Pes et").click()
    expect(phone.get_by_role("status")).to_have_text(
        re.compile(r"^Pes ettin\. Gizli kod \d{5} idi\.$")
    )
    phone.click("#lang-switch")
    phone.get_by_role("button", name="The computer breaks yours").click()
    phone.select_option("#variant", "classic")
    phone.get_by_role("button", name="New game").click()
    expect(phone.locator("#proposal")).to_have_attribute("data-code", "1122")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "mastermind-maker-phone")
    assert phone.js_errors == []


def test_an_unknown_game_in_the_url_says_so(server, page):
    page.goto(server.url + "/mastermind?game=" + "A" * 22)
    expect(page.get_by_role("status")).to_have_text("That game was not found; start a new one.")
    expect(page).to_have_url(server.url + "/mastermind")
    assert page.js_errors == []


def test_a_game_in_progress_is_there_again_after_the_home_page(server, page):
    open_page(page, server)
    page.get_by_role("button", name="New game").click()
    expect(page).to_have_url(re.compile(r"\?game="))
    game = page.url.split("?game=")[1]
    page.get_by_role("button", name="Peg 1: empty").focus()
    page.keyboard.type("1122")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(rows(page, "breaker")).to_have_count(1)
    page.goto(server.url + "/")
    page.goto(server.url + "/mastermind")
    expect(rows(page, "breaker")).to_have_count(1)
    expect(rows(page, "breaker").first).to_have_attribute("data-guess", "1122")
    assert page.url.endswith(f"?game={game}") and page.js_errors == []


def test_digits_typed_anywhere_on_the_page_fill_the_guess(server, page):
    open_page(page, server)
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="Guess #1")).to_be_visible()
    page.locator("h1").click()  # the guess card does not have the focus
    page.keyboard.type("6543")
    expect(page.locator("#slots")).to_have_attribute("data-code", "6543")
    page.keyboard.press("Backspace")
    expect(page.get_by_role("button", name="Peg 4: empty")).to_be_visible()
    assert page.js_errors == []


def test_a_code_typed_after_a_refused_one_is_a_new_guess_and_enter_sends_it(server, page):
    """With every peg full, a digit wrote over the last peg: after a refused guess the
    same guess went again. Enter sends a full guess; filling the pegs ends "fill first"."""
    open_page(page, server)
    page.locator("#variant").select_option("bulls-and-cows")
    page.get_by_role("button", name="New game").click()
    status = page.get_by_role("status")
    expect(status).to_have_text("Type or pick 4 digits, then press Guess (or Enter).")
    # Bulls and Cows is played with digits, not colours.
    expect(page.get_by_role("group", name="Digits")).to_be_visible()
    expect(page.get_by_role("button", name="digit 0", exact=True)).to_be_visible()
    expect(page.locator("#compose-help")).to_contain_text("Pick a peg, then a digit")
    playing = "This game: Bulls and Cows: 4 digits 0–9, no repeats; Suggest uses Minimax (Knuth)."
    expect(page.locator("#playing")).to_have_text(playing)
    page.locator("#variant").select_option("classic")  # a choice for the next game
    expect(page.locator("#playing")).to_have_text(playing)
    page.locator("h1").click()
    page.keyboard.press("Enter")
    expect(status).to_have_text("Fill all 4 pegs first.")
    page.keyboard.type("1123")
    expect(status).to_have_text("Type or pick 4 digits, then press Guess (or Enter).")
    page.keyboard.press("Enter")
    expect(status).to_contain_text("repeat")  # bulls and cows: no colour twice
    page.keyboard.type("0123")
    expect(page.locator("#slots")).to_have_attribute("data-code", "0123")
    page.keyboard.press("Enter")
    expect(rows(page, "breaker")).to_have_count(1)
    expect(rows(page, "breaker").first).to_have_attribute("data-guess", "0123")
    page.keyboard.type("4567")
    page.get_by_role("button", name=re.compile("^Peg 2")).click()  # a peg clicked: changed alone
    page.keyboard.type("8")
    expect(page.locator("#slots")).to_have_attribute("data-code", "4867")
    page.keyboard.press("Backspace")  # the pegs are full: the last one
    expect(page.get_by_role("button", name="Peg 4: empty")).to_be_visible()
    assert page.js_errors == []


def test_enter_after_picking_colours_with_the_mouse_sends_the_guess(server, page):
    """The focus stayed on the last colour clicked: Enter pressed it again, which, with
    every peg full, started a new guess and lost the one picked."""
    open_page(page, server)
    page.get_by_role("button", name="New game").click()
    for colour in "1234":
        page.get_by_role("button", name=f"colour {colour}", exact=True).click()
    page.keyboard.press("Enter")
    expect(rows(page, "breaker")).to_have_count(1)
    expect(rows(page, "breaker").first).to_have_attribute("data-guess", "1234")
    # The answer is said in the status line, which a screen reader announces.
    expect(page.get_by_role("status")).to_have_text(
        re.compile(r"^Guess 1: 1234, \d black, \d white\.$")
    )
    page.get_by_role("button", name="Candidates left").click()  # (disabled while asked)
    expect(page.get_by_role("button", name="Candidates left")).to_be_focused()
    assert page.js_errors == []


def test_enter_after_new_game_or_suggest_sends_the_code_not_the_button_again(server, page):
    """The focus stayed on New game (or Suggest): a code typed, then Enter, started
    another game (or asked for the suggestion again) instead of sending the guess."""
    open_page(page, server)
    starts = requests_to(page, "/api/mastermind/games")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="Guess #1")).to_be_visible()
    first = game_of(page)
    expect(page.get_by_role("button", name="New game")).to_be_focused()
    page.keyboard.type("1122")
    page.keyboard.press("Enter")
    expect(rows(page, "breaker")).to_have_count(1)
    assert game_of(page) == first and len(starts) == 1
    suggestions = requests_to(page, "/suggest")
    page.get_by_role("button", name="Suggest").click()
    expect(page.get_by_role("status")).to_contain_text("suggests")
    suggested = page.locator("#slots").get_attribute("data-code")
    page.keyboard.press("Enter")
    expect(rows(page, "breaker")).to_have_count(2)
    expect(rows(page, "breaker").last).to_have_attribute("data-guess", suggested)
    assert len(suggestions) == 1 and turns_stored(server, first) == 2
    assert page.js_errors == []


def test_a_code_typed_over_a_suggestion_replaces_it_whole(server, page):
    new_breaker_game(page, server, guess="")
    page.get_by_role("button", name="Suggest").click()
    expect(page.locator("#slots")).to_have_attribute("data-code", "1122")
    page.keyboard.type("3456")
    expect(page.locator("#slots")).to_have_attribute("data-code", "3456")
    assert page.js_errors == []


def test_a_code_guessed_already_is_refused_and_costs_no_guess(server, page):
    new_breaker_game(page, server, guess="1234")
    page.keyboard.press("Enter")
    expect(rows(page, "breaker")).to_have_count(1)
    page.keyboard.type("1234")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text("1234 is guess 1 already")
    expect(rows(page, "breaker")).to_have_count(1)
    page.click("#lang-switch")
    expect(page.get_by_role("status")).to_have_text("1234 zaten 1. tahminin.")
    assert turns_stored(server, game_of(page)) == 1 and page.js_errors == []


def game_of(page):
    return page.url.split("?game=")[1]


def turns_stored(server, game):
    return len(httpx.get(f"{server.url}/api/mastermind/games/{game}").json()["turns"])


def requests_to(page, action):
    """The page's requests whose path ends with ``action``, as they are sent."""
    sent = []

    def seen(request):
        if urlparse(request.url).path.endswith(action):
            sent.append(request)

    page.on("request", seen)
    return sent


def new_breaker_game(page, server, guess="1122"):
    open_page(page, server)
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="Guess #1")).to_be_visible()
    page.locator("h1").click()
    page.keyboard.type(guess)


def test_a_double_click_on_guess_records_one_guess(server, page):
    new_breaker_game(page, server)
    sent = requests_to(page, "/guess")
    page.locator("#submit").dblclick()
    expect(rows(page, "breaker")).to_have_count(1)
    expect(page.locator("#submit")).to_be_enabled()
    for request in sent:
        request.response()  # the server has dealt with every guess sent
    assert len(sent) == 1
    assert turns_stored(server, game_of(page)) == 1
    assert page.js_errors == []


def test_a_double_click_on_undo_takes_back_one_answer(server, page):
    secret = CLASSIC.parse("3456")
    open_page(page, server)
    page.get_by_role("button", name="The computer breaks yours").click()
    page.get_by_role("button", name="New game").click()
    for turn in (1, 2):
        expect(page.get_by_role("heading", name=f"The computer's guess #{turn}")).to_be_visible()
        guess = CLASSIC.parse(page.locator("#proposal").get_attribute("data-code"))
        answer(page, *mm.score(CLASSIC, secret, guess))
    expect(rows(page, "maker")).to_have_count(2)
    sent = requests_to(page, "/undo")
    page.get_by_role("button", name="Undo the last answer").dblclick()
    expect(rows(page, "maker")).to_have_count(1)
    expect(page.get_by_role("button", name="Undo the last answer")).to_be_enabled()
    for request in sent:
        request.response()
    assert len(sent) == 1
    assert turns_stored(server, game_of(page)) == 1
    assert page.js_errors == []


def hold(page, action):
    """Keep the answers to requests to paths ending with ``action`` back; returns the held
    routes."""
    held = []
    page.route(re.compile(rf"/{action}(\?|$)"), lambda route: held.append(route))
    return held


def test_a_guess_answered_after_a_new_game_does_not_bring_the_old_one_back(server, page):
    new_breaker_game(page, server)
    old = game_of(page)
    held = hold(page, "guess")
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("#submit")).to_be_disabled()
    page.get_by_role("button", name="New game").click()
    expect(page).not_to_have_url(re.compile(old))
    new = game_of(page)
    assert len(held) == 1
    with page.expect_response("**/guess"):
        held[0].continue_()
    # A request sent after the late answer arrived: by its answer, the late one is dealt with.
    page.get_by_role("button", name="Candidates left").click()
    expect(page.locator("#candidates")).to_have_attribute("data-count", "1296")
    expect(rows(page, "breaker")).to_have_count(0)
    expect(page.get_by_role("heading", name="Guess #1")).to_be_visible()
    expect(page.locator("#submit")).to_be_enabled()
    assert page.url.endswith(f"?game={new}")
    assert page.evaluate("localStorage.getItem('hamle.mastermind.game')") == new
    assert turns_stored(server, old) == 1 and turns_stored(server, new) == 0
    assert page.js_errors == []


def test_a_suggestion_answered_after_a_new_super_game_leaves_its_pegs_empty(server, page):
    new_breaker_game(page, server, guess="")
    held = hold(page, "suggest")
    page.get_by_role("button", name="Suggest").click()
    page.select_option("#variant", "super")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#slots .slot")).to_have_count(5)
    with page.expect_response(re.compile(r"/suggest\?")):
        held[0].continue_()
    page.get_by_role("button", name="Candidates left").click()
    expect(page.locator("#candidates")).to_have_attribute("data-count", str(8**5))
    expect(page.locator("#slots .slot.empty")).to_have_count(5)
    expect(page.get_by_role("status")).to_have_text(
        "Type or pick 5 colours, then press Guess (or Enter)."  # (not the old suggestion)
    )
    assert page.js_errors == []


def test_a_switch_of_language_translates_the_error_and_the_candidates(server, page):
    new_breaker_game(page, server)
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(rows(page, "breaker")).to_have_count(1)  # (a click while it is on its way is dropped)
    page.get_by_role("button", name="Candidates left").click()
    expect(page.locator("#candidates")).to_have_text(re.compile(r"^\d+ codes left: \d{4}"))
    page.get_by_role("button", name="Guess", exact=True).click()  # no peg filled
    expect(page.get_by_role("status")).to_have_text("Fill all 4 pegs first.")
    page.click("#lang-switch")
    expect(page.get_by_role("status")).to_have_text("Önce 4 pimin hepsini doldur.")
    expect(page.locator("#candidates")).to_have_text(re.compile(r"^Kalan \d+ kod: \d{4}"))
    assert page.js_errors == []


def test_a_move_refused_as_the_game_ended_elsewhere_shows_the_end(server, page):
    new_breaker_game(page, server)
    httpx.post(f"{server.url}/api/mastermind/games/{game_of(page)}/give-up").raise_for_status()
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("this game is over; start a new one")
    expect(page.locator("#secret .peg")).to_have_count(4)
    expect(page.locator("#compose")).to_be_hidden()
    page.click("#lang-switch")
    expect(page.get_by_role("status")).to_have_text("Bu oyun bitti; yeni bir oyun başlat.")
    page.click("#lang-switch")
    expect(page.get_by_role("status")).to_have_text("this game is over; start a new one")
    assert page.js_errors == []


STORE_FAILED = {
    "detail": "the game store failed: disk I/O error",
    "code": "site.store_failed",
    "params": {},
}


def test_a_game_the_server_fails_to_load_is_kept_and_a_reload_resumes_it(server, page):
    new_breaker_game(page, server)
    game = game_of(page)
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(rows(page, "breaker")).to_have_count(1)
    status = page.get_by_role("status")
    failures = {
        "503": lambda route: route.fulfill(status=503, json=STORE_FAILED),
        "no answer": lambda route: route.abort(),
    }
    for failure, fail in failures.items():
        page.route(f"**/api/mastermind/games/{game}", fail)
        page.reload()
        cause = (
            "the game store failed: disk I/O error"
            if failure == "503"
            else "The server did not answer. Is it running?"
        )
        expect(status).to_have_text(
            f"The game could not be loaded ({cause}); reload the page to try again."
        )
        assert page.url.endswith(f"?game={game}"), failure
        assert page.evaluate("localStorage.getItem('hamle.mastermind.game')") == game
        page.unroute(f"**/api/mastermind/games/{game}")
    page.click("#lang-switch")
    expect(status).to_have_text(
        "Oyun açılamadı (Sunucu yanıt vermedi. Çalışıyor mu?); yeniden denemek için sayfayı yenile."
    )
    page.click("#lang-switch")
    page.reload()
    expect(rows(page, "breaker")).to_have_count(1)
    expect(rows(page, "breaker").first).to_have_attribute("data-guess", "1122")
    assert page.js_errors == []


def test_an_undo_from_a_page_another_tab_left_behind_is_refused_and_catches_up(server, page):
    secret = CLASSIC.parse("3456")
    open_page(page, server)
    page.get_by_role("button", name="The computer breaks yours").click()
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("heading", name="The computer's guess #1")).to_be_visible()
    guess = CLASSIC.parse(page.locator("#proposal").get_attribute("data-code"))
    answer(page, *mm.score(CLASSIC, secret, guess))
    expect(rows(page, "maker")).to_have_count(1)
    game = game_of(page)
    # Another tab answers the second guess: this page still shows one answer.
    with httpx.Client(base_url=server.url) as client:
        view = client.get(f"/api/mastermind/games/{game}").json()
        black, white = mm.score(CLASSIC, secret, CLASSIC.parse(view["proposal"]))
        body = {"guess": view["proposal"], "black": black, "white": white, "changes": 1}
        client.post(f"/api/mastermind/games/{game}/answer", json=body).raise_for_status()
    page.get_by_role("button", name="Undo the last answer").click()
    status = page.get_by_role("status")
    expect(status).to_have_text("the game changed in another page since change 1 (it is at 2)")
    expect(rows(page, "maker")).to_have_count(2)  # the game loaded again
    assert turns_stored(server, game) == 2
    page.click("#lang-switch")
    expect(status).to_have_text(
        "Oyun 1. değişiklikten beri başka bir sayfada değişti (şimdi 2. değişiklikte)."
    )
    page.click("#lang-switch")
    page.get_by_role("button", name="Undo the last answer").click()  # now it shows the game
    expect(rows(page, "maker")).to_have_count(1)
    expect(status).to_have_text("")
    assert turns_stored(server, game) == 1
    assert page.js_errors == []


def test_digits_do_nothing_once_key_shortcuts_are_off_until_turned_on_again(server, page):
    open_page(page, server)
    switch = page.locator("#keys-switch")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-i18n='mm.compose.help']")).to_have_text(
        "Pick a peg, then a colour. Backspace clears a peg."
    )
    page.reload()  # the choice is kept
    expect(page.locator("#keys-switch")).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="New game").click()
    page.locator("h1").click()
    page.keyboard.type("6543")
    expect(page.locator("#slots")).to_have_attribute("data-code", "")
    page.locator("#keys-switch").click()
    page.locator("h1").click()
    page.keyboard.type("6543")
    expect(page.locator("#slots")).to_have_attribute("data-code", "6543")
    assert page.js_errors == []


def test_a_suggestion_asked_from_a_page_left_behind_is_refused_and_catches_up(server, browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-US")
    first, second = context.new_page(), context.new_page()
    try:
        first.goto(server.url + "/mastermind")
        first.get_by_role("button", name="New game").click()
        expect(first.get_by_role("heading", name="Guess #1")).to_be_visible()
        second.goto(first.url)
        expect(second.get_by_role("heading", name="Guess #1")).to_be_visible()
        first.locator("h1").click()
        first.keyboard.type("1122")
        first.get_by_role("button", name="Guess", exact=True).click()
        expect(first.locator("#breaker-rows li")).to_have_count(1)
        second.get_by_role("button", name="Suggest").click()
        expect(second.get_by_role("status")).to_have_text(
            "the game changed in another page since change 0 (it is at 1)"
        )
        expect(second.locator("#breaker-rows li")).to_have_count(1)  # loaded again
        second.get_by_role("button", name="Suggest").click()
        expect(second.get_by_role("status")).to_have_text(re.compile(r"suggests \d{4}\.$"))
    finally:
        context.close()


def test_the_first_prompt_names_enter_once_a_key_is_pressed_mid_game(server, touch_phone):
    """On a touch screen the prompt names no key; a keyboard found while the game is under
    way (its first real key) brings Enter into the prompt at once, not with the next one."""
    page = touch_phone
    open_page(page, server)
    page.get_by_role("button", name="New game").tap()
    status = page.get_by_role("status").filter(has_text="colours")
    expect(status).to_have_text("Pick 4 colours, then press Guess.")
    page.get_by_role("button", name="Peg 2: empty").tap()
    page.get_by_role("button", name="colour 3", exact=True).tap()
    page.keyboard.press("4")  # the first key of a keyboard plugged in
    expect(status).to_have_text("Type or pick 4 colours, then press Guess (or Enter).")
    expect(page.get_by_role("button", name="Peg 3: colour 4")).to_be_visible()
