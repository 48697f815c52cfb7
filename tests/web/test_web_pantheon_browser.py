"""The Pantheon on the phone in a real browser: the live board's Pantheon section laid out on a
narrow screen, and the score pad's divinities row (screenshots: docs/screenshots/ with
UPDATE_REFERENCE=1, else a temporary folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from test_web_browser import PHONE, browser, phone, shot  # noqa: F401 - the browser fixture
from test_web_pantheon import pantheon_journal

from companion.config import Config
from companion.engine.catalog import default_catalog
from web import WebServer, create_app

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    """Game 1: age 2, Ann to play; game 2: the whole game."""
    with pantheon_journal(tmp_path / "pantheon.sqlite", 46, 10_000) as journal:
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE,
                         CATALOG=default_catalog(("pantheon",)), POLL_SECONDS=0.2)  # fmt: skip
        with WebServer(app, "127.0.0.1", 0, threads=4) as running:
            yield running


def test_the_pantheon_board_on_a_phone(browser: Any, server: WebServer) -> None:  # noqa: F811
    page = phone(browser)
    page.goto(f"{server.url}/games/1")
    rows = page.locator("#pantheon tbody tr")
    assert rows.count() == 6
    assert rows.nth(1).locator("td").all_inner_texts() == ["2", "Gate", "6 coins", "14 coins"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#pantheon").scroll_into_view_if_needed()
    shot(page, "live-pantheon.png", full_page=True)
    page.context.close()


def test_the_score_pad_shows_the_divinities_row(browser: Any, server: WebServer) -> None:  # noqa: F811
    page = phone(browser)
    page.goto(f"{server.url}/games/2/score")
    assert page.get_by_text("Divinities").count() >= 1
    shot(page, "score-pantheon.png", full_page=True)
    page.context.close()
