"""hardware.keyboard: the arrow keys of a terminal move the cursor like the left/right buttons."""

from __future__ import annotations

import io
import queue
import threading
from typing import Any

import pytest

from companion.inputs import Press
from hardware.keyboard import press_from_arrow, read_keys


def presses_read_from(typed: str) -> list[Press]:
    inbox: queue.Queue[Any] = queue.Queue()
    read_keys(inbox, threading.Event(), io.StringIO(typed))
    return [inbox.get_nowait() for _ in range(inbox.qsize())]


@pytest.mark.parametrize(
    ("sequence", "press"),
    [
        ("[D", Press("left")),
        ("[A", Press("left")),  # up: previous option
        ("[C", Press("right")),
        ("[B", Press("right")),  # down: next option
        ("OD", Press("left")),  # application cursor mode
        ("OC", Press("right")),
        ("[H", None),  # Home
        ("[", None),
        ("xD", None),
    ],
)
def test_arrow_sequences_are_presses(sequence: str, press: Press | None) -> None:
    assert press_from_arrow(sequence) == press


def test_arrow_keys_and_letters_mix_in_one_stream() -> None:
    typed = "\x1b[Cs\x1b[DA\x1bOB"
    assert presses_read_from(typed) == [
        Press("right"),
        Press("select"),
        Press("left"),
        Press("left", long=True),
        Press("right"),
    ]


def test_after_a_lone_escape_the_next_keys_still_count() -> None:
    assert presses_read_from("\x1bsd") == [Press("select"), Press("right")]


def test_an_escape_at_the_end_of_the_stream_is_ignored() -> None:
    assert presses_read_from("a\x1b") == [Press("left")]
