"""The Duel's statistics counted by SQLite over `stat_seats` are those counted in Python over
every game's facts: the five games of stats_games.py, with filters, renames, an undo after the
end, missing summaries, and a journal written before the seats table existed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal

from companion.engine.cards import Catalog
from companion.records.archive import summarizer
from companion.records.game import Game
from companion.records.journal import Journal
from companion.records.players import rename_player
from companion.records.seat_stats import seat_tally
from companion.records.stats import select, statistics
from companion.records.summaries import FactsCache, load_facts

FILTERS: list[dict[str, Any]] = [
    {},
    {"player": "Ann"},
    {"player": "Cleo"},
    {"player": "Nobody"},
    {"since": "2026-03-04", "until": "2026-03-31"},
    {"player": "Ben", "since": "2026-03-02"},
]


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    yield journal
    journal.close()


def both(catalog: Catalog, journal: Journal, **chosen: Any) -> tuple[Any, Any]:
    """The statistics counted by SQLite, and in Python from every game's facts."""
    filters = {"game": "duel", "player": None, "since": None, "until": None, **chosen}
    sql = seat_tally(journal, summarizer(catalog, journal), filters).result()
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    return sql, statistics(select(facts, **filters), filters["player"], "duel")


@pytest.mark.parametrize("chosen", FILTERS, ids=str)
def test_sqlite_counts_what_python_counts(
    catalog: Catalog, journal: Journal, chosen: dict[str, Any]
) -> None:
    sql, python = both(catalog, journal, **chosen)
    assert sql == python


def test_a_seat_row_per_seat_of_each_finished_game(journal: Journal) -> None:
    rows = journal.query("SELECT game_id, seat, name, won, rank, total FROM stat_seats")
    assert sorted(rows)[:4] == [
        (1, "p1", "Ann", 1, 1, 57), (1, "p2", "Ben", 0, 2, 38),
        (2, "p1", "Ben", 1, 1, 21), (2, "p2", "Cleo", 0, 2, 71),
    ]  # fmt: skip
    assert len(rows) == 10


def test_a_rename_and_an_undo_after_the_end_are_followed(
    catalog: Catalog, journal: Journal
) -> None:
    rename_player(journal, "Ann", "Anna")
    Game(catalog, journal, 5).undo(reopen=True)  # on the box, confirmed: game 5 is open again
    sql, python = both(catalog, journal)
    assert sql == python
    assert sql["games"] == 4 and "Anna" in [p["name"] for p in sql["players"]]


def test_games_without_a_summary_are_made_from_their_events(
    catalog: Catalog, journal: Journal
) -> None:
    before, _ = both(catalog, journal)
    with journal.transaction() as db:
        db.execute("DELETE FROM game_summaries WHERE game_id IN (1, 4)")
    assert journal.query("SELECT COUNT(*) FROM stat_seats")[0][0] == 6
    after, python = both(catalog, journal, player="Ann")
    assert after == python
    assert both(catalog, journal)[0]["players"] == before["players"]


def test_a_journal_written_before_the_seats_table_is_filled_when_next_opened(
    catalog: Catalog, tmp_path: Path
) -> None:
    path = tmp_path / "old.sqlite"
    with build_journal(catalog, path) as journal, journal.transaction() as db:
        for table in ("stat_seats", "stat_items", "stat_totals", "stat_games", "stat_runs"):
            db.execute(f"DROP TABLE {table}")  # and their triggers: as before both steps
        db.execute("DELETE FROM schema_steps WHERE step IN ('stat-seats-1', 'stat-totals-1')")
    with Journal.open(path) as journal:  # a writer applies the step: the seats are filled
        assert journal.query("SELECT COUNT(*) FROM stat_seats")[0][0] == 10
        sql, python = both(catalog, journal)
        assert sql == python
