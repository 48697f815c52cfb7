"""A real browser enters a 4-player 7 Wonders game on the phone-sized score pad page."""

from __future__ import annotations

import io
from typing import Any

import pytest
from conftest import CODE
from PIL import Image
from test_web_browser import PHONE, SCREENSHOTS, browser, phone, server

from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests


def _viewport_shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot()))
    image.convert("RGB").quantize(64).save(SCREENSHOTS / name, optimize=True)  # small commits


def _tap_cards(page: Any, *names: str) -> None:
    for name in names:
        page.locator("#cards .card", has_text=name).first.click()


def test_a_four_player_game_is_entered_and_the_winner_read(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    page.click("#add-player")  # 3 seats at first; a fourth
    seats = page.locator("#seats input")
    expect(seats).to_have_count(4)
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")
    # The boards are given in order: Alexandria, Babylon, Ephesus, Giza (all side A).
    tabs = page.locator("#tabs button")
    # Ann: Alexandria A, 3 stages (3 + 7 = 10) and the Palace (8): 18.
    tabs.nth(0).click()
    page.select_option("#stages", "3")
    _tap_cards(page, "Palace")
    # Bob: Babylon A, 2 stages (3 VP and a wildcard); compass, gear, tablet and the Scientists
    # Guild: both wildcards as compasses, 3/1/1: 9 + 1 + 1 + 7 = 18 (2/2/1 would be 16): 21.
    tabs.nth(1).click()
    page.select_option("#stages", "2")
    _tap_cards(page, "Apothecary", "Workshop", "Scriptorium", "Scientists Guild")
    # Cid: two Age III victories (5 + 5) and 9 coins (3): 13. Dee: nothing.
    tabs.nth(2).click()
    page.click("button.token[data-token='5']")
    page.click("button.token[data-token='5']")
    page.fill("#coins", "9")
    page.press("#coins", "Tab")
    expect(page.locator("#totals")).to_have_text("Total1821130")
    expect(page.locator("#winner")).to_have_text("Winner: Bob")
    note = "Scientists Guild counted as a compass: 18 VP"
    assert not page.get_by_text(note).first.is_visible()
    page.locator("details.row-science summary").click()  # a tap opens the row
    assert page.get_by_text(note).first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("document.getElementById('result').scrollIntoView()")
    _viewport_shot(page, "scorepad.png")  # the README shows the table, not the whole page
    # The game is over: saved in the history with the pairing code.
    page.fill("#pairing", CODE)
    page.click("#save-pad")
    page.wait_for_url(f"{server.url}/scorepad/1")
    expect(page.locator("#result .winner")).to_have_text("Winner: Bob")
    page.goto(f"{server.url}/history")
    expect(page.locator(".pads li").first).to_contain_text("Winner: Bob")
    expect(page.locator(".games li")).to_have_count(4)  # the Duel games, as before
    page.context.close()
