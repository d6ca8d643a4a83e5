"""Files written whole or not at all, for results that took long to work out."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


def spare_beside(path: str | os.PathLike) -> Path:
    """A short unused name in ``path``'s folder, for a file written before it is renamed
    (short, so that it fits wherever ``path``'s own name fits).

    >>> spare_beside("/tmp/report.json").parent
    PosixPath('/tmp')
    """
    return Path(path).with_name(f".hamle-{secrets.token_hex(4)}.tmp")


@contextmanager
def written_whole(path: str | os.PathLike) -> Iterator[Path]:
    """The path to write instead of ``path``: renamed over it when the block ends without
    an error, removed otherwise. A symbolic link stays, and its target gets the file; a
    file replaced keeps its permissions; a target that is not a regular file (a device, a
    pipe) is not replaced: OSError.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with written_whole(Path(folder) / "a.txt") as spare:
    ...         _ = spare.write_text("whole")
    ...     sorted(p.name for p in Path(folder).iterdir())
    ['a.txt']
    """
    target = Path(os.path.realpath(path))
    _refuse_special(target)
    spare = spare_beside(target)
    try:
        yield spare
        _refuse_special(target)  # (again: one may have been made while the block wrote)
        if target.exists():
            spare.chmod(stat.S_IMODE(target.stat().st_mode))
        spare.replace(target)
    finally:
        with suppress(OSError):  # (gone once renamed; else its own failure must not hide why)
            spare.unlink(missing_ok=True)


def _refuse_special(target: Path) -> None:
    """OSError if ``target`` exists and is not a regular file: renaming a file over
    /dev/null or a pipe would put a plain file in its place."""
    if target.exists() and not target.is_file() and not target.is_dir():
        raise OSError(errno.EEXIST, "not a regular file", str(target))
