"""Solo in a Pantheon game: the box activates a divinity (the scan of that divinity confirms
it) and waits for a Mythology deck's draw before it places a divinity."""

from __future__ import annotations

import random
from pathlib import Path

from companion.device import solo
from companion.device.controller import Context, Mode, UiState
from companion.engine.events import Activate, PlaceDivinity
from companion.engine.rules import apply
from companion.engine.state import evolve
from companion.play.playout import random_deal
from companion.records.replay import replay_record
from companion.search.player import Level
from tests.pantheon.pantheon_positions import CATALOG, P1, P2, age_2, city, on

QUICK = Level("quick", 30)
RECORD = Path(__file__).resolve().parents[1] / "records" / "pantheon" / "civilian_win.jsonl"
LINES = RECORD.read_text().splitlines()


def test_the_box_activates_mars_and_the_scan_of_mars_confirms_it() -> None:
    start = evolve(age_2(city(coins=3), spaces=on(1, "mars")), position=7)
    state = apply(start, random_deal(CATALOG, random.Random(0), 2))
    ctx = Context(events=3, box=P1)
    want = solo.wanted(UiState(events=3), state, ctx)
    assert want == solo.Wanted(3)
    move = solo.box_move(state, want, QUICK)
    assert move == Activate(P1, 1, ())
    ready = Context(events=3, box=P1, box_move=move)
    assert solo.check_scan(state, ready, "mars") == move
    assert isinstance(solo.check_scan(state, ready, "horse_breeders"), str)  # refused


def test_the_box_waits_for_the_two_divinities_drawn_then_places_one() -> None:
    state = replay_record(LINES[:4])[-1]  # p2 took a Greek token: 3 cards, any 2 drawn
    ctx = Context(events=4, box=P2)
    assert solo.wanted(UiState(mode=Mode.PROMPT, events=4), state, ctx) is None
    scanned = UiState(mode=Mode.PROMPT, events=4, tokens=("zeus", "hades"))
    want = solo.wanted(scanned, state, ctx)
    assert want == solo.Wanted(4, ("zeus", "hades"))
    move = solo.box_move(state, want, QUICK)
    assert isinstance(move, PlaceDivinity) and set(move.drawn) == {"zeus", "hades"}
    apply(state, move)
