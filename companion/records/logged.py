"""Plays imported from BG Stats or BoardGameGeek, kept in the journal as results.

Such a play has no events and no score sheet: only what the other logger kept (the game,
when, where, the players' scores, ranks, wins and start). It is kept as read, in the table
`logged_plays` (schema step "plays-1"), listed in the history and written again by every
export. Its uuid (BG Stats' own, or one derived from the BoardGameGeek play) is unique in
the table, so a play is never added twice.
"""

from __future__ import annotations

import json

from companion.records.journal import Journal, dumps
from companion.records.results import Play
from companion.records.tables import has_table, steps_applied


def logged_plays(journal: Journal) -> list[Play]:
    """Every imported play, in the order they were added (none before the table exists).

    A row that no longer reads as a play (written by hand) is left out, never an error.
    """
    if not has_table(journal, "logged_plays"):
        return []
    found = []
    for (text,) in journal.query("SELECT play FROM logged_plays ORDER BY id"):
        try:
            found.append(Play.from_json(json.loads(text)))
        except ValueError:
            continue
    return found


def add_plays(journal: Journal, plays: list[Play]) -> int:
    """Keep `plays` (already checked) in one transaction; return how many were added (a uuid
    already there is skipped).

    Raises:
        JournalError: read-only or busy journal.
    """
    added = 0
    with journal.transaction() as db:
        steps_applied(db)
        for play in plays:
            cursor = db.execute(
                "INSERT INTO logged_plays (uuid, game, played, play) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (uuid) DO NOTHING",
                (play.uuid, play.game, play.played, dumps(play.to_json())),
            )
            added += cursor.rowcount
    return added
