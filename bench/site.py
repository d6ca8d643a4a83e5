"""Site latency under load: concurrent clients on loopback (by default 20 for 30 s).

Starts ``hamle serve`` on a free port with a fresh database, prepares realistic requests
(density maps of games in progress, tour positions at several depths, Mastermind games
after 0-2 guesses), then runs closed-loop clients — each sends its next request as soon
as the last one is answered — cycling through the density, tour hint (quick and full),
Mastermind suggestion and health endpoints. Writes median, p99 and max latency per
endpoint and every error seen. The baseline is the same engine call made in-process in
this run, so the ratio is the cost of HTTP, JSON and the store.

    python bench/site.py                 # 20 clients, 30 s
    python bench/site.py --quick         # 20 clients, 5 s
    python bench/site.py --clients 4 --seconds 10   # --seconds wins over --quick
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx2 as httpx
import numpy as np

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

import hamle.battleship as bs
import hamle.mastermind as mm
import hamle.tour as tour

KINDS = ("density", "tour_quick_hint", "tour_hint", "mastermind_suggest", "health")


def density_bodies() -> list[dict]:
    """The marks after 0, 10, 20 … shots of density games 1..5, as the lab sends them."""
    rules = bs.Rules.classic()
    grid = rules.grid
    bodies = []
    for game in range(1, 6):
        record = bs.play_game(rules, "density", game)
        for cut in range(0, record.shots_fired, 10):
            ocean = bs.Ocean(record.fleet)
            for shot in record.shots[:cut]:
                ocean.fire(shot.cell)
            observation = ocean.observation
            marks = observation.marks
            sunk_cells = {c for ship in observation.sunk for c in ship.cells}
            bodies.append(
                {
                    "miss": [grid.name(c) for c in np.flatnonzero(marks == 1)],
                    "hit": [grid.name(c) for c in np.flatnonzero(marks == 2)],
                    "sunk": [[grid.name(c) for c in ship.cells] for ship in observation.sunk],
                }
            )
            assert not sunk_cells & set(np.flatnonzero(marks == 2).tolist())
    return bodies


def tour_games(client: httpx.Client) -> list[tuple[str, tour.Position, int]]:
    """Free games from six start cells, advanced along the hint by 0, 15, 40 or 70 moves,
    with each game's turn."""
    games = []
    for start in ("A1", "C3", "E5", "F6", "B9", "J10"):
        for depth in (0, 15, 40, 70):
            position = tour.Position.start(start)
            moves = []
            while position.count < depth + 1 and not position.over:
                move = tour.hint(position, "quick").move
                position = position.play(move)
                moves.append(tour.GRID.name(move))
            view = client.post("/api/tour/games", json={"kind": "free", "start": start}).json()
            for here, cell in zip([start, *moves], moves, strict=False):
                move = {"cell": cell, "from": here, "turn": view["turn"]}
                view = client.post(f"/api/tour/games/{view['id']}/moves", json=move).json()
            if not position.over:
                games.append((view["id"], position, view["turn"]))
    return games


def mastermind_games(client: httpx.Client) -> list[str]:
    """Classic codebreaker games after 0, 1 and 2 guesses (minimax suggestions)."""
    ids = []
    for guesses in ((), ("1122",), ("1122", "3456"), ("1234",), ("1123", "4456")):
        game = client.post(
            "/api/mastermind/games",
            json={"variant": "classic", "mode": "breaker", "strategy": "minimax"},
        ).json()
        for guess in guesses:
            view = client.post(f"/api/mastermind/games/{game['id']}/guess", json={"guess": guess})
            if view.json().get("over"):
                break
        else:
            ids.append(game["id"])
    return ids


def here(position: tour.Position) -> str:
    """The name of a tour position's current cell, as a move or hint names it."""
    return tour.GRID.name(position.current)


def requests(bodies, tours, masterminds) -> dict[str, list[tuple[str, str, dict | None]]]:
    return {
        "density": [("POST", "/api/battleship/density", body) for body in bodies],
        "tour_quick_hint": [
            ("POST", f"/api/tour/games/{gid}/hint", {"mode": "quick", "from": here(p), "turn": t})
            for gid, p, t in tours
        ],
        "tour_hint": [
            ("POST", f"/api/tour/games/{gid}/hint", {"mode": "hint", "from": here(p), "turn": t})
            for gid, p, t in tours
        ],
        "mastermind_suggest": [
            ("GET", f"/api/mastermind/games/{gid}/suggest", None) for gid in masterminds
        ],
        "health": [("GET", "/api/health", None)],
    }


async def load(url: str, plan: dict, clients: int, seconds: float) -> dict:
    latencies: dict[str, list[float]] = {kind: [] for kind in plan}
    errors: list[str] = []
    deadline = time.perf_counter() + seconds

    async def client_loop(number: int, session: httpx.AsyncClient) -> None:
        rng = random.Random(number)
        cycle = [(kind, request) for kind in plan for request in plan[kind]]
        while time.perf_counter() < deadline:
            kind, (method, path, body) = rng.choice(cycle)
            began = time.perf_counter()
            try:
                response = await session.request(method, path, json=body)
                took = time.perf_counter() - began
                if response.status_code >= 400:
                    errors.append(f"{kind} {response.status_code}: {response.text[:200]}")
                else:
                    latencies[kind].append(took)
            except httpx.HTTPError as exc:
                errors.append(f"{kind}: {type(exc).__name__} {exc}")

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as session:
        started = time.perf_counter()
        await asyncio.gather(*(client_loop(n, session) for n in range(clients)))
        elapsed = time.perf_counter() - started
    total = sum(len(v) for v in latencies.values())
    return {
        "elapsed_s": round(elapsed, 2),
        "requests": total,
        "requests_per_s": round(total / elapsed, 1),
        "errors": len(errors),
        "error_samples": errors[:10],
        "endpoints": {kind: summary(values) for kind, values in latencies.items()},
    }


def summary(seconds: list[float]) -> dict:
    ms = np.array(seconds) * 1000
    if not len(ms):
        return {"count": 0}
    return {
        "count": len(ms),
        "median_ms": round(float(np.median(ms)), 2),
        "p99_ms": round(float(np.quantile(ms, 0.99)), 2),
        "max_ms": round(float(ms.max()), 2),
    }


def in_process(bodies, tours, masterminds_history) -> dict:
    """Median time of the same engine calls without HTTP (the baseline)."""

    def median_ms(calls) -> float:
        for call in calls[:3]:
            call()
        times = []
        for call in calls * 3:
            began = time.perf_counter()
            call()
            times.append(time.perf_counter() - began)
        return round(float(np.median(times)) * 1000, 3)

    rules = bs.Rules.classic()
    return {
        "density": median_ms(
            [lambda b=b: bs.density(bs.Observation.from_marks(rules, **b)) for b in bodies]
        ),
        "tour_quick_hint": median_ms([lambda p=p: tour.hint(p, "quick") for _, p, _ in tours]),
        "tour_hint": median_ms([lambda p=p: tour.hint(p, "hint") for _, p, _ in tours]),
        "mastermind_suggest": median_ms(
            [lambda h=h: mm.get_strategy("minimax").next_guess(h) for h in masterminds_history]
        ),
    }


def classic_histories() -> list[mm.History]:
    variant = mm.Variant.classic()
    secret = variant.parse("6543")
    out = []
    for guesses in ((), ("1122",), ("1122", "3456"), ("1234",), ("1123", "4456")):
        history = mm.History(variant)
        for guess in guesses:
            code = variant.parse(guess)
            history = history.then(code, variant.answer(*mm.score(variant, code, secret)))
        out.append(history)
    return out


def main() -> None:
    parser = Arguments(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=load_seconds,
        help="of load (default 30, quick 5; at most 3600, an hour)",
    )
    parser.add_argument("--clients", type=positive_int, default=20)
    parser.add_argument("--quick", action="store_true", help="5 s instead of 30")
    parser.add_argument(
        "--out", type=report_file, default=Path(__file__).parent / "results/site.json"
    )
    args = parser.parse_args()
    check_out(parser, args.out)
    seconds = args.seconds if args.seconds is not None else (5 if args.quick else 30)
    report = {
        "benchmark": "site",
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "quick": args.quick,
        "clients": args.clients,
        "seconds": seconds,
    }
    with tempfile.TemporaryDirectory() as tmp:
        server, url = start_server(Path(tmp) / "bench.sqlite3")
        try:
            with httpx.Client(base_url=url, timeout=60) as client:
                bodies = density_bodies()
                tours = tour_games(client)
                masterminds = mastermind_games(client)
            plan = requests(bodies, tours, masterminds)
            report["requests_prepared"] = {kind: len(v) for kind, v in plan.items()}
            report["load"] = asyncio.run(load(url, plan, args.clients, seconds))
        finally:
            server.terminate()
            server.wait(10)
    report["in_process_median_ms"] = in_process(bodies, tours, classic_histories())
    endpoints = report["load"]["endpoints"]
    report["aim_p99_under_50_ms"] = {
        kind: endpoints[kind].get("p99_ms", float("inf")) < 50
        for kind in ("density", "tour_quick_hint")
    }
    write_report(report, args.out)
    if not report["load"]["requests"]:
        errors = report["load"]["errors"]
        sys.exit(
            f"no request completed in {seconds:g} s of load ({errors} errors): nothing measured"
        )


if __name__ == "__main__":
    main()
