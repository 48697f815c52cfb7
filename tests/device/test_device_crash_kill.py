"""Pull the plug: SIGKILL the device at random points of a scripted game, restart it, and find
every row it announced in the journal, the same state, and the game carried on to its end.

The device process is `duel-companion demo --journal J --events`: the run loop's App, fed by
the simulated table, printing each journal row (event or undo) after it is committed and
before the screen shows it.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion.engine.cards import Catalog
from companion.engine.events import event_to_record
from companion.records.game import Game
from companion.records.journal import Journal
from companion.service.playback import read_record

LINE_TIMEOUT = 120.0  # seconds to wait for the next announced row (a slow, shared machine)


def start(journal: Path, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "companion.cli", "demo", "--journal", str(journal)]
    return subprocess.Popen(
        [*command, "--events", "--no-frames", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def reader(process: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The process's stdout lines on a queue, None at the end."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        with process.stdout:
            for line in process.stdout:
                lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def finished(process: subprocess.Popen[str]) -> int:
    """Let the process play to its end; its exit status."""
    lines = reader(process)
    while lines.get(timeout=LINE_TIMEOUT) is not None:
        pass
    return process.wait(timeout=LINE_TIMEOUT)


def rows(journal: Path) -> list[dict[str, Any]]:
    """Every row of the journal's unfinished (or last) game, undo rows included."""
    with Journal.open(journal, readonly=True) as reader_:
        game_id = reader_.current_game() or reader_.games()[-1].id
        return [row.record for row in reader_.rows(game_id)]


def effective(journal: Path, catalog: Catalog) -> tuple[list[dict[str, Any]], Any]:
    """The effective events and the state the device would resume with."""
    with Journal.open(journal) as writer:
        game_id = writer.current_game() or writer.games()[-1].id
        return writer.effective_events(game_id), Game(catalog, writer, game_id).state


def replayed(catalog: Catalog, records: list[dict[str, Any]]) -> Any:
    from companion.engine.events import event_from_record
    from companion.engine.rules import apply, new_game

    state = new_game(catalog)
    for record in records:
        state = apply(state, event_from_record(record))
    return state


@pytest.mark.parametrize("seed", [1, 2])
def test_sigkill_at_random_points_loses_no_announced_row(
    catalog: Catalog, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    journal = tmp_path / "journal.sqlite"
    record = [event_to_record(e) for e in read_record()]
    kills = 0
    for _ in range(4):
        before = rows(journal) if journal.exists() else []
        process = start(journal, "--direct")
        lines = reader(process)
        wanted = rng.randrange(1, 13)  # 4 runs stay well inside the game's ~70 rows
        announced: list[dict[str, Any]] = []
        while len(announced) < wanted:
            line = lines.get(timeout=LINE_TIMEOUT)
            if line is None:
                break
            announced.append(json.loads(line))
        time.sleep(rng.uniform(0, 0.02))  # a random point, maybe in the middle of a turn
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            kills += 1
        process.wait(timeout=LINE_TIMEOUT)
        # drain what was printed before the kill: it was announced too
        while (line := lines.get(timeout=LINE_TIMEOUT)) is not None:
            announced.append(json.loads(line))

        after = rows(journal)
        assert after[: len(before)] == before  # nothing rewritten
        assert after[len(before) : len(before) + len(announced)] == announced
        events, state = effective(journal, catalog)
        assert events == record[: len(events)]  # the recorded game, never a wrong row
        assert state == replayed(catalog, events)
    assert kills >= 3

    assert finished(start(journal, "--direct")) == 0
    events, state = effective(journal, catalog)
    assert events == record
    assert state.finished


def test_sigkill_while_reading_frames_loses_nothing(catalog: Catalog, tmp_path: Path) -> None:
    """The same through the camera pipeline (generated frames, decoder, tracker)."""
    journal = tmp_path / "journal.sqlite"
    process = start(journal)
    lines = reader(process)
    for _ in range(8):
        assert lines.get(timeout=LINE_TIMEOUT) is not None
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=LINE_TIMEOUT)
    while lines.get(timeout=LINE_TIMEOUT) is not None:
        pass
    events, _ = effective(journal, catalog)
    assert len(events) >= 7  # an undo row may be among the 8 announced
    assert finished(start(journal)) == 0
    events, state = effective(journal, catalog)
    assert events == [event_to_record(e) for e in read_record()]
    assert state.finished
