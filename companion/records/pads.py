"""Finished score pads of the other 7 Wonders games, kept in the journal beside Duel games.

A pad is its sheet (docs/scorepad.md), stored as entered once it scores: a sheet that cannot be
a real game is refused and nothing is written. The pad's "record" is that sheet: downloaded as
a JSON file and imported back the same way (`save_pad`). Pads live in their own table (added by
the schema step "pads-1" of `companion.records.tables`), never among the Duel events.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.family.cards import FamilyCatalog
from companion.family.pad import check_scored, score_sheet
from companion.records.journal import Journal, JournalError, dumps
from companion.records.tables import has_table, steps_applied


class UnknownPad(JournalError):
    """No saved pad with this id."""


@dataclass(frozen=True, slots=True)
class SavedPad:
    """A saved pad: when, which game, the ranked players and winners, and the sheet."""

    id: int
    saved: str
    game: str
    players: tuple[str, ...]
    winners: tuple[str, ...]
    sheet: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """What the history lists of a pad (the sheet is its download)."""
        return {
            "id": self.id,
            "saved": self.saved,
            "game": self.game,
            "players": list(self.players),
            "winners": list(self.winners),
        }


def save_pad(
    journal: Journal, catalog: FamilyCatalog, sheet: Any, *, saved: str | None = None
) -> int:
    """Score `sheet` and keep it in the journal, saved now (or at `saved`, a pad copied from
    another box's history); return the pad's id.

    Raises:
        SheetError: the sheet cannot be a real game, or every score is 0 (nothing is
            written).
        JournalError: read-only or busy journal.
    """
    pad = score_sheet(catalog, sheet)  # refused before the journal is touched
    check_scored(pad)
    players = [p.name for p in pad.result.ranked]
    with journal.transaction() as db:
        steps_applied(db)
        cursor = db.execute(
            "INSERT INTO pads (saved, game, players, winners, sheet) VALUES (?, ?, ?, ?, ?)",
            (saved or journal.now(), pad.game, dumps({"names": players}),
             dumps({"names": list(pad.result.winners)}), dumps(sheet)),
        )  # fmt: skip
        return int(cursor.lastrowid or 0)


def saved_pads(journal: Journal) -> list[SavedPad]:
    """Every saved pad, newest first (none while the table does not exist yet)."""
    if not has_table(journal, "pads"):
        return []
    rows = journal.query(
        "SELECT id, saved, game, players, winners, sheet FROM pads ORDER BY id DESC"
    )
    return [_pad(row) for row in rows]


def saved_pad(journal: Journal, pad_id: int) -> SavedPad:
    """One saved pad.

    Raises:
        UnknownPad: no pad with this id.
    """
    rows = (
        journal.query(
            "SELECT id, saved, game, players, winners, sheet FROM pads WHERE id = ?", (pad_id,)
        )
        if has_table(journal, "pads")
        else []
    )
    if not rows:
        raise UnknownPad(f"No score pad {pad_id} in the journal")
    return _pad(rows[0])


def _pad(row: tuple[Any, ...]) -> SavedPad:
    pad_id, saved, game, players, winners, sheet = row
    return SavedPad(
        id=int(pad_id),
        saved=str(saved),
        game=str(game),
        players=tuple(json.loads(players)["names"]),
        winners=tuple(json.loads(winners)["names"]),
        sheet=json.loads(sheet),
    )
