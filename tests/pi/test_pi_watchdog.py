"""sd_notify from the run loop: ready, rate-limited pings, status; silent off systemd."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from companion.service.watchdog import DEFAULT_INTERVAL, Watchdog


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class RecordingNotifier:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, state: str) -> None:
        self.sent.append(state)


def test_without_notify_socket_every_call_is_a_no_op() -> None:
    watchdog = Watchdog(environ={})
    assert not watchdog.enabled
    watchdog.ready()
    watchdog.ping()
    watchdog.status("camera lost")
    watchdog.stopping()


def test_ready_then_pings_at_most_once_per_interval() -> None:
    clock, notifier = FakeClock(), RecordingNotifier()
    watchdog = Watchdog(notifier, interval=5.0, clock=clock, environ={})
    watchdog.ready()
    watchdog.ping()  # just after ready: nothing new to say
    clock.now += 4.9
    watchdog.ping()
    clock.now += 0.1
    watchdog.ping()
    watchdog.ping()
    clock.now += 5.0
    watchdog.ping()
    assert notifier.sent == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_first_ping_before_ready_is_sent() -> None:
    notifier = RecordingNotifier()
    Watchdog(notifier, interval=5.0, clock=FakeClock(), environ={}).ping()
    assert notifier.sent == ["WATCHDOG=1"]


def test_interval_is_a_quarter_of_systemds_watchdog_timeout() -> None:
    clock, notifier = FakeClock(), RecordingNotifier()
    watchdog = Watchdog(notifier, clock=clock, environ={"WATCHDOG_USEC": "30000000"})
    watchdog.ping()
    clock.now += 7.4
    watchdog.ping()
    clock.now += 0.1
    watchdog.ping()
    assert notifier.sent == ["WATCHDOG=1", "WATCHDOG=1"]


def test_bad_watchdog_usec_falls_back_to_the_default_interval() -> None:
    clock, notifier = FakeClock(), RecordingNotifier()
    watchdog = Watchdog(notifier, clock=clock, environ={"WATCHDOG_USEC": "soon"})
    watchdog.ping()
    clock.now += DEFAULT_INTERVAL - 0.01
    watchdog.ping()
    assert notifier.sent == ["WATCHDOG=1"]


def test_status_is_one_line_and_repeats_are_not_resent() -> None:
    notifier = RecordingNotifier()
    watchdog = Watchdog(notifier, environ={})
    watchdog.status("camera lost\n retrying")
    watchdog.status("camera lost retrying")
    watchdog.status("ready")
    assert notifier.sent == ["STATUS=camera lost retrying", "STATUS=ready"]


def test_messages_reach_the_notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    address = str(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(2.0)
        with Watchdog() as watchdog:
            assert watchdog.enabled
            watchdog.ready()
            watchdog.status("scanning")
        assert not watchdog.enabled
        watchdog.ping()  # closed: goes nowhere
        assert server.recv(100) == b"READY=1"
        assert server.recv(100) == b"STATUS=scanning"
        server.setblocking(False)
        with pytest.raises(BlockingIOError):
            server.recv(100)
