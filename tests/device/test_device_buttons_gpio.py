"""hardware.buttons through gpiozero's MockFactory: short and long presses, stuck buttons,
pins released on close. gpiozero calls back from its own threads: wait on Events."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from companion.controller import Press
from hardware.buttons import Buttons
from hardware.faults import StuckButtonGuard

PINS = {"left": 5, "select": 6, "right": 13}


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


class Recorder:
    """Collects presses; an Event per kind of press to wait on."""

    def __init__(self) -> None:
        self.presses: list[Press] = []
        self.got_short = threading.Event()
        self.got_long = threading.Event()

    def __call__(self, press: Press) -> None:
        self.presses.append(press)
        (self.got_long if press.long else self.got_short).set()


def tap(pins: MockFactory, name: str) -> None:
    pins.pin(PINS[name]).drive_low()  # pulled up: pressed is low
    pins.pin(PINS[name]).drive_high()


def test_a_release_is_a_short_press_of_that_button(pins: MockFactory) -> None:
    record = Recorder()
    with Buttons(PINS, record, hold_time=5.0, pin_factory=pins):
        tap(pins, "left")
        assert record.got_short.wait(1.0)
        record.got_short.clear()
        tap(pins, "right")
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("left"), Press("right")]


def test_a_hold_is_one_long_press_and_its_release_no_short_one(pins: MockFactory) -> None:
    record = Recorder()
    with Buttons(PINS, record, hold_time=0.05, pin_factory=pins):
        pins.pin(PINS["select"]).drive_low()
        assert record.got_long.wait(1.0)
        pins.pin(PINS["select"]).drive_high()
        tap(pins, "select")  # the next tap is a short press again
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("select", long=True), Press("select")]


def test_a_stuck_button_is_ignored_until_released(pins: MockFactory) -> None:
    now = [0.0]
    guard = StuckButtonGuard(stuck_after=10.0, clock=lambda: now[0])
    record = Recorder()
    with Buttons(PINS, record, hold_time=5.0, guard=guard, pin_factory=pins):
        pins.pin(PINS["right"]).drive_low()
        now[0] = 60.0  # held a minute: shorted or jammed
        assert guard.check() == ["right"]
        pins.pin(PINS["right"]).drive_high()  # this release is not a press
        tap(pins, "right")  # back in use
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("right")]


def test_close_releases_the_pins(pins: MockFactory) -> None:
    buttons = Buttons(PINS, Recorder(), pin_factory=pins)
    with pytest.raises(GPIOPinInUse):
        Buttons({"other": PINS["select"]}, Recorder(), pin_factory=pins)
    buttons.close()
    buttons.close()  # twice is fine
    with Buttons(PINS, Recorder(), pin_factory=pins):
        pass


def test_a_pin_in_use_releases_the_pins_already_taken(pins: MockFactory) -> None:
    with Buttons({"select": 6}, Recorder(), pin_factory=pins):
        with pytest.raises(GPIOPinInUse):
            Buttons({"left": 5, "again": 6}, Recorder(), pin_factory=pins)
        with Buttons({"left": 5}, Recorder(), pin_factory=pins):  # 5 was given back
            pass
