"""Every finished game of a journal as plays, and plays from BG Stats or BoardGameGeek in.

The plays of a journal are its finished Duel games, its saved score pads and the plays
imported before (`companion.records.logged`), oldest first. A Duel game's uuid is derived
from its content hash and finishing time, a pad's from its saving time and sheet, so the same
game has the same uuid on every export and on every box it was copied to. An import skips a
play the journal already holds (the same uuid, or the same day, game, names and scores: what
BoardGameGeek keeps), and names the games the box does not know instead of adding them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine.cards import Catalog
from companion.family.cards import FamilyCatalog
from companion.family.sheet import SheetError
from companion.records.archive import content_hash, summarizer
from companion.records.journal import Journal
from companion.records.logged import add_plays, logged_plays
from companion.records.pad_stats import facts_of_pad, pad_facts
from companion.records.pads import SavedPad, saved_pads
from companion.records.results import Play, Skipped, pad_identity, play_of, signature
from companion.records.stats import GameFacts
from companion.records.summaries import FactsCache, load_facts
from companion.records.tables import has_table

DEFAULT_LOCATION = "Duel Companion"


def journal_facts(journal: Journal, catalog: Catalog, family: FamilyCatalog) -> list[GameFacts]:
    """The facts of every finished Duel game and every saved score pad (read afresh)."""
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    return facts + list(reversed(pad_facts(journal, family, {})))  # a pad that no longer scores
    # (kept before the sheet's numbers were bounded) is left out, as the statistics leave it


def journal_plays(
    journal: Journal, catalog: Catalog, family: FamilyCatalog, location: str = DEFAULT_LOCATION
) -> list[Play]:
    """Every finished game of the journal as a play, oldest first (then by uuid)."""
    marks = _fingerprints(journal)
    duel = load_facts(journal, summarizer(catalog, journal), FactsCache())
    plays = [play_of(f, _duel_identity(journal, f, marks), location) for f in duel]
    plays += _pad_plays(family, saved_pads(journal), location)
    plays += logged_plays(journal)
    return sorted(plays, key=lambda play: (play.played, play.uuid))


def duel_play(
    journal: Journal, catalog: Catalog, game_id: int, location: str = DEFAULT_LOCATION
) -> Play | None:
    """The play of one finished Duel game (None while it is not finished)."""
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache(), {game_id})
    if not facts:
        return None
    return play_of(facts[0], _duel_identity(journal, facts[0], _fingerprints(journal)), location)


def pad_play(family: FamilyCatalog, pad: SavedPad, location: str = DEFAULT_LOCATION) -> Play:
    """The play of one saved score pad."""
    return play_of(facts_of_pad(family, pad), pad_identity(pad.saved, pad.sheet), location)


def _pad_plays(family: FamilyCatalog, pads: list[SavedPad], location: str) -> list[Play]:
    """The plays of the saved pads that still score (one kept before the sheet's numbers were
    bounded is left out, never a failure of the whole export)."""
    plays = []
    for pad in pads:
        with contextlib.suppress(SheetError, ValueError, ArithmeticError):
            plays.append(pad_play(family, pad, location))
    return plays


def _fingerprints(journal: Journal) -> dict[int, str]:
    if not has_table(journal, "game_fingerprints"):
        return {}
    rows = journal.query("SELECT game_id, fingerprint FROM game_fingerprints")
    return {int(game_id): str(mark) for game_id, mark in rows}


def _duel_identity(journal: Journal, facts: GameFacts, marks: Mapping[int, str]) -> str:
    mark = marks.get(facts.id) or content_hash(journal.effective_events(facts.id))
    return f"duel:{mark}:{facts.finished}"


@dataclass(frozen=True, slots=True)
class ImportedPlays:
    """What an import of plays did: how many were added, how many the journal held already,
    and the plays skipped, by game name and reason (results.UNKNOWN_GAME, NO_PLAYERS)."""

    added: int = 0
    already: int = 0
    skipped: Skipped = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The answer of `duel-companion import --bgstats|--bgg-xml`."""
        return {
            "added": self.added,
            "already": self.already,
            "skipped": [
                {"game": name, "plays": count, "reason": reason}
                for (name, reason), count in self.skipped.items()
            ],
        }


def import_plays(
    journal: Journal,
    catalog: Catalog,
    family: FamilyCatalog,
    plays: list[Play],
    skipped: Skipped,
) -> ImportedPlays:
    """Keep the plays the journal does not hold yet (checked before: nothing is refused here).

    Raises:
        JournalError: read-only or busy journal.
    """
    held = journal_plays(journal, catalog, family)
    uuids = {play.uuid for play in held}
    signatures = {signature(play) for play in held}
    new = []
    for play in plays:
        if play.uuid in uuids or signature(play) in signatures:
            continue
        new.append(play)
        uuids.add(play.uuid)
        signatures.add(signature(play))
    added = add_plays(journal, new) if new else 0
    return ImportedPlays(added, len(plays) - added, dict(skipped))
