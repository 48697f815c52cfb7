"""hardware.buttons driven through gpiozero's MockFactory, with an injected clock for bounce."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

from companion.config import Config
from companion.device.views import BUTTON_MAP
from companion.inputs import Press
from hardware.buttons import Buttons, Debouncer
from hardware.faults import StuckButtonGuard

PINS = {"left": 5, "select": 6, "right": 13}


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


class Recorder:
    """Collects presses; gpiozero calls back from its own threads, so tests wait on events."""

    def __init__(self) -> None:
        self.presses: list[Press] = []
        self.got_short = threading.Event()
        self.got_long = threading.Event()

    def __call__(self, press: Press) -> None:
        self.presses.append(press)
        (self.got_long if press.long else self.got_short).set()


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_release_is_one_short_press_of_that_button(pins: MockFactory) -> None:
    record = Recorder()
    with Buttons(PINS, record, hold_time=5.0, pin_factory=pins):
        pins.pin(PINS["left"]).drive_low()  # pulled up: pressed is low
        assert record.presses == []  # nothing until the release
        pins.pin(PINS["left"]).drive_high()
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("left")]


def test_a_hold_is_one_long_press_and_its_release_adds_nothing(pins: MockFactory) -> None:
    record = Recorder()
    with Buttons(PINS, record, hold_time=0.05, pin_factory=pins):
        pins.pin(PINS["select"]).drive_low()
        assert record.got_long.wait(1.0)
        pins.pin(PINS["select"]).drive_high()
        pins.pin(PINS["right"]).drive_low()  # a later press still comes through
        pins.pin(PINS["right"]).drive_high()
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("select", long=True), Press("right")]


def test_contact_bounce_gives_one_press(pins: MockFactory) -> None:
    clock = FakeClock()
    record = Recorder()
    left = pins.pin(PINS["left"])
    with Buttons(PINS, record, hold_time=5.0, bounce_time=0.02, pin_factory=pins, clock=clock):
        for step in range(3):  # the contacts chatter for 3 ms when pressed
            clock.now += 0.001
            left.drive_low()
            left.drive_high() if step < 2 else None
        clock.now += 0.2  # held for 200 ms
        left.drive_high()
        for _ in range(2):  # and chatter again when let go
            clock.now += 0.001
            left.drive_low()
            left.drive_high()
        assert record.got_short.wait(1.0)
        clock.now += 0.5
        left.drive_low()  # a second, clean press
        clock.now += 0.1
        left.drive_high()
    assert record.presses == [Press("left"), Press("left")]


def test_a_tap_shorter_than_the_bounce_time_is_not_a_press(pins: MockFactory) -> None:
    clock = FakeClock()
    record = Recorder()
    right = pins.pin(PINS["right"])
    with Buttons(PINS, record, hold_time=5.0, bounce_time=0.02, pin_factory=pins, clock=clock):
        right.drive_low()
        clock.now += 0.005
        right.drive_high()  # 5 ms: noise on the line
        clock.now += 1.0
        right.drive_low()  # then a real press starts afresh
        clock.now += 0.1
        right.drive_high()
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("right")]


def test_a_stuck_button_is_ignored_until_released(pins: MockFactory) -> None:
    clock = FakeClock()
    guard = StuckButtonGuard(stuck_after=10.0, clock=clock)
    record = Recorder()
    with Buttons(PINS, record, hold_time=5.0, guard=guard, pin_factory=pins):
        pins.pin(PINS["left"]).drive_low()
        clock.now += 60.0  # held a minute: a shorted or jammed button
        assert guard.check() == ["left"]
        pins.pin(PINS["left"]).drive_high()  # this release is not a press
        pins.pin(PINS["left"]).drive_low()
        pins.pin(PINS["left"]).drive_high()  # back in use
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("left")]


class ShortedPin(MockPin):
    """A pin whose button is shorted to ground: low whatever its pull-up says."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


def test_buttons_down_at_start_count_as_pressed() -> None:
    factory = MockFactory(pin_class=ShortedPin)
    clock = FakeClock()
    guard = StuckButtonGuard(stuck_after=10.0, clock=clock)
    try:
        with Buttons(PINS, Recorder(), hold_time=5.0, guard=guard, pin_factory=factory):
            clock.now += 11.0  # gpiozero gave no edge, yet the guard knows they are down
            assert guard.check() == ["left", "right", "select"]
    finally:
        factory.reset()


def test_close_releases_the_pins(pins: MockFactory) -> None:
    buttons = Buttons(PINS, Recorder(), pin_factory=pins)
    with pytest.raises(GPIOPinInUse):
        Button(PINS["left"], pin_factory=pins)
    buttons.close()
    buttons.close()  # twice is harmless
    for pin in PINS.values():
        Button(pin, pin_factory=pins).close()


def test_a_pin_in_use_releases_the_pins_already_taken(pins: MockFactory) -> None:
    taken = Button(PINS["right"], pin_factory=pins)
    with pytest.raises(GPIOPinInUse):
        Buttons(PINS, Recorder(), pin_factory=pins)
    taken.close()
    Button(PINS["left"], pin_factory=pins).close()  # left was given back


def test_debouncer_accepts_edges_only_after_the_bounce_time() -> None:
    clock = FakeClock()
    bouncy = Debouncer(0.02, clock)
    assert bouncy.press() and bouncy.down
    clock.now += 0.01
    assert not bouncy.release() and bouncy.down
    clock.now += 0.02
    assert bouncy.release() and not bouncy.down
    assert not bouncy.release()  # not down: nothing to end
    with pytest.raises(ValueError, match="bounce_time must be 0 or more"):
        Debouncer(-1.0, clock)


def test_the_button_map_names_the_configured_buttons() -> None:
    pins = dict(Config.defaults().buttons.pins)
    assert [name for name, _, _ in BUTTON_MAP] == list(pins)
    assert pins == PINS
