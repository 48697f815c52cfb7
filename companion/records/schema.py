"""The journal's schema in one place: the base tables, and the named steps that add tables.

Version 1 (`PRAGMA user_version = 1`, `application_id` "DUEE") is the base: `games`, `events`,
`meta` and the triggers that keep events append-only (`BASE`). Everything added since is a
named step in `STEPS`, applied once by `steps_applied` inside a write transaction and recorded
in `schema_steps`. A step only creates (`CREATE ... IF NOT EXISTS`), so it is idempotent, and
the journal's `user_version` stays 1: a journal written by an older program opens unchanged,
and an older program still opens a journal that has the new tables (it ignores them; the
program before these steps moved a journal of another version aside, so the version is never
raised for an addition). A writable `Journal.open` applies every step, so a writer always
finds its tables; a read-only reader (the pages) may find one missing and treats it as empty.

To add a table: add a step under a new name ("<table>-1"); to change one later, a new step
("<table>-2") that creates what it needs. Steps never drop or rewrite what a game holds.
"""

from __future__ import annotations

import sqlite3

APPLICATION_ID = 0x44554545  # "DUEE": marks the file as a Duel Companion journal
SCHEMA_VERSION = 1

BASE = (
    """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'finished')),
    winner TEXT,
    victory TEXT,
    players TEXT NOT NULL DEFAULT '{}',
    origin TEXT NOT NULL DEFAULT 'play' CHECK (origin IN ('play', 'import'))
)""",
    """CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS meta (
    game_id INTEGER NOT NULL REFERENCES games(id),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID""",
    """CREATE TRIGGER IF NOT EXISTS events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal events are append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS games_are_kept BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'journal games are kept'); END""",
)
TABLES = {  # the base columns every journal has
    "games": {"id", "started", "finished", "status", "winner", "victory", "players", "origin"},
    "events": {"game_id", "seq", "record", "written_at"},
    "meta": {"game_id", "key", "value"},
}

STEPS: dict[str, str] = {
    # Players the box remembers, also before their first game (renames rewrite games.players).
    "players-1": """
        CREATE TABLE IF NOT EXISTS players (
            name TEXT PRIMARY KEY,
            added TEXT NOT NULL
        ) WITHOUT ROWID;
    """,
    # What statistics need of a finished game, written when it finishes; valid for `seq`.
    "summaries-1": """
        CREATE TABLE IF NOT EXISTS game_summaries (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            seq INTEGER NOT NULL,
            summary TEXT NOT NULL
        );
    """,
    # A log of the changes statistics depend on, written by triggers (so that the journal's own
    # writes count too): a page reads the games changed since the last entry it saw instead
    # of every game. `game_id` is NULL for a change of the remembered players.
    "change-log-1": """
        CREATE TABLE IF NOT EXISTS change_log (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER
        );
        CREATE TRIGGER IF NOT EXISTS change_log_game_added AFTER INSERT ON games
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_game_changed AFTER UPDATE ON games
        WHEN OLD.status IS NOT NEW.status OR OLD.players IS NOT NEW.players
            OR OLD.winner IS NOT NEW.winner OR OLD.victory IS NOT NEW.victory
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_added AFTER INSERT ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_changed AFTER UPDATE ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (NEW.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_summary_removed AFTER DELETE ON game_summaries
        BEGIN INSERT INTO change_log (game_id) VALUES (OLD.game_id); END;
        CREATE TRIGGER IF NOT EXISTS change_log_player_added AFTER INSERT ON players
        BEGIN INSERT INTO change_log (game_id) VALUES (NULL); END;
        CREATE TRIGGER IF NOT EXISTS change_log_player_removed AFTER DELETE ON players
        BEGIN INSERT INTO change_log (game_id) VALUES (NULL); END;
    """,
    # Finished score pads of the other 7 Wonders games (companion.records.pads): the sheet as
    # entered, and what the history lists of it.
    "pads-1": """
        CREATE TABLE IF NOT EXISTS pads (
            id INTEGER PRIMARY KEY,
            saved TEXT NOT NULL,
            game TEXT NOT NULL,
            players TEXT NOT NULL,
            winners TEXT NOT NULL,
            sheet TEXT NOT NULL
        );
    """,
    # `reader.fingerprint` of an imported game's events, or of a played game once finished:
    # an import of the same events is named, not added again (Journal.add_game). The journal
    # fills it for the games already there when the step is applied.
    "fingerprints-1": """
        CREATE TABLE IF NOT EXISTS game_fingerprints (
            game_id INTEGER PRIMARY KEY REFERENCES games(id),
            fingerprint TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS game_fingerprints_by_value
            ON game_fingerprints (fingerprint);
    """,
    # Plays imported from BG Stats or BoardGameGeek (companion.records.logged): a result
    # without events or sheet, kept as read (`play` is the JSON of a `plays.Play`).
    "plays-1": """
        CREATE TABLE IF NOT EXISTS logged_plays (
            id INTEGER PRIMARY KEY,
            uuid TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            played TEXT NOT NULL,
            play TEXT NOT NULL
        );
    """,
}


def steps_applied(db: sqlite3.Connection) -> list[str]:
    """Apply every step not applied yet, inside the caller's write transaction; return the
    names of the steps applied now (none when all were there)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_steps (step TEXT PRIMARY KEY, applied TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT step FROM schema_steps")}
    applied = []
    for step, sql in STEPS.items():
        if step not in done:
            for statement in _statements(sql):
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_steps (step, applied) VALUES (?, datetime('now'))", (step,)
            )
            applied.append(step)
    return applied


def _statements(sql: str) -> list[str]:
    """The statements of a script, each whole (a trigger's body holds semicolons); run one
    by one inside the caller's transaction (`executescript` would commit it)."""
    statements, current = [], ""
    for piece in sql.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \n;"):
                statements.append(current.strip())
            current = ""
    return statements
