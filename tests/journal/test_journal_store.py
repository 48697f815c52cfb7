"""The journal keeps every event, derives undo, and keeps summaries of every game."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from companion.records.journal import (
    AlreadyInHistory,
    Journal,
    JournalError,
    Outcome,
    UnknownGame,
)

SETUP = {"type": "setup", "first_player": "p1", "players": {"p1": "Ann", "p2": "Ben"}}
BUILD = {"type": "build", "player": "p1", "card": "lumber_yard"}
DISCARD = {"type": "discard", "player": "p2", "card": "baths"}


class Ticks:
    """A clock that moves one minute per reading."""

    def __init__(self) -> None:
        self.minutes = 0

    def __call__(self) -> datetime:
        self.minutes += 1
        return datetime(2026, 1, 2, 20, self.minutes, tzinfo=UTC)


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return Journal.create(tmp_path / "journal.sqlite", clock=Ticks())


FINISHED = Outcome("finished", "p1", "civilian")


def test_new_journal_is_wal_with_full_synchronous(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    db.close()


def test_append_keeps_the_same_json_object_as_a_record_line(journal: Journal) -> None:
    game = journal.new_game()
    assert journal.append(game, SETUP) == 1
    assert journal.append(game, BUILD) == 2
    assert journal.effective_events(game) == [SETUP, BUILD]
    assert [row.record for row in journal.rows(game)] == [SETUP, BUILD]


def test_undo_is_an_appended_row_and_effective_events_are_derived(journal: Journal) -> None:
    game = journal.new_game()
    for record in (SETUP, BUILD, DISCARD):
        journal.append(game, record)
    journal.append_undo(game)
    journal.append_undo(game)
    journal.append(game, DISCARD)
    assert journal.effective_events(game) == [SETUP, DISCARD]
    assert [row.record["type"] for row in journal.rows(game)] == [
        "setup", "build", "discard", "undo", "undo", "discard",
    ]  # fmt: skip
    assert journal.last_seq(game) == 6


def test_undo_with_nothing_left_is_refused_and_writes_nothing(journal: Journal) -> None:
    game = journal.new_game()
    with pytest.raises(JournalError, match="Nothing to undo"):
        journal.append_undo(game)
    journal.append(game, SETUP)
    journal.append_undo(game)
    with pytest.raises(JournalError, match="Nothing to undo"):
        journal.append_undo(game)
    assert journal.last_seq(game) == 2


def test_rows_cannot_be_updated_or_deleted(journal: Journal) -> None:
    game = journal.new_game()
    journal.append(game, SETUP)
    db = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE events SET record = '{}'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM events")
    with pytest.raises(sqlite3.IntegrityError, match="kept"):
        db.execute("DELETE FROM games")
    db.close()


@pytest.mark.parametrize("record", [{"card": "baths"}, {"type": 3}, {"type": "undo"}, ["build"]])
def test_append_refuses_what_is_not_an_event_record(journal: Journal, record: Any) -> None:
    game = journal.new_game()
    with pytest.raises(JournalError):
        journal.append(game, record)
    assert journal.last_seq(game) == 0


def test_unknown_game_is_refused_everywhere(journal: Journal) -> None:
    for call in (
        lambda: journal.append(7, BUILD),
        lambda: journal.append_undo(7),
        lambda: journal.effective_events(7),
        lambda: journal.last_seq(7),
        lambda: journal.export_record(7),
        lambda: journal.game(7),
        lambda: journal.set_meta(7, "screen", "idle"),
        lambda: journal.set_players(7, {"p1": "Cy"}),
    ):
        with pytest.raises(UnknownGame, match="no game 7"):
            call()


def test_summary_follows_the_outcome_and_undo_reopens_it(journal: Journal) -> None:
    game = journal.new_game()
    journal.append(game, SETUP)
    summary = journal.game(game)
    assert (summary.status, summary.winner, summary.finished) == ("in_progress", None, None)
    assert summary.players == {"p1": "Ann", "p2": "Ben"}
    journal.append(game, BUILD, Outcome("finished", "p1", "military"))
    summary = journal.game(game)
    assert (summary.status, summary.winner, summary.victory) == ("finished", "p1", "military")
    assert summary.finished is not None and summary.finished > summary.started
    assert journal.current_game() is None
    journal.append_undo(game, Outcome())
    summary = journal.game(game)
    assert (summary.status, summary.winner, summary.finished) == ("in_progress", None, None)
    assert journal.current_game() == game


def test_current_game_is_the_newest_unfinished_game_played_here(journal: Journal) -> None:
    assert journal.current_game() is None
    first = journal.new_game()
    second = journal.new_game()
    assert journal.current_game() == second
    journal.append(second, SETUP, Outcome("finished", "p2", "science"))
    assert journal.current_game() == first
    journal.add_game([{**SETUP, "first_player": "p2"}], Outcome())
    assert journal.current_game() == first  # an imported game is never resumed by itself


def test_games_lists_newest_first_with_the_api_fields(journal: Journal) -> None:
    first = journal.new_game()
    second = journal.new_game()
    assert [g.id for g in journal.games()] == [second, first]
    assert set(journal.games()[0].to_json()) == {
        "id", "status", "winner", "victory", "started", "finished", "players",
    }  # fmt: skip


def test_export_writes_effective_events_as_json_lines_with_current_names(
    journal: Journal,
) -> None:
    game = journal.new_game()
    for record in (SETUP, BUILD, DISCARD):
        journal.append(game, record)
    journal.append_undo(game)
    journal.set_players(game, {"p2": "Bea"})
    lines = journal.export_record(game).splitlines()
    assert [json.loads(line) for line in lines] == [
        {**SETUP, "players": {"p1": "Ann", "p2": "Bea"}},
        BUILD,
    ]
    assert journal.effective_events(game)[0] == SETUP  # the row itself stays as written


def test_import_round_trips_an_export(journal: Journal) -> None:
    game = journal.new_game()
    for record in (SETUP, BUILD, DISCARD):
        journal.append(game, record)
    text = journal.export_record(game)
    copy = journal.add_game([json.loads(line) for line in text.splitlines()], FINISHED)
    assert journal.export_record(copy) == text
    summary = journal.game(copy)
    assert (summary.origin, summary.status, summary.winner) == ("import", "finished", "p1")


def test_the_same_game_added_twice_is_named_not_added_again(journal: Journal) -> None:
    first = journal.add_game([SETUP, BUILD], FINISHED)
    renamed = {**SETUP, "players": {"p1": "Cleo", "p2": "Dag"}}  # the names do not count
    with pytest.raises(AlreadyInHistory, match=f"^already in the history as game {first}$"):
        journal.add_game([renamed, BUILD], FINISHED)
    assert [g.id for g in journal.games()] == [first]
    assert journal.find_game([SETUP, BUILD]) == first
    assert journal.find_game([SETUP]) is None
    assert journal.add_game([SETUP], Outcome()) == first + 1  # other events: another game


def test_a_game_played_to_the_end_is_recognised_until_it_is_reopened(journal: Journal) -> None:
    game = journal.new_game()
    journal.append(game, SETUP)
    journal.append(game, BUILD)
    journal.append(game, DISCARD, FINISHED)  # the last event finishes it
    assert journal.find_game([SETUP, BUILD, DISCARD]) == game
    with pytest.raises(AlreadyInHistory, match=f"game {game}$"):
        journal.add_game([SETUP, BUILD, DISCARD], FINISHED)
    journal.append_undo(game, Outcome())  # reopened on the box: no longer the finished game
    assert journal.find_game([SETUP, BUILD, DISCARD]) is None
    assert journal.find_game([SETUP, BUILD]) is None  # an unfinished played game is not named


def test_add_game_refuses_an_undo_and_changes_nothing(journal: Journal) -> None:
    with pytest.raises(JournalError, match="a game record holds no undo"):
        journal.add_game([SETUP, {"type": "undo"}], Outcome())
    assert journal.games() == []


def test_meta_keeps_a_json_value_per_game_and_key(journal: Journal) -> None:
    game = journal.new_game()
    assert journal.meta(game, "screen") is None
    journal.set_meta(game, "screen", {"view": "idle"})
    journal.set_meta(game, "screen", {"view": "card", "card": "baths"})
    assert journal.meta(game, "screen") == {"view": "card", "card": "baths"}
    assert journal.meta(game, "other", 3) == 3


def test_seq_conflict_is_refused_when_another_writer_appended(journal: Journal) -> None:
    game = journal.new_game()
    journal.append(game, SETUP, after_seq=0)
    with pytest.raises(JournalError, match="changed elsewhere"):
        journal.append(game, BUILD, after_seq=0)
    assert journal.effective_events(game) == [SETUP]


def test_readonly_journal_reads_but_refuses_every_write(journal: Journal) -> None:
    game = journal.new_game()
    journal.append(game, SETUP)
    reader = Journal.open(journal.path, readonly=True)
    assert reader.effective_events(game) == [SETUP]
    with pytest.raises(JournalError, match="read-only"):
        reader.append(game, BUILD)
    with pytest.raises(JournalError, match="read-only"):
        reader.new_game()
    journal.append(game, BUILD)
    assert reader.last_seq(game) == 2  # sees the writer's new rows
    reader.close()


def test_reopening_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal.create(path) as journal:
        game = journal.new_game()
        journal.append(game, SETUP)
    with Journal.open(path) as journal:
        assert journal.effective_events(game) == [SETUP]
        assert journal.current_game() == game


def test_create_never_overwrites_an_existing_journal(journal: Journal) -> None:
    journal.append(journal.new_game(), SETUP)
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(journal.path)
    assert journal.effective_events(1) == [SETUP]


def test_open_creates_a_missing_journal_but_readonly_refuses(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal there"):
        Journal.open(tmp_path / "nope.sqlite", readonly=True)
    with Journal.open(tmp_path / "sub" / "new.sqlite") as journal:
        assert journal.games() == []


def write_before_fingerprints(path: Path) -> None:
    """A journal as the program before the fingerprints wrote it (no table, no step)."""
    with Journal.create(path) as journal:
        played = journal.new_game()
        journal.append(played, SETUP)
        journal.append(played, BUILD, FINISHED)
        journal.new_game()  # unfinished: no fingerprint
        journal.add_game([SETUP, DISCARD], Outcome())
    db = sqlite3.connect(path)
    db.execute("DROP TABLE game_fingerprints")
    db.execute("DELETE FROM schema_steps WHERE step = 'fingerprints-1'")
    db.commit()
    db.close()


def test_an_older_journal_is_read_as_it_is_and_given_its_fingerprints_by_a_writer(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    write_before_fingerprints(path)
    with Journal.open(path, readonly=True) as reader:  # a reader changes nothing
        assert [g.id for g in reader.games()] == [3, 2, 1]
        assert reader.find_game([SETUP, BUILD]) is None  # no table yet: nothing known
    with Journal.open(path) as journal:
        assert journal.find_game([SETUP, BUILD]) == 1  # finished: named
        assert journal.find_game([SETUP, DISCARD]) == 3  # imported: named
        assert journal.effective_events(1) == [SETUP, BUILD]  # every row kept
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1  # older programs still open it
    marks = db.execute("SELECT game_id FROM game_fingerprints ORDER BY game_id").fetchall()
    assert marks == [(1,), (3,)]  # game 2 is unfinished
    db.close()
    with Journal.open(path) as again:  # the step is applied once
        assert again.find_game([SETUP, BUILD]) == 1
