"""The home page, the navigation and the Turkish switch in a real browser."""

import re

import pytest
from playwright.sync_api import expect


def test_home_lists_every_game_and_page(server, page, screenshot):
    page.goto(server.url + "/")
    for heading in (
        "Amiral Battı",
        "Density lab",
        "Statistics",
        "Replay",
        "Mastermind",
        "Yüz Yüze",
    ):
        assert page.get_by_role("heading", name=heading).is_visible()
    for href in ("/battleship", "/battleship/lab", "/battleship/stats", "/mastermind", "/tour"):
        assert page.locator(f"main a[href='{href}']").count() == 1
    pages = page.get_by_role("navigation", name="Pages")  # (not "Home", the name of one link)
    expect(pages.get_by_role("link")).to_have_count(8)
    screenshot(page, "home-laptop")
    assert page.js_errors == []


def test_turkish_switch_translates_and_is_remembered(server, page, screenshot):
    page.goto(server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.click("#lang-switch")
    assert page.locator("html").get_attribute("lang") == "tr"
    assert page.get_by_role("heading", name="Yoğunluk laboratuvarı").is_visible()
    assert page.locator("#lang-switch").inner_text() == "English"
    page.reload()
    assert page.get_by_role("heading", name="İstatistikler").is_visible()
    screenshot(page, "home-turkish")
    page.click("#lang-switch")
    assert page.get_by_role("heading", name="Statistics").is_visible()


def test_home_fits_a_phone(server, phone, screenshot):
    phone.goto(server.url + "/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"] < 1280
    screenshot(phone, "home-phone")


def test_every_page_works_under_its_security_policy(server, page):
    """The real server: its headers (no ``server``), and no page trips its policy."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for path in (
        "/",
        "/battleship",
        "/battleship/lab",
        "/battleship/stats",
        "/mastermind",
        "/tour",
    ):
        response = page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
        headers = response.headers
        assert "content-security-policy" in headers and "server" not in headers, path
    assert violations == [] and page.js_errors == []


def test_the_api_docs_render_with_the_network_cut(server, page):
    def only_the_site(route):
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_the_site)
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock", timeout=20_000)
    assert page.locator(".opblock").count() > 10
    assert page.get_by_text("/api/health").first.is_visible()


TURKISH_TITLES = {
    "/battleship": "Amiral Battı · hamle",
    "/battleship/lab": "Yoğunluk laboratuvarı · hamle",
    "/battleship/stats": "İstatistikler · hamle",
    "/battleship/replay": "Tekrar izle · hamle",
    "/mastermind": "Mastermind · hamle",
    "/tour": "Yüz Yüze · hamle",
}


def test_turkish_pages_have_turkish_titles_and_one_voice(server, page):
    """Titles follow the language; the texts say "sen", "kare" and "Bot" throughout."""
    page.goto(server.url + "/")
    page.click("#lang-switch")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    for path, title in TURKISH_TITLES.items():
        page.goto(server.url + path)
        expect(page).to_have_title(title)
        text = page.locator("body").inner_text()
        formal = re.findall(r"\b\w+(?:ınız|iniz|unuz|ünüz|ayın|eyin|ıyın|iyin|layın|leyin)\b", text)
        assert formal == [], (path, formal)
        assert not re.search(r"\b(hücre\w*|Hücre\w*|Tekne\w*)", text), path
    page.click("#lang-switch")
    expect(page).to_have_title("Yüz Yüze · hamle")
    assert page.js_errors == []


def test_an_address_that_names_no_page_says_so_in_both_languages(server, page):
    page.goto(server.url + "/Tour")
    expect(page.get_by_role("heading", name="No such page")).to_be_visible()
    expect(page).to_have_title("No such page · hamle")
    page.click("#lang-switch")
    expect(page.get_by_role("heading", name="Böyle bir sayfa yok")).to_be_visible()
    expect(page).to_have_title("Böyle bir sayfa yok · hamle")
    page.get_by_role("link", name="Ana sayfaya git").click()
    expect(page).to_have_url(server.url + "/")
    assert page.js_errors == []


def test_the_first_tab_stop_skips_to_the_page(server, page):
    for path in ("/", "/battleship", "/mastermind"):
        page.goto(server.url + path)
        skip = page.get_by_role("link", name="Skip to the page")
        assert skip.bounding_box()["width"] <= 1  # hidden until focused
        page.keyboard.press("Tab")
        expect(skip).to_be_focused()
        assert skip.bounding_box()["width"] > 20
        page.keyboard.press("Enter")
        expect(page.locator("main")).to_be_focused()
        page.keyboard.press("Tab")  # the next stop is in the page, past the navigation
        assert page.evaluate("document.activeElement.closest('main') !== null")
    assert page.js_errors == []


PAGES = ["/", "/battleship", "/battleship/lab", "/battleship/stats", "/battleship/replay"]
PAGES += ["/mastermind", "/tour"]


@pytest.mark.parametrize(
    ("path", "script", "button"),
    [
        ("/mastermind", "mastermind.js", "#new-game"),
        ("/tour", "tour.js", "#daily"),
        ("/battleship/stats", "stats.js", "#compute"),
        ("/battleship/lab", "lab.js", "[data-tool=hit]"),
    ],
)
def test_a_button_waits_for_its_script_so_no_early_tap_is_lost(server, page, path, script, button):
    held = []
    page.route(f"**/static/js/{script}", lambda route: held.append(route))
    page.goto(server.url + path, wait_until="commit")  # (a module script holds DOMContentLoaded)
    expect(page.locator(button)).to_be_visible()
    expect(page.locator(button)).to_be_disabled()
    held[0].continue_()
    expect(page.locator(button)).to_be_enabled()
    assert page.js_errors == []


def test_without_javascript_every_page_says_it_needs_it(server, browser):
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    page = context.new_page()
    try:
        for path in PAGES:
            page.goto(server.url + path)
            note = page.locator("noscript p, p.noscript")
            expect(note).to_be_visible()
            expect(note).to_contain_text("This page needs JavaScript")
            expect(note.locator("[lang=tr]")).to_have_text(
                "Bu sayfa JavaScript gerektirir: aç ve sayfayı yenile."
            )
    finally:
        context.close()


@pytest.mark.parametrize("path", PAGES)
def test_a_phone_with_text_twice_as_large_needs_no_sideways_scrolling(server, phone, path):
    phone.goto(server.url + path)
    expect(phone.locator("#top .brand")).to_be_visible()
    phone.evaluate("document.documentElement.style.fontSize = '200%'")  # the browser's text size
    phone.wait_for_timeout(100)
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.viewport_size["width"]


def lit(page, side):
    """Whether the navigation's edge on that side differs from the plain header just outside it
    (compared above the links' text)."""
    box = page.locator("#top nav").bounding_box()
    inside, outside = (1, -4) if side == "left" else (box["width"] - 2, box["width"] + 3)

    def strip(x):
        return page.screenshot(clip={"x": box["x"] + x, "y": box["y"] + 1, "width": 1, "height": 3})

    return strip(inside) != strip(outside)


CUT_OFF = """nav => {
  const edge = nav.getBoundingClientRect();
  const links = [...nav.querySelectorAll("a")].map((a) => a.getBoundingClientRect());
  const left = links.some((r) => r.left < edge.left - 0.5);
  return [left, links.some((r) => r.right > edge.right + 0.5)];
}"""


@pytest.mark.parametrize("colours", ["none", "active"])
def test_a_narrow_phone_shows_where_more_links_of_the_navigation_lie(server, browser, colours):
    """The row of links scrolled sideways with no sign that some were out of sight (also in a
    high-contrast theme, forced colours)."""
    context = browser.new_context(
        viewport={"width": 320, "height": 640}, locale="en-US", forced_colors=colours
    )
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        nav = page.locator("#top nav")
        expect(nav.get_by_role("link")).to_have_count(8)
        ends = nav.evaluate("nav => nav.scrollWidth - nav.clientWidth")
        assert ends > 0  # (at 320 px the links do not fit one row)
        for scroll in (0, ends // 2, ends):
            nav.evaluate("(nav, x) => { nav.scrollLeft = x; }", scroll)
            page.wait_for_timeout(50)
            left, right = nav.evaluate(CUT_OFF)
            assert (lit(page, "left"), lit(page, "right")) == (left, right), scroll
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()
