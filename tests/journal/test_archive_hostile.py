"""A hostile history file is refused whole before anything is written, and a stored row the
statistics cannot read is left out and counted, never a failure."""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal

from companion.engine.cards import Catalog
from companion.records.archive import export_history, import_history, summarizer
from companion.records.journal import Journal, RecordRefused
from companion.records.players import known_players
from companion.records.stats import select, statistics
from companion.records.summaries import HISTORY_KEY, FactsCache, load_facts


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    yield journal
    journal.close()


@pytest.fixture(scope="module")
def exported(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> str:
    with build_journal(catalog, tmp_path_factory.mktemp("box") / "journal.sqlite") as journal:
        return json.dumps(export_history(journal))


@pytest.fixture
def history(exported: str) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(exported)  # a fresh copy for each test
    return parsed


def rows(path: Path) -> tuple[list[Any], ...]:
    with sqlite3.connect(path) as db:
        tables = ("games", "events", "meta", "players")
        return tuple(db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables)


def game(index: int, **changes: Any) -> Any:
    def change(history: dict[str, Any]) -> None:
        history["games"][index].update(changes)

    return change


def top(**changes: Any) -> Any:
    def change(history: dict[str, Any]) -> None:
        history.update(changes)

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (game(4, finished="garbage"), 'game 5: finished: a time like "2026-05-01T20:15:00Z"'),
        (game(4, finished="9999-99-99T00:00:00Z"), "game 5: finished: a time like"),
        (game(4, finished=""), "game 5: finished: a time like"),
        (game(4, finished=None), "game 5: finished: a time like"),
        (game(4, finished="2026-03-01"), "game 5: finished: a time like"),
        (game(4, finished="2026-W09-1T10:00"), "game 5: finished: a time like"),
        (game(4, finished="9999-12-31T00:00:00Z"), "game 5: finished: 9999-12-31T00:00:00Z is not"),
        (game(0, started=12), "game 1: started: a time like"),
        (game(4, minutes=math.nan), "game 5: minutes: a number from 0 to 10080, not NaN"),
        (game(4, minutes=math.inf), "game 5: minutes: a number from 0 to 10080, not Infinity"),
        (game(4, minutes=-1), "game 5: minutes: a number from 0 to 10080, not -1"),
        (game(4, minutes="34"), "game 5: minutes: a number from 0 to 10080"),
        (game(4, minutes=True), "game 5: minutes: a number from 0 to 10080, not true"),
        (game(4, players={"p1": "Ann\u202e", "p2": "Ben"}), "game 5: players.p1: a name is 1 to"),
        (game(4, players={"p1": "Ann", "p3": "Ben"}), "game 5: players: {"),
        (game(4, players="abcdef"), "game 5: players: {"),
        (top(players=5), '"players" is a list of names, not 5'),
        (top(players=None), '"players" is a list of names, not null'),
        (top(players="abcdef"), '"players" is a list of names, not "abcdef"'),
        (top(players=["Ann", "\x00"]), "players: a name is 1 to 24 printable characters"),
        (top(players=["x" * 25]), "players: a name is 1 to 24 printable characters"),
        (top(version=True), "history version true, this program reads 1"),
        (top(version=1.0), "history version 1.0, this program reads 1"),
        (top(version="1"), 'history version "1", this program reads 1'),
    ],
)
def test_a_hostile_history_is_refused_whole_and_writes_nothing(
    catalog: Catalog, history: dict[str, Any], tmp_path: Path, change: Any, message: str
) -> None:
    change(history)
    other = Journal.create(tmp_path / "other.sqlite")
    try:
        before = rows(other.path)
        with pytest.raises(RecordRefused) as refused:
            import_history(catalog, other, history)
        assert str(refused.value).startswith(message)
        assert "\n" not in str(refused.value)
        assert rows(other.path) == before
        assert known_players(other) == []
    finally:
        other.close()


def test_times_are_kept_in_the_journals_form(
    catalog: Catalog, history: dict[str, Any], tmp_path: Path
) -> None:
    history["games"][0]["finished"] = "2026-03-01T21:09:00+01:00"
    with Journal.create(tmp_path / "other.sqlite") as other:
        import_history(catalog, other, history)
        assert other.meta(1, HISTORY_KEY)["finished"] == "2026-03-01T20:09:00Z"


def spoil_summary(journal: Journal, game_id: int, **changes: Any) -> None:
    """Rewrite a stored summary as an older program might have kept it."""
    with sqlite3.connect(journal.path) as db:
        (text,) = db.execute(
            "SELECT summary FROM game_summaries WHERE game_id = ?", (game_id,)
        ).fetchone()
        summary = {**json.loads(text), **changes}
        db.execute(
            "UPDATE game_summaries SET summary = ? WHERE game_id = ?",
            (json.dumps(summary), game_id),
        )


def test_statistics_leave_out_and_count_the_rows_they_cannot_read(
    catalog: Catalog, journal: Journal
) -> None:
    spoil_summary(journal, 1, finished="garbage")
    with sqlite3.connect(journal.path) as db:  # no summary kept: it is made from the events
        db.execute("DELETE FROM game_summaries WHERE game_id = 3")
    journal.set_meta(3, HISTORY_KEY, {"finished": "2026-03-05T22:00:00Z", "minutes": math.nan})
    spoil_summary(journal, 4, finished="9999-99-99T00:00:00Z")
    cache = FactsCache()
    facts = load_facts(journal, summarizer(catalog, journal), cache)
    # game 3 is made from its events: it counts, its minutes unknown (never NaN)
    assert sorted(f.id for f in facts) == [2, 3, 5]
    assert next(f.minutes for f in facts if f.id == 3) is None
    assert sorted(cache.unreadable) == [1, 4]
    counted = statistics(select(facts))
    assert counted["games"] == 3
    again = load_facts(journal, summarizer(catalog, journal), cache, changed=set())
    assert sorted(f.id for f in again) == [2, 3, 5]  # read once: not tried again each time
