"""A real browser on the other pages at a narrow phone's width: where to type names is in the
top bar, the coach is on the live page's first screen, the players page's actions look like
buttons, the statistics' tables are not cut on the right."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from test_web_browser import browser, server, shot

from companion.records.journal import Journal
from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests


def _phone(browser: Any, width: int = 360, height: int = 740, scheme: str = "light") -> Any:
    viewport = {"width": width, "height": height}
    context = browser.new_context(viewport=viewport, device_scale_factor=2, color_scheme=scheme)
    return context.new_page()


@pytest.mark.parametrize("path", ["/history", "/scorepad", "/stats", "/games/1"])
def test_the_players_page_is_in_the_top_bar(client: FlaskClient, path: str) -> None:
    page = client.get(path).get_data(as_text=True)
    bar = page[page.index('<header class="top">') : page.index("</header>")]
    assert '<a href="/players">Players</a>' in bar


@pytest.mark.parametrize(("width", "height", "scheme"), [(360, 640, "light"), (390, 844, "dark")])
def test_the_coach_is_on_the_live_page_s_first_screen(
    browser: Any,
    server: WebServer,
    journal: Journal,
    records: dict[str, Any],
    width: int,
    height: int,
    scheme: str,
) -> None:
    game = journal.new_game()  # a game in age 1, cards to take listed above the board
    for record in records["civilian"][:12]:
        journal.append(game, record)
    page = _phone(browser, width, height, scheme)
    page.goto(f"{server.url}/games/{game}")
    playwright_api.expect(page.locator("#offers li").first).to_be_visible()
    summary = page.locator("#coach summary").bounding_box()
    assert summary is not None and summary["y"] + summary["height"] <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"live-coach-first-screen-{width}-{scheme}.png", full_page=False)
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_players_page_s_actions_look_like_buttons(
    browser: Any, server: WebServer, scheme: str
) -> None:
    page = _phone(browser, scheme=scheme)
    page.goto(f"{server.url}/players")
    summaries = page.locator("details.actions summary")
    playwright_api.expect(summaries).to_have_text(["Add a player", "Rename a player"])
    for index in range(2):
        look = summaries.nth(index).evaluate(
            """s => { const c = getComputedStyle(s), r = s.getBoundingClientRect();
               return [c.borderTopStyle, parseFloat(c.borderTopWidth) > 0,
                       parseFloat(c.borderTopLeftRadius) > 0, r.height >= 44, c.cursor]; }"""
        )
        assert look == ["solid", True, True, True, "pointer"]
    summaries.first.click()
    playwright_api.expect(page.locator("input[name=name]")).to_be_visible()
    shot(page, f"players-{scheme}.png", full_page=False)
    page.context.close()


def test_the_statistics_tables_are_not_cut_on_the_right(browser: Any, server: WebServer) -> None:
    page = _phone(browser)
    page.goto(f"{server.url}/stats")
    page.evaluate("document.querySelectorAll('details.numbers').forEach(d => d.open = true)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    outside = page.locator("form.filters").evaluate(
        """f => { const box = f.getBoundingClientRect();
           return [...f.querySelectorAll('select, input, button')].filter(e =>
             e.getBoundingClientRect().right > box.right + 0.5
           ).map(e => e.name || e.textContent); }"""
    )
    assert outside == []  # the filters inside their box
    # A table wider than the screen (the games and wins with the average rank, the points per
    # period) scrolls sideways inside its box with its first column kept in view.
    for index in range(page.locator("details.numbers .table-scroll").count()):
        numbers = page.locator("details.numbers .table-scroll").nth(index)
        numbers.evaluate("d => { d.scrollLeft = d.scrollWidth; }")
        outside = numbers.evaluate(
            """d => { const box = d.getBoundingClientRect();
               return [...d.querySelectorAll('tr > :first-child')].filter(c => {
                 const r = c.getBoundingClientRect();
                 return r.left < box.left - 0.5 || r.right > box.right + 0.5;
               }).map(c => c.textContent); }"""
        )
        assert outside == [], index
    assert page.locator("#players details.numbers summary").is_visible()  # not scrolled away
    page.locator("#players").scroll_into_view_if_needed()
    shot(page, "stats-numbers-360.png", full_page=False)
    page.context.close()
