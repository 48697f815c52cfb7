"""Statistics every game has (average rank, streaks, best scores, biggest margins) and those of
the family's score pads (boards and sides by win rate, science and guilds, the two-player
variant apart), counted by hand."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from stats_games import Clock, build_journal

from companion.engine.cards import Catalog
from companion.family.catalog import default_family_catalog
from companion.records.archive import summarizer
from companion.records.journal import Journal
from companion.records.pad_stats import PAD_IDS, pad_facts
from companion.records.pads import save_pad
from companion.records.stats import GameFacts, select, statistics
from companion.records.summaries import FactsCache, load_facts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "family"))
from family_sheets import player, sheet

# Three base games (A, B, C) and one two-player game (D), saved a day apart:
# A: Ann Giza A 1 stage + Temple + 4 coins = 7, Bob Rhodes B Palace = 8 (wins),
#    Cid Ephesus A 3 coins = 1
# B: Ann Giza A Palace = 8 (wins), Bob Rhodes B 3 coins = 1, Cid Ephesus A Temple = 3
# C: Ann Giza B Altar = 2, Bob Rhodes B Palace = 8 (wins), Cid Ephesus A Baths 3 + Scriptorium
#    (one tablet: science 1) + Magistrates Guild (the neighbours' blue cards, Altar and Palace:
#    guilds 2) = 6
# D (two-player): Ann Babylon A Altar = 2, Bob Alexandria A 6 coins = 2 (wins on coins)
PADS = [
    sheet(player("Ann", "giza", ["temple"], stages=1, coins=4),
          player("Bob", "rhodes", ["palace"], side="B"), player("Cid", "ephesus", coins=3)),
    sheet(player("Ann", "giza", ["palace"]), player("Bob", "rhodes", side="B", coins=3),
          player("Cid", "ephesus", ["temple"])),
    sheet(player("Ann", "giza", ["altar"], side="B"),
          player("Bob", "rhodes", ["palace"], side="B"),
          player("Cid", "ephesus", ["baths", "scriptorium", "magistrates_guild"])),
    {**sheet(player("Ann", "babylon", ["altar"]), player("Bob", "alexandria", coins=6),
             player("Free City", "olympia", free_city=True)), "variant": "two-player"},
]  # fmt: skip


@pytest.fixture(scope="module")
def journal(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journal]:
    clock = Clock()
    journal = build_journal(catalog, tmp_path_factory.mktemp("records") / "j.sqlite", clock)
    for day, pad in enumerate(PADS, start=10):
        clock.now = datetime(2026, 4, day, 20, 0, tzinfo=UTC)
        save_pad(journal, default_family_catalog(), pad)
    yield journal
    journal.close()


@pytest.fixture(scope="module")
def facts(catalog: Catalog, journal: Journal) -> list[GameFacts]:
    duel = load_facts(journal, summarizer(catalog, journal), FactsCache())
    return duel + pad_facts(journal, default_family_catalog(), {})


def stats_of(facts: list[GameFacts], game: str = "duel", **filters: Any) -> dict[str, Any]:
    return statistics(select(facts, game=game, **filters), filters.get("player"), game)


def test_duel_average_rank_streaks_best_scores_and_margins(facts: list[GameFacts]) -> None:
    result = stats_of(facts)
    # ranks: Ann 1 (game 1), 2 (3), 1 (4, shared); Ben 2, 1, 1; Cleo 2, 1
    assert {p["name"]: p["average_rank"] for p in result["players"]} == {
        "Ann": 1.33, "Ben": 1.33, "Cleo": 1.5,
    }  # fmt: skip
    # outright wins in a row: Ann won game 1 only, Ben game 2, Cleo game 3 (her last); the
    # shared game 4 ends Ann's and Ben's runs
    assert result["streaks"] == [
        {"name": "Cleo", "longest": 1, "current": 1},
        {"name": "Ann", "longest": 1, "current": 0},
        {"name": "Ben", "longest": 1, "current": 0},
    ]
    assert [(b["id"], b["name"], b["total"]) for b in result["best_scores"]] == [
        (2, "Cleo", 71), (1, "Ann", 57), (5, "", 57),
    ]  # fmt: skip
    # won on points: games 1 and 5 (57 - 38); military, science and shared games are not
    assert [(m["id"], m["winner"], m["margin"]) for m in result["margins"]] == [
        (1, "Ann", 19), (5, "", 19),
    ]  # fmt: skip


def test_family_players_streaks_records_and_no_duel_ideas(facts: list[GameFacts]) -> None:
    result = stats_of(facts, "7wonders")
    assert result["games"] == 3
    # ranks: Ann 2, 1, 3; Bob 1, 3, 1; Cid 3, 2, 2
    assert [(p["name"], p["wins"], p["average_rank"]) for p in result["players"]] == [
        ("Bob", 2, 1.67), ("Ann", 1, 2.0), ("Cid", 0, 2.33),
    ]  # fmt: skip
    assert [(s["name"], s["longest"], s["current"]) for s in result["streaks"]] == [
        ("Bob", 1, 1), ("Ann", 1, 0), ("Cid", 0, 0),
    ]  # fmt: skip
    assert [(b["id"] - PAD_IDS, b["name"], b["total"]) for b in result["best_scores"]] == [
        (1, "Bob", 8), (2, "Ann", 8), (3, "Bob", 8),
    ]  # fmt: skip
    # A: 8 - 7; B: 8 - 3; C: 8 - 6
    assert [(m["id"] - PAD_IDS, m["winner"], m["margin"]) for m in result["margins"]] == [
        (2, "Ann", 5), (3, "Bob", 2), (1, "Bob", 1),
    ]  # fmt: skip
    assert not {"victories", "first_player", "progress_tokens"} & result.keys()


def test_family_boards_and_sides_by_win_rate(facts: list[GameFacts]) -> None:
    result = stats_of(facts, "7wonders")
    assert [(w["id"], w["owned"], w["won"]) for w in result["wonders"]] == [
        ("rhodes", 3, 2), ("giza", 3, 1), ("ephesus", 3, 0),
    ]  # fmt: skip
    assert [(s["id"], s["owned"], s["won"]) for s in result["sides"]] == [
        ("rhodes:B", 3, 2), ("ephesus:A", 3, 0), ("giza:A", 2, 1), ("giza:B", 1, 0),
    ]  # fmt: skip


def test_family_science_and_guild_points(facts: list[GameFacts]) -> None:
    found = stats_of(facts, "7wonders")["science_and_guilds"]
    # nine seats: one tablet (1) and the Magistrates Guild (2), both Cid's in game C
    assert found == {
        "science": {"average": 0.1, "most": {"points": 1, "id": PAD_IDS + 3, "name": "Cid"}},
        "guilds": {"average": 0.2, "most": {"points": 2, "id": PAD_IDS + 3, "name": "Cid"}},
    }


def test_the_two_player_variant_is_counted_apart(facts: list[GameFacts]) -> None:
    two = stats_of(facts, "7wonders-two-player")
    assert two["games"] == 1
    assert [(p["name"], p["wins"], p["average_rank"]) for p in two["players"]] == [
        ("Bob", 1, 1.0), ("Ann", 0, 2.0),
    ]  # fmt: skip
    assert two["margins"] == [{"id": PAD_IDS + 4, "winner": "Bob", "margin": 0,
                               "finished": "2026-04-13T20:00:00Z"}]  # fmt: skip
