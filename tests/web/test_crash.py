"""A server killed with SIGKILL under load loses no move it acknowledged: 20 clients play
the three games against a real ``hamle serve``, the server is killed mid-load and started
again on the same database, and every game holds every acknowledged move and goes on."""

from __future__ import annotations

import random
import threading
import time

import httpx2 as httpx
from browser.conftest import Server

CLIENTS = 20
LOAD_SECONDS = 3


class Player(threading.Thread):
    """One client: a game of its kind, moves sent one after another until the server
    dies; ``acknowledged`` holds the moves the server answered 200 to."""

    def __init__(self, url: str, kind: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.url, self.kind, self.rng = url, kind, random.Random(seed)
        self.acknowledged: list = []
        self.game: str | None = None

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=10) as client:
            try:
                view = client.post(f"/api/{self.kind}/games", json=self.new_game(client)).json()
                self.game = view["id"]
                while not view.get("over") and not view.get("solved"):
                    move = self.next_move(view)
                    answer = client.post(self.move_path(), json=move)
                    if answer.status_code != 200:
                        return
                    self.acknowledged.append(move)
                    view = answer.json()
                    view = view.get("game", view)
            except httpx.HTTPError:
                return  # the server is gone

    def new_game(self, client) -> dict:
        if self.kind == "battleship":
            fleet = client.get("/api/battleship/fleet").json()["fleet"]
            return {"fleet": [ship["cells"] for ship in fleet]}
        return {"kind": "free"} if self.kind == "tour" else {}

    def move_path(self) -> str:
        last = {"battleship": "shots", "mastermind": "guess", "tour": "moves"}[self.kind]
        return f"/api/{self.kind}/games/{self.game}/{last}"

    def next_move(self, view: dict) -> dict:
        if self.kind == "tour":
            return {"cell": self.rng.choice(view["legal"])}
        if self.kind == "mastermind":
            return {"guess": "".join(self.rng.choice("123456") for _ in range(4))}
        unknown = [i for i, mark in enumerate(view["enemy"]["marks"]) if mark == "unknown"]
        cell = self.rng.choice(unknown)
        return {"cell": "ABCDEFGHIJ"[cell % 10] + str(cell // 10 + 1)}


def recovered(client, player: Player) -> tuple[int, int]:
    """(moves the server holds of those acknowledged, moves it holds beyond them)."""
    view = client.get(f"/api/{player.kind}/games/{player.game}").json()
    if player.kind == "tour":
        held = [{"cell": cell} for cell in view["moves"][1:]]
    elif player.kind == "mastermind":
        held = [{"guess": turn["guess"]} for turn in view["turns"]]
    else:
        marks = view["enemy"]["marks"]
        shot = {i for i, mark in enumerate(marks) if mark != "unknown"}
        names = {"ABCDEFGHIJ"[i % 10] + str(i // 10 + 1) for i in shot}
        kept = sum(move["cell"] in names for move in player.acknowledged)
        return kept, len(shot) - kept  # classic rules: no water is marked around a sinking
    kept = (
        len(player.acknowledged) if held[: len(player.acknowledged)] == player.acknowledged else 0
    )
    return kept, len(held) - kept


def test_a_killed_server_loses_no_acknowledged_move(tmp_path):
    server = Server(tmp_path / "hamle.sqlite3")
    server.start()
    kinds = ["battleship", "mastermind", "tour"]
    players = [Player(server.url, kinds[i % 3], i) for i in range(CLIENTS)]
    try:
        for player in players:
            player.start()
        time.sleep(LOAD_SECONDS)
        server.process.kill()  # SIGKILL: no shutdown, no flush
        server.process.wait()
        for player in players:
            player.join(20)
        server.start()
        acknowledged = sum(len(p.acknowledged) for p in players if p.game)
        with httpx.Client(base_url=server.url, timeout=20) as client:
            counts = [recovered(client, p) for p in players if p.game]
            kept = sum(k for k, _ in counts)
            assert acknowledged > 50 and kept == acknowledged, (acknowledged, kept)
            assert all(0 <= extra <= 1 for _, extra in counts), counts  # the one in flight
            for player in players:
                if player.game:
                    view = client.get(f"/api/{player.kind}/games/{player.game}").json()
                    if not view.get("over") and not view.get("solved"):
                        answer = client.post(player.move_path(), json=player.next_move(view))
                        assert answer.status_code == 200, answer.text
    finally:
        server.stop()
