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
            for statement in filter(str.strip, sql.split(";")):
                db.execute(statement)
            db.execute(
                "INSERT INTO schema_steps (step, applied) VALUES (?, datetime('now'))", (step,)
            )


def has_table(journal: Journal, name: str) -> bool:
    """Whether the journal holds table `name` (a read-only journal may not have it yet)."""
    found = journal.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return bool(found)
