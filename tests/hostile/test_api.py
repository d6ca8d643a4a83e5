"""Every API endpoint under generated bad input: a 4xx JSON answer with a readable
message, or a 2xx where the input happens to be good; never a 5xx, never a long wait."""

from __future__ import annotations

import json
from time import perf_counter
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from web.test_error_codes import placeholders, turkish_texts

from hamle.web import create_app
from hamle.web.battleship import MAX_GAMES, MIN_GAMES

TURKISH = turkish_texts()

# method, path ({id}: a game of that kind, or a made-up id), the fields its body may have
ENDPOINTS = [
    ("GET", "/api/battleship/fleet", ()),
    ("POST", "/api/battleship/games", ("rules", "level", "fleet")),
    ("GET", "/api/battleship/games/{battleship}", ()),
    ("POST", "/api/battleship/games/{battleship}/shots", ("cell",)),
    ("GET", "/api/battleship/games/{battleship}/heat", ()),
    ("GET", "/api/battleship/replay", ()),
    ("GET", "/api/battleship/stats", ()),
    ("POST", "/api/battleship/stats", ("rules", "games")),
    ("GET", "/api/battleship/stats/progress", ()),
    ("POST", "/api/battleship/density", ("rules", "miss", "hit", "sunk", "afloat")),
    ("POST", "/api/battleship/exact", ("rules", "miss", "hit", "sunk", "afloat")),
    ("POST", "/api/mastermind/games", ("variant", "mode", "strategy")),
    ("GET", "/api/mastermind/games/{mastermind}", ()),
    ("POST", "/api/mastermind/games/{mastermind}/guess", ("guess",)),
    ("GET", "/api/mastermind/games/{mastermind}/suggest", ()),
    ("GET", "/api/mastermind/games/{mastermind}/candidates", ()),
    ("POST", "/api/mastermind/games/{maker}/answer", ("guess", "black", "white")),
    ("POST", "/api/mastermind/games/{mastermind}/undo", ()),
    ("GET", "/api/tour/daily", ()),
    ("POST", "/api/tour/games", ("kind", "date", "start")),
    ("GET", "/api/tour/games/{tour}", ()),
    ("POST", "/api/tour/games/{tour}/moves", ("cell", "from")),
    ("POST", "/api/tour/games/{tour}/undo", ("cell",)),
    ("POST", "/api/tour/games/{tour}/hint", ("mode", "from")),
]
HUGE = "<a number of 5000 digits>"  # put into the JSON text as such (json.dumps cannot)
QUERY = ("rules", "game", "strategy", "pattern", "games", "date", "limit", "variant")

scalars = st.one_of(
    st.integers(-(10**12), 10**12),
    st.sampled_from([HUGE, -1, 0, 1, 2, 5, 99, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    st.text(max_size=30),
    st.sampled_from(["A1", "E5", "K11", "a1", "J10", "", "1122", "russian", "classic", "9" * 5000]),
    st.sampled_from(["maker", "breaker", "daily", "free", "quick", "optimal", "2026-02-30"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
made_up_ids = st.one_of(st.text(max_size=40), st.sampled_from(["../../etc", "0", "9" * 5000]))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hamle.sqlite3"
    with TestClient(create_app(path, warm=False)) as client:
        for rules in ("classic", "russian"):  # compiled first: the time limit is for the work
            compiled = client.post("/api/battleship/exact", json={"rules": rules, "miss": ["A1"]})
            assert compiled.status_code == 200, compiled.text
        fleet = client.get("/api/battleship/fleet").json()
        ids = {
            "battleship": client.post("/api/battleship/games", json=fleet_body(fleet)).json(),
            "mastermind": client.post("/api/mastermind/games", json={}).json(),
            "maker": client.post("/api/mastermind/games", json={"mode": "maker"}).json(),
            "tour": client.post("/api/tour/games", json={"kind": "free"}).json(),
        }
        yield client, {kind: game["id"] for kind, game in ids.items()}


def fleet_body(fleet) -> dict:
    return {"fleet": [ship["cells"] for ship in fleet["fleet"]]}


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_bad_input_gets_a_readable_4xx_and_never_a_5xx(site, data):
    client, ids = site
    method, path, fields = data.draw(st.sampled_from(ENDPOINTS))
    for kind, game in ids.items():
        if "{" + kind + "}" in path:
            real = data.draw(st.booleans())
            made_up = quote(data.draw(made_up_ids), safe="")
            path = path.replace("{" + kind + "}", game if real else made_up)
    params = data.draw(st.dictionaries(st.sampled_from(QUERY), st.text(max_size=12), max_size=3))
    body = data.draw(
        st.one_of(
            values,
            st.fixed_dictionaries({}, optional={field: values for field in fields}),
        )
    )
    if path.endswith("/battleship/stats") and method == "POST" and isinstance(body, dict):
        games = body.get("games")
        assume(not (isinstance(games, int) and MIN_GAMES <= games <= MAX_GAMES))
    started = perf_counter()
    if method == "GET":
        response = client.get(path, params=params)
    else:
        content = json.dumps(body).replace(json.dumps(HUGE), "9" * 5000).encode()
        headers = {"content-type": "application/json"}
        response = client.post(path, params=params, content=content, headers=headers)
    assert perf_counter() - started < 20, (method, path)  # no hang, no minutes of work
    assert response.status_code < 500, (method, path, body, response.text)
    if response.status_code >= 400:
        answer = response.json()
        assert isinstance(answer["detail"], str) and answer["detail"], (method, path, answer)
        # the code and params let the pages say it in Turkish
        template = TURKISH.get(answer["code"])
        assert template, (method, path, body, answer)
        assert placeholders(template) <= set(answer["params"]), (method, path, answer)
