"""Saved score pads of the other 7 Wonders games as statistics (`?game=7wonders`).

Pads are kept as entered (companion.records.pads) and never change once saved, so each is
scored once per process and kept by its id; a page reads only the pads saved since it last
looked.
"""

from __future__ import annotations

from typing import Any

from companion.family.cards import FamilyCatalog
from companion.family.pad import pad_to_json, score_sheet
from companion.family.sheet import SheetError
from companion.records.journal import Journal
from companion.records.pads import SavedPad, saved_pads
from companion.records.stats import GameFacts, facts_from_summary
from companion.records.summaries import pad_summary, sane_facts
from companion.records.tables import has_table, latest_change

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
        if pad.id not in kept and pad.id not in (unreadable or ()):  # each scored once
            try:
                facts = facts_of_pad(catalog, pad)
                if not sane_facts(facts):
                    raise ValueError(f"score pad {pad.id} cannot be counted")
            except (SheetError, ValueError, TypeError, KeyError, ArithmeticError):
                if unreadable is not None:
                    unreadable.add(pad.id)
                continue
            kept[pad.id] = facts
    return list(kept.values())


def statistics_fingerprint(journal: Journal) -> tuple[Any, ...]:
    """What changes whenever a statistic may: the latest entry of the journal's change log,
    or (a journal whose tables are not upgraded yet) the finished games with their names;
    and the score pads seen."""
    entry = latest_change(journal)
    if entry is not None:
        return ("log", entry, pads_seen(journal))
    games = journal.query(
        "SELECT COUNT(*), group_concat(id || players, '|') FROM games WHERE status = 'finished'"
    )[0]
    return ("all", hash(games[1]), pads_seen(journal))


def facts_of_pad(catalog: FamilyCatalog, pad: SavedPad) -> GameFacts:
    """One saved pad as `GameFacts` (id `PAD_IDS` + its id), scored from its sheet."""
    scored = pad_to_json(score_sheet(catalog, pad.sheet))
    summary = pad_summary(pad.saved, scored, pad.sheet)
    names = {
        seat["seat"]: p["name"] for seat, p in zip(summary["seats"], scored["players"], strict=True)
    }
    return facts_from_summary(PAD_IDS + pad.id, summary, names)
