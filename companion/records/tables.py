"""Tables kept in the journal beside the events: remembered players and per-game summaries.

They are added by the named schema steps of `companion.records.schema` (`STEPS`,
`steps_applied`, re-exported here), each applied once and idempotent; see that module. A
read-only reader (the pages) treats a missing table as empty; the first write (or any writable
open of the journal) creates it.
"""

from __future__ import annotations

from companion.records.journal import Journal
from companion.records.schema import STEPS, steps_applied

__all__ = ["STEPS", "has_table", "steps_applied"]


def has_table(journal: Journal, name: str) -> bool:
    """Whether the journal holds table `name` (a read-only journal may not have it yet)."""
    found = journal.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
    return bool(found)
