"""Games in progress and cached results, kept in one SQLite file.

>>> store = Store(":memory:")
>>> game_id = store.create("tour", {"moves": []})
>>> store.load("tour", game_id)
{'moves': []}
>>> with store.update("tour", game_id) as state:
...     state["moves"].append("E8")
>>> store.load("tour", game_id)["moves"]
['E8']
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from hamle.errors import HamleError

from .limit import MAX_GAMES

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (updated);
CREATE TABLE IF NOT EXISTS cache (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated REAL NOT NULL
);
"""


BUSY_MS = 5000  # how long a write waits for the file (a lock held by another connection)
COLUMNS = {
    "games": ("id", "kind", "state", "created", "updated"),
    "cache": ("key", "value", "updated"),
}


class GameNotFound(HamleError, LookupError):
    """No game of this kind has this id."""


class GameChanged(HamleError):
    """The game was changed by another process while a request worked on it."""


class GameBusy(GameChanged):
    """Two requests on the game are there already: one answered, one waiting."""


class StoreBusy(Exception):
    """A change asked not to wait found the store busy."""


class _GameLock:
    """A game's lock, and the requests holding it or waiting for it (``users``)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


def _not_found(kind: str, game_id: str) -> GameNotFound:
    return GameNotFound(
        "no {kind} game has the id {id!r}", code="site.no_game", kind=kind, id=game_id
    )


@contextmanager
def _holding(lock: threading.Lock, wait: bool) -> Iterator[None]:
    """Hold ``lock``; StoreBusy at once if it is held and ``wait`` is False, and a
    sqlite3.OperationalError once it has been held elsewhere for BUSY_MS (a write kept
    waiting by another program keeps the requests behind it from waiting for ever)."""
    acquired = lock.acquire(timeout=BUSY_MS / 1000) if wait else lock.acquire(blocking=False)
    if not acquired and not wait:
        raise StoreBusy
    if not acquired:
        raise sqlite3.OperationalError(f"the database stayed busy for {BUSY_MS / 1000:g} s")
    try:
        yield
    finally:
        lock.release()


def _parsed(text: str, what: str) -> dict:
    """A row's JSON; a sqlite3.DatabaseError (a 503, as the store failing) if it is damaged."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, dict):
        raise sqlite3.DatabaseError(f"{what} is damaged: its row is not a JSON object")
    return value


def _identity(path: str) -> tuple[int, int] | None:
    """The file at ``path`` (its device and inode), or None where there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def checked_path(path: str) -> None:
    """sqlite3.OperationalError naming why ``path`` cannot keep games, found before SQLite
    opens it (which would leave its journal files behind): its folder missing or
    read-only, or the file, or a journal file beside it, not a file or read-only.

    >>> checked_path("no/such/folder/games.sqlite3")
    Traceback (most recent call last):
    sqlite3.OperationalError: its folder no/such/folder does not exist
    """
    if path == ":memory:":
        return
    file, folder = Path(path), Path(path).parent
    try:
        if not folder.is_dir():
            raise sqlite3.OperationalError(f"its folder {folder} does not exist")
        for name in (file, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
            if not os.path.lexists(name):
                continue
            if not name.is_file():
                raise sqlite3.OperationalError(f"{name} is not a file")
            if not os.access(name, os.R_OK | os.W_OK):
                extra = "" if name == file else ": delete it if no server has the database open"
                raise sqlite3.OperationalError(f"{name} is read-only{extra}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise sqlite3.OperationalError(
                f"its folder {folder} is read-only (SQLite keeps its journal beside the file)"
            )
    except OSError as error:  # (a name too long, a folder that may not be searched)
        raise sqlite3.OperationalError(error.strerror or str(error)) from None


class Store:
    """Game states as JSON rows, keyed by unguessable ids (128 random bits), at most
    ``max_games`` of them (and a thousandth more between checks): past it, the least
    recently played are cleared away.

    The server's threads share one connection for writing and one for reading, each
    behind a lock, so a write kept waiting (another server holding the file) stalls no
    read; a write waits BUSY_MS at most for the lock, and as long for the file. ``update``
    also holds a per-game lock, so two requests on one game cannot interleave, and a third
    request on a game is refused at once (``site.game_busy``) rather than holding a thread.
    """

    def __init__(self, path: str | Path, max_games: int = MAX_GAMES) -> None:
        if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
            raise ValueError(f"max_games must be a whole number of 1 or more, not {max_games!r}")
        self.path = str(path)
        self.max_games = max_games
        self._created = 0
        checked_path(self.path)
        self._db = sqlite3.connect(
            self.path, timeout=BUSY_MS / 1000, check_same_thread=False, isolation_level=None
        )
        self._lock = threading.Lock()
        # A game's lock lives while a request holds it, so ids that come and go (or were
        # never games) do not pile up; its own lock guards the table, never held for long.
        self._game_locks: weakref.WeakValueDictionary[str, _GameLock] = (
            weakref.WeakValueDictionary()
        )
        self._game_locks_lock = threading.Lock()
        with self._lock:
            try:
                self._refuse_another_programs()  # before anything is written to its file
                if self.path != ":memory:":
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(SCHEMA)
                self._check()
                self._clear_past_max()
            except BaseException:
                self._db.close()
                raise
        # (its absolute path: the working directory may change while the store is open)
        self._where = None if self.path == ":memory:" else os.path.abspath(self.path)
        self._file = None if self._where is None else _identity(self._where)
        # (a second connection to ":memory:" would open another database)
        self._reader, self._read_lock = self._db, self._lock
        if self.path != ":memory:":
            self._reader = sqlite3.connect(
                self.path, timeout=BUSY_MS / 1000, check_same_thread=False, isolation_level=None
            )
            self._read_lock = threading.Lock()

    def _refuse_another_programs(self) -> None:
        """sqlite3.DatabaseError if the file holds what hamle did not make: other tables,
        its own names with other columns, or triggers."""
        tables = [
            row[0]
            for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND substr(name, 1, 7) != 'sqlite_' ORDER BY name"
            )
        ]
        if other := [table for table in tables if table not in COLUMNS]:
            raise sqlite3.DatabaseError(
                f"it is not a hamle database: it holds the tables {', '.join(other)}"
            )
        if triggers := [
            row[0]
            for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
            )
        ]:
            raise sqlite3.DatabaseError(
                f"it is not a hamle database: it holds the triggers {', '.join(triggers)}"
            )
        for table in tables:
            found = tuple(row[1] for row in self._db.execute(f"PRAGMA table_info({table})"))
            if found != COLUMNS[table]:
                raise sqlite3.DatabaseError(
                    f"it is not a hamle database: its table {table} has the columns "
                    f"{', '.join(found)}, not {', '.join(COLUMNS[table])}"
                )

    def _check(self) -> None:
        """sqlite3.DatabaseError naming why the file cannot keep games: damage, or no
        right to write (found now rather than at the first move)."""
        damage = [row[0] for row in self._db.execute("PRAGMA quick_check(3)")]
        if damage != ["ok"]:
            raise sqlite3.DatabaseError(f"the file is damaged: {'; '.join(damage)}")
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("INSERT OR REPLACE INTO cache VALUES ('', '', 0)")
        finally:
            self._db.execute("ROLLBACK")

    def _still_there(self) -> None:
        """sqlite3.OperationalError if the file was removed or replaced since the store
        opened it: what it wrote now would be lost when the server stops."""
        if self._where is not None and _identity(self._where) != self._file:
            raise sqlite3.OperationalError(
                f"the database file {self.path} was removed or replaced while the site ran; "
                "nothing more is saved until the server is started again"
            )

    def checkpoint(self) -> None:
        """Fold the journal back into the file (as a server stops), so that a copy of the
        file alone has every game; the store stays open. A failure is left for later."""
        with suppress(sqlite3.Error, OSError), _holding(self._lock, wait=True):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
        with self._read_lock:
            self._reader.close()

    def create(self, kind: str, state: dict) -> str:
        game_id = secrets.token_urlsafe(16)
        now = time.time()
        with _holding(self._lock, wait=True):
            self._still_there()
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, json.dumps(state), now, now),
            )
            self._created += 1
            if self._created % max(1, self.max_games // 1000) == 0:
                self._clear_past_max()
        return game_id

    def _clear_past_max(self) -> None:
        """Delete the least recently played games past ``max_games``."""
        self._db.execute(
            "DELETE FROM games WHERE id IN "
            "(SELECT id FROM games ORDER BY updated DESC LIMIT -1 OFFSET ?)",
            (self.max_games,),
        )

    def load(self, kind: str, game_id: str) -> dict:
        return _parsed(self._text(kind, game_id), f"the game {game_id}")

    def _text(self, kind: str, game_id: str) -> str:
        with self._read_lock:
            row = self._reader.execute(
                "SELECT state FROM games WHERE id = ? AND kind = ?", (game_id, kind)
            ).fetchone()
        if row is None:
            raise _not_found(kind, game_id)
        return row[0]

    @contextmanager
    def update(self, kind: str, game_id: str, wait: bool = True) -> Iterator[dict]:
        """Load a game's state for changing; it is saved when the block ends without
        an error, and left as it was otherwise. GameChanged if another process (a second
        server on the same file) saved the game meanwhile: its change is kept, or if two
        requests on the game are there already (``site.game_busy``). Unless ``wait``,
        StoreBusy at once (the game left as it was) where a lock would be waited for:
        another request on the game, or a write held by another server."""
        with self._game_locks_lock:
            game = self._game_locks.setdefault(game_id, _GameLock())
            if game.users >= 1 and not wait:
                raise StoreBusy
            if game.users >= 2:
                raise GameBusy(
                    "another request on this game is still being answered, and one more "
                    "waits for it; send this one again once they are done",
                    code="site.game_busy",
                )
            game.users += 1
        try:
            with game.lock:
                before = self._text(kind, game_id)
                state = _parsed(before, f"the game {game_id}")
                yield state
                with _holding(self._lock, wait):
                    saved = self._save(game_id, before, state, wait)
                    kept = (
                        saved
                        or self._db.execute(
                            "SELECT 1 FROM games WHERE id = ?", (game_id,)
                        ).fetchone()
                    )
                if not kept:  # cleared away meanwhile, to keep no more than max_games
                    raise _not_found(kind, game_id)
                if not saved:
                    raise GameChanged(
                        "the game was changed elsewhere meanwhile; load it again",
                        code="site.game_changed",
                    )
        finally:
            with self._game_locks_lock:
                game.users -= 1

    def _save(self, game_id: str, before: str, state: dict, wait: bool) -> int:
        self._still_there()
        if not wait:
            self._db.execute("PRAGMA busy_timeout = 0")
        try:
            return self._db.execute(
                "UPDATE games SET state = ?, updated = ? WHERE id = ? AND state = ?",
                (json.dumps(state), time.time(), game_id, before),
            ).rowcount
        except sqlite3.OperationalError as error:
            if wait or error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            raise StoreBusy from None
        finally:
            if not wait:
                self._db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")

    def cached(self, key: str) -> dict | None:
        with self._read_lock:
            row = self._reader.execute("SELECT value FROM cache WHERE key = ?", (key,)).fetchone()
        try:
            return None if row is None else _parsed(row[0], f"the cached {key}")
        except sqlite3.DatabaseError:
            return None  # damaged: computed again, and written over

    def remember(self, key: str, value: dict) -> None:
        with _holding(self._lock, wait=True):
            self._still_there()
            self._db.execute(
                "INSERT OR REPLACE INTO cache VALUES (?, ?, ?)",
                (key, json.dumps(value), time.time()),
            )
