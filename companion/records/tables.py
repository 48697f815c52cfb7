"""Tables kept in the journal beside the events: remembered players and per-game summaries.

They are added by the named schema steps of `companion.records.schema` (`STEPS`,
`steps_applied`, re-exported here), each applied once and idempotent; see that module. A
read-only reader (the pages) treats a missing table as empty; the first write (or any writable
open of the journal) creates it.
"""

from __future__ import annotations

from companion.records.journal import Journal
from companion.records.schema import STEPS, steps_applied

__all__ = [
    "STEPS",
    "changed_since",
    "has_table",
    "journal_state",
    "latest_change",
    "steps_applied",
]


def has_table(journal: Journal, name: str) -> bool:
    """Whether the journal holds table `name` (a read-only journal may not have it yet)."""
    found = journal.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return bool(found)


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


def journal_state(journal: Journal) -> tuple[object, ...]:
    """A mark that changes whenever anything an export shows may have changed: the latest
    event row (rows are only appended), the latest entry of the change log (games, names,
    players, summaries), the meta table and the saved pads. A few cheap queries."""
    optional = {
        "change_log": "SELECT MAX(id) FROM change_log",
        "players": "SELECT COUNT(*), TOTAL(LENGTH(name)) FROM players",
        "pads": "SELECT COUNT(*), MAX(id) FROM pads",
    }
    queries = [
        "SELECT COUNT(*) FROM events",  # rows are never deleted: a new one counts
        "SELECT COUNT(*), TOTAL(LENGTH(value)) FROM meta",
        "SELECT COUNT(*), MAX(id) FROM games",
        *(query for table, query in optional.items() if has_table(journal, table)),
    ]
    return tuple(tuple(journal.query(query)[0]) for query in queries)
