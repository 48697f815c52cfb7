"""The overhead camera in the service: each frame's codes, decoded once by the scanner, read
as the structure of the age played and posted to the run loop; the configuration's keys."""

from __future__ import annotations

import queue
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import Config, load_config
from companion.device.controller import Mode
from companion.engine.catalog import default_catalog
from companion.engine.events import Deal
from companion.engine.rules import apply, new_game
from companion.service.loop import App, Call, TableFrame
from companion.service.playback import FrameRecorder, read_record
from companion.service.root import OverheadPicture, open_journal, table_reader
from companion.vision.decode import make_decoder
from companion.vision.scanner import Scanner
from companion.vision.structure import read_structure
from companion.vision.table_synth import dimmed, random_table

RECORD = Path(__file__).parents[1] / "records" / "simulated_civilian_win.jsonl"
WAIT = 60.0  # generous: the machine is shared


class Frames:
    """A camera giving the same frame `count` times, then no more."""

    def __init__(self, frame: Any, count: int) -> None:
        self.frames = [frame] * count

    def read(self) -> Any:
        return self.frames.pop(0) if self.frames else None

    def close(self) -> None:
        pass


def test_one_camera_serves_the_scan_zone_and_the_structure(tmp_path: Path) -> None:
    catalog = default_catalog()
    events = read_record(RECORD)
    deal = next(e for e in events if isinstance(e, Deal))
    layout = tuple(str(c) for c in deal.layout)
    scene = random_table(7, age=1, deal=layout, taken=(), hands=False)
    inbox: queue.Queue[Any] = queue.Queue()
    before_deal = apply(new_game(catalog), events[0])  # age 1, nothing known on the table
    reader = table_reader(catalog, "zxing", lambda: before_deal, inbox.put)
    scanner = Scanner(lambda: Frames(scene.frame, 3), lambda scan: inbox.put(scan),
                      fps=None, on_frame=reader)  # fmt: skip
    with scanner:
        assert scanner.finished.wait(WAIT)
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    tables = [p for p in posted if isinstance(p, TableFrame)]
    assert len(tables) == 3 and all(t.age == 1 for t in tables)
    # the structure as the reader tells it: no card put where it does not lie
    slots = tables[0].slots
    assert all(s is None or s == truth for s, truth in zip(slots, scene.truth, strict=True))
    assert sum(1 for s in slots if s not in (None, "back", "empty")) >= 10  # most of 12 read
    # the three frames agree: the loop's watch gives the table, and the deal is recorded
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), FrameRecorder(None),
              overhead=True)  # fmt: skip
    setup = events[0]  # given through the loop, as the phone would
    app.handle(Call(lambda a: a.game.submit(setup), threading.Event(), []))
    assert app.ui.mode is Mode.GUIDED  # the age waits for its structure
    for table in tables:
        app.handle(table)
    # seed 7's frame shows every face-up card readable: the deal is in, face-down unknown
    assert app.journal.effective_events(app.game.game_id)[1] == {
        "type": "deal",
        "age": 1,
        "layout": [card if p.face_up else None
                   for p, card in zip(catalog.layout(1).positions, layout, strict=True)],
    }  # fmt: skip
    assert app.ui.mode is Mode.FEEDBACK


def test_the_device_tells_codes_found_but_not_decoded_as_the_scan_command_does() -> None:
    # generated hand-laid deal 1100225 (age 1, spread 0.5, hard light): the scanner's one
    # decoding of the frame reads 6 codes and finds 2 more it cannot decode. Given the
    # corners of the 2 too, the structure reader tells them by their modules, as `scan
    # --structure` does from the frame itself, and every face-up card of the deal is read,
    # none wrongly: the device's reading is the command's. (Given only the 6, it could not
    # place the deal once; since the deal told it is the deal is looked at as from the
    # frame alone, the codes at their places read it whole too)
    catalog = default_catalog()
    scene = random_table(1100225, age=1, spread=0.5, difficulty="hard", taken=[])
    decoder = make_decoder("zxing")
    found, unread = decoder.decode_all(scene.frame)  # type: ignore[attr-defined]
    assert (len(found), len(unread)) == (6, 2)
    before_deal = apply(new_game(catalog), read_record(RECORD)[0])  # every position "back"
    posted: list[TableFrame] = []
    reader = table_reader(catalog, "zxing", lambda: before_deal, posted.append)
    scanner = Scanner(lambda: Frames(scene.frame, 1), lambda scan: None, fps=None,
                      on_frame=reader)  # fmt: skip
    with scanner:
        assert scanner.finished.wait(WAIT)
    face_up = [i for i, truth in enumerate(scene.truth) if truth != "back"]
    assert len(face_up) == 12 and len(posted) == 1
    assert [posted[0].slots[i] for i in face_up] == [scene.truth[i] for i in face_up]
    command = read_structure(scene.frame, 1, decoder, known=["back"] * 20).slots
    assert posted[0].slots == command  # the device's path is the command's
    only_decoded: list[TableFrame] = []
    table_reader(catalog, "zxing", lambda: before_deal, only_decoded.append)(
        scene.frame, found, 0.0
    )
    assert only_decoded[0].slots == tuple(scene.truth)


def test_the_reader_keeps_the_fit_of_the_age_for_a_dimmer_frame() -> None:
    # the mount holds still: after a frame in good light, the same view with the light
    # down (0.4 of it, defocused, noisy) still finds the cards the box knows where they
    # lie; a reader that never saw the good frame read about half of them, and reads them
    # all since codes are read from their codes' blobs (issue 26)
    catalog = default_catalog()
    events = read_record(RECORD)
    deal = next(e for e in events if isinstance(e, Deal))
    layout = tuple(str(c) for c in deal.layout)
    dealt = apply(apply(new_game(catalog), events[0]), deal)  # the structure known
    scene = random_table(1, age=1, deal=layout, taken=(), hands=False)
    dim = dimmed(scene.frame)
    decoder = make_decoder("zxing")

    def cards(table: TableFrame) -> int:
        assert all(s is None or s == t for s, t in zip(table.slots, scene.truth, strict=True))
        return sum(1 for s in table.slots if s not in (None, "back", "empty"))

    posted: list[TableFrame] = []
    reader = table_reader(catalog, "zxing", lambda: dealt, posted.append)
    reader(scene.frame, decoder.decode(scene.frame), 0.0)
    reader(dim, decoder.decode(dim), 1.0)
    fresh: list[TableFrame] = []
    table_reader(catalog, "zxing", lambda: dealt, fresh.append)(dim, decoder.decode(dim), 1.0)
    assert cards(posted[0]) == 12  # every face-up card of age 1
    assert cards(posted[1]) == 12
    assert cards(fresh[0]) == 12


def test_the_overhead_keys_of_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('overhead = true\noverhead_source = "folder:frames"\n', encoding="utf-8")
    config = load_config(path)
    assert config.overhead and config.overhead_source == f"folder:{tmp_path / 'frames'}"
    assert not Config.defaults().overhead and Config.defaults().overhead_source == ""
    make_decoder("zxing")  # the reader's decoder exists here


def test_the_live_pages_picture_keeps_one_reading_and_draws_it_once() -> None:
    picture = OverheadPicture()
    assert picture.version == 0 and picture.png() is None  # nothing read yet: the page 404s
    scene = random_table(5, age=1, moment="start", hands=False)
    reading = read_structure(scene.frame, 1, make_decoder("zxing"), known=scene.known)
    frame = scene.frame.copy()
    picture.keep(frame, reading, 1)
    drawn = picture.png()
    assert picture.version == 1 and drawn is not None and drawn[:4] == b"\x89PNG"
    assert picture.png() is drawn  # drawn once per reading, whoever asks
    frame[:] = 0  # the camera reuses its buffer: the kept frame is a copy
    picture.keep(frame, reading, 1)  # a frame that tells the same: not kept again
    assert picture.version == 1 and picture.png() is drawn
    other = replace(reading, slots=(None,) * 20)  # a hand over the whole structure
    picture.keep(scene.frame, other, 1)
    assert picture.version == 2 and picture.png() != drawn
    picture.keep(scene.frame, other, 2)  # the same slots in another age: a new reading
    assert picture.version == 3
