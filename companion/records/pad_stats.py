"""Saved score pads of the other 7 Wonders games as statistics (`?game=7wonders`).

Pads are kept as entered (companion.records.pads) and never change once saved, so each is
scored once per process and kept by its id; a page reads only the pads saved since it last
looked.
"""

from __future__ import annotations

from companion.family.cards import FamilyCatalog
from companion.family.pad import pad_to_json, score_sheet
from companion.family.sheet import SheetError
from companion.records.journal import Journal
from companion.records.pads import SavedPad, saved_pads
from companion.records.stats import GameFacts, facts_from_summary
from companion.records.summaries import pad_summary, sane_facts
from companion.records.tables import has_table

PAD_IDS = 1_000_000_000  # pads are listed after the Duel games: id + this, never a game id


def pads_seen(journal: Journal) -> tuple[int, int]:
    """How many pads are saved and the latest id: what tells a page that one was added."""
    if not has_table(journal, "pads"):
        return (0, 0)
    count, latest = journal.query("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM pads")[0]
    return int(count), int(latest)


def pad_facts(
    journal: Journal,
    catalog: FamilyCatalog,
    kept: dict[int, GameFacts],
    unreadable: set[int] | None = None,
) -> list[GameFacts]:
    """Every saved pad as `GameFacts` (scored once each, kept in `kept` by pad id); a pad
    that no longer scores (saved before its numbers were bounded) is left out, and its id
    added to `unreadable` when given."""
    for pad in saved_pads(journal):
        if pad.id not in kept:
            try:
                facts = _pad_facts(catalog, pad)
            except (SheetError, ValueError, TypeError, KeyError, ArithmeticError):
                if unreadable is not None:
                    unreadable.add(pad.id)
                continue
            kept[pad.id] = facts
    return list(kept.values())


def _pad_facts(catalog: FamilyCatalog, pad: SavedPad) -> GameFacts:
    scored = pad_to_json(score_sheet(catalog, pad.sheet))
    summary = pad_summary(pad.saved, scored, pad.sheet)
    names = {
        seat["seat"]: p["name"] for seat, p in zip(summary["seats"], scored["players"], strict=True)
    }
    facts = facts_from_summary(PAD_IDS + pad.id, summary, names)
    if not sane_facts(facts):
        raise ValueError(f"score pad {pad.id} cannot be counted")
    return facts
