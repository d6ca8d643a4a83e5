"""The density lab in a real browser: seed 000's numbers by clicking, the tools, the
keyboard, sunk ships and the afloat list, errors, and the phone layout."""

import re

from playwright.sync_api import expect

import hamle.battleship as bs

SEED_EMPTY = "E5, F5, E6, and F6 · d = 34"
SEED_ONE_HIT = "F5 and E6 · d = 442"


def open_lab(page, server):
    page.goto(server.url + "/battleship/lab")
    expect(page.locator("#best")).to_have_text(SEED_EMPTY)


def cell(page, name):
    return page.locator(f"#board [data-cell='{name}']")


def test_seed_values_by_clicking_and_they_survive_a_reload(server, page, screenshot):
    open_lab(page, server)
    expect(page.locator("#weight")).to_have_text("w = 35")
    expect(page.locator("#focus")).to_have_text("A1 · d = 10")
    page.get_by_role("button", name="Hit", exact=True).click()
    expect(page.get_by_role("button", name="Hit", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    cell(page, "E5").click()
    expect(page.locator("#best")).to_have_text(SEED_ONE_HIT)
    expect(cell(page, "E5")).to_have_class(re.compile(r"\bhit\b"))
    for name in ("F5", "E6"):
        expect(cell(page, name)).to_have_class(re.compile(r"\bbest\b"))
    expect(cell(page, "E4")).not_to_have_class(re.compile(r"\bbest\b"))
    # The focused cell's d, written in base w as the seed does.
    page.keyboard.press("ArrowUp")
    expect(page.locator("#focus")).to_have_text("E4 · d = 441 = 12 · 35 + 21")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#focus")).to_have_text("F4 · d = 33")
    screenshot(page, "lab-laptop")
    page.reload()
    expect(page.locator("#best")).to_have_text(SEED_ONE_HIT)
    expect(cell(page, "E5")).to_have_class(re.compile(r"\bhit\b"))
    page.get_by_role("button", name="Reset the board").click()
    expect(page.locator("#best")).to_have_text(SEED_EMPTY)
    assert page.js_errors == []


def test_marking_again_with_the_same_tool_removes_the_mark(server, page):
    open_lab(page, server)
    cell(page, "A1").click()
    expect(cell(page, "A1")).to_have_class(re.compile(r"\bmiss\b"))
    expect(page.locator("#focus")).to_have_text("A1 · miss")
    expect(cell(page, "B1")).to_have_attribute("aria-label", "B1 · d = 10")
    cell(page, "A1").click()
    expect(cell(page, "A1")).not_to_have_class(re.compile(r"\bmiss\b"))
    expect(page.locator("#focus")).to_have_text("A1 · d = 10")
    expect(cell(page, "B1")).to_have_attribute("aria-label", "B1 · d = 15")
    # Another tool replaces the mark; Erase removes it.
    cell(page, "C3").click()
    page.get_by_role("button", name="Hit", exact=True).click()
    cell(page, "C3").click()
    expect(cell(page, "C3")).to_have_class(re.compile(r"\bhit\b"))
    expect(cell(page, "C3")).not_to_have_class(re.compile(r"\bmiss\b"))
    page.get_by_role("button", name="Erase").click()
    cell(page, "C3").click()
    expect(cell(page, "C3")).to_have_attribute("aria-label", "C3 · d = 28")
    expect(page.locator("#best")).to_have_text(SEED_EMPTY)
    assert page.js_errors == []


def test_a_tap_that_gives_no_focus_still_shows_the_cell_marked(server, page):
    open_lab(page, server)
    cell(page, "C3").evaluate("el => el.click()")  # as on iOS, where a tap focuses no button
    expect(cell(page, "C3")).to_have_class(re.compile(r"\bmiss\b"))
    expect(page.locator("#focus")).to_have_text("C3 · miss")


def test_keyboard_moves_with_arrows_and_marks_with_enter_and_space(server, page):
    open_lab(page, server)
    page.get_by_role("button", name="Hit", exact=True).click()
    cell(page, "A1").focus()
    for key in ["ArrowRight"] * 4 + ["ArrowDown"] * 4:
        page.keyboard.press(key)
    expect(cell(page, "E5")).to_be_focused()
    page.keyboard.press("Enter")
    expect(cell(page, "E5")).to_have_class(re.compile(r"\bhit\b"))
    marked = page.locator("#marked")  # (a live region: a screen reader says the new mark)
    expect(marked).to_have_text("E5: hit")
    expect(marked).to_have_attribute("aria-live", "polite")
    expect(page.locator("#best")).to_have_text(SEED_ONE_HIT)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#focus")).to_have_text("F5 · d = 442 = 12 · 35 + 22")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    expect(cell(page, "E5")).not_to_have_class(re.compile(r"\bhit\b"))
    expect(marked).to_have_text("E5: not marked")
    expect(page.locator("#best")).to_have_text(SEED_EMPTY)
    assert page.js_errors == []


def test_contradictory_marks_show_the_engine_text(server, page):
    open_lab(page, server)
    status = page.get_by_role("status")
    page.get_by_role("button", name="Sunk", exact=True).click()
    cell(page, "A1").click()
    expect(status).to_have_text("sunk ship A1 has length 1; no ship in the fleet has it")
    expect(page.locator("#best")).to_have_text("—")
    cell(page, "A1").click()
    expect(status).to_have_text("")
    expect(page.locator("#best")).to_have_text(SEED_EMPTY)
    # A hit with every ship removed from the afloat list.
    for _ in range(5):
        page.get_by_role("button", name=re.compile(r"^Remove ")).first.click()
    expect(page.locator("#ships-heading")).to_have_text("Ships afloat (0 of 5)")
    expect(page.locator("#best")).to_have_text("no ship afloat")
    page.get_by_role("button", name="Hit", exact=True).click()
    cell(page, "E5").click()
    expect(status).to_have_text("hit at E5, but no ship is afloat to explain it")
    assert page.js_errors == []


def test_sunk_cells_form_ships_that_leave_the_afloat_list(server, page):
    open_lab(page, server)
    page.get_by_role("button", name="Sunk", exact=True).click()
    cell(page, "A1").click()
    cell(page, "A2").click()
    expect(page.locator("#weight")).to_have_text("w = 31")
    ships = page.locator("#ships li")
    expect(ships.nth(4)).to_contain_text("sunk at A1–A2")
    expect(page.locator("#ships-heading")).to_have_text("Ships afloat (4 of 5)")
    # A touching ship: B1 does not continue the line A1-A2, so it starts a new ship.
    for name in ("B1", "B2", "B3"):
        cell(page, name).click()
    expect(ships.nth(2)).to_contain_text("sunk at B1–B3")
    expect(page.locator("#weight")).to_have_text("w = 25")
    # Removing the carrier from the list (sunk somewhere unmarked), then putting it back.
    page.get_by_role("button", name="Remove Carrier from the ships afloat").click()
    expect(page.locator("#weight")).to_have_text("w = 15")
    expect(ships.nth(0)).to_contain_text("removed")
    restore = page.get_by_role("button", name="Put Carrier back afloat")
    expect(restore).to_be_focused()  # (the list is drawn anew: the focus stays with the ship)
    page.keyboard.press("Enter")
    expect(page.locator("#weight")).to_have_text("w = 25")
    expect(page.get_by_role("button", name="Remove Carrier from the ships afloat")).to_be_focused()
    # Erasing the middle of the cruiser splits it; the engine names the problem.
    page.get_by_role("button", name="Erase").click()
    cell(page, "B2").click()
    expect(page.get_by_role("status")).to_contain_text("no ship in the fleet has it")
    assert page.js_errors == []


def test_two_sunk_ships_may_lie_end_to_end(server, page):
    """The destroyer F1-G1 joined the carrier A1-E1 into a ship of seven: a classic
    position the lab could not take."""
    open_lab(page, server)
    page.get_by_role("button", name="Sunk", exact=True).click()
    for name in ("A1", "B1", "C1", "D1", "E1", "F1", "G1"):
        cell(page, name).click()  # (past the longest ship, a cell starts a new one)
    ships = page.locator("#ships li")
    expect(ships.nth(0)).to_contain_text("sunk at A1–E1")
    expect(ships.nth(4)).to_contain_text("sunk at F1–G1")
    # Shift starts a new ship beside one however short: a cruiser, then the battleship.
    for name in ("A3", "B3", "C3"):
        cell(page, name).click()
    cell(page, "D3").click(modifiers=["Shift"])
    for name in ("E3", "F3", "G3"):
        cell(page, name).click()
    expect(ships.nth(2)).to_contain_text("sunk at A3–C3")
    expect(ships.nth(1)).to_contain_text("sunk at D3–G3")
    expect(page.locator("#ships-heading")).to_have_text("Ships afloat (1 of 5)")
    # On a touch screen: "New sunk ship" starts one, and Sunk goes on with it.
    for name in ("A5", "B5", "C5"):
        cell(page, name).click()
    page.get_by_role("button", name="New sunk ship").click()
    cell(page, "D5").click()
    expect(page.get_by_role("button", name="Sunk", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    for name in ("E5", "F5"):
        cell(page, name).click()
    expect(ships.nth(3)).to_contain_text("sunk at A5–C5")
    expect(page.get_by_role("status")).to_contain_text("too many sunk ships of length 3 (at D5)")
    expect(page.get_by_role("status")).not_to_contain_text("no ship in the fleet")
    assert page.js_errors == []


def test_a_ship_started_apart_is_not_bridged_to_its_neighbour(server, page):
    open_lab(page, server)
    page.get_by_role("button", name="Sunk", exact=True).click()
    for name in ("A1", "A2", "A3"):
        cell(page, name).click()
    page.get_by_role("button", name="New sunk ship").click()
    cell(page, "A5").click()
    cell(page, "A4").click()  # (between the two: it goes on with the ship started apart)
    ships = page.locator("#ships li")
    expect(ships.nth(2)).to_contain_text("sunk at A1–A3")
    expect(ships.nth(4)).to_contain_text("sunk at A4–A5")
    assert page.js_errors == []


def test_russian_rules_show_water_around_a_sunk_ship(server, page):
    open_lab(page, server)
    page.select_option("#rules", "russian")
    expect(page.locator("#weight")).to_have_text("w = 41")
    page.get_by_role("button", name="Sunk", exact=True).click()
    cell(page, "A1").click()
    expect(page.locator("#weight")).to_have_text("w = 39")
    for name in ("A2", "B1", "B2"):
        expect(cell(page, name)).to_have_class(re.compile(r"\bwater\b"))
    expect(page.locator("#ships li").nth(6)).to_contain_text("sunk at A1")
    page.click("#lang-switch")  # one cell in Turkish: "karesinde", not "karelerinde"
    expect(page.locator("#ships li").nth(6)).to_contain_text("A1 karesinde battı")
    assert page.js_errors == []


def test_the_rule_choices_wait_for_the_lab_and_an_early_choice_is_kept(server, page):
    held = []
    page.route("**/api/battleship/lab/rules", lambda route: held.append(route))
    page.goto(server.url + "/battleship/lab")
    for _ in range(250):  # the held request reaches the handler within a few seconds
        if held:
            break
        page.wait_for_timeout(20)
    expect(page.locator("#rules")).to_be_disabled()  # no listener yet: a choice would be lost
    expect(page.locator("#exact")).to_be_disabled()
    held[0].continue_()
    page.select_option("#rules", "russian")
    expect(page.locator("#rules-detail")).to_have_text(
        "4, 3, 3, 2, 2, 2, 1, 1, 1, 1; ships may not touch"
    )
    expect(page.locator("#weight")).to_have_text("w = 41")
    assert page.js_errors == []


def test_lab_fits_a_phone_and_speaks_turkish(server, phone, screenshot):
    open_lab(phone, server)
    phone.get_by_role("button", name="Hit", exact=True).click()
    cell(phone, "E5").click()
    cell(phone, "F5").click()
    expect(phone.locator("#best")).to_have_text("D5 and G5 · d = 8771")
    phone.keyboard.press("ArrowLeft")
    phone.keyboard.press("ArrowLeft")
    expect(phone.locator("#focus")).to_have_text("D5 · d = 8771 = 7 · 35² + 5 · 35 + 21")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"]
    screenshot(phone, "lab-phone")
    phone.click("#lang-switch")
    expect(phone.get_by_role("heading", name="Yoğunluk laboratuvarı")).to_be_visible()
    expect(phone.locator("#best")).to_have_text("D5 ve G5 · d = 8771")
    expect(phone.get_by_role("button", name="İsabet")).to_have_attribute("aria-pressed", "true")
    assert phone.js_errors == []


def test_exact_counts_under_both_rule_sets(server, page, screenshot):
    open_lab(page, server)
    page.get_by_label("Rules").select_option("russian")
    page.get_by_label("Exact counts: every layout of the ships afloat").check()
    # Seed 003: the eight corners' neighbours C1, H1, … are the most likely cells.
    expect(page.locator("#best")).to_have_text(
        "C1, H1, A3, J3, A8, J8, C10, and H10 · 25.64%", timeout=60_000
    )
    expect(page.locator("#weight")).to_have_text("1,855,545,978,831,780")
    expect(page.locator("#best-legend")).to_have_text("Most likely")
    expect(page.locator("#focus")).to_have_text("A1 · 438,487,728,189,216 of the layouts (23.63%)")
    cell(page, "C1").click()  # a miss at C1, as in the seed: J8 alone is best next
    expect(page.locator("#best")).to_have_text(re.compile(r"^J8 · 26\.26%$"), timeout=60_000)
    expect(page.locator("#weight")).to_have_text("1,379,750,734,899,553")
    screenshot(page, "lab-exact")
    page.reload()
    expect(page.locator("#best")).to_have_text(re.compile(r"^J8 · "), timeout=60_000)
    page.get_by_label("Rules").select_option("classic")
    # the miss at C1 stays on the board
    report = bs.exact(bs.Observation.from_marks(bs.Rules.classic(), miss=["C1"]))
    share = f"{100 * float(report.probability(report.best[0])):.2f}%"
    best = f"{', '.join(report.best_names)} · {share}"
    expect(page.locator("#best")).to_have_text(best, timeout=60_000)
    expect(page.locator("#weight")).to_have_text(f"{report.total:,}")
    page.get_by_label("Exact counts: every layout of the ships afloat").uncheck()
    expect(page.locator("#best")).to_have_text(re.compile(r"d = "))
    expect(page.locator("#best-legend")).to_have_text("Highest density")
    assert page.js_errors == []


def test_quick_clicks_in_exact_mode_end_with_the_map_of_the_last_marks(server, page):
    open_lab(page, server)
    page.get_by_label("Rules").select_option("russian")
    page.get_by_label("Exact counts: every layout of the ships afloat").check()
    expect(page.locator("#weight")).to_have_text("1,855,545,978,831,780", timeout=60_000)
    for name in ("C1", "E5", "H8", "B9"):  # faster than the counter: requests would overlap
        cell(page, name).click()
    rules = bs.Rules.russian()
    report = bs.exact(bs.Observation.from_marks(rules, miss=["C1", "E5", "H8", "B9"]))
    expect(page.locator("#weight")).to_have_text(f"{report.total:,}", timeout=60_000)
    expect(page.locator("#status")).not_to_have_class(re.compile("error"))
    expect(page.locator("#best")).to_contain_text(", ".join(report.best_names[:1]))
    assert page.js_errors == []


def test_errors_follow_a_language_switch_in_both_modes(server, page):
    open_lab(page, server)
    status = page.get_by_role("status")
    english = "sunk ship A1 has length 1; no ship in the fleet has it"
    turkish = "Batık gemi A1 1 kare uzunluğunda; filoda bu uzunlukta gemi yok."
    page.get_by_role("button", name="Sunk", exact=True).click()
    cell(page, "A1").click()
    expect(status).to_have_text(english)
    page.click("#lang-switch")
    expect(status).to_have_text(turkish)
    page.click("#lang-switch")
    expect(status).to_have_text(english)

    with page.expect_response("**/api/battleship/exact"):
        page.get_by_label("Exact counts: every layout of the ships afloat").check()
    expect(status).to_have_text(english)
    page.click("#lang-switch")
    expect(status).to_have_text(turkish)
    assert page.js_errors == []


def test_a_busy_counter_is_asked_again_until_the_map_comes_or_the_marks_change(server, page):
    open_lab(page, server)
    busy = {"detail": "the exact counter is busy with other boards; try again in a moment"}
    sent = []

    def only_both_hits(route):  # the counter is busy for any other marks
        hits = route.request.post_data_json["hit"]
        sent.append(hits)
        if hits == ["E5", "F5"]:
            route.continue_()
        else:
            route.fulfill(status=409, json={**busy, "code": "battleship.busy", "params": {}})

    page.route("**/api/battleship/density", only_both_hits)
    page.get_by_role("button", name="Hit", exact=True).click()
    cell(page, "E5").click()
    expect(cell(page, "E5")).to_have_class(re.compile(r"\bhit\b"))
    page.wait_for_timeout(1200)  # asked again every half second
    assert sent.count(["E5"]) >= 2
    expect(page.locator("#status")).to_have_text("")
    with page.expect_response(lambda response: response.status == 200):
        cell(page, "F5").click()
    expect(page.locator("#best")).not_to_have_text(SEED_EMPTY)
    expect(page.locator("#best")).to_contain_text("d = ")
    asked_for_e5 = sent.count(["E5"])
    page.wait_for_timeout(1200)
    assert sent.count(["E5"]) == asked_for_e5  # the marks changed: E5 alone is not asked again
    expect(page.locator("#status")).to_have_text("")
    assert page.js_errors == []


def test_the_expert_says_where_it_would_fire_and_forgets_it_when_the_marks_change(
    server, page, screenshot
):
    from hamle.web.battleship import EXPERT_SHOOTERS

    open_lab(page, server)
    for name in ("D4", "E3"):
        cell(page, name).click()
    observation = bs.Observation.from_marks(bs.Rules.classic(), miss=["D4", "E3"])
    decision = bs.hint(observation, EXPERT_SHOOTERS["classic"])
    chosen = observation.grid.name(decision.cell)
    page.get_by_role("button", name="Where would the Expert fire?").click()
    expect(page.locator("#expert-answer")).to_have_text(
        f"The Expert level fires {chosen}.", timeout=30_000
    )
    expect(page.locator("#expert-how")).to_contain_text("6,000 fleets drawn")
    rows = page.locator("#expert-cells tbody tr")
    expect(rows).to_have_count(len(decision.weighed))
    expect(rows.first.locator("td").first).to_have_text(chosen)
    expect(rows.nth(1).locator("td").nth(2)).to_have_text(re.compile(r"^\+\d\.\d{3} ± \d\.\d{3}$"))
    expect(cell(page, chosen)).to_have_class(re.compile(r"\bexpert\b"))
    expect(page.get_by_text("Expert's target")).to_be_visible()
    screenshot(page, "lab-expert")
    page.click("#lang-switch")
    expect(page.locator("#expert-answer")).to_have_text(f"Uzman seviyesi {chosen} karesine atar.")
    page.click("#lang-switch")
    cell(page, "J10").click()  # other marks: the answer is no longer theirs
    expect(page.locator("#expert")).to_be_hidden()
    expect(page.get_by_text("Expert's target")).to_be_hidden()
    expect(cell(page, chosen)).not_to_have_class(re.compile(r"\bexpert\b"))
    page.get_by_role("button", name="Hit", exact=True).click()
    cell(page, "G7").click()  # a hit open: the expert fires its ranked density's cell
    page.get_by_role("button", name="Where would the Expert fire?").click()
    expect(page.locator("#expert-how")).to_contain_text("ranked density", timeout=30_000)
    assert page.js_errors == []


def test_the_expert_gives_no_error_on_means_worked_out_over_every_layout(server, page):
    weighed = [
        {"cell": "A2", "shots": 1.5, "fleets": 2, "behind": 0.0, "stderr": 0.0},
        {"cell": "B1", "shots": 2.0, "fleets": 2, "behind": 0.5, "stderr": 0.707},
    ]
    answer = {"rules": "classic", "strategy": "expert", "cell": "A2", "weighed": weighed}

    def endgame(route):
        route.fulfill(json={**answer, "how": "endgame"})

    open_lab(page, server)
    page.route("**/api/battleship/hint", endgame)
    page.get_by_role("button", name="Where would the Expert fire?").click()
    expect(page.locator("#expert-how")).to_contain_text("Every layout that fits the marks, 2")
    expect(page.locator("#expert-cells tbody tr").nth(1).locator("td").nth(2)).to_have_text(
        "+0.500"
    )
    page.unroute("**/api/battleship/hint")
    page.route(
        "**/api/battleship/hint", lambda route: route.fulfill(json={**answer, "how": "rollouts"})
    )
    cell(page, "J10").click()  # other marks, asked again: drawn fleets have an error
    page.get_by_role("button", name="Where would the Expert fire?").click()
    expect(page.locator("#expert-how")).to_contain_text("2 fleets drawn")
    expect(page.locator("#expert-cells tbody tr").nth(1).locator("td").nth(2)).to_have_text(
        "+0.500 ± 0.707"
    )
    assert page.js_errors == []
