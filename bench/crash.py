"""A server killed with SIGKILL under load loses no move it acknowledged.

20 clients play Battleship, Mastermind and tour games against a real ``hamle serve``,
each sending its next move as soon as the last is answered. After ``--seconds`` of load
the server is killed with SIGKILL (no shutdown, no flush) and started again on the same
database; then every game of every round so far is read back and counted:

- acknowledged: moves the server answered 200 to;
- recovered: those of them the server still holds, in order;
- lost: acknowledged but not held (must be 0);
- beyond: moves held beyond those acknowledged (the one in flight at the kill, at most
  one per game);
- continued: unfinished games that accept their next move after the restart.

``--rounds`` repeats load and kill on the same database with new games each round.

    python bench/crash.py                        # 20 clients, 3 rounds of 5 s
    python bench/crash.py --rounds 1 --seconds 3 --out /tmp/crash.json
"""

from __future__ import annotations

import random
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import (
    Arguments,
    check_out,
    load_seconds,
    machine,
    positive_int,
    report_file,
    write_report,
)
from serve import start_server

KINDS = ("battleship", "mastermind", "tour")
COLUMNS = "ABCDEFGHIJ"


# The count of the game a move is meant for, where the game's page names it.
PINNED = {"tour": "turn", "mastermind": "changes"}


class Player(threading.Thread):
    """One client: a game of its kind, moves sent one after another until the game ends,
    the server dies or ``limit`` moves are made (so some games are left unfinished
    however fast the server is); ``acknowledged`` holds the moves answered 200."""

    def __init__(self, url: str, kind: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.url, self.kind, self.rng = url, kind, random.Random(seed)
        # A quarter of the players stop within 14 moves (a Battleship game needs 17
        # shots at least), so every round leaves games to continue however fast it is.
        short = seed % 4 == 0
        self.limit = 5 + self.rng.randrange(10) if short else 20 + self.rng.randrange(200)
        self.acknowledged: list[dict] = []
        self.game: str | None = None

    def run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=10) as client:
            try:
                view = client.post(f"/api/{self.kind}/games", json=self.new_game(client)).json()
                self.game = view["id"]
                while not finished(view) and len(self.acknowledged) < self.limit:
                    view = self.move(client, view)
                    if view is None:
                        return
            except httpx.HTTPError:
                return  # the server is gone

    def new_game(self, client: httpx.Client) -> dict:
        if self.kind == "battleship":
            fleet = client.get("/api/battleship/fleet").json()["fleet"]
            return {"fleet": [ship["cells"] for ship in fleet]}
        return {"kind": "free"} if self.kind == "tour" else {}

    def move(self, client: httpx.Client, view: dict) -> dict | None:
        """Send the next move; the game's view after it, or None if it was refused."""
        move = self.next_move(view)
        last = {"battleship": "shots", "mastermind": "guess", "tour": "moves"}[self.kind]
        body = dict(move)
        if pinned := PINNED.get(self.kind):  # as the pages send it
            body[pinned] = view[pinned]
        answer = client.post(f"/api/{self.kind}/games/{self.game}/{last}", json=body)
        if answer.status_code != 200:
            return None
        self.acknowledged.append(move)
        view = answer.json()
        return view.get("game", view)

    def next_move(self, view: dict) -> dict:
        if self.kind == "tour":
            return {"cell": self.rng.choice(view["legal"]), "from": view["current"]}
        if self.kind == "mastermind":
            return {"guess": "".join(self.rng.choice("123456") for _ in range(4))}
        unknown = [i for i, mark in enumerate(view["enemy"]["marks"]) if mark == "unknown"]
        cell = self.rng.choice(unknown)
        return {"cell": COLUMNS[cell % 10] + str(cell // 10 + 1)}

    def held(self, view: dict) -> tuple[int, int]:
        """(acknowledged moves the server holds, moves it holds beyond them)."""
        moves = self.moves(view)
        if self.kind == "battleship":  # shots count as a set
            kept = sum(move in moves for move in self.acknowledged)
            return kept, len(moves) - kept
        count = len(self.acknowledged)
        kept = count if moves[:count] == self.acknowledged else 0
        return kept, len(moves) - kept

    def moves(self, view: dict) -> list[dict]:
        """The moves the server holds for this game, as this player sends them."""
        if self.kind == "battleship":
            marks = view["enemy"]["marks"]  # classic rules: no water is marked round a sinking
            return [
                {"cell": COLUMNS[i % 10] + str(i // 10 + 1)}
                for i, mark in enumerate(marks)
                if mark != "unknown"
            ]
        if self.kind == "mastermind":
            return [{"guess": turn["guess"]} for turn in view["turns"]]
        return [{"cell": cell, "from": here} for here, cell in pairwise(view["moves"])]


def finished(view: dict) -> bool:
    return bool(view.get("over") or view.get("solved"))


def check(url: str, players: list[Player]) -> dict:
    """Every game read back after a restart, counted as the module docstring says; each
    unfinished game then makes one more move."""
    tally = dict.fromkeys(("acknowledged", "recovered", "lost", "beyond"), 0)
    games = [player for player in players if player.game]
    unfinished = continued = most_beyond = 0
    with httpx.Client(base_url=url, timeout=20) as client:
        for player in games:
            view = client.get(f"/api/{player.kind}/games/{player.game}").json()
            kept, beyond = player.held(view)
            tally["acknowledged"] += len(player.acknowledged)
            tally["recovered"] += kept
            tally["lost"] += len(player.acknowledged) - kept
            tally["beyond"] += beyond
            most_beyond = max(most_beyond, beyond)
            if not finished(view):
                # The game goes on from what the server holds: a move it took at the
                # kill without answering is part of the game from now on.
                player.acknowledged = player.moves(view)
                unfinished += 1
                continued += player.move(client, view) is not None
    return tally | {
        "games": len(games),
        "unfinished": unfinished,
        "continued": continued,
        "most_beyond_in_one_game": most_beyond,
    }


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=positive_int, default=20)
    parser.add_argument(
        "--seconds",
        type=load_seconds,
        default=5,
        help="of load before each kill (at most 3600, an hour)",
    )
    parser.add_argument("--rounds", type=positive_int, default=3)
    default = Path(__file__).parent / "results/site_crash.json"
    parser.add_argument("--out", type=report_file, default=default)
    args = parser.parse_args()
    check_out(parser, args.out)
    report = {
        "benchmark": "crash",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "clients": args.clients,
        "seconds": args.seconds,
    }
    rounds, players = [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "crash.sqlite3"
        server, url = start_server(db)
        try:
            for round_number in range(args.rounds):
                started = [
                    Player(url, KINDS[i % len(KINDS)], round_number * args.clients + i)
                    for i in range(args.clients)
                ]
                for player in started:
                    player.start()
                time.sleep(args.seconds)
                server.kill()
                server.wait()
                for player in started:
                    player.join(20)
                players += started
                server, url = start_server(db)
                rounds.append(check(url, players))
        finally:
            server.terminate()
            server.wait(10)
    report["rounds"] = rounds
    report |= {key: rounds[-1][key] for key in ("acknowledged", "recovered", "lost", "games")}
    report["aim_no_lost_move"] = all(r["lost"] == 0 for r in rounds)
    report["aim_every_game_goes_on"] = all(r["continued"] == r["unfinished"] for r in rounds)
    write_report(report, args.out)
    if not (report["aim_no_lost_move"] and report["aim_every_game_goes_on"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
