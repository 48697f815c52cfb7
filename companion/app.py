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
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from PIL import Image

from companion import controller, present
from companion.controller import Context, Input, Press, Scan, Status, Step, Tick, UiState
from companion.engine.cards import Catalog
from companion.engine.events import Event, IllegalEvent, event_from_record, event_to_record
from companion.game import SCREEN_KEY, Game
from companion.journal import Journal, JournalError

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
class Call:
    """Input: run `action(app)` on the loop thread (phone page changes), then set `done`."""

    action: Callable[[App], Any]
    done: threading.Event
    result: list[Any]


class App:
    """The device for one journal: inputs in, journal rows and screens out.

    `on_event(record)` is called after each event is committed and `on_undo()` after an undo,
    both before the screen shows it (the crash test reads them). `render` draws a view.
    """

    def __init__(
        self,
        catalog: Catalog,
        journal: Journal,
        display: Display,
        *,
        language: str = "en",
        score_url: Callable[[int], str] = lambda game_id: "",
        on_event: Callable[[Mapping[str, Any]], object] | None = None,
        on_undo: Callable[[], object] | None = None,
        render: Callable[[present.View], Image.Image] = present.render,
    ) -> None:
        self.catalog = catalog
        self.journal = journal
        self.display = display
        self.language = language
        self._score_url = score_url
        self._on_event = on_event
        self._on_undo = on_undo
        self._render = render
        self.pairing = ""
        self.game = Game.resume_or_start(catalog, journal)
        self._events = self._load_events()
        self.ui = controller.resume(self._saved_ui(), self.game.state, self.context())
        self._saved: dict[str, Any] | None = None
        self.view: present.View | None = None
        self.image: Image.Image | None = None
        self.frames = 0

    # --- state ---

    @property
    def state(self) -> Any:
        """The game state now."""
        return self.game.state

    def context(self) -> Context:
        """What the controller reads besides the game state."""
        return Context(
            language=self.language,
            last=self._events[-1] if self._events else None,
            events=len(self._events),
            score_url=self._score_url(self.game.game_id),
            pairing=self.pairing,
        )

    def _load_events(self) -> list[Event]:
        return [event_from_record(r) for r in self.journal.effective_events(self.game.game_id)]

    def _saved_ui(self) -> UiState | None:
        raw = self.game.recall(SCREEN_KEY)
        if not isinstance(raw, dict):
            return None
        try:
            return UiState.from_json(raw)
        except ValueError as bad:
            log.warning("saved screen ignored: %s", bad)
            return None

    # --- the loop body ---

    def start(self) -> None:
        """Show the first screen (the resumed one)."""
        self._show(present.view(self.ui, self.state, self.context()))

    def handle(self, given: Input | NewGame | Call) -> None:
        """One input: step, submit or undo, remember the screen, show it."""
        if isinstance(given, Call):
            try:
                given.result.append(given.action(self))
            except Exception as error:  # handed back to the page's thread
                given.result.append(error)
            finally:
                given.done.set()
            self._after_outside_change()
            return
        if isinstance(given, NewGame):
            self.new_game()
            return
        step = controller.step(self.ui, self.state, given, self.context())
        if step.undo:
            step = self._undo(step)
        elif step.new_game:
            self.new_game()
            return
        elif step.event is not None:
            step = self._submit(step)
        self.ui = step.ui
        self._remember()
        self._show(step.view)

    def _submit(self, step: Step) -> Step:
        assert step.event is not None
        try:
            self.game.submit(step.event)
        except IllegalEvent as refused:
            return step.refused(str(refused), self.state, self.context())
        except JournalError as failed:
            log.error("journal refused the event: %s", failed)
            return step.refused("Journal error: not saved", self.state, self.context())
        self._events.append(step.event)
        if self._on_event is not None:
            self._on_event(event_to_record(step.event))
        return step

    def _undo(self, step: Step) -> Step:
        before = self.state
        try:
            self.game.undo()
        except IllegalEvent as refused:
            return step.refused(str(refused), self.state, self.context())
        except JournalError as failed:
            log.error("journal refused the undo: %s", failed)
            return step.refused("Journal error: not undone", self.state, self.context())
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

    def _after_outside_change(self) -> None:
        """A page changed the game through the loop: reload it and settle the screen."""
        self.game = Game(self.catalog, self.journal, self.game.game_id)
        self._events = self._load_events()
        ctx = self.context()
        self.ui = controller.settle(self.state, ctx, status=self.ui.status)
        self._remember()
        self._show(present.view(self.ui, self.state, ctx))

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
            given = Tick(clock())
        if given is None:  # the input sources are done (a script ended)
            break
        app.handle(given)
        ping()


class LoopControl:
    """The phone pages' changes, run on the loop thread so that its `Game` stays the writer."""

    def __init__(self, inbox: queue.Queue[Any], timeout: float = 10.0) -> None:
        self._inbox = inbox
        self._timeout = timeout

    def _call(self, action: Callable[[App], Any]) -> Any:
        done = threading.Event()
        result: list[Any] = []
        self._inbox.put(Call(action, done, result))
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
        from companion.engine.rules import apply

        def action(app: App) -> None:
            game = _writer(app, game_id)
            event = event_from_record(dict(record))
            if len(game.states) == 1:
                raise IllegalEvent("Nothing to correct")
            apply(game.states[-2], event)
            game.undo()
            game.submit(event)

        self._call(action)

    def import_record(self, lines: Sequence[str]) -> int:
        """Add a game record as a new game; return its id."""
        from companion.game import import_record

        result: int = self._call(lambda app: import_record(app.catalog, app.journal, lines))
        return result


def _writer(app: App, game_id: int) -> Game:
    """The loop's own Game for the live game, else one opened for `game_id`."""
    if game_id == app.game.game_id:
        return app.game
    return Game(app.catalog, app.journal, game_id)


def press_from_key(key: str) -> Press | None:
    """Keyboard stand-in for the buttons: a/s/d short, A/S/D (shift) long; also j/k/l."""
    names = {"a": "left", "s": "select", "d": "right", "j": "left", "k": "select", "l": "right"}
    name = names.get(key.lower())
    if name is None:
        return None
    return Press(name, long=key.isupper())


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
