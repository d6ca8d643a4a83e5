"""The Mastermind API: both modes end to end, the secret kept until the end, answers that
contradict each other, undo, moves meant for a game another page changed, wrong modes, ids
and bounds."""

import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient

import hamle.mastermind as mm
from hamle.web import create_app

API = "/api/mastermind"
CLASSIC = mm.Variant.classic()


def new_game(client, **body):
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def secret_of(client, game_id):
    """The secret as the server stored it (read from the store, never from the API)."""
    state = client.app.state.store.load("mastermind", game_id)
    return CLASSIC.format(state["secret"])


def guess(client, game_id, code, status=200):
    response = client.post(f"{API}/games/{game_id}/guess", json={"guess": code})
    assert response.status_code == status, response.text
    return response.json()


def answer(client, game_id, black, white, status=200):
    """Answer the computer's guess awaiting an answer (1111 when there is none)."""
    proposal = client.get(f"{API}/games/{game_id}").json()["proposal"] or "1111"
    body = {"guess": proposal, "black": black, "white": white}
    response = client.post(f"{API}/games/{game_id}/answer", json=body)
    assert response.status_code == status, response.text
    return response.json()


def wrong_codes(secret):
    return (CLASSIC.format(i) for i in range(CLASSIC.size) if CLASSIC.format(i) != secret)


def test_variants_offer_only_fast_strategies(client):
    offered = {v["name"]: v for v in client.get(f"{API}/variants").json()}
    assert list(offered) == ["classic", "4x8", "bulls-and-cows", "super"]
    assert offered["classic"]["strategies"] == list(mm.HEURISTICS)
    assert offered["classic"]["default_strategy"] == "minimax"
    assert offered["classic"]["codes"] == 1296 and offered["classic"]["first_digit"] == 1
    assert offered["bulls-and-cows"]["repeat"] is False
    assert offered["bulls-and-cows"]["first_digit"] == 0
    assert "minimax" not in offered["super"]["strategies"]
    assert offered["super"]["default_strategy"] == "minimax-candidates"
    strategies = client.get(f"{API}/strategies").json()
    assert [s["name"] for s in strategies] == list(mm.STRATEGIES)
    assert all(s["summary"] for s in strategies)


def test_codebreaker_scores_guesses_and_keeps_the_secret(client):
    game = new_game(client)
    assert (game["mode"], game["strategy"], game["turn"]) == ("breaker", "minimax", 0)
    assert game["secret"] is None and game["proposal"] is None
    secret = secret_of(client, game["id"])
    for turn, code in enumerate(list(wrong_codes(secret))[:3], 1):
        view = guess(client, game["id"], code)
        black, white = mm.score(CLASSIC, CLASSIC.parse(secret), CLASSIC.parse(code))
        assert view["turns"][-1] == {"guess": code, "black": black, "white": white}
        assert view["turn"] == turn and not view["solved"] and not view["over"]
        assert view["secret"] is None
        reloaded = client.get(f"{API}/games/{game['id']}")
        assert reloaded.json() == view
        assert secret not in reloaded.text.replace(game["id"], "")


def test_a_code_guessed_already_is_refused_and_costs_no_guess(client):
    game = new_game(client)
    code = next(wrong_codes(secret_of(client, game["id"])))
    guess(client, game["id"], code)
    for again in (code, " ".join(code), ",".join(code)):  # (the same code, however written)
        refused = guess(client, game["id"], again, status=409)
        assert refused == {
            "detail": f"{code} is guess 1 already",
            "code": "mastermind.guessed",
            "params": {"guess": code, "number": 1},
        }
    assert client.get(f"{API}/games/{game['id']}").json()["turn"] == 1


def test_suggestions_solve_a_classic_game_and_the_end_reveals_the_secret(client):
    game = new_game(client, strategy="minimax")
    secret = secret_of(client, game["id"])
    for _ in range(5):  # Knuth's minimax needs at most five guesses
        suggestion = client.get(f"{API}/games/{game['id']}/suggest").json()
        assert suggestion["strategy"] == "minimax"
        if suggestion["guess"] != secret:
            text = client.get(f"{API}/games/{game['id']}").text
            assert secret not in text.replace(game["id"], "")
        view = guess(client, game["id"], suggestion["guess"])
        if view["solved"]:
            break
    assert view["solved"] and view["over"] and not view["gave_up"]
    assert view["secret"] == secret == view["turns"][-1]["guess"]
    assert view["turns"][-1]["black"] == 4
    first = CLASSIC.format(mm.get_strategy("minimax").first_guess(CLASSIC))
    assert view["turns"][0]["guess"] == first == "1122"
    for method, path in (
        ("post", "guess"),
        ("get", "suggest"),
        ("post", "give-up"),
    ):
        body = {"json": {"guess": "1234"}} if path == "guess" else {}
        response = getattr(client, method)(f"{API}/games/{game['id']}/{path}", **body)
        assert response.status_code == 409
        assert response.json()["detail"] == "this game is over; start a new one"


def test_give_up_reveals_the_secret_and_ends_the_game(client):
    game = new_game(client, variant="4x8", strategy="entropy")
    state = client.app.state.store.load("mastermind", game["id"])
    view = client.post(f"{API}/games/{game['id']}/give-up").json()
    assert view["over"] and view["gave_up"] and not view["solved"]
    assert view["secret"] == mm.Variant.named("4x8").format(state["secret"])
    assert guess(client, game["id"], "1234", status=409)["detail"].startswith("this game is over")


def test_candidates_left_match_the_engine_and_are_bounded(client):
    game = new_game(client)
    secret = secret_of(client, game["id"])
    view = guess(client, game["id"], next(wrong_codes(secret)))
    turn = view["turns"][0]
    history = mm.History(CLASSIC).then(
        CLASSIC.parse(turn["guess"]), CLASSIC.answer(turn["black"], turn["white"])
    )
    expected = [CLASSIC.format(int(c)) for c in history.candidates()]
    found = client.get(f"{API}/games/{game['id']}/candidates").json()
    assert found["count"] == len(expected)
    assert found["codes"] == expected[:50] and found["more"] == (len(expected) > 50)
    assert secret in expected
    few = client.get(f"{API}/games/{game['id']}/candidates", params={"limit": 3}).json()
    assert few["codes"] == expected[:3] and few["more"]
    for limit in (-1, 101, "many"):
        response = client.get(f"{API}/games/{game['id']}/candidates", params={"limit": limit})
        assert response.status_code == 422 and response.json()["detail"].startswith("limit: ")
    fresh = new_game(client)
    assert client.get(f"{API}/games/{fresh['id']}/candidates").json()["count"] == 1296


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("12", "'12' is not a code: write 4 digits 1-6"),
        ("1172", "'1172': colour 7 at position 3 is not in 1-6"),
        ("12345", "is not a code"),
        ("abcd", "is not a code"),
        ("", "is not a code"),
    ],
)
def test_malformed_guesses_get_the_engine_text(client, code, text):
    game = new_game(client)
    assert text in guess(client, game["id"], code, status=400)["detail"]
    assert client.get(f"{API}/games/{game['id']}").json()["turn"] == 0


def test_bulls_and_cows_uses_digits_0_to_9_without_repeats(client):
    game = new_game(client, variant="bulls-and-cows", strategy="expected-size")
    refused = guess(client, game["id"], "0323", status=400)
    assert "'0323' repeats 3, which this variant does not allow" in refused["detail"]
    assert refused["params"]["repeated"] == 3
    view = guess(client, game["id"], "0123")
    assert view["turns"][0]["guess"] == "0123"
    suggestion = client.get(f"{API}/games/{game['id']}/suggest").json()["guess"]
    assert len(set(suggestion)) == 4


def test_super_mastermind_suggests_quickly_with_its_strategies(client):
    game = new_game(client, variant="super")
    assert game["strategy"] == "minimax-candidates"
    view = guess(client, game["id"], "12345")
    assert view["variant"]["pegs"] == 5
    suggestion = client.get(f"{API}/games/{game['id']}/suggest").json()["guess"]
    assert len(suggestion) == 5 and set(suggestion) <= set("12345678")


def test_the_last_allowed_guess_ends_the_game(client):
    game = new_game(client)
    secret = secret_of(client, game["id"])
    codes = wrong_codes(secret)
    for _ in range(mm.GAME_GUESSES - 1):
        assert not guess(client, game["id"], next(codes))["over"]
    view = guess(client, game["id"], next(codes))
    assert view["over"] and not view["solved"] and not view["gave_up"]
    assert view["secret"] == secret and view["turn"] == mm.GAME_GUESSES
    guess(client, game["id"], secret, status=409)


def play_maker(client, secret, strategy="minimax", variant=CLASSIC, name="classic"):
    game = new_game(client, mode="maker", strategy=strategy, variant=name)
    code = variant.parse(secret)
    while not game["over"]:
        black, white = mm.score(variant, code, variant.parse(game["proposal"]))
        game = answer(client, game["id"], black, white)
    return game


def test_codemaker_strategy_breaks_the_players_code(client):
    game = new_game(client, mode="maker")
    assert game["proposal"] == "1122" and game["candidates"] == 1296 and game["secret"] is None
    solved = play_maker(client, "3632")
    assert solved["solved"] and solved["over"] and solved["proposal"] is None
    assert solved["turns"][-1] == {"guess": "3632", "black": 4, "white": 0}
    assert solved["turn"] <= 5 and solved["candidates"] == 1
    assert answer(client, solved["id"], 4, 0, status=409)["detail"].startswith("this game is over")
    for strategy in ("first-consistent", "random-consistent", "most-parts"):
        assert play_maker(client, "6543", strategy=strategy)["solved"]
    bulls = mm.Variant.named("bulls-and-cows")
    assert play_maker(client, "9270", variant=bulls, name="bulls-and-cows")["solved"]


def test_a_codemaker_game_lists_the_codes_left_while_few_are(client):
    game = new_game(client, mode="maker")
    assert game["codes_left"] is None  # (1296 left)
    history = mm.History(CLASSIC)
    while game["candidates"] > 12:
        black, white = 0, 1  # answers that leave fewer codes each time, as long as they fit
        game = answer(client, game["id"], black, white)
        history = history.then(CLASSIC.parse(game["turns"][-1]["guess"]), CLASSIC.answer(0, 1))
    left = sorted(CLASSIC.format(c) for c in history.candidates())
    assert 1 <= game["candidates"] == len(left) <= 12 and game["codes_left"] == left
    breaker = new_game(client)
    assert "codes_left" not in breaker or breaker["codes_left"] is None


def test_contradictory_answer_is_explained_and_not_recorded(client):
    game = new_game(client, mode="maker")
    game = answer(client, game["id"], 0, 0)  # 1122: no 1 and no 2
    assert game["proposal"] == "3345" and game["candidates"] == 256
    game = answer(client, game["id"], 0, 0)  # 3345: no 3, 4 or 5 either, so 6666
    assert game["proposal"] == "6666" and game["candidates"] == 1
    assert game["codes_left"] == ["6666"]
    detail = answer(client, game["id"], 0, 0, status=400)["detail"]
    assert detail.startswith("no secret gives all these answers: #1 (1122 → 0 black 0 white)")
    assert "#3 (6666 → 0 black 0 white) cannot all be right; most likely answer #" in detail
    turns = [(CLASSIC.parse(code), CLASSIC.answer(0, 0)) for code in ("1122", "3345", "6666")]
    assert detail == str(mm.inconsistency(mm.History(CLASSIC, tuple(turns))))
    unchanged = client.get(f"{API}/games/{game['id']}").json()
    assert unchanged == game
    impossible = answer(client, game["id"], 3, 1, status=400)["detail"]
    assert impossible == "3 black and 1 white cannot happen with 4 pegs"
    too_many = answer(client, game["id"], 3, 2, status=400)["detail"]
    assert too_many == "3 black and 2 white make more than 4 pegs"
    assert answer(client, game["id"], 4, 0)["solved"]


def test_undo_takes_back_answers_even_the_winning_one(client):
    game = new_game(client, mode="maker")
    assert client.post(f"{API}/games/{game['id']}/undo").status_code == 409
    first = answer(client, game["id"], 1, 1)
    second = answer(client, game["id"], 0, 1)
    back = client.post(f"{API}/games/{game['id']}/undo").json()
    assert back["turns"] == first["turns"] and back["proposal"] == second["turns"][-1]["guess"]
    assert back["candidates"] == first["candidates"]
    secret = CLASSIC.parse("1233")  # 1122 → 1 black 1 white, like the first answer
    while not back["over"]:
        black, white = mm.score(CLASSIC, secret, CLASSIC.parse(back["proposal"]))
        back = solved = answer(client, game["id"], black, white)
    assert solved["solved"] and solved["turns"][-1]["guess"] == "1233"
    reopened = client.post(f"{API}/games/{game['id']}/undo").json()
    assert not reopened["over"] and not reopened["solved"]
    assert reopened["proposal"] == solved["turns"][-1]["guess"]


def test_an_answer_sent_twice_is_recorded_once(client):
    game = new_game(client, mode="maker")
    body = {"guess": game["proposal"], "black": 0, "white": 1}
    first = client.post(f"{API}/games/{game['id']}/answer", json=body)
    assert first.status_code == 200 and len(first.json()["turns"]) == 1
    again = client.post(f"{API}/games/{game['id']}/answer", json=body)
    assert again.status_code == 409
    assert again.json()["detail"] == (
        f"this answer is for {game['proposal']}, "
        f"but the guess awaiting an answer is {first.json()['proposal']}"
    )
    assert client.get(f"{API}/games/{game['id']}").json() == first.json()
    wrong = client.post(f"{API}/games/{game['id']}/answer", json={**body, "guess": "12"})
    assert wrong.status_code == 400 and "12" in wrong.json()["detail"]


def post(client, game_id, action, body=None):
    kwargs = {} if body is None else {"json": body}
    return client.post(f"{API}/games/{game_id}/{action}", **kwargs)


def test_every_guess_answer_and_undo_adds_to_the_changes(client):
    maker = new_game(client, mode="maker")
    assert (maker["turn"], maker["changes"]) == (0, 0)
    counted = [answer(client, maker["id"], 0, 1)["changes"]]
    counted.append(answer(client, maker["id"], 1, 0)["changes"])
    undone = post(client, maker["id"], "undo").json()
    assert (undone["turn"], undone["changes"]) == (1, 3)  # back to one answer, yet changed
    counted += [undone["changes"], answer(client, maker["id"], 1, 0)["changes"]]
    assert counted == [1, 2, 3, 4]
    breaker = new_game(client)
    view = client.post(f"{API}/games/{breaker['id']}/guess", json={"guess": "1234", "changes": 0})
    assert view.json()["changes"] == 1
    assert post(client, breaker["id"], "give-up", {"changes": 1}).json()["gave_up"]


def test_an_undo_from_a_page_another_tab_left_behind_is_refused(client):
    game = new_game(client, mode="maker")
    seen_by_a = answer(client, game["id"], 0, 1)  # tab A answers #1
    body = {"guess": seen_by_a["proposal"], "black": 1, "white": 0, "changes": 1}
    seen_by_b = post(client, game["id"], "answer", body).json()  # tab B answers #2
    refused = post(client, game["id"], "undo", {"changes": seen_by_a["changes"]})
    assert refused.status_code == 409
    assert refused.json() == {
        "detail": "the game changed in another page since change 1 (it is at 2)",
        "code": "mastermind.changed",
        "params": {"changes": 1, "now": 2},
    }
    assert client.get(f"{API}/games/{game['id']}").json() == seen_by_b
    undone = post(client, game["id"], "undo", {"changes": seen_by_b["changes"]})
    assert undone.status_code == 200 and undone.json()["turns"] == seen_by_a["turns"]


def test_a_question_from_a_page_left_behind_is_refused(client):
    game = new_game(client)
    paths = [f"{API}/games/{game['id']}/suggest", f"{API}/games/{game['id']}/candidates"]
    before = [client.get(path, params={"changes": 0}).json() for path in paths]
    post(client, game["id"], "guess", {"guess": "1122", "changes": 0})  # another tab guesses
    for path, answer_before in zip(paths, before, strict=True):
        stale = client.get(path, params={"changes": 0})
        assert stale.status_code == 409 and stale.json()["code"] == "mastermind.changed"
        fresh = client.get(path, params={"changes": 1})
        assert fresh.status_code == 200 and fresh.json() != answer_before
        assert client.get(path).json() == fresh.json()  # (a question naming no changes)
    assert client.get(paths[0], params={"changes": -1}).status_code == 422


def test_a_move_sent_twice_with_its_changes_is_applied_once(client):
    breaker = new_game(client)
    body = {"guess": "1234", "changes": 0}
    first = post(client, breaker["id"], "guess", body)
    again = post(client, breaker["id"], "guess", body)
    assert first.status_code == 200 and again.status_code == 409
    assert again.json()["code"] == "mastermind.changed"
    assert client.get(f"{API}/games/{breaker['id']}").json() == first.json()
    assert post(client, breaker["id"], "give-up", {"changes": 0}).status_code == 409
    maker = new_game(client, mode="maker")
    answer(client, maker["id"], 0, 1)
    assert post(client, maker["id"], "undo", {"changes": 1}).status_code == 200
    twice = post(client, maker["id"], "undo", {"changes": 1})
    assert twice.status_code == 409 and twice.json()["code"] == "mastermind.nothing_to_undo"
    answered = answer(client, maker["id"], 0, 1)
    assert post(client, maker["id"], "undo", {"changes": 1}).json()["code"] == "mastermind.changed"
    assert client.get(f"{API}/games/{maker['id']}").json() == answered


def test_the_refusals_that_say_more_come_first(client):
    breaker = new_game(client)
    guess(client, breaker["id"], "1234")
    stale = post(client, breaker["id"], "guess", {"guess": "12", "changes": 0})
    assert stale.status_code == 400  # the guess is no code at all, whatever the changes
    post(client, breaker["id"], "give-up")
    over = post(client, breaker["id"], "guess", {"guess": "1234", "changes": 0})
    assert over.json()["code"] == "mastermind.over"
    undo = post(client, breaker["id"], "undo", {"changes": 0})
    assert undo.json()["code"] == "mastermind.undo_maker_only"
    maker = new_game(client, mode="maker")
    answer(client, maker["id"], 0, 1)
    body = {"guess": maker["proposal"], "black": 0, "white": 1, "changes": 0}
    assert post(client, maker["id"], "answer", body).json()["code"] == "mastermind.not_the_guess"
    post(client, maker["id"], "undo")
    undo = post(client, maker["id"], "undo", {"changes": 0})
    assert undo.json()["code"] == "mastermind.nothing_to_undo"


def test_undo_and_give_up_take_no_body_or_one_with_changes_alone(client):
    maker = new_game(client, mode="maker")
    for body in (None, {}, {"changes": None}):
        answer(client, maker["id"], 0, 1)
        assert post(client, maker["id"], "undo", body).status_code == 200, body
    for body in (None, {}, {"changes": None}):
        breaker = new_game(client)
        assert post(client, breaker["id"], "give-up", body).json()["gave_up"], body
    answer(client, maker["id"], 0, 1)
    breaker = new_game(client)
    for game_id, action in ((maker["id"], "undo"), (breaker["id"], "give-up")):
        for body in ({"guess": "1122"}, {"changes": 4, "cell": "A1"}, [4]):
            refused = post(client, game_id, action, body)
            assert refused.status_code == 422, (action, body)
        text = client.post(
            f"{API}/games/{game_id}/{action}",
            content='{"changes": 4}',
            headers={"content-type": "text/plain"},
        )
        assert text.status_code == 422 and "sent as JSON" in text.json()["detail"]
    assert client.get(f"{API}/games/{maker['id']}").json()["turn"] == 1
    assert not client.get(f"{API}/games/{breaker['id']}").json()["over"]


@pytest.mark.parametrize("changes", [-1, 10**9 + 1, "1", 1.0, 1.5, True, [1]])
def test_changes_must_be_a_whole_number_in_range(client, changes):
    maker = new_game(client, mode="maker")
    breaker = new_game(client)
    sent = [
        (maker["id"], "answer", {"guess": maker["proposal"], "black": 0, "white": 1}),
        (maker["id"], "undo", {}),
        (breaker["id"], "guess", {"guess": "1234"}),
        (breaker["id"], "give-up", {}),
    ]
    for game_id, action, body in sent:
        refused = post(client, game_id, action, {**body, "changes": changes})
        assert refused.status_code == 422, action
        assert refused.json()["detail"].startswith("changes:")
    assert client.get(f"{API}/games/{maker['id']}").json()["turn"] == 0
    assert client.get(f"{API}/games/{breaker['id']}").json()["turn"] == 0


def test_a_game_stored_before_undos_were_counted_counts_none(client):
    game = new_game(client, mode="maker")
    answer(client, game["id"], 0, 1)
    store = client.app.state.store
    with store.update("mastermind", game["id"]) as state:
        del state["undos"]
    assert client.get(f"{API}/games/{game['id']}").json()["changes"] == 1
    undone = post(client, game["id"], "undo", {"changes": 1}).json()
    assert undone["changes"] == 2 and store.load("mastermind", game["id"])["undos"] == 1


def test_a_suggestion_is_answered_while_a_move_waits_for_the_store(client):
    """Another server holds the file's write lock: a guess waits to be saved (up to the
    store's 5 s), and meanwhile a suggestion on the event loop still reads the store."""
    game, other = new_game(client), new_game(client)
    holder = sqlite3.connect(client.app.state.store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    answers = {}

    def ask(name, method, path, **sent):
        answers[name] = client.request(method, path, **sent)

    guessing = threading.Thread(
        target=ask,
        args=("guess", "POST", f"{API}/games/{game['id']}/guess"),
        kwargs={"json": {"guess": "1234"}},
    )
    guessing.start()
    try:
        guessing.join(0.5)  # (the guess now waits to be saved)
        suggesting = threading.Thread(
            target=ask, args=("suggest", "GET", f"{API}/games/{other['id']}/suggest")
        )
        suggesting.start()
        suggesting.join(3)
        assert "suggest" in answers and guessing.is_alive()
        assert answers["suggest"].json()["guess"] == "1122"
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        guessing.join(10)
    assert answers["guess"].status_code == 200


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"guess": "1122", "black": -1, "white": 0}, "black"),
        ({"guess": "1122", "black": "1", "white": 0}, "black"),
        ({"guess": "1122", "black": 1.5, "white": 0}, "black"),
        ({"guess": "1122", "black": 1}, "white"),
        ({"guess": "1122", "black": 1, "white": 0, "extra": 1}, "extra"),
        ({"black": 1, "white": 0}, "guess"),
    ],
)
def test_answers_out_of_bounds_are_422(client, body, where):
    game = new_game(client, mode="maker")
    response = client.post(f"{API}/games/{game['id']}/answer", json=body)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(f"{where}:")


@pytest.mark.parametrize(("black", "white"), [(5, 0), (6, 0), (9, 0), (0, 6), (3, 10**30)])
def test_more_black_and_white_than_pegs_is_one_refusal_whatever_the_number(client, black, white):
    game = new_game(client, mode="maker")
    response = client.post(
        f"{API}/games/{game['id']}/answer",
        json={"guess": game["proposal"], "black": black, "white": white},
    )
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "mastermind.too_many_pegs"
    assert response.json()["detail"] == f"{black} black and {white} white make more than 4 pegs"


@pytest.mark.parametrize(
    ("body", "status", "text"),
    [
        ({"variant": "6x9"}, 400, "'6x9' is not offered here; choose one of: classic, 4x8, bulls"),
        ({"variant": "dutch"}, 400, "'dutch' is not offered here; choose one of: classic, 4x8"),
        ({"variant": "x" * 10_000}, 422, "variant:"),
        ({"variant": {"pegs": 8, "colours": 10}}, 422, "variant:"),
        ({"mode": "spectator"}, 422, "mode:"),
        ({"variant": "4x8", "mode": "maker", "strategy": "optimal"}, 400, "not offered: its"),
        ({"strategy": "optimal"}, 400, "optimal strategy plays only when the computer breaks"),
        ({"strategy": "s" * 41}, 422, "strategy:"),
        ({"strategy": ""}, 422, "strategy: String should have at least 1 character"),
        ({"variant": "super", "strategy": "minimax"}, 400, "is not offered for super"),
        ({"pegs": 20}, 422, "pegs:"),
    ],
)
def test_new_game_bounds(client, body, status, text):
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == status
    assert text in response.json()["detail"]


def test_a_guess_written_with_tabs_or_line_ends_is_read_as_with_spaces(client):
    game = new_game(client)
    for code in ("1\t1\t2\t2", "1 1\n2,3"):
        response = client.post(f"{API}/games/{game['id']}/guess", json={"guess": code})
        assert response.status_code == 200, response.text
    assert [turn["guess"] for turn in response.json()["turns"]] == ["1122", "1123"]


def test_guess_bounds(client):
    game = new_game(client)
    for body in ({"guess": 1122}, {"guess": "1" * 41}, {}, {"guess": ["1", "1"]}, {"code": "1122"}):
        response = client.post(f"{API}/games/{game['id']}/guess", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"].startswith("guess: "), body


def test_moves_of_the_other_mode_are_refused(client):
    breaker = new_game(client)
    maker = new_game(client, mode="maker")
    checks = [
        (
            "post",
            f"{breaker['id']}/answer",
            {"guess": "1122", "black": 0, "white": 0},
            "this is a codebreaker",
        ),
        ("post", f"{breaker['id']}/undo", None, "only a codemaker game"),
        ("post", f"{maker['id']}/guess", {"guess": "1122"}, "this is a codemaker game"),
        ("get", f"{maker['id']}/suggest", None, "this is a codemaker game"),
        ("post", f"{maker['id']}/give-up", None, "this is a codemaker game"),
    ]
    for method, path, body, text in checks:
        kwargs = {"json": body} if body is not None else {}
        response = getattr(client, method)(f"{API}/games/{path}", **kwargs)
        assert response.status_code == 409, path
        assert response.json()["detail"].startswith(text)


def test_unknown_ids_and_ids_of_other_games_are_404(client):
    tour_id = client.app.state.store.create("tour", {"moves": []})
    missing = "A" * 22
    for game_id in (missing, tour_id):
        for method, path, body in (
            ("get", "", None),
            ("post", "/guess", {"guess": "1122"}),
            ("get", "/suggest", None),
            ("get", "/candidates", None),
            ("post", "/give-up", None),
            ("post", "/answer", {"guess": "1122", "black": 0, "white": 0}),
            ("post", "/undo", None),
        ):
            kwargs = {"json": body} if body is not None else {}
            response = getattr(client, method)(f"{API}/games/{game_id}{path}", **kwargs)
            assert response.status_code == 404, (game_id, path)
            assert response.json()["detail"] == f"no mastermind game has the id {game_id!r}"
    for bad in ("short", "x" * 65, "bad%20id%20with%20spaces"):
        assert client.get(f"{API}/games/{bad}").status_code == 422


def test_games_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(path, warm=False)) as first:
        breaker = new_game(first)
        guess(first, breaker["id"], "1234")
        maker = new_game(first, mode="maker")
        maker = answer(first, maker["id"], 1, 0)
    with TestClient(create_app(path, warm=False)) as second:
        again = second.get(f"{API}/games/{breaker['id']}").json()
        assert again["turns"][0]["guess"] == "1234" and again["secret"] is None
        assert second.get(f"{API}/games/{maker['id']}").json() == maker


def test_warm_up_leaves_the_classic_optimal_tree_in_the_cache(client, tmp_path, monkeypatch):
    from hamle.mastermind import optimal
    from hamle.web import mastermind

    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    mastermind.warm_up()
    assert optimal.stored_tree(CLASSIC)["total"] == 5625  # (the proven optimum)


def test_optimal_is_offered_once_its_tree_is_solved_here(client, tmp_path, monkeypatch):
    from hamle.mastermind import optimal
    from hamle.mastermind.tree import strategy_tree, tree_json
    from hamle.web import mastermind

    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    offered = {v["name"]: v for v in client.get(f"{API}/variants").json()}
    assert offered["classic"]["maker_strategies"] == ["optimal"]  # solved when asked
    assert offered["4x8"]["not_offered"] == {"optimal": "not-solved"}
    monkeypatch.setattr(mastermind, "QUICK_OPTIMAL", 256)  # as if classic took long to solve
    offered = {v["name"]: v for v in client.get(f"{API}/variants").json()}
    assert offered["classic"]["not_offered"] == {"optimal": "not-solved"}
    assert offered["super"]["not_offered"] == {"optimal": "too-big"}
    assert offered["classic"]["maker_strategies"] == []
    refused = client.post(f"{API}/games", json={"mode": "maker", "strategy": "optimal"})
    assert refused.status_code == 400 and "not solved on this server" in refused.json()["detail"]
    # A tree in the cache directory, as `hamle mastermind tree --strategy optimal` leaves it
    # (Irving's tree stands in for the optimal one: the cache is read as it is).
    data = tree_json(strategy_tree(mm.get_strategy("expected-size"), CLASSIC), CLASSIC, "optimal")
    data["total"] = mm.evaluate("expected-size", CLASSIC).total
    optimal.tree_path(CLASSIC, None).parent.mkdir(parents=True, exist_ok=True)
    optimal.tree_path(CLASSIC, None).write_text(__import__("json").dumps(data))
    offered = {v["name"]: v for v in client.get(f"{API}/variants").json()}
    assert offered["classic"]["maker_strategies"] == ["optimal"]
    assert offered["classic"]["not_offered"] == {}
    assert "optimal" not in offered["classic"]["strategies"]
    refused = client.post(f"{API}/games", json={"mode": "breaker", "strategy": "optimal"})
    assert refused.status_code == 400 and "breaks your code" in refused.json()["detail"]
    game = play_maker(client, "3632", strategy="optimal")
    assert game["solved"] and game["turns"][0]["guess"] == data["root"]["guess"] == "1123"


def test_names_are_read_as_the_library_reads_them(client):
    game = new_game(client, variant="Classic", strategy="MiniMax")
    assert (game["variant"]["name"], game["strategy"]) == ("classic", "minimax")
    game = new_game(client, variant=" 5x8 ")
    assert game["variant"]["name"] == "super" and game["variant"]["pegs"] == 5
    game = new_game(client, variant="BULLS-AND-COWS", mode="maker", strategy="Entropy")
    assert (game["variant"]["name"], game["strategy"]) == ("bulls-and-cows", "entropy")
    assert new_game(client, mode=" Maker")["mode"] == "maker"
    assert new_game(client, mode="BREAKER ")["mode"] == "breaker"
    assert new_game(client, strategy=" minimax ")["strategy"] == "minimax"
    refused = client.post(f"{API}/games", json={"variant": "super", "strategy": "MiniMax"})
    assert refused.status_code == 400
    assert refused.json()["detail"].startswith("strategy 'minimax' is not offered for super")


def test_optimal_in_a_codebreaker_game_is_refused_for_the_true_reason(client):
    for variant in ("4x8", "super", "classic"):
        refused = client.post(
            f"{API}/games", json={"variant": variant, "mode": "breaker", "strategy": "optimal"}
        )
        assert refused.status_code == 400
        assert refused.json()["code"] == "mastermind.optimal_maker_only", variant


def test_a_variant_not_offered_names_those_offered(client):
    refused = client.post(f"{API}/games", json={"variant": "6x9"})
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "mastermind.variant_not_offered"
    assert body["params"] == {"variant": "6x9", "offered": "classic, 4x8, bulls-and-cows, super"}


def test_a_stale_tree_in_the_cache_is_checked_once(client, tmp_path, monkeypatch):
    import json

    from hamle.mastermind import optimal, tree

    monkeypatch.setenv("HAMLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(optimal, "_TREES", {})
    variant = mm.Variant.named("4x8")
    stale = tree.tree_json(tree.strategy_tree("first-consistent", variant), variant, "optimal")
    stale["total"] = 1  # not what it takes
    optimal.tree_path(variant, None).write_text(json.dumps(stale))
    checks, real = [], tree.verify
    monkeypatch.setattr(tree, "verify", lambda data: checks.append(1) or real(data))
    for _ in range(3):
        offered = {v["name"]: v for v in client.get(f"{API}/variants").json()}
        assert offered["4x8"]["not_offered"] == {"optimal": "not-solved"}
    assert len(checks) == 1
