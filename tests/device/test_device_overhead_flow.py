"""The whole device with the overhead camera: generated top views of the table (real QR
decoder and structure reader) from the deal of age 1 to the end of the game, through the run
loop's `App`, a journal in SQLite and the OLED through luma's dummy device."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from luma.core.device import dummy

from companion.device import present
from companion.device.controller import Mode
from companion.device.views import ChoiceView, View
from companion.engine.cards import Catalog
from companion.engine.events import Deal, Reveal, Setup, event_to_record
from companion.service.loop import App
from companion.service.playback import (
    TablePlayer,
    TopCamera,
    play_overhead,
    read_record,
    with_reveals,
)
from companion.service.root import open_journal

RECORD = Path(__file__).parents[1] / "records" / "simulated_civilian_win.jsonl"
PARTIAL = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


class Luma:
    """The OLED through luma's dummy device, keeping what it was shown."""

    def __init__(self) -> None:
        self.device = dummy(width=128, height=64, mode="1")
        self.shown = 0

    def show(self, image: Any) -> None:
        self.device.display(image)
        self.shown += 1


def test_with_reveals_records_a_full_game_as_the_box_does_at_the_table(catalog: Catalog) -> None:
    # the shipped partial-deals record is the full-deals one as the table records it
    full, partial = read_record(RECORD), read_record(PARTIAL)
    assert with_reveals(catalog, full) == partial


def test_a_game_at_the_table_with_the_overhead_camera_ends_in_the_journal_as_played(
    catalog: Catalog, tmp_path: Path
) -> None:
    full = read_record(RECORD)
    first = full[0]
    assert isinstance(first, Setup)
    full = [replace(first, players=("", "")), *full[1:]]  # the box names no one
    expected = with_reveals(catalog, full)
    deals = {e.age: tuple(str(c) for c in e.layout) for e in full if isinstance(e, Deal)}
    views: list[View] = []

    def render(shown: View) -> Any:
        views.append(shown)
        return present.render(shown)

    luma = Luma()
    app = App(catalog, open_journal(tmp_path / "journal.sqlite"), luma, overhead=True,
              render=render)  # fmt: skip
    camera = TopCamera(deals)
    assert deals[1][5] == "clay_pool"  # row 3, covered by row 4 at the start of age 1
    counts = play_overhead(app, TablePlayer(expected, mistakes=False), camera, covered="clay_pool")
    assert app.state.finished and app.ui.mode is Mode.END
    # the journal holds the game as played: partial deals read from above, every card turned
    # up recorded, and nothing from the covered card taken and put back
    assert app.journal.effective_events(app.game.game_id) == [event_to_record(e) for e in expected]
    assert counts.refused == ["Clay Pool: still covered"]
    # every deal came from the camera (the face-up cards read), every turned card too
    assert counts.deals == 3
    assert counts.turned == sum(isinstance(e, Reveal) for e in expected) == 24
    # of the 60 cards taken, the camera proposed most; the rest were scanned by hand (the
    # end of an age, when too few cards are left for the reader to find the layout)
    moves = sum(1 for e in expected if e.type in ("build", "discard", "wonder"))
    assert moves == 60 and counts.taken >= 40
    assert app.table_latencies  # first clear frame to the proposal, for the benchmark
    # between turns the OLED listed the accessible cards with their prices
    lists = [v for v in views if isinstance(v, ChoiceView) and v.subtitle.endswith("to take")]
    assert lists and all(o.detail for v in lists for o in v.options)
    assert luma.shown == len(views)
    app.journal.close()
