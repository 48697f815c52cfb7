"""Tables kept in the journal beside the events: remembered players and per-game summaries.

They are added by named, versioned schema steps, each applied once (idempotent: a step already
in `schema_steps` is skipped; its SQL only creates). The journal's own `user_version` stays as
it is, so a journal written by an older program opens unchanged, and an older program still
opens a journal that has these tables (it ignores them). A read-only reader (the pages) treats a
missing table as empty; the first write through `steps_applied` creates it.
"""

from __future__ import annotations

import sqlite3

from companion.records.journal import Journal

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
}


def steps_applied(db: sqlite3.Connection) -> None:
    """Apply every step not applied yet, inside the caller's write transaction."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS schema_steps (step TEXT PRIMARY KEY, applied TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT step FROM schema_steps")}
    for step, sql in STEPS.items():
        if step not in done:
            for statement in _statements(sql):
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_steps (step, applied) VALUES (?, datetime('now'))", (step,)
            )


def has_table(journal: Journal, name: str) -> bool:
    """Whether the journal holds table `name` (a read-only journal may not have it yet)."""
    found = journal.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return bool(found)


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


def latest_change(journal: Journal) -> int | None:
    """The id of the latest entry of the change log (None while the journal has no log)."""
    if not has_table(journal, "change_log"):
        return None
    return int(journal.query("SELECT COALESCE(MAX(id), 0) FROM change_log")[0][0])


def changed_since(journal: Journal, entry: int) -> tuple[set[int], bool]:
    """The games changed after log entry `entry`, and whether the players' list changed."""
    rows = journal.query("SELECT DISTINCT game_id FROM change_log WHERE id > ?", (entry,))
    games = {int(game_id) for (game_id,) in rows if game_id is not None}
    return games, any(game_id is None for (game_id,) in rows)
