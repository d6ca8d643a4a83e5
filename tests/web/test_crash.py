"""A server killed with SIGKILL under load loses no move it acknowledged: ``bench/crash.py``
drives 20 clients playing the three games against a real ``hamle serve``, kills it
mid-load, starts it again on the same database and counts every move."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CRASH = Path(__file__).parents[2] / "bench" / "crash.py"


def test_a_killed_server_loses_no_acknowledged_move(tmp_path):
    out = tmp_path / "crash.json"
    command = [sys.executable, str(CRASH), "--rounds", "2", "--seconds", "3", "--out", str(out)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    report = json.loads(out.read_text())
    assert report["acknowledged"] > 100 and report["lost"] == 0
    for round_ in report["rounds"]:
        assert round_["recovered"] == round_["acknowledged"]
        assert round_["most_beyond_in_one_game"] <= 1  # the move in flight at the kill
        assert round_["continued"] == round_["unfinished"] > 0
    assert report["games"] == 40
