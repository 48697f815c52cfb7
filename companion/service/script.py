"""The script language of `duel-companion run --script` and the demo: one input a line
(`select`, `long select`, `scan lumber_yard`, `tick 2.5`, `status camera lost`)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Sequence
from typing import Any

from companion.inputs import Input, Press, Scan, Status, Tick

log = logging.getLogger(__name__)


def parse_script_line(line: str) -> Input | None:
    """One line of a `--script`: `left`, `select`, `right`, `long select`, `scan ID`,
    `scan foreign`, `tick SECONDS`; blank lines and `#` comments give None.

    Raises:
        ValueError: anything else.
    """
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    match words:
        case ["long", ("left" | "select" | "right") as name]:
            return Press(name, long=True)
        case [("left" | "select" | "right") as name]:
            return Press(name)
        case ["scan", "foreign"]:
            return Scan(None)
        case ["scan", card]:
            return Scan(card)
        case ["tick", seconds]:
            return Tick(float(seconds))
        case ["status", *problem]:
            return Status(" ".join(problem) or None)
    raise ValueError(f"not a script line: {line.strip()!r}")


# --- the parts of the kit and their stand-ins -----------------------------------------------


def feed_script(lines: Sequence[str], inbox: queue.Queue[Any], stop: threading.Event) -> None:
    """Put each script input on the queue and wait until the loop has handled it; then
    None, which ends the loop. Bad lines are reported and skipped."""
    for number, line in enumerate(lines, start=1):
        if stop.is_set():
            return
        try:
            given = parse_script_line(line)
        except ValueError as bad:
            log.warning("script line %d: %s", number, bad)
            continue
        if given is not None:
            inbox.put(given)
            inbox.join()
    inbox.put(None)
