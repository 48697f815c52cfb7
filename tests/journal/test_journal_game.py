"""Game is the journal's only writer: apply first, then append; recovery is replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from journal_playout import finished_seed, playout

from companion.engine.cards import CardId, Catalog
from companion.engine.events import Build, IllegalEvent, event_from_record, event_to_record
from companion.engine.rules import apply, legal_events
from companion.engine.state import Player
from companion.records import journal as journal_module
from companion.records.game import Game, import_record, outcome_of
from companion.records.journal import Journal, JournalError, RecordRefused
from companion.records.replay import replay


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    return Journal.create(tmp_path / "journal.sqlite")


def play(game: Game, records: list[dict[str, object]]) -> None:
    for record in records:
        game.submit(event_from_record(record))


def test_submit_appends_each_event_as_its_record(catalog: Catalog, journal: Journal) -> None:
    records = playout(catalog, 3, events=12)
    game = Game.start(catalog, journal)
    play(game, records)
    assert journal.effective_events(game.game_id) == records
    assert game.seq == journal.last_seq(game.game_id) == 12


def test_a_refused_event_writes_nothing(catalog: Catalog, journal: Journal) -> None:
    game = Game.start(catalog, journal)
    play(game, playout(catalog, 3, events=2))
    before = game.state
    wrong = Player.P2 if game.state.current is Player.P1 else Player.P1
    with pytest.raises(IllegalEvent):
        game.submit(Build(wrong, CardId("lumber_yard")))
    with pytest.raises(IllegalEvent):
        game.submit(Build(game.state.current, CardId("no_such_card")))
    assert game.state == before
    assert journal.last_seq(game.game_id) == 2


def test_undo_appends_a_row_and_restores_the_exact_state(
    catalog: Catalog, journal: Journal
) -> None:
    game = Game.start(catalog, journal)
    play(game, playout(catalog, 5, events=10))
    states = game.states
    assert game.undo() == states[-2]
    assert game.undo() == states[-3]
    assert journal.rows(game.game_id)[-1].record == {"type": "undo"}
    assert len(journal.effective_events(game.game_id)) == 8


def test_nothing_to_undo_at_the_start(catalog: Catalog, journal: Journal) -> None:
    game = Game.start(catalog, journal)
    with pytest.raises(IllegalEvent, match="Nothing to undo"):
        game.undo()
    assert journal.last_seq(game.game_id) == 0


def test_resume_replays_to_the_same_state(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    records = playout(catalog, 7, events=30)
    with Journal.create(path) as journal:
        game = Game.start(catalog, journal)
        play(game, records)
        game.undo()
        game.submit(event_from_record(records[-1]))
        expected = game.state
    with Journal.open(path) as journal:
        resumed = Game.resume_or_start(catalog, journal)
        assert resumed.game_id == game.game_id
        assert resumed.state == expected
        assert resumed.states == game.states


def test_resume_or_start_comes_back_to_a_finished_game_until_a_new_one_starts(
    catalog: Catalog, journal: Journal
) -> None:
    game = Game.start(catalog, journal)
    play(game, playout(catalog, finished_seed(catalog, "civilian")))
    assert game.state.finished
    assert journal.game(game.game_id).status == "finished"
    resumed = Game.resume_or_start(catalog, journal)  # a restart after the last card
    assert resumed.game_id == game.game_id
    assert resumed.state == game.state
    fresh = Game.start(catalog, journal)  # the players start the next game
    again = Game.resume_or_start(catalog, journal)
    assert again.game_id == fresh.game_id != game.game_id
    assert len(again.states) == 1


def test_resume_or_start_starts_a_game_in_an_empty_journal(
    catalog: Catalog, journal: Journal
) -> None:
    game = Game.resume_or_start(catalog, journal)
    assert journal.latest_played() == game.game_id
    assert len(game.states) == 1


def test_summary_follows_the_game_to_its_end_and_back(catalog: Catalog, journal: Journal) -> None:
    records = playout(catalog, finished_seed(catalog, "military"))
    game = Game.start(catalog, journal)
    play(game, records)
    summary = journal.game(game.game_id)
    assert (summary.status, summary.victory) == ("finished", "military")
    assert summary.winner == game.state.winner
    seq = journal.last_seq(game.game_id)
    for refused in (game.undo, lambda: game.correct(event_from_record(records[-1]))):
        with pytest.raises(IllegalEvent, match=r"^The game is finished: only the box can reopen"):
            refused()  # what a phone asks: a finished game is closed
    assert journal.last_seq(game.game_id) == seq and game.state.finished
    game.undo(reopen=True)  # the box, once the players confirmed
    assert journal.game(game.game_id).status == "in_progress"
    assert game.state == game.states[-1] and not game.state.finished


def test_two_writers_on_one_game_are_refused(catalog: Catalog, journal: Journal) -> None:
    records = playout(catalog, 3, events=4)
    first = Game.start(catalog, journal)
    play(first, records[:3])
    second = Game(catalog, journal, first.game_id)
    second.submit(event_from_record(records[3]))
    with pytest.raises(JournalError, match="changed elsewhere"):
        first.undo()
    assert journal.effective_events(first.game_id) == records


def test_a_game_that_no_longer_replays_is_reported(catalog: Catalog, journal: Journal) -> None:
    game_id = journal.new_game()
    journal.append(game_id, {"type": "build", "player": "p1", "card": "baths"})  # before setup
    with pytest.raises(JournalError, match=f"game {game_id} no longer replays: row 1"):
        Game(catalog, journal, game_id)


def test_import_then_export_gives_back_the_record(catalog: Catalog, journal: Journal) -> None:
    records = playout(catalog, finished_seed(catalog, "civilian"))
    text = "".join(json.dumps(r) + "\n" for r in records)
    game_id = import_record(catalog, journal, text.splitlines())
    assert [json.loads(line) for line in journal.export_record(game_id).splitlines()] == records
    summary = journal.game(game_id)
    assert (summary.status, summary.victory, summary.origin) == ("finished", "civilian", "import")
    assert summary.players == {"p1": "Ann", "p2": "Ben"}


def test_import_refusal_names_the_line_and_changes_nothing(
    catalog: Catalog, journal: Journal
) -> None:
    records = playout(catalog, 3, events=6)
    lines = [json.dumps(r) for r in records]
    lines.insert(3, "")
    lines[5] = lines[4]  # the same card taken twice: refused on file line 6
    with pytest.raises(RecordRefused, match=r"^line 6: ") as refused:
        import_record(catalog, journal, lines)
    assert refused.value.line == 6
    assert journal.games() == []


def test_replay_gives_every_state(catalog: Catalog) -> None:
    records = playout(catalog, 9, events=15)
    states = replay(catalog, list(enumerate(records, 1))).states
    assert len(states) == 16
    assert states[-1] == apply(states[-2], event_from_record(records[-1]))
    assert outcome_of(states[-1]).status == "in_progress"


def test_the_device_screen_is_kept_with_the_game(catalog: Catalog, journal: Journal) -> None:
    game = Game.start(catalog, journal)
    game.remember("screen", {"view": "wonder_draft", "picked": 2})
    assert Game(catalog, journal, game.game_id).recall("screen") == {
        "view": "wonder_draft",
        "picked": 2,
    }


def test_a_correction_replaces_the_latest_event_in_one_transaction(
    catalog: Catalog, journal: Journal
) -> None:
    game = Game.start(catalog, journal)
    records = playout(catalog, 3, events=12)
    play(game, records)
    before = game.states[-2]
    latest = event_from_record(records[-1])
    other = next(e for e in legal_events(before) if e != latest)
    assert game.correct(other) == apply(before, other)
    rows = journal.rows(game.game_id)
    assert [row.record for row in rows[-2:]] == [{"type": "undo"}, event_to_record(other)]
    assert journal.effective_events(game.game_id) == [*records[:-1], event_to_record(other)]
    assert Game(catalog, journal, game.game_id).state == game.state  # what a restart finds


def test_a_refused_correction_writes_nothing(catalog: Catalog, journal: Journal) -> None:
    game = Game.start(catalog, journal)
    with pytest.raises(IllegalEvent, match="Nothing to correct"):
        game.correct(Build(Player.P1, CardId("lumber_yard")))
    play(game, playout(catalog, 3, events=6))
    states, seq = game.states, game.seq
    with pytest.raises(IllegalEvent):
        game.correct(Build(Player.P1, CardId("no_such_card")))
    assert game.states == states and journal.last_seq(game.game_id) == seq


def test_a_correction_cut_short_keeps_neither_row(
    catalog: Catalog, journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game.start(catalog, journal)
    records = playout(catalog, 3, events=8)
    play(game, records)
    other = next(e for e in legal_events(game.states[-2]) if e != event_from_record(records[-1]))
    real_dumps = journal_module.dumps

    def fail_on_the_event(record: object) -> str:
        if record != {"type": "undo"}:
            raise OSError("disk full")  # after the undo row was inserted
        return real_dumps(record)

    monkeypatch.setattr(journal_module, "dumps", fail_on_the_event)
    with pytest.raises(OSError, match="disk full"):
        game.correct(other)
    monkeypatch.undo()
    assert journal.effective_events(game.game_id) == records  # no lone undo row
    assert journal.last_seq(game.game_id) == 8
