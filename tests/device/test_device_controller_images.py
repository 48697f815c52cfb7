"""End to end: generated camera frames -> QR decoder -> tracker -> controller -> journal."""

from __future__ import annotations

from pathlib import Path

from companion.device.controller import Mode, Scan
from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.service.loop import App
from companion.service.playback import Camera, FrameRecorder, TablePlayer, play, read_record
from companion.service.root import open_journal


def test_a_card_held_under_the_camera_is_read_once() -> None:
    camera = Camera()
    assert [scan for scan, _ in camera.hold("lumber_yard", frames=30)] == [Scan("lumber_yard")]
    # taken away and shown again: read again
    assert [scan for scan, _ in camera.hold("lumber_yard")] == [Scan("lumber_yard")]


def test_a_foreign_code_is_read_as_foreign() -> None:
    assert [scan for scan, _ in Camera().hold(None)] == [Scan(None)]


def test_a_scripted_game_from_images_ends_in_the_journal(catalog: Catalog, tmp_path: Path) -> None:
    events = read_record()
    recorder = FrameRecorder(tmp_path / "frames")
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), recorder)
    camera = Camera()
    play(app, TablePlayer(events), camera)
    assert app.state.finished and app.ui.mode is Mode.END
    assert app.journal.effective_events(app.game.game_id) == [event_to_record(e) for e in events]
    # every card, wonder and token of the record went through the camera
    assert len(camera.latencies) >= len(events)
    assert len(list((tmp_path / "frames").glob("frame-*.png"))) == len(recorder.images)
    app.journal.close()
