"""A real browser enters a 4-player 7 Wonders game on the phone-sized score pad page."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from PIL import Image
from scorepad_frames import city_jpeg
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


def test_two_cities_are_scanned_from_generated_camera_frames(
    browser: Any, server: WebServer, tmp_path: Path
) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    expect = playwright_api.expect
    seats = page.locator("#seats input")
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")
    # Ann's photo: Palace (8) and Temple (3); Bob's: Lodge, Study and University (one of each
    # symbol: 1 + 1 + 1 + 7 = 10) and a Duel card, which the pad ignores.
    cities = {
        "Ann": (["palace", "temple"], ()),
        "Bob": (["lodge", "study", "university"], ("altar",)),
    }
    tabs = page.locator("#tabs button")
    for index, (name, (cards, duel)) in enumerate(cities.items()):
        photo = tmp_path / f"{name}.jpg"
        photo.write_bytes(city_jpeg(cards, seed=index, duel_ids=duel))
        tabs.nth(index).click()
        page.set_input_files("#photo", str(photo))
        expect(page.locator("#scanned")).to_contain_text(f"{name}: {len(cards)} card(s) read")
    expect(page.locator("#totals")).to_have_text("Total11100")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    tabs.nth(1).click()
    for card in ("Lodge", "Study", "University"):
        expect(page.locator("#cards .card", has_text=card).first).to_have_attribute(
            "aria-pressed", "true"
        )
    page.context.close()


def test_seven_players_fit_a_phone_width(browser: Any, server: WebServer) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/scorepad")
    for _ in range(4):
        page.click("#add-player")
    playwright_api.expect(page.locator("#seats input")).to_have_count(7)
    assert page.locator("#add-player").is_disabled()  # 7 is the most
    playwright_api.expect(page.locator("#totals .num")).to_have_count(7)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()
