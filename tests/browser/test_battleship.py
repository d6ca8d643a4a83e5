"""The Battleship pages in Chromium: placing a fleet, a game won by clicking (across a
server restart), the Hard heat map, the statistics page and the replay."""

import json
import re
import sqlite3
from urllib.parse import parse_qs, urlparse

import httpx2 as httpx
import pytest
from playwright.sync_api import expect

import hamle.battleship as bs
from hamle.rng import FLEET_STREAM, game_stream

CLASSIC = bs.Rules.classic()
SHOT = re.compile(r"\b(hit|sunk)\b")


def hidden_fleet(server, game_id) -> bs.Fleet:
    """Privileged test access: the computer's fleet, re-derived from the secret seed that
    only the server's database holds."""
    with sqlite3.connect(server.db) as db:
        (state,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    state = json.loads(state)
    rules = bs.Rules.named(state["rules"])
    placer = bs.get_placer(state["placer"])
    return placer.place(rules, game_stream(state["seed"], FLEET_STREAM))


def classes(page, grid):
    return page.eval_on_selector_all(f"#{grid} .cell", "cells => cells.map(c => c.className)")


def start_game(page, level):
    page.click("#random-fleet")
    expect(page.locator("#start")).to_be_enabled()
    page.check(f"input[name=level][value={level}]")
    page.click("#start")
    expect(page.locator("#play")).to_be_visible()
    expect(page.locator("#enemy-grid .cell")).to_have_count(100)
    return parse_qs(urlparse(page.url).query)["game"][0]


def fire(page, cell):
    page.click(f"#enemy-grid [data-cell={cell}]")
    expect(page.locator(f"#enemy-grid [data-cell={cell}]")).to_have_class(SHOT)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_place_by_keyboard_drag_and_rotate(server, page, screenshot):
    page.goto(server.url + "/battleship")
    expect(page.locator("#ships button")).to_have_count(5)
    expect(page.locator("#start")).to_be_disabled()
    # Keyboard: choose the Destroyer, arrow down to A3, Enter.
    page.focus("#ships button[data-ship='4']")
    page.keyboard.press("Enter")
    expect(page.locator("#ships button[data-ship='4']")).to_have_attribute("aria-pressed", "true")
    page.focus("#place-grid [data-cell=A1]")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    for cell in ("A3", "B3"):
        expect(page.locator(f"#place-grid [data-cell={cell}]")).to_have_class(re.compile("ship"))
    expect(page.locator("#status")).to_have_text("Destroyer placed at A3–B3.")
    # The Carrier is chosen next; R turns it upright, Enter on J1 places it down to J5.
    expect(page.locator("#ships button[data-ship='0']")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("r")
    expect(page.locator("#rotate")).to_have_text("Rotate (R): vertical")
    page.focus("#place-grid [data-cell=J1]")
    page.keyboard.press("Enter")
    for cell in ("J1", "J5"):
        expect(page.locator(f"#place-grid [data-cell={cell}]")).to_have_class(re.compile("ship"))
    # Drag the Battleship from the list to C6 (it keeps the upright orientation).
    page.hover("#ships button[data-ship='1']")
    page.mouse.down()
    page.hover("#place-grid [data-cell=C6]")
    expect(page.locator("#place-grid [data-cell=C9]")).to_have_class(re.compile("preview"))
    page.mouse.up()
    for cell in ("C6", "C7", "C8", "C9"):
        expect(page.locator(f"#place-grid [data-cell={cell}]")).to_have_class(re.compile("ship"))
    # Drag the Carrier by its second cell (J2) to H3: it now lies on H2..H6.
    page.hover("#place-grid [data-cell=J2]")
    page.mouse.down()
    page.hover("#place-grid [data-cell=I3]")
    page.hover("#place-grid [data-cell=H3]")
    page.mouse.up()
    expect(page.locator("#place-grid [data-cell=J1]")).not_to_have_class(re.compile("ship"))
    for cell in ("H2", "H6"):
        expect(page.locator(f"#place-grid [data-cell={cell}]")).to_have_class(re.compile("ship"))
    # Lying flat from H2 it would leave the board: refused with a message.
    page.click("#rotate")
    expect(page.locator("#status")).to_have_text(
        "Carrier does not fit there: it would leave the board."
    )
    expect(page.locator("#place-grid [data-cell=H6]")).to_have_class(re.compile("ship"))
    # Overlap is refused too; then the last two ships by clicking.
    page.click("#ships button[data-ship='2']")
    page.click("#place-grid [data-cell=E2]")  # vertical E2..E4 is free
    page.click("#ships button[data-ship='3']")
    page.click("#rotate")
    page.click("#place-grid [data-cell=B6]")  # horizontal B6..D6 crosses the Battleship
    expect(page.locator("#status")).to_have_text(
        "Submarine would overlap or touch another ship there."
    )
    page.click("#place-grid [data-cell=E8]")
    expect(page.locator("#status")).to_have_text(
        "Your fleet is ready. Choose a level and press Start."
    )
    screenshot(page, "battleship-setup-laptop")
    page.click("#lang-switch")
    expect(page.locator("#setup-title")).to_have_text("Filonu yerleştir")
    expect(page.locator("#ships button[data-ship='0']")).to_contain_text("Uçak gemisi (5)")
    page.click("#lang-switch")
    page.check("input[name=level][value=normal]")
    page.click("#start")
    expect(page.locator("#own-grid .cell.ship")).to_have_count(17)
    placed = {"H2", "H6", "C6", "C9", "E2", "E4", "E8", "G8", "A3", "B3"}
    for cell in placed:
        expect(page.locator(f"#own-grid [data-cell={cell}]")).to_have_class(re.compile("ship"))
    assert page.js_errors == []


def test_a_game_won_by_clicking_survives_a_restart(server, page, screenshot):
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "easy")
    targets = [CLASSIC.grid.name(c) for ship in hidden_fleet(server, game_id).ships for c in ship]
    assert len(targets) == 17
    for cell in targets[:4]:
        fire(page, cell)
    expect(page.locator("#status")).to_contain_text(f"You fired at {targets[3]}")
    enemy, own = classes(page, "enemy-grid"), classes(page, "own-grid")
    assert sum("miss" in c or "hit" in c or "sunk" in c for c in own) == 4
    expect(page.locator(f"#enemy-grid [data-cell={targets[0]}]")).to_have_text("✕")  # (afloat)

    server.restart()
    page.reload()
    expect(page.locator("#status")).to_have_text("Game resumed.")
    expect(page.locator(f"#enemy-grid [data-cell={targets[0]}]")).to_have_class(SHOT)
    assert classes(page, "enemy-grid") == enemy
    assert classes(page, "own-grid") == own
    screenshot(page, "battleship-laptop")

    for cell in targets[4:]:
        fire(page, cell)
    expect(page.locator("#end-message")).to_have_text(
        "You won in 17 shots! The computer's fleet is shown below."
    )
    expect(page.locator("#status")).to_contain_text("You won in 17 shots!")  # (announced)
    expect(page.locator("#enemy-fleet li")).to_have_count(5)
    fleet = hidden_fleet(server, game_id)
    for ship, cells, item in zip(CLASSIC.fleet, fleet.ships, range(5), strict=True):
        first, last = CLASSIC.grid.name(cells[0]), CLASSIC.grid.name(cells[-1])
        expect(page.locator("#enemy-fleet li").nth(item)).to_have_text(
            f"{ship.name}: {first}–{last}"
        )
    expect(page.locator("#enemy-grid .cell.sunk")).to_have_count(17)
    for cell in targets:  # (a sunk ship is told from an open hit by its symbol, not colour alone)
        expect(page.locator(f"#enemy-grid [data-cell={cell}]")).to_have_text("■")
    expect(page.locator("p", has_text="✕ hit")).to_have_text(
        "• miss\u2003✕ hit\u2003■ sunk\u2003· water beside a sunk ship"
    )
    expect(page.locator("#counts")).to_contain_text("Your shots: 17")
    page.focus(f"#enemy-grid [data-cell={targets[0]}]")  # aria-disabled now: use the keys
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_have_text(
        "The game is over. Start a new game to play again."
    )
    screenshot(page, "battleship-won-laptop")
    page.click("#new-game")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#place-grid .cell.ship")).to_have_count(17)  # the fleet is kept
    assert "game=" not in page.url
    assert page.js_errors == []


def test_hard_heat_map_paints_your_board_on_a_phone(server, phone, screenshot):
    phone.goto(server.url + "/battleship")
    screenshot(phone, "battleship-setup-phone")
    start_game(phone, "hard")
    toggle = phone.locator("#heat-toggle")
    expect(toggle).to_be_visible()
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#own-grid .cell.heat")).to_have_count(100)
    expect(phone.locator("#own-grid .cell.best")).to_have_count(4)
    expect(phone.locator("#heat-info")).to_have_text(
        "The computer's best cells: E5, F5, E6, and F6 (d = 34); w = 35."
    )
    hottest = phone.locator("#own-grid [data-cell=E5]")
    coldest = phone.locator("#own-grid [data-cell=A1]")
    expect(hottest).to_have_attribute("title", "d = 34")
    expect(coldest).to_have_attribute("title", "d = 10")
    colour = "el => getComputedStyle(el).backgroundColor"
    assert hottest.evaluate(colour) != coldest.evaluate(colour)
    phone.click("#enemy-grid [data-cell=A1]")
    expect(phone.locator("#enemy-grid [data-cell=A1]")).to_have_class(re.compile("miss|hit|sunk"))
    expect(phone.locator("#own-grid .cell.heat")).to_have_count(99)
    shot = phone.locator("#own-grid .cell.miss, #own-grid .cell.hit")
    expect(shot).to_have_count(1)
    assert shot.get_attribute("data-cell") in ("E5", "F5", "E6", "F6")
    phone.reload()  # the heat map stays on
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#own-grid .cell.heat")).to_have_count(99)
    no_sideways_scroll(phone)
    screenshot(phone, "battleship-phone")
    toggle.click()
    expect(phone.locator("#own-grid .cell.heat")).to_have_count(0)
    expect(phone.locator("#heat-info")).to_have_text("")
    assert phone.js_errors == []


def test_the_heat_map_goes_once_the_game_is_over(server, page):
    """It said "no cell left to fire at" over a board of cells never fired at."""
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "hard")
    page.click("#heat-toggle")
    expect(page.locator("#own-grid .cell.heat")).to_have_count(100)
    shots = f"{server.url}/api/battleship/games/{game_id}/shots"
    for ship in hidden_fleet(server, game_id).ships:
        for cell in ship:
            assert httpx.post(shots, json={"cell": CLASSIC.grid.name(cell)}).status_code == 200
    page.reload()
    expect(page.locator("#end-message")).to_contain_text("You won in 17 shots!")
    expect(page.locator("#heat-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#heat-info")).to_have_text("")
    expect(page.locator("#own-grid .cell.heat")).to_have_count(0)
    assert page.js_errors == []


def test_easy_game_has_no_heat_map(server, page):
    page.goto(server.url + "/battleship")
    start_game(page, "easy")
    expect(page.locator("#heat-toggle")).to_be_hidden()
    expect(page.locator("#counts")).to_contain_text("Level: Easy")


def test_statistics_recompute_with_progress_table_and_chart(server, page, phone, screenshot):
    page.goto(server.url + "/battleship/stats")
    expect(page.locator("#status")).to_contain_text("Not computed yet for 1,000 games")
    page.select_option("#games", "10")
    expect(page.locator("#status")).to_contain_text("Not computed yet for 10 games")
    page.click("#compute")
    expect(page.locator("#progress")).to_be_visible()
    expect(page.locator("#table tbody tr")).to_have_count(5)
    expect(page.locator("#progress-text")).to_have_text("240 of 240 games played")
    assert page.locator("#progress").get_attribute("value") == "240"
    assert page.locator("#progress").evaluate("el => el.max") == 240
    expect(page.locator("#status")).to_have_text("Computed over 10 games per strategy.")
    rows = page.locator("#table tbody tr")
    expect(rows.nth(3).locator("th")).to_have_text("Density (Hard)")
    expect(rows.nth(4).locator("th")).to_have_text("random, exact law")
    expect(rows.nth(4).locator("td").first).to_have_text("95.39")
    # The share done within 50 shots: none for random fire's exact law, most for density.
    expect(rows.nth(4).locator("td").nth(7)).to_have_text("0 %")
    expect(rows.nth(3).locator("td").nth(7)).to_have_text(re.compile(r"^[1-9]\d* %$"))
    expect(page.locator("#chart svg path.curve")).to_have_count(4)
    expect(page.locator("#chart svg polyline.exact")).to_have_count(1)
    expect(page.locator("#chart svg text.axis-title")).to_have_count(2)
    expect(page.locator("#chart svg")).to_contain_text("shots t")
    expect(page.locator("#legend li")).to_have_count(5)
    # No curve is told by its colour alone: each has its own dashes, as its legend line does.
    dashes = [p.get_attribute("stroke-dasharray") for p in page.locator("path.curve").all()]
    assert len(set(dashes)) == 4
    legend = page.locator("#legend li svg line").all()
    assert [line.get_attribute("stroke-dasharray") for line in legend[:4]] == dashes
    # The chart's figures, as a table: for every t, the share of games done within t shots.
    figures = page.request.get(server.url + "/api/battleship/stats?rules=classic&games=10").json()
    assert len(page.locator("#figures tbody tr").all()) == 100 - 17 + 1
    row = page.locator("#figures tbody tr").nth(50 - 17)
    expect(row.locator("th")).to_have_text("50")
    density, exact = figures["curves"]["density"][50], figures["exact"][50]
    expect(row.locator("td").nth(3)).to_have_text(f"{density * 100:.1f} %")
    expect(row.locator("td").nth(4)).to_have_text(f"{exact * 100:.1f} %")
    expect(page.locator("#compute")).to_have_text("Recompute")
    assert "games=10" in page.url
    # The tournament: every site shooter against every placer, on the same 10 games.
    placers = ["uniform", "edges", "anti-density", "spread", "clustered"]
    table = bs.tournament(CLASSIC, ["random", "hunt-target", "parity", "density"], placers, 10)
    density = table.as_dict()["matrix"]["density"]
    cells = page.locator("#matrix tr[data-shooter=density] td")
    expect(cells).to_have_count(5)
    expect(cells.first).to_have_text(f"{density['uniform']['mean']:.1f}")
    added = density["anti-density"]["versus_uniform"]["mean"]
    expect(cells.nth(2)).to_contain_text(f"{density['anti-density']['mean']:.1f} (")
    expect(cells.nth(2)).to_contain_text(f"{abs(added):.1f})")
    expect(page.locator("#matrix-title")).to_have_text("Where the fleet hides (10 games, Classic)")
    screenshot(page, "stats-laptop")
    page.click("#lang-switch")
    expect(page.locator("#table thead th").first).to_have_text("strateji")
    expect(rows.nth(4).locator("td").first).to_have_text("95,39")  # numbers the Turkish way
    expect(page.locator("#chart svg")).to_contain_text("atış sayısı t")
    expect(page.locator("#status")).to_have_text("Strateji başına 10 oyun üzerinden hesaplandı.")
    expect(page.locator("#matrix thead th").nth(3)).to_have_text("yoğunluk karşıtı")
    assert page.js_errors == []

    expect(page.locator("#scroll-hint")).to_be_hidden()  # the table fits a laptop

    phone.goto(server.url + "/battleship/stats?rules=classic&games=10")
    expect(phone.locator("#table tbody tr")).to_have_count(5)
    expect(phone.locator("#chart svg path.curve")).to_have_count(4)
    expect(phone.locator("#scroll-hint")).to_be_visible()  # on a phone it scrolls: say so
    for link in phone.locator("#top nav a, #lang-switch").all():  # links a finger can hit
        assert link.bounding_box()["height"] >= 44, link.inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, "stats-phone")
    assert phone.js_errors == []


def test_replay_steps_and_toggles_the_pattern(server, page, phone, screenshot):
    record = bs.play_game(CLASSIC, "parity", 743)
    total = record.shots_fired
    page.goto(server.url + "/battleship/replay")
    counter = page.locator("#counter")
    expect(counter).to_have_text(f"Before the first shot (0 of {total}).")
    expect(page.locator("#pattern")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board .cell.pattern")).to_have_count(50)
    page.keyboard.press("ArrowRight")
    first = record.shots[0]
    name = CLASSIC.grid.name(first.cell)
    expect(counter).to_have_text(f"Shot 1 of {total}: {name} — {first.answer} (hunt).")
    expect(page.locator(f"#board [data-cell={name}]")).to_have_class(re.compile("current"))
    page.click("#forward")
    expect(counter).to_contain_text(f"Shot 2 of {total}:")
    page.keyboard.press("End")
    expect(counter).to_contain_text(f"Shot {total} of {total}:")
    expect(page.locator("#board .cell.sunk")).to_have_count(17)
    expect(page.locator("#forward")).to_be_disabled()
    page.focus("#slider")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_contain_text(f"Shot {total - 1} of {total}:")
    page.locator("#shots li button").nth(4).click()
    expect(counter).to_contain_text(f"Shot 5 of {total}:")
    expect(page.locator("#shots li button").nth(4)).to_have_attribute("aria-current", "step")
    # The list is one tab stop, the current shot's, and the arrows go along it.
    expect(page.locator("#shots button[tabindex='0']")).to_have_count(1)
    page.keyboard.press("ArrowDown")
    expect(counter).to_contain_text(f"Shot 6 of {total}:")
    expect(page.locator("#shots li button").nth(5)).to_be_focused()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#shots li button").nth(3)).to_be_focused()
    expect(page.locator("#shots button[tabindex='0']")).to_have_text(re.compile(r"^4\. "))
    page.click("#first")
    expect(counter).to_have_text(f"Before the first shot (0 of {total}).")
    expect(page.locator("#slider")).to_be_focused()  # (#first, disabled there, lost it)
    page.click("#pattern")
    expect(page.locator("#board .cell.pattern")).to_have_count(0)
    page.keyboard.press("p")
    expect(page.locator("#board .cell.pattern")).to_have_count(50)
    page.keyboard.press("End")
    screenshot(page, "replay-laptop")
    # The same game without the pattern, chosen in the form.
    page.select_option("#strategy", "hunt-target")
    page.click("#show")
    plain = bs.play_game(CLASSIC, "hunt-target", 743).shots_fired
    expect(page.locator("#summary")).to_contain_text(f"Game 743, Hunt and target: {plain} shots")
    expect(page.locator("#pattern")).to_have_attribute("aria-pressed", "false")
    assert "strategy=hunt-target" in page.url
    page.fill("#game", "0")
    page.click("#show")
    expect(page.locator("#status")).to_contain_text("A game number is a whole number")
    page.click("#lang-switch")
    expect(page.locator("#summary")).to_contain_text("Oyun 743, Av ve hedef")
    expect(page.locator("#status")).to_contain_text("Oyun numarası 1 ile")
    assert page.js_errors == []

    expert = bs.play_game(CLASSIC, bs.ExpertShooter(), 743).shots_fired  # the Expert level's
    page.select_option("#strategy", "expert")
    page.fill("#game", "743")
    page.click("#show")
    expect(page.locator("#summary")).to_contain_text(
        f"Oyun 743, Uzman: {expert} atış", timeout=60_000
    )
    assert page.js_errors == []

    phone.goto(server.url + "/battleship/replay?game=12345&strategy=random")
    expect(phone.locator("#summary")).to_contain_text("Game 12345, Random")  # (as typed)
    phone.goto(server.url + "/battleship/replay?game=12&strategy=density")
    expect(phone.locator("#summary")).to_contain_text("Game 12, Density (Hard)")
    for _ in range(20):
        phone.keyboard.press("ArrowRight")
    expect(phone.locator("#counter")).to_contain_text("Shot 20 of")
    tops = {
        round(phone.locator(f"#{b}").bounding_box()["y"])
        for b in ("first", "back", "forward", "last")
    }
    assert len(tops) == 1  # the step buttons stay together on a phone
    header = phone.locator("#top").bounding_box()["height"]
    assert header <= 120, header  # the navigation scrolls in one row instead of four
    no_sideways_scroll(phone)
    screenshot(phone, "replay-phone")
    assert phone.js_errors == []


def test_russian_rules_show_water_around_a_sunk_boat(server, page):
    page.goto(server.url + "/battleship")
    page.select_option("#rules", "russian")
    expect(page.locator("#ships button")).to_have_count(10)
    page.click("#ships button[data-ship='6']")  # Boat 1
    page.click("#place-grid [data-cell=A1]")
    page.click("#ships button[data-ship='7']")
    page.click("#place-grid [data-cell=B2]")  # diagonal to A1: ships may not touch
    expect(page.locator("#status")).to_have_text(
        "Boat 2 would overlap or touch another ship there."
    )
    game_id = start_game(page, "easy")
    grid = bs.Rules.russian().grid
    boat = hidden_fleet(server, game_id).ships[-1]
    name = grid.name(boat[0])
    page.click(f"#enemy-grid [data-cell={name}]")
    expect(page.locator(f"#enemy-grid [data-cell={name}]")).to_have_class(re.compile("sunk"))
    expect(page.locator("#status")).to_contain_text(f"You fired at {name}: sunk — Boat 4!")
    around = [grid.name(c) for c in grid.surroundings(boat[0])]
    expect(page.locator("#enemy-grid .cell.water")).to_have_count(len(around))
    page.focus(f"#enemy-grid [data-cell={around[0]}]")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).to_have_text(
        f"{around[0]} touches a sunk ship, so it is water: fire elsewhere."
    )
    expect(page.locator("#enemy-afloat")).to_have_text("Ships afloat: 9 of 10")
    assert page.js_errors == []


def test_sunk_ships_that_touch_are_shaded_apart(server, page):
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "easy")
    view = httpx.get(f"{server.url}/api/battleship/games/{game_id}").json()
    # Sunk in this order, each touching the one before but A1–B1 and F2–G2 (so shading by
    # the order of sinking alone would give D3–E3 and F2–G2 one shade); I5–I6 touches none.
    ships = [["A1", "B1"], ["A2", "B2", "C2"], ["F2", "G2"], ["D3", "E3"], ["I5", "I6"]]
    names = ["Destroyer", "Cruiser", "Submarine", "Battleship", "Carrier"]
    grid = CLASSIC.grid
    for cells in ships:
        for cell in cells:
            view["enemy"]["marks"][grid.index(cell)] = "sunk"
    view["enemy"]["sunk"] = [
        {"name": name, "length": len(cells), "cells": cells}
        for name, cells in zip(names, ships, strict=True)
    ]
    # (a view the server could not give, to draw one arrangement: the page shades what it gets)
    page.route(f"**/api/battleship/games/{game_id}", lambda route: route.fulfill(json=view))
    page.reload()
    expect(page.locator("#enemy-grid .cell.sunk")).to_have_count(11)
    alternate = set(
        page.eval_on_selector_all(
            "#enemy-grid .cell.sunk.alt", "cells => cells.map(c => c.dataset.cell)"
        )
    )
    shaded = [{cell in alternate for cell in cells} for cells in ships]
    assert all(len(shades) == 1 for shades in shaded)  # a ship is one shade
    indices = [[grid.index(cell) for cell in cells] for cells in ships]

    def touch(a, b):
        return any(abs(x // 10 - y // 10) <= 1 and abs(x % 10 - y % 10) <= 1 for x in a for y in b)

    pairs = [(i, j) for i in range(5) for j in range(i + 1, 5) if touch(indices[i], indices[j])]
    assert pairs == [(0, 1), (1, 3), (2, 3)]
    assert all(shaded[i] != shaded[j] for i, j in pairs)
    plain, other = (
        page.locator(f"#enemy-grid [data-cell={cell}]").evaluate(
            "el => getComputedStyle(el).backgroundColor"
        )
        for cell in ("A1", "A2")
    )
    assert plain != other
    assert page.js_errors == []


def test_expert_level_plays_without_a_heat_map(server, page):
    page.goto(server.url + "/battleship")
    page.check("input[name=level][value=expert]")
    expect(page.locator("#level-info")).to_contain_text("fires where the game ends soonest")
    start_game(page, "expert")
    expect(page.locator("#heat-toggle")).to_be_hidden()
    page.click("#enemy-grid [data-cell=A1]")
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(re.compile("miss|hit|sunk"))
    expect(page.locator("#own-grid .cell.miss, #own-grid .cell.hit")).to_have_count(1)
    assert page.js_errors == []


def test_the_expert_says_where_it_would_fire_at_your_shots_so_far(server, page, screenshot):
    from hamle.web.battleship import EXPERT_SHOOTERS

    page.goto(server.url + "/battleship")
    game_id = start_game(page, "easy")
    ocean = bs.Ocean(hidden_fleet(server, game_id))
    for name in ("A1", "J10", "E5"):
        page.click(f"#enemy-grid [data-cell={name}]")
        expect(page.locator(f"#enemy-grid [data-cell={name}]")).to_have_class(
            re.compile("miss|hit|sunk")
        )
        ocean.fire(CLASSIC.grid.index(name))
    cell = CLASSIC.grid.name(bs.hint(ocean.observation, EXPERT_SHOOTERS["classic"]).cell)
    page.get_by_role("button", name="Where would the Expert fire?").click()
    expect(page.locator("#expert-info")).to_have_text(
        f"The Expert would fire at {cell}.", timeout=30_000
    )
    expect(page.locator(f"#enemy-grid [data-cell={cell}]")).to_have_class(re.compile(r"\bexpert\b"))
    screenshot(page, "play-expert")
    page.click("#lang-switch")
    expect(page.locator("#expert-info")).to_have_text(f"Uzman {cell} karesine atardı.")
    page.click("#lang-switch")
    other = next(n for n in ("B2", "C3", "D4") if n != cell)
    page.click(f"#enemy-grid [data-cell={other}]")  # another shot: the answer was for the last
    expect(page.locator("#expert-info")).to_have_text("")
    expect(page.locator("#enemy-grid .cell.expert")).to_have_count(0)
    assert page.js_errors == []


def test_the_first_placement_hint_names_the_chosen_ship(server, page):
    page.goto(server.url + "/battleship")
    expect(page.locator("#status")).to_have_text(
        "Carrier is chosen: click the cell of your board where it starts."
    )
    page.click("#lang-switch")
    expect(page.locator("#status")).to_have_text(
        "Uçak gemisi seçili: tahtanda başlayacağı kareye tıkla."
    )
    page.click("#lang-switch")
    assert page.js_errors == []


FITS = """sel => {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = getComputedStyle(sel).font;
  return ctx.measureText(sel.selectedOptions[0].text).width <= sel.clientWidth - 32;
}"""


def test_rule_pickers_fit_a_phone_and_describe_the_fleet_below(server, phone):
    for path in ("/battleship", "/battleship/lab", "/battleship/stats", "/battleship/replay"):
        phone.goto(server.url + path)
        picker = phone.locator("#rules")
        expect(picker.locator("option")).to_have_count(2)
        picker.select_option("russian")
        expect(phone.locator("#rules-detail")).to_have_text(
            "4, 3, 3, 2, 2, 2, 1, 1, 1, 1; ships may not touch"
        )
        assert picker.evaluate(FITS), path  # the chosen option is not cut off
    phone.click("#lang-switch")
    expect(phone.locator("#rules-detail")).to_contain_text("gemiler değemez")
    phone.click("#lang-switch")
    assert phone.js_errors == []


def test_the_heat_line_names_six_cells_and_counts_the_rest(server, page):
    tied = [f"{column}{row}" for row in (1, 2, 3) for column in "ABCDEFG"]  # 21 cells

    def many_best(route):
        heat = route.fetch().json()
        route.fulfill(json={**heat, "best": tied})

    page.route("**/heat", many_best)
    page.goto(server.url + "/battleship")
    start_game(page, "hard")
    page.click("#heat-toggle")
    expect(page.locator("#own-grid .cell.best")).to_have_count(21)
    expect(page.locator("#heat-info")).to_have_text(
        "The computer's best cells: A1, B1, C1, D1, E1, F1 and 15 more (d = 34); w = 35."
    )
    # At 1280 px the two boards stay side by side.
    enemy, own = (
        page.locator("#enemy-grid").bounding_box(),
        page.locator("#own-grid").bounding_box(),
    )
    assert own["y"] == enemy["y"] and own["x"] > enemy["x"] + enemy["width"]
    assert page.js_errors == []


def test_answers_that_arrive_too_late_change_nothing(server, page):
    page.goto(server.url + "/battleship")
    expect(page.locator("#ships button")).to_have_count(5)
    held = []
    page.route("**/api/battleship/fleet*", lambda route: held.append(route))
    page.click("#random-fleet")
    page.wait_for_timeout(200)
    page.select_option("#rules", "russian")  # before the classic fleet comes back
    expect(page.locator("#ships button")).to_have_count(10)
    held[0].continue_()
    page.unroute("**/api/battleship/fleet*")
    page.wait_for_timeout(300)
    expect(page.locator("#start")).to_be_disabled()  # no half classic fleet on Russian rules
    page.select_option("#rules", "classic")
    game_id = start_game(page, "easy")
    page.route("**/api/battleship/games/*/shots", lambda route: held.append(route))
    page.click("#enemy-grid [data-cell=A1]")
    page.wait_for_timeout(200)
    page.click("#new-game")  # while the shot is on its way
    expect(page.locator("#setup")).to_be_visible()
    held[1].continue_()
    page.unroute("**/api/battleship/games/*/shots")
    page.wait_for_timeout(300)
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#status")).not_to_contain_text("You fired")
    assert game_id not in page.url


def test_back_after_new_game_returns_to_the_game_left_and_forward_to_the_setup(server, page):
    """ "New game" mid-game dropped the game from the address and the page's memory: it
    could not be reached again."""
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "easy")
    expect(page.locator("#enemy-grid [tabindex='0']")).to_be_focused()  # (not lost with setup)
    page.click("#lang-switch")  # the boards are named in the page's language
    expect(page.locator("#enemy-grid")).to_have_attribute("aria-label", "Düşman suları")
    expect(page.locator("#lang-switch")).to_have_attribute("lang", "en")
    page.click("#lang-switch")
    page.click("#enemy-grid [data-cell=A1]")
    fired = re.compile(r"\b(miss|hit|sunk)\b")
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(fired)
    page.click("#new-game")
    expect(page.locator("#setup")).to_be_visible()
    assert "game=" not in page.url
    page.go_back()
    expect(page.locator("#play")).to_be_visible()
    expect(page).to_have_url(re.compile(f"game={game_id}$"))
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(fired)
    page.reload()  # the game taken back is the one a reload resumes
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(fired)
    page.go_forward()
    expect(page.locator("#setup")).to_be_visible()
    page.reload()  # and the setup stays the setup
    expect(page.locator("#setup")).to_be_visible()
    assert page.js_errors == []


def test_a_saved_game_that_is_gone_is_named_plainly(server, page):
    for saved in ("short", "A" * 22):
        page.goto(f"{server.url}/battleship?game={saved}")
        expect(page.locator("#status")).to_have_text(
            "The saved game was not found; place a fleet to start a new one."
        )


def test_a_saved_game_the_server_fails_to_load_is_kept_for_a_reload(server, page):
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "easy")
    page.click("#enemy-grid [data-cell=A1]")
    expect(page.locator("#counts")).to_contain_text("Your shots: 1")
    failed = {"detail": "the game store failed: disk I/O error", "code": "site.store_failed"}
    page.route(
        f"**/api/battleship/games/{game_id}",
        lambda route: route.fulfill(status=503, json={**failed, "params": {}}),
    )
    page.goto(server.url + "/battleship")  # the game comes from the browser's storage
    expect(page.locator("#status")).to_have_text(
        "The saved game could not be loaded (the game store failed: disk I/O error); reload "
        "the page to try again, or place a fleet to start a new one."
    )
    expect(page.locator("#setup")).to_be_visible()
    assert page.evaluate("localStorage.getItem('hamle.battleship.game')") == game_id
    page.unroute(f"**/api/battleship/games/{game_id}")
    page.reload()
    expect(page.locator("#status")).to_have_text("Game resumed.")
    expect(page.locator("#counts")).to_contain_text("Your shots: 1")
    assert game_id in page.url
    assert page.js_errors == []


def test_key_shortcuts_turned_off_leave_r_and_p_alone_and_the_help_stops_naming_them(server, page):
    page.goto(server.url + "/battleship")
    expect(page.locator("#rotate")).to_have_text("Rotate (R): horizontal")
    page.click("#keys-switch")
    expect(page.locator("#keys-switch")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#rotate")).to_have_text("Rotate: horizontal")
    expect(page.locator("#setup [data-i18n='bs.setup.help']")).not_to_contain_text("R or")
    page.locator("h1").first.click()
    page.keyboard.press("r")
    expect(page.locator("#rotate")).to_have_text("Rotate: horizontal")
    page.click("#lang-switch")  # the Turkish help drops the key too
    expect(page.locator("#rotate")).to_have_text("Döndür: yatay")
    page.click("#lang-switch")
    # The replay page shares the choice: P leaves the pattern as it is.
    page.goto(server.url + "/battleship/replay")
    expect(page.locator("#keys-switch")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#counter")).to_contain_text("Before the first shot")
    expect(page.locator("#pattern")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("p")
    expect(page.locator("#pattern")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-i18n='rp.keys']")).not_to_contain_text("P toggles")
    page.click("#keys-switch")
    page.keyboard.press("p")
    expect(page.locator("#pattern")).to_have_attribute("aria-pressed", "false")
    assert page.js_errors == []


def test_a_slow_shot_is_shown_waiting_and_a_tap_meanwhile_is_told_to_wait(server, page):
    page.goto(server.url + "/battleship")
    start_game(page, "easy")
    held = []
    page.route("**/api/battleship/games/*/shots", lambda route: held.append(route))
    page.click("#enemy-grid [data-cell=A1]")
    a1 = page.locator("#enemy-grid [data-cell=A1]")
    expect(a1).to_have_class(re.compile(r"\bpending\b"))
    expect(a1).to_have_attribute("aria-busy", "true")
    waiting = page.locator("#waiting")
    expect(waiting).to_be_visible(timeout=5000)  # after a second and a half
    expect(waiting).to_have_text("Waiting for the server…")
    page.click("#enemy-grid [data-cell=C3]")
    expect(page.locator("#status")).to_have_text(
        "Your shot at A1 is still waiting for its answer; fire again once it comes."
    )
    held[0].continue_()
    page.unroute("**/api/battleship/games/*/shots")
    expect(a1).to_have_class(re.compile(r"\b(miss|hit|sunk)\b"))
    expect(a1).not_to_have_attribute("aria-busy", "true")
    expect(waiting).to_be_hidden()
    expect(page.locator("#enemy-grid [data-cell=C3]")).to_have_class("cell")  # not fired
    assert len(held) == 1 and page.js_errors == []


def test_a_shot_the_server_never_answers_is_given_up_after_a_minute(server, page):
    page.clock.install()
    page.goto(server.url + "/battleship")
    start_game(page, "easy")
    held = []
    page.route("**/api/battleship/games/*/shots", lambda route: held.append(route))
    page.click("#enemy-grid [data-cell=A1]")
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_attribute("aria-busy", "true")
    page.clock.fast_forward("00:59")
    expect(page.locator("#waiting")).to_be_visible()
    expect(page.locator("#status")).not_to_contain_text("minute")
    page.clock.fast_forward("00:02")
    status = page.locator("#status")
    expect(status).to_have_text(
        "The server has not answered for a minute, so the page stopped waiting. Try again."
    )
    expect(page.locator("#waiting")).to_be_hidden()
    page.unroute("**/api/battleship/games/*/shots")
    page.click("#enemy-grid [data-cell=A1]")  # the player may fire again
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(re.compile(r"\b(miss|hit)"))
    assert page.js_errors == []


def test_a_shot_given_up_on_that_landed_after_all_is_said_to_have(server, page):
    page.clock.install()
    page.goto(server.url + "/battleship")
    start_game(page, "easy")
    landed = []

    def land_but_never_answer(route):
        landed.append(route.fetch())  # (the server plays the shot; its answer is held back)

    page.route("**/api/battleship/games/*/shots", land_but_never_answer)
    page.click("#enemy-grid [data-cell=A1]")
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_attribute("aria-busy", "true")
    page.wait_for_timeout(500)
    assert len(landed) == 1
    page.clock.fast_forward("01:01")
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^Your shot at A1 was played after all: (miss|hit)$")
    )
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class(re.compile(r"\b(miss|hit)"))
    page.unroute("**/api/battleship/games/*/shots")
    page.click("#enemy-grid [data-cell=B1]")  # no shot is waiting any more
    expect(page.locator("#enemy-grid [data-cell=B1]")).to_have_class(re.compile(r"\b(miss|hit)"))
    assert page.js_errors == []


def test_a_shot_left_waiting_by_the_last_game_does_not_hold_up_the_next(server, page):
    page.goto(server.url + "/battleship")
    start_game(page, "easy")
    held = []

    def hold_the_first(route):
        route.continue_() if held else held.append(route)

    page.route("**/api/battleship/games/*/shots", hold_the_first)
    page.click("#enemy-grid [data-cell=A1]")
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_attribute("aria-busy", "true")
    page.click("#new-game")
    start_game(page, "easy")
    expect(page.locator("#enemy-grid [aria-busy]")).to_have_count(0)
    answered = re.compile(r"\b(miss|hit|sunk)\b")
    page.click("#enemy-grid [data-cell=C3]")
    expect(page.locator("#enemy-grid [data-cell=C3]")).to_have_class(answered)
    held[0].continue_()
    page.wait_for_timeout(300)
    expect(page.locator("#enemy-grid [data-cell=A1]")).to_have_class("cell")  # (the old game's)
    page.click("#enemy-grid [data-cell=D4]")
    expect(page.locator("#enemy-grid [data-cell=D4]")).to_have_class(answered)
    assert page.js_errors == []


def test_the_shot_waiting_stays_marked_through_a_redraw_and_the_heat_map_holds_up_nothing(
    server, page
):
    page.goto(server.url + "/battleship")
    start_game(page, "hard")
    page.click("#heat-toggle")
    held = []
    page.route("**/api/battleship/games/*/shots", lambda route: held.append(route))
    page.click("#enemy-grid [data-cell=A1]")
    a1 = page.locator("#enemy-grid [data-cell=A1]")
    expect(a1).to_have_class(re.compile(r"\bpending\b"))
    page.click("#lang-switch")  # the board is drawn again in Turkish
    expect(a1).to_have_class(re.compile(r"\bpending\b"))
    expect(a1).to_have_attribute("aria-busy", "true")
    page.click("#lang-switch")
    heat = []
    page.route("**/heat", lambda route: heat.append(route))
    held[0].continue_()
    expect(a1).to_have_class(re.compile(r"\b(miss|hit)"))
    page.unroute("**/api/battleship/games/*/shots")
    page.click("#enemy-grid [data-cell=F6]")  # while the heat map is on its way
    expect(page.locator("#enemy-grid [data-cell=F6]")).to_have_class(re.compile(r"\b(miss|hit)"))
    assert heat  # (held all along)
    for route in heat:
        route.continue_()
    page.unroute("**/heat")
    assert page.js_errors == []


def test_a_cell_moved_to_by_keys_is_not_hidden_under_the_status(server, browser):
    context = browser.new_context(viewport={"width": 750, "height": 340}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(server.url + "/battleship")
        start_game(page, "easy")
        page.click("#enemy-grid [data-cell=J10]")
        expect(page.locator("#status")).to_contain_text("You fired at J10")
        page.focus("#enemy-grid [data-cell=B3]")
        # The first row just under the top of the screen, where the status sticks.
        page.evaluate(
            "scrollTo(0, document.querySelector('#enemy-grid [data-cell=B1]')"
            ".getBoundingClientRect().top + scrollY - 5)"
        )
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
        focused = page.locator("#enemy-grid [data-cell=B1]")
        expect(focused).to_be_focused()
        page.wait_for_timeout(200)
        box = focused.bounding_box()
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.dataset.cell ?? null",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top == "B1"
    finally:
        context.close()


def test_a_phone_held_sideways_shows_both_boards_and_keeps_the_answers_in_sight(server, browser):
    context = browser.new_context(
        viewport={"width": 750, "height": 340}, has_touch=True, is_mobile=True, locale="en-US"
    )
    page = context.new_page()
    try:
        page.goto(server.url + "/battleship")
        start_game(page, "easy")
        board = page.locator("#enemy-grid").bounding_box()
        assert board["height"] <= 340, board
        own = page.locator("#own-grid").bounding_box()
        assert own["y"] == board["y"], (own, board)  # side by side: the reply is in sight
        page.locator("#enemy-grid").scroll_into_view_if_needed()
        page.tap("#enemy-grid [data-cell=E5]")
        expect(page.locator("#status")).to_contain_text("You fired at E5")
        assert page.locator("#status").bounding_box()["y"] >= 0  # kept in sight
        assert page.evaluate("document.documentElement.scrollWidth") <= 750
    finally:
        context.close()


def test_forced_colours_keep_your_ships_and_a_placement_apart_from_the_sea(server, browser):
    context = browser.new_context(forced_colors="active", viewport={"width": 1000, "height": 900})
    page = context.new_page()
    try:
        page.goto(server.url + "/battleship")
        page.click("#random-fleet")
        expect(page.locator("#place-grid .cell.ship")).to_have_count(17)
        background = "el => getComputedStyle(el).backgroundColor"
        ship = page.locator("#place-grid .cell.ship").first.evaluate(background)
        sea = page.locator("#place-grid .cell:not(.ship)").first.evaluate(background)
        assert ship != sea
    finally:
        context.close()


def _pointer(page, kind, selector, pointer_id=7):
    """Send a touch pointer event of ``kind`` at the middle of ``selector``."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(
        """([kind, selector, x, y, id]) => document.querySelector(selector).dispatchEvent(
            new PointerEvent(kind, {bubbles: true, pointerId: id, pointerType: "touch",
                                    clientX: x, clientY: y}))""",
        [kind, selector, x, y, pointer_id],
    )


@pytest.mark.parametrize(("ending", "placed"), [("pointercancel", 0), ("pointerup", 5)])
def test_a_drag_the_browser_takes_over_places_no_ship(server, phone, ending, placed):
    phone.goto(server.url + "/battleship")
    expect(phone.locator("#ships button")).to_have_count(5)
    _pointer(phone, "pointerdown", "#ships li:first-child button .squares")
    _pointer(phone, "pointermove", "#place-grid [data-cell=C3]")
    _pointer(phone, ending, "#place-grid [data-cell=C3]")
    expect(phone.locator("#place-grid .cell.ship")).to_have_count(placed)
    expect(phone.locator("#place-grid .cell.preview")).to_have_count(0)


def test_swiping_the_ship_list_scrolls_and_its_squares_drag(server, phone):
    """Read from the styles, since headless Chromium scrolls on no synthetic swipe: the
    browser may pan the page from a ship's button (and then cancels the drag, above), and
    from its squares it may not."""
    phone.goto(server.url + "/battleship")
    expect(phone.locator("#ships button")).to_have_count(5)
    action = "el => getComputedStyle(el).touchAction"
    assert phone.locator("#ships button").first.evaluate(action) == "pan-y"
    assert phone.locator("#ships .squares").first.evaluate(action) == "none"


def test_forced_colours_keep_a_pressed_button_apart_from_the_others(server, browser):
    context = browser.new_context(forced_colors="active", locale="en-US")
    page = context.new_page()
    try:
        page.goto(server.url + "/mastermind")
        pressed = page.locator("[data-mode][aria-pressed=true]")
        expect(pressed).to_be_enabled()
        background = "el => getComputedStyle(el).backgroundColor"
        other = page.locator("[data-mode][aria-pressed=false]")
        assert pressed.evaluate(background) != other.evaluate(background)
    finally:
        context.close()


def test_a_heat_map_that_comes_late_is_not_drawn_over_the_newer_one(server, page):
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "hard")
    page.click("#heat-toggle")
    expect(page.locator("#own-grid .cell.best")).to_have_count(4)
    held = []

    def hold_the_first(route):  # (its answer, for the game as it was, held back)
        route.continue_() if held else held.append((route, route.fetch()))

    page.route("**/heat", hold_the_first)
    answered = re.compile(r"\b(miss|hit|sunk)\b")
    for cell in ("A1", "J10"):
        page.click(f"#enemy-grid [data-cell={cell}]")
        expect(page.locator(f"#enemy-grid [data-cell={cell}]")).to_have_class(answered)
    newest = httpx.get(f"{server.url}/api/battleship/games/{game_id}/heat").json()
    titles = "cells => cells.map(c => [c.dataset.cell, c.title])"

    def drawn():
        return page.eval_on_selector_all("#own-grid .cell.heat", titles)

    expected = [[CLASSIC.grid.name(i), f"d = {d}"] for i, d in enumerate(newest["d"])]
    expected = [pair for pair in expected if pair[0] in {cell for cell, _ in drawn()}]
    assert drawn() == expected  # the map after J10's reply
    route, answer = held[0]
    route.fulfill(response=answer)  # the map after A1's, now late
    page.wait_for_timeout(500)
    assert drawn() == expected
    page.unroute("**/heat")
    assert page.js_errors == []


TOUCH_HELP = (
    "Drag a ship by its squares onto the board (or pick it in the list and tap a cell); "
    "the rotate button turns it."
)


def test_a_touch_screen_names_no_keys_until_a_key_is_pressed(server, touch_phone):
    """A phone with no keyboard was shown the key shortcuts' switch and told to press R."""
    page = touch_phone
    page.goto(server.url + "/battleship/replay")
    expect(page.locator("#counter")).to_contain_text("Before the first shot")
    expect(page.locator("[data-i18n='rp.keys']")).to_be_hidden()
    expect(page.locator("#keys-switch")).to_be_hidden()
    page.locator("#game").fill("744")
    page.keyboard.type("5")  # (text typed in a field: a screen keyboard can do that)
    page.goto(server.url + "/mastermind")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#compose-help")).to_have_text("Pick a peg, then a colour.")
    expect(page.locator("#keys-switch")).to_be_hidden()
    page.goto(server.url + "/battleship")
    expect(page.locator("#ships button")).to_have_count(5)
    expect(page.locator("#keys-switch")).to_be_hidden()
    expect(page.locator("#rotate")).to_have_text("Rotate: horizontal")
    expect(page.locator("[data-i18n='bs.setup.help']")).to_have_text(TOUCH_HELP)
    page.click("#lang-switch")
    expect(page.locator("[data-i18n='bs.setup.help']")).to_have_text(
        "Bir gemiyi karelerinden tutup tahtaya sürükle (ya da listeden seçip bir kareye dokun); "
        "döndür düğmesi çevirir."
    )
    page.click("#lang-switch")
    page.locator("h1").click()
    page.keyboard.press("r")  # a keyboard after all: the key acts, and the page names keys
    expect(page.locator("#keys-switch")).to_be_visible()
    expect(page.locator("#keys-switch")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#rotate")).to_have_text("Rotate (R): vertical")
    expect(page.locator("[data-i18n='bs.setup.help']")).to_contain_text("R or the rotate button")
    page.goto(server.url + "/battleship/replay")  # remembered in this tab
    expect(page.locator("#counter")).to_contain_text("Before the first shot")
    expect(page.locator("[data-i18n='rp.keys']")).to_contain_text("P toggles the pattern")
    expect(page.locator("#keys-switch")).to_be_visible()
    assert page.js_errors == []


def test_a_finger_reads_a_cell_of_the_heat_map_by_tapping_it(server, touch_phone):
    """The values were only in tooltips, which a phone cannot show."""
    page = touch_phone
    page.goto(server.url + "/battleship")
    game_id = start_game(page, "hard")
    page.locator("#heat-toggle").tap()
    expect(page.locator("#own-grid .cell.heat")).to_have_count(100)
    line = page.locator("#heat-cell")
    expect(line).to_have_text("Choose a cell of your board to read its d.")
    page.locator("#own-grid [data-cell=E5]").tap()
    expect(line).to_have_text("E5: d = 34")
    expect(page.locator("#own-grid .cell.current")).to_have_count(1)
    page.locator("#own-grid [data-cell=A1]").tap()
    expect(line).to_have_text("A1: d = 10")
    expect(page.locator("#own-grid [data-cell=A1]")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#own-grid .cell.current")).to_have_count(1)
    expect(page.locator("#counts")).to_contain_text("Your shots: 0")  # (nothing fired)
    # (the random fleet may put a ship on A1)
    expect(page.locator("#own-grid [data-cell=A1]")).to_have_attribute(
        "aria-label", re.compile(r"^A1, (not fired at|your ship), d = 10$")
    )
    page.click("#lang-switch")
    expect(line).to_have_text("A1: d = 10")
    page.click("#lang-switch")
    page.locator("#own-grid [data-cell=J10]").tap()
    # A shot later the line gives the new heat map's value.
    page.locator("#enemy-grid [data-cell=A1]").tap()
    expect(page.locator("#counts")).to_contain_text("Your shots: 1")
    heat = httpx.get(f"{server.url}/api/battleship/games/{game_id}/heat").json()
    expect(line).to_have_text(f"J10: d = {heat['d'][99]}")
    page.locator("#heat-toggle").tap()
    expect(line).to_have_text("")
    assert page.js_errors == []


PLACING = "hamle.battleship.placing.classic"


def ships(page):
    return page.eval_on_selector_all(
        "#place-grid .cell.ship", "cells => cells.map(c => c.dataset.cell)"
    )


def test_a_fleet_being_placed_survives_a_reload_until_the_game_starts(server, page):
    page.goto(server.url + "/battleship")
    page.click("#ships button[data-ship='4']")
    page.click("#place-grid [data-cell=C3]")  # the Destroyer, then the rest at random
    expect(page.locator("#place-grid .cell.ship")).to_have_count(2)
    page.reload()
    expect(page.locator("#place-grid .cell.ship")).to_have_count(2)
    assert ships(page) == ["C3", "D3"]
    expect(page.locator("#status")).to_have_text(
        "Carrier is chosen: click the cell of your board where it starts."
    )
    page.click("#random-fleet")
    expect(page.locator("#start")).to_be_enabled()
    classic = ships(page)
    # Each rule set keeps its own, and the one last chosen comes back.
    page.select_option("#rules", "russian")
    expect(page.locator("#place-grid .cell.ship")).to_have_count(0)
    page.click("#random-fleet")
    expect(page.locator("#place-grid .cell.ship")).to_have_count(20)
    russian = ships(page)
    page.reload()
    expect(page.locator("#rules")).to_have_value("russian")
    expect(page.locator("#place-grid .cell.ship")).to_have_count(20)
    assert ships(page) == russian
    expect(page.locator("#status")).to_have_text(
        "Your fleet is ready. Choose a level and press Start."
    )
    page.click("#clear")  # forgotten
    page.reload()
    expect(page.locator("#rules")).to_have_value("russian")
    expect(page.locator("#ships button")).to_have_count(10)
    expect(page.locator("#place-grid .cell.ship")).to_have_count(0)
    page.select_option("#rules", "classic")
    expect(page.locator("#place-grid .cell.ship")).to_have_count(17)
    assert ships(page) == classic
    page.click("#start")  # forgotten too
    expect(page.locator("#play")).to_be_visible()
    assert page.evaluate(f"sessionStorage.getItem('{PLACING}')") is None
    assert page.js_errors == []


@pytest.mark.parametrize(
    "kept",
    [
        "{not json",
        '"C3"',
        '[{"start": "C3", "vertical": false}]',  # another fleet
        '[null, null, null, null, {"start": "J3", "vertical": false}]',  # off the board
        '[null, null, null, null, {"start": "K3", "vertical": false}]',
        '[null, null, null, {"start": "C3", "vertical": true}, {"start": "C4", "vertical": false}]',
    ],
)
def test_a_kept_placement_that_does_not_fit_is_dropped(server, page, kept):
    page.goto(server.url + "/battleship")
    expect(page.locator("#ships button")).to_have_count(5)
    page.evaluate("([key, kept]) => sessionStorage.setItem(key, kept)", [PLACING, kept])
    page.reload()
    expect(page.locator("#ships button")).to_have_count(5)
    expect(page.locator("#status")).to_have_text(
        "Carrier is chosen: click the cell of your board where it starts."
    )
    expect(page.locator("#place-grid .cell.ship")).to_have_count(0)
    assert page.evaluate(f"sessionStorage.getItem('{PLACING}')") is None
    assert page.js_errors == []
