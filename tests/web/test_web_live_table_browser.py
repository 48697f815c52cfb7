"""The live page at the table in a real browser: the accessible cards with their prices, and
the guided entry's prompt following each scan (screenshots: docs/screenshots/ with
UPDATE_REFERENCE=1, else a temporary folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from test_web_browser import PHONE, browser, phone, shot  # noqa: F401 - the browser fixture
from test_web_live_table import table_journal

from companion.config import Config
from companion.device.ui import Mode, UiState
from companion.engine.cards import Catalog
from companion.records.game import SCREEN_KEY
from companion.records.journal import Journal
from web import WebServer, create_app

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Journal]:
    """Game 1: the partial-deals record after its setup; game 2: after 10 events (age 1,
    Ann to play, with cards turned up)."""
    with table_journal(tmp_path / "table.sqlite", 1, 10) as journal:
        yield journal


@pytest.fixture
def server(table: Journal, catalog: Catalog) -> Iterator[WebServer]:
    app = create_app(Config.defaults(journal=table.path), TESTING=True, PAIRING_CODE=CODE,
                     CATALOG=catalog, POLL_SECONDS=0.2)  # fmt: skip
    with WebServer(app, "127.0.0.1", 0, threads=4) as running:
        yield running


def test_the_cards_to_take_with_their_prices(browser: Any, server: WebServer) -> None:  # noqa: F811
    page = phone(browser)
    page.goto(f"{server.url}/games/2")
    live = page.context.request.get(f"{server.url}/games/2.json").json()
    rows = page.locator("#offers li")
    assert rows.count() == len(live["accessible"]) > 0
    first = live["accessible"][0]
    assert rows.first.locator(".name").inner_text() == first["name"]
    assert rows.first.locator(".price").inner_text() == first["price"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#offers").screenshot()  # visible and laid out
    shot(page, "live-cards-to-take.png", full_page=False)
    page.context.close()


def test_the_guided_prompt_follows_each_scan(
    browser: Any,  # noqa: F811
    server: WebServer,
    table: Journal,
) -> None:
    page = phone(browser)
    table.set_meta(1, SCREEN_KEY, UiState(mode=Mode.GUIDED, events=1).to_json())
    page.goto(f"{server.url}/games/1")
    assert page.inner_text("#asked").split("\n") == ["Age 1: 0/12 cards", "Scan row 1, card 1 of 2"]
    scanned = UiState(mode=Mode.GUIDED, dealt=("workshop",), events=1)
    table.set_meta(1, SCREEN_KEY, scanned.to_json())  # a card scanned: no event, a new prompt
    from playwright.sync_api import expect

    expect(page.locator("#asked")).to_have_text(
        "Age 1: 1/12 cards Scan row 1, card 2 of 2", timeout=10000
    )  # fmt: skip (text, not layout)
    shot(page, "live-guided-prompt.png", full_page=False)
    page.context.close()
