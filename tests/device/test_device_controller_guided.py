"""Guided entry in the controller: an age entered by scans, an age skipped, a card turned up
and scanned, a covered card refused, and undo through it (tests/records'
partial_deals_civilian_win.jsonl gives the table)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from companion.device import words
from companion.device.controller import (
    Context,
    Input,
    Mode,
    Press,
    Scan,
    Step,
    Tick,
    UiState,
    initial,
    step,
    undone,
)
from companion.device.guided import deal_entries
from companion.device.views import ChoiceView, MessageView
from companion.engine.cards import Catalog
from companion.engine.events import ChooseStarter, Deal, Event, Reveal
from companion.engine.rules import apply, new_game
from companion.engine.state import GameState
from companion.service.playback import read_record

RECORD = Path(__file__).parents[1] / "records" / "partial_deals_civilian_win.jsonl"


@dataclass
class Table:
    """The controller with the run loop's part played: events applied, undo done."""

    state: GameState
    ui: UiState
    ctx: Context
    history: list[tuple[GameState, Event]] = field(default_factory=list)
    shown: Step | None = None

    def feed(self, *inputs: Input) -> Step:
        for given in inputs:
            result = step(self.ui, self.state, given, self.ctx)
            if result.event is not None:
                self.history.append((self.state, result.event))
                self.state = apply(self.state, result.event)
                self.ctx = replace(self.ctx, events=self.ctx.events + 1, last=result.event)
            if result.undo:
                before, event = self.history.pop()
                after = self.state
                self.state = before
                last = self.history[-1][1] if self.history else None
                self.ctx = replace(self.ctx, events=self.ctx.events - 1, last=last)
                result = undone(result.ui, after, before, event, self.ctx)
            self.ui = result.ui
            self.shown = result
        assert self.shown is not None
        return self.shown

    def done(self) -> None:
        """Let a feedback screen give way."""
        self.feed(Tick(0.0), Tick(10.0))


def table(catalog: Catalog, upto: int) -> tuple[Table, list[Event]]:
    """The record's game after its first `upto` events, on the screen guided entry gives."""
    events = read_record(RECORD)
    state = new_game(catalog)
    history = []
    for event in events[:upto]:
        history.append((state, event))
        state = apply(state, event)
    ctx = Context(events=upto, last=events[upto - 1], guided=True)
    return Table(state, initial(state, ctx), ctx, history), events


def test_an_age_begins_by_scanning_its_face_up_cards_in_layout_order(catalog: Catalog) -> None:
    t, events = table(catalog, 1)  # after the setup
    deal = events[1]
    assert isinstance(deal, Deal)
    assert t.ui.mode is Mode.GUIDED
    view = t.feed(Tick(0.0)).view
    assert isinstance(view, ChoiceView)
    # age 1 shows rows 1, 3 and 5 face up: 2 + 4 + 6 = 12 cards to scan
    assert (view.title, view.subtitle) == ("Age 1: 0/12 cards", "Scan row 1, card 1 of 2")
    assert [o.label for o in view.options] == ["Skip: no deal"]
    cards = deal_entries(catalog, deal)
    assert cards[:2] == ("workshop", "apothecary") and len(cards) == 12
    view = t.feed(Scan(cards[0]), Scan(cards[1])).view
    assert isinstance(view, ChoiceView)
    # row 2 lies face down: the third card asked is row 3's first of 4
    assert (view.title, view.subtitle) == ("Age 1: 2/12 cards", "Scan row 3, card 1 of 4")
    # a card twice, a card of another age, a wonder: one line each, nothing entered
    for wrong, reason in (("workshop", "Workshop: already scanned"),
                          ("sawmill", "Sawmill: age 2 card"),
                          ("the_pyramids", "Pyramids: not an age card")):  # fmt: skip
        shown = t.feed(Scan(wrong))
        assert shown.ui.notice == reason and shown.ui.dealt == cards[:2] and shown.event is None
    # a long left forgets the last card scanned
    assert t.feed(Press("left", long=True)).ui.dealt == cards[:1]
    for card in cards[1:-1]:
        assert t.feed(Scan(card)).event is None
    last = t.feed(Scan(cards[-1]))
    assert last.event == deal  # the partial deal, exactly as recorded
    assert last.ui.mode is Mode.FEEDBACK and last.ui.lines[0] == "Age 1 dealt"
    t.done()
    assert t.ui.mode is Mode.IDLE and t.state.structure is not None


def test_a_skipped_age_goes_on_in_table_mode_and_the_next_age_is_asked_again(
    catalog: Catalog,
) -> None:
    t, _ = table(catalog, 1)
    view = t.feed(Press("select")).view  # the only option: skip
    assert t.ui.mode is Mode.IDLE and t.ui.skipped == 1 and t.state.structure is None
    assert view is not None
    # a card scanned and left with a long left: back to idle, not to the guided entry
    assert t.feed(Scan("garrison")).ui.mode is Mode.CARD
    assert t.feed(Press("left", long=True)).ui.mode is Mode.IDLE
    # in table mode any card of the age is taken: a card of row 1 (covered on the table)
    shown = t.feed(Scan("workshop"), Press("select"))
    assert shown.event is not None and shown.event.type == "build"
    t.done()
    assert t.ui.mode is Mode.IDLE  # the skip holds after the feedback
    # the skip is for age 1 only: once age 2 begins (Ann chose who starts) it is asked again
    age_2, events = table(catalog, 31)
    assert isinstance(events[30], ChooseStarter) and age_2.state.age == 2
    chosen = UiState(mode=Mode.FEEDBACK, lines=("Ann begins age 2",), skipped=1, until=1.0)
    after = step(chosen, age_2.state, Tick(2.0), age_2.ctx)
    assert after.ui.mode is Mode.GUIDED


def test_an_uncovered_card_is_asked_for_by_its_position_and_its_scan_is_a_reveal(
    catalog: Catalog,
) -> None:
    t, events = table(catalog, 3)  # deal, then Ben built garrison (row 5, card 5)
    assert t.ui.mode is Mode.IDLE
    reveal = events[4]
    assert isinstance(reveal, Reveal) and reveal.position == 13
    t.feed(Scan("clay_reserve"), Press("select"))  # Ann builds row 5's last card
    t.done()
    # garrison and clay reserve gone: row 4's last card (position 13, card 5 of 5) is uncovered
    assert t.ui.mode is Mode.REVEAL
    view = t.shown.view if t.shown else None
    assert isinstance(view, MessageView)
    assert view.title == "Card uncovered"
    assert view.lines == ("Turn it up and scan it:", "Row 4, card 5 of 5")
    # the face-up cards of the structure cannot lie under it
    refused = t.feed(Scan("press"))
    assert refused.event is None and refused.ui.notice == "Press: already face up"
    assert t.feed(Scan("the_pyramids")).ui.notice == "Pyramids: not an age card"
    assert t.feed(Scan("garrison")).ui.notice == "Garrison: already played"
    assert t.feed(Scan("sawmill")).ui.notice == "Sawmill: age 2 card"
    assert t.feed(Scan("scientists_guild")).ui.notice == "Scientists Guild: age 3 card"
    shown = t.feed(Scan("theater"))
    assert shown.event == reveal
    assert shown.ui.lines[0] == "Turned up: Theater"
    t.done()
    assert t.ui.mode is Mode.IDLE


def test_a_covered_card_is_refused_in_one_line(catalog: Catalog) -> None:
    t, _ = table(catalog, 2)  # age 1 dealt
    shown = t.feed(Scan("clay_pool"))  # row 3, under row 4's cards
    assert shown.event is None and t.ui.mode is Mode.IDLE
    assert shown.ui.notice == "Clay Pool is covered"


def test_undo_of_a_deal_goes_back_to_the_scan_of_its_last_card(catalog: Catalog) -> None:
    t, events = table(catalog, 1)
    deal = events[1]
    assert isinstance(deal, Deal)
    cards = deal_entries(catalog, deal)
    t.feed(*(Scan(card) for card in cards))
    assert t.state.structure is not None
    t.done()
    assert t.feed(Press("select", long=True)).ui.mode is Mode.UNDO
    shown = t.feed(Press("select"))
    assert t.state.structure is None and t.ui.mode is Mode.GUIDED
    assert shown.ui.dealt == cards[:-1]
    assert shown.ui.notice == words.undone("Age 1 dealt")
    view = shown.view
    assert isinstance(view, ChoiceView) and view.subtitle == "Scan row 5, card 6 of 6"
    assert t.feed(Scan(cards[-1])).event == deal  # scanned again: the same deal


def test_undo_of_a_reveal_asks_for_the_card_again(catalog: Catalog) -> None:
    t, _ = table(catalog, 5)  # ... Ann built clay reserve, theater turned up
    assert t.ui.mode is Mode.IDLE
    t.feed(Press("select", long=True), Press("select"))
    assert t.ui.mode is Mode.FEEDBACK and t.ui.lines == ("Undone:", "Turned up: Theater")
    t.done()
    assert t.ui.mode is Mode.REVEAL


def test_the_guided_screen_survives_json(catalog: Catalog) -> None:
    ui = UiState(mode=Mode.GUIDED, dealt=("workshop", "apothecary"), skipped=2)
    assert UiState.from_json(ui.to_json()) == ui
    old = {k: v for k, v in ui.to_json().items() if k not in ("dealt", "skipped")}
    assert UiState.from_json(old) == replace(ui, dealt=(), skipped=0)  # an older save


@pytest.mark.parametrize("guided", [False, True])
def test_without_guided_entry_the_age_starts_idle(catalog: Catalog, guided: bool) -> None:
    t, _ = table(catalog, 1)
    ui = initial(t.state, replace(t.ctx, guided=guided))
    assert ui.mode is (Mode.GUIDED if guided else Mode.IDLE)
