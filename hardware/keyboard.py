"""The keyboard as the three buttons, on a machine without the kit.

Keys `a` `s` `d` (or `j` `k` `l`) are left, select, right; capitals (`A` `S` `D`) are long
presses. In a terminal the arrow keys work too: left and up are left, right and down are
right (the cursor moves as with the buttons). `/` then a card id and Enter is a scan of that
card, as if its sticker were held under the camera (`/lumber_yard`; Esc cancels, backspace
corrects). A terminal is read key by key (cbreak mode); anything else (a pipe) line by line.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from companion.inputs import Press, Scan

KEYS = {"a": "left", "s": "select", "d": "right", "j": "left", "k": "select", "l": "right"}
# What follows ESC for each arrow key, in normal ("[") and application ("O") cursor mode.
ARROWS = {"A": "left", "B": "right", "C": "right", "D": "left"}  # up, down, right, left
ESCAPE = "\x1b"
SCAN_KEY = "/"  # then a card id and Enter: a scan
ENTER = ("\n", "\r")
BACKSPACE = ("\x7f", "\b")


def press_from_key(key: str) -> Press | None:
    """Keyboard stand-in for the buttons: a/s/d short, A/S/D (shift) long; also j/k/l."""
    name = KEYS.get(key.lower())
    if name is None:
        return None
    return Press(name, long=key.isupper())


def press_from_arrow(sequence: str) -> Press | None:
    """The press for what a terminal sends after ESC for an arrow key (`"[D"`: left)."""
    if len(sequence) != 2 or sequence[0] not in "[O":
        return None
    name = ARROWS.get(sequence[1])
    return None if name is None else Press(name)


def read_keys(inbox: queue.Queue[Any], stop: threading.Event, stream: Any) -> None:
    """Put a press on `inbox` for each button key read from `stream`, and a scan for each
    `/card_id` Enter, until it ends or `stop` is set; other keys are ignored. Put the
    terminal in cbreak mode first (`cbreak`)."""
    typed: str | None = None  # a card id being typed after "/"
    while not stop.is_set():
        key = stream.read(1)
        if not key:
            return
        if typed is not None:
            if key in ENTER:
                if typed.strip():
                    inbox.put(Scan(typed.strip()))
                typed = None
            elif key == ESCAPE:
                typed = None
            else:
                typed = typed[:-1] if key in BACKSPACE else typed + key
            continue
        if key == SCAN_KEY:
            typed = ""
            continue
        if key == ESCAPE:  # an arrow key; after a lone Esc the next keys count as typed
            after = stream.read(2)
            arrow = press_from_arrow(after)
            presses = [arrow] if arrow is not None else [press_from_key(k) for k in after]
        else:
            presses = [press_from_key(key)]
        for press in presses:
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
