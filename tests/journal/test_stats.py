"""Statistics of the five hand-counted games of stats_games.py (see its table)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stats_games import build_journal

from companion.engine.cards import Catalog
from companion.records import stats as stats_module
from companion.records.archive import summarizer
from companion.records.game import Game
from companion.records.journal import Journal, Outcome
from companion.records.stats import GameFacts, select, statistics
from companion.records.summaries import FactsCache, load_facts, store_summary


@pytest.fixture(scope="module")
def journal(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journal]:
    journal = build_journal(catalog, tmp_path_factory.mktemp("stats") / "journal.sqlite")
    yield journal
    journal.close()


@pytest.fixture(scope="module")
def facts(catalog: Catalog, journal: Journal) -> list[GameFacts]:
    return load_facts(journal, summarizer(catalog, journal), FactsCache())


def stats_of(facts: list[GameFacts], **filters: Any) -> dict[str, Any]:
    return statistics(select(facts, **filters), filters.get("player"))


def test_summaries_are_written_when_each_game_finishes(journal: Journal) -> None:
    rows = journal.query("SELECT game_id, seq FROM game_summaries ORDER BY game_id")
    assert rows == [(g, journal.last_seq(g)) for g in (1, 2, 3, 4, 5)]


def test_games_wins_and_shared_victories_per_named_player(facts: list[GameFacts]) -> None:
    players = stats_of(facts)["players"]
    # Ann: games 1, 3, 4; won 1, shared 4, lost 3. Ben: 1, 2, 4; won 2, shared 4, lost 1.
    # Cleo: 2, 3; won 3, lost 2. Game 5 is unnamed: nobody's. Order: wins, then games, name.
    assert [(p["name"], p["games"], p["wins"], p["shared"], p["losses"]) for p in players] == [
        ("Ann", 3, 1, 1, 1),
        ("Ben", 3, 1, 1, 1),
        ("Cleo", 2, 1, 0, 1),
    ]
    assert [p["rate"] for p in players] == [0.333, 0.333, 0.5]  # 1/3, 1/3, 1/2


def test_a_shared_victory_counts_in_shared_not_civilian(facts: list[GameFacts]) -> None:
    # civilian: games 1 and 5; military 2; science 3; shared 4 (won on points, tied).
    result = stats_of(facts)
    assert result["victories"] == {"civilian": 2, "military": 1, "science": 1, "shared": 1}
    assert result["games"] == 5


def test_head_to_head_counts_each_pair_that_met(facts: list[GameFacts]) -> None:
    # Ann-Ben: game 1 (Ann) and 4 (shared); Ann-Cleo: game 3 (Cleo); Ben-Cleo: game 2 (Ben).
    assert stats_of(facts)["head_to_head"] == [
        {"players": ["Ann", "Ben"], "games": 2, "wins": [1, 0], "shared": 1},
        {"players": ["Ann", "Cleo"], "games": 1, "wins": [0, 1], "shared": 0},
        {"players": ["Ben", "Cleo"], "games": 1, "wins": [1, 0], "shared": 0},
    ]


def test_first_player_win_rate(facts: list[GameFacts]) -> None:
    # First players: 1 p2 lost, 2 p1 won, 3 p2 won, 4 p2 shared, 5 p2 lost: 2 wins of 5.
    assert stats_of(facts)["first_player"] == {"games": 5, "wins": 2, "shared": 1, "rate": 0.4}


def test_points_per_category_average_over_every_seat(facts: list[GameFacts]) -> None:
    categories = stats_of(facts)["categories"]
    assert categories["rows"] == [
        "blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military",
    ]  # fmt: skip
    assert categories["seats"] == 10
    # Sums over the 10 seats: blue 32+34+25+20+32 = 143, green 14+8+13+5+14 = 54,
    # yellow 12+6+9+12+12 = 51, purple 7+14+17+11+7 = 56, wonders 17+14+8+22+17 = 78,
    # progress 3+6+0+0+3 = 12, coins 5+10+8+14+5 = 42, military 5+0+2+2+5 = 14,
    # total 95+92+82+86+95 = 450.
    assert categories["average"] == {
        "blue": 14.3, "green": 5.4, "yellow": 5.1, "purple": 5.6, "wonders": 7.8,
        "progress": 1.2, "coins": 4.2, "military": 1.4, "total": 45.0,
    }  # fmt: skip


def test_points_over_time_by_month(facts: list[GameFacts]) -> None:
    # 2026-03-01 to 2026-04-02 is 32 days: by month. March: games 1-4, 8 seats, total
    # 95+92+82+86 = 355 / 8 = 44.375, blue 111 / 8 = 13.875. April: game 5, 95 / 2, 32 / 2.
    over = stats_of(facts)["over_time"]
    assert [(p["period"], p["games"]) for p in over] == [("2026-03", 4), ("2026-04", 1)]
    assert [(p["average"]["total"], p["average"]["blue"]) for p in over] == [
        (44.4, 13.9),
        (47.5, 16.0),
    ]


def test_wonders_with_how_often_their_owner_won(facts: list[GameFacts]) -> None:
    wonders = {row["id"]: row for row in stats_of(facts)["wonders"]}
    # Hanging Gardens: 1 p1 won, 2 p2 lost, 3 p1 lost, 4 p1 shared, 5 p1 won: 2 of 5.
    assert wonders["the_hanging_gardens"] == {
        "id": "the_hanging_gardens", "owned": 5, "won": 2, "rate": 0.4,
    }  # fmt: skip
    # Mausoleum: 1 won, 3 (p2) won, 4 shared, 5 won: 3 of 4.
    assert (wonders["the_mausoleum"]["owned"], wonders["the_mausoleum"]["won"]) == (4, 3)
    # Temple of Artemis: 1 lost, 4 shared, 5 lost.
    assert (wonders["the_temple_of_artemis"]["owned"], wonders["the_temple_of_artemis"]["won"]) == (
        3,
        0,
    )
    order = [row["id"] for row in stats_of(facts)["wonders"]][:4]
    assert order == [
        "the_hanging_gardens",
        "the_mausoleum",
        "the_appian_way",
        "the_great_lighthouse",
    ]
    assert len(wonders) == 11


def test_progress_tokens_with_how_often_their_owner_won(facts: list[GameFacts]) -> None:
    # mathematics: 1 won, 2 (p2) lost, 5 won; strategy: 1 and 5 lost; economy: 2 lost.
    assert stats_of(facts)["progress_tokens"] == [
        {"id": "mathematics", "owned": 3, "won": 2, "rate": 0.667},
        {"id": "strategy", "owned": 2, "won": 0, "rate": 0.0},
        {"id": "economy", "owned": 1, "won": 0, "rate": 0.0},
    ]


def test_longest_and_shortest_games_played_at_the_box(facts: list[GameFacts]) -> None:
    # Played at the box: 1 (69 minutes), 3 (130), 5 (34.5); 2 and 4 were imported.
    result = stats_of(facts)
    assert [(g["id"], g["minutes"]) for g in result["longest"]] == [
        (3, 130.0),
        (1, 69.0),
        (5, 34.5),
    ]
    assert [g["id"] for g in result["shortest"]] == [5, 1, 3]
    assert result["longest"][0]["winners"] == ["Cleo"]
    assert result["longest"][0]["cards"] == 59


def test_a_player_filter_keeps_their_games_and_counts_their_seat(facts: list[GameFacts]) -> None:
    result = stats_of(facts, player="Ann")
    # Ann played 1 (civilian win), 3 (science loss), 4 (shared).
    assert result["games"] == 3
    assert result["victories"] == {"civilian": 1, "military": 0, "science": 1, "shared": 1}
    # Her seat only: totals 57 + 42 + 43 = 142 / 3 = 47.3; blue 20 + 22 + 10 = 52 / 3 = 17.3.
    assert result["categories"]["seats"] == 3
    assert result["categories"]["average"]["total"] == 47.3
    assert result["categories"]["average"]["blue"] == 17.3
    # Her Hanging Gardens: games 1 (won), 3 (lost), 4 (shared).
    gardens = next(r for r in result["wonders"] if r["id"] == "the_hanging_gardens")
    assert (gardens["owned"], gardens["won"]) == (3, 1)
    assert [p["name"] for p in result["players"]] == ["Ann", "Cleo", "Ben"]


def test_a_period_keeps_the_games_finished_in_it(facts: list[GameFacts]) -> None:
    result = stats_of(facts, since="2026-03-04", until="2026-03-31")
    assert result["games"] == 2  # games 3 (March 5) and 4 (March 10)
    assert result["victories"] == {"civilian": 0, "military": 0, "science": 1, "shared": 1}
    # Within 31 days: by day.
    assert [p["period"] for p in result["over_time"]] == ["2026-03-05", "2026-03-10"]


def test_no_games_give_empty_statistics(facts: list[GameFacts]) -> None:
    result = stats_of(facts, player="Nobody")
    assert result["games"] == 0
    assert result["players"] == [] and result["over_time"] == []
    assert result["first_player"]["rate"] == 0.0 and result["categories"]["average"] == {}


def test_another_game_type_plugs_in_with_its_own_summary(catalog: Catalog, tmp_path: Path) -> None:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    game = journal.new_game()
    seq = journal.append(game, {"type": "scorepad"}, Outcome("finished", "Dora"))
    journal.set_players(game, {"1": "Ann", "2": "Dora", "3": "Ben"})
    scores = ("military", "treasury", "wonders", "civilian", "commercial", "guilds", "science")
    store_summary(
        journal,
        game,
        seq,
        {
            "game": "7wonders", "finished": "2026-04-03T21:00:00Z", "minutes": 50.0,
            "first": None, "winners": ["2"], "victory": "civilian",
            "seats": [
                {"seat": "1", "scores": dict.fromkeys(scores, 5), "total": 35},
                {"seat": "2", "scores": dict.fromkeys(scores, 7), "total": 49},
                {"seat": "3", "scores": dict.fromkeys(scores, 3), "total": 21},
            ],
        },
    )  # fmt: skip
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    base = stats_of(facts, game="7wonders")
    assert base["games"] == 1
    assert [(p["name"], p["wins"]) for p in base["players"]] == [
        ("Dora", 1),
        ("Ann", 0),
        ("Ben", 0),
    ]
    assert base["categories"]["rows"] == list(scores)
    assert base["categories"]["average"]["total"] == 35.0  # (35 + 49 + 21) / 3
    # Dora beat each of the others; Ann and Ben both lost: no win between them.
    assert {tuple(h["players"]): h["wins"] for h in base["head_to_head"]} == {
        ("Ann", "Ben"): [0, 0], ("Ann", "Dora"): [0, 1], ("Ben", "Dora"): [0, 1],
    }  # fmt: skip
    assert stats_of(facts)["games"] == 5  # Duel unchanged
    journal.close()


def test_a_missing_or_stale_summary_is_made_again_from_the_events(
    catalog: Catalog, tmp_path: Path, facts: list[GameFacts]
) -> None:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    with journal.transaction() as db:
        db.execute("DELETE FROM game_summaries WHERE game_id IN (1, 2)")
        db.execute("UPDATE game_summaries SET seq = 1 WHERE game_id = 3")
    made = load_facts(journal, summarizer(catalog, journal), FactsCache())
    assert sorted(made, key=lambda f: f.id) == sorted(facts, key=lambda f: f.id)
    journal.close()


def test_an_undo_after_the_end_takes_the_game_out_of_the_statistics(
    catalog: Catalog, tmp_path: Path
) -> None:
    journal = build_journal(catalog, tmp_path / "journal.sqlite")
    Game(catalog, journal, 5).undo(reopen=True)  # on the box, confirmed
    facts = load_facts(journal, summarizer(catalog, journal), FactsCache())
    assert stats_of(facts)["victories"]["civilian"] == 1  # only game 1 now
    journal.close()


def test_the_statistics_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(stats_module.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert names and all(name.split(".")[0] in sys.stdlib_module_names for name in names)
