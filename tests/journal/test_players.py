"""Players the box remembers: listed most recent first, renamed everywhere, unnamed allowed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from exchange_games import build
from stats_games import Clock, build_journal

from companion.engine.cards import Catalog
from companion.records.archive import summarizer
from companion.records.journal import Journal, JournalError
from companion.records.logged import add_plays, logged_plays
from companion.records.players import (
    PlayerRefused,
    add_player,
    games_of,
    known_players,
    recent_names,
    rename_player,
)
from companion.records.results import Play, PlayerResult
from companion.records.stats import select, statistics
from companion.records.summaries import FactsCache, load_facts
from companion.records.tables import STEPS


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path, clock: Clock) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path / "journal.sqlite", clock)
    yield journal
    journal.close()


def test_players_are_listed_most_recent_first(journal: Journal) -> None:
    # Latest games: Ann and Ben 2026-03-10 (game 4), Cleo 2026-03-05 (game 3); game 5 unnamed.
    assert [(p.name, p.games) for p in known_players(journal)] == [
        ("Ben", 3),
        ("Ann", 3),
        ("Cleo", 2),
    ]


def test_a_player_added_before_their_first_game_comes_first(journal: Journal, clock: Clock) -> None:
    clock.now = datetime(2026, 4, 3, 12, 0, tzinfo=UTC)
    assert add_player(journal, "  Dora ") == "Dora"
    assert recent_names(journal, 2) == ["Dora", "Ben"]
    assert known_players(journal)[0].games == 0
    add_player(journal, "Dora")  # already known: nothing changes
    assert [p.name for p in known_players(journal)].count("Dora") == 1


def test_games_of_a_player_newest_first(journal: Journal) -> None:
    assert [g.id for g in games_of(journal, "Cleo")] == [3, 2]
    assert games_of(journal, "Nobody") == []


def test_renaming_renames_in_every_game_page_export_and_statistic(
    catalog: Catalog, journal: Journal
) -> None:
    assert rename_player(journal, "Ann", "Anna") == 3  # games 1, 3, 4
    assert journal.game(1).players == {"p1": "Anna", "p2": "Ben"}
    assert '"players":{"p1":"Anna","p2":"Ben"}' in journal.export_record(4)
    assert "Ann" not in [p.name for p in known_players(journal)]
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    names = [p["name"] for p in statistics(select(facts))["players"]]
    assert names == ["Anna", "Ben", "Cleo"]


def test_renaming_onto_a_known_player_merges_them(journal: Journal) -> None:
    rename_player(journal, "Cleo", "Ben")
    # Ben now sat in games 1, 2, 4 (as before) and 3 (was Cleo); game 2 was Ben vs Cleo.
    assert journal.game(2).players == {"p1": "Ben", "p2": "Ben"}
    assert [(p.name, p.games) for p in known_players(journal)] == [("Ben", 4), ("Ann", 3)]


def test_renaming_an_unknown_player_or_to_a_bad_name_is_refused(journal: Journal) -> None:
    with pytest.raises(PlayerRefused, match="No player called 'Zed'"):
        rename_player(journal, "Zed", "Zoe")
    with pytest.raises(PlayerRefused, match="new name: a name is 1 to 24 printable characters"):
        rename_player(journal, "Ann", "x" * 25)
    with pytest.raises(PlayerRefused, match="a name is 1 to 24"):
        add_player(journal, "a\u2028b")
    assert journal.game(1).players == {"p1": "Ann", "p2": "Ben"}


def test_unnamed_players_are_nobody(journal: Journal) -> None:
    assert not any(journal.game(5).players.values())  # set up without names
    assert all(5 not in [g.id for g in games_of(journal, p.name)] for p in known_players(journal))


def test_schema_steps_are_applied_once_and_a_read_only_journal_without_them_reads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    Journal.create(path).close()  # a journal as an older program wrote it: no extra tables
    with Journal.open(path, readonly=True) as old:
        assert known_players(old) == []
        with pytest.raises(JournalError, match="read-only"):
            add_player(old, "Ann")
    clock = Clock()
    with Journal.open(path, clock=clock) as journal:
        add_player(journal, "Ann")
        clock.now = clock.now.replace(hour=21)
        add_player(journal, "Ben")
        steps = journal.query("SELECT step FROM schema_steps ORDER BY step")
        assert [s for (s,) in steps] == sorted(STEPS)
    with Journal.open(path, readonly=True) as reopened:  # the journal's own checks still pass
        assert [p.name for p in known_players(reopened)] == ["Ben", "Ann"]


def test_players_of_score_pads_and_imported_plays_are_listed(
    catalog: Catalog, tmp_path: Path
) -> None:
    # exchange_games: pad 1 (2026-04-03 20:00) Ann, Bob, Cid; pad 2 (2026-04-04 21:30) Ann,
    # Bob and the Free City, which is not a player; then a play imported from BoardGameGeek
    # on 2026-04-05 (a day, taken as its midnight) by Dee and Ann.
    dice = Play(
        uuid="bgg-play-1", game="7wonders-dice", played="2026-04-05", minutes=None,
        location="", comments="",
        players=(PlayerResult("Dee", 31, 1, True, False), PlayerResult("Ann", 25, 2, False, True)),
    )  # fmt: skip
    with build(catalog, tmp_path / "journal.sqlite") as journal:
        add_plays(journal, [dice])
        listed = [(p.name, p.games, p.last) for p in known_players(journal)]
    assert listed == [
        ("Dee", 1, "2026-04-05T00:00:00Z"),
        ("Ann", 3 + 2 + 1, "2026-04-05T00:00:00Z"),
        ("Bob", 2, "2026-04-04T21:30:00Z"),
        ("Cid", 1, "2026-04-03T20:00:00Z"),
        ("Ben", 3, listed[4][2]),
        ("Cleo", 2, listed[5][2]),
    ]
    assert listed[4][2] > listed[5][2]


def test_renaming_reaches_imported_plays_not_score_pads(catalog: Catalog, tmp_path: Path) -> None:
    dice = Play(
        uuid="bgg-play-1", game="7wonders-dice", played="2026-04-05", minutes=None,
        location="", comments="",
        players=(PlayerResult("Dee", 31, 1, True, False), PlayerResult("Ann", 25, 2, False, True)),
    )  # fmt: skip
    with build(catalog, tmp_path / "journal.sqlite") as journal:
        add_plays(journal, [dice])
        assert rename_player(journal, "Dee", "Dora") == 0  # no Duel game
        (play,) = logged_plays(journal)
        assert [p.name for p in play.players] == ["Dora", "Ann"]
        assert play.uuid == "bgg-play-1"
        with pytest.raises(
            PlayerRefused, match=r"^'Cid' is only on score pads, which keep their names$"
        ):
            rename_player(journal, "Cid", "Cyd")
        names = [p.name for p in known_players(journal)]
    assert names[:2] == ["Dora", "Ann"]
    assert "Dee" not in names
