"""The keyboard as the three buttons, on a machine without the kit.

Keys `a` `s` `d` (or `j` `k` `l`) are left, select, right; capitals (`A` `S` `D`) are long
presses. A terminal is read key by key (cbreak mode); anything else (a pipe) line by line.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from companion.controller import Press

KEYS = {"a": "left", "s": "select", "d": "right", "j": "left", "k": "select", "l": "right"}


def press_from_key(key: str) -> Press | None:
    """Keyboard stand-in for the buttons: a/s/d short, A/S/D (shift) long; also j/k/l."""
    name = KEYS.get(key.lower())
    if name is None:
        return None
    return Press(name, long=key.isupper())


def read_keys(inbox: queue.Queue[Any], stop: threading.Event, stream: Any) -> None:
    """Put a press on `inbox` for each button key read from `stream`, until it ends or `stop`
    is set; other keys are ignored. Put the terminal in cbreak mode first (`cbreak`)."""
    while not stop.is_set():
        key = stream.read(1)
        if not key:
            return
        press = press_from_key(key)
        if press is not None:
            inbox.put(press)


def cbreak(stream: Any) -> Callable[[], None]:
    """Put a terminal in cbreak mode (keys without Enter); return what restores it (nothing
    to restore when `stream` is not a terminal)."""
    try:
        import termios
        import tty

        descriptor = stream.fileno()
        saved = termios.tcgetattr(descriptor)
        tty.setcbreak(descriptor)
    except (ImportError, OSError, ValueError):
        return lambda: None
    return lambda: termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)
