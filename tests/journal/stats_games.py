"""Five hand-counted Duel games in a journal, built through the real Journal and Game APIs.

Their final scores are those of the golden records in tests/records (the `.expected.json`
files; for simulated_shared_victory.jsonl, a random game of seed 1270 ending in a tie on points
and on blue cards, the rows below, read off its score pad):

game record          how               finished    p1       p2       first  result
1    civilian_win    played, 69 min    2026-03-01  Ann 57   Ben 38   p2     Ann, civilian
2    military_win    imported          2026-03-02  Ben 21   Cleo 71  p1     Ben, military
3    science_win     played, 130 min   2026-03-05  Ann 42   Cleo 40  p2     Cleo, science
4    shared_victory  imported          2026-03-10  Ann 43   Ben 43   p2     shared
5    civilian_win    played, 34.5 min  2026-04-02  -- 57    -- 38    p2     p1 (unnamed), civilian

Rows of the score pads (blue green yellow purple wonders progress coins military = total):
civilian  p1 20 7 6 7 12 3 2 0 = 57   p2 12 7 6 0 5 0 3 5 = 38
military  p1 18 0 3 0 0 0 0 0 = 21    p2 16 8 3 14 14 6 10 0 = 71
science   p1 22 6 3 0 6 0 3 2 = 42    p2 3 7 6 17 2 0 5 0 = 40
shared    p1 10 5 6 0 17 0 5 0 = 43   p2 10 0 6 11 5 0 9 2 = 43
Wonders built: civilian p1 appian_way mausoleum hanging_gardens great_lighthouse, p2
circus_maximus piraeus temple_of_artemis; military p2 great_lighthouse great_library
hanging_gardens statue_of_zeus; science p1 hanging_gardens colossus, p2 mausoleum; shared p1
appian_way pyramids hanging_gardens piraeus, p2 temple_of_artemis mausoleum colossus.
Progress tokens: civilian p1 mathematics, p2 strategy; military p2 economy mathematics.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from companion.engine.cards import Catalog
from companion.engine.events import event_from_record
from companion.records.game import Game, import_record
from companion.records.journal import Journal

RECORDS = Path(__file__).resolve().parents[1] / "records"


class Clock:
    """A clock the test sets: the journal stamps rows with `now`."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def golden(name: str, names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The records of tests/records/<name>.jsonl, the setup naming `names` (or nobody when
    None)."""
    text = (RECORDS / f"{name}.jsonl").read_text()
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    setup = {k: v for k, v in records[0].items() if k != "players"}
    records[0] = {**setup, "players": names} if names else setup
    return records


def play_at_box(
    catalog: Catalog, journal: Journal, clock: Clock, records: list[dict[str, Any]], step: float
) -> int:
    """Play `records` through Game.submit, one event every `step` minutes from `clock.now`."""
    start = clock.now
    game = Game.start(catalog, journal)
    for index, record in enumerate(records):
        clock.now = start + timedelta(minutes=step * index)
        game.submit(event_from_record(record))
    return game.game_id


def build_journal(catalog: Catalog, path: Path, clock: Clock | None = None) -> Journal:
    """The journal of the five games of the table above (`clock` is left at 2026-04-02)."""
    clock = clock or Clock()
    journal = Journal.create(path, clock=clock)
    ann_ben, ben_cleo, ann_cleo = (
        {"p1": "Ann", "p2": "Ben"}, {"p1": "Ben", "p2": "Cleo"}, {"p1": "Ann", "p2": "Cleo"}
    )  # fmt: skip
    play_at_box(
        catalog, journal, clock, golden("simulated_civilian_win", ann_ben), 1.0
    )  # 70 events: 69 minutes
    clock.now = datetime(2026, 3, 2, 21, 0, tzinfo=UTC)
    lines = [json.dumps(r) for r in golden("simulated_military_win", ben_cleo)]
    import_record(catalog, journal, lines)
    clock.now = datetime(2026, 3, 5, 19, 0, tzinfo=UTC)
    play_at_box(
        catalog, journal, clock, golden("simulated_science_win", ann_cleo), 2.0
    )  # 66 events: 130 minutes
    clock.now = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)
    import_record(
        catalog, journal, [json.dumps(r) for r in golden("simulated_shared_victory", ann_ben)]
    )
    clock.now = datetime(2026, 4, 2, 20, 0, tzinfo=UTC)
    play_at_box(
        catalog, journal, clock, golden("simulated_civilian_win"), 0.5
    )  # unnamed, 34.5 minutes
    return journal
