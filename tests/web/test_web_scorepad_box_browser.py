"""A real browser reads two cities with the box's camera: generated camera frames through the
scanner thread and the run loop, the page polling and filling in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from conftest import CODE
from test_web_browser import PHONE, SCREENSHOTS, browser, phone
from test_web_scorepad_box import Box, box, box_pages

from companion.device.controller import Press
from companion.device.family_scan import scan_input
from companion.device.views import ReadingView
from companion.engine.cards import Catalog
from companion.vision.payloads import family_sticker_table, payload_for
from companion.vision.scanner import Scanner
from companion.vision.synth import city_frame
from web import WebServer

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser
__all__ = ["box", "browser"]  # the fixtures, shared with the other tests


def held(family: list[str], duel: tuple[str, ...] = (), seed: int = 0) -> np.ndarray:
    """A camera frame of cards held up under the box (grey, 8 bits, as the camera gives)."""
    table = family_sticker_table().by_id
    cards = [(c, table[c]) for c in family] + [(c, payload_for(c)) for c in duel]
    frame = np.clip(city_frame(cards, seed), 0, 255).astype(np.uint8)
    return frame if frame.ndim == 2 else frame.mean(axis=2).astype(np.uint8)


class HeldUp:
    """The box's camera: it sees whatever the test holds under it (`frame`)."""

    def __init__(self) -> None:
        self.frame = held([])

    def read(self) -> np.ndarray:
        return self.frame

    def close(self) -> None:
        pass


@pytest.fixture
def camera(box: Box) -> Iterator[HeldUp]:
    source = HeldUp()
    # the scanner as start_scanner wires it: each sticker newly shown is an input of the loop
    scanner = Scanner(lambda: source, on_scan=lambda scan: box.inbox.put(scan_input(scan)), fps=10)
    scanner.start()
    yield source
    scanner.stop()


@pytest.fixture
def box_server(box: Box, catalog: Catalog) -> Iterator[WebServer]:
    app = box_pages(box, catalog)
    with WebServer(app, "127.0.0.1", 0, threads=4) as running:
        yield running


def test_two_cities_are_read_with_the_boxs_camera(
    browser: Any, box: Box, camera: HeldUp, box_server: WebServer
) -> None:
    expect = playwright_api.expect
    page = phone(browser)
    page.goto(f"{box_server.url}/scorepad")
    seats = page.locator("#seats input")
    for i, name in enumerate(["Ann", "Bob", "Cid"]):
        seats.nth(i).fill(name)
        seats.nth(i).press("Tab")
    page.fill("#pairing", CODE)
    page.click("#box-read")
    line = page.locator("#box-line")
    expect(line).to_have_text("Reading Ann's city: 0 cards")
    # Ann holds the Palace (8) and the Temple (3) under the camera: 11.
    camera.frame = held(["palace", "temple"], seed=1)
    expect(line).to_have_text("Reading Ann's city: 2 cards", timeout=20_000)
    assert isinstance(box.app.view, ReadingView) and box.app.view.count == "2 cards"
    camera.frame = held([])
    box.put(Press("select"))  # the button: Bob's turn
    expect(line).to_have_text("Reading Bob's city: 0 cards")
    # Bob: Lodge, Study and University, one of each symbol: 1 + 1 + 1 + 7 = 10; a Duel card
    # among them is refused on the box and the page and adds nothing.
    camera.frame = held(["lodge", "study", "university"], duel=("altar",), seed=2)
    expect(line).to_contain_text("Reading Bob's city: 3 cards", timeout=20_000)
    expect(page.locator("#totals")).to_have_text("Total11100")
    expect(page.locator("#winner")).to_have_text("Winner: Ann")
    for card in ("Lodge", "Study", "University"):  # Bob's tab is open: the box reads his city
        expect(page.locator("#cards .card", has_text=card).first).to_have_attribute(
            "aria-pressed", "true"
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#box-read").is_hidden()  # one button at a time: stop while reading
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.getElementById('city').scrollIntoView()")
    page.screenshot(path=str(SCREENSHOTS / "scorepad-box.png"))
    page.click("#box-stop")
    expect(line).to_have_text("Reading stopped; the cards read stay.")
    assert box.app.reading is None
    expect(page.locator("#totals")).to_have_text("Total11100")
    page.context.close()
