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
    # A counter that every change statistics depend on moves (triggers, so that the journal's
    # own writes count too): a page compares one number instead of reading every game.
    "changes-1": """
        CREATE TABLE IF NOT EXISTS changes (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            count INTEGER NOT NULL
        );
        INSERT OR IGNORE INTO changes (id, count) VALUES (1, 0);
        CREATE TRIGGER IF NOT EXISTS changes_game_added AFTER INSERT ON games
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_game_changed
        AFTER UPDATE OF status, winner, victory, finished, players ON games
        WHEN OLD.status IS NOT NEW.status OR OLD.players IS NOT NEW.players
            OR OLD.winner IS NOT NEW.winner OR OLD.victory IS NOT NEW.victory
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_summary_added AFTER INSERT ON game_summaries
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_summary_changed AFTER UPDATE ON game_summaries
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_summary_removed AFTER DELETE ON game_summaries
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_player_added AFTER INSERT ON players
        BEGIN UPDATE changes SET count = count + 1; END;
        CREATE TRIGGER IF NOT EXISTS changes_player_removed AFTER DELETE ON players
        BEGIN UPDATE changes SET count = count + 1; END;
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


def change_count(journal: Journal) -> int | None:
    """The journal's change counter (None while the journal has none yet)."""
    if not has_table(journal, "changes"):
        return None
    return int(journal.query("SELECT count FROM changes WHERE id = 1")[0][0])
