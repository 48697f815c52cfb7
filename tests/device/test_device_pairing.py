"""The pairing code is renewed from the box: left on the phone screen; the pages take the new
code at once and refuse the old one."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from companion.config import Config
from companion.device.controller import Mode, Press
from companion.device.views import PhoneView
from companion.engine.cards import Catalog
from companion.records.journal import Journal
from companion.service.loop import App
from companion.service.root import open_journal
from web import create_app
from web.security import renew_pairing


class FrameRecorder:
    def __init__(self) -> None:
        self.images: list[object] = []

    def show(self, image: object) -> None:
        self.images.append(image)


def test_left_on_the_phone_screen_renews_the_code_the_pages_check(
    catalog: Catalog, tmp_path: Path
) -> None:
    with open_journal(tmp_path / "journal.sqlite") as journal:
        pages: Flask = create_app(
            Config.defaults(journal=journal.path), TESTING=True, CATALOG=catalog
        )
        recorder = FrameRecorder()
        app = App(catalog, journal, recorder, phone_url="http://192.168.1.23:8000/")  # type: ignore[arg-type]
        app.pairing = old = str(pages.config["PAIRING_CODE"])
        app.renew_pairing = lambda: renew_pairing(pages)
        app.start()
        assert app.ui.mode is Mode.PHONE
        app.handle(Press("left"))
        new = str(pages.config["PAIRING_CODE"])
        assert new != old and app.pairing == new
        assert app.ui.mode is Mode.PHONE and isinstance(app.view, PhoneView)
        assert (app.view.pairing, app.view.notice) == (new, "New code")
        client = pages.test_client()
        path = "/api/games"
        for code, status in ((old, 403), (new.lower().replace("-", " "), 415)):
            answer = client.post(path, data=b"", headers={"X-Pairing-Code": code})
            assert answer.status_code == status  # 415: past the code, refused for its body


def test_the_code_cannot_be_renewed_when_no_pages_are_served(
    catalog: Catalog, tmp_path: Path
) -> None:
    with Journal.create(tmp_path / "journal.sqlite") as journal:
        app = App(catalog, journal, FrameRecorder(), phone_url="http://x/")  # type: ignore[arg-type]
        app.pairing = "K7QM-4XRT"
        app.start()
        app.handle(Press("left"))
        assert app.pairing == "K7QM-4XRT"
