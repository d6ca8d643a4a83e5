"""Which hamle this is: its version and a hash of its Python source, so that a result can
say what produced it and a Dask cluster's workers can be checked to run the same code
as the client (two copies of one version, one edited, differ in the hash).

>>> mark = fingerprint()
>>> sorted(mark), mark["version"] == hamle.__version__, len(mark["source"])
(['source', 'version'], True, 16)
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import hamle

PACKAGE = Path(hamle.__file__).parent


def fingerprint() -> dict[str, str]:
    """``{"version": ..., "source": ...}``: the version, and the first 16 hex digits of
    the SHA-256 of every ``.py`` file of the package (its path in the package and its
    bytes, in the order of the paths); worked out once per process."""
    return dict(_fingerprint())


@cache
def _fingerprint() -> tuple[tuple[str, str], ...]:
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py"), key=lambda p: p.relative_to(PACKAGE).as_posix()):
        name = path.relative_to(PACKAGE).as_posix().encode()
        data = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name), name, len(data)))
        digest.update(data)
    return (("version", hamle.__version__), ("source", digest.hexdigest()[:16]))


def said(mark: dict) -> str:
    """A fingerprint as a person reads it.

    >>> said({"version": "0.1.0", "source": "0123456789abcdef"})
    'hamle 0.1.0, source 0123456789abcdef'
    """
    return f"hamle {mark.get('version')}, source {mark.get('source')}"
