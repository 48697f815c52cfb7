"""Parts that fail and come back: the OLED, the camera, a stuck button (fakes, FakeClock)."""

from __future__ import annotations

import logging

import pytest

from hardware.faults import Backoff, Health, Reconnecting, StuckButtonGuard


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeBus:
    """An I2C bus the test can unplug: opening and writing fail while it is unplugged."""

    def __init__(self) -> None:
        self.plugged = True
        self.opened = 0
        self.closed = 0

    def open(self) -> FakeOled:
        self.opened += 1
        if not self.plugged:
            raise OSError(121, "Remote I/O error")
        return FakeOled(self)


class FakeOled:
    def __init__(self, bus: FakeBus) -> None:
        self.bus = bus
        self.shown: list[str] = []

    def show(self, image: str) -> str:
        if not self.bus.plugged:
            raise OSError(121, "Remote I/O error")
        self.shown.append(image)
        return image

    def close(self) -> None:
        self.bus.closed += 1


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_backoff_doubles_up_to_the_longest_delay() -> None:
    backoff = Backoff(first=1.0, longest=8.0)
    assert [backoff.delay(n) for n in range(1, 7)] == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert Backoff(0.5, 30).delay(10_000) == 30


def test_backoff_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="first <= longest"):
        Backoff(first=5, longest=1)


def test_oled_unplugged_while_showing_is_lost_then_back_after_backoff(clock: FakeClock) -> None:
    bus, changes = FakeBus(), []
    oled = Reconnecting(
        "oled",
        bus.open,
        close_part=FakeOled.close,
        on_change=lambda part, problem: changes.append((part, problem)),
        backoff=Backoff(first=1.0, longest=4.0),
        clock=clock,
    )
    assert oled.use(lambda d: d.show("a")) == "a"
    bus.plugged = False
    assert oled.use(lambda d: d.show("b")) is None  # fails now: lost, not raised
    assert not oled.available
    assert oled.problem == "oled lost: OSError: [Errno 121] Remote I/O error"
    assert bus.closed == 1
    # While lost, showing is a no-op and nothing is reopened before the delay.
    assert oled.use(lambda d: d.show("c")) is None
    assert bus.opened == 1
    clock.advance(1.0)
    assert oled.use(lambda d: d.show("d")) is None  # retried, still unplugged
    assert bus.opened == 2
    clock.advance(1.9)  # second delay is 2 s
    assert not oled.poll()
    assert bus.opened == 2
    clock.advance(0.1)
    bus.plugged = True
    assert oled.use(lambda d: d.show("e")) == "e"
    assert oled.available and oled.problem is None
    assert changes == [("oled", "oled lost: OSError: [Errno 121] Remote I/O error"), ("oled", None)]


def test_part_missing_at_start_does_not_stop_the_service(clock: FakeClock) -> None:
    bus = FakeBus()
    bus.plugged = False
    oled = Reconnecting("oled", bus.open, clock=clock)
    assert not oled.available
    assert oled.use(lambda d: d.show("x")) is None
    bus.plugged = True
    clock.advance(1.0)
    assert oled.poll()
    assert oled.use(lambda d: d.show("y")) == "y"


def test_backoff_grows_while_the_part_stays_away(clock: FakeClock) -> None:
    bus = FakeBus()
    bus.plugged = False
    oled = Reconnecting("oled", bus.open, backoff=Backoff(1.0, 4.0), clock=clock)
    attempts = []
    for _ in range(20):  # 20 s of a loop polling every second
        clock.advance(1.0)
        oled.poll()
        attempts.append(bus.opened)
    # Opened at start, then after 1, 2, 4, 4, 4, 4 ... seconds.
    assert attempts[:8] == [2, 2, 3, 3, 3, 3, 4, 4]
    assert bus.opened == 1 + 6


def test_loss_is_logged_once_and_recovery_once(
    clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="hardware.faults")
    bus = FakeBus()
    oled = Reconnecting("oled", bus.open, clock=clock)
    bus.plugged = False
    for _ in range(10):
        oled.use(lambda d: d.show("x"))
        clock.advance(30)
    bus.plugged = True
    clock.advance(30)
    oled.poll()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert messages[0].startswith("oled lost: OSError")
    assert messages[1] == "oled is back"


def test_errors_that_are_not_part_failures_propagate(clock: FakeClock) -> None:
    bus = FakeBus()
    oled = Reconnecting("oled", bus.open, clock=clock)
    with pytest.raises(ZeroDivisionError):
        oled.use(lambda d: 1 / 0)
    assert oled.available


def test_chosen_errors_count_as_failures(clock: FakeClock) -> None:
    class DeviceNotFoundError(Exception):
        pass

    def open_missing() -> FakeOled:
        raise DeviceNotFoundError("I2C device not found on address: 0x3C")

    oled = Reconnecting("oled", open_missing, errors=(OSError, DeviceNotFoundError), clock=clock)
    assert oled.problem == "oled lost: DeviceNotFoundError: I2C device not found on address: 0x3C"


def test_close_releases_the_part_and_stops_reopening(clock: FakeClock) -> None:
    bus = FakeBus()
    with Reconnecting("oled", bus.open, close_part=FakeOled.close, clock=clock) as oled:
        assert oled.available
    assert bus.closed == 1
    clock.advance(100)
    assert not oled.poll()
    assert bus.opened == 1


def test_close_failing_on_a_lost_part_is_ignored(clock: FakeClock) -> None:
    bus = FakeBus()

    def close_broken(part: FakeOled) -> None:
        raise OSError(5, "Input/output error")

    oled = Reconnecting("oled", bus.open, close_part=close_broken, clock=clock)
    bus.plugged = False
    assert oled.use(lambda d: d.show("x")) is None
    assert not oled.available


class FakeCamera:
    """A camera that returns frames until unplugged; reads then raise, as V4L2 does."""

    def __init__(self, frames: list[int]) -> None:
        self.frames = frames

    def read(self) -> int:
        if not self.frames:
            raise OSError(19, "No such device")
        return self.frames.pop(0)


def test_camera_lost_shows_in_health_and_clears_when_back(clock: FakeClock) -> None:
    health = Health()
    plugged = [True]

    def open_camera() -> FakeCamera:
        if not plugged[0]:
            raise OSError(2, "No such file or directory: '/dev/video0'")
        return FakeCamera([1, 2])

    camera = Reconnecting("camera", open_camera, on_change=health, clock=clock)
    assert [camera.use(FakeCamera.read) for _ in range(3)] == [1, 2, None]
    plugged[0] = False
    assert health.summary() == "camera lost"
    assert health.lost("camera") and not health.ok
    clock.advance(1.0)
    assert camera.use(FakeCamera.read) is None
    plugged[0] = True
    clock.advance(2.0)
    assert camera.use(FakeCamera.read) == 1
    assert health.ok and health.summary() == "ok"


def test_health_lists_every_lost_part_oldest_first() -> None:
    health = Health()
    health("oled", "oled lost: OSError: x")
    health("camera", "camera lost: OSError: y")
    health("button select", "button select stuck")
    assert health.summary() == "oled lost, camera lost, button select stuck"
    health("oled", None)
    assert list(health.problems()) == ["camera", "button select"]


def test_button_held_past_the_limit_is_stuck_and_ignored_until_released(
    clock: FakeClock,
) -> None:
    changes: list[tuple[str, str | None]] = []
    guard = StuckButtonGuard(10.0, on_change=lambda p, m: changes.append((p, m)), clock=clock)
    guard.pressed("select")
    clock.advance(9.9)
    assert guard.check() == []
    assert guard.allows("select")  # a long press, not yet stuck
    clock.advance(0.1)
    assert guard.check() == ["select"]
    assert guard.check() == []  # reported once
    assert not guard.allows("select")
    assert guard.allows("left")  # the others still work
    assert guard.released("select") is False  # the stuck release is not a press
    assert guard.allows("select")
    guard.pressed("select")
    clock.advance(0.2)
    assert guard.released("select") is True
    assert changes == [("button select", "button select stuck"), ("button select", None)]


def test_stuck_guard_marks_stuck_when_asked_without_check(clock: FakeClock) -> None:
    guard = StuckButtonGuard(5.0, clock=clock)
    guard.pressed("right")
    guard.pressed("right")  # a repeated edge does not restart the timer
    clock.advance(3.0)
    guard.pressed("right")
    clock.advance(2.0)
    assert not guard.allows("right")
    assert guard.is_stuck("right")


def test_stuck_guard_feeds_health(clock: FakeClock) -> None:
    health = Health()
    guard = StuckButtonGuard(5.0, on_change=health, clock=clock)
    guard.pressed("left")
    clock.advance(6.0)
    guard.check()
    assert health.summary() == "button left stuck"
    guard.released("left")
    assert health.ok


def test_stuck_guard_refuses_a_nonpositive_limit() -> None:
    with pytest.raises(ValueError, match="positive"):
        StuckButtonGuard(0)
