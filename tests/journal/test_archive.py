"""Exports: every game as CSV rows, and the whole history as one JSON file that imports back
into another box without duplicates."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal

from companion.engine.cards import Catalog
from companion.records.archive import (
    content_hash,
    existing_hashes,
    export_history,
    games_csv,
    import_history,
    summarizer,
)
from companion.records.journal import Journal, RecordRefused
from companion.records.players import add_player, known_players, rename_player
from companion.records.stats import select, statistics
from companion.records.summaries import FactsCache, load_facts


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    yield journal
    journal.close()


def stats(catalog: Catalog, journal: Journal) -> dict[str, Any]:
    return statistics(select(load_facts(journal, summarizer(catalog, journal), FactsCache())))


def test_csv_has_one_row_per_player_per_game_with_every_category(
    catalog: Catalog, journal: Journal
) -> None:
    facts = select(load_facts(journal, summarizer(catalog, journal), FactsCache()))
    rows = list(csv.DictReader(io.StringIO(games_csv(facts))))
    assert len(rows) == 10  # 5 games x 2 players
    first = rows[0]  # game 1, p1: Ann 20 7 6 7 12 3 2 0 = 57, began second (p2 first)
    assert first["game_id"] == "1" and first["player"] == "Ann" and first["result"] == "win"
    scores = [first[k] for k in ("blue", "green", "yellow", "purple", "wonders", "progress")]
    assert [*scores, first["coins"], first["military"], first["total"]] == [
        "20", "7", "6", "7", "12", "3", "2", "0", "57",
    ]  # fmt: skip
    assert first["first"] == "no" and first["minutes"] == "69.0"
    assert first["progress_tokens"] == "mathematics"
    shared = [r for r in rows if r["game_id"] == "4"]
    assert [(r["player"], r["result"], r["victory"]) for r in shared] == [
        ("Ann", "shared", "shared"),
        ("Ben", "shared", "shared"),
    ]
    assert [r["player"] for r in rows if r["game_id"] == "5"] == ["", ""]


def test_history_imports_into_another_box_with_the_same_statistics(
    catalog: Catalog, journal: Journal, tmp_path: Path
) -> None:
    add_player(journal, "Dora")  # remembered without a game: travels too
    history = json.loads(json.dumps(export_history(journal)))  # through text, as a file
    with Journal.create(tmp_path / "other.sqlite") as other:
        result = import_history(catalog, other, history)
        assert result.added == [1, 2, 3, 4, 5] and result.already == {}
        assert stats(catalog, other) == stats(catalog, journal)  # dates and minutes kept
        assert "Dora" in [p.name for p in known_players(other)]


def test_importing_the_same_history_again_adds_nothing_and_names_the_games(
    catalog: Catalog, journal: Journal, tmp_path: Path
) -> None:
    history = export_history(journal)
    with Journal.create(tmp_path / "other.sqlite") as other:
        import_history(catalog, other, history)
        rename_player(other, "Ann", "Anna")  # names are not part of a game's content
        again = import_history(catalog, other, export_history(journal))
        assert again.added == []
        # Games 1 and 5 have the same events (the same record played twice): both name 1.
        assert again.already == {1: 1, 2: 2, 3: 3, 4: 4, 5: 1}
        assert len(other.games()) == 5
    # Back into the first box: every game is already there.
    assert import_history(catalog, journal, history).added == []
    assert len(journal.games()) == 5


def test_the_content_hash_ignores_names_only(journal: Journal) -> None:
    records = journal.effective_events(1)
    renamed = [{**records[0], "players": {"p1": "X", "p2": "Y"}}, *records[1:]]
    assert content_hash(renamed) == content_hash(records)
    assert content_hash(records[:-1]) != content_hash(records)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "not a history file"),
        ({"format": "duel-companion-history", "version": 9, "games": []}, "version 9"),
        ({"format": "duel-companion-history", "version": 1, "games": [3]}, "game 1: expected"),
    ],
)
def test_a_file_that_is_no_history_is_refused(
    catalog: Catalog, journal: Journal, data: Any, message: str
) -> None:
    with pytest.raises(RecordRefused, match=message):
        import_history(catalog, journal, data)
    assert len(journal.games()) == 5


def test_a_history_with_a_refused_game_changes_nothing(
    catalog: Catalog, journal: Journal, tmp_path: Path
) -> None:
    history = export_history(journal)
    history["games"][2]["record"][5] = {"type": "build", "player": "p1", "card": "nope"}
    with Journal.create(tmp_path / "other.sqlite") as other:
        with pytest.raises(RecordRefused, match=r"game 3: line 6: Unknown card 'nope'"):
            import_history(catalog, other, history)
        assert other.games() == []


def test_known_games_are_found_by_their_kept_fingerprints_not_by_reading_events(
    catalog: Catalog, journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Games 1-5 are all finished (played at the box or imported): none is re-read.
    read: list[int] = []
    events = journal.effective_events
    monkeypatch.setattr(
        journal, "effective_events", lambda game_id: read.append(game_id) or events(game_id)
    )
    assert existing_hashes(journal) == {
        content_hash(events(1)): 1,  # game 5 has game 1's events: the oldest is named
        content_hash(events(2)): 2,
        content_hash(events(3)): 3,
        content_hash(events(4)): 4,
    }
    assert read == []  # existing_hashes read no game's events


def test_a_game_still_in_play_is_hashed_from_its_events(catalog: Catalog, journal: Journal) -> None:
    records = journal.effective_events(2)[:10]  # game 2's first ten events, a game in play
    game_id = journal.new_game()
    for record in records:
        journal.append(game_id, record)
    assert existing_hashes(journal)[content_hash(records)] == game_id
