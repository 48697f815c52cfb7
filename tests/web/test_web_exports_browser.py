"""A real browser sends a Duel game and a family score pad to BG Stats, and reads the family's
statistics (the journal of tests/journal/exchange_games.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from exchange_games import build
from test_web_browser import PHONE, browser, phone, shot

from companion.config import Config
from companion.engine.cards import Catalog
from web import WebServer, create_app

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["browser"]


@pytest.fixture
def exchange_server(catalog: Catalog, tmp_path: Path) -> Iterator[WebServer]:
    build(catalog, tmp_path / "journal.sqlite").close()
    config = Config.defaults(journal=tmp_path / "journal.sqlite", name="Kitchen table")
    app = create_app(config, TESTING=True, CATALOG=catalog)
    with WebServer(app, "127.0.0.1", 0, threads=4) as running:
        yield running


def _sent(page: Any) -> dict[str, Any]:
    """Tap "Send to BG Stats" and return the play the link carried (BG Stats is stubbed)."""
    opened: list[str] = []

    def stub(route: Any) -> None:
        opened.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<p>BG Stats</p>")

    page.route("https://app.bgstatsapp.com/**", stub)
    page.click("#bgstats")
    page.wait_for_url("https://app.bgstatsapp.com/**")
    (url,) = opened
    parts = urlsplit(url)
    assert parts.path == "/createPlay.html"
    data: dict[str, Any] = json.loads(parse_qs(parts.query)["data"][0])
    return data


def test_a_finished_duel_is_sent_to_bg_stats(browser: Any, exchange_server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{exchange_server.url}/games/1/score")
    playwright_api.expect(page.locator("#bgstats")).to_have_text("Send to BG Stats")
    twin = page.context.request.get(f"{exchange_server.url}/games/1/bgstats.json").json()
    data = _sent(page)
    assert data == twin["data"]
    assert (data["sourceName"], data["playDate"], data["durationMin"], data["location"]) == (
        "Duel Companion", "2026-03-01 21:09:00", 69, "Kitchen table",
    )  # fmt: skip
    assert data["game"] == {"name": "7 Wonders Duel", "sourceGameId": "duel", "bggId": 173346,
                            "highestWins": True, "noPoints": False}  # fmt: skip
    players = [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"])
               for p in data["players"]]  # fmt: skip
    assert players == [("Ann", 57, 1, True, False), ("Ben", 38, 2, False, True)]
    assert data["comments"].startswith("Ann 57: blue 20, green 7,")
    page.context.close()


def test_a_saved_pad_is_sent_with_its_expansion(browser: Any, exchange_server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{exchange_server.url}/scorepad/1")
    data = _sent(page)
    assert data["game"]["bggId"] == 68448 and data["expansions"] == [
        {"name": "7 Wonders: Edifice", "sourceGameId": "edifice"}
    ]
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ann", 7, 2, False), ("Bob", 8, 1, True), ("Cid", 1, 3, False),
    ]  # fmt: skip
    assert "durationMin" not in data  # a pad has no real times
    page.context.close()


def test_family_statistics_name_boards_and_sides(browser: Any, exchange_server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{exchange_server.url}/stats?game=7wonders")
    expect = playwright_api.expect
    expect(page.locator("#games-count")).to_have_text("1")
    expect(page.locator("#victories")).to_have_count(0)  # the Duel's ideas are not shown
    expect(page.locator("#first")).to_have_count(0)
    ranks = page.locator("#players tr[data-label] td.rank")
    expect(ranks).to_have_text(["1.0", "2.0", "3.0"])  # Bob, Ann, Cid
    page.locator("#wonders summary").click()
    expect(page.locator("#wonders tr[data-label]").first).to_contain_text("The Colossus of Rhodes")
    page.locator("#sides summary").click()
    expect(page.locator("#sides tr[data-label]").first).to_contain_text(
        "The Colossus of Rhodes (B)"
    )
    expect(page.locator("#science-guilds")).to_contain_text("Science")
    expect(page.locator("#records")).to_contain_text("Wins in a row")
    assert "babylon" not in page.inner_text("main") and "rhodes:" not in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "stats-family.png")
    page.select_option("select[name=game]", "7wonders-two-player")
    page.click("form.filters button")
    expect(page.locator("#games-count")).to_have_text("1")
    expect(page.locator("#wonders")).to_contain_text("Alexandria")
    page.context.close()
