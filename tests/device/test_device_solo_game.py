"""A whole solo game through the device, from the first setup screen to the end screen: the
box (player 2) drafts its own wonders, says every move and answers every decision of its own;
the human plays player 1 with the buttons and the camera's scans (a one-move greedy player
decides), and moves the box's cards for it. Frames go to luma's dummy device.

The README's pictures of the solo flow are frames of this game: written to a temporary folder,
or with UPDATE_REFERENCE=1 to docs/screenshots/ (scripts/screenshots.sh), to be looked at
before committing."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from luma.core.device import dummy
from PIL import Image

from companion.config import Config
from companion.device import solo
from companion.device.choices import entered
from companion.device.controller import Mode, Press, Scan, draft_picker, options
from companion.device.guided import PLAIN_BACK, reveal_position
from companion.device.views import ChoiceView, EndView, IdleView, View
from companion.device.words import BOX, BOX_TAKES, THINKING
from companion.engine.cards import Catalog, TokenId, WonderId
from companion.engine.events import (
    GUILD_BACK,
    Deal,
    Event,
    KeepLibraryToken,
    Reveal,
    Setup,
    event_from_record,
)
from companion.engine.rules import (
    accessible_cards,
    available_library_tokens,
    draft_pickers,
    library_draw,
)
from companion.engine.state import PANTHEON_DECISIONS, GameState, PendingKind, Phase, Player
from companion.play.playout import random_deal
from companion.search.determinize import needs_deal
from companion.search.player import Level, draft_ranking, greedy_event
from companion.service.loop import App, BoxMoved, Call
from companion.service.root import guided_of, open_journal
from hardware.oled import Oled
from tests.device.tables import play_with_deals, save_picture

QUICK = Level("quick", 30)
WAIT = 60.0  # seconds at most for the box's worker (a blocking get, not a sleep)
BOX_SIDE = Player.P2
SEED = 0


@dataclass
class Shown:
    """One frame on the dummy OLED and the view it drew."""

    view: View
    image: Image.Image


@dataclass
class SoloTable:
    """The device in a solo game and the person at the table."""

    catalog: Catalog
    app: App
    inbox: queue.Queue[Any]
    rng: random.Random
    frames: list[Shown] = field(default_factory=list)
    box_events: list[Event] = field(default_factory=list)  # the box's answers, as searched
    box_decisions: list[PendingKind] = field(default_factory=list)
    wrong_card: bool = False  # the human once scanned another card than the box's
    deals: dict[int, Deal] = field(default_factory=dict)  # the cards as they lie, by age

    def press(self, name: str) -> None:
        self.app.handle(Press(name))

    def scan(self, any_id: str) -> None:
        self.app.handle(Scan(any_id))

    def effective(self) -> list[Event]:
        records = self.app.journal.effective_events(self.app.game.game_id)
        return [event_from_record(r) for r in records]

    def wait_for_box(self) -> None:
        """The box's worker posts its answer; the loop handles it."""
        answer = self.inbox.get(timeout=WAIT)
        assert isinstance(answer, BoxMoved)
        self.app.handle(answer)
        assert answer.event is not None
        assert answer.want.events == self.app.context().events  # never asked for a stale one
        self.box_events.append(answer.event)


class LumaDisplay:
    """luma's dummy device behind the kit's Oled adapter, keeping each frame and its view."""

    def __init__(self) -> None:
        self.oled = Oled(dummy(width=128, height=64, mode="1"))
        self.app: App | None = None
        self.frames: list[Shown] = []

    def show(self, image: Image.Image) -> None:
        self.oled.show(image)
        if self.app is not None and self.app.view is not None:
            self.frames.append(Shown(self.app.view, self.oled.device.image.copy()))


def open_table(
    catalog: Catalog, tmp_path: Path, seed: int = SEED, *, guided: bool = False
) -> SoloTable:
    display = LumaDisplay()
    inbox: queue.Queue[Any] = queue.Queue()
    journal = open_journal(tmp_path / "journal.sqlite")
    app = App(catalog, journal, display, guided=guided, post=inbox.put, solo=(BOX_SIDE, QUICK))
    display.app = app
    app.start(welcome=False)
    table = SoloTable(catalog, app, inbox, random.Random(seed))
    table.frames = display.frames
    return table


def set_up(table: SoloTable) -> list[tuple[list[str], str]]:
    """Player 1 begins, a wonder draft, the board's tokens; returns each of the box's picks
    with the wonders offered then. The human takes the first wonder offered."""
    app, catalog = table.app, table.catalog
    wonders = [w.id for w in catalog.wonders]
    table.rng.shuffle(wonders)
    assert app.ui.mode is Mode.FIRST_PLAYER
    view = app.view
    assert isinstance(view, ChoiceView)
    assert [o.label for o in view.options] == ["Player 1 begins", "Box begins"]
    table.press("select")  # Player 1 (the human) begins
    assert app.ui.mode is Mode.WONDER_SETUP
    table.press("select")  # "Wonder draft"
    box_picks: list[tuple[list[str], str]] = []
    for round_wonders in (wonders[:4], wonders[4:8]):
        for wonder in round_wonders:
            table.scan(wonder)
        while app.ui.mode is Mode.DRAFT and app.ui.revealed:
            offered = [w for w in app.ui.revealed if w not in app.ui.picks]
            if draft_picker(app.ui, catalog) is BOX_SIDE:
                box_picks.append((offered, box_pick_shown(table, offered)))
            table.press("select")
    assert app.ui.mode is Mode.TOKENS
    tokens = [t.id for t in catalog.progress_tokens]
    for token in table.rng.sample(tokens, catalog.rules.tokens_on_board):
        table.scan(token)
    assert app.ui.mode is Mode.START
    table.press("select")  # start the game
    assert app.state.phase is Phase.PLAYING
    return box_picks


def box_pick_shown(table: SoloTable, offered: list[str]) -> str:
    """The box's pick on the draft screen: the only option; another wonder's scan is refused."""
    app = table.app
    view = app.view
    assert isinstance(view, ChoiceView) and view.subtitle == BOX_TAKES
    assert len(view.options) == 1
    pick = next(w for w in offered if table.catalog.short_name(w) == view.options[0].label)
    other = next(w for w in offered if w != pick)
    before = app.ui
    table.scan(other)  # the human reaches for another wonder: one line, nothing changes
    name = table.catalog.short_name
    assert app.ui.notice == f"{name(other)}: not the box's pick"
    assert (app.ui.picks, app.ui.revealed) == (before.picks, before.revealed)
    table.scan(pick)  # a scan of the box's wonder points at it; select gives it
    return pick


def box_turn(table: SoloTable) -> None:
    """The box acts: the human scans the tokens a Great Library draws for it, waits for its
    answer, then scans the card it names or confirms its decision with select."""
    app, state = table.app, table.app.state
    pending = state.pending
    if (
        pending is not None
        and pending.kind is PendingKind.GREAT_LIBRARY
        and len(app.ui.tokens) < library_draw(state)
    ):
        pool = available_library_tokens(state)
        for token in table.rng.sample(pool, library_draw(state)):
            table.scan(token)
        return
    if app.context().box_move is None:
        table.wait_for_box()
        return
    move = table.box_events[-1]
    assert app.context().box_move == move
    before = app.context().events
    if pending is not None:
        chosen = [c.event for c in options(app.ui, state, app.context())]
        assert chosen == [move]  # the box's answer is the only option
        table.box_decisions.append(pending.kind)
        table.press("select")
    else:
        view = app.view
        assert isinstance(view, IdleView) and view.player == BOX
        card: str = move.card  # type: ignore[attr-defined]
        other = next((c for c in accessible_cards(state) if c != card), None)
        if not table.wrong_card and other is not None:  # once: refused in one line
            table.scan(other)
            name = table.catalog.short_name
            assert app.ui.notice == f"{name(other)}: not the box's card"
            assert app.context().events == before
            table.wrong_card = True
        table.scan(card)
    assert app.context().events == before + 1
    assert table.effective()[-1] == move


def human_turn(table: SoloTable) -> None:
    """The human's move, chosen by the one-move greedy player, through scans and buttons."""
    app, state = table.app, table.app.state
    drawn: Sequence[TokenId] | None = None
    if state.pending is not None and state.pending.kind is PendingKind.GREAT_LIBRARY:
        drawn = tuple(table.rng.sample(available_library_tokens(state), library_draw(state)))
    move = greedy_event(state, table.rng, drawn)
    played = table.effective()
    play_with_deals(app, [*played, move])
    assert table.effective() == [*played, move]


def the_deal(table: SoloTable, age: int) -> Deal:
    """The cards of the age as they lie on the table (drawn once)."""
    if age not in table.deals:
        table.deals[age] = random_deal(table.catalog, table.rng, age)
    return table.deals[age]


def guided_entry(table: SoloTable) -> None:
    """Guided entry: scan the next face-up card asked, or say which back a face-down shows."""
    app, state = table.app, table.app.state
    deal = the_deal(table, state.age)
    entry = entered(app.ui, state)
    if (index := entry.next_position) is not None:
        table.scan(deal.layout[index])
        return
    back = entry.next_back
    assert back is not None
    guild = table.catalog.card(str(deal.layout[back])).is_guild
    wanted = GUILD_BACK if guild else PLAIN_BACK
    values = [c.value for c in options(app.ui, state, app.context())]
    table.press("select" if values[app.ui.cursor] == wanted else "right")


def play_to_the_end(table: SoloTable) -> None:
    app = table.app
    for _ in range(3_000):
        state: GameState = app.state
        if state.finished:
            return
        if app.ui.mode is Mode.FEEDBACK:
            table.press("left")  # any button ends the feedback screen
        elif app.ui.mode is Mode.GUIDED:  # the box asks for the age's face-up cards
            guided_entry(table)
        elif app.ui.mode is Mode.REVEAL:  # a face-down card was uncovered: turn it up
            index = reveal_position(state)
            assert index is not None
            table.scan(the_deal(table, state.age).layout[index])
        elif state.pending is None and needs_deal(state):  # the age's deal, as the phone gives it
            deal = the_deal(table, state.age)
            app.handle(Call(lambda a, d=deal: a.game.submit(d), threading.Event(), []))
        elif solo.box_acts(state, app.context()):
            box_turn(table)
        else:
            human_turn(table)
    raise AssertionError("the solo game did not end")  # pragma: no cover


def test_a_solo_game_from_the_draft_to_the_end(catalog: Catalog, tmp_path: Path) -> None:
    table = open_table(catalog, tmp_path)
    box_picks = set_up(table)
    # the box picks 2nd and 3rd in round 1 (A B B A, A = player 1 who begins) and 1st in
    # round 2 (B A A B); the 4th wonder of round 2 is left to it
    assert draft_pickers(catalog.rules, Player.P1)[:4] == (Player.P1, BOX_SIDE, BOX_SIDE,
                                                          Player.P1)  # fmt: skip
    assert [len(offered) for offered, _ in box_picks] == [3, 2, 4]
    for offered, pick in box_picks:  # each the best of the wonders still offered
        assert pick == draft_ranking(catalog, [WonderId(w) for w in offered])[0]
    setup = table.effective()[0]
    assert isinstance(setup, Setup)
    box_wonders = setup.wonders[1]
    assert [p for _, p in box_picks] == list(box_wonders[:3])
    play_to_the_end(table)
    app = table.app
    assert app.state.finished and app.ui.mode in (Mode.END, Mode.FEEDBACK)
    box_played = [e for e in table.effective()[1:] if getattr(e, "player", None) is BOX_SIDE]
    # every event of the box's side is an answer of its search, confirmed at the table
    assert box_played == [e for e in table.box_events if e in box_played]
    assert len(box_played) == len(table.box_events)
    assert len(box_played) >= 20  # about half of a game's 60 turns
    # this seed's game asks the box decisions of the rules (who begins an age, a progress
    # token...); each was confirmed with select on its single option (box_turn checks that)
    assert table.box_decisions
    assert table.wrong_card
    pictures = solo_pictures(table.frames)
    assert all(p.size == (128, 64) for p in pictures)
    save_picture(pictures, 3, "oled-solo.png")


def test_a_solo_game_with_each_age_entered_by_guided_scans(
    catalog: Catalog, tmp_path: Path
) -> None:
    """The box knows the table as a real table gives it: the face-up cards scanned at the
    start of each age, each face-down card turned up and scanned when it is uncovered."""
    table = open_table(catalog, tmp_path, guided=True)
    set_up(table)
    play_to_the_end(table)
    assert table.app.state.finished
    played = table.effective()
    deals = [e for e in played if isinstance(e, Deal)]
    assert [d.age for d in deals] == [1, 2, 3]
    assert all(None in d.layout for d in deals)  # the face-down cards stayed unknown
    assert any(isinstance(e, Reveal) for e in played)  # and were turned up when uncovered
    box_played = [e for e in played if getattr(e, "player", None) is BOX_SIDE]
    assert box_played == table.box_events  # each an answer of the box's search, in order


def box_view(view: View, hint: str | None = None) -> bool:
    """The idle screen on the box's turn (with `hint`, or any move when None)."""
    if not isinstance(view, IdleView) or view.player != BOX:
        return False
    return view.hint == hint if hint is not None else view.hint != THINKING and not view.notice


def solo_pictures(frames: Sequence[Shown]) -> list[Image.Image]:
    """The README's solo flow: the box's draft pick, its turn thinking, then its move, another
    card refused, a decision of the rules (a progress token if the game had one), the end."""

    def decision(title: str | None) -> Callable[[View], bool]:
        return lambda v: (
            isinstance(v, ChoiceView)
            and v.title != "Draft"
            and v.subtitle.startswith(BOX)
            and bool(v.options)
            and title in (None, v.title)
        )

    wanted: list[tuple[Callable[[View], bool], ...]] = [
        (lambda v: isinstance(v, ChoiceView) and v.subtitle == BOX_TAKES and not v.notice,),
        (lambda v: box_view(v, THINKING),),
        (lambda v: box_view(v),),
        (lambda v: isinstance(v, IdleView) and v.player == BOX and "the box's card" in v.notice,),
        (decision("Progress token"), decision(None)),
        (lambda v: isinstance(v, EndView),),
    ]
    pictures = []
    for choices in wanted:
        found = next(f for test in choices for f in frames if test(f.view))
        pictures.append(found.image)
    return pictures


def test_a_box_answer_to_every_kind_of_decision(catalog: Catalog) -> None:
    """From recorded games: at each decision, with the box on the deciding side, the only
    option is the search's answer, and select confirms it."""
    from companion.device.controller import Context, UiState, step
    from companion.records.replay import replay_record

    seen: set[PendingKind] = set()
    records = Path(__file__).resolve().parents[1] / "records"
    for path in sorted(records.glob("simulated_*.jsonl")):
        states = replay_record(path.read_text().splitlines(), catalog)
        for state in states:
            pending = state.pending
            if pending is None or pending.kind in seen:
                continue
            seen.add(pending.kind)
            ui = UiState(mode=Mode.PROMPT, events=1)
            want = solo.Wanted(1)
            if pending.kind is PendingKind.GREAT_LIBRARY:  # the human scans the draw first
                drawn = available_library_tokens(state)[: library_draw(state)]
                ui = UiState(mode=Mode.PROMPT, tokens=tuple(drawn), events=1)
                want = solo.Wanted(1, tuple(drawn))
            ctx = Context(events=1, box=pending.player)
            assert solo.wanted(ui, state, ctx) == want
            answer = solo.box_move(state, want, QUICK)
            assert answer is not None
            if isinstance(answer, KeepLibraryToken):
                assert answer.token in answer.drawn and answer.drawn == ui.tokens
            ready = Context(events=1, box=pending.player, box_move=answer)
            assert [c.event for c in options(ui, state, ready)] == [answer]
            assert step(ui, state, Press("select"), ready).event == answer
    assert seen == set(PendingKind) - PANTHEON_DECISIONS  # the base game's records


def test_a_solo_game_without_the_overhead_camera_asks_for_the_table_by_guided_scans(
    catalog: Catalog, tmp_path: Path
) -> None:
    """Table mode tells the box only the cards taken, not where they lie: a solo game enters
    each age by guided scans even when the configuration does not ask for them."""
    assert guided_of(Config.defaults(solo="p2"))
    assert guided_of(Config.defaults(solo="p1", guided=True))
    assert not guided_of(Config.defaults(solo="p2", overhead=True))  # the camera reads it
    assert not guided_of(Config.defaults())  # two players: table mode as configured
    table = open_table(catalog, tmp_path, guided=guided_of(Config.defaults(solo="p2")))
    set_up(table)
    app = table.app
    while app.ui.mode is Mode.FEEDBACK:  # "game started"
        table.press("left")
    assert app.ui.mode is Mode.GUIDED  # "Scan row 1, card 1 of 2", not "Box: needs the deal"
    play_to_the_end(table)
    assert app.state.finished
    deals = [e for e in table.effective() if isinstance(e, Deal)]
    assert [d.age for d in deals] == [1, 2, 3]  # every age entered at the table
