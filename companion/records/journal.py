"""The journal: every confirmed event of every game, in one SQLite file.

One log is the source of truth. Each row of `events` holds the same JSON object as a line of
the game record (docs/game-record.md); an undo is appended as `{"type": "undo"}`. Rows are
never updated or deleted (triggers refuse it); only the summary columns of `games` (status,
winner, victory, finished, players) and the small `meta` table change. The effective events of
a game are derived: each undo row cancels the latest effective event before it.

Durability: WAL mode with `synchronous=FULL`, so a row is on disk when `append` returns, and a
process killed at any moment leaves every committed row. A file that is not SQLite, or is
SQLite without our `application_id`, `user_version` and tables, or fails SQLite's quick check,
raises `JournalError`; a writable open also moves it aside to `<name>.corrupt-<timestamp>`
(with its -wal and -shm files), never overwriting anything.

Only `companion.records.game.Game` writes events; pages open the journal read-only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x44554545  # "DUEE": marks the file as a Duel Companion journal
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"
UNDO: dict[str, Any] = {"type": "undo"}
STATUSES = ("in_progress", "finished")
MAX_NESTING = 16  # an event nests 3 deep (setup.wonders.p1); deeper input is refused early
ORIGINS = ("play", "import")

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'finished')),
    winner TEXT,
    victory TEXT,
    players TEXT NOT NULL DEFAULT '{}',
    origin TEXT NOT NULL DEFAULT 'play' CHECK (origin IN ('play', 'import'))
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE meta (
    game_id INTEGER NOT NULL REFERENCES games(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END;
CREATE TRIGGER games_are_kept BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'journal games are kept'); END;
"""
TABLES = {
    "games": {"id", "started", "finished", "status", "winner", "victory", "players", "origin"},
    "events": {"game_id", "seq", "record", "written_at"},
    "meta": {"game_id", "key", "value"},
}

Record = dict[str, Any]
Clock = Callable[[], datetime]


class JournalError(Exception):
    """The journal cannot be used or refuses a write; the message is one line.

    `moved_to` is where a corrupt or foreign file was set aside, if it was.
    """

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


class UnknownGame(JournalError):
    """No game with that id in the journal."""


class RecordRefused(JournalError):
    """A game record that cannot be imported; the message names the line and the reason."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


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
        return self.record.get("type") == "undo"


def utc_now() -> datetime:
    """The current time in UTC (the journal's default clock)."""
    return datetime.now(UTC)


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


# Characters that JSON leaves raw inside strings but `str.splitlines` breaks a line on.
_LINE_BREAKS_IN_STRINGS = str.maketrans(
    {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def dumps(record: Mapping[str, Any]) -> str:
    """A record as one compact JSON line (the journal and the game record share it).

    Line separators inside strings (U+0085, U+2028, U+2029) are escaped, so that the line
    stays one line for any reader, `str.splitlines` included.
    """
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_LINE_BREAKS_IN_STRINGS)


def record_lines(text: str) -> list[str]:
    """The physical lines of a game record: JSON Lines ends a line at "\n" (or "\r\n") only,
    never at the other separators `str.splitlines` knows, which JSON strings may hold raw."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def parse_record_lines(lines: Iterable[str]) -> list[tuple[int, Record]]:
    """JSON Lines -> (line number, record) pairs, skipping blank lines.

    Raises:
        RecordRefused: a line that is not a JSON object with a "type", or an undo row; the
            message names the line.
    """
    records: list[tuple[int, Record]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except RecursionError:  # json's C scanner recurses: a line of 100 000 '['
            raise RecordRefused(f"line {number}: nested too deeply", number) from None
        except ValueError as bad:
            raise RecordRefused(f"line {number}: not JSON: {bad}", number) from None
        if _nesting(record) > MAX_NESTING:  # would not even serialise again deeper in a page
            raise RecordRefused(f"line {number}: nested too deeply", number)
        if not isinstance(record, dict):
            raise RecordRefused(f"line {number}: expected a JSON object", number)
        if not isinstance(record.get("type"), str):
            raise RecordRefused(f'line {number}: missing "type"', number)
        if record["type"] == "undo":
            raise RecordRefused(f"line {number}: a game record holds no undo", number)
        records.append((number, record))
    if not records:
        raise RecordRefused("the record holds no event")
    return records


def _nesting(value: Any) -> int:
    """How deep lists and objects nest in a parsed JSON value (a scalar is 0), without
    recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        )
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def effective(rows: Iterable[Row]) -> list[Record]:
    """The records that count: each undo row cancels the latest effective one before it."""
    kept: list[Record] = []
    for row in rows:
        if row.is_undo:
            if kept:
                kept.pop()
        else:
            kept.append(row.record)
    return kept


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
        if path.exists() and path.stat().st_size > 0:
            raise JournalError(f"{path}: already exists; a journal is never overwritten")
        return cls.open(path, clock=clock)

    @classmethod
    def open(cls, path: Path | str, readonly: bool = False, *, clock: Clock = utc_now) -> Journal:
        """Open the journal at `path`; a writable open creates it when missing.

        Raises:
            JournalError: the file is missing (read-only), unreadable, corrupt or foreign; a
                writable open first moves a corrupt or foreign file aside (`moved_to`).
        """
        path = Path(path)
        if readonly and not path.exists():
            raise JournalError(f"{path}: no journal there")
        if not readonly:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise JournalError(f"{path}: cannot create: {error.strerror or error}") from None
        fresh = not path.exists() or path.stat().st_size == 0
        if readonly and fresh:  # a creation cut short: nothing to read, and no write allowed
            raise JournalError(f"{path}: an empty file, no journal there yet")
        problem = None if fresh else _foreign_header(path)
        db: sqlite3.Connection | None = None
        if problem is None:
            try:
                db = _connect(path, readonly)
                if not fresh and not readonly and _is_empty(db):
                    fresh = True
                if fresh:
                    _initialise(db)
                else:
                    problem = _check_schema(db, readonly)
                if problem is None and not readonly:  # never before: it rewrites the header
                    db.execute("PRAGMA journal_mode = WAL")
            except sqlite3.DatabaseError as error:
                problem = f"not a usable SQLite journal ({error})"
        if problem is not None:
            if db is not None:
                db.close()
            if readonly:
                raise JournalError(f"{path}: {problem}")
            try:
                moved = _move_aside(path)
            except OSError as error:
                why = error.strerror or error
                raise JournalError(f"{path}: {problem}; cannot move it aside: {why}") from None
            raise JournalError(f"{path}: {problem}; moved aside to {moved.name}", moved)
        assert db is not None
        return cls(db, path, readonly, clock)

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
            rows = self._query("SELECT * FROM games ORDER BY id DESC")
        else:
            sql = "SELECT * FROM games ORDER BY id DESC LIMIT ? OFFSET ?"
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
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
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
        return effective(self.rows(game_id))

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

    def import_record(
        self, lines: Iterable[str], check: Callable[[Sequence[tuple[int, Record]]], Outcome]
    ) -> int:
        """Add a game record as a new game (origin "import") and return its id.

        `check` replays the (line number, record) pairs through the rules and returns the
        outcome, or raises `RecordRefused` naming the line (`companion.records.game.import_record`
        passes the engine's).
        All rows go in one transaction: a refused record changes nothing.

        Raises:
            RecordRefused: a line that is not a JSON object, or that the rules refuse.
        """
        records = parse_record_lines(lines)
        outcome = check(records)
        with self._write() as db:
            now = self._now()
            cursor = db.execute("INSERT INTO games (started, origin) VALUES (?, 'import')", (now,))
            game_id = int(cursor.lastrowid or 0)
            for seq, (_, record) in enumerate(records, start=1):
                db.execute(
                    "INSERT INTO events (game_id, seq, record, written_at) VALUES (?, ?, ?, ?)",
                    (game_id, seq, dumps(record), now),
                )
                if record.get("type") == "setup":
                    self._take_players(db, game_id, record)
            self._set_outcome(db, game_id, outcome)
            return game_id

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
            return last

    def _has_effective(self, db: sqlite3.Connection, game_id: int) -> bool:
        found = db.execute(
            "SELECT seq, record, written_at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        return bool(effective(Row(int(s), json.loads(r), str(w)) for s, r, w in found))

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


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    if readonly:
        db = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro",
            uri=True,
            check_same_thread=False,
            isolation_level=None,
        )
    else:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("PRAGMA foreign_keys = ON")
    return db


def _foreign_header(path: Path) -> str | None:
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise JournalError(f"{path}: cannot read: {error.strerror or error}") from None
    return None if header == SQLITE_HEADER else "not an SQLite file"


def _initialise(db: sqlite3.Connection) -> None:
    # One transaction: a creation cut short leaves an empty database, which is fresh again.
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(
        "BEGIN IMMEDIATE;"
        f"PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
        + SCHEMA
        + "COMMIT;"
    )


def _is_empty(db: sqlite3.Connection) -> bool:
    """An SQLite file with no table and no marks: a creation cut short, nothing to lose."""
    marks = (
        db.execute("PRAGMA application_id").fetchone()[0]
        or db.execute("PRAGMA user_version").fetchone()[0]
    )
    return not marks and db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


def _check_schema(db: sqlite3.Connection, readonly: bool) -> str | None:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    if application_id != APPLICATION_ID:
        return f"SQLite, but not a Duel Companion journal (application_id {application_id})"
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version != SCHEMA_VERSION:
        return f"journal schema version {version}, this program reads {SCHEMA_VERSION}"
    for table, columns in TABLES.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not columns <= found:
            return f"journal table {table!r} is missing or incomplete"
    if not readonly:
        result = db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            return f"corrupt ({result})"
    return None


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
