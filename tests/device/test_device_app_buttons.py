"""The run loop's own gpiozero buttons, driven through gpiozero's MockFactory."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.app import GpioButtons
from companion.controller import Press
from hardware.faults import StuckButtonGuard

PINS = {"left": 5, "select": 6, "right": 13}


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


class Recorder:
    """Collects presses; events to wait on, since gpiozero calls back from its own thread."""

    def __init__(self) -> None:
        self.presses: list[Press] = []
        self.got_short = threading.Event()
        self.got_long = threading.Event()

    def __call__(self, press: Press) -> None:
        self.presses.append(press)
        (self.got_long if press.long else self.got_short).set()


def test_a_release_is_a_short_press(pins: MockFactory) -> None:
    record = Recorder()
    with GpioButtons(PINS, record, hold_time=5.0, pin_factory=pins):
        pins.pin(PINS["right"]).drive_low()  # pulled up: pressed is low
        pins.pin(PINS["right"]).drive_high()
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("right")]


def test_a_hold_is_one_long_press_and_no_short_one(pins: MockFactory) -> None:
    record = Recorder()
    with GpioButtons(PINS, record, hold_time=0.05, pin_factory=pins):
        pins.pin(PINS["select"]).drive_low()
        assert record.got_long.wait(1.0)
        pins.pin(PINS["select"]).drive_high()
    assert record.presses == [Press("select", long=True)]


def test_a_stuck_button_is_ignored_until_released(pins: MockFactory) -> None:
    now = [0.0]
    guard = StuckButtonGuard(stuck_after=10.0, clock=lambda: now[0])
    record = Recorder()
    with GpioButtons(PINS, record, hold_time=5.0, guard=guard, pin_factory=pins):
        pins.pin(PINS["left"]).drive_low()
        now[0] = 60.0  # held a minute: a shorted or jammed button
        assert guard.check() == ["left"]
        pins.pin(PINS["left"]).drive_high()  # this release is not a press
        pins.pin(PINS["left"]).drive_low()
        pins.pin(PINS["left"]).drive_high()  # back in use
        assert record.got_short.wait(1.0)
    assert record.presses == [Press("left")]
