"""Reading a 7 Wonders base game's cities with the box's camera: generated camera frames
through the real decoder and tracker into the run loop's App, the reading kept in the
journal, and its OLED screen on luma's dummy device."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from luma.core.device import dummy
from PIL import Image, ImageDraw

from companion.device.controller import Press, Scan, Status
from companion.device.family_scan import (
    BaseGameScan,
    Reading,
    base_game_cards,
    scan_input,
    start,
    step,
    to_page,
)
from companion.device.screens import WIDTH, load_fonts, render, text_width
from companion.device.views import ReadingView
from companion.engine.cards import Catalog
from companion.service.loop import App
from companion.service.root import open_journal
from companion.vision.decode import make_decoder
from companion.vision.payloads import family_sticker_table, payload_for
from companion.vision.synth import city_frame
from companion.vision.tracker import Tracker


class Frames:
    """Generated frames of held-out cities, decoded and tracked as the scanner does."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.decoder = make_decoder()
        self.tracker = Tracker()
        self.now = 0.0

    def show(self, family: list[str], duel: tuple[str, ...] = (), *, frames: int = 2) -> None:
        table = family_sticker_table().by_id
        cards = [(c, table[c]) for c in family] + [(c, payload_for(c)) for c in duel]
        frame = np.clip(city_frame(cards, seed=len(cards)), 0, 255).astype(np.uint8)
        gray = frame if frame.ndim == 2 else frame.mean(axis=2).astype(np.uint8)
        for _ in range(frames):  # held: the tracker counts a sticker on its second frame
            self.now += 0.1
            size = (gray.shape[1], gray.shape[0])
            for scan in self.tracker.feed(self.decoder.decode(gray), self.now, size):
                self.app.handle(scan_input(scan))

    def away(self) -> None:
        """The cards are taken away (an empty table for two frames)."""
        self.show([], frames=2)


class Shown:
    def __init__(self) -> None:
        self.images: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.images.append(image)


@pytest.fixture
def app(catalog: Catalog, tmp_path: Path) -> App:
    made = App(catalog, open_journal(tmp_path / "journal.sqlite"), Shown())
    made.start(welcome=False)
    return made


def cities(app: App) -> dict[str, list[str]]:
    return {p["name"]: p["cards"] for p in app.reading_now()["players"]}


def test_two_cities_are_read_from_camera_frames(app: App) -> None:
    app.start_reading(["Ann", "Bob"])
    frames = Frames(app)
    assert isinstance(app.view, ReadingView) and app.view.city == "Ann's city"
    # Ann holds four cards up, then takes them away; select: Bob's turn.
    ann = ["lumber_yard", "loom", "scriptorium", "palace"]
    frames.show(ann)
    frames.away()
    assert sorted(cities(app)["Ann"]) == sorted(ann)
    assert app.view.count == "4 cards" and app.view.position == "1/2"
    assert app.reading_now()["line"] == "Reading Ann's city: 4 cards"
    app.handle(Press("select"))
    assert app.view.city == "Bob's city" and app.view.count == "0 cards"
    # Bob holds three cards and a Duel card (foreign here: refused, nothing added).
    bob = ["apothecary", "scientists_guild", "loom"]  # a Loom each: two copies in the game
    frames.show(bob, duel=("arsenal",))
    assert sorted(cities(app)["Bob"]) == sorted(bob)
    assert app.view.count == "3 cards" and app.view.notice == "Not a 7 Wonders card"
    # A long select takes Bob's last card back; the page sees it.
    read = cities(app)["Bob"]
    last = read[-1]
    app.handle(Press("select", long=True))
    assert cities(app)["Bob"] == read[:-1]
    assert app.view.count == "2 cards"
    assert app.view.last == f"Removed: {base_game_cards().name_of(last)}"
    # After the last player, every city is read; the Duel game's screen is untouched.
    app.handle(Press("select"))
    assert app.view.done and app.reading_now()["current"] is None
    assert app.reading_now()["line"] == "All cities read"
    assert app.view.count == "6 cards"  # 4 + 2
    app.stop_reading()
    assert not isinstance(app.view, ReadingView)
    assert app.reading is None and not app.reading_now()["reading"]


def test_a_card_twice_in_a_city_and_a_guild_in_two_cities_are_refused() -> None:
    cards = base_game_cards()
    reading = step(start(["Ann", "Bob"]), BaseGameScan("scientists_guild"), cards)
    again = step(reading, BaseGameScan("scientists_guild"), cards)
    assert again.cities == reading.cities
    assert again.notice == "Already read: Scientists Guild"
    bob = step(reading, Press("right"), cards)
    refused = step(bob, BaseGameScan("scientists_guild"), cards)
    assert refused.cities == reading.cities and refused.notice == "Ann has Scientists Guild"
    # A Loom is not one of a kind: both cities may hold one.
    both = step(step(bob, BaseGameScan("loom"), cards), Press("left"), cards)
    both = step(both, BaseGameScan("loom"), cards)
    assert both.cities == (("scientists_guild", "loom"), ("loom",)) and both.notice == ""
    # Nothing to take back in an empty city; left stops at the first player.
    empty = step(start(["Ann", "Bob", "Cid"]), Press("select", long=True), cards)
    assert empty.notice == "No card to remove" and empty.current == 0
    assert step(empty, Press("left"), cards).current == 0


@pytest.mark.parametrize("names", [[], ["Ann", "Ann"], ["Ann", " "], [f"P{i}" for i in range(8)]])
def test_a_reading_needs_one_to_seven_distinct_names(names: list[str]) -> None:
    with pytest.raises(ValueError):
        start(names)


def test_the_reading_survives_a_restart_and_a_duel_sticker_outside_it_is_foreign(
    catalog: Catalog, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    first = App(catalog, open_journal(path), Shown())
    first.start_reading(["Ann", "Bob", "Cid"])
    first.handle(BaseGameScan("palace"))
    first.handle(Press("select"))
    first.handle(BaseGameScan("haven"))
    first.journal.close()  # power off
    again = App(catalog, open_journal(path), Shown())
    kept = Reading(("Ann", "Bob", "Cid"), (("palace",), ("haven",), ()), current=1, last="haven")
    assert again.reading == kept
    again.start(welcome=False)
    assert isinstance(again.view, ReadingView) and again.view.last == "+ Haven"
    # A long left ends the reading on the box: the Duel game is back, a base-game sticker is
    # then a foreign code for it (the Duel controller's refusal), and no card is added.
    again.handle(Press("left", long=True))
    assert again.reading is None and not isinstance(again.view, ReadingView)
    again.handle(BaseGameScan("palace"))
    assert again.reading is None and again.view is not None and again.view.notice
    assert to_page(again.reading)["reading"] is False


def test_a_camera_status_shows_on_the_reading_screen(app: App) -> None:
    app.start_reading(["Ann", "Bob", "Cid"])
    app.handle(Status("camera lost"))
    assert isinstance(app.view, ReadingView) and app.view.status == "camera lost"
    app.handle(Scan("arsenal"))  # a Duel card while reading
    assert app.reading is not None and app.reading.cities == ((), (), ())


def drawn(text: str, font_name: str, x: int, y: int) -> np.ndarray:
    """The pixels of `text` drawn alone at (x, y) with one of the shipped fonts."""
    image = Image.new("1", (WIDTH, 64))
    ImageDraw.Draw(image).text((x, y), text, font=getattr(load_fonts(), font_name), fill=1)
    return np.asarray(image.convert("L")) > 0


def test_the_reading_screen_on_the_dummy_oled_says_whose_city_and_how_many_cards() -> None:
    shown = ReadingView("Ann's city", "7 cards", "+ Lumber Yard", "1/4", "select: next  hold: undo")
    device = dummy(width=128, height=64, mode="1")
    device.display(render(shown))
    pixels = np.asarray(device.image.convert("L")) > 0
    fonts = load_fonts()
    # The title bar is lit with the name in dark; the count in bold, centred (7x13 bold:
    # "7 cards" is 7 characters of 7 pixels = 49 wide, from x = 64 - 24 = 40).
    assert text_width("7 cards", fonts.bold) == 49
    count = drawn("7 cards", "bold", 40, 15)
    assert (pixels[15:28] == count[15:28]).all()
    title = ~drawn("Ann's city", "title", 1, 1)
    assert (pixels[1:10, 1:60] == title[1:10, 1:60]).all()
    # the last card, centred in the 6x10 font: 13 characters, 78 wide, from x = 64 - 39 = 25
    last = drawn("+ Lumber Yard", "title", 25, 32)
    assert (pixels[32:42] == last[32:42]).all()
