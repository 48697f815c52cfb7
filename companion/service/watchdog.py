"""Tell systemd that the service is ready, alive, and what it is doing (sd_notify).

The unit is `Type=notify` with `WatchdogSec=`: systemd waits for `ready()` before it counts the
service as started, and restarts it when `ping()` stops arriving. Without `NOTIFY_SOCKET` (tests,
a terminal, the demo) every call does nothing.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping
from typing import Protocol

DEFAULT_INTERVAL = 5.0  # seconds between pings when systemd does not say WATCHDOG_USEC


class Notifier(Protocol):
    """What `sdnotify.SystemdNotifier` offers: send one sd_notify message."""

    def notify(self, state: str) -> None: ...


class Watchdog:
    """sd_notify messages for the run loop: `ready()`, `ping()` often, `status(text)`.

    Pings are rate-limited to one per `interval` seconds (by default a quarter of systemd's
    WatchdogSec, read from WATCHDOG_USEC), so the loop may call `ping()` on every turn.
    """

    def __init__(
        self,
        notifier: Notifier | None = None,
        *,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        if notifier is None and env.get("NOTIFY_SOCKET"):
            import sdnotify  # only under systemd; it reads NOTIFY_SOCKET from os.environ

            notifier = sdnotify.SystemdNotifier()
        self._notifier = notifier
        self._interval = interval if interval is not None else _interval_from(env)
        self._clock = clock
        self._last_ping: float | None = None
        self._last_status: str | None = None

    @property
    def enabled(self) -> bool:
        """Whether messages go anywhere (a notifier was given or NOTIFY_SOCKET is set)."""
        return self._notifier is not None

    def ready(self) -> None:
        """Tell systemd that start-up is over (the first screen is shown); also a ping."""
        self._send("READY=1")
        self._last_ping = self._clock()

    def ping(self) -> None:
        """Keep the watchdog fed; sends at most one WATCHDOG=1 per interval."""
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self._interval:
            return
        self._send("WATCHDOG=1")
        self._last_ping = now

    def status(self, text: str) -> None:
        """One line for `systemctl status`, e.g. "camera lost"; repeats are not resent."""
        line = " ".join(text.split())
        if line != self._last_status:
            self._send(f"STATUS={line}")
            self._last_status = line

    def stopping(self) -> None:
        """Tell systemd that the service is shutting down on purpose."""
        self._send("STOPPING=1")

    def close(self) -> None:
        """Close sdnotify's socket (it never closes it itself); later calls do nothing."""
        sock = getattr(self._notifier, "socket", None)
        if isinstance(sock, socket.socket):
            sock.close()
        self._notifier = None

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)


def _interval_from(environ: Mapping[str, str]) -> float:
    """A quarter of the watchdog timeout systemd gives (WATCHDOG_USEC), else the default."""
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return DEFAULT_INTERVAL
    return usec / 1_000_000 / 4 if usec > 0 else DEFAULT_INTERVAL
