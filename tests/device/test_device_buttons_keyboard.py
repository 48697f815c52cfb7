"""hardware.keyboard: keys as button presses."""

from __future__ import annotations

import io
import queue
import threading
from typing import Any

import pytest

from companion.inputs import Press, Scan
from hardware.keyboard import cbreak, press_from_key, read_keys


@pytest.mark.parametrize(
    ("key", "press"),
    [
        ("a", Press("left")),
        ("s", Press("select")),
        ("d", Press("right")),
        ("j", Press("left")),
        ("k", Press("select")),
        ("l", Press("right")),
        ("A", Press("left", long=True)),
        ("S", Press("select", long=True)),
        ("L", Press("right", long=True)),
        ("x", None),
        (" ", None),
        ("\n", None),
    ],
)
def test_keys_are_presses(key: str, press: Press | None) -> None:
    assert press_from_key(key) == press


def test_read_keys_puts_each_press_on_the_queue_until_the_stream_ends() -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    read_keys(inbox, threading.Event(), io.StringIO("ax\nSd"))
    assert [inbox.get_nowait() for _ in range(inbox.qsize())] == [
        Press("left"),
        Press("select", long=True),
        Press("right"),
    ]


def test_read_keys_stops_when_told() -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    stop = threading.Event()
    stop.set()
    read_keys(inbox, stop, io.StringIO("aaa"))
    assert inbox.empty()


def test_cbreak_on_something_that_is_not_a_terminal_restores_nothing() -> None:
    restore = cbreak(io.StringIO())
    restore()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("/lumber_yard\n", [Scan("lumber_yard")]),
        ("s/baths\rd", [Press("select"), Scan("baths"), Press("right")]),  # Enter as \r too
        ("/quarrx\x7fy\n", [Scan("quarry")]),  # backspace corrects
        ("/baths\x1ba", [Press("left")]),  # Esc gives up the typed id
        ("/\n", []),  # nothing typed: no scan
        ("/asd\n", [Scan("asd")]),  # the button keys are letters of the id here
    ],
)
def test_slash_then_a_card_id_and_enter_is_a_scan(typed: str, expected: list[Any]) -> None:
    inbox: queue.Queue[Any] = queue.Queue()
    read_keys(inbox, threading.Event(), io.StringIO(typed))
    assert [inbox.get_nowait() for _ in range(inbox.qsize())] == expected
