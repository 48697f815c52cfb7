"""Keep going when a part of the kit fails: reconnect it later, ignore a stuck button.

Three small pieces for the run loop, each with an injected clock and no threads or sleeps:

- `Reconnecting(name, open_part)` holds a part (the OLED, the camera) opened by a factory. An
  error while opening or using it marks the part lost (logged once, reported through
  `on_change`); `use()` then does nothing and returns None, and the part is reopened with
  exponential backoff each time `use()` or `poll()` is called after the delay, until it works.
- `StuckButtonGuard` reports a button held down longer than `stuck_after` seconds (a shorted
  or jammed button) and tells the adapter to ignore it until it is released.
- `Health` gathers what is lost, for the OLED ("camera lost"), the web page and
  `systemctl status`.

The game never depends on a part: the journal is written by the run loop whatever the parts do.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Backoff:
    """Delays between reopening attempts: `first`, doubled each failure, at most `longest`."""

    first: float = 1.0
    longest: float = 30.0

    def __post_init__(self) -> None:
        if not 0 < self.first <= self.longest:
            raise ValueError(f"backoff needs 0 < first <= longest, got {self}")

    def delay(self, failures: int) -> float:
        """Seconds to wait after `failures` failed attempts in a row (1 or more)."""
        return min(self.longest, self.first * 2.0 ** min(failures - 1, 30))


class Reconnecting(Generic[T]):
    """A part that may fail at any time and come back later.

    `open_part()` builds the part (e.g. `lambda: open_oled(config.display)`); it is called at
    once, and again after each failure once the backoff delay has passed. `errors` are the
    exceptions that mean "the part failed" (I2C and USB errors are OSError); any other exception
    is a bug and propagates. `on_change(name, problem)` is called with a one-line problem when
    the part is lost and with None when it is back. Use from one thread: the run loop.
    """

    def __init__(
        self,
        name: str,
        open_part: Callable[[], T],
        *,
        errors: tuple[type[BaseException], ...] = (OSError,),
        close_part: Callable[[T], object] | None = None,
        on_change: Callable[[str, str | None], object] | None = None,
        backoff: Backoff | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.name = name
        self._open_part = open_part
        self._errors = errors
        self._close_part = close_part
        self._on_change = on_change
        self._backoff = backoff or Backoff()
        self._clock = clock
        self._part: T | None = None
        self._failures = 0
        self._retry_at = 0.0
        self._problem: str | None = None
        self._closed = False
        self._open()

    @property
    def available(self) -> bool:
        """Whether the part is open and working, as far as the last use showed."""
        return self._part is not None

    @property
    def problem(self) -> str | None:
        """Why the part is lost, one line (None while it works)."""
        return self._problem

    def poll(self) -> bool:
        """Reopen a lost part if its retry is due; return whether it is available."""
        if self._part is None and not self._closed and self._clock() >= self._retry_at:
            self._open()
        return self._part is not None

    def use(self, action: Callable[[T], R]) -> R | None:
        """`action(part)`, or None if the part is lost (or fails now, which marks it lost)."""
        if not self.poll():
            return None
        part = self._part
        assert part is not None
        try:
            return action(part)
        except self._errors as error:
            self._lose(error, part)
            return None

    def close(self) -> None:
        """Close the part if open; no more reopening."""
        self._closed = True
        if self._part is not None:
            self._release(self._part)
            self._part = None

    def __enter__(self) -> Reconnecting[T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _open(self) -> None:
        try:
            part = self._open_part()
        except self._errors as error:
            self._fail(error)
            return
        self._part = part
        self._failures = 0
        if self._problem is not None:
            log.warning("%s is back", self.name)  # WARNING: the service logs no INFO by default
            self._problem = None
            self._report(None)

    def _lose(self, error: BaseException, part: T) -> None:
        self._part = None
        self._release(part)
        self._failures = 0  # a part that worked gets a quick first retry
        self._fail(error)

    def _fail(self, error: BaseException) -> None:
        self._failures += 1
        self._retry_at = self._clock() + self._backoff.delay(self._failures)
        if self._problem is None:  # log and report once per loss, not per retry
            self._problem = f"{self.name} lost: {_describe(error)}"
            log.warning("%s; retrying every %.0f s at most", self._problem, self._backoff.longest)
            self._report(self._problem)
        else:
            log.debug("%s still lost: %s", self.name, _describe(error))

    def _release(self, part: T) -> None:
        if self._close_part is None:
            return
        try:
            self._close_part(part)
        except Exception as error:  # a failed part often fails to close too
            log.debug("closing %s failed: %s", self.name, _describe(error))

    def _report(self, problem: str | None) -> None:
        if self._on_change is not None:
            self._on_change(self.name, problem)


class StuckButtonGuard:
    """Ignore a button held down for more than `stuck_after` seconds until it is released.

    The buttons adapter calls `pressed(name)` and `released(name)` as the pin changes (also
    `pressed(name)` at start for a button already down: gpiozero reports no edge for it), and
    asks `allows(name)` before it passes a press on. The run loop calls `check()` on every turn;
    it returns the buttons that just became stuck (each is logged and reported once). A normal
    long press (hold_time, about a second) is far shorter than `stuck_after`, so a button that
    sticks gives one long press before it is found stuck. Safe to call from gpiozero's threads
    and the run loop at once.
    """

    def __init__(
        self,
        stuck_after: float = 10.0,
        *,
        on_change: Callable[[str, str | None], object] | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        if stuck_after <= 0:
            raise ValueError(f"stuck_after must be positive, got {stuck_after}")
        self._stuck_after = stuck_after
        self._on_change = on_change
        self._clock = clock
        self._down_since: dict[str, float] = {}
        self._stuck: set[str] = set()
        self._lock = threading.Lock()

    def pressed(self, name: str) -> None:
        """The button's pin went to its pressed level."""
        with self._lock:
            self._down_since.setdefault(name, self._clock())

    def released(self, name: str) -> bool:
        """The pin came back; return False if the button was stuck (ignore this release)."""
        with self._lock:
            self._down_since.pop(name, None)
            was_stuck = name in self._stuck
            self._stuck.discard(name)
        if not was_stuck:
            return True
        log.warning("button %s released, in use again", name)
        if self._on_change is not None:
            self._on_change(f"button {name}", None)
        return False

    def allows(self, name: str) -> bool:
        """Whether a press of `name` may be passed on (it is not stuck)."""
        self.check()
        return not self.is_stuck(name)

    def is_stuck(self, name: str) -> bool:
        """Whether `name` is held past the limit and ignored."""
        with self._lock:
            return name in self._stuck

    def check(self) -> list[str]:
        """Mark buttons held past the limit as stuck; return those newly stuck."""
        with self._lock:
            now = self._clock()
            newly = sorted(
                name
                for name, since in self._down_since.items()
                if name not in self._stuck and now - since >= self._stuck_after
            )
            self._stuck.update(newly)
        for name in newly:
            problem = f"button {name} stuck"
            log.warning("%s (held %.0f s); ignored until released", problem, self._stuck_after)
            if self._on_change is not None:
                self._on_change(f"button {name}", problem)
        return newly


class Health:
    """What is lost right now, by part, in the order it was lost; feed it `on_change`."""

    def __init__(self) -> None:
        self._problems: dict[str, str] = {}
        self._lock = threading.Lock()

    def __call__(self, part: str, problem: str | None) -> None:
        """Record that `part` has `problem`, or is fine again (None)."""
        with self._lock:
            if problem is None:
                self._problems.pop(part, None)
            else:
                self._problems[part] = problem

    @property
    def ok(self) -> bool:
        """Whether every part works."""
        return not self._problems

    def problems(self) -> dict[str, str]:
        """Part -> one-line problem, oldest first."""
        with self._lock:
            return dict(self._problems)

    def lost(self, part: str) -> bool:
        """Whether `part` is currently reported lost or stuck."""
        return part in self._problems

    def summary(self) -> str:
        """Short line for the OLED and systemctl status: "camera lost", "ok"."""
        problems = self.problems()
        if not problems:
            return "ok"
        return ", ".join(f"{part} {_short(problem, part)}" for part, problem in problems.items())


def _short(problem: str, part: str) -> str:
    """ "camera lost: No such device" -> "lost"."""
    rest = problem.removeprefix(part).strip()
    return rest.split(":", 1)[0].strip() or "failed"


def _describe(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
