"""Solo in a Pantheon game: the box activates a divinity (the scan of that divinity confirms
it) and waits for a Mythology deck's draw before it places a divinity."""

from __future__ import annotations

import queue
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.device import solo
from companion.device.choices import is_scanning
from companion.device.controller import Context, Mode, UiState, options
from companion.device.guided import reveal_position
from companion.device.pantheon import activation_answers, is_draw
from companion.device.views import ChoiceView
from companion.engine.cards import TokenId
from companion.engine.events import (
    Activate,
    Event,
    GateActivation,
    PlaceDivinity,
    TheaterActivation,
)
from companion.engine.rules import apply, available_library_tokens, library_draw
from companion.engine.state import GameState, PendingKind, evolve
from companion.inputs import Press, Scan
from companion.play.playout import random_deal
from companion.records.replay import replay_record
from companion.search.determinize import needs_deal
from companion.search.pantheon import CHANCE_DECISIONS, chance_draw, pantheon_decisions
from companion.search.player import Level, greedy_event
from companion.service.loop import App, Call
from companion.service.playback import read_record
from companion.service.root import open_journal
from tests.device.tables import NoScreen, play_with_deals, save_picture, solo_after
from tests.device.test_device_solo_game import SoloTable, open_table, the_deal
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


# --- a whole solo Pantheon game through the device ------------------------------------------


@dataclass
class BoxDraw:
    """One draw the human made for the box: the decision, what was drawn, the screen that
    asked for it, and the box's answer with the screen that said it."""

    kind: PendingKind
    drawn: tuple[str, ...]
    asked: ChoiceView
    answer: Event | None = None
    said: ChoiceView | None = None


def pantheon_set_up(table: SoloTable) -> None:
    """Player 1 (the human) begins; the Pantheon draft (the setup's third option); the
    board's progress tokens."""
    app, catalog = table.app, table.catalog
    table.press("select")  # Player 1 begins
    assert app.ui.mode is Mode.WONDER_SETUP
    table.press("right")
    table.press("right")
    table.press("select")  # "Pantheon draft"
    wonders = [w.id for w in catalog.wonders]
    table.rng.shuffle(wonders)
    for round_wonders in (wonders[:4], wonders[4:8]):
        for wonder in round_wonders:
            table.scan(wonder)
        while app.ui.mode is Mode.DRAFT and app.ui.revealed:
            table.press("select")  # the human's pick, or the box's (its only option)
    tokens = [t.id for t in catalog.progress_tokens]
    for token in table.rng.sample(tokens, catalog.rules.tokens_on_board):
        table.scan(token)
    assert app.ui.mode is Mode.START and app.view is not None
    assert app.view.title == "Ready: Pantheon"
    table.press("select")
    assert app.state.pantheon is not None


def the_draw(table: SoloTable, state: GameState) -> tuple[str, ...]:
    """What the table turns up for a chance decision: the top cards of a Mythology deck,
    the tokens on Enki, the top of each deck for the Gate (drawn by the table's shuffle)."""
    pending = state.pending
    assert pending is not None
    return chance_draw(pantheon_decisions(state, pending, table.rng)[0]) or ()


def box_pantheon_turn(table: SoloTable, draws: list[BoxDraw]) -> None:
    """The box acts: the human draws what the box must draw and scans it, waits for the
    box's answer, then scans the card it names or confirms its decision with select."""
    app, state = table.app, table.app.state
    pending = state.pending
    if pending is not None and pending.kind in CHANCE_DECISIONS and is_draw(app.ui, state):
        asked = app.view
        assert isinstance(asked, ChoiceView)
        drawn = the_draw(table, state)
        draws.append(BoxDraw(pending.kind, drawn, asked))
        for card in drawn:
            table.scan(card)
        assert not is_draw(app.ui, app.state)  # all scanned: the box's search runs
        return
    if (
        pending is not None
        and pending.kind is PendingKind.GREAT_LIBRARY
        and is_scanning(app.ui, state)
    ):
        for token in table.rng.sample(available_library_tokens(state), library_draw(state)):
            table.scan(token)
        return
    if app.context().box_move is None:
        # the box's answers as they come; one asked before the draw was scanned (a deck
        # that leaves a single draw needs none) is dropped once the scans change the question
        while (move := app.context().box_move) is None:
            app.handle(table.inbox.get(timeout=60))
        table.box_events.append(move)
        return
    move = table.box_events[-1]
    before = app.context().events
    if pending is not None:
        view = app.view
        assert isinstance(view, ChoiceView)
        assert [c.event for c in options(app.ui, state, app.context())] == [move]
        if draws and draws[-1].answer is None and pending.kind is draws[-1].kind:
            draws[-1].answer, draws[-1].said = move, view
        table.press("select")
    else:
        card = getattr(move, "card", None)
        if isinstance(move, Activate):  # the card on that space of the Pantheon
            assert state.pantheon is not None
            card = state.pantheon.spaces[move.space - 1]
        assert card is not None
        table.scan(card)
    assert app.context().events == before + 1
    assert table.effective()[-1] == move


def human_pantheon_turn(table: SoloTable) -> None:
    """The human's move (the one-move greedy player), through scans and buttons."""
    app, state = table.app, table.app.state
    pending = state.pending
    drawn: tuple[str, ...] | None = None
    if pending is not None and pending.kind in CHANCE_DECISIONS:
        drawn = the_draw(table, state)
    elif pending is not None and pending.kind is PendingKind.GREAT_LIBRARY:
        drawn = tuple(table.rng.sample(available_library_tokens(state), library_draw(state)))
    move = greedy_event(state, table.rng, [TokenId(d) for d in drawn] if drawn else None)
    if isinstance(move, Activate) and state.pantheon is not None:
        # the activation screen offers the sets of Offering tokens that lower the price;
        # the greedy player may hand in one more than needed: the same price, fewer tokens
        piece = state.pantheon.spaces[move.space - 1] or ""
        offered = [a.event for a in activation_answers(state, piece) if a.refusal is None]
        if move not in offered:
            move = offered[-1]
    played = table.effective()
    play_with_deals(app, [*played, move])
    assert table.effective() == [*played, move]


def play_pantheon_solo(table: SoloTable) -> list[BoxDraw]:
    app = table.app
    draws: list[BoxDraw] = []
    for _ in range(3_000):
        state: GameState = app.state
        if state.finished:
            return draws
        if app.ui.mode is Mode.FEEDBACK:
            table.press("left")
        elif app.ui.mode is Mode.REVEAL:  # a face-down card was uncovered: turn it up
            index = reveal_position(state)
            assert index is not None
            table.scan(the_deal(table, state.age).layout[index])
        elif state.pending is None and needs_deal(state):  # the deal, as the phone gives it
            deal = the_deal(table, state.age)
            app.handle(Call(lambda a, d=deal: a.game.submit(d), threading.Event(), []))
        elif solo.box_acts(state, app.context()):
            box_pantheon_turn(table, draws)
        else:
            human_pantheon_turn(table)
    raise AssertionError("the solo game did not end")  # pragma: no cover


def test_a_solo_pantheon_game_asks_the_human_to_draw_for_the_box(tmp_path: Path) -> None:
    # Seed 6: the box takes 4 Mythology tokens in Age I and activates the Gate in Age III.
    # Each time the OLED asks the human to draw from the face-down deck (the box has no
    # hands), waits for the scans, then names the card the box keeps and where the rest go.
    table = open_table(CATALOG, tmp_path, 6)
    pantheon_set_up(table)
    draws = play_pantheon_solo(table)
    app = table.app
    assert app.state.finished
    assert [d.kind for d in draws] == [PendingKind.DIVINITY] * 4 + [PendingKind.GATE]
    for draw in draws:
        assert isinstance(draw.answer, Event) and draw.said is not None
        if isinstance(draw.answer, PlaceDivinity):
            mythology = CATALOG.pantheon.divinity(draw.drawn[0]).mythology  # type: ignore[union-attr]
            assert (draw.asked.title, draw.asked.subtitle) == (
                f"Box: {mythology.capitalize()}",
                "Draw 2, scan 1/2",
            )
            (other,) = set(draw.drawn) - {draw.answer.divinity}
            name = CATALOG.short_name(other)
            assert draw.said.subtitle == "Box places one"
            assert [(o.label, o.note) for o in draw.said.options] == [
                (f"Space {draw.answer.space}: {CATALOG.short_name(draw.answer.divinity)}",
                 f"put {name} back"),
            ]  # fmt: skip
        else:
            assert isinstance(draw.answer, GateActivation)
            assert (draw.asked.title, draw.asked.subtitle) == (
                "Box: the Gate",
                "Turn up 5, scan 1/5",
            )
            assert draw.answer.revealed == draw.drawn  # as scanned, one per deck
            chosen = CATALOG.short_name(draw.answer.divinity)
            assert [(o.label, o.note) for o in draw.said.options] == [
                (chosen, "activate; rest back")
            ]
    box_played = [e for e in table.effective() if getattr(e, "player", None) is P2]
    assert box_played == table.box_events  # every one an answer of the box's search
    frames = [
        f.image
        for f in table.frames
        if any(f.view in (d.asked, d.said) for d in (draws[0], draws[-1]))
    ]
    save_picture(frames[:4], 2, "oled-solo-pantheon.png")


def box_from(tmp_path: Path, lines: int) -> tuple[App, queue.Queue[Any]]:
    """The device in solo, the box playing p2, on the golden record's first `lines` events
    (entered by two players, then the device restarted in solo), and the box's inbox."""
    events = read_record(RECORD)
    journal = open_journal(tmp_path / "journal.sqlite")
    inbox: queue.Queue[Any] = queue.Queue()
    app = solo_after(
        CATALOG,
        journal,
        events[:lines],
        lambda: App(CATALOG, journal, NoScreen(), post=inbox.put, solo=(P2, QUICK)),
    )
    return app, inbox


def test_the_box_asks_for_the_tokens_on_enki_then_says_which_it_keeps(tmp_path: Path) -> None:
    app, inbox = box_from(tmp_path, 43)  # p2 has just activated Enki (the record's line 43)
    assert app.state.pending is not None and app.state.pending.kind is PendingKind.ENKI
    view = app.view
    assert isinstance(view, ChoiceView)
    assert (view.title, view.subtitle) == ("Box: Enki", "Scan its tokens 1/2")
    app.handle(Scan("law"))
    app.handle(Scan("theology"))
    app.handle(inbox.get(timeout=60))  # the box's answer
    view = app.view
    assert isinstance(view, ChoiceView) and view.subtitle == "Box keeps one"
    (only,) = view.options
    assert (only.label, only.detail) in (("Law", "keep"), ("Theology", "keep"))
    app.handle(Press("select"))
    kept = app.journal.effective_events(app.game.game_id)[-1]
    assert kept["type"] == "enki" and kept["drawn"] == ["law", "theology"]
    assert kept["token"] == only.label.lower()
    app.journal.close()


def test_with_the_divine_theater_the_box_names_the_divinity_to_take_from_its_deck(
    tmp_path: Path,
) -> None:
    app, inbox = box_from(tmp_path, 53)  # p2 has just built the Divine Theater (line 53)
    state = app.state
    assert state.pending is not None and state.pending.kind is PendingKind.THEATER
    app.handle(inbox.get(timeout=60))
    move = app.context().box_move
    assert isinstance(move, TheaterActivation)
    assert state.pantheon is not None
    assert any(move.divinity in deck for deck in state.pantheon.decks)
    view = app.view
    assert isinstance(view, ChoiceView)
    mythology = CATALOG.pantheon.divinity(move.divinity).mythology  # type: ignore[union-attr]
    (only,) = view.options  # the deck to look through: the divinity's mythology
    assert only.label == CATALOG.short_name(move.divinity)
    assert mythology.capitalize() in (only.detail, only.note)
    app.handle(Press("select"))
    assert app.journal.effective_events(app.game.game_id)[-1]["type"] == "theater"
    app.journal.close()
