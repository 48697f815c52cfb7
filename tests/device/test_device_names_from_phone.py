"""The names given on the phone are the names the OLED says: "Bob: scan a card" on the box as
"Bob to play" on the phone, during the game and after a restart (the names live in the
journal). The frames are drawn through luma's dummy device."""

from __future__ import annotations

import threading
from pathlib import Path

from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.device.views import IdleView
from companion.engine.cards import Catalog
from companion.inputs import Input, Press, Scan
from companion.records.journal import Journal
from companion.service.loop import App, Call

TOKENS = ("economy", "law", "architecture", "agriculture", "theology")


class Luma:
    """The OLED as luma's dummy device: keeps what it was last given to display."""

    def __init__(self) -> None:
        self.device = dummy(width=128, height=64, mode="1")

    def show(self, image: Image.Image) -> None:
        self.device.display(image)


def started(catalog: Catalog, journal: Journal, screen: Luma) -> App:
    """A game set up with both sides unnamed: Player 1 begins, first-game wonders."""
    app = App(catalog, journal, screen)
    app.start(welcome=False)
    setup: list[Input] = [Press("select"), Press("right"), Press("select")]
    for given in (*setup, *(Scan(t) for t in TOKENS), Press("select"), Press("select")):
        app.handle(given)  # ... start, and past the feedback
    return app


def name_on_phone(app: App, names: dict[str, str]) -> None:
    """What the phone's naming does: the page's change runs on the loop (LoopControl)."""
    app.handle(Call(lambda a: a.game.name_players(names), threading.Event(), []))


def test_a_side_named_on_the_phone_is_named_so_on_the_oled(
    catalog: Catalog, tmp_path: Path
) -> None:
    journal = Journal.create(tmp_path / "journal.sqlite")
    screen = Luma()
    app = started(catalog, journal, screen)
    assert isinstance(app.view, IdleView) and app.view.player == "Player 1"
    unnamed = screen.device.image.copy()
    name_on_phone(app, {"p1": "Bob"})
    assert isinstance(app.view, IdleView)
    assert (app.view.player, app.view.labels) == ("Bob", ("Bob", "P2"))
    # the frame on the device changed where the names are, the top bar and the coins' label
    # (y 0 to 26), and nowhere under them (the track from y 29, the prices)
    changed = ImageChops.difference(unnamed, screen.device.image).getbbox()
    assert changed is not None and changed[3] <= 27
    app.handle(Scan("lumber_yard"))
    assert app.view is not None and getattr(app.view, "subtitle", "") == "Bob: 7 coins"
    journal.close()


def test_the_names_given_on_the_phone_come_back_after_a_restart(
    catalog: Catalog, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal.create(path)
    app = started(catalog, journal, Luma())
    name_on_phone(app, {"p1": "Ann", "p2": "Bob"})
    app.handle(Scan("lumber_yard"))
    app.handle(Press("select"))  # Ann builds the Lumber Yard: Bob's turn
    journal.close()
    with Journal.open(path) as reopened:
        screen = Luma()
        again = App(catalog, reopened, screen)
        again.start(welcome=False)
        again.handle(Press("select"))  # past the feedback screen
        assert isinstance(again.view, IdleView)
        assert (again.view.player, again.view.labels) == ("Bob", ("Ann", "Bob"))
