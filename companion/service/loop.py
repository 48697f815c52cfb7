"""The run loop: the one consumer of inputs and the only code with side effects on the game.

Buttons, the keyboard, the camera scanner and the phone pages run on their own threads and
only put values on the loop's queue. For each input the loop asks the pure controller for the
next step, submits its event to the journal through `Game` (committed before the screen says
anything), keeps the screen state beside the game in the journal's meta table (so that a
restart resumes on the same screen), and shows the screen.

`App` is that loop body and is used as is by `duel-companion run` and `duel-companion demo`;
`run_loop` feeds it from the queue. `companion.service.root.run_service` wires the parts of the
kit, or their stand-ins on a machine without it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from PIL import Image

from companion.device import controller, family_scan, present, words
from companion.device import overhead as overhead_rules
from companion.device import solo as solo_rules
from companion.device.coach import SECONDS as COACH_SECONDS
from companion.device.coach import coach_view
from companion.device.controller import Context, Mode, Step, UiState
from companion.device.family_scan import BaseGameScan, Reading
from companion.engine.cards import Catalog
from companion.engine.events import Event, IllegalEvent, event_from_record, event_to_record
from companion.engine.state import Phase, Player
from companion.inputs import Input, Press, Scan, Table, Tick
from companion.records.game import SCREEN_KEY, Game
from companion.records.journal import Journal, JournalError
from companion.records.players import recent_names
from companion.search.player import Level, level_named
from companion.service.pondering import Pondering

T = TypeVar("T")

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5  # how often the loop wakes without input (feedback timeouts, watchdog)


class Display(Protocol):
    """Where screens go: the OLED, an emulated one, or the demo's frame recorder."""

    def show(self, image: Image.Image) -> None:
        """Show one 128x64 mode "1" image."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """Input: start a new game (after a finished one)."""


@dataclass(frozen=True, slots=True)
class TableFrame:
    """Input: the overhead camera's reading of one frame of age `age`'s structure (per
    position a card id, "back", "empty" or None), captured at `at` (perf_counter)."""

    slots: tuple[str | None, ...]
    age: int
    at: float | None = None


@dataclass(frozen=True, slots=True)
class Coached:
    """Input: the coach's answer from its worker thread, for the coach request `ticket`
    made after `events` effective events of game `game_id` (a stale answer is dropped)."""

    ticket: int
    game_id: int
    events: int
    view: present.ChoiceView


@dataclass(frozen=True, slots=True)
class BoxMoved:
    """Input: the solo box's move from its worker thread, for the answer `want` of game
    `game_id` (dropped unless the box still waits for exactly that answer)."""

    game_id: int
    want: solo_rules.Wanted
    event: Event | None


@dataclass(frozen=True, slots=True)
class Call:
    """Input: run `action(app)` on the loop thread (phone page changes), then set `done`."""

    action: Callable[[App], Any]
    done: threading.Event
    result: list[Any]
    reload: bool = True  # the action may have changed the game (not a city reading)


class App:
    """The device for one journal: inputs in, journal rows and screens out.

    `on_event(record)` is called after each event is committed and `on_undo()` after an undo,
    both before the screen shows it (the crash test reads them). `render` draws a view.
    `post` puts an input on the run loop's queue: the coach's search runs on a worker thread
    and posts its answer (`Coached`); without `post` (a script, a test) it runs on the loop.
    `coach` is the search's level and clock limit. `solo` is the side the box plays and its
    level (companion/device/solo.py); its moves are searched the same way.
    """

    def __init__(
        self,
        catalog: Catalog,
        journal: Journal,
        display: Display,
        *,
        language: str = "en",
        guided: bool = False,
        overhead: bool = False,
        score_url: Callable[[int], str] = lambda game_id: "",
        phone_url: str = "",
        on_event: Callable[[Mapping[str, Any]], object] | None = None,
        on_undo: Callable[[], object] | None = None,
        render: Callable[[present.View], Image.Image] = present.render,
        post: Callable[[Any], object] | None = None,
        coach: tuple[Level, float | None] = (level_named("normal"), COACH_SECONDS),
        solo: tuple[Player, Level] | None = None,
    ) -> None:
        self.catalog = catalog
        self.journal = journal
        self.display = display
        self.language = language
        self.guided = guided
        self.overhead = overhead
        self.watch = overhead_rules.Watch()  # the overhead readings, to tables once they agree
        self.table: Table | None = None  # the last table the overhead camera gave
        self.table_latencies: list[float] = []  # first clear frame to a proposal shown, s
        self._score_url = score_url
        self.phone_url = phone_url
        self._on_event = on_event
        self._on_undo = on_undo
        self._render = render
        self._post = post
        self._coach_level, self._coach_seconds = coach
        self._coach: Coached | None = None  # the latest answer
        self._tickets = 0  # coach requests made; only the latest one's answer is shown
        self._solo = solo
        self._box_asked: tuple[int, solo_rules.Wanted] | None = None  # the search running
        self._box: BoxMoved | None = None  # its answer
        self._pondering: Pondering | None = None  # the box thinking on the human's turn
        self._known: tuple[str, ...] | None = None  # recent_names, read once per setup
        self._given: tuple[int, tuple[str, str]] | None = None  # the game's names, as read
        self.pairing = ""
        self.renew_pairing: Callable[[], str] | None = None  # the pages' code maker, if served
        self.game = Game.resume_or_start(catalog, journal)
        self._events = self._load_events()
        self.ui = controller.resume(self._saved_ui(), self.game.state, self.context())
        self.reading = self._saved_reading()  # reading a base game's cities (family_scan)
        self._saved: dict[str, Any] | None = None
        self.view: present.View | None = None
        self.image: Image.Image | None = None
        self.frames = 0
        self.latencies: list[float] = []  # scan-to-screen, seconds

    # --- state ---

    @property
    def state(self) -> Any:
        """The game state now."""
        return self.game.state

    @property
    def pondering(self) -> Pondering | None:
        """The box's thinking on the human's turn (solo, a level that ponders), if any."""
        return self._pondering

    def context(self) -> Context:
        """What the controller reads besides the game state."""
        ctx = self._base_context()
        if self._box is None or self._box.game_id != self.game.game_id:
            return ctx
        if self._box.want != solo_rules.wanted(self.ui, self.state, ctx):
            return ctx
        return replace(ctx, box_move=self._box.event)

    def _base_context(self) -> Context:
        return Context(
            language=self.language,
            last=self._events[-1] if self._events else None,
            events=len(self._events),
            score_url=self._score_url(self.game.game_id),
            pairing=self.pairing,
            phone_url=self.phone_url if self.pairing else "",
            # a Pantheon game needs the tokens on the cards, which table mode cannot tell:
            # its ages are entered by guided scans whatever the configuration asks
            guided=self.guided or self.state.pantheon is not None,
            overhead=self.overhead,
            coach=self._coach.view if self._coach and self._fresh(self._coach) else None,
            box=self._solo[0] if self._solo is not None else None,
            known=self._known_players() if self.state.phase is Phase.SETUP else (),
            names=self._given_names(),
            table=self.table if self.overhead else None,
        )

    def _known_players(self) -> tuple[str, ...]:
        """The remembered players, the most recent first (read once per setup)."""
        if self._known is None:
            try:
                self._known = tuple(recent_names(self.journal))
            except JournalError as failed:  # the sides can still be unnamed
                log.error("journal refused the players: %s", failed)
                return ()
        return self._known

    def _given_names(self) -> tuple[str, str]:
        """The names the game's sides were given (on the phone or the ready screen), "" where
        none: read from the journal once per game and after each change to it."""
        game_id = self.game.game_id
        if self._given is None or self._given[0] != game_id:
            try:
                players = self.journal.game(game_id).players
            except JournalError as failed:  # the OLED says the setup's names then
                log.error("journal refused the game's names: %s", failed)
                return ("", "")
            self._given = (game_id, (players.get("p1", ""), players.get("p2", "")))
        return self._given[1]

    def _fresh(self, answer: Coached | None) -> bool:
        """Whether a coach answer belongs to the latest request and the game as it is now."""
        return (
            answer is not None
            and answer.ticket == self._tickets
            and answer.game_id == self.game.game_id
            and answer.events == len(self._events)
        )

    def _load_events(self) -> list[Event]:
        return [event_from_record(r) for r in self.journal.effective_events(self.game.game_id)]

    def _saved_ui(self) -> UiState | None:
        return self._recall(SCREEN_KEY, UiState.from_json, "screen")

    def _saved_reading(self) -> Reading | None:
        return self._recall(family_scan.READING_KEY, Reading.from_json, "reading")

    def _recall(self, key: str, parse: Callable[[Mapping[str, Any]], T], what: str) -> T | None:
        """A value kept beside the game, or None (missing, or not readable: logged)."""
        raw = self.game.recall(key)
        if not isinstance(raw, dict):
            return None
        try:
            return parse(raw)
        except ValueError as bad:
            log.warning("saved %s ignored: %s", what, bad)
            return None

    # --- the loop body ---

    def start(self, *, welcome: bool = True) -> None:
        """Show the first screen: with `welcome`, the phone page's address and pairing code
        when the pages are served, over the resumed screen."""
        if welcome:
            self.ui = controller.welcome(self.ui, self.context())
        self._show(self._screen(None))  # a reading of cities resumes on its own screen
        self._ask_box()

    def handle(
        self, given: Input | BaseGameScan | NewGame | Call | Coached | BoxMoved | TableFrame
    ) -> None:
        """One input: step, submit or undo, remember the screen, show it."""
        if isinstance(given, TableFrame):  # a table once frames in a row agree
            table = self.watch.frame(given.slots, given.age, given.at)
            if table is not None and self.overhead:
                self.handle(table)
            return
        if isinstance(given, Table):
            self.table = given
        if isinstance(given, Coached):
            if self._fresh(given):  # else the game moved on or another request followed
                self._coach = given
                self._show(self._screen(None))
            return
        if isinstance(given, BoxMoved):
            if (given.game_id, given.want) == self._box_asked:  # else the game moved on
                self._box = given
                self._show(self._screen(None))
            return
        if isinstance(given, Call):
            self._known = None  # a page may have added or renamed a player
            try:
                given.result.append(given.action(self))
            except Exception as error:  # handed back to the page's thread
                given.result.append(error)
            finally:
                given.done.set()
            if given.reload:
                self._after_outside_change()
            else:
                self._show(self._screen(None))
            self._ask_box()
            return
        if isinstance(given, NewGame):
            self.new_game()
            return
        if self.reading is not None and isinstance(given, Press | Scan | BaseGameScan):
            self._read(given)
            return
        if isinstance(given, BaseGameScan):  # a base-game sticker in a Duel: a foreign code
            given = Scan(None, at=given.at)
        before, dealt = self.ui.mode, len(self.ui.dealt)
        step = controller.step(self.ui, self.state, given, self.context())
        recorded = False
        if step.undo:
            step = self._undo(step)
        elif step.renew_pairing:
            step = self._renewed(step)
        elif step.new_game:
            self.new_game()
            return
        elif step.event is not None:
            events = len(self._events)
            step = self._submit(step)
            recorded = len(self._events) > events
        self.ui = step.ui
        self._remember()
        self._show(self._screen(step.view))
        if step.coach:
            self._ask_coach()
        self._ask_box()
        if isinstance(given, Scan) and given.at is not None:
            self.latencies.append(time.perf_counter() - given.at)
        if isinstance(given, Table) and given.at is not None and self.ui.mode is Mode.CARD:
            self.table_latencies.append(time.perf_counter() - given.at)  # a card proposed
        ended = before is Mode.FEEDBACK and self.ui.mode is not Mode.FEEDBACK
        # a card of the deal entered by hand: the view may tell the cards after it
        entered = not isinstance(given, Table) and len(self.ui.dealt) > dealt
        if self.overhead and self.table is not None and (recorded or ended or entered):
            again = self.table.again or recorded  # what the table shows after it
            self.handle(replace(self.table, at=None, again=again))

    def _renewed(self, step: controller.Step) -> controller.Step:
        """A new pairing code from the pages (phones paired before must enter it), shown."""
        if self.renew_pairing is not None:
            self.pairing = self.renew_pairing()
        ui = replace(step.ui, notice=words.CODE_RENEWED)
        return controller.Step(ui, present.view(ui, self.state, self.context()))

    def _ask_coach(self) -> None:
        """Start the coach's search on the state now; its answer comes back as `Coached`."""
        self._tickets += 1
        self._coach = None
        state, level, seconds = self.state, self._coach_level, self._coach_seconds
        key = (self._tickets, self.game.game_id, len(self._events))
        names = self._given_names()

        def think() -> Coached:
            shown = coach_view(state, level, seconds=seconds, language=self.language, names=names)
            return Coached(*key, shown)

        if self._post is None:
            self.handle(think())
            return
        post = self._post
        threading.Thread(target=lambda: post(think()), name="coach", daemon=True).start()

    def _ask_box(self) -> None:
        """Solo: start the search for the box's move when the box acts and waits for it; a
        level that ponders thinks on the human's turn meanwhile (companion/device/pondering.py)."""
        if self._solo is None:
            return
        want = solo_rules.wanted(self.ui, self.state, self._base_context())
        if want is None:
            self._ponder()
            return
        if (self.game.game_id, want) == self._box_asked:
            return
        self._box_asked = (self.game.game_id, want)
        state, level, game_id = self.state, self._solo[1], self.game.game_id
        pondering, self._pondering = self._pondering, None
        if pondering is not None and not pondering.follows(self._events, game_id):
            pondering.cancel()
            pondering = None
        played = self._events[len(pondering.events) :] if pondering is not None else []

        def think() -> BoxMoved:
            ponder = pondering.stop() if pondering is not None else None
            event = solo_rules.box_move(state, want, level, ponder=ponder, played=played)
            return BoxMoved(game_id, want, event)

        if self._post is None:
            self.handle(think())
            return
        post = self._post
        threading.Thread(target=lambda: post(think()), name="box", daemon=True).start()

    def _ponder(self) -> None:
        """On the human's turn, with a level that ponders and a worker thread: keep the
        pondering that follows the game, else start one on the position now."""
        assert self._solo is not None
        state, game_id = self.state, self.game.game_id
        if self._pondering is not None:
            if self._pondering.follows(self._events, game_id):
                return  # the human's turn goes on (a decision after their move)
            self._pondering.cancel()
            self._pondering = None
        if not self._solo[1].ponder or self._post is None or state.phase is not Phase.PLAYING:
            return
        if state.finished or solo_rules.box_acts(state, self._base_context()):
            return
        settings = self._solo[1].settings  # the box's level searches the same way
        self._pondering = Pondering(state, self._events, game_id, settings=settings).start()

    def _submit(self, step: Step) -> Step:
        assert step.event is not None
        try:
            self.game.submit(step.event, step.applied)
        except IllegalEvent as refused:
            return step.refused(str(refused), self.state, self.context())
        except JournalError as failed:
            log.error("journal refused the event: %s", failed)
            return step.refused(words.NOT_SAVED, self.state, self.context())
        self._events.append(step.event)
        if self._on_event is not None:
            self._on_event(event_to_record(step.event))
        if step.names:  # the sides named on the ready screen: as the phone names them
            self._known = self._given = None
            try:
                self.game.name_players(step.names)
            except JournalError as failed:  # the setup is kept; the phone can name them later
                log.error("journal refused the names: %s", failed)
                return replace(step, ui=replace(step.ui, notice=words.NOT_NAMED))
        return step

    def _undo(self, step: Step) -> Step:
        before = self.state
        try:
            self.game.undo(reopen=True)  # the box; it asks first (device)
        except IllegalEvent as refused:
            return step.refused(str(refused), self.state, self.context())
        except JournalError as failed:
            log.error("journal refused the undo: %s", failed)
            return step.refused(words.NOT_UNDONE, self.state, self.context())
        undone = self._events.pop()
        if self._on_undo is not None:
            self._on_undo()
        return controller.undone(step.ui, before, self.state, undone, self.context())

    def new_game(self) -> None:
        """Leave a finished game on the screen's request and set up the next one."""
        self.game = Game.start(self.catalog, self.journal)
        self._events = []
        self.ui = controller.initial(self.state, self.context())
        self._remember()
        self._show(present.view(self.ui, self.state, self.context()))
        self._ask_box()

    def _after_outside_change(self) -> None:
        """A page changed the game through the loop: reload it and settle the screen (a
        setup under way stays where it is: a page only names players before the start)."""
        self.game = Game(self.catalog, self.journal, self.game.game_id)
        self._given = self._known = None  # names given, players added or renamed
        self._events = self._load_events()
        ctx = self.context()
        kept = controller.resume(self.ui, self.state, ctx)
        if self.state.phase is not Phase.SETUP or kept is not self.ui:
            kept = controller.settle(self.state, ctx, status=self.ui.status)
        self.ui = kept
        self._remember()
        self._show(self._screen(None))

    # --- reading the cities of a base game (family_scan) ---

    def start_reading(self, names: Sequence[str]) -> dict[str, Any]:
        """Read these players' cities with the camera (a reading on already starts again).

        Raises:
            ValueError: no player, more than 7, a blank or repeated name (one line).
        """
        self._keep_reading(family_scan.start(names))
        self._show(self._screen(None))
        return family_scan.to_page(self.reading)

    def stop_reading(self) -> dict[str, Any]:
        """End the reading; the Duel screen comes back. Returns the cities as they were."""
        read = family_scan.to_page(self.reading)
        self._keep_reading(None)
        self._show(self._screen(None))
        return read

    def reading_now(self) -> dict[str, Any]:
        """What the score pad polls (`family_scan.to_page`)."""
        return family_scan.to_page(self.reading)

    def _read(self, given: Press | Scan | BaseGameScan) -> None:
        assert self.reading is not None
        if isinstance(given, Press) and given.name == "left" and given.long:
            self._keep_reading(None)  # long left: back to the Duel game
        else:
            self._keep_reading(family_scan.step(self.reading, given, family_scan.base_game_cards()))
        self._show(self._screen(None))

    def _keep_reading(self, reading: Reading | None) -> None:
        """Keep the reading in the journal first (a power loss loses no card), then in memory."""
        try:
            self.game.remember(
                family_scan.READING_KEY, None if reading is None else reading.to_json()
            )
        except JournalError as failed:
            log.warning("reading not saved: %s", failed)
            if reading is not None:
                reading = replace(reading, notice=words.NOT_SAVED)
        self.reading = reading

    def _screen(self, shown: present.View | None) -> present.View:
        """The reading's screen while cities are read, else `shown` or the Duel screen."""
        if self.reading is not None:
            return family_scan.view(
                self.reading, family_scan.base_game_cards().name_of, self.ui.status
            )
        return shown or present.view(self.ui, self.state, self.context())

    def _remember(self) -> None:
        saved = replace(self.ui, until=None).to_json()
        if saved != self._saved:
            try:
                self.game.remember(SCREEN_KEY, saved)
            except JournalError as failed:  # the screen is a convenience; the game is safe
                log.warning("screen not saved: %s", failed)
            self._saved = saved

    def _show(self, shown: present.View) -> None:
        if shown == self.view and self.image is not None:
            return
        self.view = shown
        self.image = self._render(shown)
        self.display.show(self.image)
        self.frames += 1


def run_loop(
    app: App,
    inbox: queue.Queue[Any],
    stop: threading.Event,
    *,
    ping: Callable[[], object] = lambda: None,
    clock: Callable[[], float] = time.monotonic,
    tick: float = TICK_SECONDS,
) -> None:
    """Take inputs until `stop` is set; a Tick when nothing came for `tick` seconds."""
    while not stop.is_set():
        try:
            given = inbox.get(timeout=tick)
        except queue.Empty:
            app.handle(Tick(clock()))
            ping()
            continue
        try:
            if given is None:  # the input sources are done (a script ended)
                break
            app.handle(given)
        finally:
            inbox.task_done()
        ping()
