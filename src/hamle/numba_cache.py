"""A folder for numba's cache of compiled kernels wherever hamle runs.

Numba keeps a compiled kernel beside its source file, else in the user's cache folder, and
where it can write to neither (a read-only install run by a user without a home, as a
service account or a read-only container) it refuses to compile the kernel at all. There
hamle gives it a folder of this user's own in the temp folder (``NUMBA_CACHE_DIR``), so
that every command works and compiles once.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).parent


def make_ready() -> Path | None:
    """Set ``NUMBA_CACHE_DIR`` to a private folder where numba would find nowhere to write
    (and it is not set); that folder, or None where numba has its own (here, where the
    package's folder can be written, None)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    user_cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    if writable(PACKAGE / "__pycache__") or writable(Path(user_cache) / "numba"):
        return None
    try:
        folder = private_folder()
    except OSError:  # (nowhere at all: numba says so itself)
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if (numba := sys.modules.get("numba")) is not None:  # (imported before hamle)
        numba.config.CACHE_DIR = str(folder)
    return folder


def writable(folder: Path) -> bool:
    """Whether ``folder`` can be written to, or made where it is missing.

    >>> writable(Path(tempfile.gettempdir()) / "not" / "yet")
    True
    """
    for path in (folder, *folder.parents):
        if path.exists():
            return path.is_dir() and os.access(path, os.W_OK)
    return False


def private_folder() -> Path:
    """``hamle-numba-UID`` in the temp folder, this user's alone (mode 700): a path
    someone else holds there (a compiled kernel found there would be run), or a system
    with no user ids, leaves it for a new folder of a name no one could foresee (so the
    kernels are compiled again each run)."""
    uid = getattr(os, "getuid", lambda: None)()
    if uid is None:
        return Path(tempfile.mkdtemp(prefix="hamle-numba-"))
    folder = Path(tempfile.gettempdir()) / f"hamle-numba-{uid}"
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        held = folder.lstat()
        if not (stat.S_ISDIR(held.st_mode) and held.st_uid == uid and not held.st_mode & 0o077):
            return Path(tempfile.mkdtemp(prefix="hamle-numba-"))
    return folder
