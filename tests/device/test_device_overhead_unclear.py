"""The OLED says where the overhead camera cannot tell a position a card may be taken from,
so that players see why a card must be scanned by hand: the list between turns names the one
place, or counts them, on its status line (the card a guided entry or a card turned up asks
for: tests/device/test_device_overhead.py). Through the presenter, then through the run
loop's `App` and luma's dummy device (the frames written beside the screenshots:
docs/screenshots/ with UPDATE_REFERENCE=1, else a temporary folder)."""

from __future__ import annotations

import threading
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from luma.core.device import dummy
from PIL import Image
from tables import save_picture

from companion.device import controller, present
from companion.device.controller import Context, Mode, Table
from companion.device.views import ChoiceView
from companion.engine.cards import Catalog
from companion.engine.events import Event
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState
from companion.engine.structure import UNKNOWN
from companion.service.loop import App, Call, TableFrame
from companion.service.playback import read_record
from companion.service.root import open_journal

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


def _played(catalog: Catalog, count: int) -> GameState:
    state = new_game(catalog)
    for event in read_record(RECORD)[:count]:
        state = apply(state, event)
    return state


def _slots(state: GameState, **changed: str | None) -> tuple[str | None, ...]:
    """What a camera sees of the dealt structure; `changed` sets positions ("p5": None)."""
    structure = state.structure
    assert structure is not None
    slots: list[str | None] = [
        "empty" if c is None else "back" if c in UNKNOWN else str(c) for c in structure.cards
    ]
    for key, value in changed.items():
        slots[int(key[1:])] = value
    return tuple(slots)


def _view(state: GameState, table: Table | None) -> Any:
    ctx = Context(overhead=True, table=table)
    return present.view(controller.settle(state, ctx), state, ctx)


def test_the_list_names_the_one_place_the_camera_cannot_tell(catalog: Catalog) -> None:
    state = _played(catalog, 2)  # age 1 dealt: the open row is row 5, positions 14 to 19
    shown = _view(state, Table(_slots(state, p18=None), 1))  # Garrison's place unclear
    assert isinstance(shown, ChoiceView)
    # age 1 has rows of 2, 3, 4, 5 and 6 cards: position 18 is the 5th card of row 5
    assert shown.status == "Row 5, card 5: scan it"
    assert shown.subtitle == "6 cards to take" and not shown.notice  # the list stays


def test_several_places_the_camera_cannot_tell_are_counted(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    hand = Table(_slots(state, p16=None, p17=None, p18=None), 1)  # a hand over three cards
    assert _view(state, hand).status == "3 places unclear"


def test_only_places_a_card_may_be_taken_from_count(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    # Clay Pool (position 5, row 3) is covered: nobody can take it now, nothing is said
    assert _view(state, Table(_slots(state, p5=None), 1)).status == ""
    assert _view(state, Table(_slots(state), 1)).status == ""  # every position told
    assert _view(state, None).status == ""  # no table yet
    # a table of another age (the last one of age 1 when age 2 begins) says nothing
    assert _view(state, Table(_slots(state, p18=None), 2)).status == ""
    # Garrison (18) and Clay Reserve (19) taken: their places empty for certain; the card
    # they uncovered (Theater, position 13) can be taken and is counted once turned up
    later = _played(catalog, 5)
    assert later.structure is not None and later.structure.cards[18] is None
    assert _view(later, Table(_slots(later, p18=None, p19=None), 1)).status == ""
    assert _view(later, Table(_slots(later, p13=None), 1)).status == "Row 4, card 5: scan it"


def test_a_refusal_takes_the_bottom_line_over_it(catalog: Catalog) -> None:
    state = _played(catalog, 2)
    ctx = Context(overhead=True, table=Table(_slots(state, p18=None), 1))
    ui = replace(controller.settle(state, ctx), notice="Clay Pool: still covered")
    refused = present.view(ui, state, ctx)
    assert refused.notice == "Clay Pool: still covered"
    assert refused.status == "Row 5, card 5: scan it"
    # drawn: the refusal's lit bar (dark letters) over the bottom line, not the framed line
    band = present.render(refused).crop((0, 55, 128, 64))
    lit = sum(band.convert("L").histogram()[1:])
    assert lit > 128 * 9 // 2


def _submit(app: App, event: Event) -> object:
    return app.game.submit(event)


class Luma:
    """The OLED through luma's dummy device, keeping each frame shown."""

    def __init__(self) -> None:
        self.device = dummy(width=128, height=64, mode="1")
        self.frames: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.device.display(image)
        self.frames.append(self.device.image.copy())


def test_the_oled_says_it_as_frames_come_from_the_camera(catalog: Catalog, tmp_path: Path) -> None:
    events = read_record(RECORD)
    luma = Luma()
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), luma, overhead=True)
    app.start(welcome=False)
    for event in events[:2]:  # the setup and age 1's deal, entered on the phone
        app.handle(Call(partial(_submit, event=event), threading.Event(), []))
    state = app.state
    assert app.ui.mode is Mode.IDLE
    # glare on Garrison's sticker from the start (3 frames agree): never seen, never gone
    one = _slots(state, p18=None)
    for _ in range(3):
        app.handle(TableFrame(one, 1, None))
    assert app.ui.mode is Mode.IDLE
    assert getattr(app.view, "status", None) == "Row 5, card 5: scan it"
    named = luma.frames[-1]
    # then a hand over the two cards beside it, seen before: the box waits, and says why
    hand = _slots(state, p16=None, p17=None, p18=None)
    for _ in range(3):
        app.handle(TableFrame(hand, 1, None))
    assert app.ui.mode is Mode.IDLE and not app.ui.notice
    assert getattr(app.view, "status", None) == "3 places unclear"
    counted = luma.frames[-1]
    clear = _slots(state)
    for _ in range(2):  # the hand gone, the glare too: two frames that tell every position
        app.handle(TableFrame(clear, 1, None))
    assert app.ui.mode is Mode.IDLE and getattr(app.view, "status", None) == ""
    listed = luma.frames[-1]
    # the bottom line: the framed banner with its lit "!" where the camera cannot tell;
    # the cursor's note ("buys 1 clay") without it
    for frame in (named, counted):
        assert frame.getpixel((0, 60)) and frame.getpixel((127, 60))
        assert frame.tobytes() != listed.tobytes()
    assert not listed.getpixel((127, 60))
    save_picture([listed, named, counted], 3, "oled-overhead-unclear.png")
    app.journal.close()
