"""The run loop: the one consumer of inputs and the only code with side effects on the game.

Buttons, the keyboard, the camera scanner and the phone pages run on their own threads and
only put values on the loop's queue. For each input the loop asks the pure controller for the
next step, submits its event to the journal through `Game` (committed before the screen says
anything), keeps the screen state beside the game in the journal's meta table (so that a
restart resumes on the same screen), and shows the screen.

`App` is that loop body and is used as is by `duel-companion run` and `duel-companion demo`.
`run_service` wires the parts of the kit, or their stand-ins on a machine without it.
"""

from __future__ import annotations

import logging
import queue
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PIL import Image

from companion.config import Config, is_raspberry_pi
from companion.device import controller, family_scan, present, words
from companion.device import overhead as overhead_rules
from companion.device import solo as solo_rules
from companion.device.coach import SECONDS as COACH_SECONDS
from companion.device.coach import coach_view
from companion.device.controller import (
    Context,
    Input,
    Mode,
    Press,
    Scan,
    Status,
    Step,
    Table,
    Tick,
    UiState,
)
from companion.device.family_scan import BaseGameScan, Reading
from companion.device.pondering import Pondering
from companion.engine.cards import Catalog
from companion.engine.events import Event, IllegalEvent, event_from_record, event_to_record
from companion.engine.state import GameState, Phase, Player
from companion.records.game import SCREEN_KEY, Game
from companion.records.journal import Journal, JournalError
from companion.records.players import recent_names
from companion.search.player import LEVELS, Level
from hardware.buttons import Buttons
from hardware.faults import Health, Reconnecting, StuckButtonGuard
from hardware.keyboard import cbreak, read_keys
from hardware.keyboard import press_from_key as press_from_key
from hardware.oled import EmulatedOled, open_oled

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
        coach: tuple[Level, float | None] = (LEVELS["normal"], COACH_SECONDS),
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
        self.pairing = ""
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
            guided=self.guided,
            overhead=self.overhead,
            coach=self._coach.view if self._coach and self._fresh(self._coach) else None,
            box=self._solo[0] if self._solo is not None else None,
            known=self._known_players() if self.state.phase is Phase.SETUP else (),
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
        before = self.ui.mode
        step = controller.step(self.ui, self.state, given, self.context())
        recorded = False
        if step.undo:
            step = self._undo(step)
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
        if self.overhead and self.table is not None and (recorded or ended):
            self.handle(replace(self.table, at=None))  # what the table shows after it

    def _ask_coach(self) -> None:
        """Start the coach's search on the state now; its answer comes back as `Coached`."""
        self._tickets += 1
        self._coach = None
        state, level, seconds = self.state, self._coach_level, self._coach_seconds
        key = (self._tickets, self.game.game_id, len(self._events))

        def think() -> Coached:
            return Coached(*key, coach_view(state, level, seconds=seconds, language=self.language))

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
        self._pondering = Pondering(state, self._events, game_id).start()

    def _submit(self, step: Step) -> Step:
        assert step.event is not None
        try:
            self.game.submit(step.event)
        except IllegalEvent as refused:
            return step.refused(str(refused), self.state, self.context())
        except JournalError as failed:
            log.error("journal refused the event: %s", failed)
            return step.refused(words.NOT_SAVED, self.state, self.context())
        self._events.append(step.event)
        if self._on_event is not None:
            self._on_event(event_to_record(step.event))
        if step.names:  # the sides named on the ready screen: as the phone names them
            self._known = None
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
        """A page changed the game through the loop: reload it and settle the screen."""
        self.game = Game(self.catalog, self.journal, self.game.game_id)
        self._events = self._load_events()
        ctx = self.context()
        self.ui = controller.settle(self.state, ctx, status=self.ui.status)
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


# --- the service ----------------------------------------------------------------------------


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


class LoopControl:
    """The phone pages' changes, run on the loop thread so that its `Game` stays the writer."""

    def __init__(self, inbox: queue.Queue[Any], timeout: float = 10.0) -> None:
        self._inbox = inbox
        self._timeout = timeout

    def _call(self, action: Callable[[App], Any], *, reload: bool = True) -> Any:
        done = threading.Event()
        result: list[Any] = []
        self._inbox.put(Call(action, done, result, reload))
        if not done.wait(self._timeout):
            raise JournalError("the device is busy; try again")
        if isinstance(result[0], Exception):
            raise result[0]
        return result[0]

    def undo(self, game_id: int) -> None:
        """Undo the latest effective event of the game."""
        self._call(lambda app: _writer(app, game_id).undo())

    def name_players(self, game_id: int, names: Mapping[str, str]) -> None:
        """Name the players of the game."""
        self._call(lambda app: _writer(app, game_id).name_players(names))

    def correct(self, game_id: int, record: Mapping[str, Any]) -> None:
        """Replace the latest effective event with `record`; refused: nothing changes."""

        def action(app: App) -> None:
            _writer(app, game_id).correct(event_from_record(dict(record)))

        self._call(action)

    def import_record(self, lines: Sequence[str]) -> int:
        """Add a game record as a new game; return its id."""
        from companion.records.game import import_record

        result: int = self._call(lambda app: import_record(app.catalog, app.journal, lines))
        return result

    def write(self, change: Callable[[Journal], T]) -> T:
        """Run `change` on the loop's journal, on the loop thread (players, history import)."""
        result: T = self._call(lambda app: change(app.journal))
        return result

    def start_reading(self, names: Sequence[str]) -> dict[str, Any]:
        """Read the cities of these players (seating order) with the box's camera."""
        result: dict[str, Any] = self._call(lambda app: app.start_reading(names), reload=False)
        return result

    def reading(self) -> dict[str, Any]:
        """The cities read so far (`family_scan.to_page`)."""
        result: dict[str, Any] = self._call(lambda app: app.reading_now(), reload=False)
        return result

    def stop_reading(self) -> dict[str, Any]:
        """End the reading; return the cities as they were."""
        result: dict[str, Any] = self._call(lambda app: app.stop_reading(), reload=False)
        return result


def _writer(app: App, game_id: int) -> Game:
    """The loop's own Game for the live game, else one opened for `game_id`."""
    if game_id == app.game.game_id:
        return app.game
    return Game(app.catalog, app.journal, game_id)


def parse_script_line(line: str) -> Input | None:
    """One line of a `--script`: `left`, `select`, `right`, `long select`, `scan ID`,
    `scan foreign`, `tick SECONDS`; blank lines and `#` comments give None.

    Raises:
        ValueError: anything else.
    """
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    match words:
        case ["long", ("left" | "select" | "right") as name]:
            return Press(name, long=True)
        case [("left" | "select" | "right") as name]:
            return Press(name)
        case ["scan", "foreign"]:
            return Scan(None)
        case ["scan", card]:
            return Scan(card)
        case ["tick", seconds]:
            return Tick(float(seconds))
        case ["status", *problem]:
            return Status(" ".join(problem) or None)
    raise ValueError(f"not a script line: {line.strip()!r}")


# --- the parts of the kit and their stand-ins -----------------------------------------------


class ReconnectingDisplay:
    """A real OLED through `hardware.faults.Reconnecting`: a lost display is reopened later,
    and the last frame is shown again when it is back."""

    def __init__(self, part: Reconnecting[Any]) -> None:
        self._part = part
        self._last: Image.Image | None = None
        self._was_available = part.available

    def show(self, image: Image.Image) -> None:
        """Show the frame if the display works now."""
        self._last = image
        self._part.use(lambda oled: oled.show(image))
        self._was_available = self._part.available

    def poll(self) -> None:
        """Retry a lost display; show the last frame again when it comes back."""
        available = self._part.poll()
        if available and not self._was_available and self._last is not None:
            self._part.use(lambda oled: oled.show(self._last))
        self._was_available = available


def open_display(config: Config, health: Health) -> Display:
    """The configured display: the emulated one, or the OLED on I2C with reconnection."""
    if config.display.driver == "emulated":
        return EmulatedOled(config.display.emulated_dir)
    from luma.core.error import Error as LumaError

    part = Reconnecting("display", lambda: open_oled(config.display),
                        errors=(OSError, LumaError), on_change=health)  # fmt: skip
    return ReconnectingDisplay(part)


def lan_address(host: str) -> str:
    """The address phones use: the machine's LAN address when serving on all interfaces."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # no packet is sent
            address: str = probe.getsockname()[0]
        except OSError:
            address = "127.0.0.1"
    return address


def score_url_for(host: str, port: int) -> Callable[[int], str]:
    """The phone scoring page of a game (route of web/scoring.py)."""
    return lambda game_id: f"http://{host}:{port}/games/{game_id}/score"


def phone_url_for(host: str, port: int) -> str:
    """The phone pages' first page (the game being played, or the history)."""
    return f"http://{host}:{port}/"


def feed_script(lines: Sequence[str], inbox: queue.Queue[Any], stop: threading.Event) -> None:
    """Put each script input on the queue and wait until the loop has handled it; then
    None, which ends the loop. Bad lines are reported and skipped."""
    for number, line in enumerate(lines, start=1):
        if stop.is_set():
            return
        try:
            given = parse_script_line(line)
        except ValueError as bad:
            log.warning("script line %d: %s", number, bad)
            continue
        if given is not None:
            inbox.put(given)
            inbox.join()
    inbox.put(None)


def start_buttons(config: Config, inbox: queue.Queue[Any], health: Health | None = None) -> Any:
    """The push buttons on the configured pins, or None where there are no GPIO pins."""
    if not is_raspberry_pi():
        return None  # the keyboard stands in
    guard = StuckButtonGuard(on_change=health)
    try:
        return Buttons(config.buttons.pins, inbox.put, hold_time=config.buttons.hold_time,
                       bounce_time=config.buttons.bounce_time or None, guard=guard)  # fmt: skip
    except Exception as missing:  # gpiozero finds no pins here (BadPinFactory and the like)
        log.info("no buttons: %s", missing)
        return None


def start_scanner(
    config: Config,
    inbox: queue.Queue[Any],
    health: Health | None = None,
    *,
    on_frame: Callable[[Any, list[Any], float], object] | None = None,
    source: str | None = None,
) -> Any:
    """The camera on its own thread (companion.vision.scanner): each sticker newly shown in the
    scan zone becomes a Scan on the queue; a lost camera is a Status, retried until it is back.
    `on_frame` also gets every frame and its codes (the overhead reading); `source` is another
    camera than the [camera] one (a separate overhead camera, at the reading's resolution).
    """
    from companion.vision.scanner import Scanner
    from companion.vision.tracker import Tracker
    from hardware.camera import open_source

    camera = config.camera
    if source is not None:
        width, height = OVERHEAD_SIZE
        camera = replace(camera, source=source, width=width, height=height, fps=OVERHEAD_FPS)

    def on_status(problem: str | None) -> None:
        if health is not None:
            health("camera", problem)
        inbox.put(Status(problem))

    scanner = Scanner(
        lambda: open_source(
            camera.source,
            camera.width,
            camera.height,
            image_seconds=camera.image_seconds,
            loop=camera.loop,
        ),
        on_scan=lambda scan: inbox.put(family_scan.scan_input(scan)),
        on_status=on_status,
        decoder=config.decoder,
        tracker=Tracker(zone=camera.scan_zone),  # in fractions of each frame's real size
        fps=camera.fps,
        clock=time.perf_counter,  # Scan.at is a perf_counter time, for the latency benchmark
        on_frame=on_frame,
    )
    scanner.start()
    return scanner


OVERHEAD_SIZE = (2304, 1296)  # a separate overhead camera: Camera Module 3's 2304x1296 mode
OVERHEAD_FPS = 4  # frames a second asked of it (the reading takes longer than a frame)


def table_reader(
    catalog: Catalog,
    decoder: str,
    state: Callable[[], GameState],
    post: Callable[[Any], object],
) -> Callable[[Any, list[Any], float], None]:
    """The overhead reading of each camera frame (on the camera's thread): the structure of
    the age being played, read from the codes the scanner decoded with what the box already
    knows there (`overhead.known_cards`: the cards, and the positions taken) and the cards
    it knows are gone (`overhead.taken_cards`), posted as a `TableFrame`. The mount holds
    still: the last fit of each age that told positions is given with the next frames, so a
    frame too dim to place the structure from its own codes still finds the cards known
    where they lie (`read_structure(fit=)`)."""
    from companion.vision.decode import make_decoder
    from companion.vision.structure import read_structure

    # read_structure's own (the codes are given): a frame that reads few codes decoded
    # again sharpened, a position's sticker decoded alone
    spare = make_decoder(decoder)
    fits: dict[int, Any] = {}  # age -> the last fit that told positions

    def on_frame(frame: Any, stickers: list[Any], captured: float) -> None:
        now = state()  # the game as the run loop last left it (states are immutable)
        known = overhead_rules.known_cards(now)
        taken = overhead_rules.taken_cards(now)
        read = read_structure(
            frame, now.age, spare, catalog=catalog, stickers=stickers, known=known, taken=taken,
            fit=fits.get(now.age),
        )  # fmt: skip
        if read.fit is not None:
            fits[now.age] = read.fit
        post(TableFrame(read.slots, now.age, captured))

    return on_frame


# --- the service ----------------------------------------------------------------------------


@dataclass
class ServiceOptions:
    """How `run_service` gets its inputs besides the kit (tests and headless machines)."""

    script: Sequence[str] | None = None  # script lines instead of keyboard and camera
    keyboard: bool = True  # read key presses from stdin when it is a terminal
    camera: bool = True
    web: bool = True
    on_event: Callable[[Mapping[str, Any]], object] | None = None
    on_undo: Callable[[], object] | None = None


def open_journal(path: Path) -> Journal:
    """The journal at `path`, created if missing; a file SQLite finds broken is reported,
    moved aside by the journal, and a new journal is started in its place.

    Raises:
        JournalError: busy, not ours, a newer schema, unreadable, or broken and not movable
            (nothing is moved then).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        return Journal.create(path)
    try:
        return Journal.open(path)
    except JournalError as bad:
        if getattr(bad, "moved_to", None) is None:
            raise
        log.error("%s; a new journal is started", bad)  # the message names where it was kept
        return Journal.create(path)


def run_service(config: Config, options: ServiceOptions | None = None) -> int:
    """The device: wire the parts, resume the game on its screen, and loop until stopped."""
    import signal

    from companion.catalog import default_catalog
    from companion.device.watchdog import Watchdog

    opts = options or ServiceOptions()
    inbox: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    health = Health()
    catalog = default_catalog()
    journal = open_journal(config.journal)
    display = open_display(config, health)
    app = App(catalog, journal, display, language=config.language, guided=config.guided,
              overhead=config.overhead,
              score_url=score_url_for(lan_address(config.web.host), config.web.port),
              phone_url=phone_url_for(lan_address(config.web.host), config.web.port),
              on_event=opts.on_event, on_undo=opts.on_undo, post=inbox.put,
              coach=(LEVELS[config.coach_level], COACH_SECONDS),
              solo=solo_of(config))  # fmt: skip
    threads: list[threading.Thread] = []
    restore: Callable[[], None] = lambda: None  # noqa: E731 - the terminal, if put in cbreak

    def spawn(name: str, target: Callable[..., object], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
        threads.append(thread)

    server = _start_web(config, catalog, inbox, app) if opts.web else None
    app.start(welcome=opts.script is None)  # a script drives the game, not a person
    with Watchdog() as watchdog:
        watchdog.ready()
        if threading.current_thread() is threading.main_thread():

            def terminate(*_: object) -> None:
                stop.set()
                inbox.put(None)

            signal.signal(signal.SIGTERM, terminate)
        buttons = None if opts.script is not None else start_buttons(config, inbox, health)
        if opts.script is not None:
            spawn("script", feed_script, list(opts.script), inbox, stop)
        elif opts.keyboard and sys.stdin is not None and sys.stdin.isatty():
            restore = cbreak(sys.stdin)
            spawn("keyboard", read_keys, inbox, stop, sys.stdin)
        reader = table_reader(catalog, config.decoder, lambda: app.state, inbox.put)
        one = config.overhead and not config.overhead_source  # one camera serves both
        cameras = opts.camera and not opts.script
        scanner = None
        if cameras:
            scanner = start_scanner(config, inbox, health, on_frame=reader if one else None)
        above = None
        if cameras and config.overhead and config.overhead_source:
            above = start_scanner(config, queue.Queue(), health, on_frame=reader,
                                  source=config.overhead_source)  # fmt: skip
        if opts.script is None:
            print(startup_message(config, server, buttons, app.pairing), file=sys.stderr)

        def ping() -> None:
            if isinstance(display, ReconnectingDisplay):
                display.poll()
            watchdog.status(health.summary())
            watchdog.ping()

        try:
            run_loop(app, inbox, stop, ping=ping)
        except KeyboardInterrupt:
            pass
        finally:
            stop.set()
            watchdog.stopping()
            if buttons is not None:
                buttons.close()
            for camera in (scanner, above):
                if camera is not None:
                    camera.stop()
            if server is not None:
                server.close()
            restore()
            journal.close()
    return 0


def solo_of(config: Config) -> tuple[Player, Level] | None:
    """The side the box plays and its level, in a solo game (None: two players)."""
    return (Player(config.solo), LEVELS[config.solo_level]) if config.solo else None


def startup_message(config: Config, server: Any, buttons: Any, pairing: str) -> str:
    """Where a person finds the parts of a running service: screen, buttons, journal, pages."""
    if config.display.driver == "emulated":
        screen = (
            f"{config.display.emulated_dir / 'latest.png'} (emulated OLED, rewritten per frame)"
        )
    else:
        screen = f"{config.display.driver} OLED at I2C 0x{config.display.i2c_address:02X}"
    keys = ("keys a/s/d = left/select/right, A/S/D = long press (hold select = undo), "
            "/card_id Enter = a scan")  # fmt: skip
    pins = ", ".join(f"{name} GPIO{pin}" for name, pin in config.buttons.pins.items())
    lines = [
        "Duel Companion is running (Ctrl+C or SIGTERM stops it).",
        f"  screen:  {screen}",
        f"  buttons: {pins}" if buttons is not None else f"  buttons: {keys}",
        f"  camera:  {config.camera.source}",
        f"  journal: {config.journal}",
    ]
    if config.overhead:
        lines.insert(4, f"  overhead: {config.overhead_source or config.camera.source}")
    if server is not None:
        lines.append(f"  phone:   {server.url}/  (pairing code {pairing})")
    return "\n".join(lines)


def _start_web(config: Config, catalog: Catalog, inbox: queue.Queue[Any], app: App) -> Any:
    """The phone pages in a thread of this process; changes go through the loop's queue."""
    try:
        from web import WebServer, create_app

        flask_app = create_app(config, CATALOG=catalog, CONTROL=LoopControl(inbox))
        app.pairing = str(flask_app.config.get("PAIRING_CODE", ""))
        server = WebServer(flask_app, config.web.host, config.web.port, config.web.threads)
    except (ImportError, OSError) as failed:  # the device works without its pages
        log.error("phone pages not served: %s", failed)
        return None
    log.info("phone pages at %s", server.url)
    return server
