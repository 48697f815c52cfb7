"""The statistics page in a real browser, 360 px wide, with plays imported from BG Stats and
BoardGameGeek: it says how many are counted and counts them in the players' figures (the
journal and plays of tests/journal/test_stats_imported.py, numbers worked out there)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from stats_games import build_journal
from test_stats_imported import PLAYS
from test_web_browser import browser  # noqa: F401 - the browser fixture

from companion.config import Config
from companion.engine.cards import Catalog
from companion.records.logged import add_plays
from web import WebServer, create_app

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 780}
SCREENSHOT = Path(tempfile.gettempdir()) / "duel-companion-screenshots" / "stats-imported-360.png"


@pytest.fixture
def server(catalog: Catalog, tmp_path: Path) -> Iterator[WebServer]:
    with build_journal(catalog, tmp_path / "journal.sqlite") as journal:
        add_plays(journal, PLAYS)
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE)
        with WebServer(app, "127.0.0.1", 0, threads=4) as running:
            yield running


def test_the_page_counts_imported_plays_at_360_px(browser: Any, server: WebServer) -> None:  # noqa: F811
    context = browser.new_context(viewport=NARROW, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"{server.url}/stats")
    assert page.locator("#games-count").inner_text() == "5"
    assert page.locator("#imported-count").inner_text() == "2"
    summary = page.locator("p.summary").inner_text()
    assert "2 plays imported from BG Stats or BoardGameGeek" in summary
    ann = page.locator("#players tr[data-label=Ann] td")
    assert ann.nth(1).text_content() == "4"  # games 1, 3, 4 and play A
    assert page.locator("#records tr[data-label=Cleo] [data-name=longest]").text_content() == "2"
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    context.close()
