"""A Pantheon game at the table: the golden record played through the whole device, every
card, Grand Temple, divinity and the Gate held under a camera of generated frames (the real
decoder and tracker), every choice made with the three buttons on the OLED's screens."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from companion.device.controller import Mode
from companion.engine.catalog import default_catalog
from companion.engine.events import (
    Activate,
    Deal,
    Event,
    PlaceDivinity,
    Setup,
    event_to_record,
)
from companion.engine.scoring import score_sheet
from companion.engine.state import Player, Victory
from companion.inputs import Scan
from companion.service.loop import App, Call
from companion.service.playback import (
    Camera,
    FrameRecorder,
    TablePlayer,
    play,
    read_record,
    with_reveals,
)
from companion.service.root import open_journal

RECORD = Path(__file__).parents[1] / "records" / "pantheon" / "civilian_win.jsonl"
CATALOG = default_catalog(("pantheon",))


def _play(app: App, events: list[Event], camera: Camera) -> list[str]:
    """Play `events` on `app`: each deal through the loop as the phone gives it (a `Call`),
    everything else through the camera and the buttons. Returns the ids scanned."""
    player = TablePlayer(events, mistakes=False)
    scanned: list[str] = []
    app.start()
    for _ in range(20_000):
        index = app.context().events
        target = events[index] if index < len(events) else None
        if isinstance(target, Deal) and app.ui.mode is not Mode.FEEDBACK:
            app.handle(Call(lambda a, deal=target: a.game.submit(deal), threading.Event(), []))
            continue
        given = player.next_input(app.ui, app.state, app.context())
        if given is None:
            return scanned
        if isinstance(given, Scan) and given.card is not None:
            scanned.append(given.card)
            for scan, _captured in camera.hold(given.card):
                app.handle(scan)
        else:
            app.handle(given)
    raise AssertionError("the record did not play to its end")  # pragma: no cover


def test_a_pantheon_game_played_from_scans_ends_as_recorded(tmp_path: Path) -> None:
    recorded = read_record(RECORD)
    first = recorded[0]
    assert isinstance(first, Setup) and first.expansions == ("pantheon",)
    events = [replace(first, players=("", "")), *recorded[1:]]  # the box names no one
    app = App(CATALOG, open_journal(tmp_path / "journal.sqlite"), FrameRecorder(None))
    scanned = _play(app, events, Camera())
    final = app.state
    assert final.finished and app.ui.mode is Mode.END
    assert final.victory is Victory.CIVILIAN and final.winner is Player.P1
    assert app.journal.effective_events(app.game.game_id) == [event_to_record(e) for e in events]
    sheet = score_sheet(final)
    assert (sheet.p1.total, sheet.p2.total) == (59, 58)  # tests/pantheon: worked out by hand
    assert sheet.p1.row("divinities") == 9  # Aphrodite, activated through the Gate
    # the 3 Grand Temples p2 built were scanned like any card of age 3
    assert {"egyptian_grand_temple", "greek_grand_temple", "mesopotamian_grand_temple"} <= set(
        scanned
    )
    # each of the 5 Mythology tokens: its 2 divinities drawn, scanned
    placements = [e for e in events if isinstance(e, PlaceDivinity)]
    assert all(scanned.count(d) >= 1 for e in placements for d in e.drawn)
    # each of the 6 activations began with the scan of the card on its space
    assert sum(isinstance(e, Activate) for e in events) == 6
    for divinity in ("enki", "hades", "ra", "gate", "neptune", "minerva"):
        assert divinity in scanned
    app.journal.close()


def test_with_guided_entry_the_tokens_on_the_deals_are_entered_at_the_table(
    tmp_path: Path,
) -> None:
    # each age's face-up cards scanned, each card uncovered turned up and scanned; in Age I
    # the mythology of the token on each of the 5 marked cards, in Age II the value of the
    # Offering token on each of the 3, chosen with the buttons
    recorded = read_record(RECORD)
    first = recorded[0]
    assert isinstance(first, Setup)
    events = with_reveals(CATALOG, [replace(first, players=("", "")), *recorded[1:]])
    deals = [e for e in events if isinstance(e, Deal)]
    assert [d.tokens for d in deals] == [
        ("roman", "egyptian", "greek", "mesopotamian", "roman"),
        ("4", "2", "3"),
        (),
    ]
    assert None in deals[0].layout  # the face-down cards are turned up as they come free
    app = App(CATALOG, open_journal(tmp_path / "journal.sqlite"), FrameRecorder(None), guided=True)
    play(app, TablePlayer(events, mistakes=False), Camera())
    assert app.state.finished and app.ui.mode is Mode.END
    assert app.journal.effective_events(app.game.game_id) == [event_to_record(e) for e in events]
    sheet = score_sheet(app.state)
    assert (sheet.p1.total, sheet.p2.total) == (59, 58)
    app.journal.close()
