"""A device app driven through a record, deals included: the moves through the buttons and
the camera (`TablePlayer`), each deal through the loop as the phone or the overhead reading
would give it (a `Call` on the loop's thread). And the README's pictures of OLED frames:
written to a temporary folder, or with UPDATE_REFERENCE=1 to docs/screenshots/
(scripts/screenshots.sh), to be looked at before committing."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

from companion.engine.cards import Catalog
from companion.engine.events import Deal, Event
from companion.records.journal import Journal
from companion.service.loop import App, Call
from companion.service.playback import TablePlayer


def play_with_deals(app: App, events: Sequence[Event]) -> None:
    """Play `events` on `app` from where its game is."""
    player = TablePlayer(list(events), mistakes=False)
    for _ in range(20_000):
        index = app.context().events
        if index >= len(events) and app.ui.mode.value != "feedback":
            return
        target = events[index] if index < len(events) else None
        if isinstance(target, Deal):
            app.handle(Call(lambda a, deal=target: a.game.submit(deal), threading.Event(), []))
            continue
        given = player.next_input(app.ui, app.state, app.context())
        if given is None:
            return
        app.handle(given)
    raise AssertionError("the record did not play to its end")  # pragma: no cover


SCREENSHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("UPDATE_REFERENCE") == "1"
    else Path(tempfile.gettempdir()) / "duel-companion-screenshots"
)
SCALE, GAP = 2, 8  # README frames: twice the OLED's pixels, apart on a grey ground


def save_picture(frames: Sequence[Image.Image], columns: int, name: str) -> Path:
    """OLED frames enlarged `SCALE` times in rows of `columns`, `GAP` pixels apart, as one
    picture in `SCREENSHOTS`."""
    width, height = 128 * SCALE, 64 * SCALE
    rows = (len(frames) + columns - 1) // columns
    size = (columns * width + (columns - 1) * GAP, rows * height + (rows - 1) * GAP)
    sheet = Image.new("L", size, 160)
    for number, frame in enumerate(frames):
        big = frame.convert("L").resize((width, height), Image.Resampling.NEAREST)
        row, column = divmod(number, columns)
        sheet.paste(big, (column * (width + GAP), row * (height + GAP)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    sheet.save(SCREENSHOTS / name, optimize=True)
    return SCREENSHOTS / name


class NoScreen:
    """A display that keeps nothing (the two players' setup before a solo game)."""

    def show(self, image: Image.Image) -> None:
        """Drop the frame."""


def solo_after(
    catalog: Catalog, journal: Journal, events: Sequence[Event], solo: Callable[[], App]
) -> App:
    """A solo device (made by `solo` over `journal`, and started) on a game whose first
    `events` (a record's setup and deals) two players entered first, with the record's own
    wonder draft: in a solo game the box drafts its own wonders, other than the record's."""
    two = App(catalog, journal, NoScreen())
    two.start(welcome=False)
    play_with_deals(two, events)
    app = solo()  # the device restarted in solo: it resumes the game the two set up
    app.start(welcome=False)
    return app
