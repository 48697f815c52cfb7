"""Solo: the box plays player 2. Its move is searched on a worker thread; the idle screen
says it; the scan of that card confirms it, another card is refused in one line; a decision
of the box's is its answer alone, confirmed with select."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from companion.device import solo
from companion.device.controller import Context, Mode, Press, Scan, UiState, options, step
from companion.device.views import ChoiceView, IdleView
from companion.device.words import BOX, THINKING, Voice, box_move
from companion.engine.cards import CardId, Catalog, WonderId
from companion.engine.events import BuildWonder, Discard, Event, event_from_record
from companion.engine.state import Player
from companion.records.replay import replay_record
from companion.search.player import Level, root_events
from companion.search.policy import acting_player
from companion.service.loop import App, BoxMoved
from companion.service.playback import read_record
from companion.service.root import open_journal
from tests.device.tables import play_with_deals, solo_after

RECORDS = Path(__file__).resolve().parents[1] / "records"
QUICK = Level("quick", 30)
WAIT = 60.0  # seconds at most for the worker (a blocking get, not a sleep)


def solo_table(catalog: Catalog, tmp_path: Path) -> tuple[App, queue.Queue[Any]]:
    """Setup and the deal of age 1 of a record where p2 begins, by two players (the record's
    draft); then the box is configured to play p2 and the device restarts."""
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    record = read_record(RECORDS / "simulated_civilian_win.jsonl")[:2]

    def solo() -> App:
        return App(catalog, journal, _Frames(), post=inbox.put, solo=(Player.P2, QUICK))

    return solo_after(catalog, journal, record, solo), inbox


class _Frames:
    def show(self, image: Any) -> None:
        self.last = image


def effective(app: App) -> list[Event]:
    return [event_from_record(r) for r in app.journal.effective_events(app.game.game_id)]


def test_the_box_says_its_move_and_the_scan_of_that_card_confirms_it(
    catalog: Catalog, tmp_path: Path
) -> None:
    app, inbox = solo_table(catalog, tmp_path)
    assert acting_player(app.state) is Player.P2  # the record's setup: p2 begins
    assert isinstance(app.view, IdleView) and (app.view.player, app.view.hint) == (BOX, THINKING)
    box_turns = human_turns = 0
    while box_turns < 4:
        before = app.context().events
        if acting_player(app.state) is Player.P2:
            answer = inbox.get(timeout=WAIT)
            assert isinstance(answer, BoxMoved) and answer.want == solo.Wanted(before)
            app.handle(answer)
            expected = solo.box_move(app.state, solo.Wanted(before), QUICK)
            assert expected is not None and answer.event == expected  # the search's best
            assert isinstance(app.view, IdleView) and app.view.player == BOX
            assert app.view.hint == box_move(Voice.oled(app.state), expected)
            card: str = expected.card  # type: ignore[attr-defined]
            other = next(
                e.card for e in root_events(app.state)
                if isinstance(e, Discard) and e.card != card
            )  # fmt: skip
            app.handle(Scan(other))  # the human took the wrong card: one line, nothing changes
            name = catalog.short_name
            assert app.ui.notice == f"{name(other)}: not the box's card"
            assert app.context().events == before
            app.handle(Scan(card))  # the box's card: its move is confirmed
            assert effective(app)[-1] == expected
            box_turns += 1
        else:  # the human discards the first card they may take, with the buttons
            move = next(e for e in root_events(app.state) if isinstance(e, Discard))
            play_with_deals(app, [*effective(app), move])
            human_turns += 1
        assert app.context().events == before + 1
        while app.ui.mode is Mode.FEEDBACK:
            app.handle(Press("left"))
    assert human_turns >= 2  # turns alternate, except after a wonder with another turn


def test_a_decision_of_the_box_is_its_answer_alone(catalog: Catalog) -> None:
    lines = (RECORDS / "simulated_science_win.jsonl").read_text().splitlines()
    states = replay_record(lines, catalog)
    state = next(s for s in states if s.pending is not None)
    box = state.pending.player  # type: ignore[union-attr]
    ctx = Context(events=1, box=box)
    ui = UiState(mode=Mode.PROMPT, events=1)
    waiting = step(ui, state, Press("select"), ctx)  # the search has not answered yet
    assert waiting.event is None and options(ui, state, ctx) == []
    assert isinstance(waiting.view, ChoiceView) and waiting.view.hint == THINKING
    answer = solo.box_move(state, solo.Wanted(1), QUICK)
    assert answer is not None and answer in root_events(state)
    ready = Context(events=1, box=box, box_move=answer)
    assert [choice.event for choice in options(ui, state, ready)] == [answer]
    assert step(ui, state, Press("select"), ready).event == answer


def test_the_box_names_a_wonder_and_its_card() -> None:
    voice = Voice(("Ann", "Box"), lambda any_id: any_id.replace("_", " ").title())
    event = BuildWonder(Player.P2, WonderId("the_pyramids"), CardId("stable"))
    assert box_move(voice, event) == "The Pyramids with Stable"


def test_the_box_picks_in_the_draft_only_on_its_own_turns(catalog: Catalog) -> None:
    from companion.engine.rules import new_game
    from companion.search.player import draft_ranking

    state = new_game(catalog)
    offered = ("the_sphinx", "the_pyramids", "the_appian_way", "the_great_library")
    ui = UiState(mode=Mode.DRAFT, first=Player.P1, revealed=offered)
    best = draft_ranking(catalog, [WonderId(w) for w in offered])[0]
    # player 1 begins: the first pick of round 1 is player 1's (A B B A)
    box_first = Context(box=Player.P1)
    assert [c.value for c in options(ui, state, box_first)] == [best]
    human_first = Context(box=Player.P2)
    assert [c.value for c in options(ui, state, human_first)] == list(offered)
    assert step(ui, state, Press("select"), box_first).ui.picks == (best,)
    # after the human's pick, the next two are the box's (p2): from the three still offered
    after = UiState(mode=Mode.DRAFT, first=Player.P1, revealed=offered, picks=(best,))
    rest = [w for w in offered if w != best]
    second = draft_ranking(catalog, [WonderId(w) for w in rest])[0]
    assert [c.value for c in options(after, state, human_first)] == [second]
    other = next(w for w in rest if w != second)
    refused = step(after, state, Scan(other), human_first)
    assert refused.ui.notice == f"{catalog.short_name(other)}: not the box's pick"
    assert refused.ui.picks == (best,)
