"""The live page shows the last overhead reading as a picture: the view with each position of
the structure outlined and named (screenshot: docs/screenshots/ with UPDATE_REFERENCE=1,
else a temporary folder)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from PIL import Image
from test_web_browser import PHONE, browser, phone, shot  # noqa: F401 - the browser fixture
from test_web_live_table import table_journal

from companion.config import Config
from companion.engine.cards import Catalog
from companion.vision.decode import make_decoder
from companion.vision.picture import WIDTH, reading_png
from companion.vision.structure import read_structure
from companion.vision.table_synth import HandLaid, random_table
from web import WebServer, create_app

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def picture() -> bytes:
    """A hand-laid age 1 in the middle of the age, a hand over part of it, read as the
    device reads it."""
    still = ((0.0, 0.0),) * 20
    laid = HandLaid(23.5, 38.0, still, (0.0,) * 20, still)
    scene = random_table(3, age=1, moment="middle", hands=True, laid=laid)
    reading = read_structure(scene.frame, 1, make_decoder("zxing"), known=scene.known)
    assert reading.fit is not None and None in reading.slots  # a position it cannot tell
    return reading_png(scene.frame, reading, 1)


@pytest.fixture
def server(tmp_path: Path, catalog: Catalog, picture: bytes) -> Iterator[WebServer]:
    with table_journal(tmp_path / "table.sqlite", 10) as journal:
        app = create_app(Config.defaults(journal=journal.path), TESTING=True, PAIRING_CODE=CODE,
                         CATALOG=catalog, POLL_SECONDS=0.2, OVERHEAD=lambda: picture)  # fmt: skip
        with WebServer(app, "127.0.0.1", 0, threads=4) as running:
            yield running


def test_the_live_page_shows_the_last_reading_from_above(
    browser: Any,  # noqa: F811
    server: WebServer,
    picture: bytes,
) -> None:
    page = phone(browser)
    page.goto(f"{server.url}/games/1")
    image = page.locator("#overhead img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("document.querySelector('#overhead img').complete")
    assert page.evaluate("document.querySelector('#overhead img').naturalWidth") == WIDTH
    shown = image.bounding_box()
    assert shown is not None and 0 < shown["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert "red ? where the view cannot tell" in page.inner_text("#overhead figcaption")
    served = page.context.request.get(f"{server.url}/games/1/overhead.png")
    assert served.headers["content-type"] == "image/png" and served.body() == picture
    assert Image.open(io.BytesIO(served.body())).size[0] == WIDTH
    page.locator("#overhead").screenshot(path=str(_path("live-overhead-reading.png")))
    shot(page, "live-overhead-page.png", full_page=False)
    page.context.close()


def _path(name: str) -> Path:
    from test_web_browser import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name


def test_no_picture_when_the_box_does_not_play_from_above(tmp_path: Path, catalog: Catalog) -> None:
    with table_journal(tmp_path / "plain.sqlite", 10) as journal:
        client = create_app(Config.defaults(journal=journal.path), TESTING=True,
                            CATALOG=catalog).test_client()  # fmt: skip
        assert client.get("/games/1/overhead.png").status_code == 404
        assert b'id="overhead"' not in client.get("/games/1").data
        nothing = create_app(Config.defaults(journal=journal.path), TESTING=True,
                             CATALOG=catalog, OVERHEAD=lambda: None).test_client()  # fmt: skip
        assert nothing.get("/games/1/overhead.png").status_code == 404
        assert nothing.get("/games/9/overhead.png").status_code == 404
