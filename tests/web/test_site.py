"""What the whole site shares: pages, static files, the OpenAPI schema, error shapes."""

import json
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from hamle.cli import app as cli
from hamle.web import create_app
from hamle.web import store as store_module
from hamle.web.app import PAGES
from hamle.web.store import GameBusy, GameChanged, GameNotFound, Store, StoreBusy


@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_page_is_html_with_the_shared_chrome(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<header id="top">' in response.text
    assert '<meta name="viewport"' in response.text
    for script in re.findall(r'src="(/static/[^"]+)"', response.text):
        assert client.get(script).status_code == 200, script


def test_openapi_schema_describes_every_game(client):
    schema = client.get("/openapi.json").json()
    prefixes = {path.split("/")[2] for path in schema["paths"] if path.startswith("/api/")}
    assert {"battleship", "mastermind", "tour", "health"} <= prefixes
    assert client.get("/docs").status_code == 200


def test_the_schema_documents_the_refusals_each_route_may_answer_with(client):
    """It documented FastAPI's own 422 body, which the site never sends, and no other."""
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in str(schema)
    assert set(schema["components"]["schemas"]["Problem"]["properties"]) == {
        "detail",
        "code",
        "params",
    }
    shots = schema["paths"]["/api/battleship/games/{game_id}/shots"]["post"]["responses"]
    assert set(shots) == {"200", "400", "404", "409", "413", "422", "503"}
    assert shots["409"]["content"]["application/json"]["schema"]["$ref"].endswith("/Problem")
    assert set(schema["paths"]["/api/tour/games"]["post"]["responses"]) >= {"201", "429"}
    assert not [name for name in schema["components"]["schemas"] if "__" in name]
    # What a refusal sends is the shape documented.
    refused = client.get("/api/battleship/games/abcdefghijklmnop")
    assert refused.status_code == 404 and set(refused.json()) == {"detail", "code", "params"}


@pytest.mark.parametrize(
    ("path", "model"),
    [
        ("/api/battleship/options", "OptionsOut"),
        ("/api/battleship/fleet", "FleetOut"),
        ("/api/battleship/replay", "ReplayOut"),
    ],
)
def test_a_route_that_answered_an_untyped_object_documents_its_fields(client, path, model):
    schema = client.get("/openapi.json").json()
    answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    assert answer["schema"]["$ref"].endswith(f"/{model}")
    fields = set(schema["components"]["schemas"][model]["properties"])
    sent = client.get(path, params={"game": 3} if "replay" in path else {}).json()
    assert set(sent) == fields


def test_the_schemas_examples_are_accepted(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    fleet = schema["NewBattleshipGame"]["properties"]["fleet"]["examples"][0]
    assert client.post("/api/battleship/games", json={"fleet": fleet}).status_code == 201
    move = {name: schema["Move"]["properties"][name]["examples"][0] for name in ("cell", "from")}
    game = client.post("/api/tour/games", json={"kind": "free", "start": move["from"]}).json()
    assert client.post(f"/api/tour/games/{game['id']}/moves", json=move).status_code == 200


def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found", "code": "site.http_404", "params": {}}


@pytest.mark.parametrize("path", ["/Tour", "/tour/x", "/battleship/labs"])
def test_an_address_that_names_no_page_gets_a_page_saying_so(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")
    assert '<header id="top">' in response.text and 'data-i18n="missing.title"' in response.text


def test_a_body_that_is_not_json_is_named_as_such(client):
    response = client.post(
        "/api/battleship/density", content="E5 hit", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("the request body is not valid JSON (")


@pytest.mark.parametrize(
    ("path", "body", "name"),
    [
        ("/api/battleship/density", '{"hit": ["A1"], "hit": ["B2"]}', "hit"),
        ("/api/battleship/exact", '{"rules": "classic", "miss": ["C3"], "miss": []}', "miss"),
        ("/api/battleship/games", '{"level": "easy", "level": "expert"}', "level"),
        ("/api/mastermind/games", '{"variant": "classic", "variant": "super"}', "variant"),
        ("/api/tour/games", '{"kind": "free", "start": "E5", "start": "A1"}', "start"),
    ],
)
def test_a_name_given_twice_is_refused_not_read_as_its_last_value(client, path, body, name):
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert (
        detail
        == f"the request body is not valid JSON (the name '{name}' is given twice in one object)"
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b'{"hit": ["\xff"]}', "it is not UTF-8 text"),
        ('{"seed": ' + "9" * 5000 + "}", "a number has more than 4300 digits"),
        ("[" * 100_000 + "]" * 100_000, "it is nested too deeply"),
    ],
)
def test_a_body_json_cannot_read_is_named_as_such(client, body, reason):
    headers = {"content-type": "application/json"}
    response = client.post("/api/battleship/density", content=body, headers=headers)
    assert response.status_code == 422
    assert response.json()["detail"] == f"the request body is not valid JSON ({reason})"


@pytest.mark.parametrize("sent", ["text/plain", None])
def test_a_body_not_sent_as_json_is_named_as_such(client, sent):
    headers = {"content-type": sent} if sent else {}
    response = client.post("/api/battleship/density", content='{"hit": ["A1"]}', headers=headers)
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "the request body must be sent as JSON (Content-Type: application/json), "
        f"not as {sent or 'untyped bytes'}"
    )


def test_a_query_parameter_given_twice_is_refused(client):
    response = client.get("/api/battleship/replay?game=1&game=2&strategy=parity")
    assert response.status_code == 422
    assert response.json()["detail"] == "game: given 2 times (give it once)"
    assert response.json()["params"]["problems"] == [{"field": "game", "type": "repeated"}]
    assert client.get("/api/battleship/replay?game=1&strategy=parity").status_code == 200


@pytest.mark.parametrize(
    ("path", "detail"),
    [
        ("/api/tour/daily?dat=2026-01-01", "dat: unknown (it takes date)"),
        ("/api/mastermind/variants?x=1", "x: unknown (it takes none)"),
        ("/api/health?x=1", "x: unknown (it takes none)"),
        ("/api/battleship/replay?game=1&strategy=parity&Game=2", "Game: unknown (it takes "),
    ],
)
def test_a_query_parameter_a_route_does_not_take_is_refused(client, path, detail):
    response = client.get(path)
    assert response.status_code == 422 and response.json()["detail"].startswith(detail)
    assert response.json()["params"]["problems"][0]["type"] == "extra_forbidden"


def test_a_malformed_request_names_its_first_twenty_problems(client):
    # 2,000 unknown names: an answer of them all would be ten times the request.
    names = "&".join(f"p{n}=1" for n in range(2000))
    response = client.get(f"/api/health?{names}")
    assert response.status_code == 422
    problems = response.json()["params"]["problems"]
    assert [p["field"] for p in problems] == sorted(f"p{n}" for n in range(2000))[:20]
    assert response.json()["detail"].count("unknown (it takes none)") == 20
    assert response.json()["detail"].endswith("; and 1,980 more")
    assert response.json()["params"]["more"] == 1980
    assert len(response.content) < 4000


def test_fields_that_do_not_go_together_are_said_plainly(client):
    response = client.post("/api/tour/games", json={"kind": "daily", "start": "A1"})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "the daily puzzle has its own start cell; use kind free to choose"
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        (None, "the request body is missing"),
        ("[]", "the request body must be a JSON object: "),
        ("5", "the request body must be a JSON object: "),
    ],
)
def test_a_missing_or_shapeless_body_is_named_as_such(client, body, detail):
    headers = {"content-type": "application/json"}
    response = client.post("/api/battleship/density", content=body, headers=headers)
    assert response.status_code == 422 and response.json()["detail"].startswith(detail)


def test_static_files_cannot_escape_their_folder(client):
    assert client.get("/static/../store.py").status_code == 404
    assert client.get("/static/%2e%2e/store.py").status_code == 404


def test_store_keeps_games_apart_by_kind_and_survives_reopening(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = Store(path)
    game = first.create("tour", {"moves": ["E8"]})
    assert len(game) >= 20 and game != first.create("tour", {"moves": []})
    with pytest.raises(GameNotFound, match="no mastermind game"):
        first.load("mastermind", game)
    first.close()
    again = Store(path)
    assert again.load("tour", game) == {"moves": ["E8"]}


def test_a_failed_update_leaves_the_game_as_it_was(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    game = store.create("tour", {"moves": ["E8"]})
    with pytest.raises(RuntimeError), store.update("tour", game) as state:
        state["moves"].append("G10")
        raise RuntimeError("illegal")
    assert store.load("tour", game) == {"moves": ["E8"]}


def test_game_locks_do_not_outlive_their_requests(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    game = store.create("tour", {"moves": []})
    for n in range(50):
        with pytest.raises(GameNotFound), store.update("tour", f"missing{n:04}"):
            pass
        with store.update("tour", game) as state:
            state["moves"].append(n)
            assert len(store._game_locks) == 1
    assert len(store._game_locks) == 0
    assert store.load("tour", game)["moves"] == list(range(50))


def test_cache_round_trip(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    assert store.cached("table") is None
    store.remember("table", {"mean": 44.6})
    store.remember("table", {"mean": 44.5})
    assert store.cached("table") == {"mean": 44.5}
    with sqlite3.connect(store.path) as db:  # a damaged row is computed again, not a 503
        db.execute("UPDATE cache SET value = 'garbage' WHERE key = 'table'")
    assert store.cached("table") is None
    store.remember("table", {"mean": 44.4})
    assert store.cached("table") == {"mean": 44.4}


def test_serve_reports_a_database_it_cannot_open(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "no" / "such" / "dir.db")])
    assert result.exit_code == 2
    assert "cannot open the database" in result.output
    assert f"its folder {tmp_path / 'no' / 'such'} does not exist" in result.output
    assert "Traceback" not in result.output
    long = CliRunner().invoke(cli, ["serve", "--port", "1", "--db", f"{'a' * 300}/g.db"])
    assert long.exit_code == 2  # (not said to be the port's)
    assert long.stderr.startswith("error: cannot open the database aaa")
    assert long.stderr.endswith(": File name too long\n")
    blank = CliRunner().invoke(cli, ["serve"], env={"HAMLE_DB": " "})
    assert blank.exit_code == 2 and "$HAMLE_DB must name a file, not an empty path" in blank.output


def test_a_database_it_may_not_write_is_refused_before_sqlite_leaves_files_beside_it(
    tmp_path, monkeypatch
):
    path = tmp_path / "games.sqlite3"
    Store(path).close()
    read_only = {path}
    real_access = store_module.os.access
    monkeypatch.setattr(
        store_module.os,
        "access",
        lambda name, mode: Path(name) not in read_only and real_access(name, mode),
    )  # (as the root user, whom no mode stops)
    with pytest.raises(sqlite3.OperationalError, match=r"games.sqlite3 is read-only$"):
        Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]  # no -wal, no -shm
    read_only = {Path(f"{path}-wal")}
    Path(f"{path}-wal").touch()
    with pytest.raises(sqlite3.OperationalError, match=r"-wal is read-only: delete it if no"):
        Store(path)
    read_only = {tmp_path}
    Path(f"{path}-wal").unlink()
    with pytest.raises(sqlite3.OperationalError, match=r"its folder .* is read-only"):
        Store(path)
    with pytest.raises(sqlite3.OperationalError, match=r"is not a file$"):
        Store(tmp_path)


def test_a_stopped_server_leaves_every_game_in_the_file_alone(tmp_path):
    """Its journal is folded back in: a copy of the file alone has the games."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    hamle = Path(sys.executable).with_name("hamle")
    command = [hamle, "serve", "--port", str(port), "--db", "games.sqlite3"]
    server = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    said = server.stdout.readline()
    if said.startswith("getting the engines ready"):  # (a slow start says so first)
        said = server.stdout.readline()
    assert said.startswith(f"hamle at http://127.0.0.1:{port}")  # (it answers from now on)
    for start in ("A1", "B2", "C3"):
        made = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tour/games",
            data=json.dumps({"kind": "free", "start": start}).encode(),
            headers={"content-type": "application/json"},
        )
        assert urllib.request.urlopen(made, timeout=30).status == 201
    server.send_signal(signal.SIGTERM)  # (as a service manager stops it)
    server.wait(30)
    journal = tmp_path / "games.sqlite3-wal"
    assert not journal.exists() or journal.stat().st_size == 0  # (folded back in)
    copy = tmp_path / "copy" / "games.sqlite3"
    copy.parent.mkdir()
    shutil.copy(tmp_path / "games.sqlite3", copy)
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (3,)


def test_a_game_takes_one_request_waiting_and_refuses_a_third_at_once(tmp_path):
    """Requests on a game wait one at a time: a third holds no thread waiting."""
    store = Store(tmp_path / "games.sqlite3")
    game = store.create("tour", {"moves": []})
    inside, finish = threading.Event(), threading.Event()

    def first():
        with store.update("tour", game) as state:
            inside.set()
            finish.wait(10)
            state["moves"].append("first")

    def second():
        with store.update("tour", game) as state:
            state["moves"].append("second")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert inside.wait(10)
    threads[1].start()
    while store._game_locks[game].users < 2:
        time.sleep(0.01)
    with pytest.raises(GameChanged, match="one more waits") as refused, store.update("tour", game):
        pass
    assert refused.value.code == "site.game_busy" and isinstance(refused.value, GameBusy)
    with pytest.raises(StoreBusy), store.update("tour", game, wait=False):
        pass
    finish.set()
    for thread in threads:
        thread.join(10)
    assert store.load("tour", game)["moves"] == ["first", "second"]


def test_a_write_waits_for_the_store_a_bounded_time(tmp_path, monkeypatch):
    """A write kept waiting (another program holding the file) held the store's lock, and
    every request to write queued behind it without end."""
    monkeypatch.setattr(store_module, "BUSY_MS", 200)
    store = Store(tmp_path / "games.sqlite3")
    failed = []

    def create():
        try:
            store.create("tour", {"moves": []})
        except sqlite3.OperationalError as error:
            failed.append(str(error))

    with store._lock:  # (as a write waiting for the file holds it)
        writer = threading.Thread(target=create)
        writer.start()
        writer.join(5)
        assert not writer.is_alive()
    assert failed == ["the database stayed busy for 0.2 s"]


NOT_JSON, KEYLESS = "notjson" + "0" * 15, "keyless" + "0" * 15  # (ids of 22 characters)


def test_a_damaged_game_row_is_a_coded_answer_with_the_sites_headers(tmp_path):
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(path, warm=False), raise_server_exceptions=False) as client:
        with sqlite3.connect(path) as db:
            db.execute(f"INSERT INTO games VALUES ('{NOT_JSON}', 'battleship', 'no', 0, 0)")
            db.execute(f"INSERT INTO games VALUES ('{KEYLESS}', 'battleship', '{{}}', 0, 0)")
        damaged = client.get(f"/api/battleship/games/{NOT_JSON}")
        assert damaged.status_code == 503 and damaged.json()["code"] == "site.store_failed"
        assert f"the game {NOT_JSON} is damaged" in damaged.json()["detail"]
        failed = client.get(f"/api/battleship/games/{KEYLESS}")  # (it was a bare text 500)
        assert failed.status_code == 500 and failed.json()["code"] == "site.failed"
        for answer in (damaged, failed):
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_serve_rejects_a_bad_port():
    result = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert "65535" in result.output


def test_a_database_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not games\n" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        Store(path)


def test_a_database_of_another_program_is_refused_at_start(tmp_path):
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    before = path.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match="not a hamle database: its table games"):
        Store(path)
    assert path.read_bytes() == before  # no cache table added, its journal mode kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]
    result = CliRunner().invoke(cli, ["serve", "--db", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cannot open the database" in result.output and "columns id, name," in result.output


def test_a_database_with_other_tables_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.sqlite3"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        other.execute("CREATE TABLE books (id INTEGER PRIMARY KEY)")
    before = path.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match=r"it holds the tables books, notes$"):
        Store(path)
    assert path.read_bytes() == before  # no table added, its journal mode kept
    with sqlite3.connect(path) as other:  # "_" is no wildcard to the check
        other.execute("CREATE TABLE sqliteXdata (id INTEGER PRIMARY KEY)")
    with pytest.raises(sqlite3.DatabaseError, match=r"tables books, notes, sqliteXdata$"):
        Store(path)
    result = CliRunner().invoke(cli, ["serve", "--db", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "holds the tables books, notes" in result.output


def test_a_database_with_a_trigger_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TRIGGER wipe AFTER INSERT ON games BEGIN DELETE FROM games; END")
    with pytest.raises(sqlite3.DatabaseError, match=r"it holds the triggers wipe$"):
        Store(path)


def test_a_damaged_database_is_refused_at_start(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    for n in range(300):
        store.create("tour", {"moves": ["E8"] * n})
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[8192:12288] = b"\xa5" * 4096  # the third page, past the header and the schema
    path.write_bytes(bytes(data))
    with pytest.raises(sqlite3.DatabaseError, match=r"damaged|malformed"):
        Store(path)


def test_a_change_by_another_process_is_kept_and_the_late_one_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    mine, theirs = Store(path), Store(path)  # two servers on one file
    game = mine.create("tour", {"moves": ["A1"]})
    with pytest.raises(GameChanged, match="changed elsewhere"), mine.update("tour", game) as state:
        state["moves"].append("A4")
        with theirs.update("tour", game) as their_state:
            their_state["moves"].append("D1")
    assert mine.load("tour", game) == {"moves": ["A1", "D1"]}


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_database_file_removed_while_serving_is_a_503_not_a_lost_game(tmp_path, how):
    from fastapi.testclient import TestClient

    from hamle.web import create_app

    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(path, warm=False)) as client:
        game = client.post("/api/tour/games", json={"kind": "free", "start": "A1"}).json()["id"]
        for leftover in tmp_path.glob("games.sqlite3*"):
            leftover.unlink()
        if how == "replaced":
            Store(path).close()  # (another database in its place)
        new = client.post("/api/tour/games", json={"kind": "free", "start": "A1"})
        moved = client.post(f"/api/tour/games/{game}/moves", json={"cell": "B3", "from": "A1"})
        for answer in (new, moved):  # (a game started was answered 201, and lost)
            assert answer.status_code == 503 and answer.json()["code"] == "site.store_failed"
        said = new.json()["detail"]
        assert said.startswith(f"the game store failed: the database file {path} was removed")


def test_a_database_named_by_a_relative_path_stays_found_in_another_folder(tmp_path, monkeypatch):
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    store = Store("games.sqlite3")
    monkeypatch.chdir(tmp_path / "elsewhere")
    game = store.create("tour", {"moves": ["A1"]})
    with store.update("tour", game) as state:
        state["moves"].append("B3")
    assert store.load("tour", game) == {"moves": ["A1", "B3"]}
    store.close()


def test_a_game_changed_elsewhere_is_a_409_and_a_failing_store_a_503(tmp_path):
    from fastapi.testclient import TestClient

    from hamle.web import create_app

    with TestClient(create_app(tmp_path / "games.sqlite3", warm=False)) as client:
        game = client.post("/api/tour/games", json={"kind": "free", "start": "A1"}).json()["id"]
        store = client.app.state.store
        read = store._text

        def stale(kind, game_id):  # another server saves the game once this one has read it
            before = read(kind, game_id)
            with Store(store.path).update(kind, game_id) as state:
                state["undos"] += 1
            return before

        store._text = stale
        answer = client.post(f"/api/tour/games/{game}/moves", json={"cell": "A4", "from": "A1"})
        assert answer.status_code == 409 and answer.json()["code"] == "site.game_changed"
        del store._text
        kept = client.get(f"/api/tour/games/{game}").json()
        assert kept["moves"] == ["A1"] and kept["undos"] == 1
        store.close()
        failed = client.get(f"/api/tour/games/{game}")
        assert failed.status_code == 503 and failed.json()["code"] == "site.store_failed"
        assert "closed database" in failed.json()["detail"]


def test_a_write_kept_waiting_by_another_server_stalls_no_read_nor_the_site(tmp_path):
    """Another server holds the file's write lock: a hint that must save waits for it (up
    to the store's 5 s), and meanwhile other games load and the site answers."""
    import sqlite3
    import threading

    from fastapi.testclient import TestClient

    from hamle.web import create_app

    with TestClient(create_app(tmp_path / "games.sqlite3", warm=False)) as client:
        body = {"kind": "free", "start": "A1"}
        waiting, other = (client.post("/api/tour/games", json=body).json()["id"] for _ in "12")
        holder = sqlite3.connect(client.app.state.store.path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        answers = {}

        def ask(name, method, path, **sent):
            answers[name] = client.request(method, path, **sent).status_code

        hint_path = f"/api/tour/games/{waiting}/hint"
        hint = threading.Thread(
            target=ask, args=("hint", "POST", hint_path), kwargs={"json": {"from": "A1"}}
        )
        hint.start()
        try:
            hint.join(0.5)  # (the hint is now waiting to save)
            for name, path in (("health", "/api/health"), ("load", f"/api/tour/games/{other}")):
                reader = threading.Thread(target=ask, args=(name, "GET", path))
                reader.start()
                reader.join(3)
                assert answers.get(name) == 200 and hint.is_alive(), name
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            hint.join(10)
        assert answers["hint"] == 200


def test_a_change_that_may_not_wait_finds_the_store_busy_at_once(tmp_path):
    import sqlite3
    import threading

    from hamle.web.store import StoreBusy

    store = Store(tmp_path / "games.sqlite3")
    game = store.create("tour", {"moves": ["A1"]})
    holder = sqlite3.connect(store.path, isolation_level=None)  # another server writing
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreBusy), store.update("tour", game, wait=False) as state:
        state["moves"].append("A4")
    holder.execute("ROLLBACK")
    assert store._db.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    assert store.load("tour", game) == {"moves": ["A1"]}

    inside, leave = threading.Event(), threading.Event()

    def another_request():
        with store.update("tour", game):
            inside.set()
            leave.wait(10)

    other = threading.Thread(target=another_request)
    other.start()
    inside.wait(10)
    with pytest.raises(StoreBusy), store.update("tour", game, wait=False):
        pass
    leave.set()
    other.join(10)
    with store.update("tour", game, wait=False) as state:
        state["moves"].append("A4")
    assert store.load("tour", game) == {"moves": ["A1", "A4"]}
