"""The whole device with guided entry: a camera of generated frames (real decoder and
tracker) plays a record with partial deals from the deal of age 1 to the end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.device.controller import Mode
from companion.engine.cards import Catalog
from companion.engine.events import Deal, Reveal, Setup, event_to_record
from companion.service.loop import App
from companion.service.playback import Camera, FrameRecorder, TablePlayer, play, read_record
from companion.service.root import open_journal

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


def test_a_game_entered_by_guided_scans_ends_in_the_journal_as_recorded(
    catalog: Catalog, tmp_path: Path
) -> None:
    recorded = read_record(RECORD)
    first = recorded[0]
    assert isinstance(first, Setup)
    events = [replace(first, players=("", "")), *recorded[1:]]  # the box names no one
    recorder = FrameRecorder(tmp_path / "frames")
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), recorder, guided=True)
    camera = Camera()
    play(app, TablePlayer(events, mistakes=False), camera)
    assert app.state.finished and app.ui.mode is Mode.END
    # every deal was entered by scanning its face-up cards, every turned card by a scan
    assert app.journal.effective_events(app.game.game_id) == [event_to_record(e) for e in events]
    deals = [e for e in events if isinstance(e, Deal)]
    reveals = [e for e in events if isinstance(e, Reveal)]
    face_up = sum(1 for d in deals for card in d.layout if card is not None)
    assert len(deals) == 3 and len(reveals) == 24
    # each card of a deal, each card turned up and each card played went through the camera
    assert len(camera.latencies) >= face_up + len(reveals)
    app.journal.close()
