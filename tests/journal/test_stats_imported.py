"""Plays imported from BG Stats or BoardGameGeek count in the statistics of their game, in what
a logged play tells: the players' games, wins and ranks, head to head, wins in a row, and (every
score known) best scores and margins. Expected numbers worked by hand from the five games of
stats_games.py and the plays below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal
from test_stat_totals import assert_same_as_made_afresh

from companion.config import Config
from companion.engine.cards import Catalog
from companion.records.archive import summarizer
from companion.records.journal import Journal
from companion.records.logged import add_plays, play_facts
from companion.records.players import rename_player
from companion.records.results import Play, PlayerResult
from companion.records.seat_stats import seat_tally
from companion.records.stats import select, statistics
from companion.records.summaries import FactsCache, load_facts
from web import create_app


def play(uuid: str, game: str, played: str, *people: tuple[str, int | None, int, bool],
         expansions: tuple[str, ...] = ()) -> Play:  # fmt: skip
    return Play(
        uuid=uuid, game=game, played=played, minutes=None, location="", comments="",
        players=tuple(PlayerResult(n, s, r, w, False) for n, s, r, w in people),
        expansions=expansions,
    )  # fmt: skip


# A: BoardGameGeek (a day), Ann 80 beats Ben 50. B: BG Stats, Pantheon, Cleo 30 beats Ben, whose
# score was not kept (so B is in no best score nor margin). C: 7 Wonders, Ann 60, Ben 55, Cleo 40.
PLAYS = [
    play("a", "duel", "2026-03-03", ("Ann", 80, 1, True), ("Ben", 50, 2, False)),
    play("b", "duel", "2026-03-06 20:00:00", ("Cleo", 30, 1, True), ("Ben", None, 2, False),
         expansions=("pantheon",)),
    play("c", "7wonders", "2026-03-07 21:00:00", ("Ann", 60, 1, True), ("Ben", 55, 2, False),
         ("Cleo", 40, 3, False)),
]  # fmt: skip


@pytest.fixture
def journal(catalog: Catalog, tmp_path: Path) -> Iterator[Journal]:
    with build_journal(catalog, tmp_path / "journal.sqlite") as journal:
        add_plays(journal, PLAYS)
        yield journal


def both(catalog: Catalog, journal: Journal, **chosen: Any) -> dict[str, Any]:
    """The statistics counted by SQLite, checked against those counted in Python."""
    filters = {"game": "duel", "player": None, "since": None, "until": None, "mode": None,
               **chosen}  # fmt: skip
    sql = seat_tally(journal, summarizer(catalog, journal), filters).result()
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache()) + play_facts(journal)
    assert sql == statistics(select(facts, **filters), filters["player"], filters["game"])
    return sql


def players(stats: dict[str, Any]) -> dict[str, tuple[int, int, int, float]]:
    return {p["name"]: (p["games"], p["wins"], p["shared"], p["average_rank"])
            for p in stats["players"]}  # fmt: skip


def test_imported_duel_plays_count_in_what_they_tell(catalog: Catalog, journal: Journal) -> None:
    stats = both(catalog, journal)
    assert (stats["games"], stats["imported"]) == (5, 2)
    # Ann: games 1 (win), 3 (lost, rank 2), 4 (shared), A (win): ranks 1+2+1+1 = 5 over 4
    # Ben: 1 (rank 2), 2 (win), 4 (shared), A (rank 2), B (rank 2): 8 over 5
    # Cleo: 2 (rank 2), 3 (win), B (win): 4 over 3
    assert players(stats) == {"Ann": (4, 2, 1, 1.25), "Ben": (5, 1, 1, 1.6),
                              "Cleo": (3, 2, 0, 1.33)}  # fmt: skip
    assert [(h["players"], h["games"], h["wins"], h["shared"]) for h in stats["head_to_head"]] == [
        (["Ann", "Ben"], 3, [2, 0], 1), (["Ben", "Cleo"], 2, [1, 1], 0),
        (["Ann", "Cleo"], 1, [0, 1], 0),
    ]  # fmt: skip
    # in the order of the days: Ann W (1) W (A) L (3) shared (4); Cleo L (2) W (3) W (B)
    assert {s["name"]: (s["longest"], s["current"]) for s in stats["streaks"]} == {
        "Ann": (2, 0), "Ben": (1, 0), "Cleo": (2, 2),
    }  # fmt: skip
    assert [(b["name"], b["total"]) for b in stats["best_scores"]] == [
        ("Ann", 80), ("Cleo", 71), ("Ann", 57),
    ]  # fmt: skip
    # A by 30 points; games 1 and 5 by 19 (the older first); B has no score for Ben
    assert [(m["winner"], m["margin"]) for m in stats["margins"]] == [
        ("Ann", 30), ("Ann", 19), ("", 19),
    ]  # fmt: skip
    # what the plays cannot tell stays the box's games' alone
    assert stats["victories"] == {"civilian": 2, "military": 1, "science": 1, "shared": 1}
    assert stats["first_player"]["games"] == 5
    assert stats["categories"]["seats"] == 10
    assert stats["modes"] == {"base": 5, "pantheon": 0}


@pytest.mark.parametrize(
    ("chosen", "games", "imported"),
    [
        ({"player": "Cleo"}, 2, 1),  # games 2 and 3, play B
        ({"since": "2026-03-04"}, 3, 1),  # games 3, 4, 5 and play B
        ({"mode": "pantheon"}, 0, 1),  # play B
        ({"mode": "base"}, 5, 1),  # play A
        ({"until": "2026-03-03"}, 2, 1),  # games 1, 2 and play A (its day)
    ],
    ids=str,
)
def test_imported_plays_are_chosen_by_the_filters(
    catalog: Catalog, journal: Journal, chosen: dict[str, Any], games: int, imported: int
) -> None:
    stats = both(catalog, journal, **chosen)
    assert (stats["games"], stats["imported"]) == (games, imported)


def test_a_family_game_counts_its_imported_plays(journal: Journal) -> None:
    app = create_app(Config.defaults(journal=journal.path), TESTING=True, STATS_WARM_UP=False)
    stats = app.test_client().get("/stats.json?game=7wonders").get_json()
    assert (stats["games"], stats["imported"]) == (0, 1)
    assert players(stats) == {"Ann": (1, 1, 0, 1.0), "Ben": (1, 0, 0, 2.0), "Cleo": (1, 0, 0, 3.0)}
    assert [m["margin"] for m in stats["margins"]] == [5]


def test_a_renamed_player_is_renamed_in_their_imported_plays(
    catalog: Catalog, journal: Journal
) -> None:
    rename_player(journal, "Ben", "Benno")
    assert players(both(catalog, journal))["Benno"] == (5, 1, 1, 1.6)


def test_the_page_says_how_many_imported_plays_are_counted(journal: Journal) -> None:
    app = create_app(Config.defaults(journal=journal.path), TESTING=True, STATS_WARM_UP=False)
    page = app.test_client().get("/stats").get_data(as_text=True)
    assert '<b id="imported-count">2</b> plays imported from BG Stats or BoardGameGeek' in page
    assert app.test_client().get("/stats.json").get_json()["imported"] == 2


def test_a_play_taken_out_leaves_the_totals_as_made_afresh(
    catalog: Catalog, journal: Journal
) -> None:
    with journal.transaction() as db:  # play A (Ann 80 beats Ben 50) taken out by hand
        db.execute("DELETE FROM logged_plays WHERE uuid = 'a'")
    stats = both(catalog, journal)
    assert stats["imported"] == 1
    assert players(stats)["Ann"] == (3, 1, 1, 1.33)  # games 1, 3, 4: ranks 1 + 2 + 1
    assert [b["total"] for b in stats["best_scores"]] == [71, 57, 57]
    assert_same_as_made_afresh(journal)
