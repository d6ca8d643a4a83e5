"""Security headers on every response, other sites' names and writes refused, bodies capped
with 413, the icon and HEAD."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import hamle.web.mastermind as mastermind_routes
from hamle.web import create_app
from hamle.web.guard import MAX_BODY


@pytest.fixture
def local(tmp_path):
    """The site as a browser on this machine reaches it: over the network at 127.0.0.1."""
    app = create_app(tmp_path / "hamle.sqlite3", warm=False, hosts=("Games.Example",))
    with TestClient(app, base_url="http://127.0.0.1:8000") as test_client:
        yield test_client


@pytest.mark.parametrize("path", ["/", "/battleship", "/static/css/site.css", "/api/health"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-inline'" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
    assert "server" not in response.headers


def test_the_apis_answers_are_not_stored_and_the_pages_are_revalidated(client):
    game = client.post("/api/tour/games", json={"kind": "free", "start": "A1"})
    for answer in (
        game,
        client.get(f"/api/tour/games/{game.json()['id']}"),
        client.get("/api/health"),
        client.post("/api/battleship/density", json={"miss": ["K1"]}),  # (an error too)
        client.get("/api/nowhere"),
    ):
        assert answer.headers["cache-control"] == "no-store", answer.request.url
    assert client.get("/tour").headers["cache-control"] == "no-cache"
    assert "no-store" not in client.get("/static/css/site.css").headers.get("cache-control", "")


def test_error_responses_carry_them_too(client):
    response = client.post("/api/battleship/density", json={"miss": ["K1"]})
    assert response.status_code == 400 and response.headers["x-content-type-options"] == "nosniff"


def test_a_body_over_the_cap_is_refused_before_it_is_read(client):
    big = b'{"miss": [' + b'"A1",' * (MAX_BODY // 5) + b'"A1"]}'
    response = client.post(
        "/api/battleship/density", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and "over 262,144 bytes" in response.json()["detail"]
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_a_streamed_body_over_the_cap_is_refused(client):
    def chunks():
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    response = client.post(
        "/api/battleship/density", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_a_bad_content_length_is_refused(client):
    response = client.post("/api/battleship/density", headers={"content-length": "lots"})
    assert response.status_code in (400, 413)


@pytest.mark.parametrize(
    "host",
    [
        "rebound.example:8000",
        "rebound.example",
        "127.0.0.1.rebound.example",
        "localhost.evil",
    ],
)
def test_a_name_the_site_was_not_given_is_refused(local, host):
    """A page of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding)
    must not read the site, nor write to it."""
    name = host.split(":")[0]
    for answer in (
        local.get("/api/health", headers={"host": host}),
        local.post("/api/tour/games", json={"kind": "free"}, headers={"host": host}),
    ):
        assert answer.status_code == 403
        problem = answer.json()
        assert problem["code"] == "site.wrong_host" and problem["params"] == {"host": name}
        assert f"--allow-host {name}" in problem["detail"]
        assert answer.headers["x-content-type-options"] == "nosniff"
    page = local.get("/tour", headers={"host": host})
    assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
    assert "--allow-host" in page.text and "/static/" not in page.text  # (those are refused too)


@pytest.mark.parametrize("host", ["[::1", "[::1]junk", "localhost:abc", "127.0.0.1:8000:9"])
def test_a_host_that_is_no_name_and_port_is_refused(local, host):
    """These were read as ::1, localhost and 127.0.0.1, and answered."""
    answer = local.get("/api/health", headers={"host": host})
    assert answer.status_code == 403
    problem = answer.json()
    assert problem["code"] == "site.wrong_host" and problem["params"] == {"host": host}
    assert problem["detail"] == (
        f"{host!r} is no host name and port; open the site at its address or localhost"
    )


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:8000",
        "127.0.0.1",
        "127.1.2.3:8000",
        "[::1]:8000",
        "localhost:8000",
        "LocalHost.",
        "hamle.localhost:8000",
        "192.0.2.7:8000",  # (an address can be no other site's name)
        "0.0.0.0:8000",
        "games.example",  # given to the site
        "GAMES.example:443",
    ],
)
def test_addresses_localhost_and_the_names_given_are_answered(local, host):
    assert local.get("/api/health", headers={"host": host}).status_code == 200
    assert local.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://rebound.example"},
        {"origin": "http://127.0.0.1:9000"},  # another port, another site
        {"origin": "null"},
        {"origin": ""},
        {"origin": "http://[::1"},  # (it failed with a bare 500)
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "cross-site", "origin": "http://127.0.0.1:8000"},
    ],
)
def test_a_write_from_another_site_is_refused(local, headers):
    """A form on another site can POST without a body to give a game up."""
    game = local.post("/api/mastermind/games", json={"variant": "classic"}).json()
    for answer in (
        local.post(f"/api/mastermind/games/{game['id']}/give-up", headers=headers),
        local.post("/api/tour/games", json={"kind": "free"}, headers=headers),
        local.post(
            "/api/tour/games",
            content=b"kind=free",
            headers={**headers, "content-type": "application/x-www-form-urlencoded"},
        ),
    ):
        assert answer.status_code == 403
        assert answer.json()["code"] == "site.cross_site"
        assert "from another site" in answer.json()["detail"]
    assert not local.get(f"/api/mastermind/games/{game['id']}").json()["over"]
    # Reading is left to the browser's same-origin policy.
    assert local.get(f"/api/mastermind/games/{game['id']}", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {},  # (a program, or a browser that sends neither)
        {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "same-origin"},
        {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "same-site"},
        {"sec-fetch-site": "none"},  # (typed by the user)
    ],
)
def test_a_write_from_the_site_itself_is_taken(local, headers):
    game = local.post("/api/mastermind/games", json={"variant": "classic"}, headers=headers)
    assert game.status_code == 201
    given_up = local.post(f"/api/mastermind/games/{game.json()['id']}/give-up", headers=headers)
    assert given_up.status_code == 200 and given_up.json()["gave_up"]


def test_the_origin_is_compared_with_the_host_the_request_names(local):
    """Behind a proxy that keeps the Host, the page's origin is the proxy's."""
    for origin, host in (
        ("https://games.example", "games.example"),
        ("http://localhost", "localhost:80"),
        ("http://[::1]:8000", "[::1]:8000"),
    ):
        headers = {"origin": origin, "host": host}
        answer = local.post("/api/tour/games", json={"kind": "free"}, headers=headers)
        assert answer.status_code == 201, (origin, host)


def test_a_write_through_a_proxy_that_sends_its_own_host_is_taken(local):
    """nginx sends the address it passes to as the Host by default: the page's origin is
    then a name the site was given, which was refused as another site's."""
    headers = {"origin": "https://games.example", "host": "127.0.0.1:8000"}
    answer = local.post("/api/tour/games", json={"kind": "free"}, headers=headers)
    assert answer.status_code == 201
    headers = {"origin": "https://other.example", "host": "127.0.0.1:8000"}
    answer = local.post("/api/tour/games", json={"kind": "free"}, headers=headers)
    assert answer.status_code == 403 and answer.json()["code"] == "site.cross_site"


def test_the_icon_and_head_requests(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in icon.content
    for page in ("/", "/mastermind", "/tour"):
        head = client.head(page)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-type"].startswith("text/html")
    health = client.head("/api/health")  # as monitors ask
    assert health.status_code == 200 and health.content == b""


def test_pages_files_and_documents_answer_head_without_a_body(client):
    for path in ("/", "/battleship/lab", "/static/js/tour.js", "/docs", "/openapi.json"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(got.content))
        assert head.headers["content-type"] == got.headers["content-type"]
    assert client.head("/nowhere").status_code == 404


def test_the_api_answers_head_at_health_alone_and_does_no_work_for_it(client, monkeypatch):
    """A HEAD on a route that works out its answer did the work to throw it away."""
    worked = []
    monkeypatch.setattr(mastermind_routes, "_next_guess", lambda state: worked.append(state))
    game = client.post("/api/mastermind/games", json={"variant": "classic"}).json()
    for path in (
        f"/api/mastermind/games/{game['id']}/suggest",
        f"/api/mastermind/games/{game['id']}/candidates",
        "/api/battleship/replay?game=1&strategy=expert",
        "/api/mastermind/variants",
        "/api/tour/daily?date=2026-01-02",
    ):
        head = client.head(path)
        assert head.status_code == 405 and head.content == b"", path
        assert head.headers["allow"] == "GET"
    assert worked == []
    post_only = client.head("/api/battleship/density")
    assert post_only.status_code == 405 and "POST" in post_only.headers["allow"]
    assert client.head("/api/nowhere").status_code == 404
    got, head = client.get("/api/health"), client.head("/api/health")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(got.content))


def test_the_api_docs_need_nothing_from_the_network(client):
    for docs in ("/docs", "/redoc"):
        page = client.get(docs)
        assert (
            page.status_code == 200 and "https://" not in page.text and "http://" not in page.text
        )
        # (ReDoc's script would fetch its logo from the network: the policy keeps it home)
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "img-src 'self' data:" in policy
        assert "worker-src 'self' blob:" in policy  # (ReDoc's search)
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        assert client.get(f"/docs/assets/{asset}").status_code == 200
    assert client.get("/openapi.json").json()["info"]["title"] == "hamle"


def test_pages_and_their_modules_are_asked_about_again_before_use(client):
    """After an upgrade a page must not run the modules of the version before."""
    for path in ("/tour", "/static/js/tour.js", "/static/css/site.css"):
        response = client.get(path)
        assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
    module = client.get("/static/js/tour.js")
    again = client.get("/static/js/tour.js", headers={"if-none-match": module.headers["etag"]})
    assert again.status_code == 304


def test_a_method_refused_at_an_address_of_two_routes_names_both(client):
    """The statistics take GET and POST, as two routes: a 405 named GET alone."""
    for method in ("HEAD", "PUT"):
        answer = client.request(method, "/api/battleship/stats")
        assert answer.status_code == 405 and answer.headers["allow"] == "GET, POST"
    assert client.put("/api/tour/games").headers["allow"] == "POST"
