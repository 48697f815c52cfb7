"""The run loop's App: journal first, then the screen; resume, undo, phone changes, displays."""

from __future__ import annotations

import io
import queue
import threading
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.device.controller import Mode, Press, Scan, Status, Tick
from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.records.journal import Journal
from companion.service.bridge import LoopControl
from companion.service.loop import App, run_loop
from companion.service.playback import TablePlayer, play, read_record
from companion.service.root import EmulatedOled, open_journal, read_keys
from companion.service.script import parse_script_line
from hardware.keyboard import press_from_key


class Spy:
    """A display that, for every frame, reads the journal through its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.app: App | None = None
        self.seen: list[tuple[int, int]] = []  # (events the app reports, events in the file)
        self.images: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.images.append(image)
        if self.app is None:
            return
        with Journal.open(self.path, readonly=True) as reader:
            on_disk = len(reader.effective_events(self.app.game.game_id))
        self.seen.append((self.app.context().events, on_disk))


def make_app(catalog: Catalog, path: Path, display: Any = None) -> App:
    journal = open_journal(path)
    return App(catalog, journal, display or Spy(path))


def play_inputs(app: App, player: TablePlayer, count: int) -> None:
    for _ in range(count):
        given = player.next_input(app.ui, app.state, app.context())
        assert given is not None
        app.handle(given)


def test_every_event_is_in_the_journal_before_the_screen_shows_it(
    catalog: Catalog, tmp_path: Path
) -> None:
    spy = Spy(tmp_path / "journal.sqlite")
    app = make_app(catalog, spy.path, spy)
    spy.app = app
    play(app, TablePlayer(read_record()[:12]), None)
    assert len(spy.seen) > 30
    assert all(reported == on_disk for reported, on_disk in spy.seen)
    assert spy.seen[-1][1] == 12


def test_the_whole_demo_game_ends_in_the_journal_as_recorded(
    catalog: Catalog, tmp_path: Path
) -> None:
    app = make_app(catalog, tmp_path / "journal.sqlite")
    events = read_record()
    play(app, TablePlayer(events), None)
    assert app.state.finished
    recorded = app.journal.effective_events(app.game.game_id)
    assert recorded == [event_to_record(e) for e in events]
    # the scripted undo is in the journal as an undo row
    rows = app.journal.rows(app.game.game_id)
    assert sum(1 for row in rows if row.is_undo) == 1
    assert app.ui.mode is Mode.END
    app.journal.close()


def test_a_restart_after_the_last_card_shows_the_end_again_until_a_new_game(
    catalog: Catalog, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    app = make_app(catalog, path)
    play(app, TablePlayer(read_record()), None)
    finished = app.game.game_id
    app.journal.close()  # the power is cut on the end screen

    again = make_app(catalog, path)
    again.start()
    assert again.game.game_id == finished
    assert again.state.finished and again.ui.mode is Mode.END
    again.handle(Press("select"))  # the box asks first
    assert again.game.game_id == finished and again.ui.mode is Mode.NEW_GAME
    again.handle(Press("select"))  # the players start the next game
    assert again.game.game_id != finished
    assert not again.state.finished and again.ui.mode is not Mode.END
    again.journal.close()


def test_a_restart_resumes_on_the_same_screen(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    app = make_app(catalog, path)
    player = TablePlayer(read_record(), mistakes=False)
    play_inputs(app, player, 40)
    while app.ui.mode is not Mode.IDLE:  # get to a turn
        app.handle(player.next_input(app.ui, app.state, app.context()) or Tick(0))
    target = player.events[app.context().events]
    app.handle(Scan(getattr(target, "card", None)))
    app.handle(Press("right"))
    before_ui, before_view, before_state = app.ui, app.view, app.state
    app.journal.close()

    again = make_app(catalog, path)
    again.start()
    assert again.ui == before_ui
    assert again.view == before_view
    assert again.state == before_state
    again.journal.close()


def test_a_game_stopped_on_the_undo_question_plays_on_after_a_restart(
    catalog: Catalog, tmp_path: Path
) -> None:
    # power lost while the undo question was on the screen: the box comes back on it, and
    # the recorded game (the demo's player) keeps the game and plays to its end
    path = tmp_path / "journal.sqlite"
    app = make_app(catalog, path)
    play(app, TablePlayer(read_record()[:3], mistakes=False), None)
    app.handle(Press("select", long=True))
    assert app.ui.mode is Mode.UNDO
    played = app.context().events
    app.journal.close()

    again = make_app(catalog, path)
    assert again.ui.mode is Mode.UNDO
    play(again, TablePlayer(read_record(), mistakes=False), None)
    assert again.state.finished
    recorded = again.journal.effective_events(again.game.game_id)
    assert recorded == [event_to_record(e) for e in read_record()]
    assert played == 3
    again.journal.close()


def test_a_stale_saved_screen_gives_way_to_the_games_own(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    app = make_app(catalog, path)
    play_inputs(app, TablePlayer(read_record(), mistakes=False), 60)
    app.game.remember("screen", {"mode": "card", "events": 1})  # not a full screen state
    app.journal.close()
    again = make_app(catalog, path)
    assert again.ui.mode in (Mode.IDLE, Mode.PROMPT, Mode.FEEDBACK)
    again.journal.close()


def test_undo_appends_an_undo_row_and_restores_the_state(catalog: Catalog, tmp_path: Path) -> None:
    app = make_app(catalog, tmp_path / "journal.sqlite")
    play(app, TablePlayer(read_record()[:3], mistakes=False), None)
    before = app.game.states[-2]
    app.handle(Press("select", long=True))
    assert app.ui.mode is Mode.UNDO
    app.handle(Press("select"))
    assert app.state == before
    assert app.journal.rows(app.game.game_id)[-1].is_undo
    assert app.ui.mode is Mode.FEEDBACK and app.ui.lines[0] == "Undone:"


def test_a_phone_undo_runs_on_the_loop_thread(catalog: Catalog, tmp_path: Path) -> None:
    app = make_app(catalog, tmp_path / "journal.sqlite")
    play(app, TablePlayer(read_record()[:3], mistakes=False), None)
    inbox: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    loop = threading.Thread(target=run_loop, args=(app, inbox, stop), kwargs={"tick": 0.05})
    loop.start()
    try:
        LoopControl(inbox).undo(app.game.game_id)
    finally:
        stop.set()
        inbox.put(None)
        loop.join(timeout=10)
    assert not loop.is_alive()
    assert len(app.journal.effective_events(app.game.game_id)) == 2
    assert app.context().events == 2


def test_a_status_from_the_camera_shows_on_the_screen(catalog: Catalog, tmp_path: Path) -> None:
    app = make_app(catalog, tmp_path / "journal.sqlite")
    app.start()
    app.handle(Status("camera lost"))
    assert app.view is not None and app.view.status == "camera lost"


def test_the_emulated_oled_replaces_one_png(tmp_path: Path) -> None:
    oled = EmulatedOled(tmp_path / "oled", scale=2)
    frame = Image.new("1", (128, 64))
    frame.putpixel((3, 4), 1)
    oled.show(frame)
    oled.show(frame)
    written = Image.open(tmp_path / "oled" / "latest.png")
    assert written.size == (256, 128)
    assert written.getpixel((6, 8)) == 255 and written.getpixel((0, 0)) == 0
    assert [p.name for p in (tmp_path / "oled").iterdir()] == ["latest.png"]


class LumaDisplay:
    """The App's screens pushed to a luma.core device (the OLED adapter's job on the kit)."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def show(self, image: Image.Image) -> None:
        self.device.display(image)


def test_screens_go_through_a_luma_dummy_device(catalog: Catalog, tmp_path: Path) -> None:
    device = dummy(width=128, height=64, mode="1")
    app = make_app(catalog, tmp_path / "journal.sqlite", LumaDisplay(device))
    play(app, TablePlayer(read_record()[:2], mistakes=False), None)
    assert app.image is not None
    assert ImageChops.difference(device.image.convert("1"), app.image).getbbox() is None
    assert device.image.getbbox() is not None  # something is drawn


def test_a_corrupt_journal_is_kept_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    journal = open_journal(path)
    journal.close()
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("journal.sqlite.corrupt")]
    assert len(kept) == 1
    assert kept[0].read_bytes() == b"this is not a database" * 100


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("select", Press("select")),
        ("long select", Press("select", long=True)),
        ("scan lumber_yard  # a card", Scan("lumber_yard")),
        ("scan foreign", Scan(None)),
        ("tick 3.5", Tick(3.5)),
        ("status camera lost", Status("camera lost")),
        ("# nothing", None),
    ],
)
def test_script_lines(line: str, expected: object) -> None:
    assert parse_script_line(line) == expected


def test_a_bad_script_line_is_refused() -> None:
    with pytest.raises(ValueError, match="not a script line: 'jump'"):
        parse_script_line("jump")


def test_keys_stand_in_for_buttons() -> None:
    assert press_from_key("a") == Press("left")
    assert press_from_key("S") == Press("select", long=True)
    assert press_from_key("x") is None


def test_keys_from_a_stream_become_presses() -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    read_keys(inbox, threading.Event(), io.StringIO("asD x\n"))
    assert [inbox.get_nowait() for _ in range(3)] == [
        Press("left"),
        Press("select"),
        Press("right", long=True),
    ]
    assert inbox.empty()


def test_select_twice_on_the_end_screen_starts_the_next_game(
    catalog: Catalog, tmp_path: Path
) -> None:
    app = make_app(catalog, tmp_path / "journal.sqlite")
    play(app, TablePlayer(read_record(), mistakes=False), None)
    finished = app.game.game_id
    assert app.ui.mode is Mode.END
    app.handle(Press("select"))
    assert app.game.game_id == finished and app.ui.mode is Mode.NEW_GAME
    app.handle(Press("left"))  # changed their mind: the result and its QR code stay
    assert app.ui.mode is Mode.END
    app.handle(Press("select"))
    app.handle(Press("select"))
    assert app.game.game_id != finished
    assert app.ui.mode is Mode.FIRST_PLAYER
    assert app.journal.game(finished).status == "finished"
    app.journal.close()
