"""The coach at the table: the button map, then left; the search runs on a worker thread and
its answer comes back through the run loop's queue; a stale answer is dropped. The README's
picture of the coach is the frames of the first test (tests/device/tables.py)."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from luma.core.device import dummy
from PIL import ImageChops

from companion.device.coach import coach_view
from companion.device.controller import Mode, Press
from companion.device.screens import render
from companion.device.views import ChoiceView, HelpView, MessageView
from companion.device.words import SEE_COACH, THINKING
from companion.engine.cards import Catalog
from companion.search.player import Level
from companion.service.loop import App, Coached
from companion.service.playback import read_record
from companion.service.root import open_journal
from tests.device.tables import play_with_deals, save_picture

RECORD = Path(__file__).resolve().parents[1] / "records" / "simulated_civilian_win.jsonl"
QUICK = Level("quick", 30)  # a low budget: the answer in a fraction of a second
WAIT = 60.0  # seconds a test waits for the worker at most (a blocking get, not a sleep)


class Luma:
    """The OLED through luma's dummy device."""

    def __init__(self) -> None:
        self.device = dummy(width=128, height=64, mode="1")

    def show(self, image: Any) -> None:
        self.device.display(image)


def table(catalog: Catalog, tmp_path: Path, events: int = 12) -> tuple[App, queue.Queue[Any]]:
    """The app on a game after the first `events` lines of the record, with a loop queue."""
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    app = App(catalog, journal, Luma(), post=inbox.put, coach=(QUICK, None))
    app.start(welcome=False)
    play_with_deals(app, read_record(RECORD)[:events])
    return app, inbox


def test_the_button_map_then_left_shows_thinking_then_the_top_three(
    catalog: Catalog, tmp_path: Path
) -> None:
    app, inbox = table(catalog, tmp_path)
    assert app.ui.mode is Mode.IDLE and app.context().events == 12  # setup, deal, 10 moves
    app.handle(Press("right", long=True))
    assert isinstance(app.view, HelpView) and app.view.phone == SEE_COACH
    frames = [app.display.device.image.copy()]  # type: ignore[attr-defined]
    app.handle(Press("left"))
    assert app.ui.mode is Mode.COACH
    assert app.view == MessageView("Coach", (THINKING,))  # the loop is free meanwhile
    frames.append(app.display.device.image.copy())  # type: ignore[attr-defined]
    answer = inbox.get(timeout=WAIT)
    assert isinstance(answer, Coached) and answer.events == 12
    app.handle(answer)
    expected = coach_view(app.state, QUICK, seconds=None)  # same seed, same answer
    assert app.view == expected and len(expected.options) == 3
    assert expected.subtitle == "Player 2 to play"  # the device names them by seat
    shown = app.display.device.image  # type: ignore[attr-defined]
    assert ImageChops.difference(shown.convert("1"), render(expected)).getbbox() is None
    save_picture([*frames, shown.copy()], 3, "oled-coach.png")  # the README's coach
    app.handle(Press("right"))  # the cursor goes to the second move and its reason
    assert isinstance(app.view, ChoiceView) and app.view.cursor == 1
    app.handle(Press("select"))  # anything else goes back
    assert app.ui.mode is Mode.IDLE


def test_an_answer_for_a_game_that_moved_on_is_dropped(catalog: Catalog, tmp_path: Path) -> None:
    app, inbox = table(catalog, tmp_path)
    app.handle(Press("right", long=True))
    app.handle(Press("left"))
    app.handle(Press("left", long=True))  # back to idle before the answer
    play_with_deals(app, read_record(RECORD)[:13])  # the next move is scanned and confirmed
    assert app.context().events == 13
    app.handle(inbox.get(timeout=WAIT))
    assert app.context().coach is None  # the answer was for 12 events
    assert app.ui.mode is not Mode.COACH


def test_only_the_latest_request_is_shown(catalog: Catalog, tmp_path: Path) -> None:
    app, inbox = table(catalog, tmp_path)
    for _ in range(2):  # ask, leave, ask again
        app.handle(Press("right", long=True))
        app.handle(Press("left"))
        if app.ui.mode is Mode.COACH and _ == 0:
            app.handle(Press("select"))
    first, second = inbox.get(timeout=WAIT), inbox.get(timeout=WAIT)
    stale = first if first.ticket == 1 else second
    latest = second if stale is first else first
    app.handle(stale)
    assert app.view == MessageView("Coach", (THINKING,))
    app.handle(latest)
    assert isinstance(app.view, ChoiceView) and app.view.title == "Coach"
