"""The history a page at a time, pages gzipped for phones that accept it, and times sent in
UTC for the phone to show in its own time zone."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.config import Config
from companion.engine.cards import Catalog
from companion.records.journal import Journal
from web import create_app
from web.history import PAGE_SIZE

GAMES = 120  # 50 + 50 + 20: three pages
START = datetime(2026, 11, 25, 23, 50, tzinfo=UTC)


@pytest.fixture
def many(tmp_path: Path, catalog: Catalog) -> Iterator[FlaskClient]:
    """120 games, one started every minute from 23:50 UTC on 25 November 2026."""
    minutes = iter(range(GAMES))
    clock = lambda: START + timedelta(minutes=next(minutes))  # noqa: E731
    with Journal.create(tmp_path / "journal.sqlite", clock=clock) as journal:
        for _ in range(GAMES):
            journal.new_game()
    app = create_app(Config.defaults(journal=tmp_path / "journal.sqlite"), CATALOG=catalog)
    yield app.test_client()


def ids(client: FlaskClient, page: int) -> list[int]:
    return [g["id"] for g in client.get(f"/history.json?page={page}").get_json()["games"]]


def test_the_history_is_paged_newest_first(many: FlaskClient) -> None:
    assert PAGE_SIZE == 50
    assert ids(many, 1) == list(range(120, 70, -1))  # the 50 newest
    assert ids(many, 2) == list(range(70, 20, -1))
    assert ids(many, 3) == list(range(20, 0, -1))  # the 20 left
    view = many.get("/history.json?page=3").get_json()
    assert (view["page"], view["pages"], view["total"]) == (3, 3, 120)
    first = many.get("/history").get_data(as_text=True)
    assert first.count('<li><a href="/games/') == 50
    assert 'href="/history?page=2">Older' in first and "Newer" not in first
    last = many.get("/history?page=3").get_data(as_text=True)
    assert 'href="/history?page=2">Newer' in last and "Older" not in last


@pytest.mark.parametrize("page", ["0", "4", "x", "-1", "1.5"])
def test_a_page_that_does_not_exist_is_404(many: FlaskClient, page: str) -> None:
    assert many.get(f"/history?page={page}").status_code == 404
    assert many.get(f"/history.json?page={page}").status_code == 404


def test_pages_are_gzipped_for_a_phone_that_accepts_it(many: FlaskClient) -> None:
    plain = many.get("/history")
    zipped = many.get("/history", headers={"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert len(zipped.get_data()) * 4 < len(plain.get_data())
    as_json = many.get("/history.json", headers={"Accept-Encoding": "gzip"})
    assert as_json.headers["Content-Encoding"] == "gzip"


def test_static_files_and_refusals_of_gzip_are_sent_as_they_are(many: FlaskClient) -> None:
    refused = many.get("/history", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers
    static = many.get("/static/style.css", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in static.headers
    static.close()  # a file sent from disk


def test_times_are_sent_in_utc_for_the_phone_to_show_in_its_own_zone(many: FlaskClient) -> None:
    game = many.get("/history.json?page=3").get_json()["games"][-1]  # the first game
    assert game["started"] == "2026-11-25T23:50:00Z"
    assert game["started_text"] == "2026-11-25 23:50 UTC"
    page = many.get("/history?page=3").get_data(as_text=True)
    assert (
        '<time datetime="2026-11-25T23:50:00Z" data-local="date">2026-11-25 23:50 UTC</time>'
        in page
    )
    assert 'src="/static/local-time.js"' in page


def test_each_saved_pad_in_the_history_says_its_game(client: FlaskClient, journal: Journal) -> None:
    from companion.family.catalog import default_family_catalog
    from companion.records.pads import save_pad

    def city(name: str, wonder: str, coins: int, **extra: Any) -> dict[str, Any]:
        return {"name": name, "wonder": wonder, "side": "A", "stages": 0, "cards": [],
                "coins": coins, "military": [], **extra}  # fmt: skip

    def dice_city(name: str, market: int) -> dict[str, Any]:
        return {"name": name, "warehouse": 0, "gold_reserve": 0, "wonder": 0, "barracks": [],
                "agora": 0, "agora_first": False, "market": market, "university": 0,
                "guild_court": 0, "unused_coins": 0, "bonuses": 0}  # fmt: skip

    family = default_family_catalog()
    base = [city("Ann", "giza", 9), city("Bob", "rhodes", 3), city("Cid", "ephesus", 0)]
    save_pad(journal, family, {"game": "7wonders", "variant": "base", "players": base})
    two = [city("Ann", "giza", 9), city("Bob", "rhodes", 3),
           city("Free City", "ephesus", 0, free_city=True)]  # fmt: skip
    save_pad(journal, family, {"game": "7wonders", "variant": "two-player", "players": two})
    dice = [dice_city("Ann", 5), dice_city("Bob", 2)]
    save_pad(journal, family, {"game": "7wonders-dice", "players": dice})
    page = client.get("/history").get_data(as_text=True)
    listed = page.split('<ul class="pads">')[1].split("</ul>")[0].split("<li>")[1:]
    games = [
        " ".join(item.split("<span")[1].split(">", 1)[1].split("<")[0].split()) for item in listed
    ]
    assert games == ["7 Wonders Dice", "7 Wonders for two", "7 Wonders"]  # newest first
    # and so does each pad's own page, and its JSON twin
    pads = [p["id"] for p in client.get("/api/pads").get_json()]
    names = [client.get(f"/scorepad/{pad}.json").get_json()["game_name"] for pad in pads]
    assert names == games
    assert '<p class="muted">7 Wonders for two · saved' in client.get(
        f"/scorepad/{pads[1]}"
    ).get_data(as_text=True)
