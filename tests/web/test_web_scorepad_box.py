"""The score pad reads cities with the box's camera: the page's writes and polls go through
the run loop's queue (its App stays the journal's one writer)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CODE
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from companion.config import Config
from companion.device.controller import Press
from companion.device.family_scan import BaseGameScan
from companion.engine.cards import Catalog
from companion.service.bridge import LoopControl
from companion.service.loop import App, run_loop
from companion.service.root import open_journal
from web import create_app

HEADERS = {"X-Pairing-Code": CODE}


class Box:
    """A run loop on its own thread over a journal, as `duel-companion run` has it."""

    def __init__(self, catalog: Catalog, path: Path) -> None:
        self.app = App(catalog, open_journal(path), self)
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=run_loop, args=(self.app, self.inbox, self.stop), kwargs={"tick": 0.05}
        )
        self.frames: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.frames.append(image)

    def put(self, *given: Any) -> None:
        """Inputs from the buttons and the camera, handled before this returns."""
        for one in given:
            self.inbox.put(one)
        self.inbox.join()


@pytest.fixture
def box(catalog: Catalog, tmp_path: Path) -> Iterator[Box]:
    made = Box(catalog, tmp_path / "journal.sqlite")
    made.thread.start()
    yield made
    made.stop.set()
    made.inbox.put(None)
    made.thread.join(timeout=10)
    made.app.journal.close()


def box_pages(box: Box, catalog: Catalog) -> Flask:
    """The phone pages as the box serves them: changes through its loop's queue."""
    return create_app(
        Config.defaults(journal=box.app.journal.path),
        TESTING=True,
        PAIRING_CODE=CODE,
        CATALOG=catalog,
        CONTROL=LoopControl(box.inbox),
    )


@pytest.fixture
def box_client(box: Box, catalog: Catalog) -> FlaskClient:
    return box_pages(box, catalog).test_client()


def test_the_page_starts_a_reading_and_the_cities_fill_in(
    box: Box, box_client: FlaskClient
) -> None:
    started = box_client.post(
        "/scorepad/box.json", json={"players": ["Ann", "Bob", "Cid"]}, headers=HEADERS
    )
    assert started.status_code == 200
    assert started.json["line"] == "Reading Ann's city: 0 cards"
    box.put(
        BaseGameScan("palace"), BaseGameScan("lumber_yard"), Press("select"), BaseGameScan("haven")
    )
    polled = box_client.get("/scorepad/box.json").json
    assert polled["reading"] and polled["current"] == 1
    assert polled["players"] == [
        {"name": "Ann", "cards": ["palace", "lumber_yard"]},
        {"name": "Bob", "cards": ["haven"]},
        {"name": "Cid", "cards": []},
    ]
    assert polled["line"] == "Reading Bob's city: 1 card"
    # Bob's Haven scanned twice: refused, said on the page and the box alike.
    box.put(BaseGameScan("haven"))
    polled = box_client.get("/scorepad/box.json").json
    assert polled["notice"] == "Already read: Haven"
    assert box.app.view is not None and box.app.view.notice == polled["notice"]
    # The page ends the reading: the cities as they were come back, the Duel screen returns.
    stopped = box_client.delete("/scorepad/box.json", headers=HEADERS)
    assert stopped.status_code == 200 and stopped.json["players"][1]["cards"] == ["haven"]
    assert box_client.get("/scorepad/box.json").json["reading"] is False


def test_a_reading_needs_the_pairing_code_and_names(box: Box, box_client: FlaskClient) -> None:
    body = {"players": ["Ann", "Bob", "Cid"]}
    assert box_client.post("/scorepad/box.json", json=body).status_code == 403
    assert box_client.delete("/scorepad/box.json").status_code == 403
    refused = box_client.post(
        "/scorepad/box.json", json={"players": ["Ann", "Ann"]}, headers=HEADERS
    )
    assert refused.status_code == 422 and "same name" in refused.json["error"]
    bad = box_client.post("/scorepad/box.json", json={"players": "Ann"}, headers=HEADERS)
    assert bad.status_code == 422
    assert box_client.get("/scorepad/box.json").json["reading"] is False  # nothing started
    assert box.app.reading is None


def test_pages_served_without_the_box_say_so(client: FlaskClient) -> None:
    answer = client.post(
        "/scorepad/box.json", json={"players": ["Ann", "Bob", "Cid"]}, headers=HEADERS
    )
    assert answer.status_code == 409
    assert answer.json["error"].startswith("Reading cities needs the box's camera")
    assert client.get("/scorepad/box.json").status_code == 409


def test_a_pad_saved_while_the_box_runs_goes_through_its_loop(
    box: Box, box_client: FlaskClient
) -> None:
    sheet = {
        "game": "7wonders",
        "players": [
            {
                "name": n,
                "wonder": w,
                "side": "A",
                "stages": 0,
                "cards": [],
                "coins": coins,  # not a blank pad, which is refused
                "military": [],
            }
            for n, w, coins in (("Ann", "giza", 3), ("Bob", "rhodes", 0), ("Cid", "olympia", 6))
        ],
    }
    saved = box_client.post("/api/pads", json=sheet, headers=HEADERS)
    assert saved.status_code == 201
    assert [p["id"] for p in box_client.get("/api/pads").json] == [saved.json["id"]]
