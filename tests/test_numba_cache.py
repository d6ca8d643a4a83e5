"""Where numba can write nowhere (a read-only install, a user without a home), hamle gives
it a folder of this user's own in the temp folder."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hamle import numba_cache


@pytest.fixture
def nowhere(monkeypatch, tmp_path):
    """No NUMBA_CACHE_DIR, and neither the package's folders nor a home can be written
    (what the tests set is set back after them, numba's setting too)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")  # (empty: not set)
    numba = pytest.importorskip("numba")
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", "/nonexistent/cache")
    monkeypatch.setattr(numba_cache, "writable", lambda folder: False)
    monkeypatch.setattr(numba_cache.tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_nowhere_to_write_gets_a_folder_of_its_own(nowhere):
    folder = numba_cache.make_ready()
    assert folder == nowhere / f"hamle-numba-{os.getuid()}"
    assert os.environ["NUMBA_CACHE_DIR"] == str(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert numba_cache.make_ready() is None  # (set now: left as it is)
    os.environ["NUMBA_CACHE_DIR"] = ""
    assert numba_cache.make_ready() == folder  # (its own folder again, next time)


@pytest.mark.parametrize("mode", [0o777, 0o755])
def test_a_folder_others_may_write_to_is_not_used(nowhere, mode):
    held = nowhere / f"hamle-numba-{os.getuid()}"
    held.mkdir()
    held.chmod(mode)
    folder = numba_cache.make_ready()
    assert folder.parent == nowhere and folder != held and folder.name.startswith("hamle-numba-")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_file_in_its_place_is_not_used(nowhere):
    held = nowhere / f"hamle-numba-{os.getuid()}"
    held.write_text("")
    held.chmod(0o600)  # (private, but no folder)
    folder = numba_cache.make_ready()
    assert folder.is_dir() and folder != held


def test_a_folder_of_another_user_is_not_used(nowhere, monkeypatch):
    other = os.getuid() + 1
    held = nowhere / f"hamle-numba-{other}"
    held.mkdir(mode=0o700)  # (private, but this user's, not the other's)
    monkeypatch.setattr(numba_cache.os, "getuid", lambda: other)
    folder = numba_cache.make_ready()
    assert folder.parent == nowhere and folder != held


def test_without_user_ids_a_new_folder_is_made(nowhere, monkeypatch):
    monkeypatch.delattr(numba_cache.os, "getuid")
    folder = numba_cache.make_ready()
    assert folder.parent == nowhere and folder.name.startswith("hamle-numba-")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    os.environ["NUMBA_CACHE_DIR"] = ""
    assert numba_cache.make_ready() != folder  # (a name no one could foresee, each time)


def test_a_given_cache_folder_or_a_writable_one_is_left_to_numba(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert numba_cache.make_ready() is None and os.environ["NUMBA_CACHE_DIR"] == str(tmp_path)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")
    monkeypatch.setattr(numba_cache, "writable", lambda folder: folder.name == "numba")
    assert numba_cache.make_ready() is None and os.environ["NUMBA_CACHE_DIR"] == ""


def test_writable_looks_at_the_nearest_folder_that_exists(tmp_path):
    assert numba_cache.writable(tmp_path / "a" / "b")
    (tmp_path / "file").write_text("")
    assert not numba_cache.writable(tmp_path / "file" / "b")


def test_kernels_compile_into_the_folder_given(tmp_path):
    # A fresh process where nothing else is writable: numba caches its kernels there.
    program = (
        "from hamle import numba_cache\n"
        "numba_cache.writable = lambda folder: False\n"
        f"numba_cache.tempfile.tempdir = {str(tmp_path)!r}\n"
        "folder = numba_cache.make_ready()\n"
        "import hamle.tour as tour\n"
        "tour.hint(tour.Position.start(0), 'quick')\n"
        "print(folder)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    assert folder.parent == tmp_path
    assert any(folder.rglob("*.nbi")), "numba wrote no index of a cached kernel there"
