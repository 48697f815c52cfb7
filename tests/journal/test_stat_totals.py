"""The totals kept by triggers (schema step "stat-totals-1") give the statistics of every game
exactly as the statement over every seat does, on a journal of generated games, and stay right
as games are added, taken back by an undo after the end, finished again, renamed, left out
(their summary removed) or imported with an older finishing date; a journal written before the
step gets them when next opened, equal to those the triggers kept."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from stats_games import Clock

from companion.engine.cards import Catalog
from companion.play.simulate import play
from companion.records.archive import summarizer
from companion.records.game import Game, import_record
from companion.records.journal import Journal
from companion.records.players import rename_player
from companion.records.seat_stats import STALE, STATEMENTS, TOTALS, _facts, _fill, seat_tally
from companion.records.stats import Tally, select, statistics
from companion.records.summaries import FactsCache, load_facts

NAMES = ("Ann", "Ben", "Cleo", "Dag")
EVERYTHING = {"game": "duel", "player": None, "since": None, "until": None, "mode": None}
TABLES = {
    "stat_totals": "SELECT * FROM stat_totals ORDER BY game, tag, a, b",
    "stat_games": "SELECT * FROM stat_games ORDER BY game_id",
    "stat_runs": "SELECT * FROM stat_runs ORDER BY game_id, seat",
}


def add_games(catalog: Catalog, journal: Journal, clock: Clock, rng: random.Random, n: int) -> None:
    """`n` random finished games, one a day: most imported, every 7th played at the box; the
    players two of `NAMES`, every 5th game with a side unnamed, every 11th with one name twice
    avoided (the same pair as the game before, to make runs)."""
    for number in range(n):
        clock.now += timedelta(days=1)
        playout = play(catalog, rng, check=False)
        if number % 7:
            game_id = import_record(catalog, journal, list(playout.record_lines()))
        else:
            game = Game.start(catalog, journal)
            for event in playout.events:
                clock.now += timedelta(seconds=rng.randint(20, 90))
                game.submit(event)
            game_id = game.game_id
        first, second = rng.sample(NAMES, 2)
        journal.set_players(game_id, {"p1": first, "p2": "" if number % 5 == 4 else second})


def tally_of(journal: Journal, statement: str) -> dict[str, Any]:
    """The statistics of every game counted from `statement`'s rows alone."""
    tally = Tally(None, "duel")
    for facts in _facts(journal, _fill(tally, journal.query(statement, EVERYTHING))):
        if facts.minutes is not None:
            tally.time(facts)
    return tally.result()


def assert_totals_right(catalog: Catalog, journal: Journal) -> None:
    """The totals give what the statement over every seat gives, and what Python counts
    (where no game is made from its events: those are counted last in the runs)."""
    from_totals = tally_of(journal, TOTALS)
    assert from_totals == tally_of(journal, STATEMENTS[False])
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    counted = seat_tally(journal, summarizer(catalog, journal), EVERYTHING).result()
    python = statistics(select(facts, game="duel"), None, "duel")
    if not journal.query(STALE):
        assert counted == python
    else:
        assert {**counted, "streaks": []} == {**python, "streaks": []}


@pytest.fixture
def clock() -> Clock:
    clock = Clock()
    clock.now = datetime(2025, 1, 1, 20, 0, tzinfo=UTC)
    return clock


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path, clock: Clock) -> Iterator[Journal]:
    with Journal.create(tmp_path / "journal.sqlite", clock=clock) as journal:
        add_games(catalog, journal, clock, random.Random(27), 40)
        yield journal


def test_the_totals_count_what_the_statement_over_every_seat_counts(
    catalog: Catalog, journal: Journal
) -> None:
    assert_totals_right(catalog, journal)
    stats = tally_of(journal, TOTALS)
    assert stats["games"] == 40
    # 8 games with a side unnamed: 72 named seats, each player's games adding up to them
    assert sum(p["games"] for p in stats["players"]) == 72
    assert sum(h["games"] for h in stats["head_to_head"]) == 32
    assert sum(stats["victories"].values()) == 40
    assert max(s["longest"] for s in stats["streaks"]) >= 2


def test_adding_undoing_renaming_and_leaving_out_games_keeps_the_totals_right(
    catalog: Catalog, journal: Journal, clock: Clock
) -> None:
    add_games(catalog, journal, clock, random.Random(1), 3)  # 41 played at the box, 42-43 imported
    assert_totals_right(catalog, journal)
    Game(catalog, journal, 41).undo(reopen=True)  # game 41 played at the box: open again
    assert tally_of(journal, TOTALS)["games"] == 42
    assert_totals_right(catalog, journal)
    rename_player(journal, "Ann", "Anna")
    assert_totals_right(catalog, journal)
    with journal.transaction() as db:  # a game left out of the totals: its summary removed
        db.execute("DELETE FROM game_summaries WHERE game_id = 7")
    assert tally_of(journal, TOTALS)["games"] == 41
    assert_totals_right(catalog, journal)
    clock.now = datetime(2025, 1, 3, 21, 0, tzinfo=UTC)  # an old game imported: in the middle
    playout = play(catalog, random.Random(5), check=False)
    old = import_record(catalog, journal, list(playout.record_lines()))
    journal.set_players(old, {"p1": "Ben", "p2": "Cleo"})
    assert_totals_right(catalog, journal)
    assert_same_as_made_afresh(journal)


def assert_same_as_made_afresh(journal: Journal) -> None:
    """The tables the triggers kept equal those the step makes from the seats alone."""
    kept = {table: journal.query(sql) for table, sql in TABLES.items()}
    with journal.transaction() as db:
        for table in TABLES:
            db.execute(f"DROP TABLE {table}")
        db.execute("DELETE FROM schema_steps WHERE step = 'stat-totals-1'")
    path = journal.path
    with Journal.open(path) as again:  # a writer applies the step again
        assert {table: again.query(sql) for table, sql in TABLES.items()} == kept


def test_a_journal_written_before_the_totals_gets_them_when_next_opened(
    catalog: Catalog, journal: Journal
) -> None:
    assert_same_as_made_afresh(journal)
    with Journal.open(journal.path, readonly=True) as reread:
        assert tally_of(reread, TOTALS) == tally_of(reread, STATEMENTS[False])
        rows = reread.query("SELECT COUNT(*) FROM stat_games")
    assert rows == [(40,)]


def test_runs_are_the_outright_wins_in_a_row_of_each_player(
    catalog: Catalog, journal: Journal
) -> None:
    # worked from the seats in order: a win adds one to the run before it, anything else is 0
    rows = journal.query("SELECT name, pos, w, run FROM stat_runs ORDER BY name, pos")
    run: dict[str, int] = {}
    for name, _, won, counted in rows:
        run[name] = run.get(name, 0) + 1 if won else 0
        assert counted == run[name]
    assert json.dumps(sorted(run)) == json.dumps(sorted(NAMES))
