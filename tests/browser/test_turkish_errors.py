"""Each page in Turkish, walked into the server's refusals a player can meet: marks that
contradict the rules, answers no secret gives, moves made stale by another tab, a game
that is over or gone. Every message is Turkish, and English after a change of language."""

from __future__ import annotations

import re

import httpx2 as httpx
import pytest
from browser.test_mastermind import CLASSIC, contradicting
from playwright.sync_api import expect


@pytest.fixture
def turkish(page):
    page.add_init_script("localStorage.setItem('hamle.lang', 'tr')")
    return page


def status(page):
    return page.get_by_role("status")


def test_the_lab_names_contradicting_marks_in_turkish(server, turkish):
    page = turkish
    page.goto(server.url + "/battleship/lab")
    expect(page.locator("#best")).not_to_have_text("—")
    page.click("[data-tool=sunk]")
    page.click("#board [data-cell='A1']")
    expect(status(page)).to_have_text(
        "Batık gemi A1 1 kare uzunluğunda; filoda bu uzunlukta gemi yok."
    )
    page.click("#lang-switch")
    page.click("[data-tool=sunk]")
    page.click("#board [data-cell='A1']")  # off, and on again: the message is redrawn
    page.click("#board [data-cell='A1']")
    expect(status(page)).to_have_text("sunk ship A1 has length 1; no ship in the fleet has it")
    assert page.js_errors == []


def test_mastermind_explains_contradicting_answers_and_a_finished_game(server, turkish):
    page = turkish
    with httpx.Client(base_url=server.url) as client:
        game = client.post("/api/mastermind/games", json={"mode": "maker"}).json()
    page.goto(f"{server.url}/mastermind?game={game['id']}")
    turns, wrong = [], None
    while wrong is None:
        expect(page.locator("#maker-rows li")).to_have_count(len(turns))
        proposal = page.locator("#proposal")
        expect(proposal).to_have_attribute("data-code", re.compile(r"^\d{4}$"))
        guess = CLASSIC.parse(page.locator("#proposal").get_attribute("data-code"))
        wrong = contradicting(turns, guess) if turns else None
        black, white = wrong or (0, 0)
        page.select_option("#black", str(black))
        page.select_option("#white", str(white))
        page.click("#answer")
        if wrong is None:
            turns.append((guess, CLASSIC.answer(0, 0)))
    expect(status(page)).to_have_text(
        re.compile(
            r"^Yanıt kaydedilmedi: Hiçbir gizli kod bu yanıtların hepsini vermez: "
            r"1\. tahmin \(1122 → 0 siyah, 0 beyaz\).* birlikte doğru olamaz"
        )
    )
    page.click("#lang-switch")
    expect(status(page)).to_have_text(
        re.compile(r"^Answer not recorded: no secret gives all these answers: #1 \(1122 → 0 black")
    )
    page.click("#lang-switch")
    # A codebreaker game given up in another tab: this one's guess is refused.
    with httpx.Client(base_url=server.url) as client:
        game = client.post("/api/mastermind/games", json={}).json()
        page.goto(f"{server.url}/mastermind?game={game['id']}")
        expect(page.locator("#compose-title")).to_have_text("1. tahmin")
        client.post(f"/api/mastermind/games/{game['id']}/give-up").raise_for_status()
    page.keyboard.type("1234")
    page.click("#submit")
    expect(status(page)).to_have_text("Bu oyun bitti; yeni bir oyun başlat.")
    assert page.js_errors == []


def test_a_tour_move_made_stale_by_another_tab_is_refused_in_turkish(server, turkish):
    page = turkish
    with httpx.Client(base_url=server.url) as client:
        game = client.post("/api/tour/games", json={"kind": "free", "start": "A1"}).json()
        page.goto(f"{server.url}/tour?game={game['id']}")
        target = game["legal"][0]
        expect(page.locator(f"#board .cell[data-cell='{target}']")).to_have_class(
            re.compile(r"\blegal\b")
        )
        client.post(f"/api/tour/games/{game['id']}/moves", json={"cell": target, "from": "A1"})
    page.click(f"#board .cell[data-cell='{target}']")
    changed = f"Oyun artık A1 karesinde değil, {target} karesinde: başka bir sayfada değişti."
    expect(status(page)).to_have_text(changed)
    assert page.js_errors == []


def test_battleship_refuses_a_stale_shot_and_a_lost_game_in_turkish(server, turkish):
    page = turkish
    with httpx.Client(base_url=server.url) as client:
        fleet = client.get("/api/battleship/fleet").json()["fleet"]
        body = {"fleet": [ship["cells"] for ship in fleet], "level": "easy"}
        game = client.post("/api/battleship/games", json=body).json()
        page.goto(f"{server.url}/battleship?game={game['id']}")
        expect(page.locator("#enemy-grid .cell")).to_have_count(100)
        client.post(f"/api/battleship/games/{game['id']}/shots", json={"cell": "C3"})
    page.click("#enemy-grid [data-cell=C3]")
    expect(status(page)).to_have_text("C3 karesine zaten ateş edildi.")
    shot = re.compile(r"\b(miss|hit|sunk)\b")  # the board now shows the shot fired elsewhere
    expect(page.locator("#enemy-grid [data-cell=C3]")).to_have_class(shot)
    page.goto(f"{server.url}/battleship?game={'Z' * 22}")
    expect(status(page)).to_have_text(
        "Kayıtlı oyun bulunamadı; yeni bir oyun için filonu yerleştir."
    )
    assert page.js_errors == []


def turkish_of(page, answer: httpx.Response) -> str:
    """The page's Turkish text of an error answer of the API."""
    assert answer.status_code == 422, answer.text
    script = "async (body) => (await import('/static/js/errors.js')).turkishError(body)"
    return page.evaluate(script, answer.json())


DENSITY = "/api/battleship/density"
JSON = {"headers": {"content-type": "application/json"}}
MALFORMED = [  # (method, path, what is sent), the reason in Turkish
    (
        (
            "POST",
            DENSITY,
            {"content": '{"hit": ["A1"]}', "headers": {"content-type": "text/plain"}},
        ),
        "istek gövdesi JSON olarak gönderilmeli (Content-Type: application/json), "
        "text/plain olarak değil",
    ),
    (
        ("POST", DENSITY, {"content": '{"hit": ["A1"]}'}),
        "istek gövdesi JSON olarak gönderilmeli (Content-Type: application/json), "
        "türü belirtilmemiş baytlar olarak değil",
    ),
    (
        ("POST", DENSITY, {"content": '{"hit": ["A1"], "hit": ["B2"]}', **JSON}),
        "istek gövdesinde 'hit' adı bir nesnede iki kez verilmiş",
    ),
    (
        ("POST", DENSITY, {"content": "[" * 5000 + "]" * 5000, **JSON}),
        "istek gövdesi fazla derin iç içe geçmiş",
    ),
    (
        ("POST", DENSITY, {"content": '{"miss": ' + "9" * 5000 + "}", **JSON}),
        "istek gövdesindeki bir sayının 4.300 basamaktan fazlası var",
    ),
    (
        ("POST", DENSITY, {"content": b'{"hit": ["\xff"]}', **JSON}),
        "istek gövdesi UTF-8 yazı değil",
    ),
    (
        ("POST", DENSITY, {"content": '{"hit": ["A1"],}', **JSON}),
        "istek gövdesi geçerli JSON değil: 16. karakterde bir yazım hatası var",
    ),
    (("POST", DENSITY, {"content": "[]", **JSON}), "istek gövdesi bir JSON nesnesi olmalı"),
    (("POST", DENSITY, JSON), "istek gövdesi eksik"),
    (("POST", DENSITY, {"json": {"hit": ["A1"], "mis": []}}), "mis bilinmeyen bir alan"),
    (("POST", DENSITY, {"json": {"hit": [5]}}), "hit.0 yazı olmalı"),
    (
        ("POST", "/api/tour/games", {"json": {"kind": "daily", "start": "A1"}}),
        "günün bulmacasının kendi başlangıç karesi var; başlangıcı seçmek için serbest oyunu seç",
    ),
    (("GET", "/api/tour/daily?dat=2026-01-01", {}), "dat bilinmeyen bir alan"),
    (("GET", "/api/tour/daily?query=1", {}), "query bilinmeyen bir alan"),
    (("GET", "/api/tour/daily?date=1&date=2", {}), "date birden çok kez verilmiş"),
]


def test_a_malformed_request_is_said_in_turkish_with_its_reason(server, turkish):
    page = turkish
    page.goto(server.url + "/")
    with httpx.Client(base_url=server.url) as client:
        for (method, path, sent), reason in MALFORMED:
            said = turkish_of(page, client.request(method, path, **sent))
            assert said == f"Sunucu isteği anlamadı: {reason}", (path, sent)
            assert "  " not in said
    assert page.js_errors == []


def test_a_list_cut_short_says_how_many_more_in_turkish(server, page):
    page.goto(server.url + "/")
    said = page.evaluate(
        """async () => {
            const { turkishError } = await import("/static/js/errors.js");
            const problems = [{ field: "p0", type: "extra_forbidden" }];
            return [
                turkishError({ code: "site.invalid_request", params: { problems, more: 1980 } }),
                turkishError({ code: "site.invalid_request", params: { problems } }),
            ];
        }"""
    )
    assert said == [
        "Sunucu isteği anlamadı: p0 bilinmeyen bir alan ve 1980 tane daha",
        "Sunucu isteği anlamadı: p0 bilinmeyen bir alan",
    ]
