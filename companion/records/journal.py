"""The journal: every confirmed event of every game, in one SQLite file.

One log is the source of truth. Each row of `events` holds the same JSON object as a line of
the game record (docs/game-record.md); an undo is appended as `{"type": "undo"}`. Rows are
never updated or deleted (triggers refuse it); only the summary columns of `games` (status,
winner, victory, finished, players), the small `meta` table and the tables of the schema
steps (companion/records/schema.py) change. The
effective events of a game are derived by the one rule of undo (`reader.undo_targets`).

Durability: WAL mode with `synchronous=FULL`, so a row is on disk when `append` returns, and a
process killed at any moment leaves every committed row.

Opening (`Journal.open`) never mistakes a busy journal for a broken one:

- every connection waits up to `busy_seconds` for another one's lock; a journal still busy
  after that, or any I/O, permission or other error, is a `JournalError` and nothing moves;
- the schema is created (and its steps applied) inside one `BEGIN IMMEDIATE` transaction, so several
  processes creating the same new journal at once all end with one journal and no error;
- SQLite that is not ours (another `application_id`, tables of another program) or a newer
  schema version is refused and left where it is;
- only a regular file that SQLite itself calls broken (`quick_check` not "ok", "database disk
  image is malformed", "file is not a database") is moved aside to `<name>.corrupt-<time>`
  (with its -wal and -shm files), never overwriting anything, and only by a writable open.

Read-only opens (the pages) use `mode=ro`; on a disk that cannot be written (a copy on a
read-only medium, where WAL could not make its -shm file) they open the file `immutable`.

The schema lives in `companion.records.schema`: the base tables (version 1) and the named,
idempotent steps that add tables (players, summaries, fingerprints); a writable open creates
the base of a new journal and applies every step in its opening transaction. An import whose
events are already a game of the journal (`game_fingerprints`) is refused naming it
(`AlreadyInHistory`).

One writer process per journal: `companion.records.lock.WriterLock` (held by the commands, not
by this class). Only `companion.records.game.Game` writes events; pages open the journal
read-only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.records.reader import (
    UNDO_TYPE,
    Record,
    RecordRefused,
    dumps,
    effective,
    fingerprint,
    is_undo,
    record_lines,
)
from companion.records.schema import (
    APPLICATION_ID,
    BASE,
    SCHEMA_VERSION,
    TABLES,
    steps_applied,
)

__all__ = ["Record", "RecordRefused", "dumps", "record_lines"]  # part of the journal's API

BUSY_SECONDS = 5.0  # how long an open or a write waits for another connection's lock
UNDO: dict[str, Any] = {"type": UNDO_TYPE}
STATUSES = ("in_progress", "finished")
ORIGINS = ("play", "import")
_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB: SQLite's own verdict of a bad file
_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
GAME_COLUMNS = "id, started, finished, status, winner, victory, players, origin"
FINGERPRINTS = "fingerprints-1"  # the schema step of `game_fingerprints`

Clock = Callable[[], datetime]


class JournalError(Exception):
    """The journal cannot be used or refuses a write; the message is one line.

    `moved_to` is where a corrupt file was set aside, if it was.
    """

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


class UnknownGame(JournalError):
    """No game with that id in the journal."""


class AlreadyInHistory(JournalError):
    """A game record whose events are already a game of the journal (`game_id`)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"already in the history as game {game_id}")
        self.game_id = game_id


class _NotOurs(Exception):
    """A healthy SQLite file that is not a journal this program can use: refused, kept."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the summary columns say about a game after its latest event."""

    status: str = "in_progress"
    winner: str | None = None
    victory: str | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r} is not one of {', '.join(STATUSES)}")


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One row of `games`: the list of the history page and of `GET /api/games`."""

    id: int
    status: str
    winner: str | None
    victory: str | None
    started: str
    finished: str | None
    players: Mapping[str, str]
    origin: str

    def to_json(self) -> dict[str, Any]:
        """The object `GET /api/games` lists for this game."""
        return {
            "id": self.id,
            "status": self.status,
            "winner": self.winner,
            "victory": self.victory,
            "started": self.started,
            "finished": self.finished,
            "players": dict(self.players),
        }


@dataclass(frozen=True, slots=True)
class Row:
    """One journal row as written: its sequence number, record and time."""

    seq: int
    record: Record
    written_at: str

    @property
    def is_undo(self) -> bool:
        """Whether this row undoes the latest effective event before it."""
        return is_undo(self.record)


def utc_now() -> datetime:
    """The current time in UTC (the journal's default clock)."""
    return datetime.now(UTC)


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def effective_records(rows: Iterable[Row]) -> list[Record]:
    """The records that count: each undo row cancels the latest effective one before it."""
    return [record for _, record in effective([(r.seq, r.record) for r in rows], label="row")]


class Journal:
    """The SQLite journal of all games; open it with `create` or `open`."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path, readonly: bool, clock: Clock
    ) -> None:
        self._db = connection
        self._lock = threading.RLock()
        self.path = path
        self.readonly = readonly
        self._clock = clock

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path | str, *, clock: Clock = utc_now) -> Journal:
        """Create a new, empty journal at `path`.

        Raises:
            JournalError: a file is already there (it is never overwritten).
        """
        path = Path(path)
        if path.exists() and (not path.is_file() or path.stat().st_size > 0):
            raise JournalError(f"{path}: already exists; a journal is never overwritten")
        return cls.open(path, clock=clock)

    @classmethod
    def open(
        cls,
        path: Path | str,
        readonly: bool = False,
        *,
        clock: Clock = utc_now,
        busy_seconds: float = BUSY_SECONDS,
    ) -> Journal:
        """Open the journal at `path`; a writable open creates it when missing and brings an
        older schema up to date (module docstring).

        Raises:
            JournalError: missing (read-only), not a regular file, busy beyond `busy_seconds`,
                unreadable, not ours, a newer schema, or broken; only a broken regular file,
                and only by a writable open, is first moved aside (`moved_to`).
        """
        path = Path(path)
        if path.exists() and not path.is_file():
            raise JournalError(f"{path}: not a regular file; a journal is a file of its own")
        if readonly:
            return cls(_open_readonly(path, busy_seconds), path, True, clock)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise JournalError(f"{path}: cannot create: {error.strerror or error}") from None
        db: sqlite3.Connection | None = None
        try:
            db = _connect(path, busy_seconds)
            _prepare(db)
            verdict = str(db.execute("PRAGMA quick_check").fetchone()[0])
            if verdict == "ok":  # never before the checks: it rewrites the header
                _to_wal(db, busy_seconds)
        except _NotOurs as refusal:
            _close(db)
            raise JournalError(f"{path}: {refusal}") from None
        except sqlite3.DatabaseError as error:
            _close(db)
            if not _is_corrupt(error):
                raise JournalError(f"{path}: {_unusable(error)}") from None
            verdict = str(error)
        if verdict != "ok":
            _close(db)
            problem = f"not a usable journal, SQLite finds it broken ({verdict})"
            try:
                moved = _move_aside(path)
            except OSError as error:
                why = error.strerror or error
                raise JournalError(f"{path}: {problem}; cannot move it aside: {why}") from None
            raise JournalError(f"{path}: {problem}; moved aside to {moved.name}", moved)
        assert db is not None
        return cls(db, path, False, clock)

    def close(self) -> None:
        """Close the connection (the file stays consistent at any moment anyway)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ---------------------------------------------------------------------------

    def games(self, limit: int | None = None, offset: int = 0) -> list[GameSummary]:
        """Every game newest first, or `limit` of them after the `offset` newest (a page)."""
        if limit is None:
            rows = self._query(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC")
        else:
            sql = f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT ? OFFSET ?"
            rows = self._query(sql, (limit, offset))
        return [_summary(row) for row in rows]

    def game_count(self) -> int:
        """How many games the journal holds."""
        return int(self._query("SELECT count(*) FROM games")[0][0])

    def game(self, game_id: int) -> GameSummary:
        """The summary of one game.

        Raises:
            UnknownGame: no game with that id.
        """
        rows = self._query(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(f"no game {game_id} in the journal")
        return _summary(rows[0])

    def current_game(self) -> int | None:
        """The unfinished game to resume: the newest one played here (not imported), if any."""
        rows = self._query(
            "SELECT id FROM games WHERE status = 'in_progress' AND origin = 'play' "
            "ORDER BY id DESC LIMIT 1"
        )
        return int(rows[0][0]) if rows else None

    def latest_played(self) -> int | None:
        """The newest game played here (not imported), finished or not, if any."""
        rows = self._query("SELECT id FROM games WHERE origin = 'play' ORDER BY id DESC LIMIT 1")
        return int(rows[0][0]) if rows else None

    def rows(self, game_id: int) -> list[Row]:
        """Every row of a game as written, undo rows included, in order.

        Raises:
            UnknownGame: no game with that id.
        """
        self.game(game_id)
        found = self._query(
            "SELECT seq, record, written_at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [Row(int(seq), json.loads(record), str(at)) for seq, record, at in found]

    def effective_events(self, game_id: int) -> list[Record]:
        """The records that count (undone ones left out), as game-record objects, in order.

        Raises:
            UnknownGame: no game with that id.
        """
        return effective_records(self.rows(game_id))

    def last_seq(self, game_id: int) -> int:
        """The sequence number of the latest row (0 for none): it grows with every change.

        Raises:
            UnknownGame: no game with that id.
        """
        self.game(game_id)
        rows = self._query("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
        return int(rows[0][0] or 0)

    def export_record(self, game_id: int) -> str:
        """The game record of a game: its effective events as JSON Lines.

        Player names set after the setup (from the phone) are written into the setup line.

        Raises:
            UnknownGame: no game with that id.
        """
        names = dict(self.game(game_id).players)
        lines = []
        for record in self.effective_events(game_id):
            if record.get("type") == "setup" and names:
                record = {**record, "players": names}
            lines.append(dumps(record) + "\n")
        return "".join(lines)

    def meta(self, game_id: int, key: str, default: Any = None) -> Any:
        """A value stored with `set_meta` (JSON), or `default`."""
        rows = self._query("SELECT value FROM meta WHERE game_id = ? AND key = ?", (game_id, key))
        return json.loads(rows[0][0]) if rows else default

    # --- writing (Game is the only caller) ---------------------------------------------------

    def new_game(self) -> int:
        """Start a new game played at the table and return its id."""
        with self._write() as db:
            cursor = db.execute("INSERT INTO games (started) VALUES (?)", (self._now(),))
            return int(cursor.lastrowid or 0)

    def append(
        self,
        game_id: int,
        record: Mapping[str, Any],
        outcome: Outcome | None = None,
        *,
        after_seq: int | None = None,
    ) -> int:
        """Append one event record and return its seq; committed to disk when it returns.

        `outcome` updates the summary in the same transaction. `after_seq`, when given, is the
        seq the writer last saw: a different one means another writer got there first.

        Raises:
            UnknownGame: no game with that id.
            JournalError: read-only journal, an undo record (use `append_undo`), a record
                that is not a JSON object with a "type", or a seq conflict.
        """
        return self._append(
            game_id, [_event_record(record, "append an undo with append_undo")], outcome, after_seq
        )

    def append_undo(
        self, game_id: int, outcome: Outcome | None = None, *, after_seq: int | None = None
    ) -> int:
        """Append an undo row, cancelling the latest effective event; return its seq.

        Raises:
            UnknownGame: no game with that id.
            JournalError: nothing to undo, read-only journal, or a seq conflict.
        """
        return self._append(game_id, [dict(UNDO)], outcome, after_seq)

    def append_correction(
        self,
        game_id: int,
        record: Mapping[str, Any],
        outcome: Outcome | None = None,
        *,
        after_seq: int | None = None,
    ) -> int:
        """Replace the latest effective event with `record`: an undo row and the new row,
        committed together (a crash keeps both or neither); return the new row's seq.

        Raises:
            UnknownGame: no game with that id.
            JournalError: nothing to undo, read-only journal, a record that is not a JSON
                object with a "type" (or is an undo), or a seq conflict.
        """
        event = _event_record(record, "a correction replaces an event with an event, not an undo")
        return self._append(game_id, [dict(UNDO), event], outcome, after_seq)

    def set_players(self, game_id: int, players: Mapping[str, str]) -> None:
        """Name the players of a game (summary column; the setup row stays as written).

        Raises:
            UnknownGame: no game with that id.
        """
        with self._write() as db:
            self._require(db, game_id)
            current = json.loads(self._players_of(db, game_id))
            current.update(players)
            db.execute("UPDATE games SET players = ? WHERE id = ?", (dumps(current), game_id))

    def set_meta(self, game_id: int, key: str, value: Any) -> None:
        """Keep a small JSON value with a game (e.g. the screen the device was on).

        Raises:
            UnknownGame: no game with that id.
        """
        with self._write() as db:
            self._require(db, game_id)
            db.execute(
                "INSERT INTO meta (game_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                (game_id, key, json.dumps(value)),
            )

    def add_game(
        self,
        records: Sequence[Mapping[str, Any]],
        outcome: Outcome,
        *,
        origin: str = "import",
        again: bool = False,
    ) -> int:
        """Add a whole game (its effective events, already replayed by the caller) as a new
        game and return its id; all rows go in one transaction.

        `companion.records.game.import_record` is the caller that reads and replays a record.

        `again=True` adds it even when a game with the same events is there.

        Raises:
            AlreadyInHistory: a game with the same events (`reader.fingerprint`) is there.
            JournalError: read-only journal, or an undo among the records.
        """
        checked = [_event_record(r, "a game record holds no undo") for r in records]
        mark = fingerprint(checked)
        with self._write() as db:
            found = _game_with(db, mark)
            if found is not None and not again:
                raise AlreadyInHistory(found)
            now = self._now()
            cursor = db.execute("INSERT INTO games (started, origin) VALUES (?, ?)", (now, origin))
            game_id = int(cursor.lastrowid or 0)
            _keep_fingerprint(db, game_id, mark)
            for seq, record in enumerate(checked, start=1):
                db.execute(
                    "INSERT INTO events (game_id, seq, record, written_at) VALUES (?, ?, ?, ?)",
                    (game_id, seq, dumps(record), now),
                )
                if record["type"] == "setup":
                    self._take_players(db, game_id, record)
            self._set_outcome(db, game_id, outcome)
            return game_id

    def find_game(self, records: Sequence[Mapping[str, Any]]) -> int | None:
        """The game whose effective events are `records` (imported, or played to the end),
        if any."""
        with self._lock:
            try:
                return _game_with(self._db, fingerprint(records))
            except sqlite3.OperationalError:  # a reader of a journal without the table yet
                return None

    # --- for modules that keep their own tables in the journal (players, summaries) --------

    def now(self) -> str:
        """The journal clock's current time, as it stamps rows ("2026-05-01T20:15:00Z")."""
        return self._now()

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of a read-only SQL query on the journal's connection.

        Raises:
            JournalError: the query fails (busy, missing table).
        """
        return self._query(sql, params)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside one write transaction (committed on leaving, rolled back on
        an exception), for tables kept beside the events (companion.records.players).

        Raises:
            JournalError: read-only journal, or the journal cannot write.
        """
        with self._write() as db:
            yield db

    # --- internals ---------------------------------------------------------------------------

    def _now(self) -> str:
        return _stamp(self._clock())

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as error:
                raise JournalError(f"{self.path}: cannot read: {error}") from None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only")
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise JournalError(f"{self.path}: cannot write: {error}") from None
            try:
                yield self._db
            except BaseException:
                self._db.rollback()
                raise
            try:
                self._db.commit()
            except sqlite3.Error as error:
                self._db.rollback()
                raise JournalError(f"{self.path}: cannot write: {error}") from None

    def _append(
        self,
        game_id: int,
        records: Sequence[Record],
        outcome: Outcome | None,
        after_seq: int | None,
    ) -> int:
        """Append `records` in one transaction; return the last one's seq."""
        with self._write() as db:
            self._require(db, game_id)
            last = int(
                db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
                ).fetchone()[0]
            )
            if after_seq is not None and after_seq != last:
                raise JournalError(
                    f"game {game_id} changed elsewhere (seq {last}, expected {after_seq})"
                )
            if records[0] == UNDO and not self._has_effective(db, game_id):
                raise JournalError("Nothing to undo")
            for record in records:
                last += 1
                db.execute(
                    "INSERT INTO events (game_id, seq, record, written_at) VALUES (?, ?, ?, ?)",
                    (game_id, last, dumps(record), self._now()),
                )
                if record.get("type") == "setup":
                    self._take_players(db, game_id, record)
            if outcome is not None:
                self._set_outcome(db, game_id, outcome)
                if self._origin(db, game_id) == "play":  # recognised once finished
                    done = outcome.status == "finished"
                    mark = self._fingerprint(db, game_id) if done else None
                    _keep_fingerprint(db, game_id, mark)
            return last

    def _has_effective(self, db: sqlite3.Connection, game_id: int) -> bool:
        return bool(_effective_in(db, game_id))

    def _fingerprint(self, db: sqlite3.Connection, game_id: int) -> str:
        return fingerprint(_effective_in(db, game_id))

    def _origin(self, db: sqlite3.Connection, game_id: int) -> str:
        return str(db.execute("SELECT origin FROM games WHERE id = ?", (game_id,)).fetchone()[0])

    def _require(self, db: sqlite3.Connection, game_id: int) -> None:
        if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGame(f"no game {game_id} in the journal")

    def _players_of(self, db: sqlite3.Connection, game_id: int) -> str:
        return str(db.execute("SELECT players FROM games WHERE id = ?", (game_id,)).fetchone()[0])

    def _take_players(self, db: sqlite3.Connection, game_id: int, record: Record) -> None:
        names = record.get("players")
        if isinstance(names, dict) and json.loads(self._players_of(db, game_id)) == {}:
            clean = {k: v for k, v in names.items() if isinstance(v, str)}
            db.execute("UPDATE games SET players = ? WHERE id = ?", (dumps(clean), game_id))

    def _set_outcome(self, db: sqlite3.Connection, game_id: int, outcome: Outcome) -> None:
        finished = self._now() if outcome.status == "finished" else None
        db.execute(
            "UPDATE games SET status = ?, winner = ?, victory = ?, "
            "finished = CASE WHEN ? IS NULL THEN NULL ELSE COALESCE(finished, ?) END "
            "WHERE id = ?",
            (outcome.status, outcome.winner, outcome.victory, finished, finished, game_id),
        )


# --- opening helpers ---------------------------------------------------------------------------


def _connect(path: Path, busy_seconds: float, uri: str | None = None) -> sqlite3.Connection:
    db = sqlite3.connect(
        uri or path,
        uri=uri is not None,
        timeout=busy_seconds,  # the busy handler, set before the first access to the file
        check_same_thread=False,
        isolation_level=None,
    )
    db.execute(f"PRAGMA busy_timeout = {int(busy_seconds * 1000)}")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _to_wal(db: sqlite3.Connection, busy_seconds: float) -> None:
    """Put the journal in WAL mode, waiting up to `busy_seconds` for other connections.

    Switching needs the file to itself, and SQLite answers "locked" at once, without its
    busy handler, while another connection holds a write lock (it would deadlock otherwise):
    a second program creating the same journal. The switch is tried again until then.

    Raises:
        sqlite3.OperationalError: still locked after `busy_seconds`, or another failure.
    """
    deadline = time.monotonic() + busy_seconds
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _close(db: sqlite3.Connection | None) -> None:
    if db is not None:
        db.close()


def _is_corrupt(error: sqlite3.DatabaseError) -> bool:
    """Whether SQLite itself calls the file broken (not busy, not an I/O or schema race)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _CORRUPT_CODES


def _unusable(error: sqlite3.Error) -> str:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code in _BUSY_CODES:
        return f"busy: another process holds it ({error}); try again"
    return f"cannot be used now ({error}); nothing was changed"


def _prepare(db: sqlite3.Connection) -> None:
    """Create or migrate the schema in one transaction, or refuse a file that is not ours.

    Raises:
        _NotOurs: SQLite of another program, or a newer schema version.
        sqlite3.DatabaseError: busy beyond the timeout, I/O, a broken file.
    """
    db.execute("BEGIN IMMEDIATE")  # one creator or step at a time; others wait here
    try:
        if _check_marks(db, fresh_ok=True) == 0:
            for statement in BASE:
                db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        if FINGERPRINTS in steps_applied(db):
            _fill_fingerprints(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _check_marks(db: sqlite3.Connection, *, fresh_ok: bool) -> int:
    """The schema version of our journal; 0 for an empty SQLite file when `fresh_ok`.

    Raises:
        _NotOurs: another program's SQLite, a newer version, or our tables missing.
    """
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    empty = application_id == 0 and version == 0 and fresh_ok
    if empty and db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
        return 0
    if application_id != APPLICATION_ID:
        raise _NotOurs(
            f"SQLite, but not a Duel Companion journal (application_id {application_id}); "
            "left as it is"
        )
    if version > SCHEMA_VERSION:
        raise _NotOurs(
            f"journal schema version {version} is newer than this program's "
            f"({SCHEMA_VERSION}); update duel-companion"
        )
    for table, columns in TABLES.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            raise _NotOurs(f"journal table {table!r} is missing or incomplete; left as it is")
    return version


def _open_readonly(path: Path, busy_seconds: float) -> sqlite3.Connection:
    """A read-only connection; `immutable` on a disk that cannot be written (module docstring).

    Raises:
        JournalError: no journal there, not ours, a newer schema, or unreadable.
    """
    if not path.exists():
        raise JournalError(f"{path}: no journal there")
    if path.stat().st_size == 0:  # a creation cut short: nothing to read, and no write allowed
        raise JournalError(f"{path}: an empty file, no journal there yet")
    uri = f"{path.resolve().as_uri()}?mode=ro"
    wal = Path(f"{path}-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    unwritable = not os.access(path.parent, os.W_OK)
    if unwritable and pending:  # SQLite would fail with "unable to open database file"
        raise JournalError(
            f"{path}: a read-only copy with changes still in its -wal file, which SQLite "
            "cannot read without writing beside it; copy the journal with its -wal file "
            "to a folder that can be written, or open it once where it was made"
        )
    if unwritable:
        uri += "&immutable=1"  # WAL could not create its -shm file there; nothing changes it
    db: sqlite3.Connection | None = None
    try:
        db = _connect(path, busy_seconds, uri)
        _check_marks(db, fresh_ok=False)
    except _NotOurs as refusal:
        _close(db)
        raise JournalError(f"{path}: {refusal}") from None
    except sqlite3.Error as error:
        _close(db)
        raise JournalError(f"{path}: cannot be read ({error})") from None
    return db


def _fill_fingerprints(db: sqlite3.Connection) -> None:
    """Fingerprint the games already there: imported ones, and finished ones."""
    known = db.execute(
        "SELECT id FROM games WHERE status = 'finished' OR origin = 'import'"
    ).fetchall()
    for (game_id,) in known:
        _keep_fingerprint(db, int(game_id), fingerprint(_effective_in(db, int(game_id))))


def _keep_fingerprint(db: sqlite3.Connection, game_id: int, mark: str | None) -> None:
    if mark is None:
        db.execute("DELETE FROM game_fingerprints WHERE game_id = ?", (game_id,))
    else:
        db.execute(
            "INSERT INTO game_fingerprints (game_id, fingerprint) VALUES (?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET fingerprint = excluded.fingerprint",
            (game_id, mark),
        )


def _game_with(db: sqlite3.Connection, mark: str) -> int | None:
    """The first game whose events have the fingerprint `mark`, if any."""
    found = db.execute(
        "SELECT game_id FROM game_fingerprints WHERE fingerprint = ? ORDER BY game_id LIMIT 1",
        (mark,),
    ).fetchone()
    return None if found is None else int(found[0])


def _effective_in(db: sqlite3.Connection, game_id: int) -> list[Record]:
    found = db.execute(
        "SELECT seq, record, written_at FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    return effective_records(Row(int(s), json.loads(r), str(w)) for s, r, w in found)


def _move_aside(path: Path) -> Path:
    """Rename `path` (and its -wal, -shm files) to a `.corrupt-<timestamp>` name never used."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    number = 1
    while any(Path(f"{target}{s}").exists() for s in ("", "-wal", "-shm")):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{number}")
        number += 1
    for suffix in ("-wal", "-shm", ""):  # the main file last: it is what marks the journal
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.rename(source, f"{target}{suffix}")
    return target


def _summary(row: tuple[Any, ...]) -> GameSummary:
    game_id, started, finished, status, winner, victory, players, origin = row
    return GameSummary(
        id=int(game_id),
        status=str(status),
        winner=winner,
        victory=victory,
        started=str(started),
        finished=finished,
        players=json.loads(players),
        origin=str(origin),
    )


def _event_record(record: Mapping[str, Any], if_undo: str) -> Record:
    """`record` as a row to append: a JSON object with a "type" that is not an undo.

    Raises:
        JournalError: not such an object; `if_undo` when it is an undo.
    """
    if not isinstance(record, Mapping) or not isinstance(record.get("type"), str):
        raise JournalError('a journal record is a JSON object with a "type"')
    if record["type"] == "undo":
        raise JournalError(if_undo)
    return dict(record)
