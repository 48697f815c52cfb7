"""The push buttons, through gpiozero: presses in, `Press` values out.

Wire each button between its BCM pin and a ground pin; the internal pull-ups hold the pin high,
so a pressed button reads low. The default pins are left GPIO5 (header pin 29), select GPIO6
(pin 31) and right GPIO13 (pin 33), with ground on pin 30, 34 or 39 (config `buttons.pins`).

| button | short press (on release)         | long press (held `hold_time`)          |
| ------ | -------------------------------- | -------------------------------------- |
| left   | cursor up / previous option      | back: leave the card, undo a setup step |
| select | confirm the option under cursor  | undo the last confirmed action (asks)  |
| right  | cursor down / next option        | the button map (help screen)           |
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from companion.inputs import Press
from hardware.faults import StuckButtonGuard

Clock = Callable[[], float]


class Debouncer:
    """Contact bounce filter for one button: which pin edges are real presses and releases.

    An edge less than `bounce_time` seconds after the last accepted one is bounce and ignored.
    A press edge while the button is already down means the last release was taken for bounce:
    that too-short tap is dropped and the press starts again. `clock` is injected for tests.
    """

    def __init__(self, bounce_time: float, clock: Clock = time.monotonic) -> None:
        if bounce_time < 0:
            raise ValueError(f"bounce_time must be 0 or more, got {bounce_time}")
        self._bounce = bounce_time
        self._clock = clock
        self._down = False
        self._changed = -float("inf")

    @property
    def down(self) -> bool:
        """Whether the button counts as pressed now."""
        return self._down

    def press(self) -> bool:
        """The pin went to its pressed level; return whether this starts a press."""
        now = self._clock()
        if now - self._changed < self._bounce:
            return False
        self._down = True
        self._changed = now
        return True

    def release(self) -> bool:
        """The pin came back; return whether this ends a press."""
        now = self._clock()
        if not self._down or now - self._changed < self._bounce:
            return False
        self._down = False
        self._changed = now
        return True


class Buttons:
    """Push buttons between a GPIO pin and ground (internal pull-ups), through gpiozero.

    `on_press(Press)` is called from gpiozero's threads: a release is a short press, a hold of
    `hold_time` seconds is one long press (and its release adds nothing). Edges closer than
    `bounce_time` seconds (config `buttons.bounce_time`; None or 0 filters nothing) are contact
    bounce, filtered here with `clock` since mock pins ignore gpiozero's own `bounce_time`. A
    button held far longer than a long press is stuck (`guard`) and ignored until released.
    `pin_factory` is gpiozero's (MockFactory in tests). `close()`, or leaving a `with` block,
    releases the pins.

    Raises:
        gpiozero errors (BadPinFactory, GPIOPinInUse...): the pins cannot be had here.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        on_press: Callable[[Press], object],
        *,
        hold_time: float = 1.0,
        bounce_time: float | None = None,
        guard: StuckButtonGuard | None = None,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ) -> None:
        from gpiozero import Button

        self._on_press = on_press
        self._guard = guard or StuckButtonGuard()
        self._lock = threading.Lock()
        self._held: set[str] = set()
        self._debouncers = {name: Debouncer(bounce_time or 0.0, clock) for name in pins}
        self._buttons: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, hold_time=hold_time, pin_factory=pin_factory)
                self._buttons[name] = button
                button.when_pressed = partial(self._press, name)
                button.when_held = partial(self._hold, name)
                button.when_released = partial(self._release, name)
                if button.is_pressed:  # gpiozero gives no edge for a button already down
                    self._press(name)
        except Exception:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        """The buttons, in the order of the pin map."""
        return tuple(self._debouncers)

    def _press(self, name: str) -> None:
        with self._lock:
            if not self._debouncers[name].press():
                return
            self._held.discard(name)  # a new press: an earlier hold is over
        self._guard.pressed(name)

    def _hold(self, name: str) -> None:
        with self._lock:
            if not self._debouncers[name].down or name in self._held:
                return
            self._held.add(name)
        if self._guard.allows(name):
            self._on_press(Press(name, long=True))

    def _release(self, name: str) -> None:
        with self._lock:
            if not self._debouncers[name].release():
                return
            was_held = name in self._held
            self._held.discard(name)
        usable = self._guard.released(name)
        if usable and not was_held:
            self._on_press(Press(name))

    def close(self) -> None:
        """Release the pins (again: nothing)."""
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
