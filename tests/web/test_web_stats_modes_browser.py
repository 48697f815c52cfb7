"""The statistics' mode filter in a real browser: choosing Pantheon and pressing Show counts
the Pantheon game only (the journal of test_web_stats_modes: a base game, a Pantheon game)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from test_web_browser import PHONE, browser, phone  # noqa: F401 - the browser fixture
from test_web_stats_modes import journal_with_both

from companion.config import Config
from companion.engine.catalog import default_catalog
from web import WebServer, create_app

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    with journal_with_both(tmp_path / "modes.sqlite") as journal:
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE,
                         CATALOG=default_catalog(("pantheon",)))  # fmt: skip
        with WebServer(app, "127.0.0.1", 0, threads=4) as running:
            yield running


def test_the_mode_filter_counts_the_pantheon_game(browser: Any, server: WebServer) -> None:  # noqa: F811
    page = phone(browser)
    page.goto(f"{server.url}/stats")
    assert page.locator("#games-count").inner_text() == "2"
    assert page.locator("#mode-counts").inner_text() == "1 base, 1 Pantheon"
    page.select_option("select[name=mode]", "pantheon")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url("**mode=pantheon**")
    assert page.locator("#games-count").inner_text() == "1"
    assert page.locator("#categories").get_by_text("Divinities").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
