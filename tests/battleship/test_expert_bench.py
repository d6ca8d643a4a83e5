"""``bench/expert.py`` refuses game counts and jobs it cannot measure, before any work."""

import sys

import pytest


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("expert")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "1"], "--games must be at least 2, not 1"),
        (["--advantage-games", "0"], "--advantage-games must be at least 2, not 0"),
        (["--base-games", "-5"], "--base-games must be at least 2, not -5"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
    ],
)
def test_bad_sizes_are_refused_by_name(bench, monkeypatch, capsys, args, message):
    monkeypatch.setattr(sys, "argv", ["expert.py", *args])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
