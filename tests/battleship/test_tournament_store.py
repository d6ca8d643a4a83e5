"""``bench/tournament.py`` keeps finished blocks of games, so a run that stops goes on
where it stopped; stored games that no longer replay are played again."""

from __future__ import annotations

import json

import hamle.battleship as bs


def test_stored_blocks_are_reused_and_stale_ones_replayed(tmp_path, monkeypatch, load_bench):
    bench = load_bench("tournament")
    monkeypatch.setattr(bench, "PLACERS", ["uniform", "edges"])
    monkeypatch.setattr(bench, "BLOCK", 20)
    rules, path = bs.Rules.classic(), tmp_path / "games.json"
    first = bench.matrix(rules, {"parity": 50}, 1, bench.Store(path))
    expected = bs.tournament(rules, ["parity"], ["uniform", "edges"], games=50)
    assert first["matrix"] == expected.as_dict()["matrix"]
    stored = json.loads(path.read_text())[rules.describe()]["parity"]
    assert {placer: sorted(stored[placer], key=int) for placer in stored} == {
        "uniform": ["1", "21", "41"],
        "edges": ["1", "21", "41"],
    }

    played = []
    real = bs.tournament
    monkeypatch.setattr(bench.bs, "tournament", lambda *a, **k: played.append(k) or real(*a, **k))
    again = bench.matrix(rules, {"parity": 50}, 1, bench.Store(path))
    assert again["matrix"] == first["matrix"]
    assert all(k["games"] == 1 for k in played)  # only the one-game replays

    data = json.loads(path.read_text())
    data[rules.describe()]["parity"]["edges"]["41"][0] += 1  # the code "changed"
    path.write_text(json.dumps(data))
    played.clear()
    fixed = bench.matrix(rules, {"parity": 50}, 1, bench.Store(path))
    assert fixed["matrix"] == first["matrix"]
    assert sum(k["games"] for k in played if k["games"] > 1) == 50  # edges played again


def test_the_strongest_placer_is_one_of_one_law_even_when_a_mixture_leads(load_bench):
    # A mixture's mean is its parts' weighted mean: ahead of them only by chance.
    added = {"edges": 0.7, "anti-density": 1.0, "mixed": 1.4}
    row = {
        placer: {"versus_uniform": {"mean": mean, "stderr": 0.4}} for placer, mean in added.items()
    }
    result = {"matrix": {"exact": {"uniform": {"versus_uniform": None}, **row}}}
    assert load_bench("tournament").strongest(result, "exact") == {
        "shooter": "exact",
        "placer": "anti-density",
        "mean": 1.0,
        "stderr": 0.4,
    }
