"""The review in a real browser, for the games the box records most: one played in table mode
(the default: no deal known) and one entered with guided entry (partial deals and reveals).
Each page answers 200, and the numbers of its costliest moves are those its chart draws.
(Screenshots of the pages go to a temporary folder.)"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import PHONE, browser, phone, server  # noqa: F401 - fixtures

from companion.engine.cards import Catalog
from companion.records.game import import_record
from companion.records.journal import Journal
from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "table": ROOT / "companion" / "demo" / "game.jsonl",
    "guided": ROOT / "tests" / "records" / "partial_deals_civilian_win.jsonl",
}


def drawn_points(svg: str) -> list[list[float]]:
    """The y of each point of each line of the chart (pygal draws a path a player)."""
    paths = re.findall(r'<g class="series serie-\d+ color-\d+"><path d="M([^"]+)"', svg)
    lines = []
    for path in paths:
        numbers = [float(n) for n in path.replace("L", " ").split()]
        lines.append(numbers[1::2])
    return lines


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_review_of_a_game_answers_and_its_moves_agree_with_the_chart(
    browser: Any,  # noqa: F811
    server: WebServer,  # noqa: F811
    journal: Journal,
    catalog: Catalog,
    kind: str,
) -> None:
    game = import_record(catalog, journal, GAMES[kind].read_text().splitlines())
    page = phone(browser)
    answer = page.goto(f"{server.url}/games/{game}/review")
    assert answer is not None and answer.status == 200
    chart = page.locator(".review-chart img")
    playwright_api.expect(chart).to_be_visible(timeout=300_000)  # the page reloads until ready
    assert page.evaluate("document.querySelector('.review-chart img').naturalWidth") > 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the chart's numbers, one tap away
    page.locator(".review-chart details.numbers summary").click()
    table: dict[str, list[int]] = {"p1": [], "p2": []}
    for row in page.locator(".review-chart tr[data-event]").all():
        for player in table:
            table[player].append(int(row.locator(f'td[data-name="{player}"]').inner_text()))
    assert all(a + b in (99, 100, 101) for a, b in zip(table["p1"], table["p2"], strict=True))
    # the chart draws them: each line's y is one straight map of the table's numbers
    svg = page.request.get(f"{server.url}/games/{game}/review.svg").text()
    for player, ys in zip(("p1", "p2"), drawn_points(svg), strict=True):
        values = table[player]
        assert len(ys) == len(values)
        low, high = values.index(min(values)), values.index(max(values))
        scale = (ys[high] - ys[low]) / (values[high] - values[low])
        for value, y in zip(values, ys, strict=True):
            assert y == pytest.approx(ys[low] + scale * (value - values[low]), abs=0.01)
    # every costliest move: the chance after it is the table's number at its event
    moves = 0
    for player in ("p1", "p2"):
        for item in page.locator(f"#costliest-{player} li[data-event]").all():
            event = int(str(item.get_attribute("data-event")))
            text = item.inner_text()
            found = re.search(r"gave away (\d+)\s%.*\((\d+)\s% after it\).*, (\d+)\s% to win", text,
                              re.S)  # fmt: skip
            assert found, text
            cost, after, best = (int(n) for n in found.groups())
            assert after == table[player][event]
            assert cost == best - after > 0
            moves += 1
    assert moves >= 2
    fitted = page.locator("#review-fitted")
    if kind == "table":
        assert "Ages 1, 2 and 3 were played without the cards" in fitted.inner_text()
    else:
        assert fitted.count() == 0
    page.screenshot(path=Path(tempfile.gettempdir()) / f"review-{kind}.png", full_page=True)
    page.context.close()
