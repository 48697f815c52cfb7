"""Game records: the one reader of JSON Lines records, the one replay with undo, the SQLite
journal, and Game (the journal's only writer)."""

from __future__ import annotations
