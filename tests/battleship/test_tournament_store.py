"""``bench/tournament.py`` keeps finished blocks of games, so a run that stops goes on
where it stopped; stored games that no longer replay are played again."""

from __future__ import annotations

import json

import hamle.battleship as bs


def test_stored_blocks_are_reused_and_stale_ones_replayed(
    tmp_path, monkeypatch, load_bench, capsys
):
    bench = load_bench("tournament")
    monkeypatch.setattr(bench, "PLACERS", ["uniform", "edges"])
    monkeypatch.setattr(bench, "BLOCK", 4)
    rules, path = bs.Rules.classic(), tmp_path / "games.json"
    first = bench.matrix(rules, {"parity": 10}, 1, bench.Store(path))
    expected = bs.tournament(rules, ["parity"], ["uniform", "edges"], games=10)
    assert first["matrix"] == expected.as_dict()["matrix"]
    stored = json.loads(path.read_text())[rules.describe()]["parity"]
    assert {placer: sorted(stored[placer]["blocks"], key=int) for placer in stored} == {
        "uniform": ["1", "5", "9"],
        "edges": ["1", "5", "9"],
    }
    assert stored["edges"]["key"]["placer"] == {
        "name": "edges", "kind": "edges", "strength": 3.0, "weights": {}
    }  # fmt: skip

    played = []
    real = bs.tournament
    monkeypatch.setattr(
        bench.bs,
        "tournament",
        lambda *a, **k: played.append(len(a[2]) * k["games"]) or real(*a, **k),
    )
    capsys.readouterr()
    again = bench.matrix(rules, {"parity": 10}, 1, bench.Store(path))
    assert again["matrix"] == first["matrix"]
    assert not played and "again" not in capsys.readouterr().err  # nothing played again

    data = json.loads(path.read_text())
    data[rules.describe()]["parity"]["edges"]["blocks"]["5"][1] += 1  # an edited store
    path.write_text(json.dumps(data))
    fixed = bench.matrix(rules, {"parity": 10}, 1, bench.Store(path))
    assert fixed["matrix"] == first["matrix"]
    assert sum(played) == 10  # edges played again, uniform not
    assert "parity × edges: stored games edited since they were played" in capsys.readouterr().err

    # Other code (another source hash), whatever the shots: every block played again.
    monkeypatch.setattr(
        bench, "pairing_key", lambda *a: real_key(*a) | {"hamle": {"version": "0", "source": "x"}}
    )
    real_key = load_bench("tournament").pairing_key
    played.clear()
    bench.matrix(rules, {"parity": 10}, 1, bench.Store(path))
    assert sum(played) == 20
    assert "parity × uniform: stored games played under another hamle" in capsys.readouterr().err


def test_a_store_from_before_keys_is_played_again(tmp_path, load_bench, capsys):
    bench = load_bench("tournament")
    rules, path = bs.Rules.classic(), tmp_path / "games.json"
    path.write_text(json.dumps({rules.describe(): {"parity": {"uniform": {"1": [40, 50]}}}}))
    store = bench.Store(path)
    store.trusted(rules, "parity", "uniform")
    assert store.blocks(rules, "parity", "uniform") == {}
    assert "stored games played under another hamle" in capsys.readouterr().err


def test_the_placers_settings_are_part_of_the_key(load_bench):
    bench = load_bench("tournament")
    rules = bs.Rules.classic()
    mixed = bench.pairing_key(rules, "parity", "mixed")["placer"]
    assert mixed["weights"] == bs.placers.mixture_weights(rules)
    six = bench.pairing_key(bs.Rules.custom(6, [3, 2]), "parity", "mixed")["placer"]
    assert six["weights"] == dict.fromkeys(bs.placers.TILTED, 0.25)
    assert bench.pairing_key(rules, "parity", "edges(strength=6)")["placer"]["strength"] == 6.0


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
